/*
 * trust.c - whether a file may be trusted: who could have written it
 * (see trust.h).
 */
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "trust.h"

/* Root and the user dbench runs as (effective: a set-uid dbench trusts
 * nothing of its caller's). */
static bool trusted_uid(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/* The name of user `id` (of group `id` when `group`), or "uid N" ("gid
 * N") when it has none, for messages. */
static char *id_name(TALLOC_CTX *mem_ctx, unsigned id, bool group)
{
	char buf[16384];
	struct passwd pw, *p = NULL;
	struct group gr, *g = NULL;

	if (group ? getgrgid_r(id, &gr, buf, sizeof(buf), &g) == 0 && g
		  : getpwuid_r(id, &pw, buf, sizeof(buf), &p) == 0 && p)
		return talloc_strdup(mem_ctx, group ? g->gr_name : p->pw_name);
	return talloc_asprintf(mem_ctx, "%s %u", group ? "gid" : "uid", id);
}

/* No user but trusted ones is in group gid: as a member, or with it as
 * the primary group.  A group too large to read counts as shared. */
static bool group_private(gid_t gid)
{
	char gbuf[16384], pbuf[4096];
	struct group gr, *g = NULL;
	struct passwd pw, *p = NULL;
	int e = getgrgid_r(gid, &gr, gbuf, sizeof(gbuf), &g);

	if (e != 0)
		return false;
	for (char **m = g ? g->gr_mem : NULL; m && *m; m++)
		if (getpwnam_r(*m, &pw, pbuf, sizeof(pbuf), &p) != 0 || !p ||
		    !trusted_uid(p->pw_uid))
			return false;
	bool private = true;
	setpwent();
	while (private && getpwent_r(&pw, pbuf, sizeof(pbuf), &p) == 0)
		private = p->pw_gid != gid || trusted_uid(p->pw_uid);
	endpwent();
	return private;
}

/* The POSIX access ACL as the kernel stores it (the xattr
 * system.posix_acl_access): a version, then entries of a tag, the
 * permissions and the user or group they name. */
#define ACL_XATTR "system.posix_acl_access"
#define ACL_TAG_USER 0x02
#define ACL_TAG_GROUP 0x08
#define ACL_TAG_MASK 0x10
#define ACL_PERM_WRITE 0x02
struct acl_entry {
	uint16_t tag, perm;
	uint32_t id;
};

/* The user (*group false) or group (*group true) other than the trusted
 * that the access ACL of `path` lets write it, through a named entry the
 * mask lets write through; -1 when there is none. */
static long acl_writer(const char *path, bool *group)
{
	unsigned char buf[4 + 64 * sizeof(struct acl_entry)];
	ssize_t n = lgetxattr(path, ACL_XATTR, buf, sizeof(buf));
	bool mask_w = true;
	long who = -1;

	if (n < 0 && errno == ERANGE)
		return (*group = false), 65534;	/* too many entries to read: shared */
	for (ssize_t at = 4; at + (ssize_t)sizeof(struct acl_entry) <= n;
	     at += sizeof(struct acl_entry)) {
		struct acl_entry e;
		memcpy(&e, buf + at, sizeof(e));
		if (e.tag == ACL_TAG_MASK)
			mask_w = e.perm & ACL_PERM_WRITE;
		else if (who < 0 && (e.perm & ACL_PERM_WRITE) &&
			 ((e.tag == ACL_TAG_USER && !trusted_uid(e.id)) ||
			  (e.tag == ACL_TAG_GROUP && !group_private(e.id)))) {
			who = e.id;
			*group = e.tag == ACL_TAG_GROUP;
		}
	}
	return mask_w ? who : -1;
}

/* Why another user could change what `path` (of status st) is, or NULL.
 * A directory that others may write but is sticky passes: they cannot
 * rename or remove what is not theirs, and what comes next on the path
 * is checked in its turn. */
static char *unsafe(TALLOC_CTX *mem_ctx, const char *path, const struct stat *st)
{
	const char *link = S_ISLNK(st->st_mode) ? "the symbolic link " : "";
	unsigned mode = st->st_mode & 07777;

	if (!trusted_uid(st->st_uid))
		return talloc_asprintf(mem_ctx, "%s%s is owned by %s, not by root or you",
				       link, path, id_name(mem_ctx, st->st_uid, false));
	if (S_ISLNK(st->st_mode) || (S_ISDIR(st->st_mode) && (mode & S_ISVTX)))
		return NULL;	/* a link's own mode means nothing */
	if (mode & S_IWOTH)
		return talloc_asprintf(mem_ctx, "%s is writable by anyone (mode %03o)",
				       path, mode);
	bool group = false;
	long writer = acl_writer(path, &group);
	if (writer >= 0)
		return talloc_asprintf(mem_ctx, "%s has an ACL that lets %s %s write it",
				       path, group ? "group" : "user",
				       id_name(mem_ctx, (unsigned)writer, group));
	if ((mode & S_IWGRP) && !group_private(st->st_gid))
		return talloc_asprintf(mem_ctx, "%s is writable by group %s, which has other"
				       " members (mode %03o)", path,
				       id_name(mem_ctx, st->st_gid, true), mode);
	return NULL;
}

/* unsafe(), noting in *others that another could write something. */
static char *unsafe_noted(TALLOC_CTX *mem_ctx, const char *path, const struct stat *st,
			  bool *others)
{
	char *why = unsafe(mem_ctx, path, st);

	*others = *others || why;
	return why;
}

/* The next component of *todo, which moves past it; NULL at the end. */
static char *next_component(TALLOC_CTX *mem_ctx, const char **todo)
{
	const char *p = *todo + strspn(*todo, "/");
	size_t n = strcspn(p, "/");

	*todo = p + n;
	return n ? talloc_strndup(mem_ctx, p, n) : NULL;
}

/* Follow the symbolic link `at` (whose owner is checked): what is left
 * of the path becomes its target then *todo; *done is emptied (the root)
 * when the target is absolute.  NULL, or why it cannot be followed. */
static char *follow(TALLOC_CTX *mem_ctx, const char *at, const struct stat *st, char **done,
		    const char **todo, unsigned *links, bool *others)
{
	char target[PATH_MAX];
	char *why = unsafe_noted(mem_ctx, at, st, others);

	if (why)
		return why;
	ssize_t n = readlink(at, target, sizeof(target) - 1);
	if (n < 0 || ++*links > 40)
		return talloc_asprintf(mem_ctx, "%s: %s", at, strerror(n < 0 ? errno : ELOOP));
	target[n] = '\0';
	if (target[0] == '/')
		**done = '\0';
	*todo = talloc_asprintf(mem_ctx, "%s/%s", target, *todo);
	return NULL;
}

char *trust_path(TALLOC_CTX *mem_ctx, const char *path, char **why, bool *others)
{
	char cwd[PATH_MAX];
	char *done = talloc_strdup(mem_ctx, "");	/* resolved so far; "" is / */
	const char *todo = path;
	unsigned links = 0;
	struct stat st;

	if (path[0] != '/')
		todo = talloc_asprintf(mem_ctx, "%s/%s", getcwd(cwd, sizeof(cwd)) ? cwd : ".", path);
	*others = false;
	if (lstat("/", &st) == 0 && (*why = unsafe_noted(mem_ctx, "/", &st, others)))
		return NULL;
	for (char *c; (c = next_component(mem_ctx, &todo));) {
		if (!strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {	/* done has no link in it */
			char *slash = strrchr(done, '/');
			if (slash)
				*slash = '\0';
			continue;
		}
		char *at = talloc_asprintf(mem_ctx, "%s/%s", done, c);
		bool last = todo[strspn(todo, "/")] == '\0';
		if (lstat(at, &st) != 0) {
			*why = last ? talloc_strdup(mem_ctx, strerror(errno))
				    : talloc_asprintf(mem_ctx, "%s: %s", at, strerror(errno));
			return NULL;
		}
		if (S_ISLNK(st.st_mode))
			*why = follow(mem_ctx, at, &st, &done, &todo, &links, others);
		else if (!S_ISDIR(st.st_mode) && !last)
			*why = talloc_asprintf(mem_ctx, "%s: %s", at, strerror(ENOTDIR));
		else if (last && !S_ISREG(st.st_mode))
			*why = talloc_asprintf(mem_ctx, "%s is not a regular file", at);
		else if ((*why = unsafe_noted(mem_ctx, at, &st, others)) == NULL &&
			 !S_ISLNK(st.st_mode))
			done = at;
		if (*why)
			return NULL;
		if (last && S_ISREG(st.st_mode))
			return done;
	}
	*why = talloc_asprintf(mem_ctx, "%s is not a regular file", done[0] ? done : "/");
	return NULL;
}
