/*
 * floor.c - how much user CPU time this machine charges for work that is
 * not user-space work at all, so that the user CPU per operation of a
 * load generator can be read against it.
 *
 * With tick-based CPU accounting, a timer tick that arrives while the
 * kernel runs with interrupts off is taken on the way back to user space
 * and charged as user time.  A loop of system calls that do nothing
 * (getppid) shows that charge per call; a loop of vDSO clock reads shows
 * the cost of the two timestamps every timed operation needs, and a loop
 * of TSC reads (the rdtsc and rdtscp that open and close an operation
 * where ours times with the TSC) the cost of those.
 *
 *     cc -O2 -o floor bench/floor.c && ./floor
 *     syscall 0.034 clock 0.017 tsc 0.007	(user microseconds per call)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

static double user_us(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec * 1e6 + ru.ru_utime.tv_usec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 5000000;
	struct timespec ts;
	unsigned long sink = 0;

	if (n <= 0) {
		fprintf(stderr, "floor: the call count must be positive\n");
		return 2;
	}
	double u0 = user_us();
	for (long i = 0; i < n; i++)
		sink += (unsigned long)getppid();
	double u1 = user_us();
	for (long i = 0; i < n; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		sink += (unsigned long)ts.tv_nsec;
	}
	double u2 = user_us();
#if defined(__x86_64__) || defined(__i386__)
	for (long i = 0; i < n / 2; i++) {
		unsigned aux;
		sink += __rdtsc();
		sink += __rdtscp(&aux);
	}
	double u3 = user_us();
	double tsc = (u3 - u2) / (n / 2 * 2);
#else
	double tsc = (u2 - u1) / n;
#endif
	printf("syscall %.3f clock %.3f tsc %.3f\n", (u1 - u0) / n, (u2 - u1) / n, tsc);
	return sink == 42;	/* keeps the loops */
}
