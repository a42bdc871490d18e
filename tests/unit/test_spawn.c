/*
 * test_spawn.c - the one way dbench runs another program (spawn.h): the
 * exit status and the signal that killed it, the environment and the
 * descriptors the child gets, the caller's step in the child, and a
 * program that cannot be run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "fixture.h"
#include "spawn.h"

/* Run `sh -c script` with stdout into a pipe: what it printed (first
 * 255 bytes), its wait status in *st. */
static char *sh_output(TALLOC_CTX *ctx, const char *script, const char *const *env, int *st,
		       void (*in_child)(void *), void *arg)
{
	char *argv[] = { "/bin/sh", "-c", (char *)script, NULL };
	int p[2];
	assert_int_equal(pipe(p), 0);
	struct spawn s = { .argv = argv, .env = env, .fd = { SPAWN_NULL, p[1], SPAWN_KEEP },
			   .in_child = in_child, .arg = arg };
	pid_t pid = spawn_start(&s);
	assert_true(pid > 0);
	close(p[1]);
	char buf[256];
	ssize_t n, len = 0;
	while ((n = read(p[0], buf + len, sizeof(buf) - 1 - (size_t)len)) > 0)
		len += n;
	close(p[0]);
	buf[len] = '\0';
	assert_int_equal(spawn_wait(pid, st), 0);
	return talloc_strdup(ctx, buf);
}

static void a_clean_exit_is_status_0_and_no_text(void **state)
{
	int st;
	char *out = sh_output(fixture_ctx(state), "echo hello", NULL, &st, NULL, NULL);

	assert_string_equal(out, "hello\n");
	assert_int_equal(spawn_code(st), 0);
	assert_null(spawn_status_text(fixture_ctx(state), st));
}

static void an_exit_status_and_a_signal_are_told_apart(void **state)
{
	int st;

	sh_output(fixture_ctx(state), "exit 200", NULL, &st, NULL, NULL);
	assert_int_equal(spawn_code(st), 200);
	assert_string_equal(spawn_status_text(fixture_ctx(state), st), "exit status 200");
	sh_output(fixture_ctx(state), "kill -TERM $$", NULL, &st, NULL, NULL);
	assert_int_equal(spawn_code(st), 128 + SIGTERM);
	assert_string_equal(spawn_status_text(fixture_ctx(state), st),
			    talloc_asprintf(fixture_ctx(state), "killed by signal %d (%s)", SIGTERM,
					    strsignal(SIGTERM)));
}

static void the_environment_pairs_reach_the_child_alone(void **state)
{
	const char *const env[] = { "SPAWN_A", "one", "SPAWN_B", "two words", NULL };
	int st;
	char *out = sh_output(fixture_ctx(state), "echo \"$SPAWN_A/$SPAWN_B\"", env, &st, NULL, NULL);

	assert_string_equal(out, "one/two words\n");
	assert_null(getenv("SPAWN_A"));
}

static void note_in_child(void *arg)
{
	setenv("SPAWN_STEP", arg, 1);
}

static void the_callers_step_runs_in_the_child(void **state)
{
	int st;
	char *out = sh_output(fixture_ctx(state), "echo \"$SPAWN_STEP\"", NULL, &st, note_in_child,
			      "done");

	assert_string_equal(out, "done\n");
	assert_null(getenv("SPAWN_STEP"));
}

static void stdin_of_dev_null_reads_nothing(void **state)
{
	int st;
	char *out = sh_output(fixture_ctx(state), "wc -c", NULL, &st, NULL, NULL);

	assert_int_equal(atoi(out), 0);
	assert_int_equal(spawn_code(st), 0);
}

static void a_program_that_cannot_be_run_exits_127_saying_why(void **state)
{
	char *argv[] = { "dbench-no-such-program", NULL };
	int p[2];
	assert_int_equal(pipe(p), 0);
	struct spawn s = { .argv = argv, .fd = { SPAWN_NULL, SPAWN_NULL, p[1] } };
	int st;

	assert_int_equal(spawn_run(&s, &st), 0);
	close(p[1]);
	char buf[256];
	ssize_t n = read(p[0], buf, sizeof(buf) - 1);
	close(p[0]);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_int_equal(spawn_code(st), 127);
	assert_string_equal(buf, "cannot run 'dbench-no-such-program': No such file or directory\n");
	(void)state;
}

#define T(f) cmocka_unit_test_setup_teardown(f, fixture_setup, fixture_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(a_clean_exit_is_status_0_and_no_text),
		T(an_exit_status_and_a_signal_are_told_apart),
		T(the_environment_pairs_reach_the_child_alone),
		T(the_callers_step_runs_in_the_child),
		T(stdin_of_dev_null_reads_nothing),
		T(a_program_that_cannot_be_run_exits_127_saying_why),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
