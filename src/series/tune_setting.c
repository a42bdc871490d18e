/*
 * tune_setting.c - the settings dbench tune races (see tune_setting.h):
 * their keys and values, the files under /proc/sys and /sys, the
 * environment, and each setting's line of the journal.  Mounts are
 * tune_mount.c's.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "series/tune_mount.h"
#include "series/tune_setting.h"

#define VALUE_MAX 4096		/* bytes of a setting's file read back */

/* ---- keys and values ---- */

/* Whether name is a shell variable's name. */
static bool env_name(const char *name)
{
	if (!*name || isdigit((unsigned char)*name))
		return false;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return false;
	return true;
}

/* A sysctl's dotted name ("vm.dirty_ratio"): its file under /proc/sys. */
static char *sysctl_path(TALLOC_CTX *mem_ctx, const char *key)
{
	if (!strchr(key, '.') || key[0] == '.' || strstr(key, "..") ||
	    strspn(key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") !=
		    strlen(key))
		return NULL;
	char *path = talloc_asprintf(mem_ctx, "/proc/sys/%s", key);
	for (char *p = path + strlen("/proc/sys/"); p && *p; p++)
		if (*p == '.')
			*p = '/';
	return path;
}

/* The kind and path (or variable, or mount point) key names; false when
 * it names none. */
static bool classify(struct setting *s, const char *key)
{
	if (strcmp(key, "opt") == 0) {
		s->kind = SETTING_OPT;
	} else if (strncmp(key, "env:", 4) == 0 && env_name(key + 4)) {
		s->kind = SETTING_ENV;
		s->path = talloc_strdup(s, key + 4);
	} else if (strncmp(key, "mount:/", 7) == 0) {
		s->kind = SETTING_MOUNT;
		s->path = talloc_strdup(s, key + 6);
	} else if (strncmp(key, "/proc/sys/", 10) == 0) {
		s->kind = SETTING_SYSCTL;
		s->path = talloc_strdup(s, key);
	} else if (strncmp(key, "/sys/", 5) == 0) {
		s->kind = SETTING_SYSFS;
		s->path = talloc_strdup(s, key);
	} else if ((s->path = sysctl_path(s, key))) {
		s->kind = SETTING_SYSCTL;
	} else {
		return false;
	}
	return true;
}

struct setting *setting_new(TALLOC_CTX *mem_ctx, const char *key, char **err)
{
	struct setting *s = talloc_zero(mem_ctx, struct setting);

	if (!s || !(s->key = talloc_strdup(s, key))) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		talloc_free(s);
		return NULL;
	}
	if (!classify(s, key)) {
		*err = talloc_asprintf(mem_ctx, "'%s' is not a setting: a sysctl (vm.dirty_ratio or"
				       " /proc/sys/...), a file under /sys, mount:/PATH, env:NAME"
				       " or opt", key);
		talloc_free(s);
		return NULL;
	}
	s->values = talloc_array(s, const char *, 0);
	return s;
}

bool setting_add_value(struct setting *s, const char *value)
{
	for (size_t i = 0; i < s->nvalues; i++)
		if (strcmp(s->values[i], value) == 0)
			return true;
	const char **v = talloc_realloc(s, s->values, const char *, s->nvalues + 1);
	if (!v || !(v[s->nvalues] = talloc_strdup(v, value)))
		return false;
	s->values = v;
	s->nvalues++;
	return true;
}

/* The next value of a list at *p (quoted with ' or " or bare, up to a
 * comma), on mem_ctx; *p moves past its comma.  NULL when a quote is not
 * closed or text follows it. */
static char *next_value(TALLOC_CTX *mem_ctx, const char **p)
{
	const char *s = *p;
	char *v;

	if (*s == '\'' || *s == '"') {
		const char *close = strchr(s + 1, *s);
		if (!close || (close[1] && close[1] != ','))
			return NULL;
		v = talloc_strndup(mem_ctx, s + 1, close - s - 1);
		s = close + 1;
	} else {
		size_t n = strcspn(s, ",");
		v = talloc_strndup(mem_ctx, s, n);
		s += n;
	}
	*p = *s == ',' ? s + 1 : s;
	return v;
}

struct setting *setting_parse(TALLOC_CTX *mem_ctx, const char *spec, char **err)
{
	const char *eq = strchr(spec, '=');
	char *key = eq ? talloc_strndup(mem_ctx, spec, eq - spec) : NULL;
	struct setting *s = key ? setting_new(mem_ctx, key, err) : NULL;

	if (!eq)
		*err = talloc_strdup(mem_ctx, "a setting is KEY=VALUE,VALUE...");
	talloc_free(key);
	if (!s)
		return NULL;
	const char *p = eq + 1;
	do {
		char *v = next_value(s, &p);
		if (!v) {
			*err = talloc_strdup(mem_ctx, "a quoted value must end in its quote,"
					     " before a comma");
			talloc_free(s);
			return NULL;
		}
		setting_add_value(s, v);
	} while (*p);
	if (eq[1] && eq[strlen(eq) - 1] == ',')
		setting_add_value(s, "");	/* "opt=-F," ends with an empty one */
	return s;
}

/* ---- files under /proc/sys and /sys ---- */

/* text with blanks trimmed and runs of them one space; a list of choices
 * with one in brackets ("[none] kyber") is that one. */
static char *normal(TALLOC_CTX *mem_ctx, const char *text)
{
	const char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;
	char *out = open && close ? talloc_strndup(mem_ctx, open + 1, close - open - 1)
				  : talloc_strdup(mem_ctx, text);
	size_t o = 0;

	for (size_t i = 0; out && out[i]; i++) {
		if (isspace((unsigned char)out[i])) {
			if (o && out[o - 1] != ' ')
				out[o++] = ' ';
		} else {
			out[o++] = out[i];
		}
	}
	if (out) {
		if (o && out[o - 1] == ' ')
			o--;
		out[o] = '\0';
	}
	return out;
}

/* The value in the file at path, normal(); NULL and *err when it cannot
 * be read. */
static char *read_value(TALLOC_CTX *mem_ctx, const char *path, char **err)
{
	char buf[VALUE_MAX + 1];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, VALUE_MAX);
	int e = errno;

	if (fd >= 0)
		close(fd);
	if (n < 0) {
		*err = talloc_asprintf(mem_ctx, "cannot read %s: %s", path, strerror(e));
		return NULL;
	}
	buf[n] = '\0';
	return normal(mem_ctx, buf);
}

/* Write value and a newline into the file at path in one write. */
static bool write_value(TALLOC_CTX *mem_ctx, const char *path, const char *value, char **err)
{
	char *text = talloc_asprintf(mem_ctx, "%s\n", value);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : write(fd, text, strlen(text));
	int e = errno;

	if (fd >= 0 && close(fd) != 0 && n >= 0) {
		n = -1;
		e = errno;
	}
	if (n < 0)
		*err = talloc_asprintf(mem_ctx, "the kernel refuses '%s': %s", value, strerror(e));
	else if ((size_t)n != strlen(text))
		*err = talloc_asprintf(mem_ctx, "the kernel took %zd of the %zu bytes of '%s'", n,
				       strlen(text), value);
	talloc_free(text);
	return n >= 0 && (size_t)n == strlen(value) + 1;
}

/* The file of a sysctl or sysfs setting resolved, under its tree, there,
 * readable and writable: its real path into s->path and its value into
 * s->found; else *err. */
static bool find_file(struct setting *s, TALLOC_CTX *mem_ctx, char **err)
{
	const char *tree = s->kind == SETTING_SYSCTL ? "/proc/sys/" : "/sys/";
	char real[PATH_MAX];

	if (!realpath(s->path, real)) {
		*err = talloc_asprintf(mem_ctx, "%s: %s", s->path, strerror(errno));
		return false;
	}
	if (strncmp(real, tree, strlen(tree)) != 0) {
		*err = talloc_asprintf(mem_ctx, "%s is %s, not under %.*s", s->path, real,
				       (int)strlen(tree) - 1, tree);
		return false;
	}
	int fd = open(real, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = talloc_asprintf(mem_ctx, "%s cannot be written: %s", real, strerror(errno));
		return false;
	}
	close(fd);
	s->path = talloc_strdup(s, real);
	s->found = read_value(s, real, err);
	return s->found != NULL;
}

/* ---- the settings ---- */

bool setting_find(struct setting *s, char **err)
{
	const char *env;

	switch (s->kind) {
	case SETTING_SYSCTL:
	case SETTING_SYSFS:
		if (!find_file(s, s, err))
			return false;
		break;
	case SETTING_MOUNT:
		s->mount = talloc_zero(s, struct mount_found);
		if (!mount_read(s, s->path, s->mount, err) ||
		    !mount_check_values(s, s->mount, s->values, s->nvalues, err))
			return false;
		s->found = mount_text(s, s->mount);
		break;
	case SETTING_ENV:
		env = getenv(s->path);
		s->found = env ? talloc_strdup(s, env) : NULL;
		break;
	case SETTING_OPT:
		s->found = "";
		break;
	}
	s->now = s->found;
	return true;
}

bool setting_on_machine(const struct setting *s)
{
	return s->kind == SETTING_SYSCTL || s->kind == SETTING_SYSFS || s->kind == SETTING_MOUNT;
}

bool setting_same(const struct setting *s, const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	if (s->kind != SETTING_SYSCTL && s->kind != SETTING_SYSFS)
		return strcmp(a, b) == 0;
	TALLOC_CTX *tmp = talloc_new(NULL);
	bool same = strcmp(normal(tmp, a), normal(tmp, b)) == 0;
	talloc_free(tmp);
	return same;
}

/* Write value into a setting's file and read it back into s->now. */
static bool set_file(struct setting *s, const char *value, char **err)
{
	TALLOC_CTX *tmp = talloc_new(s);
	char *why = NULL, *unread = NULL;
	bool ok = write_value(tmp, s->path, value, &why);
	char *now = read_value(s, s->path, &unread);

	if (now)
		s->now = now;
	if (ok && !now)
		why = unread;
	else if (ok && !setting_same(s, now, value))
		why = talloc_asprintf(tmp, "the kernel keeps %s, not %s", now, value);
	ok = ok && now && !why;
	if (!ok)
		*err = talloc_strdup(s, why);
	talloc_free(tmp);
	return ok;
}

bool setting_set(struct setting *s, const char *value, char **err)
{
	char *now = NULL;
	bool ok = true;

	if (s->kind != SETTING_MOUNT && setting_same(s, s->now, value))
		return true;
	switch (s->kind) {
	case SETTING_SYSCTL:
	case SETTING_SYSFS:
		return set_file(s, value, err);
	case SETTING_MOUNT:
		ok = strcmp(value, s->found) == 0 ? mount_put_back(s, s->path, s->mount, &now, err)
						   : mount_apply(s, s->path, s->mount, value, &now, err);
		s->now = now ? now : s->now;
		return ok;
	case SETTING_ENV:
		ok = value ? setenv(s->path, value, 1) == 0 : unsetenv(s->path) == 0;
		if (!ok)
			*err = talloc_asprintf(s, "cannot set %s: %s", s->path, strerror(errno));
		else
			s->now = value ? talloc_strdup(s, value) : NULL;
		return ok;
	case SETTING_OPT:
		s->now = talloc_strdup(s, value);
		return true;
	}
	return false;
}

bool setting_restore(struct setting *s, char **err)
{
	char *now = NULL;

	if (s->kind != SETTING_MOUNT)
		return setting_set(s, s->found, err);
	bool ok = mount_put_back(s, s->path, s->mount, &now, err);
	s->now = now ? now : s->now;
	return ok;
}

char *setting_label(TALLOC_CTX *mem_ctx, const struct setting *s, const char *value)
{
	if (s->kind == SETTING_ENV && !value)
		return talloc_asprintf(mem_ctx, "%s unset", s->key);
	if (s->kind == SETTING_OPT && (!*value || strpbrk(value, " \t,")))
		return talloc_asprintf(mem_ctx, "%s='%s'", s->key, value);
	return talloc_asprintf(mem_ctx, "%s=%s", s->key, value);
}

/* ---- the journal's lines ---- */

static const char *const kind_word[] = {
	[SETTING_SYSCTL] = "sysctl", [SETTING_SYSFS] = "sysfs", [SETTING_MOUNT] = "mount",
	[SETTING_ENV] = "env", [SETTING_OPT] = "opt",
};

/* text with '%', tabs, newlines and other control bytes as %XX, so that
 * it is one field of one line. */
static char *escape(TALLOC_CTX *mem_ctx, const char *text)
{
	char *out = talloc_strdup(mem_ctx, "");

	for (const unsigned char *p = (const unsigned char *)text; out && *p; p++)
		out = *p < 0x20 || *p == 0x7f || *p == '%' ? talloc_asprintf_append(out, "%%%02X", *p)
							   : talloc_asprintf_append(out, "%c", *p);
	return out;
}

/* escape() undone; NULL for a malformed %. */
static char *unescape_field(TALLOC_CTX *mem_ctx, const char *text, size_t len)
{
	char *out = talloc_array(mem_ctx, char, len + 1);
	size_t o = 0;

	for (size_t i = 0; out && i < len; i++) {
		unsigned c;
		if (text[i] != '%') {
			out[o++] = text[i];
		} else if (i + 2 < len && isxdigit((unsigned char)text[i + 1]) &&
			   isxdigit((unsigned char)text[i + 2]) && sscanf(text + i + 1, "%2x", &c) == 1) {
			out[o++] = (char)c;
			i += 2;
		} else {
			return NULL;
		}
	}
	if (out)
		out[o] = '\0';
	return out;
}

char *setting_journal_line(TALLOC_CTX *mem_ctx, const struct setting *s)
{
	TALLOC_CTX *tmp = talloc_new(mem_ctx);
	char *line;

	if (s->kind == SETTING_MOUNT)
		line = talloc_asprintf(mem_ctx, "mount\t%s\t%s\t%s\t%s", escape(tmp, s->path),
				       escape(tmp, s->mount->vfs), escape(tmp, s->mount->super),
				       escape(tmp, s->mount->source));
	else
		line = talloc_asprintf(mem_ctx, "%s\t%s\t%s", kind_word[s->kind],
				       escape(tmp, s->path), escape(tmp, s->found));
	talloc_free(tmp);
	return line;
}

/* The tab-separated fields of line, unescaped, into f (at most max);
 * their number, or -1 when one is malformed. */
static int fields(TALLOC_CTX *mem_ctx, const char *line, char **f, int max)
{
	int n = 0;

	for (const char *p = line; n < max; n++) {
		size_t len = strcspn(p, "\t");
		if (!(f[n] = unescape_field(mem_ctx, p, len)))
			return -1;
		if (!p[len])
			return n + 1;
		p += len + 1;
	}
	return -1;	/* more than max */
}

struct setting *setting_from_journal_line(TALLOC_CTX *mem_ctx, const char *line, char **err)
{
	char *f[5];
	int n = fields(mem_ctx, line, f, 5);
	bool mount = n > 0 && strcmp(f[0], "mount") == 0;
	bool file = n > 0 && (strcmp(f[0], "sysctl") == 0 || strcmp(f[0], "sysfs") == 0);
	struct setting *s = NULL;

	if (!(mount ? n == 5 : file && n == 3) || f[1][0] != '/') {
		*err = talloc_strdup(mem_ctx, "not a setting's line");
		return NULL;
	}
	char *key = mount ? talloc_asprintf(mem_ctx, "mount:%s", f[1]) : f[1];
	if (!(s = setting_new(mem_ctx, key, err)))
		return NULL;
	if ((s->kind == SETTING_SYSCTL) != (strcmp(f[0], "sysctl") == 0) && file) {
		*err = talloc_asprintf(mem_ctx, "%s is not a %s", f[1], f[0]);
		talloc_free(s);
		return NULL;
	}
	/* where it writes is found again, never taken from the journal */
	if (!setting_find(s, err)) {
		talloc_free(s);
		return NULL;
	}
	if (mount) {
		s->mount->vfs = talloc_steal(s, f[2]);
		s->mount->super = talloc_steal(s, f[3]);
		s->found = mount_text(s, s->mount);
	} else {
		s->found = talloc_steal(s, f[2]);
	}
	return s;
}
