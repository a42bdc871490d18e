/*
 * sockio.h - what the sockio backend (tbench's, sockio.c) shows beyond
 * its vtable: the sizes of the messages an operation becomes, for tests.
 */
#ifndef DBENCH_SOCKIO_H
#define DBENCH_SOCKIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loadfile.h"

/*
 * The bytes on the wire of the request operation `op` becomes and of its
 * reply, as dbench 4.0's tbench sends them, for a client whose directory
 * name "./clients/clientN" is name_len long.  False for an operation 4.0
 * sends nothing for (Deltree).
 */
bool sockio_sizes(const struct op *op, size_t name_len, uint32_t *send, uint32_t *recv);

#endif
