// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-floor.bpf.c - the kernel side of bench/bpf-floor: programs that do
 * a part of what the bpf tracer's (src/record/bpf/record.bpf.c) do at a
 * call, each attached alone, so that the cost of each part in a traced
 * call can be told apart.  Only the calls of the thread `target` (its
 * id, set before loading) make events.
 *
 *   empty_enter, empty_exit  raw tracepoints sys_enter and sys_exit that
 *                            return at once: the price of tracing every
 *                            call of the machine this way
 *   test_exit                sys_exit alone, the thread's id tested
 *   one_exit                 sys_exit alone, one event a call of the
 *                            target: one clock read, the registers, the
 *                            ring buffer's reserve and submit (the least
 *                            a call can cost that is sent at all)
 *   rec_enter, rec_exit      the tracer's way for a call with no string:
 *                            the entry keeps its time and registers in
 *                            task storage, the exit sends one event with
 *                            a second clock read
 *   tramp_entry, tramp_exit  fentry and fexit on pread64's syscall
 *                            function only (BPF trampolines), empty
 *   tramp_one                fexit on it, one event as one_exit
 *
 * Knows nothing of the recorder but its event's layout (events.h).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "record/bpf/events.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target = 0;	/* the measured thread's id */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 23);
} events SEC(".maps");

/* a call's entry, kept for its exit */
struct slot {
	__u64 ts;
	__u32 active, nr;
	__u64 args[6];
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__type(key, int);
	__type(value, struct slot);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} slots SEC(".maps");

static __always_inline int is_target(void)
{
	return (__u32)bpf_get_current_pid_tgid() == target;
}

/* The call's registers loaded as the tracer loads them (record.bpf.c's
 * args_of on x86-64): the same loads, so that their cost is its. */
static __always_inline void regs_of(struct task_struct *task, __u64 *args)
{
	struct pt_regs *r = (struct pt_regs *)bpf_task_pt_regs(task);

	args[0] = r->di;
	args[1] = r->si;
	args[2] = r->dx;
	args[3] = r->r10;
	args[4] = r->r8;
	args[5] = r->r9;
}

/* A program that returns at once. */
#define EMPTY(sec, name, ...) \
	SEC(sec) int BPF_PROG(name, __VA_ARGS__) { return 0; }

/* One event of the call, with its time ts (0: read now) and end time. */
static __always_inline int send(const struct slot *p, long ret, int end_clock)
{
	struct rec_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e)
		return 0;
	__u64 id = bpf_get_current_pid_tgid();
	e->ts = p->ts;
	e->seq = 0;
	e->tid = (__u32)id;
	e->tgid = id >> 32;
	e->nr = (__s32)p->nr;
	e->type = 4;
	e->flags = 0;
	for (int i = 0; i < 6; i++)
		e->args[i] = p->args[i];
	e->extra[0] = (__u64)ret;
	e->extra[1] = end_clock ? bpf_ktime_get_ns() : 0;
	e->extra[2] = e->extra[3] = 0;
	e->len[0] = e->len[1] = 0;
	e->pad = 0;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	return 0;
}

EMPTY("raw_tp/sys_enter", empty_enter, struct pt_regs *regs, long id)
EMPTY("raw_tp/sys_exit", empty_exit, struct pt_regs *regs, long ret)

SEC("raw_tp/sys_exit")
int BPF_PROG(test_exit, struct pt_regs *regs, long ret)
{
	return is_target();
}

/* One event of the target's call at its exit, its one clock read there. */
static __always_inline int send_one(long ret)
{
	if (!is_target())
		return 0;
	struct slot p = { .ts = bpf_ktime_get_ns() };
	regs_of(bpf_get_current_task_btf(), p.args);
	return send(&p, ret, 0);
}

SEC("raw_tp/sys_exit")
int BPF_PROG(one_exit, struct pt_regs *regs, long ret)
{
	return send_one(ret);
}

SEC("raw_tp/sys_enter")
int BPF_PROG(rec_enter, struct pt_regs *regs, long id)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct slot *p = bpf_task_storage_get(&slots, task, 0, 0);

	if (!p) {
		if (!is_target())
			return 0;
		p = bpf_task_storage_get(&slots, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (!p)
			return 0;
	}
	p->ts = bpf_ktime_get_ns();
	p->nr = (__u32)id;
	p->active = 1;
	regs_of(task, p->args);
	return 0;
}

SEC("raw_tp/sys_exit")
int BPF_PROG(rec_exit, struct pt_regs *regs, long ret)
{
	struct slot *p = bpf_task_storage_get(&slots, bpf_get_current_task_btf(), 0, 0);

	if (!p || !p->active)
		return 0;
	p->active = 0;
	return send(p, ret, 1);
}

EMPTY("fentry/__x64_sys_pread64", tramp_entry, struct pt_regs *regs)
EMPTY("fexit/__x64_sys_pread64", tramp_exit, struct pt_regs *regs, long ret)

SEC("fexit/__x64_sys_pread64")
int BPF_PROG(tramp_one, struct pt_regs *regs, long ret)
{
	return send_one(ret);
}
