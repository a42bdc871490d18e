/*
 * badopt.c - the words of a bad option (see badopt.h).
 */
#include "badopt.h"

const char *badopt_words(TALLOC_CTX *mem_ctx, poptContext pc, int argc, const char **argv)
{
	const char *what = poptBadOption(pc, POPT_BADOPTION_NOALIAS);

	for (int i = 1; what && what[0] != '-' && i < argc; i++) {
		if (argv[i] == what && argv[i - 1][0] == '-') {
			char *both = talloc_asprintf(mem_ctx, "%s %s", argv[i - 1], what);
			return both ? both : what;
		}
	}
	return what;
}
