/*
 * lockwait.c - a blocking lock call held to a limit (see lockwait.h): a
 * POSIX timer per call, delivered to the calling thread.
 */
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "run/lockwait.h"

#define LOCKWAIT_SIGNAL (SIGRTMIN + 3)
#define LOCKWAIT_AGAIN_NS 20000000	/* once fired, it fires again this often */

static void on_lockwait(int sig)
{
	(void)sig;	/* the interrupted call returns EINTR: that is all */
}

void lockwait_install(void)
{
	struct sigaction sa = { .sa_handler = on_lockwait };

	sigemptyset(&sa.sa_mask);
	sigaction(LOCKWAIT_SIGNAL, &sa, NULL);	/* no SA_RESTART */
}

bool lockwait_arm(struct lockwait *w, unsigned secs)
{
	struct sigevent ev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = LOCKWAIT_SIGNAL };
	struct itimerspec its = { .it_value = { secs, 0 }, .it_interval = { 0, LOCKWAIT_AGAIN_NS } };

	ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	w->armed = false;
	if (timer_create(CLOCK_MONOTONIC, &ev, &w->timer) != 0)
		return false;
	if (timer_settime(w->timer, 0, &its, NULL) != 0) {
		timer_delete(w->timer);
		return false;
	}
	w->armed = true;
	return true;
}

void lockwait_disarm(struct lockwait *w)
{
	if (!w->armed)
		return;
	w->armed = false;
	timer_delete(w->timer);
}

void lockwait_cut(struct lockwait *w)
{
	struct itimerspec now = { .it_value = { 0, 1 }, .it_interval = { 0, LOCKWAIT_AGAIN_NS } };

	if (w->armed)
		timer_settime(w->timer, 0, &now, NULL);
}
