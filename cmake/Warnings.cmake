# Every C and C++ target compiles with these warnings; RETSNOOP_WERROR (on in scripts/test.sh)
# makes them errors, so a warning fails the build that checks a change.
option(RETSNOOP_WERROR "Treat compiler warnings as errors" OFF)
add_compile_options(-Wall -Wextra -Wno-missing-field-initializers)
if(RETSNOOP_WERROR)
  add_compile_options(-Werror)
  add_link_options(-Wl,--fatal-warnings)
endif()
