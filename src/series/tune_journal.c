/*
 * tune_journal.c - dbench tune's journal (see tune_journal.h): made,
 * fsynced, trusted, read back and removed.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "series/tune_journal.h"
#include "trust.h"

#define JOURNAL_HEAD "dbench tune journal 1"
#define JOURNAL_TRUST "a journal is trusted only where no one but root and you could have written it"

struct journal {
	char *path;
};

char *journal_path(TALLOC_CTX *mem_ctx, const char *dir)
{
	size_t n = strlen(dir);

	return talloc_asprintf(mem_ctx, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/",
			       JOURNAL_NAME);
}

/* fsync the directory that holds path. */
static int sync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd = copy ? open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	int err = fd < 0 || fsync(fd) != 0 ? errno : 0;

	if (fd >= 0)
		close(fd);
	free(copy);
	return err;
}

/* ---- who wrote it ---- */

/* The pid of the journal's "pid" line, 0 when it has none or cannot be
 * read. */
static pid_t journal_pid(const char *path)
{
	FILE *f = fopen(path, "re");
	char line[256];
	long pid = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "pid\t%ld", &pid) == 1)
			break;
	if (f)
		fclose(f);
	return pid > 0 ? (pid_t)pid : 0;
}

/* Whether process pid runs, as a dbench tune (its command line). */
static bool tune_running(pid_t pid)
{
	char path[64], cmd[4096];
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", (long)pid);
	int fd = pid > 0 && pid != getpid() ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	ssize_t n = fd < 0 ? -1 : read(fd, cmd, sizeof(cmd) - 1);
	bool tune = false;

	if (fd >= 0)
		close(fd);
	if (n > 0)
		cmd[n] = '\0';
	for (ssize_t i = 0; i < n; i += strlen(cmd + i) + 1)
		tune = tune || strcmp(cmd + i, "tune") == 0;
	return tune;
}

char *journal_in_the_way(TALLOC_CTX *mem_ctx, const char *path)
{
	struct stat st;

	if (lstat(path, &st) != 0 && errno == ENOENT)
		return NULL;
	pid_t pid = journal_pid(path);
	if (tune_running(pid))
		return talloc_asprintf(mem_ctx, "%s: a dbench tune is running with this journal"
				       " (pid %ld): one tune at a time on a target", path, (long)pid);
	return talloc_asprintf(mem_ctx, "%s: a tune that did not finish left this journal, and"
			       " its settings may not be as they were: dbench tune --restore"
			       " --journal=%s puts them back", path, path);
}

/* ---- writing ---- */

/* The journal's text, on mem_ctx. */
static char *journal_text(TALLOC_CTX *mem_ctx, struct setting *const *settings, size_t n)
{
	char when[64];
	time_t t = time(NULL);

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	char *text = talloc_asprintf(mem_ctx, JOURNAL_HEAD "\n# the settings as dbench tune found"
				     " them at %s; dbench tune --restore puts them back\npid\t%ld\n",
				     when, (long)getpid());
	for (size_t i = 0; text && i < n; i++)
		if (setting_on_machine(settings[i]))
			text = talloc_asprintf_append(text, "%s\n",
						      setting_journal_line(text, settings[i]));
	return text;
}

/* Write text whole into the new file at path and fsync it. */
static int write_new(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	size_t len = strlen(text), done = 0;
	int err = 0;

	if (fd < 0)
		return errno;
	while (!err && done < len) {
		ssize_t w = write(fd, text + done, len - done);
		err = w < 0 ? errno : 0;
		done += w > 0 ? (size_t)w : 0;
	}
	if (!err && fsync(fd) != 0)
		err = errno;
	if (close(fd) != 0 && !err)
		err = errno;
	if (err)
		unlink(path);
	return err ? err : sync_dir(path);
}

struct journal *journal_write(TALLOC_CTX *mem_ctx, const char *path,
			      struct setting *const *settings, size_t n, char **err)
{
	struct journal *j = talloc_zero(mem_ctx, struct journal);
	char *text = j ? journal_text(j, settings, n) : NULL;
	char *why = NULL;
	bool others = false;

	if (!text || !(j->path = talloc_strdup(j, path))) {
		*err = talloc_strdup(mem_ctx, "out of memory");
		talloc_free(j);
		return NULL;
	}
	int e = write_new(path, text);
	if (e) {
		*err = talloc_asprintf(mem_ctx, "cannot write the journal %s: %s", path, strerror(e));
		talloc_free(j);
		return NULL;
	}
	if (!trust_path(j, path, &why, &others)) {
		*err = talloc_asprintf(mem_ctx, "the journal %s: %s%s%s", path, why,
				       others ? ": " JOURNAL_TRUST : "",
				       others ? " (--journal=FILE names another place)" : "");
		unlink(path);
		talloc_free(j);
		return NULL;
	}
	return j;
}

bool journal_unlink(TALLOC_CTX *mem_ctx, const char *path, char **err)
{
	int e = unlink(path) != 0 ? errno : sync_dir(path);

	if (e)
		*err = talloc_asprintf(mem_ctx, "cannot remove the journal %s: %s", path,
				       strerror(e));
	return !e;
}

bool journal_remove(struct journal *j, char **err)
{
	return journal_unlink(j, j->path, err);
}

/* ---- reading back ---- */

/* The journal's file, opened once trusted: a regular file of one link. */
static FILE *open_trusted(TALLOC_CTX *mem_ctx, const char *path, bool *untrusted, char **err)
{
	char *why = NULL;
	struct stat st;

	*untrusted = false;
	if (!trust_path(mem_ctx, path, &why, untrusted)) {
		*err = talloc_asprintf(mem_ctx, "%s: %s%s", path, why,
				       *untrusted ? ": " JOURNAL_TRUST : "");
		return NULL;
	}
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
		*untrusted = fd >= 0;
		*err = fd < 0 ? talloc_asprintf(mem_ctx, "%s: %s", path, strerror(errno))
			      : talloc_asprintf(mem_ctx, "%s has %lu links: " JOURNAL_TRUST
						" and that has one", path, (unsigned long)st.st_nlink);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	return fdopen(fd, "r");
}

/* One line of the journal into the list; false and *err when it is not
 * understood. */
static bool take_line(TALLOC_CTX *mem_ctx, char *line, struct setting ***list, size_t *n,
		      char **err)
{
	long pid;

	line[strcspn(line, "\n")] = '\0';
	if (line[0] == '#' || line[0] == '\0' || sscanf(line, "pid\t%ld", &pid) == 1)
		return true;
	struct setting *s = setting_from_journal_line(mem_ctx, line, err);
	struct setting **l = s ? talloc_realloc(mem_ctx, *list, struct setting *, *n + 1) : NULL;
	if (!l)
		return false;
	l[(*n)++] = s;
	*list = l;
	return true;
}

bool journal_read(TALLOC_CTX *mem_ctx, const char *path, struct setting ***settings,
		  size_t *n, bool *untrusted, char **err)
{
	FILE *f = open_trusted(mem_ctx, path, untrusted, err);
	char *line = NULL, *why = NULL;
	size_t cap = 0, lineno = 0;
	bool ok = f != NULL;

	*settings = NULL;
	*n = 0;
	if (ok && tune_running(journal_pid(path))) {
		*err = talloc_asprintf(mem_ctx, "%s: a dbench tune is still running with it (pid"
				       " %ld), and puts its settings back itself when it ends",
				       path, (long)journal_pid(path));
		ok = false;
	}
	while (ok && getline(&line, &cap, f) > 0) {
		lineno++;
		if (lineno == 1 && strcmp(line, JOURNAL_HEAD "\n") != 0)
			why = talloc_strdup(mem_ctx, "not a journal of dbench tune");
		else if (lineno > 1 && !take_line(mem_ctx, line, settings, n, &why))
			why = why ? why : talloc_strdup(mem_ctx, "out of memory");
		if (why) {
			*err = talloc_asprintf(mem_ctx, "%s:%zu: %s", path, lineno, why);
			ok = false;
		}
	}
	if (ok && lineno == 0) {
		*err = talloc_asprintf(mem_ctx, "%s:1: empty: not a journal of dbench tune", path);
		ok = false;
	}
	free(line);
	if (f)
		fclose(f);
	return ok;
}
