# The release binary and everything copied into the test VM must run on any x86-64 host and in a
# busybox initramfs without a dynamic loader: link them fully statically.
function(rs_static_link target)
  target_link_options(${target} PRIVATE -static)
endfunction()
