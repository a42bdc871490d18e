// SPDX-License-Identifier: GPL-2.0
/*
 * record.bpf.c - the kernel side of `dbench record --tracer=bpf`: the
 * entries and exits of the system calls the recorder asks for (the
 * `wanted` map, by number), made by the processes it traces (the
 * `traced` map, by thread group id), as events in a ring buffer
 * (events.h).
 *
 * The traced set follows the process tree: a child forked by a traced
 * process is traced from its first instruction (sched_process_fork),
 * and a thread group leaves the set when its last thread exits.  Most
 * calls go whole at their exit, one event: the entry keeps its time and
 * registers in the per-thread `pending` state (task local storage, made
 * for a thread of a traced group at its first call, so that a thread
 * found there needs no look-up of the group), and the exit adds the
 * result and reads the call's strings (paths: the call has not changed
 * them, and has brought their pages in).  A call whose structures the
 * call itself changes (fcntl's struct flock, copy_file_range's offsets)
 * or that the entry must see (openat2's open_how, clone3's flags, an
 * iovec, execve's path, gone with the old image at its exit) sends its
 * entry at once, its exit after; `pending` remembers the entry was sent,
 * so that its exit is sent too, and not when the entry found no room.
 * Nothing is lost silently: every event the ring buffer had no room for,
 * every string cut at its bound, every child the `traced` map had no
 * room for and every call whose thread's state could not be made is
 * counted in `counts`.
 *
 * The programs are raw tracepoints rather than BTF ones (tp_btf): their
 * attach needs no kernel BTF in user space, and the few CO-RE relocations
 * (task_struct's ids, pt_regs) are resolved against a BTF cut to them at
 * build time (module.c), so that a recording need not read and parse the
 * kernel's 5 MB of it.
 *
 * Knows nothing of what a call means: the recorder's user side does.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

#include "events.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 24);	/* set by the recorder before loading */
} events SEC(".maps");

/* The traced thread groups: TRACED, or TRACED_AT_EXEC for the command
 * held by the recorder, whose own calls before its execve (the end of the
 * hold) are not the command's.  Not preallocated: 65536 entries made at
 * every load cost more than the few a recording uses.  (The recorder may
 * make it smaller before loading: a testing aid.) */
enum { TRACED = 1, TRACED_AT_EXEC = 2 };
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 65536);
	__type(key, __u32);	/* tgid */
	__type(value, __u8);
} traced SEC(".maps");

/* execve's and execveat's numbers, set by the recorder before loading */
const volatile __s32 nr_execve = -1, nr_execveat = -1;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, REC_NR_MAX);
	__type(key, __u32);
	__type(value, struct rec_want);
} wanted SEC(".maps");

struct pending {
	__u64 ts;
	__u32 active;		/* in a traced call */
	__u32 sent;		/* the entry reached the ring buffer */
	__u32 nr;
	__u32 whole;		/* nothing read at the entry: the call goes whole at its exit */
	__u32 strs;		/* whole: want.strs, the strings read at the exit */
	__u32 pair;		/* RK_FDPAIR: want.loff, where the pair of descriptors is
				 * put, read at the exit */
	__u64 seq;
	__u64 args[6];
	__u64 retry[2];		/* a string the entry could not read (its page not yet
				 * in memory): its address, read again at the exit */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct pending);
} pending SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, RC_NCOUNTS);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

/* An event being made: the header and room for two strings. */
struct scratch {
	struct rec_event e;
	char str[3 * REC_STR_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

__u64 event_seq = 0;

static __always_inline void count(__u32 which)
{
	__u64 *v = bpf_map_lookup_elem(&counts, &which);

	if (v)
		*v += 1;
}

/* The recorder is woken only once this much waits in the ring buffer (a
 * quarter of it, set before loading); else it drains on its own clock.
 * Waking it at every event costs the traced program a switch a call.
 * Once the mark is passed it is woken once until it has read on (its
 * position moved): a wake-up at every event past the mark, while the
 * recorder waited for a CPU, was an interrupt (irq_work, an IPI) in the
 * traced program's call, 5 % of a pread's time on tmpfs. */
const volatile __u64 wake_bytes = 0;
__u64 woke_at = ~0ull;	/* the recorder's position at the last wake-up */
__u64 wake_tick = 0;	/* events since the last look (not atomic: a hint) */

/* The flags of an event's output: a wake-up or none.  The ring buffer is
 * looked at every 32nd event (at most 32 events of 8 KiB past the mark,
 * a fraction of the quarter left): a look at every one was 1 % of a
 * traced call's time. */
static __always_inline __u64 wake_flags(void)
{
	if ((++wake_tick & 31) != 0 ||
	    bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) < wake_bytes)
		return BPF_RB_NO_WAKEUP;
	__u64 cons = bpf_ringbuf_query(&events, BPF_RB_CONS_POS);
	if (cons == woke_at)
		return BPF_RB_NO_WAKEUP;
	woke_at = cons;
	return BPF_RB_FORCE_WAKEUP;
}

static __always_inline int send(void *data, __u64 size)
{
	if (bpf_ringbuf_output(&events, data, size, wake_flags())) {
		count(RC_DROPPED);
		return -1;
	}
	return 0;
}

/* The call's six arguments.  On x86-64 they are loaded straight from
 * the thread's saved registers (bpf_task_pt_regs: a typed pointer, plain
 * loads), cheaper than a bpf_probe_read_kernel of the raw tracepoint's
 * untyped regs; elsewhere read one by one (CO-RE; libbpf 1.1 knows five
 * of the six). */
#if defined(__TARGET_ARCH_x86)
static __always_inline void args_of(struct task_struct *task, struct pt_regs *regs, __u64 *args)
{
	struct pt_regs *r = (struct pt_regs *)bpf_task_pt_regs(task);

	(void)regs;
	args[0] = r->di;
	args[1] = r->si;
	args[2] = r->dx;
	args[3] = r->r10;
	args[4] = r->r8;
	args[5] = r->r9;
}
#else
static __always_inline void args_of(struct task_struct *task, struct pt_regs *regs, __u64 *args)
{
	(void)task;
	args[0] = PT_REGS_PARM1_CORE_SYSCALL(regs);
	args[1] = PT_REGS_PARM2_CORE_SYSCALL(regs);
	args[2] = PT_REGS_PARM3_CORE_SYSCALL(regs);
	args[3] = PT_REGS_PARM4_CORE_SYSCALL(regs);
	args[4] = PT_REGS_PARM5_CORE_SYSCALL(regs);
	args[5] = 0;	/* libbpf 1.1 has no sixth: mmap's offset, preadv2's flags */
}
#endif

/* String k of the call (at most two), read from user memory at p into the
 * scratch after off bytes: its bytes, NUL included (0: none or unread). */
static __always_inline __u32 read_string(struct scratch *s, __u32 off, __u64 p, int k)
{
	long n = -1;

	if (p && off <= REC_STR_MAX)
		n = bpf_probe_read_user_str(&s->str[off & (2 * REC_STR_MAX - 1)], REC_STR_MAX,
					    (const char *)p);
	if (n <= 0) {
		s->e.flags |= k ? EVF_BAD1 : EVF_BAD0;
		n = 0;
	} else if (n >= REC_STR_MAX) {
		s->e.flags |= k ? EVF_CUT1 : EVF_CUT0;
		count(RC_STR_CUT);
		n = REC_STR_MAX;
	}
	s->e.len[k] = (__u16)n;
	return (__u32)n;
}

/* The strings of the arguments in strs (want.strs, at most two), one
 * after the other: their bytes; the address of one that could not be
 * read (its page not yet in memory) is kept in p to read at the exit.  A
 * global function, verified once on its own rather than on every path of
 * the entry that reaches it: the entry's verification was 20,000
 * instructions, 50 to 120 ms of every recording.  (p NULL: at the exit,
 * nothing to read again.) */
__noinline int read_strings(struct scratch *s, __u32 strs, struct pending *p)
{
	int at[2] = { -1, -1 };

	if (!s)
		return 0;
	for (int i = 0, k = 0; i < 6 && k < 2; i++)
		if (strs & (1u << i))
			at[k++] = i;
	__u32 off = 0;
	for (int k = 0; k < 2; k++) {
		int i = at[k];
		if (i < 0 || i > 5)
			break;
		off += read_string(s, off, s->e.args[i], k);
		if (p && (s->e.flags & (k ? EVF_BAD1 : EVF_BAD0)))
			p->retry[k] = s->e.args[i];
	}
	return (int)off;
}

/* The exit of a call whose entry could not read a string: the event
 * carries it, read now (the call has brought its page in). */
static __always_inline void send_exit_strings(struct scratch *s, const struct pending *p)
{
	__u32 off = 0;

	/* (an exit's flags say only what was cut: a string unread again
	 * keeps its entry's) */
	for (int k = 0; k < 2; k++)
		if (p->retry[k])
			off += read_string(s, off, p->retry[k], k);
	__u64 size = sizeof(struct rec_event) + off;
	if (size > sizeof(struct scratch))
		size = sizeof(struct scratch);
	send(s, size);
}

static __always_inline void read_iov(struct scratch *s)
{
	const struct iovec *iov = (const struct iovec *)s->e.args[1];
	__u64 n = s->e.args[2], sum = 0;

	if (n > REC_IOV_MAX) {
		s->e.flags |= EVF_IOV_CUT;
		count(RC_IOV_CUT);
		n = REC_IOV_MAX;
	}
	for (int i = 0; i < REC_IOV_MAX; i++) {
		struct iovec v;
		if (i >= n)
			break;
		if (bpf_probe_read_user(&v, sizeof(v), &iov[i])) {
			s->e.flags |= EVF_EXTRA_BAD;
			break;
		}
		sum += v.iov_len;
	}
	s->e.extra[0] = sum;
}

/* What the call's structures hold, by kind (want.kind; loff: want.loff).
 * A global function, verified on its own (read_strings). */
__noinline int read_extra(struct scratch *s, __u32 kind, __u32 loff)
{
	if (!s)
		return 0;
	const void *p = (const void *)s->e.args[kind == RK_CLONE3 ? 0 : 2];
	long bad = 0;

	if (kind == RK_HOW) {
		struct open_how how = {};
		bad = bpf_probe_read_user(&how, sizeof(how), p);
		s->e.extra[0] = how.flags;
		s->e.extra[1] = how.mode;
		s->e.extra[2] = how.resolve;
	} else if (kind == RK_FLOCK) {
		__u64 cmd = s->e.args[1];
		if (cmd != 5 && cmd != 6 && cmd != 7 && cmd != 36 && cmd != 37 && cmd != 38)
			return 0;	/* not F_GETLK, F_SETLK(W) or their OFD forms */
		struct flock fl = {};
		bad = bpf_probe_read_user(&fl, sizeof(fl), p);
		s->e.extra[0] = (__u16)fl.l_type | ((__u64)(__u16)fl.l_whence << 16);
		s->e.extra[1] = fl.l_start;
		s->e.extra[2] = fl.l_len;
	} else if (kind == RK_CLONE3) {
		bad = bpf_probe_read_user(&s->e.extra[0], sizeof(__u64), p);
	} else if (kind == RK_IOV) {
		read_iov(s);
	} else if (kind == RK_LOFF) {
		for (int i = 0; i < 4; i++) {
			const void *q = (const void *)s->e.args[i];
			if ((loff & (1 << i)) && q)
				bad |= bpf_probe_read_user(&s->e.extra[i], sizeof(__u64), q);
		}
	}
	if (bad)
		s->e.flags |= EVF_EXTRA_BAD;
	return 0;
}

/* The thread's ids as bpf_get_current_pid_tgid() gives them, loaded
 * from its task (a typed pointer: plain loads) rather than by a helper
 * call, 15-20 ns of every traced call on this machine. */
static __always_inline __u64 ids_of(struct task_struct *task)
{
	return (__u64)task->tgid << 32 | (__u32)task->pid;
}

SEC("raw_tp/sys_enter")
int BPF_PROG(rec_sys_enter, struct pt_regs *regs, long id)
{
	__u32 nr = (__u32)id, zero = 0;
	struct rec_want *w = nr < REC_NR_MAX ? bpf_map_lookup_elem(&wanted, &nr) : NULL;

	if (!w || !w->on)
		return 0;
	struct task_struct *task = bpf_get_current_task_btf();
	struct pending *p = bpf_task_storage_get(&pending, task, 0, 0);
	if (!p) {
		__u32 tgid = bpf_get_current_pid_tgid() >> 32;
		__u8 *t = bpf_map_lookup_elem(&traced, &tgid);
		if (!t)
			return 0;
		if (*t == TRACED_AT_EXEC) {
			if ((__s32)nr != nr_execve && (__s32)nr != nr_execveat)
				return 0;
			*t = TRACED;
		}
		p = bpf_task_storage_get(&pending, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (!p) {
			count(RC_NO_STATE);
			return 0;
		}
	}
	p->ts = bpf_ktime_get_ns();
	p->nr = nr;
	p->seq = __sync_fetch_and_add(&event_seq, 1);
	p->retry[0] = p->retry[1] = 0;
	p->active = 1;
	p->sent = 0;
	p->pair = w->kind == RK_FDPAIR ? w->loff : 0;
	p->whole = (!w->kind || p->pair) && (__s32)nr != nr_execve && (__s32)nr != nr_execveat;
	p->strs = p->whole ? w->strs : 0;
	if (p->whole) {
		args_of(task, regs, p->args);
		return 0;
	}
	struct scratch *s = bpf_map_lookup_elem(&scratch, &zero);
	if (!s) {
		p->active = 0;
		return 0;
	}
	__u64 pid_tgid = ids_of(task);
	s->e.ts = p->ts;
	s->e.seq = p->seq;
	s->e.tid = (__u32)pid_tgid;
	s->e.tgid = pid_tgid >> 32;
	s->e.nr = (__s32)nr;
	s->e.type = EV_ENTER;
	s->e.flags = 0;
	s->e.len[0] = s->e.len[1] = 0;
	s->e.pad = 0;
	args_of(task, regs, s->e.args);
	for (int i = 0; i < 4; i++)
		s->e.extra[i] = 0;
	__u32 n = w->strs ? (__u32)read_strings(s, w->strs, p) : 0;
	if (w->kind)
		read_extra(s, w->kind, w->loff);
	__u64 size = sizeof(struct rec_event) + n;
	if (size > sizeof(struct scratch))
		size = sizeof(struct scratch);
	p->sent = send(s, size) == 0;
	if (!p->sent)
		count(RC_CALLS_LOST);
	return 0;
}

/* The fields of a whole call (EV_CALL) from its pending state. */
static __always_inline void fill_whole(struct rec_event *e, const struct pending *p, __u64 pid_tgid,
				       long ret)
{
	e->ts = p->ts;
	e->seq = p->seq;
	e->tid = (__u32)pid_tgid;
	e->tgid = pid_tgid >> 32;
	e->nr = (__s32)p->nr;
	e->type = EV_CALL;
	e->flags = 0;
	for (int i = 0; i < 6; i++)
		e->args[i] = p->args[i];
	e->extra[0] = (__u64)ret;
	e->extra[1] = bpf_ktime_get_ns();
	e->extra[2] = 0;
	e->extra[3] = 0;
	e->len[0] = e->len[1] = 0;
	e->pad = 0;
	if (p->pair && ret == 0 &&
	    bpf_probe_read_user(&e->extra[2], sizeof(__u64),
				(const void *)(p->pair & 1 ? p->args[0] : p->args[3])))
		e->flags |= EVF_EXTRA_BAD;
}

/* A call sent whole at its exit: with no string, written in the ring
 * buffer in place; with strings, made in the scratch with them after. */
static __always_inline void send_whole(const struct pending *p, __u64 pid_tgid, long ret)
{
	__u64 flags = wake_flags();

	if (!p->strs) {
		struct rec_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
		if (!e) {
			count(RC_DROPPED);
			count(RC_CALLS_LOST);
			return;
		}
		fill_whole(e, p, pid_tgid, ret);
		bpf_ringbuf_submit(e, flags);
		return;
	}
	__u32 zero = 0;
	struct scratch *s = bpf_map_lookup_elem(&scratch, &zero);
	if (!s)
		return;
	fill_whole(&s->e, p, pid_tgid, ret);
	__u64 size = sizeof(struct rec_event) + (__u32)read_strings(s, p->strs, NULL);
	if (size > sizeof(struct scratch))
		size = sizeof(struct scratch);
	if (bpf_ringbuf_output(&events, s, size, flags)) {
		count(RC_DROPPED);
		count(RC_CALLS_LOST);
	}
}

SEC("raw_tp/sys_exit")
int BPF_PROG(rec_sys_exit, struct pt_regs *regs, long ret)
{
	/* every exit of every process comes here: a thread never traced has
	 * no task storage, and no look-up of its group */
	struct task_struct *task = bpf_get_current_task_btf();
	struct pending *p = bpf_task_storage_get(&pending, task, 0, 0);

	if (!p || !p->active)
		return 0;
	__u64 pid_tgid = ids_of(task);
	__u32 zero = 0;
	if (p->whole) {
		send_whole(p, pid_tgid, ret);
	} else if (p->sent) {
		struct scratch *s = bpf_map_lookup_elem(&scratch, &zero);
		if (s) {
			__builtin_memset(&s->e, 0, sizeof(s->e));
			s->e.ts = bpf_ktime_get_ns();
			s->e.seq = __sync_fetch_and_add(&event_seq, 1);
			s->e.tid = (__u32)pid_tgid;
			s->e.tgid = pid_tgid >> 32;
			s->e.nr = (__s32)p->nr;
			s->e.type = EV_EXIT;
			s->e.args[0] = (__u64)ret;
			if (p->retry[0] || p->retry[1])
				send_exit_strings(s, p);
			else
				send(&s->e, sizeof(s->e));
		}
	}
	p->active = 0;
	return 0;
}

SEC("raw_tp/sched_process_fork")
int BPF_PROG(rec_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid), ctgid = BPF_CORE_READ(child, tgid);
	__u8 one = TRACED;

	if (ptgid != ctgid && bpf_map_lookup_elem(&traced, &ptgid) &&
	    bpf_map_update_elem(&traced, &ctgid, &one, BPF_ANY))
		count(RC_UNTRACED);	/* the map is full: the child goes untraced */
	return 0;
}

/* A thread other than the leader that runs execve takes the leader's id:
 * its call's exit comes under the new id. */
SEC("raw_tp/sched_process_exec")
int BPF_PROG(rec_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	__u32 tid = BPF_CORE_READ(p, pid), old = (__u32)old_pid;

	if (tid == old)
		return 0;
	struct pending *pe = bpf_task_storage_get(&pending, bpf_get_current_task_btf(), 0, 0);
	if (!pe || !pe->active)
		return 0;
	if (pe->sent) {
		struct rec_event e = {};
		e.ts = bpf_ktime_get_ns();
		e.seq = __sync_fetch_and_add(&event_seq, 1);
		e.tid = tid;
		e.tgid = BPF_CORE_READ(p, tgid);
		e.type = EV_RETID;
		e.args[0] = old;
		send(&e, sizeof(e));
	}
	return 0;
}

/* A thread's exit: a call it is in never returns; the last thread of a
 * group takes the group out of the traced set (a thread's pending state
 * goes with it). */
SEC("raw_tp/sched_process_exit")
int BPF_PROG(rec_exit, struct task_struct *p)
{
	__u32 tgid = BPF_CORE_READ(p, tgid);
	struct pending *pe = bpf_task_storage_get(&pending, bpf_get_current_task_btf(), 0, 0);

	/* a call sent whole at its exit, which will not come: sent now, with
	 * no end (a call with no result), its strings read while the
	 * thread's memory is still there (else they are unread, EVF_BAD) */
	__u32 zero = 0;
	struct scratch *s = pe && pe->active && pe->whole ? bpf_map_lookup_elem(&scratch, &zero) : NULL;
	if (s) {
		fill_whole(&s->e, pe, ((__u64)tgid << 32) | (__u32)BPF_CORE_READ(p, pid), -1);
		s->e.extra[0] = s->e.extra[1] = 0;
		__u64 size = sizeof(struct rec_event) +
			     (pe->strs ? (__u32)read_strings(s, pe->strs, NULL) : 0);
		if (size > sizeof(struct scratch))
			size = sizeof(struct scratch);
		if (send(s, size))
			count(RC_CALLS_LOST);
		pe->active = 0;
	}
	if (BPF_CORE_READ(p, signal, live.counter) == 0)
		bpf_map_delete_elem(&traced, &tgid);
	return 0;
}
