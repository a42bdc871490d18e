/*
 * test_infile.c - what a file the user names for reading may be
 * (infile.h): a regular file, a pipe that is written to in time, and
 * nothing else, each refusal naming the kind; the open never waits for a
 * FIFO's writer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "fixture.h"
#include "infile.h"

static const char *path_in(void **state, const char *name)
{
	return talloc_asprintf(fixture_ctx(state), "%s/%s",
			       fixture_scratch_dir(state, "test_infile"), name);
}

/* The refusal of `path` as `kinds` allows, which must hold `want`. */
static void refused(void **state, const char *path, unsigned kinds, const char *want)
{
	const char *why = NULL;

	assert_int_equal(infile_open(fixture_ctx(state), path, kinds, 1, &why), -1);
	if (!strstr(why, want))
		fail_msg("'%s': '%s' lacks '%s'", path, why, want);
}

static void a_regular_file_opens_and_reads(void **state)
{
	const char *p = path_in(state, "f"), *why;
	char buf[8];
	int fd = open(p, O_CREAT | O_WRONLY, 0600);

	assert_int_equal(write(fd, "abc", 3), 3);
	close(fd);
	fd = infile_open(fixture_ctx(state), p, INFILE_REGULAR, 1, &why);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf)), 3);
	close(fd);
}

static void a_pipe_is_taken_once_written_to_and_only_where_allowed(void **state)
{
	const char *p = path_in(state, "fifo"), *why;
	char buf[8];

	assert_int_equal(mkfifo(p, 0600), 0);
	time_t t0 = time(NULL);
	refused(state, p, INFILE_REGULAR | INFILE_PIPE, "a pipe with nothing written to it within 1 s");
	assert_true(time(NULL) - t0 <= 3);	/* the wait is bounded (1 s asked) */
	int w = open(p, O_RDWR);		/* a writer that has written */
	assert_int_equal(write(w, "xy", 2), 2);
	int fd = infile_open(fixture_ctx(state), p, INFILE_REGULAR | INFILE_PIPE, 1, &why);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf)), 2);
	close(fd);
	refused(state, p, INFILE_REGULAR, "a pipe, not a regular file");
	close(w);
}

static void a_device_socket_or_directory_is_named(void **state)
{
	const char *dir = fixture_scratch_dir(state, "test_infile"), *s = path_in(state, "sock");
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	strcpy(sun.sun_path, s);
	assert_int_equal(bind(fd, (struct sockaddr *)&sun, sizeof(sun)), 0);
	refused(state, s, INFILE_REGULAR | INFILE_PIPE, "a socket, not a regular file or a pipe");
	close(fd);
	refused(state, dir, INFILE_REGULAR, "Is a directory");
	refused(state, path_in(state, "none"), INFILE_REGULAR, "No such file or directory");
	const char *z = path_in(state, "zero");
	if (mknod(z, S_IFCHR | 0666, makedev(1, 5)) != 0)
		skip();		/* not root */
	refused(state, z, INFILE_REGULAR | INFILE_PIPE,
		"a character device, not a regular file or a pipe");
}

#define T(f) cmocka_unit_test_setup_teardown(f, fixture_setup, fixture_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(a_regular_file_opens_and_reads),
		T(a_pipe_is_taken_once_written_to_and_only_where_allowed),
		T(a_device_socket_or_directory_is_named),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
