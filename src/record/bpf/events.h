/*
 * events.h - what the kernel side of the bpf tracer (record.bpf.c) hands
 * the recorder through its ring buffer, and what the recorder tells it
 * through its maps.  Included by the BPF program (types from vmlinux.h)
 * and by the user side (types from <linux/types.h>): plain fixed-size
 * fields only.
 *
 * Most calls are one event, EV_CALL, sent at their exit with what
 * their entry saw and the strings they name (paths, an xattr's name, a
 * link's target: read at the exit, bounded).  A call whose structures
 * the entry must read (an openat2's open_how, a lock's struct flock,
 * clone3's flags, the lengths of an iovec, the offsets copy_file_range
 * and sendfile are given) and execve are two events of its thread:
 * EV_ENTER at the entry, with the raw arguments, the strings and what
 * the structures hold; and EV_EXIT at the exit, with the result.  A
 * thread is in one call at a time, so the user side pairs them by
 * thread id.
 */
#ifndef RECORD_BPF_EVENTS_H
#define RECORD_BPF_EVENTS_H

#define REC_STR_MAX 4096	/* the most of a string read, NUL included (PATH_MAX) */
#define REC_IOV_MAX 32		/* the iovecs whose lengths are added up */
#define REC_NR_MAX 512		/* system call numbers the `wanted` map covers */

enum rec_event_type {
	EV_ENTER = 1,
	EV_EXIT = 2,
	EV_RETID = 3,	/* a thread other than the leader ran execve: it is the leader now */
	EV_CALL = 4,	/* a whole call with no structure to read at its entry,
			 * sent at its exit: ts, seq and args the entry's,
			 * extra[0] the result, extra[1] the exit's time,
			 * extra[2] RK_FDPAIR's pair; its strings after it */
};

/* flags of an event */
enum {
	EVF_CUT0 = 1,		/* the first string reached REC_STR_MAX: cut short */
	EVF_CUT1 = 2,
	EVF_BAD0 = 4,		/* the first string could not be read (a bad address) */
	EVF_BAD1 = 8,
	EVF_IOV_CUT = 16,	/* more than REC_IOV_MAX iovecs: the total is of the first */
	EVF_EXTRA_BAD = 32,	/* a structure could not be read */
};

/* What the call's entry reads beyond its registers (want.kind). */
enum rec_kind {
	RK_NONE = 0,
	RK_HOW = 1,	/* openat2: struct open_how at arg 2 -> extra[0..2] */
	RK_FLOCK = 2,	/* fcntl: for a lock command, struct flock at arg 2 ->
			 * extra[0] l_type | l_whence << 16, extra[1] l_start, extra[2] l_len */
	RK_CLONE3 = 3,	/* clone3: struct clone_args' flags at arg 0 -> extra[0] */
	RK_IOV = 4,	/* the iovec at arg 1, arg 2 of them: the lengths' sum -> extra[0] */
	RK_LOFF = 5,	/* the loff_t at each arg of want.loff (non-NULL) -> extra[arg & 3] */
	RK_FDPAIR = 6,	/* pipe, socketpair: read at the exit, not the entry (the call
			 * is sent whole): the int[2] the call filled at the arg of
			 * want.loff (bit 0: arg 0, else arg 3) -> extra[2] */
};

/* The `wanted` map's value, by system call number: 0 for a call not traced. */
struct rec_want {
	__u8 on;
	__u8 strs;	/* bit i: argument i is a string (at most two bits) */
	__u8 kind;	/* enum rec_kind */
	__u8 loff;	/* RK_LOFF: bit i, argument i points at an loff_t; RK_FDPAIR:
			 * bit i, argument i points at the pair */
};

/* The counters the kernel side keeps (the `counts` map, per CPU). */
enum {
	RC_DROPPED = 0,		/* events the ring buffer had no room for */
	RC_CALLS_LOST = 1,	/* calls whose entry was dropped (their exit is not sent) */
	RC_STR_CUT = 2,		/* strings cut short at REC_STR_MAX */
	RC_IOV_CUT = 3,		/* vectors of more than REC_IOV_MAX */
	RC_UNTRACED = 4,	/* processes a traced one started that the `traced`
				 * map had no room for: neither they nor theirs traced */
	RC_NO_STATE = 5,	/* calls of a traced thread whose per-thread state
				 * could not be made: not traced */
	RC_NCOUNTS = 6,
};

struct rec_event {
	__u64 ts;		/* bpf_ktime_get_ns() */
	__u64 seq;		/* the kernel side's count of events, for ties */
	__u32 tid;
	__u32 tgid;
	__s32 nr;		/* the system call's number */
	__u16 type;		/* enum rec_event_type */
	__u16 flags;		/* EVF_* */
	__u64 args[6];		/* EV_EXIT: args[0] the result; EV_RETID: args[0] the old tid */
	__u64 extra[4];		/* by want.kind */
	__u16 len[2];		/* the strings' lengths, NUL included (0: none) */
	__u32 pad;
	/* then len[0] bytes of the first string, len[1] of the second */
};

#endif
