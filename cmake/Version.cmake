# RETSNOOP_VERSION: `git describe --tags` of the source tree when it is a git checkout with a
# tag ("1.2.0", "1.2.0-3-gabc1234", "-dirty" for local changes), else the project version (a
# release tarball, a checkout without tags). Read at configure time; scripts/build.sh
# reconfigures on every build, so it follows new commits.
find_package(Git QUIET)
set(RETSNOOP_VERSION ${PROJECT_VERSION})
if(GIT_FOUND AND EXISTS ${CMAKE_SOURCE_DIR}/.git)
  execute_process(
    COMMAND ${GIT_EXECUTABLE} describe --tags --dirty
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
    OUTPUT_VARIABLE described
    OUTPUT_STRIP_TRAILING_WHITESPACE
    ERROR_QUIET
    RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND described)
    string(REGEX REPLACE "^v" "" RETSNOOP_VERSION "${described}")
  endif()
endif()
# Written only when it changes, so a reconfigure rebuilds one file, not the tree.
configure_file(${CMAKE_SOURCE_DIR}/src/util/version.cpp.in ${CMAKE_BINARY_DIR}/generated/version.cpp @ONLY)
