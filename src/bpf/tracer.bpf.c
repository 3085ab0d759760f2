// SPDX-License-Identifier: BSD-2-Clause
/*
 * The programs user space attaches: one entry and one exit program per attach mechanism, the
 * injected probes of -J and --line-trace, and the fork and exec hooks of command mode and -U.
 * Every traced function gets the same entry and exit handler (handlers.bpf.h); a program here
 * only decides how the handler learns the function id (attach cookie or IP lookup) and the
 * return value. Per thread, the first call of an entry function opens a session; calls inside
 * it are kept as a stack of up to RS_MAX_DEPTH levels, whose chain of interest chain.h decides
 * (shared with the unit tests); when the entry call returns, the session is sent to user space
 * if it is worth reporting: it ended in a failure (result_kind.h defines which results are one)
 * or -S asked for every session, and it lasted at least -L.
 *
 * One object, one skeleton: the headers below are parts of this file, included in the order
 * they build on each other, so that nothing is used before it is defined.
 */
#include "vmlinux_min.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "abi.h"
#include "func_mark.h"
#include "globals.bpf.h"           /* knobs, shared state, the ring buffer */
#include "session_table.bpf.h"     /* struct session, its slots and ids */
#include "admission.bpf.h"         /* which threads may open a session */
#include "capture.bpf.h"           /* call records, LBR, stacks, arguments */
#include "report.bpf.h"            /* what a finished session sends */
#include "repeats.bpf.h"           /* -C stacks.repeats=count */
#include "session_lifecycle.bpf.h" /* find, start and end a thread's session */
#include "func_ids.bpf.h"          /* a hit's function id */
#include "handlers.bpf.h"          /* entry, exit and probe hit, for every mechanism */
#include "uprobes.bpf.h"           /* user-space functions' uprobe-multi programs */
#include "load_mark.bpf.h"         /* ids carried by program copies */

char LICENSE[] SEC("license") = "Dual BSD/GPL";

static __always_inline __u32 probe_id_mark(void)
{
	return load_mark(RS_PROBE_ID_MARK);
}

/* Before 5.15: injected kprobes by what their hits see (struct rs_probe_key). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1); /* resized to the probes where used */
	__type(key, struct rs_probe_key);
	__type(value, __u32);
} probe_keys SEC(".maps");

static __always_inline int on_probe_hit_by_key(void *ctx, struct rs_probe_key *key,
					       enum slot_source src)
{
	__u32 *id = bpf_map_lookup_elem(&probe_keys, key);

	return id ? on_probe_hit(ctx, *id, src) : 0;
}

/* kprobe: and kretprobe: probes alike: the attach cookie is the probe id. */
SEC("kprobe")
int rs_probe_kprobe(struct pt_regs *ctx)
{
	struct rs_probe_key key = {};
	struct kprobe *kp;

	if (has_cookie)
		return on_probe_hit(ctx, bpf_get_attach_cookie(ctx), SLOTS_CTX);
	kp = running_kprobe();
	key.value = (__u64)BPF_CORE_READ(kp, addr);
	key.kind = (__u64)BPF_CORE_READ(kp, pre_handler) == kretprobe_pre_handler_addr
			   ? RS_PROBE_KEY_KRETPROBE
			   : RS_PROBE_KEY_KPROBE;
	return on_probe_hit_by_key(ctx, &key, SLOTS_CTX);
}

/* Without cookies a template: user space attaches copies with the probe id for the mark. */
SEC("tracepoint")
int rs_probe_tp(void *ctx)
{
	if (has_cookie)
		return on_probe_hit(ctx, bpf_get_attach_cookie(ctx), SLOTS_RECORD);
	return on_probe_hit(ctx, probe_id_mark(), SLOTS_RECORD);
}

/* A template: user space attaches copies with the probe id in place of RS_PROBE_ID_MARK. */
SEC("raw_tp")
int rs_probe_rawtp(void *ctx)
{
	return on_probe_hit(ctx, probe_id_mark(), SLOTS_ARRAY);
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
	s = current_session();
	if (s)
		line_record(s, bpf_get_attach_cookie(ctx));
	return 0;
}

/* kprobes and single uprobes (kprobe programs too): the attach cookie is the function id. */
SEC("kprobe")
int rs_kentry(struct pt_regs *ctx)
{
	on_func_entry(ctx, bpf_get_attach_cookie(ctx), false);
	return 0;
}

SEC("kretprobe")
int rs_kexit(struct pt_regs *ctx)
{
	struct lbr_snap lbr;

	lbr_snapshot(&lbr);
	return on_func_exit(ctx, bpf_get_attach_cookie(ctx), EXIT_BY_ID, PT_REGS_RC(ctx), &lbr);
}

/*
 * Single uprobes without cookies (before 5.15): templates attached nowhere, as fentry's are
 * without link cookies. User space loads one copy per user function and direction with the
 * function id in place of RS_FUNC_MARK (func_mark.h; the argument count is unused) and attaches
 * each to a perf uprobe of its own.
 */
SEC("uprobe")
int rs_umark_entry(struct pt_regs *ctx)
{
	on_func_entry(ctx, rs_func_mark_id(load_mark(RS_FUNC_MARK)), false);
	return 0;
}

SEC("uretprobe")
int rs_umark_exit(struct pt_regs *ctx)
{
	struct lbr_snap lbr;
	__u32 id = rs_func_mark_id(load_mark(RS_FUNC_MARK));

	lbr_snapshot(&lbr);
	return on_func_exit(ctx, id, EXIT_BY_ID, PT_REGS_RC(ctx), &lbr);
}

/* kprobe events: the function id is looked up by address, and only once a hit needs it. */
SEC("kprobe")
int rs_keventry(struct pt_regs *ctx)
{
	on_func_entry(ctx, 0, true);
	return 0;
}

SEC("kretprobe")
int rs_kevexit(struct pt_regs *ctx)
{
	struct lbr_snap lbr;

	lbr_snapshot(&lbr);
	return on_func_exit(ctx, probed_func_ip(ctx), EXIT_BY_IP, PT_REGS_RC(ctx), &lbr);
}

SEC("kprobe.multi")
int rs_kmentry(struct pt_regs *ctx)
{
	on_func_entry(ctx, bpf_get_attach_cookie(ctx), false);
	return 0;
}

SEC("kretprobe.multi")
int rs_kmexit(struct pt_regs *ctx)
{
	struct lbr_snap lbr;

	lbr_snapshot(&lbr);
	return on_func_exit(ctx, bpf_get_attach_cookie(ctx), EXIT_BY_ID, PT_REGS_RC(ctx), &lbr);
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

SEC("kprobe.session")
int rs_ksession(struct pt_regs *ctx)
{
	struct lbr_snap lbr;
	__u64 *id;

	if (session_is_return(ctx)) {
		lbr_snapshot(&lbr);
		return on_func_exit(ctx, *session_cookie(ctx), EXIT_BY_ID, PT_REGS_RC(ctx), &lbr);
	}
	id = session_cookie(ctx);
	*id = func_id_of_ip(bpf_get_func_ip(ctx));
	if ((__s64)*id < 0)
		return 1;
	/* 0: run again at return; 1: outside any session, the return has nothing to do. */
	return on_func_entry(ctx, *id, false);
}

/*
 * fentry/fexit: a trampoline program has exactly one attach target, so user space loads one copy
 * of these per traced function and direction. The link cookie (5.19+) is the function id;
 * before, each copy carries it in place of RS_FUNC_MARK (func_mark.h).
 */
SEC("fentry")
int rs_fentry(void *ctx)
{
	__u32 id = fentry_by_mark ? rs_func_mark_id(load_mark(RS_FUNC_MARK))
				  : bpf_get_attach_cookie(ctx);

	on_func_entry(ctx, id, false);
	return 0;
}

/* The context is the arguments' words, then the return value's. */
SEC("fexit")
int rs_fexit(void *ctx)
{
	struct lbr_snap lbr;
	__u64 ret = 0, mark;

	lbr_snapshot(&lbr);
	if (!fentry_by_mark) {
		bpf_get_func_ret(ctx, &ret);
		return on_func_exit(ctx, bpf_get_attach_cookie(ctx), EXIT_BY_ID, ret, &lbr);
	}
	mark = load_mark(RS_FUNC_MARK);
	bpf_probe_read_kernel(&ret, sizeof(ret), (__u64 *)ctx + rs_func_mark_nargs(mark));
	return on_func_exit(ctx, rs_func_mark_id(mark), EXIT_BY_ID, ret, &lbr);
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
