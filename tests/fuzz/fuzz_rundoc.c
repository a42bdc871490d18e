/*
 * fuzz_rundoc.c - libFuzzer target for the reader of run documents
 * (src/analysis/rundoc.c), which dbench compare and the sweep summary
 * feed whatever JSON a user names: a run's, a series', a dbench ab
 * document, or one that jq rewrote.
 *
 * An input that parses as JSON is read as a document.  A refused one
 * must come back with a message and nothing else; an accepted one must
 * hold what compare relies on: groups by ascending client count, none
 * empty, each run's throughput and object there.  Then every reader runs
 * over it: the pooled p99, the histograms of each operation type, the
 * replayed share, the disks, each member's text, the two sides of an ab
 * document.  A violation calls abort(), which the fuzzer reports with
 * the input; the tree is freed after each input, so LeakSanitizer sees
 * anything the reader leaks.  Built by tests/fuzz/run.sh.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <talloc.h>

#include "rundoc.h"
#include "hist.h"
#include "ops.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void violated(const char *what)
{
	fprintf(stderr, "invariant violated: %s\n", what);
	abort();
}

#define CHECK(cond) do { if (!(cond)) violated(#cond); } while (0)

/* Every reader of runs, over one group's. */
static void read_group(TALLOC_CTX *ctx, const struct rundoc_group *g, struct hist *h)
{
	size_t ndisks;

	CHECK(g->nruns > 0 && g->runs && g->mb_s && g->index);
	for (size_t i = 0; i < g->nruns; i++) {
		CHECK(g->runs[i] != NULL);
		CHECK(rundoc_nprocs(g->runs[i]) == g->nprocs);
		(void)rundoc_worst_p99(g->runs[i]);
		(void)rundoc_replayed(g->runs[i]);
		(void)rundoc_value_text(ctx, dockey_get(g->runs[i], DK_CONFIG_LOADFILE));
	}
	(void)rundoc_pooled_worst_p99(g->runs, g->nruns);
	(void)rundoc_replayed_median(g->runs, g->nruns);
	for (int op = 0; op < OP_COUNT; op++) {
		if (!op_table[op].name)
			continue;
		(void)rundoc_hists_whole(g->runs, g->nruns, op_table[op].name);
		(void)rundoc_add_hist(h, g->runs[0], op_table[op].name);
	}
	struct rundoc_disk *d = rundoc_disks(ctx, g->runs, g->nruns, &ndisks);
	CHECK(d != NULL || ndisks == 0);
	for (size_t i = 0; i < ndisks; i++)
		CHECK(d[i].device && rundoc_disk_named(d, ndisks, d[i].device) == &d[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	TALLOC_CTX *ctx = talloc_new(NULL);
	json_t *doc = json_loadb((const char *)data, size, 0, NULL);
	char *err = NULL;
	struct hist *h = talloc_zero(ctx, struct hist);

	if (!doc || !h) {
		json_decref(doc);
		talloc_free(ctx);
		return 0;
	}
	struct rundoc *set = rundoc_from_json(ctx, "fuzz.json", doc, &err);
	CHECK(set ? err == NULL : err != NULL);
	for (size_t i = 0; set && i < set->ngroups; i++) {
		CHECK(i == 0 || set->groups[i - 1].nprocs < set->groups[i].nprocs);
		CHECK(rundoc_group_of(set, set->groups[i].nprocs) == &set->groups[i]);
		read_group(ctx, &set->groups[i], h);
	}
	struct rundoc *a, *b;
	if (set && set->ab && rundoc_ab_sides(ctx, set, &a, &b, &err))
		CHECK(a && b && a->ngroups > 0 && b->ngroups > 0);
	talloc_free(ctx);	/* set's destructor releases doc */
	return 0;
}
