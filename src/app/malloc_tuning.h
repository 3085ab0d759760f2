#pragma once

namespace retsnoop {

// Start-up reads and parses about 15 MB of kernel text (kallsyms, traceable functions, BTF) in
// buffers that grow, get copied and are freed. glibc returns big freed blocks to the kernel at
// once, so every new buffer starts on fresh pages, each a page fault: 10 us apiece in the test
// VMs, and half of start-up's faults. Kept in the heap instead, freed memory is reused.
void keep_freed_memory();

}  // namespace retsnoop
