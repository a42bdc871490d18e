/*
 * tune_mount.c - a mount's options read, changed and put back (see
 * tune_mount.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

#include "env.h"
#include "series/tune_mount.h"

/* ---- the options' words ---- */

#define ATIME_MASK (MS_NOATIME | MS_RELATIME | MS_STRICTATIME)

/* The VFS's words: what each sets and clears of the remount's flags, and
 * whether the mount shows it among its own options (else among the file
 * system's: sync, dirsync, lazytime). */
static const struct vfs_word {
	const char *word;
	unsigned long set, clear;
	bool own;
} vfs_words[] = {
	{ "ro", MS_RDONLY, 0, true },
	{ "rw", 0, MS_RDONLY, true },
	{ "noatime", MS_NOATIME, ATIME_MASK & ~MS_NOATIME, true },
	{ "relatime", MS_RELATIME, ATIME_MASK & ~MS_RELATIME, true },
	{ "strictatime", MS_STRICTATIME, ATIME_MASK & ~MS_STRICTATIME, true },
	{ "nodiratime", MS_NODIRATIME, 0, true },
	{ "diratime", 0, MS_NODIRATIME, true },
	{ "nosuid", MS_NOSUID, 0, true },
	{ "suid", 0, MS_NOSUID, true },
	{ "nodev", MS_NODEV, 0, true },
	{ "dev", 0, MS_NODEV, true },
	{ "noexec", MS_NOEXEC, 0, true },
	{ "exec", 0, MS_NOEXEC, true },
	{ "nosymfollow", MS_NOSYMFOLLOW, 0, true },
	{ "symfollow", 0, MS_NOSYMFOLLOW, true },
	{ "sync", MS_SYNCHRONOUS, 0, false },
	{ "async", 0, MS_SYNCHRONOUS, false },
	{ "dirsync", MS_DIRSYNC, 0, false },
	{ "lazytime", MS_LAZYTIME, 0, false },
	{ "nolazytime", 0, MS_LAZYTIME, false },
};
#define NVFS_WORDS (sizeof(vfs_words) / sizeof(vfs_words[0]))

/* The flags a remount gives, all of which it sets as given. */
#define FLAG_MASK (MS_RDONLY | ATIME_MASK | MS_NODIRATIME | MS_NOSUID | MS_NODEV | MS_NOEXEC | \
		   MS_NOSYMFOLLOW | MS_SYNCHRONOUS | MS_DIRSYNC | MS_LAZYTIME)

static const struct vfs_word *vfs_word(const char *w, size_t len)
{
	for (size_t i = 0; i < NVFS_WORDS; i++)
		if (strlen(vfs_words[i].word) == len && strncmp(vfs_words[i].word, w, len) == 0)
			return &vfs_words[i];
	return NULL;
}

/* Whether the word w[0..len) is among the comma-separated list. */
static bool listed(const char *list, const char *w, size_t len)
{
	for (const char *p = list; p && *p;) {
		size_t n = strcspn(p, ",");
		if (n == len && strncmp(p, w, len) == 0)
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

/* The flags that a mount's own and file-system options show. */
static unsigned long flags_shown(const char *vfs, const char *super)
{
	unsigned long flags = 0;

	for (size_t i = 0; i < NVFS_WORDS; i++)
		if (vfs_words[i].set && listed(vfs_words[i].own ? vfs : super, vfs_words[i].word,
					       strlen(vfs_words[i].word)))
			flags |= vfs_words[i].set;
	if (!(flags & (MS_NOATIME | MS_RELATIME)))
		flags |= MS_STRICTATIME;	/* the one atime a mount does not name */
	return flags;
}

/* The file system's own options of a list (neither the VFS's words nor
 * "mand"), comma-joined, on mem_ctx. */
static char *fs_options(TALLOC_CTX *mem_ctx, const char *list)
{
	char *out = talloc_strdup(mem_ctx, "");

	for (const char *p = list; out && *p;) {
		size_t n = strcspn(p, ",");
		if (n && !vfs_word(p, n) && !(n == 4 && strncmp(p, "mand", 4) == 0))
			out = talloc_asprintf_append(out, "%s%.*s", *out ? "," : "", (int)n, p);
		p += n + (p[n] == ',');
	}
	return out;
}

/* ---- /proc/self/mountinfo ---- */

/* A mountinfo line's mount point, own options, source and file system
 * options (env.h's parser: escapes decoded); false when the line is not
 * of that shape. */
static bool split_line(TALLOC_CTX *mem_ctx, const char *line, char **mp, struct mount_found *m)
{
	struct env_mount *e = env_mountinfo_parse_line(mem_ctx, line);

	if (!e)
		return false;
	*mp = e->mount_point;
	*m = (struct mount_found){ e->source, e->vfs_options, e->fs_options };
	return *mp && m->vfs && m->source && m->super;
}

bool mount_read(TALLOC_CTX *mem_ctx, const char *path, struct mount_found *m, char **err)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	bool found = false;

	if (!f) {
		*err = talloc_asprintf(mem_ctx, "cannot read /proc/self/mountinfo: %s",
				       strerror(errno));
		return false;
	}
	while (getline(&line, &cap, f) > 0) {
		TALLOC_CTX *tmp = talloc_new(mem_ctx);
		struct mount_found one = { 0 };
		char *mp;
		if (split_line(tmp, line, &mp, &one) && strcmp(mp, path) == 0) {
			talloc_free(m->source), talloc_free(m->vfs), talloc_free(m->super);
			*m = (struct mount_found){ talloc_steal(mem_ctx, one.source),
						   talloc_steal(mem_ctx, one.vfs),
						   talloc_steal(mem_ctx, one.super) };
			found = true;	/* the last one there is on top */
		}
		talloc_free(tmp);
	}
	free(line);
	fclose(f);
	if (!found)
		*err = talloc_asprintf(mem_ctx, "%s is not a mount point", path);
	return found;
}

char *mount_text(TALLOC_CTX *mem_ctx, const struct mount_found *m)
{
	TALLOC_CTX *tmp = talloc_new(mem_ctx);
	char *fs = fs_options(tmp, m->super);
	char *text = talloc_asprintf(mem_ctx, "%s%s%s", m->vfs, fs && *fs ? "," : "",
				     fs ? fs : "");

	talloc_free(tmp);
	return text;
}

/* ---- what a value asks ---- */

/* The opposite of a word by itself: "discard" <-> "nodiscard". */
static char *opposite(TALLOC_CTX *mem_ctx, const char *w, size_t len)
{
	if (len > 2 && strncmp(w, "no", 2) == 0)
		return talloc_strndup(mem_ctx, w + 2, len - 2);
	return talloc_asprintf(mem_ctx, "no%.*s", (int)len, w);
}

/* The word key=... of a list that has key (key[0..klen) with its '='),
 * or NULL. */
static const char *keyed(const char *list, const char *key, size_t klen)
{
	for (const char *p = list; p && *p;) {
		size_t n = strcspn(p, ",");
		if (n > klen && strncmp(p, key, klen) == 0)
			return p;
		p += n + (p[n] == ',');
	}
	return NULL;
}

bool mount_check_values(TALLOC_CTX *mem_ctx, const struct mount_found *m,
			const char *const *values, size_t n, char **err)
{
	for (size_t v = 0; v < n; v++) {
		for (const char *p = values[v]; *p;) {
			size_t len = strcspn(p, "+,");
			const char *eq = memchr(p, '=', len);
			if (len == 0) {
				*err = talloc_asprintf(mem_ctx, "'%s' has an empty option", values[v]);
				return false;
			}
			if (!vfs_word(p, len) && eq && !keyed(m->super, p, eq - p + 1)) {
				*err = talloc_asprintf(mem_ctx, "%.*s: the mount shows no %.*s as found"
						       " (%s), so it could not be put back: remount"
						       " it with the value it has first",
						       (int)len, p, (int)(eq - p + 1), p, m->super);
				return false;
			}
			p += len + (p[len] != '\0');
		}
	}
	return true;
}

/* ---- remounting ---- */

/* Remount path with flags and data, then read it back into *now. */
static bool remount(TALLOC_CTX *mem_ctx, const char *path, const struct mount_found *as_found,
		    unsigned long flags, const char *data, struct mount_found *now, char **err)
{
	if (mount(as_found->source, path, NULL, MS_REMOUNT | flags, data && *data ? data : NULL)) {
		*err = talloc_asprintf(mem_ctx, "the kernel refuses the remount%s%s: %s",
				       data && *data ? " with " : "", data ? data : "",
				       strerror(errno));
		return false;
	}
	*now = (struct mount_found){ 0 };
	return mount_read(mem_ctx, path, now, err);
}

/* What puts the file system's options shown now back as found: a word
 * set since put back by its opposite, key=value by the key's value as
 * found, a word gone shown again. */
static char *fs_undo(TALLOC_CTX *mem_ctx, const char *found, const char *now)
{
	char *data = talloc_strdup(mem_ctx, "");

	for (const char *p = now; data && *p;) {
		size_t n = strcspn(p, ",");
		const char *eq = memchr(p, '=', n);
		if (n && !vfs_word(p, n) && !listed(found, p, n)) {
			const char *was = eq ? keyed(found, p, eq - p + 1) : NULL;
			char *back = eq ? (was ? talloc_strndup(data, was, strcspn(was, ",")) : NULL)
					: opposite(data, p, n);
			if (back)
				data = talloc_asprintf_append(data, "%s%s", *data ? "," : "", back);
		}
		p += n + (p[n] == ',');
	}
	for (const char *p = found; data && *p;) {
		size_t n = strcspn(p, ",");
		if (n && !vfs_word(p, n) && !listed(now, p, n))
			data = talloc_asprintf_append(data, "%s%.*s", *data ? "," : "", (int)n, p);
		p += n + (p[n] == ',');
	}
	return data;
}

bool mount_put_back(TALLOC_CTX *mem_ctx, const char *path, const struct mount_found *m,
		    char **now_text, char **err)
{
	TALLOC_CTX *tmp = talloc_new(mem_ctx);
	struct mount_found now = { 0 };
	bool ok = mount_read(tmp, path, &now, err);

	if (ok && (strcmp(now.vfs, m->vfs) != 0 || strcmp(now.super, m->super) != 0)) {
		char *data = fs_undo(tmp, m->super, now.super);
		ok = remount(tmp, path, m, flags_shown(m->vfs, m->super), data, &now, err);
		if (ok && (strcmp(now.vfs, m->vfs) != 0 || strcmp(now.super, m->super) != 0)) {
			*err = talloc_asprintf(mem_ctx, "remounted, it shows %s - %s, not %s - %s as"
					       " found", now.vfs, now.super, m->vfs, m->super);
			ok = false;
		}
	}
	if (now.vfs)
		*now_text = mount_text(mem_ctx, &now);
	if (!ok)	/* what went wrong may be on tmp */
		*err = talloc_steal(mem_ctx, *err);
	talloc_free(tmp);
	return ok;
}

/* The flags and data of value over the mount as found, into *flags and
 * *data (on mem_ctx). */
static void value_asks(TALLOC_CTX *mem_ctx, const struct mount_found *m, const char *value,
		       unsigned long *flags, char **data)
{
	*flags = flags_shown(m->vfs, m->super);
	*data = talloc_strdup(mem_ctx, "");
	for (const char *p = value; *p && *data;) {
		size_t len = strcspn(p, "+,");
		const struct vfs_word *w = vfs_word(p, len);
		if (w)
			*flags = (*flags & ~w->clear) | w->set;
		else if (len)
			*data = talloc_asprintf_append(*data, "%s%.*s", **data ? "," : "",
						       (int)len, p);
		p += len + (p[len] != '\0');
	}
}

bool mount_apply(TALLOC_CTX *mem_ctx, const char *path, const struct mount_found *m,
		 const char *value, char **now_text, char **err)
{
	TALLOC_CTX *tmp = talloc_new(mem_ctx);
	struct mount_found now = { 0 };
	unsigned long flags;
	char *data, *back = NULL;

	value_asks(tmp, m, value, &flags, &data);
	/* from the mount as found, so that no option of another value stays */
	bool ok = mount_put_back(tmp, path, m, &back, err) &&
		  remount(tmp, path, m, flags, data, &now, err);
	if (ok) {
		*now_text = mount_text(mem_ctx, &now);
		unsigned long shown = flags_shown(now.vfs, now.super);
		ok = (shown & FLAG_MASK) == (flags & FLAG_MASK);
		for (const char *p = data; ok && *p;) {
			size_t n = strcspn(p, ",");
			ok = listed(now.super, p, n);
			p += n + (p[n] == ',');
		}
		if (!ok)
			*err = talloc_asprintf(mem_ctx, "remounted, the mount shows %s", *now_text);
	} else if (back) {
		*now_text = talloc_steal(mem_ctx, back);
	}
	if (!ok)	/* what went wrong may be on tmp */
		*err = talloc_steal(mem_ctx, *err);
	talloc_free(tmp);
	return ok;
}
