/*
 * sockopt.h - the socket options of -T/--tcp-options, as dbench 4.0 reads
 * them: words separated by spaces, tabs or commas, each NAME or
 * NAME=VALUE, names case-insensitive (TCP_NODELAY, SO_KEEPALIVE,
 * SO_REUSEADDR, SO_BROADCAST, IPTOS_LOWDELAY, IPTOS_THROUGHPUT, SO_SNDBUF,
 * SO_RCVBUF, SO_SNDLOWAT, SO_RCVLOWAT, SO_SNDTIMEO, SO_RCVTIMEO).  A
 * yes/no option alone means on; NAME=0 turns it off.  SO_SNDTIMEO and
 * SO_RCVTIMEO take milliseconds (4.0 passed Linux an int there, which it
 * refused).  Where 4.0 warned
 * about an unknown name and went on, this refuses the whole list.
 *
 * Only sockets: nothing here knows of runs or loadfiles.
 */
#ifndef DBENCH_SOCKOPT_H
#define DBENCH_SOCKOPT_H

#include <talloc.h>

/* What dbench 4.0 sets when -T is not given. */
#define SOCKOPT_DEFAULT "TCP_NODELAY SO_REUSEADDR"

struct sockopt_set;	/* a parsed list, ready to apply to sockets */

/*
 * Parse `spec`.  On success a set allocated on mem_ctx (an empty spec
 * gives an empty set); on failure NULL and *err on mem_ctx, naming the
 * word: "socket option 'FOO' is not one of ...".
 */
struct sockopt_set *sockopt_parse(TALLOC_CTX *mem_ctx, const char *spec, char **err);

/* Set every option of the set on fd, in order; 0 or the positive errno of
 * the first that failed, whose name then goes to *failed. */
int sockopt_apply(const struct sockopt_set *set, int fd, const char **failed);

#endif
