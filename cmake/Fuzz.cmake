# RETSNOOP_FUZZ builds the libFuzzer targets of tests/fuzz (scripts/fuzz.sh builds and runs them,
# with RETSNOOP_SANITIZE=address,undefined). libFuzzer comes with clang only. Every library is
# compiled with the fuzzer's coverage hooks: the parsers the targets call are what steers it.
option(RETSNOOP_FUZZ "Build the libFuzzer targets (clang)" OFF)
if(RETSNOOP_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "RETSNOOP_FUZZ needs clang: configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
# RETSNOOP_FUZZ_ELFUTILS: a directory holding libelf.a and libdw.a built with the same hooks
# (scripts/fuzz-elfutils.sh), linked instead of the system's: without them the ELF and DWARF
# parsers the targets drive are invisible to the fuzzer.
set(RETSNOOP_FUZZ_ELFUTILS "" CACHE PATH "Instrumented libelf.a and libdw.a for the fuzz targets")
set(RS_ELFUTILS_LIBS dw elf)
if(RETSNOOP_FUZZ_ELFUTILS)
  if(NOT RETSNOOP_FUZZ)
    message(FATAL_ERROR "RETSNOOP_FUZZ_ELFUTILS is for fuzz builds (RETSNOOP_FUZZ)")
  endif()
  set(RS_ELFUTILS_LIBS ${RETSNOOP_FUZZ_ELFUTILS}/libdw.a ${RETSNOOP_FUZZ_ELFUTILS}/libelf.a)
endif()
