// How the C allocator returns memory: retsnoop frees its largest buffers (kallsyms, the BTF,
// discovery's tables) before tracing starts, and what it holds while tracing should be what the
// trace needs.
#pragma once

namespace retsnoop {

// Call once, first thing in main(), before any other thread exists.
void set_allocator_policy();

}  // namespace retsnoop
