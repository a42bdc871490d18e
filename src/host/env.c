/*
 * env.c - the "environment" object of a result (env.h).
 *
 * Owns every look at the machine a run happened on: uname(2),
 * gethostname(2), sysconf, /proc/cpuinfo, /proc/meminfo, /proc/sys/vm,
 * /proc/self/mountinfo and /sys/dev/block, and the parsing of their text.
 * The parsers take text rather than paths (env_internal.h) so the unit test
 * can feed them fixtures; the readers around them turn a file that is
 * missing or a value that does not parse into JSON null.
 *
 * The mount fields are meant to read exactly as findmnt(8) prints them for
 * --target DIR, so that a result can be checked against the tool people
 * already trust: see env_merge_options() and env_mount_source().
 *
 * Scratch memory lives on one talloc context per env_capture(), freed at
 * its one exit; only the JSON object leaves.
 *
 * Knows nothing of runs or of the reports: its members are rows of the
 * documents' key table (dockey.h), and the JSON report puts the object in
 * whole.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <talloc.h>

#include "dockey.h"
#include "grow.h"
#include "jsontext.h"
#include "env.h"
#include "host/env_internal.h"

/* /proc/cpuinfo keys that name the CPU, most specific first: x86 and most
 * others have "model name"; some ARM kernels only "Hardware" or
 * "Processor" (capital P: lower-case "processor" is the CPU's index);
 * MIPS has "cpu model". */
static const char *const cpu_model_keys[] = {
	"model name", "Hardware", "Processor", "cpu model",
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- small text helpers ---- */

static const char *next_line(const char *s)
{
	const char *nl = strchr(s, '\n');

	return nl ? nl + 1 : NULL;
}

/* A whole decimal integer, blanks around it allowed; 0, or -1. */
static int parse_ll(const char *s, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || errno != 0)
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	if (*end != '\0')
		return -1;
	*out = v;
	return 0;
}

/* The value of the first "KEY<blanks>: value" line in TEXT, blanks
 * trimmed, as a pointer into TEXT and a length; NULL when no line with that
 * key has a value. */
static const char *keyed_value(const char *text, const char *key, size_t *len)
{
	size_t klen = strlen(key);

	for (const char *line = text; line && *line; line = next_line(line)) {
		const char *p = line + klen, *end;

		if (strncmp(line, key, klen) != 0)
			continue;
		p += strspn(p, " \t");
		if (*p != ':')
			continue;
		p += 1 + strspn(p + 1, " \t");
		end = p + strcspn(p, "\n");
		while (end > p && isspace((unsigned char)end[-1]))
			end--;
		if (end > p) {
			*len = (size_t)(end - p);
			return p;
		}
	}
	return NULL;
}

/* ---- reading files ---- */

/* The whole of a file, read to EOF (proc and sys files report size 0);
 * NULL when it cannot be read. */
static char *read_text(TALLOC_CTX *mem_ctx, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0, cap = 4096;
	char *buf;

	if (fd < 0)
		return NULL;
	buf = talloc_array(mem_ctx, char, cap);
	while (buf) {
		ssize_t n;

		if (len + 1 >= cap && !grow_array(mem_ctx, (void **)&buf, 1, &cap, cap + 1, cap)) {
			TALLOC_FREE(buf);
			break;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			TALLOC_FREE(buf);
			break;
		}
		if (n == 0) {
			buf[len] = '\0';
			break;
		}
		len += (size_t)n;
	}
	close(fd);
	return buf;
}

/* realpath(3) on talloc; NULL when PATH does not resolve. */
static char *real_path(TALLOC_CTX *mem_ctx, const char *path)
{
	char *real = realpath(path, NULL), *out;

	if (!real)
		return NULL;
	out = talloc_strdup(mem_ctx, real);
	free(real);
	return out;
}

/* ---- building JSON ---- */

/* The integer in the file at PATH, or null. */
static json_t *int_file(TALLOC_CTX *mem_ctx, const char *path)
{
	char *text = read_text(mem_ctx, path);
	long long v;

	if (!text || parse_ll(text, &v) != 0)
		return json_null();
	return json_integer(v);
}

/* The integer in DIR/NAME, or null. */
static json_t *int_file_in(TALLOC_CTX *mem_ctx, const char *dir,
			   const char *name)
{
	char *path = talloc_asprintf(mem_ctx, "%s/%s", dir, name);

	return path ? int_file(mem_ctx, path) : NULL;
}

/* ---- mountinfo ---- */

static int is_octal(char c)
{
	return c >= '0' && c <= '7';
}

/* A copy of S[0..LEN) with the kernel's \ooo escapes decoded (it escapes
 * space, tab, newline and backslash in paths, and more in options). */
static char *unescape(TALLOC_CTX *mem_ctx, const char *s, size_t len)
{
	char *out = talloc_array(mem_ctx, char, len + 1);
	size_t o = 0;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\\' && i + 3 < len && s[i + 1] >= '0' &&
		    s[i + 1] <= '3' && is_octal(s[i + 2]) && is_octal(s[i + 3])) {
			out[o++] = (char)((s[i + 1] - '0') * 64 +
					  (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 3;
		} else {
			out[o++] = s[i];
		}
	}
	out[o] = '\0';
	return out;
}

/* The next field of a mountinfo line, decoded, advancing *CUR past it and
 * its one separating space (an empty field, such as an empty source,
 * stays a field); NULL after the last field. */
static char *next_field(TALLOC_CTX *mem_ctx, const char **cur)
{
	const char *s = *cur, *e;

	if (!s)
		return NULL;
	e = s + strcspn(s, " \n");
	*cur = *e == ' ' ? e + 1 : NULL;
	return unescape(mem_ctx, s, (size_t)(e - s));
}

struct env_mount *env_mountinfo_parse_line(TALLOC_CTX *mem_ctx,
					   const char *line)
{
	struct env_mount *m = talloc_zero(mem_ctx, struct env_mount);
	const char *cur = line;
	char *id, *parent, *dev, *sep, extra;

	if (!m)
		return NULL;
	id = next_field(m, &cur);
	parent = next_field(m, &cur);
	dev = next_field(m, &cur);
	m->root = next_field(m, &cur);
	m->mount_point = next_field(m, &cur);
	m->vfs_options = next_field(m, &cur);
	do	/* optional fields ("shared:1", "master:2", ...) up to "-" */
		sep = next_field(m, &cur);
	while (sep && strcmp(sep, "-") != 0);
	m->fstype = next_field(m, &cur);
	m->source = next_field(m, &cur);
	m->fs_options = next_field(m, &cur);
	if (!id || !*id || strspn(id, "0123456789") != strlen(id) || !parent ||
	    !dev || sscanf(dev, "%u:%u%c", &m->major, &m->minor, &extra) != 2 ||
	    !m->root || !m->mount_point || !m->vfs_options || !sep ||
	    !m->fstype || !m->source || !m->fs_options) {
		talloc_free(m);
		return NULL;
	}
	return m;
}

/* How much of PATH the mount point MP covers: its length when MP is PATH
 * or a directory above it ("/" covers everything), else 0. */
static size_t prefix_len(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (n == 0 || mp[0] != '/' || path[0] != '/')
		return 0;
	if (n == 1)
		return 1;
	if (strncmp(path, mp, n) != 0)
		return 0;
	return path[n] == '\0' || path[n] == '/' ? n : 0;
}

/* Keeps M in *BEST if it covers at least as much (a later line is mounted
 * on top of an earlier one at the same place); frees whichever loses. */
static void keep_best(struct env_mount **best, size_t *best_len,
		      struct env_mount *m, size_t len)
{
	if (*best && len < *best_len) {
		talloc_free(m);
		return;
	}
	talloc_free(*best);
	*best = m;
	*best_len = len;
}

struct env_mount *env_mountinfo_find(TALLOC_CTX *mem_ctx, const char *text,
				     unsigned major, unsigned minor,
				     const char *path)
{
	struct env_mount *same_dev = NULL, *other = NULL;
	size_t same_len = 0, other_len = 0;

	for (const char *line = text; line && *line; line = next_line(line)) {
		struct env_mount *m = env_mountinfo_parse_line(mem_ctx, line);
		size_t len = m ? prefix_len(m->mount_point, path) : 0;

		if (len == 0)
			talloc_free(m);
		else if (m->major == major && m->minor == minor)
			keep_best(&same_dev, &same_len, m, len);
		else
			keep_best(&other, &other_len, m, len);
	}
	if (same_dev) {
		talloc_free(other);
		return same_dev;
	}
	return other;
}

char *env_mount_source(TALLOC_CTX *mem_ctx, const struct env_mount *m)
{
	if (strcmp(m->root, "/") != 0)
		return talloc_asprintf(mem_ctx, "%s[%s]", m->source, m->root);
	return talloc_strdup(mem_ctx, m->source);
}

/* ---- mount options, as findmnt composes them ---- */

/* S split at the commas outside double quotes (a quoted value such as an
 * SELinux context may hold commas); empty items are dropped. */
static char **split_options(TALLOC_CTX *mem_ctx, const char *s, size_t *n)
{
	char **v = talloc_array(mem_ctx, char *, strlen(s) / 2 + 2);
	const char *start = s;
	int quoted = 0;

	*n = 0;
	for (const char *p = s; v; p++) {
		if (*p == '"') {
			quoted = !quoted;
		} else if ((*p == ',' && !quoted) || *p == '\0') {
			if (p > start) {
				v[*n] = talloc_strndup(v, start, (size_t)(p - start));
				if (!v[(*n)++])
					return NULL;
			}
			if (*p == '\0')
				break;
			start = p + 1;
		}
	}
	return v;
}

/* Removes the first option called NAME ("NAME" or "NAME=value") from
 * V[0..*N); 1 if there was one, else 0. */
static int remove_option(char **v, size_t *n, const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < *n; i++) {
		if (strncmp(v[i], name, len) == 0 &&
		    (v[i][len] == '\0' || v[i][len] == '=')) {
			memmove(&v[i], &v[i + 1], (*n - i - 1) * sizeof(*v));
			(*n)--;
			return 1;
		}
	}
	return 0;
}

/* Follows libmount's merge_optstr() (util-linux fs.c), which findmnt's
 * OPTIONS column shows: "VFS,FS" with the first two "rw" removed and, when
 * fewer than two were, one or two "ro" as well, then "ro" or "rw" put in
 * front.  Its quirks are kept on purpose: the aim is to print what findmnt
 * prints. */
char *env_merge_options(TALLOC_CTX *mem_ctx, const char *vfs, const char *fs)
{
	TALLOC_CTX *tmp_ctx;
	char *joined, **opt, *out = NULL;
	size_t n = 0;
	int rw, ro = 0;

	if (!vfs || !fs)
		return vfs || fs ? talloc_strdup(mem_ctx, vfs ? vfs : fs) : NULL;
	if (strcmp(vfs, fs) == 0)
		return talloc_strdup(mem_ctx, vfs);
	tmp_ctx = talloc_new(NULL);
	joined = talloc_asprintf(tmp_ctx, "%s,%s", vfs, fs);
	opt = joined ? split_options(tmp_ctx, joined, &n) : NULL;
	if (opt) {
		rw = remove_option(opt, &n, "rw");
		rw += remove_option(opt, &n, "rw");
		if (rw != 2) {
			ro = remove_option(opt, &n, "ro");
			if (ro + rw < 2)
				ro += remove_option(opt, &n, "ro");
		}
		out = talloc_strdup(mem_ctx, ro ? "ro" : "rw");
		for (size_t i = 0; out && i < n; i++)
			out = talloc_asprintf_append(out, ",%s", opt[i]);
	}
	talloc_free(tmp_ctx);
	return out;
}

/* ---- block devices ---- */

/* The resolved sysfs directory of block device MAJ:MIN
 * (/sys/devices/.../block/sda/sda1); NULL when there is no such device. */
static char *block_sysdir(TALLOC_CTX *mem_ctx, unsigned maj, unsigned min)
{
	char link[64];

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", maj, min);
	return real_path(mem_ctx, link);
}

/* The sysfs directory of the block device under a target: its st_dev
 * DEV when that is a block device, else (btrfs, whose st_dev is an
 * anonymous device) the /dev node its mount M names as source. */
static char *target_sysdir(TALLOC_CTX *mem_ctx, dev_t dev,
			   const struct env_mount *m)
{
	char *dir = block_sysdir(mem_ctx, major(dev), minor(dev));
	struct stat st;

	if (dir || !m || strncmp(m->source, "/dev/", 5) != 0)
		return dir;
	if (stat(m->source, &st) != 0 || !S_ISBLK(st.st_mode))
		return NULL;
	return block_sysdir(mem_ctx, major(st.st_rdev), minor(st.st_rdev));
}

char *env_parse_scheduler(TALLOC_CTX *mem_ctx, const char *text)
{
	const char *open = strchr(text, '['), *close, *end;

	if (open) {
		close = strchr(open + 1, ']');
		if (!close || close == open + 1)
			return NULL;
		return talloc_strndup(mem_ctx, open + 1, (size_t)(close - open - 1));
	}
	text += strspn(text, " \t\n");
	end = text + strcspn(text, " \t\n");
	if (end == text || end[strspn(end, " \t\n")] != '\0')
		return NULL;
	return talloc_strndup(mem_ctx, text, (size_t)(end - text));
}

/* The active scheduler of queue directory Q, or null. */
static json_t *scheduler_json(TALLOC_CTX *mem_ctx, const char *q)
{
	char *path = talloc_asprintf(mem_ctx, "%s/scheduler", q);
	char *text = path ? read_text(mem_ctx, path) : NULL;

	if (!path)
		return NULL;
	return jsontext(text ? env_parse_scheduler(mem_ctx, text) : NULL);
}

/* The queue directory for the device at SYSDIR: its own, or for a
 * partition (which has a "partition" file) the disk's above it. */
static char *queue_dir(TALLOC_CTX *mem_ctx, const char *sysdir)
{
	char *part = talloc_asprintf(mem_ctx, "%s/partition", sysdir);
	const char *slash = strrchr(sysdir, '/');

	if (!part)
		return NULL;
	if (access(part, F_OK) == 0 && slash && slash > sysdir)
		return talloc_asprintf(mem_ctx, "%.*s/queue",
				       (int)(slash - sysdir), sysdir);
	return talloc_asprintf(mem_ctx, "%s/queue", sysdir);
}

json_t *env_block_queue(TALLOC_CTX *mem_ctx, const char *sysdir)
{
	char *q = queue_dir(mem_ctx, sysdir);
	struct stat st;

	if (!q)
		return NULL;
	if (stat(q, &st) != 0 || !S_ISDIR(st.st_mode))
		return json_null();
	/* each member but the scheduler is its file's number */
	const struct dockey_value v[] = {
		{ DK_QUEUE_SCHEDULER, scheduler_json(mem_ctx, q) },
		{ DK_QUEUE_READ_AHEAD_KB, int_file_in(mem_ctx, q, dockey_name(DK_QUEUE_READ_AHEAD_KB)) },
		{ DK_QUEUE_NR_REQUESTS, int_file_in(mem_ctx, q, dockey_name(DK_QUEUE_NR_REQUESTS)) },
		{ DK_QUEUE_ROTATIONAL, int_file_in(mem_ctx, q, dockey_name(DK_QUEUE_ROTATIONAL)) },
	};
	return dockey_object(DK_QUEUE, NULL, v, NELEM(v));
}

char *env_loop_backing(TALLOC_CTX *mem_ctx, const char *sysdir)
{
	char *path = talloc_asprintf(mem_ctx, "%s/loop/backing_file", sysdir);
	char *text = path ? read_text(mem_ctx, path) : NULL;
	size_t len;

	talloc_free(path);
	if (!text)
		return NULL;
	len = strcspn(text, "\n");
	text[len] = '\0';
	if (len == 0) {
		talloc_free(text);
		return NULL;
	}
	return text;
}

/* The sysfs directory of the block device holding PATH, found through
 * MOUNTINFO as for a target; NULL when there is none. */
static char *sysdir_under(TALLOC_CTX *mem_ctx, const char *mountinfo, const char *path)
{
	struct env_mount *m = NULL;
	struct stat st;
	char *real, *dir;

	if (stat(path, &st) != 0)
		return NULL;
	if (S_ISBLK(st.st_mode))	/* a device named itself (the block backend's) */
		return block_sysdir(mem_ctx, major(st.st_rdev), minor(st.st_rdev));
	real = real_path(mem_ctx, path);
	if (real && mountinfo)
		m = env_mountinfo_find(mem_ctx, mountinfo, major(st.st_dev),
				       minor(st.st_dev), real);
	dir = target_sysdir(mem_ctx, st.st_dev, m);
	talloc_free(m);
	talloc_free(real);
	return dir;
}

char *env_block_sysdir(TALLOC_CTX *mem_ctx, const char *path)
{
	char *mountinfo = read_text(mem_ctx, "/proc/self/mountinfo");
	char *dir = sysdir_under(mem_ctx, mountinfo, path);

	talloc_free(mountinfo);
	return dir;
}

char *env_fstype(TALLOC_CTX *mem_ctx, const char *path)
{
	TALLOC_CTX *tmp_ctx = talloc_new(NULL);
	char *mountinfo = read_text(tmp_ctx, "/proc/self/mountinfo");
	char *real = real_path(tmp_ctx, path), *fstype = NULL;
	struct env_mount *m = NULL;
	struct stat st;

	if (mountinfo && real && stat(path, &st) == 0)
		m = env_mountinfo_find(tmp_ctx, mountinfo, major(st.st_dev), minor(st.st_dev),
				       real);
	if (m)
		fstype = talloc_strdup(mem_ctx, m->fstype);
	talloc_free(tmp_ctx);
	return fstype;
}

/* The device of a sysfs directory (its last component), or NULL. */
static const char *device_of(const char *sysdir)
{
	return sysdir ? strrchr(sysdir, '/') + 1 : NULL;
}

/* ---- one target directory ---- */

/* The values v[0..n) and what the backend said, f (or NULL), as an
 * element of "targets". */
static json_t *target_object(const struct dockey_value *v, size_t n, const struct env_facts *f)
{
	struct dockey_value all[32];	/* a local target's 9, a backend's 8 at most */
	size_t nf = f ? f->n : 0;

	if (n + nf > NELEM(all)) {
		for (size_t i = 0; i < n + nf; i++)
			json_decref(i < n ? v[i].value : f->v[i - n].value);
		return NULL;
	}
	memcpy(all, v, n * sizeof(*v));
	if (nf)
		memcpy(all + n, f->v, nf * sizeof(*v));
	return dockey_object(DK_TARGET, NULL, all, n + nf);
}

/* One element of "targets": the mount holding DIR, found in MOUNTINFO (the
 * text of /proc/self/mountinfo, or NULL), and its block device; and what
 * its backend said of it, f (or NULL). */
static json_t *target_json(TALLOC_CTX *mem_ctx, const char *mountinfo, const char *dir,
			   const struct env_facts *f)
{
	struct env_mount *m = NULL;
	char *sysdir = NULL, *real;
	struct stat st;

	if (stat(dir, &st) == 0 && S_ISBLK(st.st_mode)) {
		sysdir = block_sysdir(mem_ctx, major(st.st_rdev), minor(st.st_rdev));
	} else if (stat(dir, &st) == 0) {
		real = real_path(mem_ctx, dir);
		if (real && mountinfo)
			m = env_mountinfo_find(mem_ctx, mountinfo, major(st.st_dev),
					       minor(st.st_dev), real);
		sysdir = target_sysdir(mem_ctx, st.st_dev, m);
	}
	/* a loop device's backing file, and the device and queue under it */
	char *file = sysdir ? env_loop_backing(mem_ctx, sysdir) : NULL;
	char *under = file ? sysdir_under(mem_ctx, mountinfo, file) : NULL;
	const struct dockey_value v[] = {
		{ DK_TARGET_DIRECTORY, jsontext(dir) },
		{ DK_TARGET_FSTYPE, jsontext(m ? m->fstype : NULL) },
		{ DK_TARGET_SOURCE, jsontext(m ? env_mount_source(mem_ctx, m) : NULL) },
		{ DK_TARGET_MOUNT_OPTIONS, jsontext(m ? env_merge_options(mem_ctx, m->vfs_options,
									 m->fs_options) : NULL) },
		{ DK_TARGET_BLOCK_DEVICE, jsontext(device_of(sysdir)) },
		{ DK_TARGET_QUEUE, sysdir ? env_block_queue(mem_ctx, sysdir) : json_null() },
		{ DK_TARGET_BACKING_FILE, jsontext(file) },
		{ DK_TARGET_BACKING_DEVICE, jsontext(device_of(under)) },
		{ DK_TARGET_BACKING_QUEUE, under ? env_block_queue(mem_ctx, under) : json_null() },
	};
	return target_object(v, NELEM(v), f);
}

/* A target the backend described itself (a share, an export): its spec
 * as "directory" and the backend's facts (taken over), no mount; but a
 * device or file named itself (the block backend's) has the facts of a
 * local target too, its device, queue and backing file. */
static json_t *described_json(TALLOC_CTX *mem_ctx, const char *mountinfo, const char *spec,
			      const struct env_facts *f)
{
	struct stat st;

	if (stat(spec, &st) == 0 && (S_ISBLK(st.st_mode) || S_ISREG(st.st_mode)))
		return target_json(mem_ctx, mountinfo, spec, f);
	const struct dockey_value v[] = { { DK_TARGET_DIRECTORY, jsontext(spec) } };
	return target_object(v, NELEM(v), f);
}

static json_t *targets_json(TALLOC_CTX *mem_ctx, const char *const *dirs,
			    unsigned ndirs, const struct env_facts *described)
{
	char *mountinfo = read_text(mem_ctx, "/proc/self/mountinfo");
	json_t *a = json_array();

	for (unsigned i = 0; i < ndirs; i++) {
		const struct env_facts *f = described && described[i].n ? &described[i] : NULL;
		json_t *t = f ? described_json(mem_ctx, mountinfo, dirs[i], f)
			      : target_json(mem_ctx, mountinfo, dirs[i], NULL);
		if (a && json_array_append_new(a, t)) {
			json_decref(a);
			a = NULL;
		}
	}
	return a;
}

/* ---- the machine ---- */

char *env_parse_cpu_model(TALLOC_CTX *mem_ctx, const char *text)
{
	for (size_t i = 0; i < NELEM(cpu_model_keys); i++) {
		size_t len;
		const char *v = keyed_value(text, cpu_model_keys[i], &len);

		if (v)
			return talloc_strndup(mem_ctx, v, len);
	}
	return NULL;
}

long long env_parse_mem_total(const char *text)
{
	size_t len;
	const char *v = keyed_value(text, "MemTotal", &len);
	char *end;
	long long kb;

	if (!v)
		return -1;
	errno = 0;
	kb = strtoll(v, &end, 10);
	if (end == v || errno != 0 || kb < 0 || kb > LLONG_MAX / 1024)
		return -1;
	end += strspn(end, " \t");
	if (strncmp(end, "kB", 2) != 0 || isalnum((unsigned char)end[2]))
		return -1;
	return kb * 1024;
}

static json_t *hostname_json(void)
{
	char host[256];

	if (gethostname(host, sizeof(host)) != 0)
		return json_null();
	host[sizeof(host) - 1] = '\0';
	return jsontext(host);
}

static json_t *kernel_json(void)
{
	struct utsname u;
	int ok = uname(&u) == 0;
	const struct dockey_value v[] = {
		{ DK_KERNEL_SYSNAME, jsontext(ok ? u.sysname : NULL) },
		{ DK_KERNEL_RELEASE, jsontext(ok ? u.release : NULL) },
		{ DK_KERNEL_VERSION, jsontext(ok ? u.version : NULL) },
		{ DK_KERNEL_MACHINE, jsontext(ok ? u.machine : NULL) },
	};

	return dockey_object(DK_ENV_KERNEL, NULL, v, NELEM(v));
}

static json_t *cpu_json(TALLOC_CTX *mem_ctx)
{
	char *cpuinfo = read_text(mem_ctx, "/proc/cpuinfo");
	long count = sysconf(_SC_NPROCESSORS_ONLN);
	const struct dockey_value v[] = {
		{ DK_CPU_MODEL, jsontext(cpuinfo ? env_parse_cpu_model(mem_ctx, cpuinfo) : NULL) },
		{ DK_CPU_COUNT, count > 0 ? json_integer(count) : json_null() },
	};

	return dockey_object(DK_ENV_CPU, NULL, v, NELEM(v));
}

static json_t *memory_json(TALLOC_CTX *mem_ctx)
{
	char *meminfo = read_text(mem_ctx, "/proc/meminfo");
	long long bytes = meminfo ? env_parse_mem_total(meminfo) : -1;

	return bytes >= 0 ? json_integer(bytes) : json_null();
}

/* The tunables of "vm": each row of it is a file of /proc/sys/vm, read
 * in the table's order. */
static json_t *vm_json(TALLOC_CTX *mem_ctx)
{
	struct dockey_value v[DK_COUNT];
	size_t n = 0;

	for (enum dockey k = DK_NONE + 1; k < DK_COUNT; k++)
		if (dockey_rows[k].parent == DK_ENV_VM)
			v[n++] = (struct dockey_value){
				k, int_file_in(mem_ctx, "/proc/sys/vm", dockey_name(k)) };
	return dockey_object(DK_ENV_VM, NULL, v, n);
}

json_t *env_capture(const char *const *dirs, unsigned ndirs, const struct env_facts *described)
{
	TALLOC_CTX *tmp_ctx = talloc_new(NULL);

	if (!tmp_ctx) {
		for (unsigned i = 0; described && i < ndirs; i++)
			for (size_t k = 0; k < described[i].n; k++)
				json_decref(described[i].v[k].value);
		return NULL;
	}
	const struct dockey_value v[] = {
		{ DK_ENV_HOSTNAME, hostname_json() },
		{ DK_ENV_KERNEL, kernel_json() },
		{ DK_ENV_CPU, cpu_json(tmp_ctx) },
		{ DK_ENV_MEMORY_BYTES, memory_json(tmp_ctx) },
		{ DK_ENV_TARGETS, targets_json(tmp_ctx, dirs, ndirs, described) },
		{ DK_ENV_VM, vm_json(tmp_ctx) },
	};
	json_t *env = dockey_object(DK_ENV, NULL, v, NELEM(v));
	talloc_free(tmp_ctx);
	return env;
}
