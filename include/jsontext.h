/*
 * jsontext.h - the one rule for putting a name we did not choose (a path,
 * a mount source, a host name, a command line) into a JSON document.
 *
 * JSON strings are UTF-8, and file names need not be: jansson refuses a
 * string that is not valid UTF-8.  Such a name is written with each byte
 * above 0x7f as the four characters \xHH (upper-case hex), so that the
 * document stays valid and the name readable; valid UTF-8 is written as
 * it is.  Every module that writes JSON uses this, so that one path reads
 * the same wherever it appears.  Knows nothing of what the names are.
 */
#ifndef DBENCH_JSONTEXT_H
#define DBENCH_JSONTEXT_H

#include <jansson.h>

/* `s` as a new JSON string by the rule above; JSON null when s is NULL
 * (or memory runs out). */
json_t *jsontext(const char *s);

#endif
