// Which attach mechanism the user asked for (-M, -K, -F): the kernel layer turns it into the one
// this kernel runs (choose_attach_kind()).
#pragma once

namespace retsnoop {

enum class AttachMode { Default, MultiKprobe, Kprobe, Fentry };

}  // namespace retsnoop
