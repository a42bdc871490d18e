/*
 * cluster_alone.c - the transport of a build without MPI (see
 * cluster_transport.h): there is none, so every process is a cluster of
 * one, and cluster.c refuses one that mpirun started.
 */
#include <stddef.h>

#include "run/cluster_transport.h"

const struct cluster_transport *const cluster_transport = NULL;
