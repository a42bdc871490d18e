/*
 * twothreads.c - a program of the test suite's own for `dbench record`:
 * two threads share one file through one descriptor table.
 *
 *   twothreads FILE ROUNDS
 *
 * The main thread creates FILE; two threads each write their own half
 * of it ROUNDS times (pwrite at their own offsets), read it back, and
 * one of them dup()s the shared descriptor and closes the copy; then the
 * main thread fsyncs, stats and closes the file and renames it to
 * FILE.done.  Exit 0, or 1 with a message when a call fails.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HALF 8192

static int fd;
static int rounds;

static void *worker(void *arg)
{
	long id = (long)arg;
	char buf[HALF];

	memset(buf, 'a' + (int)id, sizeof(buf));
	for (int i = 0; i < rounds; i++) {
		if (pwrite(fd, buf, sizeof(buf), id * HALF) != (ssize_t)sizeof(buf))
			return (void *)1;
		if (pread(fd, buf, sizeof(buf), id * HALF) != (ssize_t)sizeof(buf))
			return (void *)1;
	}
	if (id == 1) {
		int copy = dup(fd);
		if (copy < 0 || close(copy) != 0)
			return (void *)1;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: twothreads FILE ROUNDS\n");
		return 2;
	}
	rounds = atoi(argv[2]);
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	pthread_t t[2];
	void *rc[2];
	for (long i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i) != 0)
			return 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], &rc[i]);
	struct stat st;
	char done[4096];
	snprintf(done, sizeof(done), "%s.done", argv[1]);
	if (rc[0] || rc[1] || fsync(fd) != 0 || fstat(fd, &st) != 0 || st.st_size != 2 * HALF ||
	    close(fd) != 0 || rename(argv[1], done) != 0) {
		fprintf(stderr, "twothreads: a call failed\n");
		return 1;
	}
	return 0;
}
