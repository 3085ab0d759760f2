# libbpf 1.5 or newer as the imported static library rs_libbpf. Unless RETSNOOP_LIBBPF_ROOT names
# an installed one, scripts/build-libbpf.sh builds the pinned release from Debian's source package
# into the build directory once, for the target's C compiler (so the arm64 cross build gets an
# arm64 library). LIBBPF_INCLUDE_DIR also serves the BPF programs (cmake/BpfObject.cmake), so that
# both sides use the same helper definitions and UAPI header.
set(RS_LIBBPF_MIN_VERSION 1.5)
set(RETSNOOP_LIBBPF_ROOT "" CACHE PATH "An installed libbpf (include/, lib/) instead of the pinned build")

set(rs_libbpf_root ${RETSNOOP_LIBBPF_ROOT})
if(NOT rs_libbpf_root)
  set(rs_libbpf_root ${CMAKE_BINARY_DIR}/libbpf)
  execute_process(
    COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/build-libbpf.sh --prefix ${rs_libbpf_root}
            --cc ${CMAKE_C_COMPILER}
    RESULT_VARIABLE rs_libbpf_rc)
  if(NOT rs_libbpf_rc EQUAL 0)
    message(FATAL_ERROR "cannot build libbpf into ${rs_libbpf_root} (scripts/build-libbpf.sh failed)")
  endif()
endif()

# Only the chosen root: a libbpf of the system (Debian 12's is 1.1) must not stand in for it.
# Searched again on every configure, so that a changed root is seen.
unset(LIBBPF_INCLUDE_DIR CACHE)
unset(LIBBPF_LIBRARY CACHE)
find_path(LIBBPF_INCLUDE_DIR bpf/libbpf_version.h PATHS ${rs_libbpf_root}/include NO_DEFAULT_PATH
          NO_CMAKE_FIND_ROOT_PATH)
find_library(LIBBPF_LIBRARY NAMES libbpf.a
             PATHS ${rs_libbpf_root}/lib/${CMAKE_LIBRARY_ARCHITECTURE} ${rs_libbpf_root}/lib
             NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
if(NOT LIBBPF_INCLUDE_DIR OR NOT LIBBPF_LIBRARY)
  message(FATAL_ERROR "libbpf ${RS_LIBBPF_MIN_VERSION} or newer is required: no static libbpf in ${rs_libbpf_root}")
endif()
file(STRINGS ${LIBBPF_INCLUDE_DIR}/bpf/libbpf_version.h rs_libbpf_version_lines
     REGEX "^#define LIBBPF_(MAJOR|MINOR)_VERSION [0-9]+")
string(REGEX REPLACE ".*MAJOR_VERSION ([0-9]+).*" "\\1" rs_libbpf_major "${rs_libbpf_version_lines}")
string(REGEX REPLACE ".*MINOR_VERSION ([0-9]+).*" "\\1" rs_libbpf_minor "${rs_libbpf_version_lines}")
set(LIBBPF_VERSION ${rs_libbpf_major}.${rs_libbpf_minor})
if(LIBBPF_VERSION VERSION_LESS RS_LIBBPF_MIN_VERSION)
  message(FATAL_ERROR
          "libbpf ${RS_LIBBPF_MIN_VERSION} or newer is required, ${LIBBPF_INCLUDE_DIR} has ${LIBBPF_VERSION}")
endif()
message(STATUS "libbpf ${LIBBPF_VERSION}: ${LIBBPF_LIBRARY}")

# An imported target's include directory is a system one: libbpf's headers are not held to the
# project's warnings.
add_library(rs_libbpf STATIC IMPORTED)
set_target_properties(rs_libbpf PROPERTIES IMPORTED_LOCATION ${LIBBPF_LIBRARY}
                                           INTERFACE_INCLUDE_DIRECTORIES ${LIBBPF_INCLUDE_DIR})
