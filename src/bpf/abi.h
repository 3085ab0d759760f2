/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Records shared by the BPF programs and user space. Plain C, fixed-width types only, so the
 * same layout is seen by clang -target bpf and by the C++ side (which static_asserts sizes).
 */
#ifndef RETSNOOP_BPF_ABI_H
#define RETSNOOP_BPF_ABI_H

#ifdef __bpf__
typedef unsigned char rs_u8;
typedef unsigned short rs_u16;
typedef unsigned int rs_u32;
typedef int rs_s32;
typedef unsigned long long rs_u64;
typedef int rs_s32;
typedef long long rs_s64;
#else
#include <stdint.h>
typedef uint8_t rs_u8;
typedef uint16_t rs_u16;
typedef uint32_t rs_u32;
typedef int32_t rs_s32;
typedef uint64_t rs_u64;
typedef int32_t rs_s32;
typedef int64_t rs_s64;
#endif

#define RS_MAX_DEPTH 64  /* traced call levels kept per session */
#define RS_MAX_KSTACK 96 /* kernel stack frames captured at the deepest failure */
#define RS_MAX_LBR 32    /* branch records captured in LBR mode */
#define RS_MAX_USTACK 64 /* -U: user stack frames captured with the kernel stack */
#define RS_COMM_LEN 16
#define RS_MAX_ERRNO 4095 /* ERR_PTR range, -4095..-1 */
#define RS_MAX_LINES 128  /* --line-trace: upper bound of lines.max-count; a power of two */

/* Helpers shared with user space: inlined into BPF programs, plain inline functions in C++. */
#ifdef __bpf__
#define RS_INLINE static __always_inline
#else
#define RS_INLINE static inline
#endif

enum rs_func_flags {
	RS_FUNC_ENTRY = 1u << 0, /* opens a session */
	RS_FUNC_USER = 1u << 1,  /* a user-space function: its probes run on user registers */
};

/*
 * The attach cookie of a tracefs kprobe event whose entry probes are all on entry functions;
 * the other events' cookie is 0, so that their hits outside a session need no function lookup.
 */
#define RS_KEV_ENTRY_FUNCS 1

/* One entry per traced function, indexed by function id (the attach cookie). */
struct rs_func_desc {
	rs_u64 addr;    /* runtime address, used by fentry to map IP -> id */
	rs_u8 ret_kind; /* enum rs_ret_kind (result_kind.h) */
	rs_u8 flags;    /* enum rs_func_flags */
	rs_u16 pad0;
	rs_u32 pad1;
};

/*
 * A reported session reaches user space as several ring buffer records sharing session_id: its
 * parts (RS_REC_FRAMES, RS_REC_SAVED, RS_REC_KSTACK, RS_REC_LBR and, with -T, RS_REC_CALL) and,
 * last, the RS_REC_SESSION header that says how many of each to expect. One program run emits
 * all parts of a session in order, so the header completes it. Parts carry only the used
 * entries, which keeps records small and lets the ring buffer hold many sessions.
 */
enum rs_rec_type {
	RS_REC_SESSION = 1,
	RS_REC_FRAMES = 2, /* struct rs_frame[cnt]: the reported chain, outermost first */
	RS_REC_SAVED = 3,  /* struct rs_frame[cnt]: an earlier failing chain, for stitching */
	RS_REC_KSTACK = 4, /* rs_u64[cnt]: kernel stack, innermost frame first */
	RS_REC_LBR = 5,    /* struct rs_lbr_entry[cnt]: newest first, as the hardware reports */
	RS_REC_CALL = 6,   /* -T: one function entry or exit inside a session */
	RS_REC_PROBE = 7,  /* -T: an injected probe (-J) hit inside a session */
	RS_REC_USTACK = 8, /* -U: rs_u64[cnt]: user stack, innermost frame first */
	RS_REC_PROC = 9,   /* -U: struct rs_proc_rec, a process's first session just started */
	RS_REC_ARGS =
		10, /* -A: struct rs_args_rec, one traced call's arguments or probe hit's context */
	RS_REC_LINES = 11, /* --line-trace: struct rs_line_hit[cnt], see struct rs_line_ring */
	RS_REC_KMSG = 12,  /* struct rs_kmsg_rec: a message the kernel emitted inside a session */
};

/* Header of every part record; the payload follows without padding. */
struct rs_part_hdr {
	rs_u32 type;
	rs_u32 cnt;
	rs_u64 session_id;
};

/* One traced call level of a session stack. */
struct rs_frame {
	rs_u32 func_id;
	rs_u32 seq; /* call number within the session: identifies one call */
	rs_u64 start_ns;
	rs_u64 dur_ns;
	rs_s64 res;
};

struct rs_lbr_entry {
	rs_u64 from;
	rs_u64 to;
	rs_u64 flags;
};

enum rs_session_flags {
	RS_SESS_ERROR = 1u << 0,        /* the reported chain ends in a failure */
	RS_SESS_DISCARD = 1u << 1,      /* -T, -A: not reported, user space frees its records */
	RS_SESS_KSTACK_ERR = 1u << 2,   /* bpf_get_stack failed */
	RS_SESS_PART_LOST = 1u << 3,    /* a part record did not fit in the ring buffer */
	RS_SESS_INTERIM = 1u << 4,      /* -I: a failing chain about to be lost, sent mid-session */
	RS_SESS_USTACK_ERR = 1u << 5,   /* -U: bpf_get_stack(BPF_F_USER_STACK) failed */
	RS_SESS_REPEAT_FIRST = 1u << 6, /* -C stacks.repeats=count: later repeats are counted */
};

struct rs_session_rec {
	rs_u32 type; /* RS_REC_SESSION */
	rs_u32 flags;
	rs_u64 session_id;
	rs_u32 pid;
	rs_u32 tid;
	char task_comm[RS_COMM_LEN];
	char proc_comm[RS_COMM_LEN];
	rs_u64 start_ns;    /* entry call start, CLOCK_MONOTONIC */
	rs_u64 end_ns;      /* session end */
	rs_u32 depth;       /* frames in RS_REC_FRAMES */
	rs_u32 saved_depth; /* frames in RS_REC_SAVED, 0: none sent */
	rs_u32 kstack_cnt;
	rs_u32 lbr_cnt;
	rs_u32 trace_cnt;  /* -T records emitted for this session */
	rs_u32 trace_lost; /* -T records that did not fit in the ring buffer */
	rs_u32 running;    /* interim: outermost frames whose calls had not returned yet */
	rs_u32 ustack_cnt; /* -U: frames in RS_REC_USTACK */
	/*
	 * Session id that the -T records carry: the final report's. An interim report names it so
	 * that user space shows it the records received so far.
	 */
	rs_u64 trace_id;
	rs_u32 line_total; /* --line-trace: line hits recorded in the session, kept or not */
	rs_u32 pad;
};

/*
 * -U: sent when a process opens its first session, and its first after each exec, while it still
 * runs, so that user space reads its memory map before it can exit; user stacks are symbolized
 * against the map read for the latest such session at or before theirs.
 */
struct rs_proc_rec {
	rs_u32 type; /* RS_REC_PROC */
	rs_u32 pid;
	rs_u64 session_id; /* the session being opened */
};

/* -T record: one entry or exit of a traced function. */
struct rs_call_rec {
	rs_u32 type; /* RS_REC_CALL */
	rs_u16 depth;
	rs_u8 is_entry;
	rs_u8 pad;
	rs_u64 session_id;
	rs_u32 func_id;
	rs_u32 seq; /* record number within the session: gaps mean lost records */
	/*
	 * Entries: start time (CLOCK_MONOTONIC). Exits: the call's duration, measured in BPF, so it
	 * stays right when records in between were lost, the entry's own included.
	 */
	rs_u64 time_ns;
	union {
		rs_s64 res;      /* exits */
		rs_u32 call_seq; /* entries: struct rs_frame's seq of the call, for its -A arguments */
	};
};

/*
 * -T record: an injected probe hit. It shares the session's record numbering with struct
 * rs_call_rec, which keeps its place among the calls.
 */
struct rs_probe_rec {
	rs_u32 type;  /* RS_REC_PROBE */
	rs_u16 depth; /* calls running when it hit: it sits one level inside the innermost */
	rs_u16 pad;
	rs_u64 session_id;
	rs_u32 probe_id; /* index into the table of injected probes */
	rs_u32 seq;
	rs_u64 time_ns; /* CLOCK_MONOTONIC */
};

/*
 * Raw tracepoint links carry no cookie before Linux 6.10 (tracepoint perf events none before
 * 5.15), so each such injected probe gets its own copy of the program, in which user space
 * replaces this 64-bit immediate by the probe id.
 */
#define RS_PROBE_ID_MARK 0x52534a50524f4245ULL /* "RSJPROBE" */

/*
 * Without BPF cookies (before 5.15) an injected kprobe is known by what its hit sees: the probed
 * address and whether it is a return probe. The probe_keys map holds these keys -> probe id.
 * Tracepoints get program copies with the probe id for RS_PROBE_ID_MARK, as raw tracepoints do.
 */
enum rs_probe_key_kind {
	RS_PROBE_KEY_KPROBE = 1,
	RS_PROBE_KEY_KRETPROBE = 2,
};

struct rs_probe_key {
	rs_u64 value; /* probed address */
	rs_u32 kind;  /* enum rs_probe_key_kind */
	rs_u32 pad;
};

/*
 * -A: argument capture. Arguments are read at function entry from slots: first the kprobe's
 * registers in the architecture's calling convention (x86-64: rdi, rsi, rdx, rcx, r8, r9;
 * arm64: x0..x7), then the 8-byte stack words the caller passed further arguments in, nearest
 * the return address first; or the fentry context, which holds the same slots in the same order.
 * 16 covers the kernel's limit of 12 arguments for BPF trampolines, and is a power of two.
 */
#define RS_MAX_ARG_SLOTS 16
#define RS_MAX_ARGS_DATA 65536 /* upper bound of args.max-total-args-size: one call's data */
#define RS_MAX_ARG_DATA 16384  /* upper bound of args.max-sized-arg-size and max-str-arg-size */

enum rs_arg_kind {
	RS_ARG_REG = 0, /* the slot values only: scalars, pointers without known pointee */
	RS_ARG_PTR = 1, /* the slot value, plus spec.size bytes read at that address */
	RS_ARG_STR = 2, /* the slot value, plus the NUL-terminated string at that address */
	/*
	 * A classic tracepoint's __data_loc (or, with RS_ARG_REL_LOC, __rel_loc) field: the slot
	 * holds the record's address, spec.size the offset of the field's 32-bit locator in it, and
	 * the locator where its bytes are (low 16 bits their offset, high 16 their length): up to
	 * max-str-arg-size of them are read.
	 */
	RS_ARG_DATA_LOC = 3,
};

enum rs_arg_flags {
	RS_ARG_USER = 1u << 0,    /* a __user pointer: read with bpf_probe_read_user() */
	RS_ARG_KERNEL = 1u << 1,  /* a kernel pointer; with neither flag the address decides */
	RS_ARG_REL_LOC = 1u << 2, /* RS_ARG_DATA_LOC: the offset counts from the locator's end */
};

/* How one argument is captured. */
struct rs_arg_spec {
	rs_u8 kind;  /* enum rs_arg_kind */
	rs_u8 flags; /* enum rs_arg_flags */
	rs_u8 slot;  /* first slot: a register, or past them a stack word */
	rs_u8 slots; /* 1, or 2 for a struct or union of 9..16 bytes passed by value */
	rs_u32 size; /* RS_ARG_PTR: the pointee's size, before the max-sized-arg-size limit */
		     /* RS_ARG_DATA_LOC: the locator's offset in the record */
};

/*
 * Where a traced function's argument slots come from. A system call's wrapper
 * (__x64_sys_NAME, __arm64_sys_NAME) takes one argument, the user's registers saved at kernel
 * entry: its slots are the call's arguments in the system call convention's registers there
 * (x86-64: di, si, dx, r10, r8, r9; arm64: x0..x5).
 */
enum rs_slots_from {
	RS_SLOTS_OWN = 0,          /* the function's own arguments */
	RS_SLOTS_SYSCALL_REGS = 1, /* the system call's, in the pt_regs of the first argument */
};

/* Per traced function or injected probe (array maps indexed by their id): what a hit captures. */
struct rs_func_args {
	rs_u32 cnt;         /* captured arguments, at most RS_MAX_ARG_SLOTS */
	rs_u16 stack_slots; /* kprobes: slots past the registers, read from the stack at entry */
	rs_u16 slots_from;  /* enum rs_slots_from */
	struct rs_arg_spec args[RS_MAX_ARG_SLOTS];
};

/* Negative data lengths in struct rs_args_rec. */
#define RS_ARG_ERR_FAULT (-14) /* the pointer could not be read (-EFAULT) */
#define RS_ARG_ERR_BUDGET (-7) /* skipped: the call's max-total-args-size was used up (-E2BIG) */

/*
 * One traced call's arguments, sent at its entry under the session's id, before that entry's
 * -T record. User space ties it to the stack frame or -T entry with the same call_seq.
 */
#define RS_ARGS_PROBE (1u << 31) /* in func_id: a probe id, and call_seq its -T record's seq */

struct rs_args_rec {
	rs_u32 type;    /* RS_REC_ARGS */
	rs_u32 func_id; /* or, with RS_ARGS_PROBE, an injected probe's id */
	rs_u64 session_id;
	rs_u32 call_seq;                /* struct rs_frame's seq of this call */
	rs_u32 data_len;                /* bytes in data[] */
	rs_u64 slots[RS_MAX_ARG_SLOTS]; /* raw slot values: registers, then stack words */
	/*
	 * Per argument: bytes of data[] it took (>= 0; for RS_ARG_STR the terminating NUL included,
	 * except for a string that filled its limit and may go on), or RS_ARG_ERR_*. Each argument's data starts at an 8-byte-aligned offset
	 * following the previous one's. RS_ARG_REG arguments and NULL pointers take none.
	 */
	rs_s32 lens[RS_MAX_ARG_SLOTS];
	/* rs_u8 data[data_len] follows */
};

/*
 * --arg-filter: a small program per entry function, run at its entry before a session opens
 * (arg_filter.h). A stack machine of 64-bit values over the call's argument slots: forward jumps
 * only, at most RS_FILTER_MAX_INSNS steps, so it always ends. The session opens when the value
 * left on top is not zero; a memory read that fails makes the whole program false.
 */
#define RS_MAX_CGROUPS 16      /* --cgroup and --no-cgroup directories together */
#define RS_FILTER_MAX_INSNS 64 /* a power of two: the interpreter masks its program counter */
#define RS_FILTER_MAX_STACK 8  /* values on the stack at once; a power of two */
#define RS_FILTER_MAX_STRS 4   /* string constants of one program */
#define RS_FILTER_STR_WORDS 8  /* 64 bytes of a string compared, its NUL included */

enum rs_filter_op {
	RS_FOP_ARG = 1,    /* push slots[imm] */
	RS_FOP_CONST = 2,  /* push imm */
	RS_FOP_ADD = 3,    /* top += imm: a member's or an element's offset */
	RS_FOP_LOAD = 4,   /* top = the size-byte integer at address top (flags: RS_FFL_*) */
	RS_FOP_BITS = 5,   /* top = (top >> aux) & imm: a bit-field, once loaded */
	RS_FOP_AND = 6,    /* b = pop; top &= b */
	RS_FOP_CMP = 7,    /* b = pop; top = (top <aux> b), enum rs_filter_cmp */
	RS_FOP_NOT = 8,    /* top = !top */
	RS_FOP_JFALSE = 9, /* top == 0: skip imm instructions, top stays; otherwise pop */
	RS_FOP_JTRUE = 10, /* top != 0: skip imm instructions, top stays; otherwise pop */
	RS_FOP_STR = 11,   /* top = whether the string at address top matches strs[imm] */
	RS_FOP_NEG = 12,   /* top = -top */
};

enum rs_filter_cmp {
	RS_FCMP_EQ = 0,
	RS_FCMP_NE = 1,
	RS_FCMP_LT = 2, /* the unsigned ones; RS_FCMP_SIGNED added: signed */
	RS_FCMP_LE = 3,
	RS_FCMP_GT = 4,
	RS_FCMP_GE = 5,
	RS_FCMP_SIGNED = 8,
};

enum rs_filter_flags {
	RS_FFL_SIGNED = 1u << 0, /* LOAD: sign-extend the value read */
	RS_FFL_USER = 1u << 1,   /* LOAD, STR: user memory; with neither flag the address decides */
	RS_FFL_KERNEL = 1u << 2, /* LOAD, STR: kernel memory */
};

struct rs_filter_insn {
	rs_u8 op;    /* enum rs_filter_op */
	rs_u8 size;  /* LOAD: 1, 2, 4 or 8 */
	rs_u8 flags; /* enum rs_filter_flags */
	rs_u8 aux;   /* CMP: enum rs_filter_cmp; BITS: the shift */
	rs_u32 pad;
	rs_u64 imm;
};

/*
 * A string constant: the bytes a matching string has where mask has 0xff. An exact match
 * covers the NUL too; a prefix match ("abc*") stops before it.
 */
struct rs_filter_str {
	rs_u64 bytes[RS_FILTER_STR_WORDS];
	rs_u64 mask[RS_FILTER_STR_WORDS];
};

/* Per entry function (an array map indexed by function id). */
struct rs_arg_filter {
	rs_u32 cnt;         /* instructions; 0: this function opens no session */
	rs_u16 stack_slots; /* kprobes: argument slots past the registers, read from the stack */
	rs_u16 slots_from;  /* enum rs_slots_from */
	struct rs_filter_insn insns[RS_FILTER_MAX_INSNS];
	struct rs_filter_str strs[RS_FILTER_MAX_STRS];
};

/*
 * --line-trace: one hit of a line probe (a kprobe on the first instruction of a source line)
 * inside a session. The hits are kept in a ring per session slot: hit number n (from 0) is at
 * n % lines.max-count, so with more hits than that the oldest kept one is at line_total % max.
 */
struct rs_line_hit {
	rs_u32 line_id;  /* index into the table of line probes */
	rs_u32 call_seq; /* struct rs_frame's seq of the innermost traced call running */
	rs_u32 trace_seq; /* -T: seq of the next call trace record, which places the hit among them */
};

struct rs_line_ring {
	struct rs_part_hdr hdr; /* room for the RS_REC_LINES header: one write sends both */
	struct rs_line_hit hits[RS_MAX_LINES];
};

/* Counters user space reads at exit (BPF global data). */
struct rs_stats {
	rs_u64 sessions_reported; /* sessions (interim ones included) sent or attempted */
	rs_u64 sessions_dropped;  /* header did not fit in the ring buffer */
	rs_u64 sessions_nomem;    /* session map full */
	rs_u64 sessions_broken;   /* exit without matching entry (missed probe) */
	rs_u64 depth_overflow;    /* calls deeper than RS_MAX_DEPTH */
	rs_u64 sessions_counted;  /* -C stacks.repeats=count: counted in repeats, not sent */
};

/*
 * -C stacks.repeats=count: the repeats map. Keyed by the session's repeat key (repeat_key.h) and
 * the interval it ended in: user space advances repeat_interval and collects (and deletes) the
 * entries of intervals no program can still be updating.
 */
#define RS_REPEAT_TASKS 8 /* distinct TID/PID pairs kept per entry */

struct rs_repeat_key {
	rs_u64 hash;
	rs_u64 interval;
};

struct rs_repeat {
	rs_u64 first_id; /* session id of the occurrence sent in full */
	rs_u64 count;    /* later occurrences, counted instead of sent */
	rs_u64 first_ns; /* end of the first and the last counted one (CLOCK_MONOTONIC) */
	rs_u64 last_ns;
	rs_u32 task_cnt; /* TID/PID pairs in tids/pids; more tasks than fit are not named */
	rs_u32 pad;
	rs_u32 tids[RS_REPEAT_TASKS];
	rs_u32 pids[RS_REPEAT_TASKS];
};

/*
 * A message the kernel emitted on a session's thread (messages.bpf.c): its format and raw
 * arguments, expanded in user space. Each argument is also read as a string, where it points to
 * one, since BPF does not parse the format.
 */
#define RS_KMSG_ARGS 4  /* arguments kept after the format */
#define RS_KMSG_STR 96  /* bytes kept of each string argument */
#define RS_KMSG_FMT 192 /* bytes kept of the format (or the literal text) */
#define RS_KMSG_PREFIX 32
/* Stack frames kept where the emitter is deeper than the probe's return address. */
#define RS_KMSG_STACK 12

enum rs_kmsg_kind {
	RS_KMSG_FS = 1,       /* fs_context log: logfc() (errorfc, invalfc, warnfc) */
	RS_KMSG_EXTACK = 2,   /* netlink extended ack: do_trace_netlink_extack() */
	RS_KMSG_VERIFIER = 3, /* BPF verifier log line: bpf_verifier_vlog() */
	RS_KMSG_PRINTK = 4,   /* printk() and dev_printk(): vprintk_store() */
};

struct rs_kmsg_rec {
	rs_u32 type;   /* RS_REC_KMSG */
	rs_u8 kind;    /* enum rs_kmsg_kind */
	rs_u8 literal; /* fmt holds the text itself, already formatted by the kernel */
	rs_u8 nargs;
	rs_u8 str_ok; /* bit i: strs[i] holds the string args[i] points to */
	rs_u64 session_id;
	rs_u64 time_ns; /* CLOCK_MONOTONIC */
	rs_u64 caller;  /* return address into the emitting function; 0: unknown */
	rs_u64 args[RS_KMSG_ARGS];
	char prefix[RS_KMSG_PREFIX]; /* fs: the context's prefix (the filesystem's name) */
	char fmt[RS_KMSG_FMT];
	char strs[RS_KMSG_ARGS][RS_KMSG_STR];
	/*
	 * printk, verifier: the kernel stack at the probe, innermost first, zero-filled; user space
	 * takes the first frame past the message plumbing as the emitter. Unused otherwise.
	 */
	rs_u64 stack[RS_KMSG_STACK];
};

/*
 * --callees: the kprobe of an indirect call site carries its site index and where the
 * instruction reads its target in its BPF cookie: bits 0-7 the register (its 8-byte slot in
 * struct pt_regs), bit 8 set when the target is the pointer at register + displacement, bits
 * 16-31 the site index, bits 32-63 the displacement (signed). Without BPF cookies for kprobes
 * (before 5.15) each site gets its own copy of the program, with this value in place of
 * RS_INDIRECT_MARK.
 */
#define RS_INDIRECT_MARK 0x5253494e44495243ULL /* "RSINDIRC" */
#define RS_INDIRECT_MAX_SITES 65535
#define RS_INDIRECT_MAX_SEEN 4096 /* (site, target) pairs counted */
#define RS_INDIRECT_REG(c) ((rs_u32)((c)&0xff))
#define RS_INDIRECT_MEM(c) (((c) >> 8) & 1)
#define RS_INDIRECT_SITE(c) ((rs_u32)(((c) >> 16) & 0xffff))
#define RS_INDIRECT_DISP(c) ((rs_s32)((c) >> 32))

struct rs_indirect_key {
	rs_u32 site; /* index in the sites user space attached */
	rs_u32 pad;
	rs_u64 target;
};

#endif /* RETSNOOP_BPF_ABI_H */
