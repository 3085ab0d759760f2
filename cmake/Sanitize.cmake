# RETSNOOP_SANITIZE=address,undefined builds everything with those sanitizers (scripts/test.sh
# runs the unit tests so, in a build directory of their own). Sanitized programs cannot link
# statically, so rs_static_link() links them dynamically in such a build. -O1 keeps the build
# short and the reports readable.
set(RETSNOOP_SANITIZE "" CACHE STRING "Comma-separated -fsanitize= list, e.g. address,undefined")
if(RETSNOOP_SANITIZE)
  add_compile_options(-fsanitize=${RETSNOOP_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer -O1)
  add_link_options(-fsanitize=${RETSNOOP_SANITIZE})
endif()
