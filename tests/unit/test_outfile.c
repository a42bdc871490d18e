/*
 * test_outfile.c - every kind of path an output file may name
 * (outfile.h): a new name, a file of another owner, a symbolic link
 * (dangling, looping, planted in a sticky directory), a character device
 * (stand-ins made with mknod: never the machine's own /dev/null), a full
 * device, a FIFO with and without a reader, a reader that goes, a Unix
 * socket, standard output under its names, a directory and a block
 * device.  The device tests need root to mknod and skip without it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixture.h"
#include "outfile.h"

#define NOBODY 65534

static const char *path_in(void **state, const char *name)
{
	return talloc_asprintf(fixture_ctx(state), "%s/%s",
			       fixture_scratch_dir(state, "test_outfile"), name);
}

/* Write `text` to path through the module; the commit's outcome. */
static int write_text(const char *path, const char *text)
{
	FILE *f;
	int err;
	struct outfile *o = outfile_open(NULL, path, &f, &err);

	if (!o)
		return err;
	fputs(text, f);
	return outfile_commit(o);
}

static void put_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static char *file_text(void **state, const char *path)
{
	char buf[4096];
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	assert_true(n >= 0);
	buf[n] = '\0';
	return talloc_strdup(fixture_ctx(state), buf);
}

/* A device stand-in, or skip the test where mknod is not allowed. */
static const char *device(void **state, const char *name, mode_t kind, int major, int minor)
{
	const char *p = path_in(state, name);

	if (mknod(p, kind | 0666, makedev(major, minor)) != 0)
		skip();
	return p;
}

static void a_new_name_is_made_with_the_mode_fopen_gives(void **state)
{
	const char *p = path_in(state, "new.json");
	struct stat st;
	mode_t mask = umask(022);

	assert_int_equal(outfile_check(p), 0);
	assert_int_equal(write_text(p, "{}\n"), 0);
	umask(mask);
	assert_string_equal(file_text(state, p), "{}\n");
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0644);
}

static void a_file_is_replaced_whole_keeping_its_owner_and_mode(void **state)
{
	const char *p = path_in(state, "owned.json");
	struct stat before, after;

	put_file(p, "old\n");
	if (chown(p, NOBODY, NOBODY) != 0)
		skip();		/* not root */
	assert_int_equal(chmod(p, 0640), 0);
	assert_int_equal(stat(p, &before), 0);
	assert_int_equal(write_text(p, "new\n"), 0);
	assert_int_equal(stat(p, &after), 0);
	assert_string_equal(file_text(state, p), "new\n");
	assert_int_equal(after.st_uid, NOBODY);
	assert_int_equal(after.st_gid, NOBODY);
	assert_int_equal(after.st_mode & 07777, 0640);
	assert_true(after.st_ino != before.st_ino);	/* renamed into place */
}

/* A user other than root cannot give a file away: another user's file
 * it may write is written in place, keeping its owner. */
static void another_owners_file_is_written_in_place_by_a_user(void **state)
{
	const char *dir = fixture_scratch_dir(state, "test_outfile");
	const char *p = path_in(state, "theirs.json");

	put_file(p, "their old text, longer than the new\n");
	if (chown(p, NOBODY - 1, NOBODY - 1) != 0)
		skip();
	assert_int_equal(chmod(p, 0666), 0);
	assert_int_equal(chmod(dir, 0777), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (setgid(NOBODY) != 0 || setuid(NOBODY) != 0)
			_exit(3);
		_exit(outfile_check(p) == 0 && write_text(p, "mine\n") == 0 ? 0 : 1);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(WEXITSTATUS(status), 0);
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_uid, NOBODY - 1);
	assert_int_equal(st.st_mode & 07777, 0666);
	assert_string_equal(file_text(state, p), "mine\n");
}

static void a_failed_write_leaves_the_previous_file_and_no_temporary(void **state)
{
	const char *p = path_in(state, "keep.json");
	FILE *f;
	int err;

	put_file(p, "previous\n");
	struct outfile *o = outfile_open(NULL, p, &f, &err);
	assert_non_null(o);
	fputs("half", f);
	talloc_free(o);		/* given up */
	assert_string_equal(file_text(state, p), "previous\n");
	char *cmd = talloc_asprintf(fixture_ctx(state), "test $(ls -A %s | wc -l) -eq 1",
				    fixture_scratch_dir(state, "test_outfile"));
	assert_int_equal(system(cmd), 0);
}

static void a_symlink_is_followed_and_kept(void **state)
{
	const char *target = path_in(state, "target.json"), *link = path_in(state, "link.json");
	struct stat st;

	put_file(target, "old\n");
	assert_int_equal(symlink("target.json", link), 0);
	assert_int_equal(outfile_check(link), 0);
	assert_int_equal(write_text(link, "through the link\n"), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_string_equal(file_text(state, target), "through the link\n");
}

static void a_dangling_symlink_makes_the_file_it_names(void **state)
{
	const char *target = path_in(state, "later.json"), *link = path_in(state, "dangling");
	struct stat st;

	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(write_text(link, "made\n"), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_string_equal(file_text(state, target), "made\n");
}

static void a_symlink_loop_is_refused(void **state)
{
	const char *a = path_in(state, "a"), *b = path_in(state, "b");

	assert_int_equal(symlink("b", a), 0);
	assert_int_equal(symlink("a", b), 0);
	assert_int_equal(outfile_check(a), ELOOP);
	assert_int_equal(write_text(a, "x"), ELOOP);
}

/* fs.protected_symlinks: a link another user planted in a sticky
 * world-writable directory (/tmp) is not followed, even by root. */
static void a_link_planted_in_a_sticky_directory_is_not_followed(void **state)
{
	const char *dir = path_in(state, "tmp"), *victim = path_in(state, "victim");
	const char *link = path_in(state, "tmp/out.json");

	put_file(victim, "precious\n");
	assert_int_equal(mkdir(dir, 0777), 0);
	assert_int_equal(chmod(dir, 01777), 0);
	assert_int_equal(symlink(victim, link), 0);
	if (lchown(link, NOBODY, NOBODY) != 0 || geteuid() == NOBODY)
		skip();
	assert_int_equal(outfile_check(link), EACCES);
	assert_int_equal(write_text(link, "x"), EACCES);
	assert_string_equal(file_text(state, victim), "precious\n");
}

static void a_directory_is_refused(void **state)
{
	const char *dir = fixture_scratch_dir(state, "test_outfile");

	assert_int_equal(outfile_check(dir), EISDIR);
	assert_int_equal(write_text(dir, "x"), EISDIR);
	assert_int_equal(outfile_check(""), ENOENT);
}

static void a_block_device_is_refused(void **state)
{
	const char *p = device(state, "blk", S_IFBLK, 7, 0);
	struct stat st;

	assert_int_equal(outfile_check(p), OUTFILE_EKIND);
	assert_int_equal(write_text(p, "x"), OUTFILE_EKIND);
	assert_string_equal(outfile_strerror(OUTFILE_EKIND),
			    "not a file, a character device, a FIFO or a socket");
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISBLK(st.st_mode));
}

static void a_character_device_is_written_into_never_replaced(void **state)
{
	const char *p = device(state, "null", S_IFCHR, 1, 3);
	struct stat st;

	assert_int_equal(outfile_check(p), 0);
	assert_int_equal(write_text(p, "gone\n"), 0);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_int_equal(st.st_rdev, makedev(1, 3));
}

static void a_full_device_fails_with_enospc(void **state)
{
	const char *p = device(state, "full", S_IFCHR, 1, 7);
	struct stat st;

	assert_int_equal(outfile_check(p), 0);
	assert_int_equal(write_text(p, "no room\n"), ENOSPC);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISCHR(st.st_mode));
}

static void a_fifo_with_a_reader_gets_the_text(void **state)
{
	const char *p = path_in(state, "fifo");
	char buf[64];
	struct stat st;

	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(outfile_check(p), 0);
	int r = open(p, O_RDONLY | O_NONBLOCK);
	assert_true(r >= 0);
	assert_int_equal(write_text(p, "to the reader\n"), 0);
	assert_int_equal(read(r, buf, sizeof(buf)), 14);
	assert_memory_equal(buf, "to the reader\n", 14);
	close(r);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
}

static void a_fifo_without_a_reader_fails_at_once(void **state)
{
	const char *p = path_in(state, "lonely");

	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(outfile_check(p), 0);	/* the reader may come later */
	assert_int_equal(write_text(p, "x"), OUTFILE_ENOREADER);
}

static void a_reader_that_goes_is_epipe_not_sigpipe(void **state)
{
	const char *p = path_in(state, "gone");
	FILE *f;
	int err;

	assert_int_equal(mkfifo(p, 0600), 0);
	int r = open(p, O_RDONLY | O_NONBLOCK);
	assert_true(r >= 0);
	struct outfile *o = outfile_open(NULL, p, &f, &err);
	assert_non_null(o);
	close(r);
	fputs("nobody reads this\n", f);
	assert_int_equal(outfile_commit(o), EPIPE);	/* and still alive */
}

static void a_listening_unix_socket_gets_the_text(void **state)
{
	const char *p = path_in(state, "sock");
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char buf[64];

	strcpy(sun.sun_path, p);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_int_equal(bind(s, (struct sockaddr *)&sun, sizeof(sun)), 0);
	assert_int_equal(listen(s, 1), 0);
	assert_int_equal(outfile_check(p), 0);
	assert_int_equal(write_text(p, "over the socket\n"), 0);
	struct pollfd pfd = { .fd = s, .events = POLLIN };
	assert_int_equal(poll(&pfd, 1, 5000), 1);	/* connected, not replaced */
	int c = accept(s, NULL, NULL);
	assert_true(c >= 0);
	assert_int_equal(recv(c, buf, sizeof(buf), MSG_WAITALL), 16);
	assert_memory_equal(buf, "over the socket\n", 16);
	close(c);
	close(s);
}

/* With fd 1 on a pipe: what "-" or a link to /proc/self/fd/1 writes. */
static char *through_stdout(void **state, const char *path)
{
	int pipefd[2], saved = dup(1);
	char buf[64];

	assert_int_equal(pipe(pipefd), 0);
	fflush(stdout);
	dup2(pipefd[1], 1);
	close(pipefd[1]);
	int err = write_text(path, "to stdout\n");
	dup2(saved, 1);
	close(saved);
	assert_int_equal(err, 0);
	ssize_t n = read(pipefd[0], buf, sizeof(buf) - 1);
	close(pipefd[0]);
	assert_true(n >= 0);
	buf[n] = '\0';
	return talloc_strdup(fixture_ctx(state), buf);
}

static void dash_and_dev_stdout_write_to_standard_output(void **state)
{
	const char *link = path_in(state, "stdout");
	struct stat st;

	assert_string_equal(through_stdout(state, "-"), "to stdout\n");
	assert_int_equal(symlink("/proc/self/fd/1", link), 0);
	assert_string_equal(through_stdout(state, link), "to stdout\n");
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
}

/* Standard output on a full device: the errno, not EIO. */
static void a_full_standard_output_says_enospc(void **state)
{
	const char *p = device(state, "full1", S_IFCHR, 1, 7);
	int saved = dup(1), fd = open(p, O_WRONLY);

	assert_true(fd >= 0);
	fflush(stdout);
	dup2(fd, 1);
	close(fd);
	int err = write_text("-", "no room\n");
	dup2(saved, 1);
	close(saved);
	assert_int_equal(err, ENOSPC);
}

#define T(f) cmocka_unit_test_setup_teardown(f, fixture_setup, fixture_teardown)

/* A file made private: 0600 whether it is new or replaces a 0644 one;
 * standard output's mode is not ours. */
static void test_a_private_file_is_its_owners_alone(void **state)
{
	const char *made = path_in(state, "new"), *old = path_in(state, "old");
	struct stat st;
	FILE *f;
	int err;

	put_file(old, "before\n");
	chmod(old, 0644);
	for (int i = 0; i < 2; i++) {
		struct outfile *o = outfile_open(NULL, i ? old : made, &f, &err);
		assert_non_null(o);
		assert_int_equal(outfile_private(o), 0);
		fputs("secret\n", f);
		assert_int_equal(outfile_commit(o), 0);
		assert_int_equal(stat(i ? old : made, &st), 0);
		assert_int_equal(st.st_mode & 07777, 0600);
	}
	assert_string_equal(file_text(state, old), "secret\n");
	struct outfile *o = outfile_open(NULL, "-", &f, &err);
	assert_non_null(o);
	assert_int_equal(outfile_private(o), OUTFILE_EKIND);
	talloc_free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_a_private_file_is_its_owners_alone),
		T(a_new_name_is_made_with_the_mode_fopen_gives),
		T(a_file_is_replaced_whole_keeping_its_owner_and_mode),
		T(another_owners_file_is_written_in_place_by_a_user),
		T(a_failed_write_leaves_the_previous_file_and_no_temporary),
		T(a_symlink_is_followed_and_kept),
		T(a_dangling_symlink_makes_the_file_it_names),
		T(a_symlink_loop_is_refused),
		T(a_link_planted_in_a_sticky_directory_is_not_followed),
		T(a_directory_is_refused),
		T(a_block_device_is_refused),
		T(a_character_device_is_written_into_never_replaced),
		T(a_full_device_fails_with_enospc),
		T(a_fifo_with_a_reader_gets_the_text),
		T(a_fifo_without_a_reader_fails_at_once),
		T(a_reader_that_goes_is_epipe_not_sigpipe),
		T(a_listening_unix_socket_gets_the_text),
		T(dash_and_dev_stdout_write_to_standard_output),
		T(a_full_standard_output_says_enospc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
