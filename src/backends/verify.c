/*
 * verify.c - the --verify pattern and one client's record of what it
 * wrote where (see verify.h): file records with their extent lists, the
 * name table that finds them, the handles that hold them, the check of
 * a ReadX's bytes, and the glue every backend shares (verify_ntcreatex,
 * verify_after, and what the client module asks at the end of an
 * operation, a pass and the run).
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "grow.h"
#include "opclock.h"
#include "verify.h"
#include "loadfile.h"

#define NONE UINT32_MAX
#define GAMMA 0x9e3779b97f4a7c15ull	/* splitmix64's increment */

/* [start, end) of a file, written under the file's current key. */
struct extent {
	uint64_t start, end;
};

/* One file (an inode, not a name). */
struct file {
	uint64_t key;		/* the pattern of its current generation */
	const char *name;	/* the path it is known by, or NULL */
	uint64_t hash;		/* of name, for the table */
	struct extent *ext;	/* written ranges, sorted, disjoint, not touching */
	uint32_t n, cap;	/* extents used and allocated */
	uint32_t refs;		/* handles open on it */
	uint32_t next_free;	/* free list link while unused */
};

struct verify {
	unsigned client;
	uint64_t gen;		/* generations handed out so far */
	struct file *files;	/* records by index; handles keep indexes */
	uint32_t nfiles, cap;
	uint32_t free_head;	/* unused records, reused first */
	uint32_t *handle;	/* by handle slot: record index or NONE */
	unsigned nhandles;
	uint32_t *table;	/* names: linear probing over record indexes */
	uint32_t tsize, tcount;	/* tsize is a power of two */
	struct verify_tally tally;
	char detail[VERIFY_DETAIL_MAX];	/* the last mismatch ... */
	bool unasked;			/* ... found by the last check, not asked about yet */
};

/* ---- the pattern ---- */

/* splitmix64's output function: a bijection that spreads every bit. */
static inline uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* The base of 64-byte block b of the pattern: one splitmix64 output. */
static inline uint64_t block_base(uint64_t key, uint64_t b)
{
	return mix(key + (b + 1) * GAMMA);
}

/* Word j (0..7) of the block with that base, as the 8 bytes it is stored
 * as: the words of a block differ by multiples of GAMMA. */
static inline uint64_t block_word(uint64_t base, uint64_t j)
{
	return htole64(base ^ j * GAMMA);
}

static inline uint64_t word(uint64_t key, uint64_t w)
{
	return block_word(block_base(key, w / 8), w % 8);
}

uint64_t verify_key(unsigned client, uint64_t gen)
{
	return mix(mix((uint64_t)client * GAMMA) ^ gen);
}

/* Whole words w .. w+n-1 of the pattern into p: a mix per block, not per
 * word, wherever a whole block is wanted. */
static void put_words(uint64_t key, uint64_t w, unsigned char *p, size_t n)
{
	while (n > 0) {
		if (w % 8 == 0 && n >= 8) {
			uint64_t base = block_base(key, w / 8);
			for (unsigned j = 0; j < 8; j++) {
				uint64_t v = block_word(base, j);
				memcpy(p + 8 * j, &v, 8);
			}
			w += 8, p += 64, n -= 8;
		} else {
			uint64_t v = word(key, w);
			memcpy(p, &v, 8);
			w++, p += 8, n--;
		}
	}
}

void verify_pattern(uint64_t key, uint64_t off, void *buf, size_t len)
{
	unsigned char *p = buf;
	uint64_t w = off / 8, v;
	size_t skip = off % 8;

	if (skip && len) {
		size_t n = 8 - skip < len ? 8 - skip : len;
		v = word(key, w++);
		memcpy(p, (unsigned char *)&v + skip, n);
		p += n;
		len -= n;
	}
	put_words(key, w, p, len / 8);
	if (len % 8) {
		v = word(key, w + len / 8);
		memcpy(p + len / 8 * 8, &v, len % 8);
	}
}

/* Index of the first byte of buf[0..len) that differs from the pattern
 * at off, or len when none does.  Whole blocks (and words, around them)
 * are compared with one branch each; where one differs, and in a partial
 * word, byte by byte. */
static size_t first_difference(uint64_t key, uint64_t off, const unsigned char *buf,
			       size_t len)
{
	unsigned char want[64];
	size_t i = 0, n;

	if (off % 8) {
		n = 8 - off % 8 < len ? 8 - off % 8 : len;
		verify_pattern(key, off, want, n);
		for (; i < n; i++)
			if (buf[i] != want[i])
				return i;
	}
	for (uint64_t w = (off + i) / 8; len - i >= 8; i += 8 * n, w += n) {
		uint64_t base = block_base(key, w / 8), diff = 0;
		n = w % 8 == 0 && len - i >= 64 ? 8 : 1;
		for (size_t j = 0; j < n; j++) {
			uint64_t got;
			memcpy(&got, buf + i + 8 * j, 8);
			diff |= got ^ block_word(base, w % 8 + j);
		}
		if (diff)
			break;
	}
	n = len - i < 64 ? len - i : 64;	/* the words that differ, or the tail */
	verify_pattern(key, off + i, want, n);
	for (size_t j = 0; j < n; j++)
		if (buf[i + j] != want[j])
			return i + j;
	return len;
}

/* ---- the state ---- */

static uint32_t pow2_at_least(size_t n)
{
	uint32_t p = 64;
	while (p < n && p < (UINT32_MAX >> 1) + 1)
		p *= 2;
	return p;
}

struct verify *verify_new(TALLOC_CTX *mem_ctx, unsigned client, unsigned nhandles,
			  size_t npaths)
{
	struct verify *v = talloc_zero(mem_ctx, struct verify);

	if (!v)
		return NULL;
	v->client = client;
	v->free_head = NONE;
	v->nhandles = nhandles;
	v->handle = talloc_array(v, uint32_t, nhandles ? nhandles : 1);
	v->tsize = pow2_at_least(2 * npaths + 2);
	v->table = talloc_array(v, uint32_t, v->tsize);
	if (!v->handle || !v->table) {
		talloc_free(v);
		return NULL;
	}
	for (unsigned i = 0; i < nhandles; i++)
		v->handle[i] = NONE;
	memset(v->table, 0xff, sizeof(uint32_t) * v->tsize);
	return v;
}

/* ---- file records ---- */

/* Room for one more element in a talloc array of `size`-byte elements,
 * *n used of *cap (grow.h; `first` when it is empty).  The counts are
 * kept in 32 bits, which keep a file's record small.  False when out of
 * memory or past 2^32 - 1 elements. */
static bool grow(struct verify *v, void **array, uint32_t n, uint32_t *cap, size_t size,
		 uint32_t first)
{
	size_t room = *cap;

	if (n == UINT32_MAX || !grow_array(v, array, size, &room, (size_t)n + 1, first))
		return false;
	*cap = room > UINT32_MAX ? UINT32_MAX : (uint32_t)room;
	return true;
}

static void new_generation(struct verify *v, struct file *f)
{
	f->key = verify_key(v->client, ++v->gen);
	f->n = 0;
}

/* A record with no name, no handle and nothing written; NONE when out of
 * memory. */
static uint32_t file_new(struct verify *v)
{
	uint32_t i = v->free_head;

	if (i != NONE) {
		v->free_head = v->files[i].next_free;
	} else {
		if (v->nfiles == v->cap &&
		    !grow(v, (void **)&v->files, v->nfiles, &v->cap, sizeof(struct file), 64))
			return NONE;
		i = v->nfiles++;
		v->files[i] = (struct file){ .ext = NULL };
	}
	struct file *f = &v->files[i];
	f->name = NULL;
	f->refs = 0;
	new_generation(v, f);
	return i;
}

/* Return a record that has neither a name nor a handle to the free list. */
static void file_release(struct verify *v, uint32_t i)
{
	struct file *f = &v->files[i];

	if (f->name || f->refs)
		return;
	f->n = 0;
	f->next_free = v->free_head;
	v->free_head = i;
}

/* ---- the name table ---- */

static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

/* The table slot holding `name`, or the empty slot where it would go. */
static uint32_t table_slot(const struct verify *v, const char *name, uint64_t h)
{
	uint32_t mask = v->tsize - 1, s = h & mask;

	while (v->table[s] != NONE && strcmp(v->files[v->table[s]].name, name) != 0)
		s = (s + 1) & mask;
	return s;
}

static uint32_t lookup(const struct verify *v, const char *name)
{
	return v->table[table_slot(v, name, name_hash(name))];
}

static bool table_grow(struct verify *v)
{
	uint32_t size = v->tsize * 2;
	uint32_t *t = talloc_array(v, uint32_t, size);

	if (!t)
		return false;
	memset(t, 0xff, sizeof(uint32_t) * size);
	for (uint32_t s = 0; s < v->tsize; s++) {
		uint32_t i = v->table[s];
		if (i == NONE)
			continue;
		uint32_t j = v->files[i].hash & (size - 1);
		while (t[j] != NONE)
			j = (j + 1) & (size - 1);
		t[j] = i;
	}
	talloc_free(v->table);
	v->table = t;
	v->tsize = size;
	return true;
}

/* Give record i (which has no name) the name `name`, which no record has.
 * False when out of memory. */
static bool bind(struct verify *v, uint32_t i, const char *name)
{
	if ((v->tcount + 1) * 2 > v->tsize && !table_grow(v))
		return false;
	struct file *f = &v->files[i];
	f->name = name;
	f->hash = name_hash(name);
	v->table[table_slot(v, name, f->hash)] = i;
	v->tcount++;
	return true;
}

/* Take record i's name out of the table, closing the gap in its probe
 * run so that no tombstones are needed. */
static void table_remove(struct verify *v, uint32_t i)
{
	struct file *f = &v->files[i];
	uint32_t mask = v->tsize - 1;
	uint32_t hole = table_slot(v, f->name, f->hash);

	v->table[hole] = NONE;
	for (uint32_t s = (hole + 1) & mask; v->table[s] != NONE; s = (s + 1) & mask) {
		uint32_t home = v->files[v->table[s]].hash & mask;
		/* An entry moves back into the hole unless its home lies
		 * cyclically in (hole, s]: then the hole is not on its run. */
		bool stays = hole <= s ? (hole < home && home <= s) : (hole < home || home <= s);
		if (stays)
			continue;
		v->table[hole] = v->table[s];
		v->table[s] = NONE;
		hole = s;
	}
	v->tcount--;
	f->name = NULL;
}

/* Record i loses its name, and is released if no handle holds it. */
static void unbind(struct verify *v, uint32_t i)
{
	table_remove(v, i);
	file_release(v, i);
}

/* ---- namespace events ---- */

static void hold(struct verify *v, unsigned handle, uint32_t i)
{
	if (handle >= v->nhandles)
		return;
	verify_close(v, handle);
	v->handle[handle] = i;
	v->files[i].refs++;
}

void verify_open(struct verify *v, unsigned handle, const char *path, bool truncated)
{
	uint32_t i = lookup(v, path);

	if (i == NONE) {
		i = file_new(v);
		if (i == NONE)
			return;		/* out of memory: this file goes unchecked */
		if (!bind(v, i, path)) {
			file_release(v, i);
			return;
		}
	} else if (truncated) {
		new_generation(v, &v->files[i]);
	}
	hold(v, handle, i);
}

void verify_close(struct verify *v, unsigned handle)
{
	if (handle >= v->nhandles || v->handle[handle] == NONE)
		return;
	uint32_t i = v->handle[handle];
	v->handle[handle] = NONE;
	v->files[i].refs--;
	file_release(v, i);
}

void verify_unlink(struct verify *v, const char *path)
{
	uint32_t i = lookup(v, path);

	if (i != NONE)
		unbind(v, i);
}

void verify_forget_tree(struct verify *v, const char *path)
{
	for (uint32_t i = 0; i < v->nfiles; i++) {
		const char *n = v->files[i].name;
		if (n && loadfile_path_within(n, path))
			unbind(v, i);
	}
}

void verify_rename(struct verify *v, const char *from, const char *to, bool is_dir)
{
	if (is_dir) {
		verify_forget_tree(v, from);
		verify_forget_tree(v, to);
		return;
	}
	uint32_t src = lookup(v, from), dst = lookup(v, to);

	if (src == dst)
		return;		/* the same file, or two unknown names */
	if (dst != NONE)
		unbind(v, dst);
	if (src == NONE)
		return;
	table_remove(v, src);
	if (!bind(v, src, to))
		file_release(v, src);	/* out of memory: the file goes unchecked */
}

/* ---- extents ---- */

/* Index of the first extent that ends after `off` (or at it, if touching). */
static uint32_t first_extent(const struct file *f, uint64_t off, bool touching)
{
	uint32_t lo = 0, hi = f->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (f->ext[mid].end < off || (!touching && f->ext[mid].end == off))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Add [s, e) to f's extents, merging those it overlaps or touches.
 * False when out of memory. */
static bool add_extent(struct verify *v, struct file *f, uint64_t s, uint64_t e)
{
	uint32_t i = first_extent(f, s, true), j = i;

	while (j < f->n && f->ext[j].start <= e)
		j++;
	if (i < j) {
		f->ext[i].start = s < f->ext[i].start ? s : f->ext[i].start;
		f->ext[i].end = e > f->ext[j - 1].end ? e : f->ext[j - 1].end;
		memmove(&f->ext[i + 1], &f->ext[j], sizeof(struct extent) * (f->n - j));
		f->n -= j - i - 1;
		return true;
	}
	if (f->n == f->cap && !grow(v, (void **)&f->ext, f->n, &f->cap, sizeof(struct extent), 4))
		return false;
	memmove(&f->ext[i + 1], &f->ext[i], sizeof(struct extent) * (f->n - i));
	f->ext[i] = (struct extent){ s, e };
	f->n++;
	return true;
}

/* ---- data ---- */

static struct file *handle_file(struct verify *v, unsigned handle)
{
	if (handle >= v->nhandles || v->handle[handle] == NONE)
		return NULL;
	return &v->files[v->handle[handle]];
}

void verify_fill(struct verify *v, unsigned handle, uint64_t off, void *buf, size_t len)
{
	struct file *f = handle_file(v, handle);
	uint64_t t0 = monotonic_ns();

	if (f)
		verify_pattern(f->key, off, buf, len);
	else
		memset(buf, 0, len);	/* not a file we track: the write fails anyway */
	v->tally.ns += monotonic_ns() - t0;
}

void verify_wrote(struct verify *v, unsigned handle, uint64_t off, size_t len)
{
	struct file *f = handle_file(v, handle);

	if (!f || len == 0)
		return;
	if (!add_extent(v, f, off, off + len)) {
		/* Out of memory: forget what this file holds rather than
		 * check it against a record that is now incomplete. */
		new_generation(v, f);
	}
}

/* The detail of a mismatch at `off`: up to VERIFY_SHOW_BYTES bytes of
 * each side, as many as `avail` (the bytes known from there on). */
static void describe(struct verify *v, uint64_t key, uint64_t off, const unsigned char *got,
		     size_t avail)
{
	unsigned char want[VERIFY_SHOW_BYTES];
	char ws[3 * VERIFY_SHOW_BYTES + 1], gs[3 * VERIFY_SHOW_BYTES + 1];
	size_t n = avail < VERIFY_SHOW_BYTES ? avail : VERIFY_SHOW_BYTES;

	verify_pattern(key, off, want, n);
	for (size_t i = 0; i < n; i++) {
		snprintf(ws + 3 * i, 4, "%02x%s", want[i], i + 1 < n ? " " : "");
		snprintf(gs + 3 * i, 4, "%02x%s", got[i], i + 1 < n ? " " : "");
	}
	snprintf(v->detail, sizeof(v->detail),
		 "data mismatch at offset %" PRIu64 ": expected %s found %s", off, ws, gs);
}

int verify_check(struct verify *v, unsigned handle, uint64_t off, const void *buf,
		 size_t len)
{
	struct file *f = handle_file(v, handle);
	const unsigned char *p = buf;
	uint64_t end = off + len, checked = 0;
	int err = 0;

	v->unasked = false;
	if (!f || f->n == 0 || len == 0)
		return 0;
	uint64_t t0 = monotonic_ns();
	for (uint32_t i = first_extent(f, off, false); i < f->n && f->ext[i].start < end; i++) {
		uint64_t s = f->ext[i].start > off ? f->ext[i].start : off;
		uint64_t e = f->ext[i].end < end ? f->ext[i].end : end;
		size_t d = first_difference(f->key, s, p + (s - off), e - s);
		checked += d;
		if (d < e - s) {
			checked++;
			describe(v, f->key, s + d, p + (s - off) + d, e - s - d);
			err = EILSEQ;
			break;
		}
	}
	v->tally.ns += monotonic_ns() - t0;
	v->tally.bytes_checked += checked;
	v->tally.reads_checked += checked > 0;
	v->tally.mismatches += err != 0;
	v->unasked = err != 0;
	return err;
}

/* ---- the glue ---- */

void verify_ntcreatex(struct verify *v, unsigned handle, const char *path,
		      enum verify_opened what, bool truncated)
{
	if (!v)
		return;
	verify_close(v, handle);
	if (what == VERIFY_OPEN_FAILED)
		verify_unlink(v, path);
	else if (what == VERIFY_OPENED_FILE)
		verify_open(v, handle, path, truncated);
}

void verify_after(struct verify *v, const struct op *op, int err)
{
	if (!v)
		return;
	switch (op->type) {	/* dbench 4.0's operations and 5.0's SMB dialect's */
	case OP_CLOSE:
	case OP_SMB_CLOSE:
		verify_close(v, op->handle);
		break;
	case OP_UNLINK:
	case OP_SMB_UNLINK:
		if (err == 0)
			verify_unlink(v, op->path);
		break;
	case OP_RMDIR:
	case OP_SMB_RMDIR:
		if (err == 0)
			verify_forget_tree(v, op->path);
		break;
	case OP_DELTREE:
	case OP_SMB_DELTREE:
		verify_forget_tree(v, op->path);
		break;
	default:
		break;
	}
}

const char *verify_failure_detail(struct verify *v)
{
	if (!v || !v->unasked)
		return NULL;
	v->unasked = false;
	return v->detail;
}

struct verify_tally verify_drain(struct verify *v)
{
	if (!v)
		return (struct verify_tally){ 0 };
	struct verify_tally t = v->tally;
	v->tally = (struct verify_tally){ 0 };
	return t;
}

void verify_pass_end(struct verify *v)
{
	if (!v)
		return;
	for (unsigned h = 0; h < v->nhandles; h++)
		verify_close(v, h);
}

void verify_cleanup(struct verify *v)
{
	verify_pass_end(v);
	if (v)
		verify_forget_tree(v, "");
}
