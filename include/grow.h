/*
 * grow.h - the one way an array that is appended to grows: a talloc
 * array whose capacity doubles when it is full, so that n appends cost
 * O(n) copies in all.
 *
 * Every module that keeps a list it appends to (a recording's rows, a
 * compiler's streams and waits, a hash map's entries) calls this rather
 * than write its own "double the capacity" step: the start, the
 * doubling, the overflow check and the error path are here once.  New
 * elements are zeroed, so that a caller that grows to an index (a table
 * by descriptor) finds the slots between empty.
 *
 * Below everything: knows nothing of what the elements are.
 */
#ifndef DBENCH_GROW_H
#define DBENCH_GROW_H

#include <stdbool.h>
#include <stddef.h>

#include <talloc.h>

/*
 * Make *array, a talloc array (on ctx when it is new) of `size`-byte elements with room
 * for *cap of them, hold at least `need`: its capacity `first` when it
 * has none, doubled until it holds need, the elements beyond the old
 * capacity zeroed.  Nothing is done when it holds need already.  False
 * when memory runs out or the size would overflow, with *array and *cap
 * as they were.
 */
bool grow_array(const void *ctx, void **array, size_t size, size_t *cap, size_t need,
		size_t first);

/*
 * grow_array() for an array whose elements are each set whole before
 * anything reads them (appended one at a time): the new room is left as
 * it comes, so that none of its pages is touched before it is used.  A
 * recording's rows and the compiler's operations grow to millions: the
 * zeroing of their doubled room, and the page faults it made on room
 * never used, were a tenth of the recorder's CPU.
 */
bool grow_array_unset(const void *ctx, void **array, size_t size, size_t *cap, size_t need,
		      size_t first);

#endif
