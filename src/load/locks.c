/*
 * locks.c - the file locks of a recording as the kernel keeps them (see
 * locks.h): files by path, open file descriptions and their descriptors,
 * the locks held and the requests waiting.  Plain arrays scanned whole: a
 * recording holds a handful of locks at once.
 *
 * It knows nothing of streams, lines or the dialect's rows.
 */
#include <string.h>

#include "grow.h"
#include "load/locks.h"

struct desc {
	uint32_t file;
	uint32_t refs;		/* its descriptors, in every process */
};

struct waiter {
	struct lock_req r;
	uint32_t cookie;
	double key;
};

struct locks {
	uint32_t *file_of;	/* by path index; 0: not known yet */
	size_t npaths;
	uint32_t nfiles;	/* identities given, from 1 */
	struct desc *descs;
	size_t ndescs, descs_cap;
	struct lock_req *held;
	size_t nheld, held_cap;
	struct waiter *waiting;	/* by key, then by arrival */
	size_t nwaiting, waiting_cap;
};

/* The first room of each of its arrays (grow.h). */
#define LOCKS_FIRST 8

struct locks *locks_new(TALLOC_CTX *mem_ctx)
{
	return talloc_zero(mem_ctx, struct locks);
}

/* ---- files ---- */

static uint32_t *file_slot(struct locks *l, uint32_t path)
{
	if (path >= l->npaths) {
		size_t cap = l->npaths;
		if (!grow_array(l, (void **)&l->file_of, sizeof(uint32_t), &cap, (size_t)path + 1,
				LOCKS_FIRST))
			return NULL;
		l->npaths = cap;
	}
	return &l->file_of[path];
}

uint32_t locks_anonymous_file(struct locks *l)
{
	return ++l->nfiles;
}

uint32_t locks_file(struct locks *l, uint32_t path)
{
	uint32_t *f = file_slot(l, path);

	if (!f)
		return 0;
	if (!*f)
		*f = locks_anonymous_file(l);
	return *f;
}

void locks_unlinked(struct locks *l, uint32_t path)
{
	if (path < l->npaths)
		l->file_of[path] = 0;
}

bool locks_renamed(struct locks *l, uint32_t from, uint32_t to, bool exchange)
{
	uint32_t a = locks_file(l, from), b = locks_file(l, to);

	if (!a || !b)
		return false;
	l->file_of[to] = a;
	l->file_of[from] = exchange ? b : 0;
	return true;
}

bool locks_linked(struct locks *l, uint32_t from, uint32_t to)
{
	uint32_t a = locks_file(l, from);

	if (!a || !file_slot(l, to))
		return false;
	l->file_of[to] = a;
	return true;
}

/* ---- descriptions ---- */

bool locks_desc_open(struct locks *l, uint32_t desc, uint32_t file)
{
	if (!grow_array(l, (void **)&l->descs, sizeof(struct desc), &l->descs_cap, (size_t)desc + 1,
			LOCKS_FIRST))
		return false;
	if (desc >= l->ndescs) {
		memset(l->descs + l->ndescs, 0, ((size_t)desc + 1 - l->ndescs) * sizeof(struct desc));
		l->ndescs = (size_t)desc + 1;
	}
	l->descs[desc] = (struct desc){ .file = file, .refs = 1 };
	return true;
}

void locks_desc_ref(struct locks *l, uint32_t desc)
{
	l->descs[desc].refs++;
}

uint32_t locks_desc_file(const struct locks *l, uint32_t desc)
{
	return l->descs[desc].file;
}

/* Whether held lock h belongs to description `desc` (a flock or OFD lock). */
static bool of_desc(const struct lock_req *h, uint32_t desc)
{
	return h->kind != LOCK_KIND_POSIX && h->owner == desc;
}

/* Whether held lock h is a POSIX lock of process `proc`, on `file` unless
 * that is 0. */
static bool of_proc(const struct lock_req *h, uint32_t proc, uint32_t file)
{
	return h->kind == LOCK_KIND_POSIX && h->owner == proc && (!file || h->file == file);
}

int locks_flock_of(const struct locks *l, uint32_t desc)
{
	for (size_t i = 0; i < l->nheld; i++) {
		const struct lock_req *h = &l->held[i];
		if (h->kind == LOCK_KIND_FLOCK && h->owner == desc)
			return h->excl;
	}
	return -1;
}

bool locks_close_matters(const struct locks *l, uint32_t proc, uint32_t desc)
{
	uint32_t file = l->descs[desc].file;

	for (size_t i = 0; i < l->nheld; i++) {
		if (of_desc(&l->held[i], desc) || of_proc(&l->held[i], proc, file))
			return true;
	}
	return false;
}

/* Drop the held locks for which `which` is true of (a, b); whether any. */
static bool drop(struct locks *l, bool (*which)(const struct lock_req *, uint32_t, uint32_t),
		 uint32_t a, uint32_t b)
{
	bool any = false;

	for (size_t i = 0; i < l->nheld;) {
		if (which(&l->held[i], a, b)) {
			l->held[i] = l->held[--l->nheld];
			any = true;
		} else {
			i++;
		}
	}
	return any;
}

static bool desc_lock(const struct lock_req *h, uint32_t desc, uint32_t unused)
{
	(void)unused;
	return of_desc(h, desc);
}

static bool proc_lock(const struct lock_req *h, uint32_t proc, uint32_t file)
{
	return of_proc(h, proc, file);
}

void locks_close(struct locks *l, uint32_t proc, uint32_t desc)
{
	struct desc *o = &l->descs[desc];

	drop(l, proc_lock, proc, o->file);
	if (o->refs && --o->refs == 0)
		drop(l, desc_lock, desc, 0);
}

bool locks_proc_holds(const struct locks *l, uint32_t proc)
{
	for (size_t i = 0; i < l->nheld; i++) {
		if (of_proc(&l->held[i], proc, 0))
			return true;
	}
	return false;
}

void locks_exit(struct locks *l, uint32_t proc)
{
	drop(l, proc_lock, proc, 0);
}

/* ---- requests ---- */

static bool same_owner(const struct lock_req *a, const struct lock_req *b)
{
	return a->kind == b->kind && a->owner == b->owner;
}

static bool conflicts(const struct lock_req *h, const struct lock_req *r)
{
	bool hflock = h->kind == LOCK_KIND_FLOCK, rflock = r->kind == LOCK_KIND_FLOCK;

	return h->file == r->file && hflock == rflock && !same_owner(h, r) &&
	       h->lo < r->hi && r->lo < h->hi && (h->excl || r->excl);
}

bool locks_conflict(const struct locks *l, const struct lock_req *r)
{
	for (size_t i = 0; i < l->nheld; i++) {
		if (conflicts(&l->held[i], r))
			return true;
	}
	return false;
}

/* Take the range of r out of what r's owner holds on r's file (all of
 * its flock lock); whether it held anything there. */
static bool cut(struct locks *l, const struct lock_req *r, bool *oom)
{
	bool any = false;
	size_t n = l->nheld;

	for (size_t i = 0; i < n;) {
		struct lock_req *h = &l->held[i];
		if (!same_owner(h, r) || h->file != r->file || h->hi <= r->lo || r->hi <= h->lo) {
			i++;
			continue;
		}
		any = true;
		struct lock_req left = *h, right = *h;
		left.hi = r->lo;
		right.lo = r->hi;
		bool keep_left = left.lo < left.hi, keep_right = right.lo < right.hi;
		if (keep_left && keep_right) {
			if (!grow_array(l, (void **)&l->held, sizeof(*h), &l->held_cap, l->nheld + 1,
					LOCKS_FIRST)) {
				*oom = true;
				return any;
			}
			l->held[l->nheld++] = right;	/* past n: not looked at again */
		}
		if (keep_left || keep_right) {
			l->held[i++] = keep_left ? left : right;
			continue;
		}
		l->held[i] = l->held[--n];	/* the last unexamined one comes here */
		l->held[n] = l->held[--l->nheld];
	}
	return any;
}

bool locks_set(struct locks *l, const struct lock_req *r)
{
	bool oom = false;

	cut(l, r, &oom);
	if (oom || !grow_array(l, (void **)&l->held, sizeof(*r), &l->held_cap, l->nheld + 1,
			       LOCKS_FIRST))
		return false;
	l->held[l->nheld++] = *r;
	return true;
}

bool locks_unset(struct locks *l, const struct lock_req *r, bool *oom)
{
	return cut(l, r, oom);
}

bool locks_wait(struct locks *l, const struct lock_req *r, uint32_t cookie, double key)
{
	size_t i;

	if (!grow_array(l, (void **)&l->waiting, sizeof(struct waiter), &l->waiting_cap,
			l->nwaiting + 1, LOCKS_FIRST))
		return false;
	for (i = l->nwaiting; i > 0 && l->waiting[i - 1].key > key; i--)
		l->waiting[i] = l->waiting[i - 1];
	l->waiting[i] = (struct waiter){ *r, cookie, key };
	l->nwaiting++;
	return true;
}

size_t locks_waiting(const struct locks *l)
{
	return l->nwaiting;
}

/* Waiter i leaves the queue with its lock; its cookie. */
static uint32_t grant(struct locks *l, size_t i, bool *oom)
{
	struct waiter w = l->waiting[i];

	memmove(&l->waiting[i], &l->waiting[i + 1], (l->nwaiting - i - 1) * sizeof(w));
	l->nwaiting--;
	if (!locks_set(l, &w.r))
		*oom = true;
	return w.cookie;
}

bool locks_granted(struct locks *l, double max_key, uint32_t *cookie, bool *oom)
{
	for (size_t i = 0; i < l->nwaiting && l->waiting[i].key <= max_key; i++) {
		if (!locks_conflict(l, &l->waiting[i].r)) {
			*cookie = grant(l, i, oom);
			return !*oom;
		}
	}
	return false;
}

bool locks_force_next(struct locks *l, uint32_t *cookie, bool *oom)
{
	if (l->nwaiting == 0)
		return false;
	*cookie = grant(l, 0, oom);
	return !*oom;
}
