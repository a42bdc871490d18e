/*
 * fdmodel.h - the descriptor tables and working directories of the
 * recorded processes, as the kernel kept them.
 *
 * Each thread belongs to a table of descriptors and to a working
 * directory, each shared the way clone() said: a thread (CLONE_FILES)
 * shares its parent's table, a process (fork, vfork, clone without
 * CLONE_FILES) gets a copy, and CLONE_FS shares the working directory
 * likewise.  A descriptor points at an open file description, shared by
 * dup()s and by the copies fork makes, which holds what the opening
 * call said: the path it resolved to (the file's identity here, not
 * strace's -y name, which follows renames and says "(deleted)"),
 * whether that lies beneath the roots, and the offset (read and write
 * move it, lseek sets it).  Descriptors opened with close-on-exec close
 * at execve.
 *
 * Knows nothing of strace's text, of roots or of rows: the translation
 * says what each call did.
 */
#ifndef RECORD_FDMODEL_H
#define RECORD_FDMODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <talloc.h>

/* An open file description. */
struct ofd {
	char *path;		/* absolute, as the opening call resolved it */
	bool in_root;		/* beneath the recording's roots */
	bool is_dir;		/* opened as a directory (O_DIRECTORY, or listed) */
	bool append;		/* O_APPEND */
	uint64_t pos;		/* the offset read and write start at */
	int refs;		/* descriptors pointing here */
	void *note;		/* the caller's on the file (convert: what the
				 * inference knows of it), NULL until set */
};

struct fdmodel;

/* An empty model, with no thread known yet. */
struct fdmodel *fdmodel_new(TALLOC_CTX *mem_ctx);

/* Make thread tid known, with an empty table and the working directory
 * cwd (the first thread of a recording, or one whose parent was not
 * traced).  false when memory ran out. */
bool fdmodel_add(struct fdmodel *m, int tid, const char *cwd);

/* Whether tid is known. */
bool fdmodel_known(const struct fdmodel *m, int tid);

/* Thread parent started child with clone's `flags` (CLONE_FILES,
 * CLONE_FS; fork and vfork pass 0).  false when memory ran out. */
bool fdmodel_clone(struct fdmodel *m, int parent, int child, unsigned long flags);

/* Thread tid ran execve: the close-on-exec descriptors of its table close
 * (the table is its own from then on, as the kernel unshares it). */
void fdmodel_exec(struct fdmodel *m, int tid);

/* Whether tid's table is shared with another thread. */
bool fdmodel_shared(const struct fdmodel *m, int tid);

/* The description descriptor fd of tid points at, or NULL. */
struct ofd *fdmodel_get(const struct fdmodel *m, int tid, int fd);

/* Open a new description at fd (closing what was there).  The returned
 * description's fields are the caller's to fill; NULL when memory ran out. */
struct ofd *fdmodel_open(struct fdmodel *m, int tid, int fd, bool cloexec, bool in_root);

/* Point newfd at oldfd's description (dup, dup2, dup3, F_DUPFD), closing
 * what newfd held.  false when oldfd is not open or memory ran out. */
bool fdmodel_dup(struct fdmodel *m, int tid, int oldfd, int newfd, bool cloexec);

/* Close fd; returns whether it was open. */
bool fdmodel_close(struct fdmodel *m, int tid, int fd);

/* Set or clear fd's close-on-exec flag (F_SETFD). */
void fdmodel_set_cloexec(struct fdmodel *m, int tid, int fd, bool cloexec);

/* The descriptors of tid's table in [lo, hi], one call of fn each, in
 * order (close_range, the summary of what an exec closes). */
void fdmodel_each(struct fdmodel *m, int tid, int lo, int hi,
		  void (*fn)(void *arg, int fd, struct ofd *o), void *arg);

/* The close-on-exec descriptors of tid's table, one call of fn each. */
void fdmodel_each_cloexec(struct fdmodel *m, int tid,
			  void (*fn)(void *arg, int fd, struct ofd *o), void *arg);

/* The working directory of tid (absolute), or NULL when tid or its
 * directory is unknown. */
const char *fdmodel_cwd(const struct fdmodel *m, int tid);

/* Change tid's working directory (shared with those it shares it with);
 * NULL when the trace cannot tell where it went (paths relative to it
 * are then unresolved). */
bool fdmodel_chdir(struct fdmodel *m, int tid, const char *path);

/* Descriptors open now beneath the roots, and the most there ever were
 * at once, over every table. */
unsigned fdmodel_open_in_root(const struct fdmodel *m);
unsigned fdmodel_max_in_root(const struct fdmodel *m);

#endif
