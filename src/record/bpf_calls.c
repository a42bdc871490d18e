/*
 * bpf_calls.c - the bpf tracer's calls as strace prints them
 * (bpf_calls.h).
 *
 * Owns its view of the calls the tracers ask for (include/ops.def's
 * STRACE rows: each call's number here and the format of its arguments)
 * and the printing of their arguments (flags by the names Linux's
 * headers give them, strings quoted with strace's escapes); knows
 * nothing of libbpf or of the order of calls.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "numtext.h"
#include "record/bpf_calls.h"
#include "record/translate.h"

/*
 * Each letter prints one argument, in the order of the kernel's
 * registers; '-' passes a register over:
 *   d  a descriptor (int)          D  a directory descriptor: AT_FDCWD or d
 *   s  a string, NULL, or the address when it could not be read
 *   o  open flags                  M  the mode when the flags before create
 *   m  a mode, octal               a  AT_* flags
 *   u  unsigned                    i  signed 64-bit     n  signed 32-bit
 *   x  an address                  w  lseek's whence
 *   v  an iovec (the lengths' total, read by the kernel side)
 *   l  an loff_t by address: [N] or NULL
 *   f  fcntl's command, then F: its argument by the command
 *   h  openat2's struct open_how   k  close_range's flags   R  renameat2's flags
 *   c  clone's flags (into the raw text too)   C  clone3's struct (its flags)
 *   e  flags of which close-on-exec alone is named (dup3, pipe2, socket ...)
 *   p  the pair of descriptors pipe and socketpair make (read at the exit)
 */
struct callfmt {
	const char *name;
	long nr;
	const char *fmt;
};

/* The calls x86-64 keeps that newer architectures (arm64, riscv) left
 * out: no number there (-1), so neither asked for nor printed. */
#ifndef SYS_open
#define SYS_open -1
#endif
#ifndef SYS_creat
#define SYS_creat -1
#endif
#ifndef SYS_stat
#define SYS_stat -1
#endif
#ifndef SYS_lstat
#define SYS_lstat -1
#endif
#ifndef SYS_access
#define SYS_access -1
#endif
#ifndef SYS_mkdir
#define SYS_mkdir -1
#endif
#ifndef SYS_rmdir
#define SYS_rmdir -1
#endif
#ifndef SYS_unlink
#define SYS_unlink -1
#endif
#ifndef SYS_rename
#define SYS_rename -1
#endif
#ifndef SYS_link
#define SYS_link -1
#endif
#ifndef SYS_symlink
#define SYS_symlink -1
#endif
#ifndef SYS_readlink
#define SYS_readlink -1
#endif
#ifndef SYS_chmod
#define SYS_chmod -1
#endif
#ifndef SYS_chown
#define SYS_chown -1
#endif
#ifndef SYS_lchown
#define SYS_lchown -1
#endif
#ifndef SYS_mknod
#define SYS_mknod -1
#endif
#ifndef SYS_utime
#define SYS_utime -1
#endif
#ifndef SYS_utimes
#define SYS_utimes -1
#endif
#ifndef SYS_futimesat
#define SYS_futimesat -1
#endif
#ifndef SYS_getdents
#define SYS_getdents -1
#endif
#ifndef SYS_dup2
#define SYS_dup2 -1
#endif
#ifndef SYS_fork
#define SYS_fork -1
#endif
#ifndef SYS_vfork
#define SYS_vfork -1
#endif
#ifndef SYS_pipe
#define SYS_pipe -1
#endif
#ifndef SYS_eventfd
#define SYS_eventfd -1
#endif
#ifndef SYS_epoll_create
#define SYS_epoll_create -1
#endif

/* The calls either tracer asks for: include/ops.def's STRACE rows with
 * a format. */
static const struct callfmt table[] = {
#define STRACE(call, id, shape, bpf) { #call, SYS_##call, bpf },
#include "ops.def"
};

static const struct callfmt *by_nr(long nr)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].nr == nr)
			return &table[i];
	return NULL;
}

static const struct callfmt *by_name(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strlen(table[i].name) == len && memcmp(table[i].name, name, len) == 0)
			return &table[i];
	return NULL;
}

/* What the kernel side reads at the entry of a call of format fmt. */
static struct rec_want want_of(const char *fmt)
{
	struct rec_want w = { .on = 1 };

	for (int i = 0; fmt[i] && i < 6; i++) {
		switch (fmt[i]) {
		case 's': w.strs |= (__u8)(1 << i); break;
		case 'h': w.kind = RK_HOW; break;
		case 'F': w.kind = RK_FLOCK; break;
		case 'C': w.kind = RK_CLONE3; break;
		case 'v': w.kind = RK_IOV; break;
		case 'l': w.kind = RK_LOFF; w.loff |= (__u8)(1 << i); break;
		case 'p': w.kind = RK_FDPAIR; w.loff |= (__u8)(1 << i); break;
		default: break;
		}
	}
	return w;
}

int bpf_calls_wanted(TALLOC_CTX *mem_ctx, struct rec_want *v, size_t n, char **err)
{
	const char *set = translate_trace_set(mem_ctx);
	int count = 0;

	memset(v, 0, n * sizeof(*v));
	for (const char *p = set; p && *p;) {
		p += strspn(p, ",?");
		size_t len = strcspn(p, ",");
		if (!len)
			break;
		const struct callfmt *f = by_name(p, len);
		if (!f) {
			*err = talloc_asprintf(mem_ctx, "the bpf tracer does not know the call '%.*s' "
					       "the translator traces", (int)len, p);
			return -1;
		}
		if (f->nr >= 0 && (size_t)f->nr < n && !v[f->nr].on) {
			v[f->nr] = want_of(f->fmt);
			count++;
		}
		p += len;
	}
	/* the strace set leaves ioctl out; so does this one */
	return count;
}

/* ---- printing ---- */

struct flagname {
	uint64_t value;
	const char *name;
};

/* Flags by name, '|' between, what no name covers as hex; "0" for none.
 * A name whose value has several bits needs all of them. */
static char *flags_text(TALLOC_CTX *mem_ctx, uint64_t v, const struct flagname *names, size_t n,
			const char *first)
{
	char *s = talloc_strdup(mem_ctx, first ? first : "");

	for (size_t i = 0; s && i < n; i++) {
		if (names[i].value && (v & names[i].value) == names[i].value) {
			s = talloc_asprintf_append(s, "%s%s", *s ? "|" : "", names[i].name);
			v &= ~names[i].value;
		}
	}
	if (s && v)
		s = talloc_asprintf_append(s, "%s%#" PRIx64, *s ? "|" : "", v);
	if (s && !*s)
		s = talloc_asprintf_append(s, "0");
	return s;
}

#define N(x) { x, #x }
static const struct flagname open_names[] = {
	N(O_TMPFILE), N(O_SYNC), N(O_CREAT), N(O_EXCL), N(O_NOCTTY), N(O_TRUNC), N(O_APPEND),
	N(O_NONBLOCK), N(O_DSYNC), N(O_ASYNC), N(O_DIRECT), { 0100000, "O_LARGEFILE" },
	N(O_DIRECTORY), N(O_NOFOLLOW), N(O_NOATIME), N(O_CLOEXEC), N(O_PATH),
};

static const struct flagname at_names[] = {
	N(AT_SYMLINK_NOFOLLOW), N(AT_REMOVEDIR), N(AT_SYMLINK_FOLLOW), N(AT_NO_AUTOMOUNT),
	N(AT_EMPTY_PATH), N(AT_STATX_FORCE_SYNC), N(AT_STATX_DONT_SYNC),
};

static const struct flagname clone_names[] = {
	N(CLONE_VM), N(CLONE_FS), N(CLONE_FILES), N(CLONE_SIGHAND), N(CLONE_PIDFD),
	N(CLONE_PTRACE), N(CLONE_VFORK), N(CLONE_PARENT), N(CLONE_THREAD), N(CLONE_NEWNS),
	N(CLONE_SYSVSEM), N(CLONE_SETTLS), N(CLONE_PARENT_SETTID), N(CLONE_CHILD_CLEARTID),
	N(CLONE_UNTRACED), N(CLONE_CHILD_SETTID),
};
#undef N

static char *open_flags(TALLOC_CTX *mem_ctx, uint64_t v)
{
	static const char *const acc[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "0x3" };

	if (v & O_PATH)
		return flags_text(mem_ctx, v, open_names, sizeof(open_names) / sizeof(open_names[0]), NULL);
	return flags_text(mem_ctx, v & ~(uint64_t)O_ACCMODE, open_names,
			  sizeof(open_names) / sizeof(open_names[0]), acc[v & O_ACCMODE]);
}

char *bpf_open_flags(TALLOC_CTX *mem_ctx, uint64_t flags)
{
	return open_flags(mem_ctx, flags);
}

static char *at_flags(TALLOC_CTX *mem_ctx, uint64_t v, const char *call)
{
	/* AT_REMOVEDIR and AT_EACCESS are one bit */
	if (strcmp(call, "faccessat2") == 0 && (v & AT_EACCESS)) {
		char *rest = flags_text(mem_ctx, v & ~(uint64_t)AT_EACCESS, at_names,
					sizeof(at_names) / sizeof(at_names[0]), NULL);
		return strcmp(rest, "0") == 0 ? talloc_strdup(mem_ctx, "AT_EACCESS")
					      : talloc_asprintf(mem_ctx, "AT_EACCESS|%s", rest);
	}
	return flags_text(mem_ctx, v, at_names, sizeof(at_names) / sizeof(at_names[0]), NULL);
}

static char *clone_flags(TALLOC_CTX *mem_ctx, uint64_t v)
{
	char *s = flags_text(mem_ctx, v & ~(uint64_t)0xff, clone_names,
			     sizeof(clone_names) / sizeof(clone_names[0]), NULL);
	unsigned sig = (unsigned)(v & 0xff);

	if (!sig || !s)
		return s;
	const char *name = sig == 17 ? "SIGCHLD" : NULL;
	if (strcmp(s, "0") == 0)
		return name ? talloc_strdup(mem_ctx, name) : talloc_asprintf(mem_ctx, "%u", sig);
	return name ? talloc_asprintf_append(s, "|%s", name) : talloc_asprintf_append(s, "|%u", sig);
}

/* Flags of a call that makes a descriptor: its close-on-exec bit by the
 * name strace gives it for that call, the others as hex (the recorder
 * reads the close-on-exec bit alone). */
static char *cloexec_flags(TALLOC_CTX *mem_ctx, uint64_t v, const char *call)
{
	const char *name = "O_CLOEXEC";
	uint64_t bit = O_CLOEXEC;

	if (strcmp(call, "memfd_create") == 0)
		name = "MFD_CLOEXEC", bit = 1;	/* (no header of its own here) */
	else if (strncmp(call, "socket", 6) == 0 || strncmp(call, "accept", 6) == 0)
		name = "SOCK_CLOEXEC";
	else if (strcmp(call, "eventfd2") == 0)
		name = "EFD_CLOEXEC";
	else if (strcmp(call, "epoll_create1") == 0)
		name = "EPOLL_CLOEXEC";
	return flags_text(mem_ctx, v, (const struct flagname[]){ { bit, name } }, 1, NULL);
}

/* A string as strace -xx prints it: quoted, every byte outside printable
 * ASCII (and the quote and backslash) as \xHH; "..." after it when cut. */
static char *quoted(TALLOC_CTX *mem_ctx, const char *s, size_t len, bool cut)
{
	char *out = talloc_array(mem_ctx, char, len * 4 + 6);
	size_t k = 0;

	if (!out)
		return NULL;
	out[k++] = '"';
	for (size_t i = 0; i < len && s[i]; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\')
			out[k++] = (char)ch;
		else
			k += (size_t)sprintf(out + k, "\\x%02x", ch);
	}
	out[k++] = '"';
	if (cut)
		k += (size_t)sprintf(out + k, "...");
	out[k] = '\0';
	return out;
}

static char *fcntl_cmd(TALLOC_CTX *mem_ctx, uint64_t cmd)
{
	static const struct flagname cmds[] = {
		{ F_DUPFD, "F_DUPFD" }, { F_GETFD, "F_GETFD" }, { F_SETFD, "F_SETFD" },
		{ F_GETFL, "F_GETFL" }, { F_SETFL, "F_SETFL" }, { F_GETLK, "F_GETLK" },
		{ F_SETLK, "F_SETLK" }, { F_SETLKW, "F_SETLKW" }, { F_SETOWN, "F_SETOWN" },
		{ F_GETOWN, "F_GETOWN" }, { F_SETSIG, "F_SETSIG" }, { F_GETSIG, "F_GETSIG" },
		{ F_OFD_GETLK, "F_OFD_GETLK" }, { F_OFD_SETLK, "F_OFD_SETLK" },
		{ F_OFD_SETLKW, "F_OFD_SETLKW" }, { F_SETLEASE, "F_SETLEASE" },
		{ F_GETLEASE, "F_GETLEASE" }, { F_NOTIFY, "F_NOTIFY" },
		{ F_DUPFD_CLOEXEC, "F_DUPFD_CLOEXEC" }, { F_SETPIPE_SZ, "F_SETPIPE_SZ" },
		{ F_GETPIPE_SZ, "F_GETPIPE_SZ" }, { F_ADD_SEALS, "F_ADD_SEALS" },
		{ F_GET_SEALS, "F_GET_SEALS" },
	};

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (cmds[i].value == (uint32_t)cmd)
			return talloc_strdup(mem_ctx, cmds[i].name);
	return talloc_asprintf(mem_ctx, "%u", (unsigned)cmd);
}

static char *fcntl_arg(TALLOC_CTX *mem_ctx, const struct bpf_call *b)
{
	static const char *const types[] = { "F_RDLCK", "F_WRLCK", "F_UNLCK" };
	static const char *const whences[] = { "SEEK_SET", "SEEK_CUR", "SEEK_END" };
	unsigned cmd = (unsigned)b->e.args[1];
	uint64_t arg = b->e.args[2];

	if (cmd == F_GETLK || cmd == F_SETLK || cmd == F_SETLKW || cmd == F_OFD_GETLK ||
	    cmd == F_OFD_SETLK || cmd == F_OFD_SETLKW) {
		unsigned type = (unsigned)(b->e.extra[0] & 0xffff), wh = (unsigned)(b->e.extra[0] >> 16);
		if (b->e.flags & EVF_EXTRA_BAD)
			return talloc_asprintf(mem_ctx, "%#" PRIx64, arg);
		return talloc_asprintf(mem_ctx, "{l_type=%s, l_whence=%s, l_start=%" PRId64
				       ", l_len=%" PRId64 "}", type < 3 ? types[type] : "?",
				       wh < 3 ? whences[wh] : "?", (int64_t)b->e.extra[1],
				       (int64_t)b->e.extra[2]);
	}
	if (cmd == F_SETFD)
		return talloc_strdup(mem_ctx, arg == FD_CLOEXEC ? "FD_CLOEXEC" : "0");
	if (cmd == F_SETFL)
		return open_flags(mem_ctx, arg);
	if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)
		return talloc_asprintf(mem_ctx, "%d", (int)arg);
	if (cmd == F_GETFD || cmd == F_GETFL)
		return NULL;	/* strace prints no third argument */
	return talloc_asprintf(mem_ctx, "%#" PRIx64, arg);
}

/* The next string of the call (in the order of its arguments). */
static char *string_arg(TALLOC_CTX *mem_ctx, const struct bpf_call *b, int i, int *k)
{
	int n = (*k)++;
	uint64_t p = b->e.args[i];

	if (n > 1 || !p)
		return talloc_strdup(mem_ctx, "NULL");
	if (b->e.flags & (n ? EVF_BAD1 : EVF_BAD0) || !b->str[n])
		return talloc_asprintf(mem_ctx, "%#" PRIx64, p);
	return quoted(mem_ctx, b->str[n], b->e.len[n], b->e.flags & (n ? EVF_CUT1 : EVF_CUT0));
}

/* A mode in octal; mknod's with its file type first, as strace prints it
 * ("S_IFIFO|0644"), which tells the recorder what the call made. */
static char *mode_text(TALLOC_CTX *mem_ctx, uint64_t v, const char *call)
{
	static const struct { unsigned type; const char *name; } types[] = {
		{ S_IFREG, "S_IFREG" }, { S_IFIFO, "S_IFIFO" }, { S_IFCHR, "S_IFCHR" },
		{ S_IFBLK, "S_IFBLK" }, { S_IFSOCK, "S_IFSOCK" },
	};

	for (size_t t = 0; strncmp(call, "mknod", 5) == 0 && t < sizeof(types) / sizeof(types[0]); t++)
		if ((v & S_IFMT) == types[t].type)
			return talloc_asprintf(mem_ctx, "%s|%#" PRIo64, types[t].name, v & 07777);
	return talloc_asprintf(mem_ctx, "%#" PRIo64, v & 07777);
}

/* The arguments most calls have, printed without printf (a recording
 * formats every call it kept: printf was a quarter of the recorder's
 * time after a program of many small calls). */
static char *decimal(TALLOC_CTX *mem_ctx, int64_t v, bool as_unsigned)
{
	char buf[NUMTEXT_MAX], *end = as_unsigned ? numtext_u64(buf, (uint64_t)v, 1) : numtext_i64(buf, v);

	return talloc_strndup(mem_ctx, buf, (size_t)(end - buf));
}

static char *hex(TALLOC_CTX *mem_ctx, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	do
		*--p = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	*--p = 'x';
	*--p = '0';
	return talloc_strndup(mem_ctx, p, (size_t)(buf + sizeof(buf) - p));
}

/* The two descriptors pipe or socketpair put at the address: "[3, 4]",
 * or the address when the call failed or the pair could not be read. */
static char *fd_pair(TALLOC_CTX *mem_ctx, const struct bpf_call *b, uint64_t addr)
{
	int fds[2];

	if (b->ret != 0 || (b->e.flags & EVF_EXTRA_BAD))
		return addr ? hex(mem_ctx, addr) : talloc_strdup(mem_ctx, "NULL");
	memcpy(fds, &b->e.extra[2], sizeof(fds));
	return talloc_asprintf(mem_ctx, "[%d, %d]", fds[0], fds[1]);
}

static char *one_arg(TALLOC_CTX *mem_ctx, const struct bpf_call *b, const char *call, char f,
		     int i, int *k)
{
	static const char *const whence[] = { "SEEK_SET", "SEEK_CUR", "SEEK_END", "SEEK_DATA", "SEEK_HOLE" };
	uint64_t v = b->e.args[i];

	switch (f) {
	case 'd': case 'n': return decimal(mem_ctx, (int)v, false);
	case 'D': return (int)v == AT_FDCWD ? talloc_strdup(mem_ctx, "AT_FDCWD")
					    : decimal(mem_ctx, (int)v, false);
	case 's': return string_arg(mem_ctx, b, i, k);
	case 'o': return open_flags(mem_ctx, v);
	case 'm': case 'M': return mode_text(mem_ctx, v, call);
	case 'R': return flags_text(mem_ctx, v, (const struct flagname[]){ { 1, "RENAME_NOREPLACE" },
					{ 2, "RENAME_EXCHANGE" }, { 4, "RENAME_WHITEOUT" } }, 3, NULL);
	case 'a': return at_flags(mem_ctx, v, call);
	case 'u': return decimal(mem_ctx, v, true);
	case 'i': return decimal(mem_ctx, (int64_t)v, false);
	case 'x': return v ? hex(mem_ctx, v) : talloc_strdup(mem_ctx, "NULL");
	case 'w': return v < 5 ? talloc_strdup(mem_ctx, whence[v]) : talloc_asprintf(mem_ctx, "%" PRIu64, v);
	case 'v': return talloc_asprintf(mem_ctx, "[{iov_base=%#" PRIx64 ", iov_len=%" PRIu64 "}]", v,
					 (uint64_t)b->e.extra[0]);
	case 'l': return v ? talloc_asprintf(mem_ctx, "[%" PRId64 "]", (int64_t)b->e.extra[i & 3])
			   : talloc_strdup(mem_ctx, "NULL");
	case 'f': return fcntl_cmd(mem_ctx, v);
	case 'F': return fcntl_arg(mem_ctx, b);
	case 'h': return talloc_asprintf(mem_ctx, "{flags=%s, mode=%#" PRIo64 ", resolve=%#" PRIx64 "}",
					 open_flags(mem_ctx, b->e.extra[0]), (uint64_t)b->e.extra[1] & 07777,
					 (uint64_t)b->e.extra[2]);
	case 'k': return flags_text(mem_ctx, v, (const struct flagname[]){ { 2, "CLOSE_RANGE_UNSHARE" },
					{ 4, "CLOSE_RANGE_CLOEXEC" } }, 2, NULL);
	case 'c': return talloc_asprintf(mem_ctx, "flags=%s", clone_flags(mem_ctx, v));
	case 'C': return talloc_asprintf(mem_ctx, "{flags=%s}", clone_flags(mem_ctx, b->e.extra[0]));
	case 'e': return cloexec_flags(mem_ctx, v, call);
	case 'p': return fd_pair(mem_ctx, b, v);
	default: return talloc_strdup(mem_ctx, "?");
	}
}

/* errno's name as strace prints it, the kernel's restart codes too. */
static void errno_name(char *buf, size_t n, int e)
{
	static const char *const restart[] = { "ERESTARTSYS", "ERESTARTNOINTR", "ERESTARTNOHAND",
					       "ENOIOCTLCMD", "ERESTART_RESTARTBLOCK" };
	const char *name = e >= 512 && e <= 516 ? restart[e - 512] : strerrorname_np(e);

	if (name)
		snprintf(buf, n, "%s", name);
	else
		snprintf(buf, n, "E%d", e);
}

static void set_result(const struct bpf_call *b, struct sc_call *c)
{
	c->has_result = true;
	c->ret_unknown = false;
	c->err[0] = '\0';
	c->ret = b->ret;
	if (b->ret < 0 && b->ret >= -4095) {
		errno_name(c->err, sizeof(c->err), (int)-b->ret);
		c->ret = -1;
	}
}

/* The arguments' text joined as strace prints it, one allocation. */
static char *joined(TALLOC_CTX *mem_ctx, char *const *arg, int n)
{
	size_t len[SC_MAX_ARGS], total = 1;

	for (int i = 0; i < n; i++)
		total += (len[i] = strlen(arg[i])) + (i ? 2 : 0);
	char *s = talloc_size(mem_ctx, total), *p = s;
	for (int i = 0; s && i < n; i++) {
		if (i) {
			memcpy(p, ", ", 2);
			p += 2;
		}
		memcpy(p, arg[i], len[i]);
		p += len[i];
	}
	if (s)
		*p = '\0';
	return s;
}

int bpf_call_format(TALLOC_CTX *mem_ctx, const struct bpf_call *b, struct sc_call *c)
{
	const struct callfmt *f = by_nr(b->e.nr);

	memset(c, 0, sizeof(*c));
	if (!f)
		return -1;
	c->kind = SC_CALL;
	c->tid = (int)b->e.tid;
	c->start_us = (int64_t)(b->e.ts / 1000);
	c->dur_us = b->end_ns ? (int64_t)(b->end_ns / 1000) - c->start_us : -1;
	size_t n = strnlen(f->name, sizeof(c->name) - 1);	/* (no printf for every call) */
	memcpy(c->name, f->name, n);
	c->name[n] = '\0';
	uint64_t oflags = 0;
	int k = 0;
	for (int i = 0; f->fmt[i] && i < 6; i++) {
		char l = f->fmt[i];
		if (l == '-' || (l == 'M' && !(oflags & (O_CREAT | __O_TMPFILE))))
			continue;
		if (l == 'o')
			oflags = b->e.args[i];
		char *a = one_arg(mem_ctx, b, f->name, l, i, &k);
		if (!a && l == 'F')
			continue;
		if (!a || c->nargs >= SC_MAX_ARGS)
			return -1;
		c->arg[c->nargs++] = a;
	}
	if (!(c->raw = joined(mem_ctx, c->arg, c->nargs)))
		return -1;
	if (b->end_ns)
		set_result(b, c);
	return 0;
}
