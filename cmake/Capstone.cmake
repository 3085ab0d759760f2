# Capstone decodes kernel text for callee discovery. Only its static library: the release binary
# is fully static and runs in test VMs without a dynamic loader.
find_path(CAPSTONE_INCLUDE_DIR capstone/capstone.h)
find_library(CAPSTONE_LIBRARY NAMES libcapstone.a)
if(NOT CAPSTONE_INCLUDE_DIR OR NOT CAPSTONE_LIBRARY)
  message(FATAL_ERROR
          "Capstone is required as a static library (libcapstone.a): run scripts/setup-deps.sh")
endif()
message(STATUS "Capstone: ${CAPSTONE_LIBRARY}")
add_library(rs_capstone STATIC IMPORTED)
set_target_properties(rs_capstone PROPERTIES IMPORTED_LOCATION ${CAPSTONE_LIBRARY})
# A system include directory: Capstone's headers are not held to the project's warnings.
target_include_directories(rs_capstone SYSTEM INTERFACE ${CAPSTONE_INCLUDE_DIR})
