/*
 * hist_merge.c - a test tool: merges raw histogram dumps (the files a run
 * writes under DBENCH_TEST_HIST_DIR, each struct hist[OP_COUNT], one per
 * rank) and prints, per operation with a count, "NAME COUNT P50 P90 P99
 * P999 MAX" in ms as dbench's JSON has them (null for a percentile of
 * too few values), so that a test can compare the two.  A dump whose
 * count is not the sum of its buckets is refused.
 */
#include <stdio.h>
#include <stdlib.h>

#include "hist.h"
#include "ops.h"

/* " MS", or " null" from fewer values than q needs, as the JSON has it. */
static void print_quantile(const struct hist *h, double q)
{
	if (h->count < hist_quantile_min_count(q))
		printf(" null");
	else
		printf(" %.17g", hist_quantile(h, q) / 1e6);
}

int main(int argc, char **argv)
{
	static struct hist all[OP_COUNT], one[OP_COUNT];

	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "r");
		if (!f || fread(one, sizeof(struct hist), OP_COUNT, f) != OP_COUNT) {
			fprintf(stderr, "hist_merge: cannot read '%s'\n", argv[i]);
			return 1;
		}
		fclose(f);
		for (int t = 0; t < OP_COUNT; t++) {
			uint64_t n = 0;
			for (unsigned b = 0; b < HIST_BUCKETS; b++)
				n += one[t].bucket[b];
			if (n != one[t].count) {
				fprintf(stderr, "hist_merge: '%s': %s counts %llu but its buckets"
					" hold %llu\n", argv[i], op_table[t].name,
					(unsigned long long)one[t].count, (unsigned long long)n);
				return 1;
			}
			hist_merge(&all[t], &one[t]);
		}
	}
	for (int t = 0; t < OP_COUNT; t++) {
		const struct hist *h = &all[t];
		if (h->count == 0)
			continue;
		printf("%s %llu", op_table[t].name, (unsigned long long)h->count);
		print_quantile(h, 0.50);
		print_quantile(h, 0.90);
		print_quantile(h, 0.99);
		print_quantile(h, 0.999);
		printf(" %.17g\n", h->max_ns / 1e6);
	}
	return 0;
}
