/*
 * secret.h - what of the user's input may hold a password, and the mask
 * that hides it wherever that input is shown again: in every message, in
 * the command line a JSON document records, and in `ps`.
 *
 * A password may be:
 *   - what follows the first '%' in the value of a user option: one whose
 *     name holds "user" (--smb-user, and misspellings of it), an
 *     abbreviation of --smb-user down to --smb-u, or smbclient's -U;
 *   - the password of a URL's user:password@ (or user%password@), in any
 *     word or text: "//bob:Secret@host/share", "nfs://bob:Secret@host/x";
 *   - either of those in a command line held by one word, as dbench ab's
 *     --a='-D x --smb-user=bob%Secret' (each of its blank-separated words,
 *     a quoted part one word, is masked as a word of its own).
 * Each is replaced by SECRET_MASK, whatever its length.
 *
 * A credentials file's lines and the environment ($PASSWD) are never
 * echoed at all.  Below everything: knows nothing of options' meaning,
 * runs or backends.
 */
#ifndef DBENCH_SECRET_H
#define DBENCH_SECRET_H

#include <talloc.h>

#define SECRET_MASK "***"

/* `text` with every URL's password masked, on mem_ctx (NULL when out of
 * memory).  For a message that quotes a URL the user gave. */
char *secret_mask_url(TALLOC_CTX *mem_ctx, const char *text);

/*
 * Command-line word `word` as it may be shown, `prev` being the word
 * before it (NULL for the first): URLs' passwords masked, and the
 * password of a user option's value, whether joined ("--smb-user=U%P")
 * or the word after the option ("--smb-user" "U%P").  On mem_ctx (NULL
 * when out of memory); the word itself when nothing is masked.
 */
const char *secret_mask_word(TALLOC_CTX *mem_ctx, const char *word, const char *prev);

/*
 * Hide every password among the process's arguments from `ps` and
 * /proc/PID/cmdline, before anything parses them: the words are copied
 * (argv[i] then points at the copy, which holds the password for the
 * parser) and the process's own argument area is rewritten as
 * setproctitle(3) does, with the masked words joined by spaces, so that
 * no length shows; where the masks need more room than the area has,
 * the last words are left out of it.  Nothing changes when no word holds
 * a password.  Call it first thing in main.
 */
void secret_hide_argv(int argc, char **argv);

#endif
