/*
 * modload.c - loading dbench's modules (modload.h): where they are
 * looked for, whether they may be trusted (who could have written them,
 * which build they are of) and the dlopen() of one.
 *
 * Knows nothing of backends or tracers.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <link.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "modload.h"
#include "selfdir.h"

#ifndef DBENCH_MODULE_REL
#define DBENCH_MODULE_REL "build/modules"
#endif
#ifndef MODLOAD_VERSION
#error "DBENCH_IFACE_HASH must be defined (the Makefile's hash of the headers)"
#endif

char *modload_dir(TALLOC_CTX *mem_ctx)
{
	/* a set-id process takes no directory from its caller (ld.so's
	 * secure mode does the same with LD_LIBRARY_PATH) */
	const char *env = secure_getenv("DBENCH_MODULE_DIR");

	if (env && *env)
		return talloc_strdup(mem_ctx, env);
	return selfdir_find(mem_ctx, DBENCH_MODULE_REL, "lib/dbench");
}

/* ---- who could have written it ---- */

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

#define MODLOAD_ONLY ": a module is loaded only from where no one but root and you can write"

/* Why another user could change what `path` (of status st) is, or NULL.
 * A directory that others may write but is sticky passes: they cannot
 * rename or remove what is not theirs, and what comes next on the path
 * is checked in its turn. */
static char *unsafe(TALLOC_CTX *mem_ctx, const char *path, const struct stat *st)
{
	const char *link = S_ISLNK(st->st_mode) ? "the symbolic link " : "";
	unsigned mode = st->st_mode & 07777;

	if (!trusted_uid(st->st_uid))
		return talloc_asprintf(mem_ctx, "%s%s is owned by %s, not by root or you"
				       MODLOAD_ONLY, link, path, id_name(mem_ctx, st->st_uid, false));
	if (S_ISLNK(st->st_mode) || (S_ISDIR(st->st_mode) && (mode & S_ISVTX)))
		return NULL;	/* a link's own mode means nothing */
	if (mode & S_IWOTH)
		return talloc_asprintf(mem_ctx, "%s is writable by anyone (mode %03o)" MODLOAD_ONLY,
				       path, mode);
	bool group = false;
	long writer = acl_writer(path, &group);
	if (writer >= 0)
		return talloc_asprintf(mem_ctx, "%s has an ACL that lets %s %s write it" MODLOAD_ONLY,
				       path, group ? "group" : "user",
				       id_name(mem_ctx, (unsigned)writer, group));
	if ((mode & S_IWGRP) && !group_private(st->st_gid))
		return talloc_asprintf(mem_ctx, "%s is writable by group %s, which has other"
				       " members (mode %03o)" MODLOAD_ONLY, path,
				       id_name(mem_ctx, st->st_gid, true), mode);
	return NULL;
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
		    const char **todo, unsigned *links)
{
	char target[PATH_MAX];
	char *why = unsafe(mem_ctx, at, st);

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

/*
 * `path` resolved as the kernel would, one component at a time: each
 * directory passed through, each symbolic link followed and the file it
 * ends at (a regular file) checked by unsafe().  The path it resolves
 * to, or NULL and *why.
 */
static char *trusted_path(TALLOC_CTX *mem_ctx, const char *path, char **why)
{
	char cwd[PATH_MAX];
	char *done = talloc_strdup(mem_ctx, "");	/* resolved so far; "" is / */
	const char *todo = path;
	unsigned links = 0;
	struct stat st;

	if (path[0] != '/')
		todo = talloc_asprintf(mem_ctx, "%s/%s", getcwd(cwd, sizeof(cwd)) ? cwd : ".", path);
	if (lstat("/", &st) == 0 && (*why = unsafe(mem_ctx, "/", &st)))
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
			*why = follow(mem_ctx, at, &st, &done, &todo, &links);
		else if (!S_ISDIR(st.st_mode) && !last)
			*why = talloc_asprintf(mem_ctx, "%s: %s", at, strerror(ENOTDIR));
		else if (last && !S_ISREG(st.st_mode))
			*why = talloc_asprintf(mem_ctx, "%s is not a regular file", at);
		else if ((*why = unsafe(mem_ctx, at, &st)) == NULL && !S_ISLNK(st.st_mode))
			done = at;
		if (*why)
			return NULL;
		if (last && S_ISREG(st.st_mode))
			return done;
	}
	*why = talloc_asprintf(mem_ctx, "%s is not a regular file", done[0] ? done : "/");
	return NULL;
}

/* ---- which build it is of ---- */

#if __SIZEOF_POINTER__ == 8
#define MODLOAD_ELFCLASS ELFCLASS64
#define MODLOAD_ST_TYPE(i) ELF64_ST_TYPE(i)
#else
#define MODLOAD_ELFCLASS ELFCLASS32
#define MODLOAD_ST_TYPE(i) ELF32_ST_TYPE(i)
#endif
#define MODLOAD_NOTE_MAX 65536	/* bytes of a PT_NOTE segment read at most */

/* The text of the dbench note among the notes p[0..n) (aligned to
 * `align`), its unprintable bytes as '?', on mem_ctx; NULL when there is
 * none. */
static char *note_text(TALLOC_CTX *mem_ctx, const unsigned char *p, size_t n, size_t align)
{
	size_t at = 0;

	align = align == 8 ? 8 : 4;
	while (n - at >= sizeof(ElfW(Nhdr))) {
		ElfW(Nhdr) h;
		memcpy(&h, p + at, sizeof(h));
		at += sizeof(h);
		size_t name = ((size_t)h.n_namesz + align - 1) / align * align;
		size_t desc = ((size_t)h.n_descsz + align - 1) / align * align;
		if (name > n - at || desc > n - at - name)
			return NULL;
		if (h.n_type == MODLOAD_NOTE_TYPE && h.n_namesz == sizeof(MODLOAD_NOTE_NAME) &&
		    !memcmp(p + at, MODLOAD_NOTE_NAME, sizeof(MODLOAD_NOTE_NAME))) {
			size_t len = strnlen((const char *)p + at + name, h.n_descsz);
			char *t = talloc_strndup(mem_ctx, (const char *)p + at + name,
						 len < 128 ? len : 128);
			for (char *c = t; c && *c; c++)
				if (*c < 0x20 || *c > 0x7e)
					*c = '?';
			return t;
		}
		at += name + desc;
	}
	return NULL;
}

/* The version (MODLOAD_VERSION's form) the module open on fd was built
 * for, on mem_ctx; NULL when it carries none, with *why set when it is
 * not even an ELF shared object of this machine's class. */
static char *module_version(TALLOC_CTX *mem_ctx, int fd, char **why)
{
	ElfW(Ehdr) eh;
	struct stat st;

	*why = NULL;
	if (fstat(fd, &st) != 0 || pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != MODLOAD_ELFCLASS ||
	    eh.e_type != ET_DYN || eh.e_phentsize != sizeof(ElfW(Phdr))) {
		*why = talloc_strdup(mem_ctx, "not an ELF shared object of this machine's");
		return NULL;
	}
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		ElfW(Phdr) ph;
		off_t at = (off_t)eh.e_phoff + (off_t)i * (off_t)sizeof(ph);
		/* a segment past the end would be mapped all the same, and
		 * its first read kill the process (SIGBUS) */
		if (pread(fd, &ph, sizeof(ph), at) != (ssize_t)sizeof(ph) ||
		    ph.p_offset > (uint64_t)st.st_size ||
		    ph.p_filesz > (uint64_t)st.st_size - ph.p_offset) {
			*why = talloc_strdup(mem_ctx, "a truncated ELF file");
			return NULL;
		}
		if (ph.p_type != PT_NOTE || ph.p_filesz > MODLOAD_NOTE_MAX)
			continue;
		unsigned char *buf = talloc_size(mem_ctx, ph.p_filesz + 1);
		if (!buf || pread(fd, buf, ph.p_filesz, (off_t)ph.p_offset) != (ssize_t)ph.p_filesz) {
			*why = talloc_strdup(mem_ctx, buf ? "a truncated ELF file" : "out of memory");
			return NULL;
		}
		char *v = note_text(mem_ctx, buf, ph.p_filesz, ph.p_align);
		if (v)
			return v;
	}
	return NULL;
}

/* Why the module at `path` (trusted already) is of no use to this
 * binary, or NULL: it is no ELF shared object, or carries another
 * version than this build's, or none. */
static char *other_build(TALLOC_CTX *mem_ctx, const char *path)
{
	char *why = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return talloc_strdup(mem_ctx, strerror(errno));
	char *v = module_version(mem_ctx, fd, &why);
	close(fd);
	if (why)
		return why;
	if (!v)
		return talloc_asprintf(mem_ctx, "no dbench module version in it (a module of an"
				       " older dbench, or none of dbench's); this dbench takes "
				       MODLOAD_VERSION);
	if (strcmp(v, MODLOAD_VERSION) != 0)
		return talloc_asprintf(mem_ctx, "a module of another build, %s; this dbench"
				       " takes " MODLOAD_VERSION " (rebuild or reinstall it)", v);
	return NULL;
}

/* ---- loading ---- */

/* Why `sym` (named `symbol`) is not a data object of at least `size`
 * bytes, or NULL.  (At least: a sanitizer may pad a global.) */
static char *wrong_symbol(TALLOC_CTX *mem_ctx, void *sym, const char *symbol, size_t size)
{
	Dl_info info;
	const ElfW(Sym) *s = NULL;

	if (!dladdr1(sym, &info, (void **)&s, RTLD_DL_SYMENT) || !s)
		return talloc_asprintf(mem_ctx, "%s: no symbol table entry", symbol);
	if (MODLOAD_ST_TYPE(s->st_info) != STT_OBJECT)
		return talloc_asprintf(mem_ctx, "%s is %s, not the data dbench takes", symbol,
				       MODLOAD_ST_TYPE(s->st_info) == STT_FUNC ? "a function"
									  : "no data object");
	if (s->st_size < size)
		return talloc_asprintf(mem_ctx, "%s is %zu bytes, where this dbench takes %zu",
				       symbol, (size_t)s->st_size, size);
	return NULL;
}

void *modload_symbol(TALLOC_CTX *mem_ctx, const char *name, const char *symbol, size_t size,
		     char **err)
{
	char *dir = modload_dir(mem_ctx);
	char *path = dir ? talloc_asprintf(mem_ctx, "%s/%s.so", dir, name) : NULL;
	char *why = NULL;

	if (!path) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		return NULL;
	}
	/* nothing of it runs (a constructor, a library it needs) before
	 * these two checks */
	char *real = trusted_path(mem_ctx, path, &why);
	if (!real || (why = other_build(mem_ctx, real))) {
		*err = talloc_asprintf(mem_ctx, "%s: %s", path, why);
		return NULL;
	}
	void *h = dlopen(real, RTLD_NOW | RTLD_LOCAL);
	void *sym = h ? dlsym(h, symbol) : NULL;
	if (!sym) {
		*err = talloc_asprintf(mem_ctx, "%s", dlerror());
		if (h)
			dlclose(h);
		return NULL;
	}
	if ((why = wrong_symbol(mem_ctx, sym, symbol, size))) {
		*err = talloc_asprintf(mem_ctx, "%s: %s", path, why);
		dlclose(h);
		return NULL;
	}
	return sym;
}
