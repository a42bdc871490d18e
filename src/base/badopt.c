/*
 * badopt.c - the words of a bad option (see badopt.h), their passwords
 * masked (secret.h).
 */
#include "badopt.h"
#include "secret.h"

const char *badopt_words(TALLOC_CTX *mem_ctx, poptContext pc, int argc, const char **argv)
{
	const char *what = poptBadOption(pc, POPT_BADOPTION_NOALIAS);
	int at = 0;

	if (!what)
		return "(unknown)";
	for (int i = 1; i < argc; i++)
		if (argv[i] == what)
			at = i;
	const char *prev = at > 0 ? argv[at - 1] : NULL;
	const char *shown = secret_mask_word(mem_ctx, what, prev);
	if (shown && what[0] != '-' && prev && prev[0] == '-') {
		const char *opt = secret_mask_word(mem_ctx, prev, at > 1 ? argv[at - 2] : NULL);
		shown = opt ? talloc_asprintf(mem_ctx, "%s %s", opt, shown) : NULL;
	}
	return shown ? shown : "(out of memory)";
}
