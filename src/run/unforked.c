/*
 * unforked.c - memory of the parent that the client processes do not
 * inherit (see unforked.h).
 */
#include <sys/mman.h>
#include <unistd.h>

#include "run/unforked.h"

struct unforked {
	void *addr;
	size_t len;
	pid_t owner;	/* the one process that has it */
};

static int unmap_unforked(struct unforked *u)
{
	if (getpid() == u->owner)
		munmap(u->addr, u->len);
	return 0;
}

void *unforked_zero(TALLOC_CTX *mem_ctx, size_t len)
{
	struct unforked *u = talloc(mem_ctx, struct unforked);

	len = len ? len : 1;
	void *p = u ? mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			   -1, 0) : MAP_FAILED;
	if (p == MAP_FAILED) {
		talloc_free(u);
		return NULL;
	}
	madvise(p, len, MADV_DONTFORK);
	*u = (struct unforked){ p, len, getpid() };
	talloc_set_destructor(u, unmap_unforked);
	return p;
}
