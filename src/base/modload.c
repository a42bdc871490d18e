/*
 * modload.c - loading dbench's modules (modload.h): where they are
 * looked for, whether they may be trusted (who could have written them:
 * trust.h; which build they are of) and the dlopen() of one.
 *
 * Knows nothing of backends or tracers.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "modload.h"
#include "selfdir.h"
#include "trust.h"

#define MODLOAD_ONLY ": a module is loaded only from where no one but root and you can write"

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
	bool others = false;
	char *real = trust_path(mem_ctx, path, &why, &others);
	if (!real || (why = other_build(mem_ctx, real))) {
		*err = talloc_asprintf(mem_ctx, "%s: %s%s", path, why, others ? MODLOAD_ONLY : "");
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
