# The release binary and everything copied into the test VM must run on any x86-64 or arm64 host
# and in a busybox initramfs without a dynamic loader: link them fully statically. Nothing else
# is static: tests and tools link dynamically, which is faster and keeps the build tree small.
function(rs_static_link target)
  if(NOT RETSNOOP_SANITIZE)
    target_link_options(${target} PRIVATE -static)
  endif()
endfunction()
