# bpf_object(NAME SOURCE [DEPENDS headers...]) compiles SOURCE with clang -target bpf into
# NAME.bpf.o and generates NAME.skel.h with bpftool; links as the INTERFACE target NAME_skel.
find_program(BPF_CLANG NAMES clang REQUIRED)
find_program(BPFTOOL NAMES bpftool PATHS /usr/sbin /usr/local/sbin REQUIRED)

function(bpf_object name source)
  cmake_parse_arguments(ARG "" "" "DEPENDS" ${ARGN})
  set(obj ${CMAKE_CURRENT_BINARY_DIR}/${name}.bpf.o)
  set(skel ${CMAKE_CURRENT_BINARY_DIR}/${name}.skel.h)
  add_custom_command(
    OUTPUT ${obj}
    COMMAND ${BPF_CLANG} -g -O2 -target bpf -D__TARGET_ARCH_x86 -mcpu=v3
            -I${CMAKE_CURRENT_SOURCE_DIR} -idirafter /usr/include -idirafter /usr/include/x86_64-linux-gnu
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
