// SPDX-License-Identifier: BSD-2-Clause
/*
 * Session recording. Every traced function gets the same entry and exit handler; the attach
 * mechanism only decides how a handler learns the function id (attach cookie or IP lookup) and
 * the return value. Per thread, the first call of an entry function opens a session; calls
 * inside it are kept as a stack of up to RS_MAX_DEPTH levels, whose chain of interest chain.h
 * decides (shared with the unit tests); when the entry call returns, the session is sent to user
 * space if it is worth reporting: it ended in a failure (result_kind.h defines which results
 * are one) or -S asked for every session, and it lasted at least -L.
 */
#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "abi.h"
#include "chain.h"
#include "result_kind.h"
#include "lbr_keep.h"
#include "repeat_key.h"
#include "func_slots.h"
#include "session_slots.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set by user space before load. */
const volatile bool success_stacks = false;  /* -S */
const volatile bool emit_trace = false;      /* -T */
const volatile bool capture_lbr = false;     /* --lbr */
const volatile bool interim_stacks = false;  /* -I */
const volatile __u64 min_duration_ns = 0;    /* -L */
const volatile bool has_pid_allow = false;   /* -p given */
const volatile bool has_comm_allow = false;  /* -n given */
const volatile bool has_pid_filter = false;  /* -p or -P given */
const volatile bool has_comm_filter = false; /* -n or -N given */
const volatile bool follow_command = false;  /* command mode: only command_pids are traced */
const volatile bool capture_ustack = false;  /* -U */
const volatile bool count_repeats = false;   /* -C stacks.repeats=count */
const volatile __u32 max_sessions = 1;       /* -C bpf.sessions-size: open at the same time */
const volatile __u32 session_slots = 1;      /* the sessions map's size */
const volatile __u32 cpu_bits = 0;           /* session_bits' first bits, for idle tasks */
const volatile __u32 func_slot_mask = 0;     /* func_slots' size minus one */
/*
 * What the kernel offers beyond Linux 5.10, probed by user space (kernel/features.h). Code
 * behind a false knob is dead at load: the verifier never sees its helper calls or atomics.
 */
const volatile bool has_cookie = true;       /* bpf_get_attach_cookie(), 5.15 */
const volatile bool has_func_ip = true;      /* bpf_get_func_ip() of kprobes, 5.15 */
const volatile bool has_task_btf = true;     /* bpf_get_current_task_btf(), 5.11 */
const volatile bool has_task_storage = true; /* task local storage, 5.11 */
/*
 * Before 5.15 a stack taken in a kretprobe does not unwind past the kretprobe trampoline: the
 * kernel stack is then taken when the session opens, at its entry call.
 */
const volatile bool kstack_at_entry = false;
/* Without bpf_get_func_ip(): kallsyms addresses of current_kprobe and __per_cpu_offset[]. */
const volatile __u64 current_kprobe_addr = 0;
const volatile __u64 per_cpu_offset_addr = 0;
/* Without cookies, for -J kretprobes: the pre-handler every kretprobe's kprobe runs. */
const volatile __u64 kretprobe_pre_handler_addr = 0;

/*
 * Before 5.12 the verifier refuses atomics that return a value (compare-and-swap, exchange,
 * fetch-add, fetch-or) anywhere in a program, even where it never runs: this file is built a
 * second time without them (RS_NO_ATOMIC_FETCH), and user space loads that build there.
 */
#ifdef RS_NO_ATOMIC_FETCH
#define has_atomic_fetch false
#else
#define has_atomic_fetch true
#endif

/* Flipped by user space once every probe is attached: until then handlers do nothing. */
bool ready = false;
/* -C stacks.repeats=count: advanced by user space; see struct rs_repeat_key. */
__u64 repeat_interval = 0;
__u64 session_counter = 0;
__u32 open_sessions = 0;
/* Set by user space while its reader waits for records; see header_wakeup(). */
bool reader_waiting = false;
/* Kernel stack frames to ask for: see capture_kstack(). */
__u32 kstack_want = 16;
struct rs_stats stats = {};

struct session {
	__u64 owner;      /* session_key() | RS_SESSION_OPEN while open; see session_claim() */
	__u64 task_start; /* the thread's start_time: another thread may get its TID once it exits */
	__u32 slot;       /* its index in sessions, kept where slot_claims holds it (before 5.12) */
	__u32 pad0;
	__u64 id;         /* id of the final report; interim reports (-I) get their own */
	__u32 trace_cnt;  /* -T records sent */
	__u32 trace_lost; /* -T records that did not fit */
	bool kstack_err;
	bool ustack_err;
	bool args_sent; /* -A records sent: user space frees them if the session is discarded */
	__u8 pad;
	__u32 line_total;          /* --line-trace: line hits recorded (line_ring.h) */
	struct rs_session_rec rec; /* who and when, filled at open; the rest at each report */
	struct rs_chain chain;
	struct rs_part_hdr kstack_hdr;
	__u64 kstack[RS_MAX_KSTACK];
	struct rs_part_hdr lbr_hdr;
	struct rs_lbr_entry lbr[RS_MAX_LBR];
	struct rs_part_hdr ustack_hdr;
	__u64 ustack[RS_MAX_USTACK];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 8 << 20); /* resized by user space */
} rb SEC(".maps");

#include "arg_capture.h"
#include "session_gates.h"

/*
 * Open addressing by thread in an array, whose lookups the verifier inlines: a hash map lookup
 * (jhash, a bucket walk, memcmp) cost as much as the rest of a probe hit's own work (about 120
 * instructions each, six per session). A thread's session takes the first slot not
 * open at or after its home slot, at most RS_SESSION_PROBES on (session_slots.h); a closed slot
 * is anybody's, its contents are only read as far as the session's counts say. open_sessions
 * keeps the open ones to bpf.sessions-size.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* created by user space at its size */
	__type(key, __u32);
	__type(value, struct session);
} sessions SEC(".maps");

/* A task's comm as words: compared whole, and the whole buffer is the comm_filter key. */
struct task_comm {
	__u64 w[RS_COMM_LEN / 8];
};

/*
 * Bit TID % 64 of word TID / 64: set while the thread's session may be open, so that a hit
 * outside any session, the common case, costs an array lookup the verifier inlines instead of a
 * sessions map lookup, which hashes the TID. The session's own
 * owner word decides. The first cpu_bits bits are the idle tasks' (TID 0, one per CPU, which
 * never migrates), by CPU; the TIDs' follow, up to pid_max as user space sized the map. TIDs
 * beyond it (pid_max raised later) have no bit: they always look up, which misses only after
 * RS_SESSION_PROBES slots.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* resized to the CPUs' words and pid_max / 64 */
	__type(key, __u32);
	__type(value, __u64);
} session_bits SEC(".maps");

/*
 * Before 5.12 a slot cannot be taken by compare-and-swap: it is taken by inserting its index
 * here, which succeeds for one thread only, and given back by deleting it.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1); /* resized to the sessions map's size where used */
	__type(key, __u32);
	__type(value, __u32);
} slot_claims SEC(".maps");

/*
 * Before 5.12 session ids come from a counter per CPU (no atomic returns a value): the count
 * above the CPU number, unique without any CPU seeing another's.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} cpu_session_counter SEC(".maps");

#define RS_ID_CPU_BITS 12

enum filter_verdict { VERDICT_UNJUDGED, VERDICT_ADMITTED, VERDICT_REFUSED };

/*
 * Per task, with -p/-P/-n/-N: their verdict on it, valid while the task's comm buffer holds what
 * it held when judged. Freed with its task or with the map.
 */
struct task_verdict {
	__u8 verdict; /* enum filter_verdict */
	__u8 pad[7];
	/*
	 * task->comm as read in place, bytes after the NUL included (not zeroed before 5.17): the
	 * same bytes, the same comm; other bytes after the NUL only cost a new verdict.
	 */
	struct task_comm judged;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_verdict);
} task_verdicts SEC(".maps");

/*
 * LBR mode: each exit's branch snapshot, taken before the exit looks anything up, and copied into
 * the session only if it keeps it (lbr_keep.h). Too large for the BPF stack. Per CPU, as the
 * program runs with migration disabled; a program nesting on this CPU in between (an fexit from an
 * interrupt) overwrites it, as it would have overwritten the hardware's records.
 */
struct lbr_scratch {
	struct rs_lbr_entry entries[RS_MAX_LBR];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lbr_scratch);
} lbr_scratch SEC(".maps");

/* One exit's snapshot: bytes is bpf_get_branch_snapshot()'s answer, 0 when none was taken. */
struct lbr_snap {
	struct lbr_scratch *scratch;
	long bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* resized to the number of functions */
	__type(key, __u32);
	__type(value, struct rs_func_desc);
} func_descs SEC(".maps");

/* Function start address -> function id: see func_slots.h. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* resized to the table user space built, when used */
	__type(key, __u32);
	__type(value, struct rs_func_slot);
} func_slots SEC(".maps");

/* -p/-P: value 1 allows, 0 denies. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64); /* resized by user space */
	__type(key, __u32);
	__type(value, __u8);
} pid_filter SEC(".maps");

/* -n/-N: value 1 allows, 0 denies. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64); /* resized by user space */
	__type(key, char[RS_COMM_LEN]);
	__type(value, __u8);
} comm_filter SEC(".maps");

/*
 * Command mode: the processes (TGIDs) of the command and its descendants. User space puts the
 * command in before it runs; rs_fork adds each child of a process already in, so a child is in
 * before it can run. Entries of exited processes stay: PIDs are not reused within a command's
 * lifetime often enough to matter, and deleting would cost a program on every exit.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, __u8);
} command_pids SEC(".maps");

/*
 * -U: processes whose memory map user space was told to read (struct rs_proc_rec) since their
 * last exec.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, __u8);
} procs_seen SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1); /* resized by user space when counting repeats */
	__type(key, struct rs_repeat_key);
	__type(value, struct rs_repeat);
} repeats SEC(".maps");

/* Idle tasks share TID 0 on every CPU: key them per CPU instead, above every TID (< 2^22). */
static __always_inline __u32 session_key(__u32 tid)
{
	if (tid)
		return tid;
	return (1U << 31) | bpf_get_smp_processor_id();
}

/* Without -p/-P or -n/-N the lookups are left out at load: two hash lookups per session. */
static __always_inline bool task_passes_filters(__u32 pid, const char *comm)
{
	__u8 *verdict;

	if (has_pid_filter) {
		verdict = bpf_map_lookup_elem(&pid_filter, &pid);
		if (verdict && !*verdict)
			return false;
		if (has_pid_allow && !verdict)
			return false;
	}
	if (has_comm_filter) {
		verdict = bpf_map_lookup_elem(&comm_filter, comm);
		if (verdict && !*verdict)
			return false;
		if (has_comm_allow && !verdict)
			return false;
	}
	return true;
}

/* The thread's word of session_bits and its bit; NULL where it has none. */
static __always_inline __u64 *session_bit(__u32 tid, __u64 *bit)
{
	__u32 idx = tid ? cpu_bits + tid : bpf_get_smp_processor_id(), word;

	/* Threads sharing a word set and clear their bits at once: atomic or/and only (5.12). */
	if (!has_atomic_fetch)
		return NULL;
	word = idx / 64;
	*bit = 1ULL << (idx % 64);
	return bpf_map_lookup_elem(&session_bits, &word);
}

/* The open session of key, or NULL. */
static __always_inline struct session *session_find(__u32 key)
{
	__u32 slot = rs_session_home(key, session_slots);
	struct session *s;

	for (int i = 0; i < RS_SESSION_PROBES; i++) {
		s = bpf_map_lookup_elem(&sessions, &slot);
		if (!s)
			return NULL;
		if (s->owner == (key | RS_SESSION_OPEN))
			return s;
		slot = rs_session_next_slot(slot, session_slots);
	}
	return NULL;
}

static __always_inline __u64 *session_owner(void *map, __u32 slot)
{
	struct session *s = bpf_map_lookup_elem(map, &slot);

	return s ? &s->owner : NULL;
}

/* Before 5.12 (no compare-and-swap) a slot is taken by inserting its number into slot_claims. */
static __always_inline int slot_take(__u32 slot, __u64 *owner, __u64 seen, __u32 key)
{
	if (has_atomic_fetch)
		return rs_session_take_cas(slot, owner, seen, key);
	if (bpf_map_update_elem(&slot_claims, &slot, &key, BPF_NOEXIST))
		return 0;
	*owner = key | RS_SESSION_OPEN;
	return 1;
}

/* A slot near key's home taken for key (session_slots.h), or NULL. */
static __always_inline struct session *session_claim(__u32 key)
{
	struct session *s;
	__u32 slot = 0;

	_Static_assert(__builtin_offsetof(struct session, owner) == 0,
		       "a session starts with its owner");
	s = (struct session *)rs_session_claim(key, session_slots, &sessions, session_owner,
					       slot_take, &slot);
	if (s)
		s->slot = slot;
	return s;
}

static __always_inline void session_discard(struct session *s);
static __always_inline void session_release(struct session *s);

static __always_inline __u64 current_start_time(void)
{
	if (has_task_btf)
		return bpf_get_current_task_btf()->start_time;
	return BPF_CORE_READ((struct task_struct *)bpf_get_current_task(), start_time);
}

/*
 * The thread's open session, or NULL. A thread that exits inside a session (in exit_group(),
 * say) leaves it open under its TID: the next thread given that TID drops it here, or it would
 * record inside it and never see a session of its own.
 */
static __always_inline struct session *open_session(void)
{
	__u32 tid = bpf_get_current_pid_tgid();
	__u64 *bits, bit;
	struct session *s;

	bits = session_bit(tid, &bit);
	if (bits && !(*bits & bit))
		return NULL;
	s = session_find(session_key(tid));
	if (!s || s->task_start == current_start_time())
		return s;
	session_discard(s);
	session_release(s);
	return NULL;
}

/*
 * A task's name as the kernel keeps it: two loads, where bpf_get_current_comm() and
 * bpf_probe_read_kernel_str() copy a byte at a time. Bytes after the NUL are zero since 5.17
 * (strscpy_pad()) and may be stale before: fine for user space, which reads up to the NUL, not
 * for a comm_filter key (task_admitted()).
 */
static __always_inline void read_comm(struct task_comm *dst, struct task_struct *task)
{
	const __u64 *src = (const __u64 *)task->comm;

	dst->w[0] = src[0];
	dst->w[1] = src[1];
}

/* The current thread's name (leader: its process's), where BTF pointers may not be walked. */
static __always_inline void read_current_comm(struct task_comm *dst, bool leader)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();

	if (leader)
		task = BPF_CORE_READ(task, group_leader);
	bpf_core_read(dst, sizeof(*dst), &task->comm);
}

/*
 * task_passes_filters(), judged again only when the task's comm changed: the refusal of a
 * task's every call then reads two words, no comm copy and no hashing.
 */
static __always_inline bool task_admitted(__u32 pid)
{
	struct task_comm now, key = {};
	struct task_struct *task;
	struct task_verdict *v;
	bool ok;

	/* Before 5.11 (no task storage, no task BTF) the filters judge every call. */
	if (!has_task_storage) {
		bpf_get_current_comm(key.w, sizeof(key.w));
		return task_passes_filters(pid, (const char *)key.w);
	}
	task = bpf_get_current_task_btf();
	v = bpf_task_storage_get(&task_verdicts, task, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
	read_comm(&now, task);
	if (v && v->verdict != VERDICT_UNJUDGED && v->judged.w[0] == now.w[0] &&
	    v->judged.w[1] == now.w[1])
		return v->verdict == VERDICT_ADMITTED;
	/* The whole buffer is the comm_filter key: copied up to the NUL into a zeroed one. */
	bpf_get_current_comm(key.w, sizeof(key.w));
	ok = task_passes_filters(pid, (const char *)key.w);
	if (v) {
		v->verdict = ok ? VERDICT_ADMITTED : VERDICT_REFUSED;
		v->judged = now;
	}
	return ok;
}

/* Whether the task may open a session (command mode, filters); if so reads its comm into *comm. */
static __always_inline bool task_admission(__u32 pid, struct task_comm *comm)
{
	if (follow_command && !bpf_map_lookup_elem(&command_pids, &pid))
		return false;
	if ((has_pid_filter || has_comm_filter) && !task_admitted(pid))
		return false;
	if ((cgroups_allowed || cgroups_denied) && !cgroup_admits())
		return false;
	if (has_task_btf)
		read_comm(comm, bpf_get_current_task_btf());
	else
		read_current_comm(comm, false);
	return true;
}

static __always_inline __u64 next_session_id(void)
{
	__u32 zero = 0;
	__u64 *n;

	if (has_atomic_fetch)
		return __sync_fetch_and_add(&session_counter, 1) + 1;
	n = bpf_map_lookup_elem(&cpu_session_counter, &zero);
	if (!n)
		return 0;
	*n += 1;
	return (*n << RS_ID_CPU_BITS) | bpf_get_smp_processor_id();
}

/* Woken up at once: the process may exit soon after its failing call. */
static __always_inline void announce_process(__u32 pid, __u64 session_id)
{
	struct rs_proc_rec r = { .type = RS_REC_PROC, .pid = pid, .session_id = session_id };
	__u8 one = 1;

	if (!pid || bpf_map_update_elem(&procs_seen, &pid, &one, BPF_NOEXIST))
		return;
	bpf_ringbuf_output(&rb, &r, sizeof(r), BPF_RB_FORCE_WAKEUP);
}

/* A session that can't open gives its place back and counts as one the map had no room for. */
static __always_inline struct session *session_refused(void)
{
	if (has_atomic_fetch)
		__sync_fetch_and_add(&open_sessions, -1);
	__sync_fetch_and_add(&stats.sessions_nomem, 1);
	return NULL;
}

/*
 * The slot taken keeps what an earlier session left: everything up to the chain's arrays is
 * cleared, the arrays are only read as far as their counts say. The owner word stays: it is
 * what makes the slot this thread's.
 */
static __always_inline struct session *session_open(__u32 key, __u64 pid_tgid, __u64 now,
						    const struct task_comm *comm)
{
	__u32 pid = pid_tgid >> 32;
	struct session *s;

	/* Before 5.12 the slots alone bound the open sessions: nothing counts them. */
	if (has_atomic_fetch && __sync_fetch_and_add(&open_sessions, 1) >= max_sessions)
		return session_refused();
	s = session_claim(key);
	if (!s)
		return session_refused();
	__builtin_memset(&s->id, 0,
			 offsetof(struct session, chain.frames_hdr) - offsetof(struct session, id));
	s->id = next_session_id();
	s->rec.pid = pid;
	s->rec.tid = (__u32)pid_tgid;
	s->rec.start_ns = now;
	s->task_start = current_start_time();
	__builtin_memcpy(s->rec.task_comm, comm->w, sizeof(comm->w));
	if (has_task_btf)
		read_comm((struct task_comm *)s->rec.proc_comm,
			  bpf_get_current_task_btf()->group_leader);
	else
		read_current_comm((struct task_comm *)s->rec.proc_comm, true);
	if (capture_ustack)
		announce_process(pid, s->id);
	return s;
}

/*
 * -T records may fill at most 3/4 of the ring buffer. The rest stays free for the parts and
 * headers that complete sessions: a flood of calls then loses call records, which its session
 * reports, rather than whole sessions.
 */
static __always_inline bool call_rec_fits(void)
{
	__u64 limit = bpf_ringbuf_query(&rb, BPF_RB_RING_SIZE) / 4 * 3;

	return bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA) + sizeof(struct rs_call_rec) <= limit;
}

/* Sends one -T record of the session; seq numbers every record sent or lost. */
static __always_inline void emit_trace_rec(struct session *s, void *rec, __u64 size)
{
	if (!call_rec_fits() || bpf_ringbuf_output(&rb, rec, size, BPF_RB_NO_WAKEUP))
		s->trace_lost++;
	else
		s->trace_cnt++;
}

/* time_ns: start time of an entry, duration of an exit (see struct rs_call_rec). */
static __always_inline void emit_call_rec(struct session *s, __u32 id, __u32 depth, bool entry,
					  __u64 time_ns, __s64 res)
{
	struct rs_call_rec r = {
		.type = RS_REC_CALL,
		.depth = depth,
		.is_entry = entry,
		.session_id = s->id,
		.func_id = id,
		.seq = s->trace_cnt + s->trace_lost,
		.time_ns = time_ns,
	};

	if (entry)
		r.call_seq = s->chain.next_seq - 1; /* ties its -A record to it */
	else
		r.res = res;

	emit_trace_rec(s, &r, sizeof(r));
}

static __always_inline void report_interim(struct session *s, __u64 now);
static __always_inline void record_kstack(void *ctx, struct session *s);

/* Opens the thread's session (it has none open). */
static __always_inline struct session *session_begin(__u32 key, __u64 pid_tgid, __u64 now,
						     const struct task_comm *comm)
{
	struct session *s;
	__u64 *bits, bit;

	s = session_open(key, pid_tgid, now, comm);
	bits = session_bit((__u32)pid_tgid, &bit);
	if (s && bits)
		__sync_fetch_and_or(bits, bit);
	return s;
}

/*
 * bpf_get_func_ip() names the function (its start, past any endbr64) for kprobe events' entry
 * and return probes and for multi-kprobes alike. An address missing from the table is not ours:
 * ignore the hit.
 */
static __always_inline __s64 func_id_of_ip(__u64 ip)
{
	__u32 home = rs_func_slot_home(ip, func_slot_mask), k;
	struct rs_func_slot *slot;

	for (__u32 i = 0; i < RS_FUNC_SLOT_PROBES; i++) {
		k = (home + i) & func_slot_mask;
		slot = bpf_map_lookup_elem(&func_slots, &k);
		if (!slot || !slot->addr)
			return -1;
		if (slot->addr == ip)
			return slot->id == RS_FUNC_SLOT_NONE ? -1 : slot->id;
	}
	return -1;
}

/*
 * Before 5.15 there is no bpf_get_func_ip(): the kprobe running on this CPU, which a kretprobe's
 * handler runs under too, holds the probed address. Its per-CPU variable is found through
 * kallsyms (the BTF of such kernels may not describe per-CPU variables).
 */
static __always_inline struct kprobe *running_kprobe(void)
{
	__u64 cpu = bpf_get_smp_processor_id(), offset = 0;
	struct kprobe *kp = NULL;

	bpf_probe_read_kernel(&offset, sizeof(offset), (void *)(per_cpu_offset_addr + cpu * 8));
	bpf_probe_read_kernel(&kp, sizeof(kp), (void *)(current_kprobe_addr + offset));
	return kp;
}

static __always_inline __u64 probed_func_ip(void *ctx)
{
	if (has_func_ip)
		return bpf_get_func_ip(ctx);
	return (__u64)BPF_CORE_READ(running_kprobe(), addr);
}

/*
 * Whether function *id (by_ip: the kprobe event's function) opens sessions. The entry events'
 * cookie says so; without cookies (before 5.15) the function's own flags do, once *id is
 * looked up by address.
 */
static __always_inline bool is_entry_func(void *ctx, __u32 *id, bool by_ip)
{
	struct rs_func_desc *desc;

	if (by_ip && has_cookie)
		return bpf_get_attach_cookie(ctx) == RS_KEV_ENTRY_FUNCS;
	if (by_ip) {
		__s64 found = func_id_of_ip(probed_func_ip(ctx));

		if (found < 0)
			return false;
		*id = found;
	}
	desc = bpf_map_lookup_elem(&func_descs, id);
	return desc && (desc->flags & RS_FUNC_ENTRY);
}

/*
 * Returns 1 when the call is outside any session, so its return has nothing to do: a kprobe
 * session program (rs_ksession) then skips it. Every other program returns 0. Most hits of a
 * non-entry function outside a session end at is_entry_func(): no clock read, no hashing.
 * by_ip (a constant): kprobe events carry no function id, which is then looked up by address,
 * and only once the hit needs it.
 */
static __always_inline int handle_entry(void *ctx, __u32 id, bool by_ip)
{
	struct task_comm comm = {};
	__u64 pid_tgid = 0, now = 0;
	bool need_id = by_ip; /* still to look up by address */
	struct session *s;

	if (!ready)
		return 0;
	s = open_session();
	if (s) {
		now = bpf_ktime_get_ns();
	} else {
		if (!is_entry_func(ctx, &id, by_ip))
			return 1;
		need_id = by_ip && has_cookie;
		pid_tgid = bpf_get_current_pid_tgid();
		if (!task_admission(pid_tgid >> 32, &comm))
			return 1;
	}
	if (need_id) {
		__s64 found = func_id_of_ip(probed_func_ip(ctx));

		if (found < 0)
			return 1;
		id = found;
	}
	if (!s) {
		if (has_arg_filter && !arg_filter_admits(ctx, id))
			return 1;
		now = bpf_ktime_get_ns();
		s = session_begin(session_key((__u32)pid_tgid), pid_tgid, now, &comm);
		if (!s)
			return 1;
		if (kstack_at_entry)
			record_kstack(ctx, s);
	}

	if (interim_stacks && rs_chain_entry_replaces_failure(&s->chain))
		report_interim(s, now);
	if (!rs_chain_enter(&s->chain, id, now)) {
		__sync_fetch_and_add(&stats.depth_overflow, 1);
		return 0;
	}
	if (capture_args)
		s->args_sent |= rs_capture_args(ctx, &rb, s->id, id, s->chain.next_seq - 1);
	if (emit_trace)
		emit_call_rec(s, id, s->chain.depth - 1, true, now, 0);
	return 0;
}

/*
 * The first thing every exit program does in LBR mode: each branch taken before the snapshot
 * (helper calls, returns, map lookups) replaces one of the kernel's records in the hardware. The
 * scratch lookup costs none once inlined (PERCPU_ARRAY, 6.10+); docs/usage.md counts what is left.
 */
static __always_inline void lbr_snapshot(struct lbr_snap *snap)
{
	__u32 zero = 0;

	snap->scratch = NULL;
	snap->bytes = 0;
	if (!capture_lbr)
		return;
	snap->scratch = bpf_map_lookup_elem(&lbr_scratch, &zero);
	if (snap->scratch)
		snap->bytes = bpf_get_branch_snapshot(snap->scratch, sizeof(*snap->scratch), 0);
}

/*
 * bpf_get_stack() clears what the stack left of the buffer, most of RS_MAX_KSTACK frames for a
 * usual stack: asking for one frame more than the deepest stack captured so far leaves next to
 * nothing to clear. A stack that fills what was asked for may have been cut short: it is
 * captured again in full, and later captures ask for one frame more than it had.
 */
static __always_inline long capture_kstack(void *ctx, struct session *s)
{
	/* At an entry the top frame is the probed function itself, which the chain shows. */
	__u64 skip = kstack_at_entry ? 1 : 0;
	__u32 want = kstack_want;
	long n;

	if (want > RS_MAX_KSTACK)
		want = RS_MAX_KSTACK;
	if (want < 1)
		want = 1;
	n = bpf_get_stack(ctx, s->kstack, want * sizeof(s->kstack[0]), skip);
	if (n < (long)(want * sizeof(s->kstack[0])) || want == RS_MAX_KSTACK)
		return n;
	n = bpf_get_stack(ctx, s->kstack, sizeof(s->kstack), skip);
	if (n > 0)
		kstack_want = n / sizeof(s->kstack[0]) + 1;
	return n;
}

static __always_inline void record_kstack(void *ctx, struct session *s)
{
	long n = capture_kstack(ctx, s);

	s->kstack_err = n < 0;
	s->rec.kstack_cnt = n > 0 ? n / sizeof(s->kstack[0]) : 0;
}

static __always_inline void capture_stacks(void *ctx, struct session *s, int steps,
					   const struct lbr_snap *lbr)
{
	long n;

	if (capture_lbr) {
		s->rec.lbr_cnt = rs_lbr_keep_cnt(steps, lbr->bytes);
		if (s->rec.lbr_cnt && lbr->scratch)
			__builtin_memcpy(s->lbr, lbr->scratch->entries, sizeof(s->lbr));
	}
	if (!kstack_at_entry)
		record_kstack(ctx, s);
	if (!capture_ustack)
		return;
	n = bpf_get_stack(ctx, s->ustack, sizeof(s->ustack), BPF_F_USER_STACK);
	s->ustack_err = n < 0;
	s->rec.ustack_cnt = n > 0 ? n / sizeof(s->ustack[0]) : 0;
}

/*
 * Parts never wake the consumer: their session's header follows. A header wakes it only while
 * it waits in poll and once a batch worth waking for has piled up; user space polls every
 * 100 ms anyway (see RingbufReader), so a lone session waits no longer than that. A wake-up
 * costs an irq_work on the traced CPU, and a reader that is still busy with earlier records
 * gains nothing from one: under a flood it would be one per session.
 * The flag is cleared here so that the headers sent before the woken reader runs again don't
 * each wake it too. Racing with the reader's own update can only cost one wake-up or delay
 * one by the poll period.
 */
#define RS_WAKEUP_FRACTION 64 /* of the ring buffer: 128 KiB of the default 8 MiB */

static __always_inline __u64 header_wakeup(void)
{
	__u64 batch = bpf_ringbuf_query(&rb, BPF_RB_RING_SIZE) / RS_WAKEUP_FRACTION;

	if (!reader_waiting || bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA) < batch)
		return BPF_RB_NO_WAKEUP;
	reader_waiting = false;
	return BPF_RB_FORCE_WAKEUP;
}

static __always_inline bool output_part(struct rs_part_hdr *hdr, __u32 type, __u32 cnt,
					__u32 max_cnt, __u32 elem_size, __u64 session_id)
{
	if (cnt > max_cnt)
		cnt = max_cnt;
	hdr->type = type;
	hdr->cnt = cnt;
	hdr->session_id = session_id;
	return bpf_ringbuf_output(&rb, hdr, sizeof(*hdr) + cnt * elem_size, BPF_RB_NO_WAKEUP) == 0;
}

#include "line_ring.h"

/*
 * Sends the chain of interest, the stitched chain below it and the captured stacks as session
 * id: parts first, the header last. -T records are sent once, under s->id; an interim report
 * (-I) counts those sent so far, which user space shows with it and keeps for the final one.
 */
static __always_inline void session_report(struct session *s, __u64 id, __u32 flags, __u64 now)
{
	struct rs_chain *c = &s->chain;
	bool ok = true;

	__sync_fetch_and_add(&stats.sessions_reported, 1);
	s->rec.type = RS_REC_SESSION;
	s->rec.session_id = id;
	s->rec.end_ns = now;
	s->rec.flags = flags | (c->is_err ? RS_SESS_ERROR : 0) |
		       (s->kstack_err ? RS_SESS_KSTACK_ERR : 0) |
		       (s->ustack_err ? RS_SESS_USTACK_ERR : 0);
	s->rec.depth = c->max_depth;
	s->rec.saved_depth = rs_chain_stitched_depth(c);
	s->rec.running = c->depth;
	s->rec.trace_id = s->id;
	s->rec.trace_cnt = s->trace_cnt;
	s->rec.trace_lost = s->trace_lost;
	ok &= output_part(&c->frames_hdr, RS_REC_FRAMES, s->rec.depth, RS_MAX_DEPTH,
			  sizeof(struct rs_frame), id);
	if (s->rec.saved_depth)
		ok &= output_part(&c->saved_hdr, RS_REC_SAVED, s->rec.saved_depth, RS_MAX_DEPTH,
				  sizeof(struct rs_frame), id);
	ok &= output_part(&s->kstack_hdr, RS_REC_KSTACK, s->rec.kstack_cnt, RS_MAX_KSTACK,
			  sizeof(__u64), id);
	if (s->rec.ustack_cnt)
		ok &= output_part(&s->ustack_hdr, RS_REC_USTACK, s->rec.ustack_cnt, RS_MAX_USTACK,
				  sizeof(__u64), id);
	if (s->rec.lbr_cnt)
		ok &= output_part(&s->lbr_hdr, RS_REC_LBR, s->rec.lbr_cnt, RS_MAX_LBR,
				  sizeof(struct rs_lbr_entry), id);
	ok &= line_report(s, id);
	if (!ok)
		s->rec.flags |= RS_SESS_PART_LOST;
	if (bpf_ringbuf_output(&rb, &s->rec, sizeof(s->rec), header_wakeup()))
		__sync_fetch_and_add(&stats.sessions_dropped, 1);
}

/*
 * -I: the failing chain is about to be overwritten by a new call or cleared by a successful
 * return; report it now under a session id of its own. -L does not apply: the entry call is
 * still running.
 */
static __always_inline void report_interim(struct session *s, __u64 now)
{
	session_report(s, next_session_id(), RS_SESS_INTERIM, now);
}

/* With -T or -A, user space holds a session's records until its header arrives. */
static __always_inline void session_discard(struct session *s)
{
	if (!(emit_trace && s->trace_cnt) && !s->args_sent)
		return;
	s->rec.type = RS_REC_SESSION;
	s->rec.session_id = s->id;
	s->rec.flags = RS_SESS_DISCARD;
	bpf_ringbuf_output(&rb, &s->rec, sizeof(s->rec), BPF_RB_NO_WAKEUP);
}

static __always_inline bool session_reportable(struct session *s)
{
	if (!s->chain.is_err && !success_stacks)
		return false;
	return s->chain.frames[0].dur_ns >= min_duration_ns;
}

/* Names the task in a repeats entry unless it is named already or the entry is full. */
static __always_inline void repeat_add_task(struct rs_repeat *r, __u32 tid, __u32 pid)
{
	__u32 cnt = r->task_cnt;

	for (__u32 i = 0; i < RS_REPEAT_TASKS; i++) {
		if (i >= cnt)
			break;
		if (r->tids[i] == tid)
			return;
	}
	if (cnt >= RS_REPEAT_TASKS)
		return;
	r->tids[cnt] = tid;
	r->pids[cnt] = pid;
	r->task_cnt = cnt + 1;
}

/*
 * -C stacks.repeats=count, for a session about to be reported: the first of its kind in this
 * interval is sent in full (*flags gets RS_SESS_REPEAT_FIRST); a repeat is counted in its
 * entry instead, and true says it needs no report. A full map sends sessions in full.
 */
static __always_inline bool repeat_counted(struct session *s, __u64 now, __u32 *flags)
{
	struct rs_repeat_key key = {};
	struct rs_repeat first = { .first_id = s->id }, *r;

	if (!count_repeats)
		return false;
	key.hash = rs_repeat_key(&s->chain, s->kstack, s->rec.kstack_cnt);
	key.interval = repeat_interval;
	r = bpf_map_lookup_elem(&repeats, &key);
	if (!r) {
		if (!bpf_map_update_elem(&repeats, &key, &first, BPF_NOEXIST)) {
			*flags |= RS_SESS_REPEAT_FIRST;
			return false;
		}
		r = bpf_map_lookup_elem(&repeats, &key); /* another CPU inserted it first */
		if (!r)
			return false;
	}
	if (has_atomic_fetch) {
		if (__sync_fetch_and_add(&r->count, 1) == 0)
			r->first_ns = now;
	} else {
		__sync_fetch_and_add(&r->count, 1);
		if (!r->first_ns)
			r->first_ns = now;
	}
	r->last_ns = now;
	repeat_add_task(r, s->rec.tid, s->rec.pid);
	__sync_fetch_and_add(&stats.sessions_counted, 1);
	return true;
}

/* Closes the thread's session: its slot is free for any thread's next one. */
static __always_inline void session_release(struct session *s)
{
	__u64 *bits, bit;

	bits = session_bit(s->rec.tid, &bit);
	if (bits)
		__sync_fetch_and_and(bits, ~bit);
	if (!has_atomic_fetch) {
		__u32 slot = s->slot;

		s->owner = 0;
		bpf_map_delete_elem(&slot_claims, &slot);
		return;
	}
	__sync_fetch_and_add(&open_sessions, -1);
	/* Ordered after every write of the session: the next owner's are its own. */
	__sync_lock_test_and_set(&s->owner, 0);
}

static __always_inline void session_close(struct session *s, __u64 now)
{
	__u32 flags = 0;

	if (!session_reportable(s) || repeat_counted(s, now, &flags))
		session_discard(s);
	else
		session_report(s, s->id, flags, now);
	session_release(s);
}

/*
 * The current thread's open session, NULL outside one: for most returns of non-entry functions
 * its session bit is all they look up.
 */
static __always_inline struct session *exit_session(void)
{
	return ready ? open_session() : NULL;
}

/* Function id's return in session s; lbr: the snapshot the exit program took first. */
static __always_inline int session_exit(void *ctx, struct session *s, __u32 id, __s64 res,
					const struct lbr_snap *lbr)
{
	struct rs_func_desc *desc;
	bool failed;
	__u64 now;
	int steps;
	__u32 d;

	desc = bpf_map_lookup_elem(&func_descs, &id);
	if (!desc)
		return 0;
	now = bpf_ktime_get_ns();
	/*
	 * -x/-X and the return-value filters are not applied here: they judge the whole reported
	 * stack in user space and must not change which failure is the deepest one.
	 */
	failed = rs_result_failed(res, desc->ret_kind);
	if (interim_stacks && rs_chain_exit_handles_failure(&s->chain, failed))
		report_interim(s, now);
	steps = rs_chain_exit(&s->chain, id, res, failed, success_stacks, now);
	if (steps & RS_STEP_BROKEN) {
		/* We saw the exit but not the entry (missed probe, or attached mid-call). */
		__sync_fetch_and_add(&stats.sessions_broken, 1);
		session_discard(s);
		session_release(s);
		return 0;
	}
	if (steps & RS_STEP_CAPTURE)
		capture_stacks(ctx, s, steps, lbr);
	d = s->chain.depth; /* rs_chain_exit() popped the returning call: its level */
	if (emit_trace && d < RS_MAX_DEPTH)
		emit_call_rec(s, id, d, false, s->chain.frames[d].dur_ns, res);
	if (steps & RS_STEP_CLOSE)
		session_close(s, now);
	return 0;
}

/* lbr: the snapshot the exit program took first (lbr_snapshot()). */
static __always_inline int handle_exit(void *ctx, __u32 id, __s64 res, const struct lbr_snap *lbr)
{
	struct session *s = exit_session();

	return s ? session_exit(ctx, s, id, res, lbr) : 0;
}

/*
 * Injected probes (-J) record only inside a session of the same thread and never open one:
 * elsewhere a hit costs an array lookup. User space rejects -J without -T.
 */
static __always_inline int handle_probe(void *ctx, __u32 probe_id, enum slot_source src)
{
	struct session *s;
	struct rs_probe_rec r = { .type = RS_REC_PROBE, .probe_id = probe_id };

	if (!ready)
		return 0;
	s = open_session();
	if (!s)
		return 0;
	r.depth = s->chain.depth;
	r.session_id = s->id;
	r.seq = s->trace_cnt + s->trace_lost;
	r.time_ns = bpf_ktime_get_ns();
	/* Like a call's arguments, sent before the record that shows them. */
	if (capture_args)
		s->args_sent |= rs_capture_probe_args(ctx, &rb, s->id, probe_id, r.seq, src);
	emit_trace_rec(s, &r, sizeof(r));
	return 0;
}

/* An opaque load, so the compiler keeps the mark as one patchable instruction. */
static __always_inline __u32 probe_id_mark(void)
{
	__u64 id;

	asm volatile("%0 = %1 ll" : "=r"(id) : "i"(RS_PROBE_ID_MARK));
	return id;
}

/* Before 5.15: injected kprobes by what their hits see (struct rs_probe_key). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1); /* resized to the probes where used */
	__type(key, struct rs_probe_key);
	__type(value, __u32);
} probe_keys SEC(".maps");

static __always_inline int handle_probe_by_key(void *ctx, struct rs_probe_key *key,
					       enum slot_source src)
{
	__u32 *id = bpf_map_lookup_elem(&probe_keys, key);

	return id ? handle_probe(ctx, *id, src) : 0;
}

/* kprobe: and kretprobe: probes alike: the attach cookie is the probe id. */
SEC("kprobe")
int rs_probe_kprobe(struct pt_regs *ctx)
{
	struct rs_probe_key key = {};
	struct kprobe *kp;

	if (has_cookie)
		return handle_probe(ctx, bpf_get_attach_cookie(ctx), SLOTS_CTX);
	kp = running_kprobe();
	key.value = (__u64)BPF_CORE_READ(kp, addr);
	key.kind = (__u64)BPF_CORE_READ(kp, pre_handler) == kretprobe_pre_handler_addr
			   ? RS_PROBE_KEY_KRETPROBE
			   : RS_PROBE_KEY_KPROBE;
	return handle_probe_by_key(ctx, &key, SLOTS_CTX);
}

/* Without cookies a template: user space attaches copies with the probe id for the mark. */
SEC("tracepoint")
int rs_probe_tp(void *ctx)
{
	if (has_cookie)
		return handle_probe(ctx, bpf_get_attach_cookie(ctx), SLOTS_RECORD);
	return handle_probe(ctx, probe_id_mark(), SLOTS_RECORD);
}

/* A template: user space attaches copies with the probe id in place of RS_PROBE_ID_MARK. */
SEC("raw_tp")
int rs_probe_rawtp(void *ctx)
{
	return handle_probe(ctx, probe_id_mark(), SLOTS_ARRAY);
}

/*
 * --line-trace: a kprobe on the first instruction of a source line, whose attach cookie is the
 * line id. Like -J probes it records only inside the thread's session.
 */
SEC("kprobe")
int rs_line_kprobe(struct pt_regs *ctx)
{
	struct session *s;

	if (!trace_lines || !has_cookie || !ready)
		return 0;
	s = open_session();
	if (s)
		line_record(s, bpf_get_attach_cookie(ctx));
	return 0;
}

/* kprobes and multi-kprobes: the attach cookie is the function id. */
SEC("kprobe")
int rs_kentry(struct pt_regs *ctx)
{
	handle_entry(ctx, bpf_get_attach_cookie(ctx), false);
	return 0;
}

SEC("kretprobe")
int rs_kexit(struct pt_regs *ctx)
{
	struct lbr_snap lbr;

	lbr_snapshot(&lbr);
	return handle_exit(ctx, bpf_get_attach_cookie(ctx), PT_REGS_RC(ctx), &lbr);
}

/*
 * A return inside a session is most often the one of its innermost running call: the address
 * in that call's descriptor confirms it without a search of func_slots.
 */
static __always_inline __s64 returning_func_id(struct session *s, __u64 ip)
{
	struct rs_func_desc *desc;
	__u32 d = s->chain.depth - 1, id;

	if (d < RS_MAX_DEPTH) {
		id = s->chain.frames[d].func_id;
		desc = bpf_map_lookup_elem(&func_descs, &id);
		if (desc && desc->addr == ip)
			return id;
	}
	return func_id_of_ip(ip);
}

/* kprobe events: the function id is looked up by address, and only once a hit needs it. */
SEC("kprobe")
int rs_keventry(struct pt_regs *ctx)
{
	handle_entry(ctx, 0, true);
	return 0;
}

SEC("kretprobe")
int rs_kevexit(struct pt_regs *ctx)
{
	struct lbr_snap lbr;
	struct session *s;
	__s64 id;

	lbr_snapshot(&lbr);
	s = exit_session();
	if (!s)
		return 0;
	id = returning_func_id(s, probed_func_ip(ctx));
	return id < 0 ? 0 : session_exit(ctx, s, id, PT_REGS_RC(ctx), &lbr);
}

SEC("kprobe.multi")
int rs_kmentry(struct pt_regs *ctx)
{
	handle_entry(ctx, bpf_get_attach_cookie(ctx), false);
	return 0;
}

SEC("kretprobe.multi")
int rs_kmexit(struct pt_regs *ctx)
{
	struct lbr_snap lbr;

	lbr_snapshot(&lbr);
	return handle_exit(ctx, bpf_get_attach_cookie(ctx), PT_REGS_RC(ctx), &lbr);
}

/*
 * Kprobe sessions (6.10+): one link runs the program at entry and, as that run returned 0,
 * again at return. User space loads it with the session attach type only where supported; the
 * weak kfuncs keep the object loadable on kernels without it. The attach cookie is a binary
 * search through the link's addresses: the entry finds the function id in func_slots instead,
 * and leaves it in the session cookie for the return.
 * The kfuncs took no argument until fsession programs shared them (7.0); they take the context
 * since. libbpf refuses an object whose declared kfunc differs from the kernel's, even unused,
 * so this file is also built for the earlier prototype (RS_SESSION_KFUNCS_NO_CTX) and user space
 * loads the build that matches (Feature::SessionKfuncCtx).
 */
#ifdef RS_SESSION_KFUNCS_NO_CTX
extern bool bpf_session_is_return(void) __ksym __weak;
extern __u64 *bpf_session_cookie(void) __ksym __weak;
#define session_is_return(ctx) bpf_session_is_return()
#define session_cookie(ctx) bpf_session_cookie()
#else
extern bool bpf_session_is_return(void *ctx) __ksym __weak;
extern __u64 *bpf_session_cookie(void *ctx) __ksym __weak;
#define session_is_return(ctx) bpf_session_is_return(ctx)
#define session_cookie(ctx) bpf_session_cookie(ctx)
#endif

SEC("kprobe.multi")
int rs_ksession(struct pt_regs *ctx)
{
	struct lbr_snap lbr;
	__u64 *id;

	if (session_is_return(ctx)) {
		lbr_snapshot(&lbr);
		return handle_exit(ctx, *session_cookie(ctx), PT_REGS_RC(ctx), &lbr);
	}
	id = session_cookie(ctx);
	*id = func_id_of_ip(bpf_get_func_ip(ctx));
	if ((__s64)*id < 0)
		return 1;
	/* 0: run again at return; 1: outside any session, the return has nothing to do. */
	return handle_entry(ctx, *id, false);
}

/*
 * fentry/fexit: a trampoline program has exactly one attach target, so user space loads one copy
 * of these per traced function and direction; the link cookie (5.19+) is the function id.
 */
SEC("fentry")
int rs_fentry(void *ctx)
{
	handle_entry(ctx, bpf_get_attach_cookie(ctx), false);
	return 0;
}

SEC("fexit")
int rs_fexit(void *ctx)
{
	struct lbr_snap lbr;
	__u64 ret = 0;

	lbr_snapshot(&lbr);
	bpf_get_func_ret(ctx, &ret);
	return handle_exit(ctx, bpf_get_attach_cookie(ctx), ret, &lbr);
}

/*
 * Command mode: follows the command's descendants. Threads share their process's TGID, already
 * in the map; a new process is added while its parent's fork() is still running, before the
 * child can make a call.
 */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(rs_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 parent_tgid = parent->tgid, child_tgid = child->tgid;
	__u8 one = 1;

	if (child_tgid == parent_tgid || !bpf_map_lookup_elem(&command_pids, &parent_tgid))
		return 0;
	bpf_map_update_elem(&command_pids, &child_tgid, &one, BPF_ANY);
	return 0;
}

/*
 * -U: an exec replaces the process's memory map. Forgetting the process makes its next session
 * announce it again, so that user space reads the new map for the sessions from then on.
 */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(rs_exec, struct task_struct *p, int old_pid, struct linux_binprm *bprm)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;

	bpf_map_delete_elem(&procs_seen, &pid);
	return 0;
}
