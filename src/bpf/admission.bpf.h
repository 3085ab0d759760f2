/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Whether a thread may open a session: command mode's processes, -p/-P and -n/-N, and through
 * session_gates.bpf.h --cgroup and --arg-filter. BPF only. Only an entry call outside any session is
 * judged: the calls inside one were admitted with it.
 */
#ifndef RETSNOOP_BPF_ADMISSION_BPF_H
#define RETSNOOP_BPF_ADMISSION_BPF_H

#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "abi.h"
#include "globals.bpf.h"
#include "session_gates.bpf.h"

/* A task's comm as words: compared whole, and the whole buffer is the comm_filter key. */
struct task_comm {
	__u64 w[RS_COMM_LEN / 8];
};

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

/*
 * A task's name as the kernel keeps it: two loads, where bpf_get_current_comm() and
 * bpf_probe_read_kernel_str() copy a byte at a time. Bytes after the NUL are zero since 5.17
 * (strscpy_pad()) and may be stale before: fine for user space, which reads up to the NUL, not
 * for a comm_filter key (task_passes_filters_cached()).
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
static __always_inline bool task_passes_filters_cached(__u32 pid)
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
static __always_inline bool task_may_open_session(__u32 pid, struct task_comm *comm)
{
	if (follow_command && !bpf_map_lookup_elem(&command_pids, &pid))
		return false;
	if ((has_pid_filter || has_comm_filter) && !task_passes_filters_cached(pid))
		return false;
	if ((cgroups_allowed || cgroups_denied) && !cgroup_admits())
		return false;
	if (has_task_btf)
		read_comm(comm, bpf_get_current_task_btf());
	else
		read_current_comm(comm, false);
	return true;
}

#endif /* RETSNOOP_BPF_ADMISSION_BPF_H */
