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
