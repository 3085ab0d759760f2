# bpf_object(NAME SOURCE [DEFINES macros...] [DEPENDS headers...]) compiles SOURCE with clang
# -target bpf into NAME.bpf.o and generates NAME.skel.h with bpftool; links as the INTERFACE
# target NAME_skel.
find_program(BPF_CLANG NAMES clang REQUIRED)
find_program(BPFTOOL NAMES bpftool PATHS /usr/sbin /usr/local/sbin REQUIRED)

# BPF objects are built per target architecture: kprobe handlers see that architecture's register
# frame (vmlinux_min.h), and the UAPI headers come from libbpf's (cmake/Libbpf.cmake), then from
# its multiarch include directory.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(RS_BPF_ARCH arm64)
  set(RS_BPF_MULTIARCH aarch64-linux-gnu)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|amd64|AMD64)$")
  set(RS_BPF_ARCH x86)
  set(RS_BPF_MULTIARCH x86_64-linux-gnu)
else()
  message(FATAL_ERROR "retsnoop builds for x86-64 and arm64, not ${CMAKE_SYSTEM_PROCESSOR}")
endif()

function(bpf_object name source)
  cmake_parse_arguments(ARG "" "" "DEFINES;DEPENDS" ${ARGN})
  list(TRANSFORM ARG_DEFINES PREPEND -D)
  set(obj ${CMAKE_CURRENT_BINARY_DIR}/${name}.bpf.o)
  set(skel ${CMAKE_CURRENT_BINARY_DIR}/${name}.skel.h)
  add_custom_command(
    OUTPUT ${obj}
    COMMAND ${BPF_CLANG} -g -O2 -target bpf -D__TARGET_ARCH_${RS_BPF_ARCH} ${ARG_DEFINES} -mcpu=v3
            -I${CMAKE_CURRENT_SOURCE_DIR} -I${LIBBPF_INCLUDE_DIR} -idirafter /usr/include -idirafter /usr/include/${RS_BPF_MULTIARCH}
            -Wall -Werror -c ${CMAKE_CURRENT_SOURCE_DIR}/${source} -o ${obj}
    DEPENDS ${source} ${ARG_DEPENDS}
    COMMENT "BPF ${name}"
    VERBATIM)
  add_custom_command(
    OUTPUT ${skel}
    COMMAND ${BPFTOOL} gen skeleton ${obj} name ${name} > ${skel}
    DEPENDS ${obj}
    COMMENT "skeleton ${name}"
    VERBATIM)
  add_custom_target(${name}_skel_gen DEPENDS ${skel})
  add_library(${name}_skel INTERFACE)
  add_dependencies(${name}_skel ${name}_skel_gen)
  target_include_directories(${name}_skel INTERFACE ${CMAKE_CURRENT_BINARY_DIR})
endfunction()
