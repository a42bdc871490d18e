/*
 * fsprog.c - random but valid programs of file calls, for the property
 * test of `dbench record` and the replay (tests/shell/test_generated.sh).
 *
 *   fsprog gen SEED CASES [CALLS]   write a script of CASES cases of about
 *                                   CALLS calls each (default 30) on stdout
 *   fsprog run SCRIPT               run it in the working directory; print
 *                                   "written N" (the bytes its writes
 *                                   wrote) on stdout
 *
 * A script is text, one action a line, so that a failing case can be cut
 * line by line (delta debugging) and kept as it is (# begins a comment):
 *
 *   case K                  a case: its paths are beneath cK/; the actors
 *                           of the case before have ended
 *   ACTOR OP ARG...         ACTOR 0 is the case's first, the main process
 *
 * OPs: mkdir P, rmdir P, open SLOT P FLAGS (letters: r w b(oth) c(reat)
 * t(runc) a(ppend) x(cl) d(irectory)), close SLOT, write SLOT LEN,
 * pwrite SLOT LEN OFF, read SLOT LEN, pread SLOT LEN OFF, lseek SLOT OFF,
 * ftruncate SLOT LEN, fsync SLOT, fchmod SLOT MODE, dup SLOT SLOT2,
 * list P (open, getdents to the end, close), truncate P LEN,
 * rename P Q, link P Q, linkf P Q (linkat with AT_SYMLINK_FOLLOW: a link
 * to what a symbolic link P points to), symlink TARGET P, readlink P, unlink P,
 * chmod P MODE, utimes P, stat P, lstat P, thread A (ACTOR starts actor
 * A, a thread of its process), fork A (a process, with a copy of the
 * descriptors).  "." is the root, the directory the script runs in.
 *
 * The actors take turns, in the order of the lines, through a
 * process-shared mutex and condition (futex calls, which the recording
 * leaves out): the order the recording sees is the one the calls were
 * made in, so that a replay that keeps the order between streams must
 * get every outcome the program got.  SLOTs are a process's own (its
 * threads share them; a fork copies them); an action on a slot that is
 * not open, or of an actor never started, is not made: a script with
 * lines cut still runs.
 *
 * The generator keeps a model of each case's tree and descriptors so
 * that most calls succeed; about one in ten names something absent, so
 * that failures are recorded and replayed too.  Its links are hard
 * (link), followed (linkf) and symbolic, to a file or to another of the
 * case's directories (perhaps through another such link), beneath which
 * names are then made, listed and linked as beneath a directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ACTORS 16
#define MAX_SLOTS 12
#define MAX_ARGS 4
#define MAX_LEN 65536

/* ---- the script ---- */

struct action {
	int actor;		/* -1: a "case" line */
	char op[12];
	char arg[MAX_ARGS][256];
	int nargs;
};

static struct action *acts;
static int nacts;

static void die(const char *what)
{
	fprintf(stderr, "fsprog: %s\n", what);
	exit(2);
}

static void parse_line(char *line, int lineno)
{
	struct action *a = &acts[nacts];
	char *save = NULL, *tok = strtok_r(line, " \t\n", &save);
	if (!tok || tok[0] == '#')
		return;
	memset(a, 0, sizeof(*a));
	if (strcmp(tok, "case") == 0) {
		a->actor = -1;
		nacts++;
		return;
	}
	a->actor = atoi(tok);
	tok = strtok_r(NULL, " \t\n", &save);
	if (!tok || a->actor < 0 || a->actor >= MAX_ACTORS) {
		fprintf(stderr, "fsprog: line %d: bad action\n", lineno);
		exit(2);
	}
	snprintf(a->op, sizeof(a->op), "%s", tok);
	while ((tok = strtok_r(NULL, " \t\n", &save)) && a->nargs < MAX_ARGS)
		snprintf(a->arg[a->nargs++], sizeof(a->arg[0]), "%s", tok);
	nacts++;
}

static void read_script(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int cap = 0, lineno = 0;
	if (!f)
		die("cannot open the script");
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (nacts == cap) {
			cap = cap ? 2 * cap : 256;
			acts = realloc(acts, cap * sizeof(*acts));
			if (!acts)
				die("out of memory");
		}
		parse_line(line, lineno);
	}
	fclose(f);
}

/* ---- running it: the turns ---- */

struct shared {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int turn;		/* the action whose actor may go */
	long long written;	/* bytes written, all processes */
};

static struct shared *sh;
static int slot_fd[MAX_SLOTS];	/* this process's; threads share it */
static char buf[MAX_LEN];

struct actor_run {
	int id, from, to;	/* its actions: lines [from, to) of the case */
	pthread_t th[MAX_ACTORS];
	pid_t pid[MAX_ACTORS];
	int nth, npid;
};

static int wait_turn(int i)
{
	pthread_mutex_lock(&sh->mu);
	while (sh->turn != i)
		pthread_cond_wait(&sh->cv, &sh->mu);
	pthread_mutex_unlock(&sh->mu);
	return i;
}

static void pass_turn(int next)
{
	pthread_mutex_lock(&sh->mu);
	sh->turn = next;
	pthread_cond_broadcast(&sh->cv);
	pthread_mutex_unlock(&sh->mu);
}

static void add_written(ssize_t n)
{
	if (n <= 0)
		return;
	pthread_mutex_lock(&sh->mu);
	sh->written += n;
	pthread_mutex_unlock(&sh->mu);
}

static int open_flags(const char *s)
{
	int f = 0;
	for (; *s; s++) {
		switch (*s) {
		case 'r': f |= O_RDONLY; break;
		case 'w': f |= O_WRONLY; break;
		case 'b': f |= O_RDWR; break;
		case 'c': f |= O_CREAT; break;
		case 't': f |= O_TRUNC; break;
		case 'a': f |= O_APPEND; break;
		case 'x': f |= O_EXCL; break;
		case 'd': f |= O_DIRECTORY; break;
		}
	}
	return f;
}

static int slot(const struct action *a, int i)
{
	int s = atoi(a->arg[i]);
	return s >= 0 && s < MAX_SLOTS ? s : 0;
}

static void list_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return;
	while (syscall(SYS_getdents64, fd, buf, 32768) > 0)
		;
	close(fd);
}

static void *actor_thread(void *arg);
static void run_actor(struct actor_run *me);

/* Start actor A of action i: a thread of this process or a process. */
static void start_actor(struct actor_run *me, int i, int a, int thread)
{
	struct actor_run *child = calloc(1, sizeof(*child));
	if (!child)
		die("out of memory");
	child->id = a, child->from = i + 1, child->to = me->to;
	if (thread) {
		if (pthread_create(&me->th[me->nth], NULL, actor_thread, child) == 0)
			me->nth++;
		return;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		me->nth = me->npid = 0;	/* those are the parent's */
		run_actor(child);
		_exit(0);
	}
	if (pid > 0)
		me->pid[me->npid++] = pid;
	free(child);
}

/* The calls on a slot; 0 when a's op is none of them. */
static int slot_call(const struct action *a)
{
	int s = slot(a, 0), fd = slot_fd[s];
	long n = a->nargs > 1 ? atol(a->arg[1]) : 0, off = a->nargs > 2 ? atol(a->arg[2]) : 0;
	if (n > MAX_LEN)
		n = MAX_LEN;
	if (strcmp(a->op, "close") == 0)
		close(fd), slot_fd[s] = -1;
	else if (strcmp(a->op, "write") == 0)
		add_written(write(fd, buf, n));
	else if (strcmp(a->op, "pwrite") == 0)
		add_written(pwrite(fd, buf, n, off));
	else if (strcmp(a->op, "read") == 0)
		(void)!read(fd, buf, n);
	else if (strcmp(a->op, "pread") == 0)
		(void)!pread(fd, buf, n, off);
	else if (strcmp(a->op, "lseek") == 0)
		lseek(fd, n, SEEK_SET);
	else if (strcmp(a->op, "ftruncate") == 0)
		(void)!ftruncate(fd, n);
	else if (strcmp(a->op, "fsync") == 0)
		fsync(fd);
	else if (strcmp(a->op, "fchmod") == 0)
		fchmod(fd, strtol(a->arg[1], NULL, 8));
	else if (strcmp(a->op, "dup") == 0) {
		int to = slot(a, 1);
		if (slot_fd[to] >= 0)
			close(slot_fd[to]);
		slot_fd[to] = dup(fd);
	} else
		return 0;
	return 1;
}

static const char *slot_ops[] = { "close", "write", "pwrite", "read", "pread", "lseek",
				  "ftruncate", "fsync", "fchmod", "dup", NULL };

static int on_slot(const struct action *a)
{
	for (int i = 0; slot_ops[i]; i++)
		if (strcmp(a->op, slot_ops[i]) == 0)
			return 1;
	return 0;
}

/* The calls on paths. */
static void path_call(const struct action *a)
{
	const char *p = a->arg[0], *q = a->arg[1];
	char target[512];
	struct stat st;
	if (strcmp(a->op, "mkdir") == 0)
		mkdir(p, 0755);
	else if (strcmp(a->op, "rmdir") == 0)
		rmdir(p);
	else if (strcmp(a->op, "open") == 0) {
		int s = slot(a, 0);
		if (slot_fd[s] >= 0)
			close(slot_fd[s]);
		slot_fd[s] = open(q, open_flags(a->arg[2]), 0644);
	} else if (strcmp(a->op, "list") == 0)
		list_dir(p);
	else if (strcmp(a->op, "truncate") == 0)
		(void)!truncate(p, atol(q));
	else if (strcmp(a->op, "rename") == 0)
		rename(p, q);
	else if (strcmp(a->op, "link") == 0)
		link(p, q);
	else if (strcmp(a->op, "linkf") == 0)
		linkat(AT_FDCWD, p, AT_FDCWD, q, AT_SYMLINK_FOLLOW);
	else if (strcmp(a->op, "symlink") == 0)
		(void)!symlink(p, q);
	else if (strcmp(a->op, "readlink") == 0)
		(void)!readlink(p, target, sizeof(target));
	else if (strcmp(a->op, "unlink") == 0)
		unlink(p);
	else if (strcmp(a->op, "chmod") == 0)
		chmod(p, strtol(q, NULL, 8));
	else if (strcmp(a->op, "utimes") == 0)
		utimensat(AT_FDCWD, p, NULL, 0);
	else if (strcmp(a->op, "stat") == 0)
		stat(p, &st);
	else if (strcmp(a->op, "lstat") == 0)
		lstat(p, &st);
}

/* Actor me's turns in [from, to); then it waits for those it started. */
static void run_actor(struct actor_run *me)
{
	int started[MAX_ACTORS] = { 0 };
	for (int i = me->from; i < me->to; i++) {
		const struct action *a = &acts[i];
		if (a->actor != me->id)
			continue;
		wait_turn(i);
		if (strcmp(a->op, "thread") == 0 || strcmp(a->op, "fork") == 0) {
			int c = atoi(a->arg[0]);
			if (c > 0 && c < MAX_ACTORS && !started[c]) {
				started[c] = 1;
				start_actor(me, i, c, a->op[0] == 't');
			}
		} else if (on_slot(a)) {
			if (slot_fd[slot(a, 0)] >= 0)
				slot_call(a);
		} else
			path_call(a);
		pass_turn(i + 1);
	}
	for (int i = 0; i < me->nth; i++)
		pthread_join(me->th[i], NULL);
	for (int i = 0; i < me->npid; i++)
		waitpid(me->pid[i], NULL, 0);
}

static void *actor_thread(void *arg)
{
	struct actor_run *me = arg;
	run_actor(me);
	free(me);
	return NULL;
}

/* The turns of actions no started actor makes are passed over: a
 * script with its thread or fork line cut still ends. */
static void drop_orphans(int from, int to)
{
	int live[MAX_ACTORS] = { 1 };
	for (int i = from; i < to; i++) {
		struct action *a = &acts[i];
		if (!live[a->actor]) {
			a->actor = MAX_ACTORS;	/* nobody's */
			continue;
		}
		if (strcmp(a->op, "thread") == 0 || strcmp(a->op, "fork") == 0) {
			int c = atoi(a->arg[0]);
			if (c > 0 && c < MAX_ACTORS && !live[c])
				live[c] = 1;
			else
				a->actor = MAX_ACTORS;
		}
	}
}

static int run_script(const char *path)
{
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;

	read_script(path);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("cannot map the shared turn");
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_condattr_init(&ca);
	pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&sh->mu, &ma);
	pthread_cond_init(&sh->cv, &ca);
	memset(buf, 'x', sizeof(buf));
	for (int i = 0; i < MAX_SLOTS; i++)
		slot_fd[i] = -1;
	for (int from = 0; from < nacts;) {
		if (acts[from].actor < 0)
			from++;
		int to = from;
		while (to < nacts && acts[to].actor >= 0)
			to++;
		drop_orphans(from, to);
		struct actor_run main_actor = { .id = 0, .from = from, .to = to };
		sh->turn = from;
		/* the turns nobody takes go by */
		for (int i = from; i < to; i++)
			if (acts[i].actor == MAX_ACTORS)
				acts[i].op[0] = 0, acts[i].actor = 0;
		run_actor(&main_actor);
		for (int i = 0; i < MAX_SLOTS; i++)
			if (slot_fd[i] >= 0)
				close(slot_fd[i]), slot_fd[i] = -1;
		from = to;
	}
	printf("written %lld\n", sh->written);
	return 0;
}

/* ---- generating one ---- */

static uint64_t rng;

static uint64_t next(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int pick(int n)
{
	return (int)(next() % (uint64_t)n);
}

#define MAX_NAMES 24

/* A case's tree as the generator expects it, and its actors. */
struct model {
	char dirs[MAX_NAMES][128];	/* dirs[0] is the case's own */
	int ndirs;
	char files[MAX_NAMES][128];	/* files and symbolic links */
	int nfiles;
	int nactors;
	int proc_of[MAX_ACTORS];	/* the process (its first actor) of each */
	int open[MAX_ACTORS][MAX_SLOTS];	/* by process: slot open */
	int counter;
};

static void forget(char (*names)[128], int *n, int i)
{
	memmove(names[i], names[i + 1], (size_t)(*n - i - 1) * sizeof(names[0]));
	(*n)--;
}

/* A new name beneath the case's directory `dir`. */
static void name_in(struct model *m, int dir, char *out, size_t size, char kind)
{
	snprintf(out, size, "%.100s/%c%d", m->dirs[dir], kind, m->counter++);
}

/* A new name beneath one of the case's directories. */
static void new_name(struct model *m, char *out, size_t size, char kind)
{
	name_in(m, pick(m->ndirs), out, size, kind);
}

/* An existing file (or, one time in ten, a name that is not there). */
static const char *some_file(struct model *m, char *scratch)
{
	if (m->nfiles == 0 || pick(10) == 0) {
		new_name(m, scratch, 128, 'n');
		return scratch;
	}
	return m->files[pick(m->nfiles)];
}

static int open_slot(struct model *m, int actor)
{
	int *open = m->open[m->proc_of[actor]], s = pick(MAX_SLOTS);
	for (int i = 0; i < MAX_SLOTS; i++, s = (s + 1) % MAX_SLOTS)
		if (open[s])
			return s;
	return -1;
}

static void gen_slot_call(struct model *m, int actor, int s)
{
	static const char *const ops[] = { "write", "pwrite", "read", "pread", "lseek",
					   "ftruncate", "fsync", "fchmod", "dup", "close" };
	const char *op = ops[pick(10)];
	int len = 1 + pick(pick(4) == 0 ? MAX_LEN : 9000);
	if (strcmp(op, "pwrite") == 0 || strcmp(op, "pread") == 0)
		printf("%d %s %d %d %d\n", actor, op, s, len, pick(70000));
	else if (strcmp(op, "lseek") == 0 || strcmp(op, "ftruncate") == 0)
		printf("%d %s %d %d\n", actor, op, s, pick(70000));
	else if (strcmp(op, "fsync") == 0)
		printf("%d fsync %d\n", actor, s);
	else if (strcmp(op, "fchmod") == 0)
		printf("%d fchmod %d %s\n", actor, s, pick(2) ? "0644" : "0600");
	else if (strcmp(op, "dup") == 0) {
		int to = pick(MAX_SLOTS);
		printf("%d dup %d %d\n", actor, s, to);
		m->open[m->proc_of[actor]][to] = 1;
	} else if (strcmp(op, "close") == 0) {
		printf("%d close %d\n", actor, s);
		m->open[m->proc_of[actor]][s] = 0;
	} else
		printf("%d %s %d %d\n", actor, op, s, len);
}

static void gen_open(struct model *m, int actor)
{
	static const char *const modes[] = { "r", "w", "b", "wc", "bc", "wct", "wca", "bct", "wcx" };
	char name[128];
	const char *mode = m->nfiles ? modes[pick(9)] : "wc", *path;
	int s = pick(MAX_SLOTS);
	if (strchr(mode, 'c') && pick(2)) {
		new_name(m, name, sizeof(name), 'f');
		path = name;
		if (m->nfiles < MAX_NAMES)
			snprintf(m->files[m->nfiles++], 128, "%s", name);
	} else
		path = some_file(m, name);
	printf("%d open %d %s %s\n", actor, s, path, mode);
	m->open[m->proc_of[actor]][s] = 1;
}

static void gen_dir_call(struct model *m, int actor)
{
	char name[128];
	int k = pick(4);
	if (k < 2 && m->ndirs < MAX_NAMES) {
		new_name(m, name, sizeof(name), 'd');
		printf("%d mkdir %s\n", actor, name);
		snprintf(m->dirs[m->ndirs++], 128, "%s", name);
	} else if (k == 2 && m->ndirs > 1) {
		int i = 1 + pick(m->ndirs - 1);
		printf("%d rmdir %s\n", actor, m->dirs[i]);	/* fails when not empty */
		size_t len = strlen(m->dirs[i]);
		int empty = 1;
		for (int j = 0; j < m->nfiles; j++)
			empty &= strncmp(m->files[j], m->dirs[i], len) != 0 || m->files[j][len] != '/';
		for (int j = 0; j < m->ndirs; j++)
			empty &= strncmp(m->dirs[j], m->dirs[i], len) != 0 || m->dirs[j][len] != '/';
		if (empty)
			forget(m->dirs, &m->ndirs, i);
	} else
		printf("%d list %s\n", actor, m->dirs[pick(m->ndirs)]);
}

/* Names beneath old (or old itself) are now beneath new. */
static void move_names(char (*names)[128], int n, const char *old, const char *new)
{
	size_t len = strlen(old);
	char tmp[128];
	for (int i = 0; i < n; i++) {
		if (strncmp(names[i], old, len) == 0 && (names[i][len] == '/' || !names[i][len])) {
			snprintf(tmp, sizeof(tmp), "%s%s", new, names[i] + len);
			snprintf(names[i], 128, "%s", tmp);
		}
	}
}

static int find_name(char (*names)[128], int n, const char *p)
{
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], p) == 0)
			return i;
	return -1;
}

/* rename or link P (link 1: link; 2: linkf, following P where it is a
 * symbolic link) over an existing name half the time, else to a new
 * one, often in another directory; a directory is renamed too. */
static void gen_rename(struct model *m, int actor, const char *p, int link)
{
	static const char *const verbs[] = { "rename", "link", "linkf" };
	char b[128], from[128];
	int over = m->nfiles && pick(2);
	const char *q = over ? m->files[pick(m->nfiles)] : (new_name(m, b, 128, 'f'), b);
	if (!link && m->ndirs > 1 && pick(4) == 0) {
		snprintf(from, sizeof(from), "%s", m->dirs[1 + pick(m->ndirs - 1)]);
		new_name(m, b, sizeof(b), 'd');
		printf("%d rename %s %s\n", actor, from, b);
		if (strncmp(b, from, strlen(from)) != 0 || b[strlen(from)] != '/') {
			move_names(m->dirs, m->ndirs, from, b);
			move_names(m->files, m->nfiles, from, b);
		}
		return;
	}
	printf("%d %s %s %s\n", actor, verbs[link], p, q);
	int i = find_name(m->files, m->nfiles, p);
	if (i < 0 || strcmp(p, q) == 0)
		return;
	if (!link && !over)
		snprintf(m->files[i], 128, "%s", b);
	else if (!link)
		forget(m->files, &m->nfiles, i);
	else if (!over && m->nfiles < MAX_NAMES)
		snprintf(m->files[m->nfiles++], 128, "%s", b);
}

/* A symbolic link in the case's directory to another of its directories
 * (perhaps beneath another such link: a chain), kept as a directory of
 * the case, so that names are made, listed and linked beneath it. */
static void gen_dir_link(struct model *m, int actor)
{
	const char *to = m->dirs[1 + pick(m->ndirs - 1)];
	char b[128];

	name_in(m, 0, b, sizeof(b), 'l');
	printf("%d symlink %s %s\n", actor, to + strlen(m->dirs[0]) + 1, b);
	memcpy(m->dirs[m->ndirs++], b, sizeof(b));
}

static void gen_name_call(struct model *m, int actor)
{
	char a[128], b[128];
	const char *p = some_file(m, a);
	int k = pick(7), i;
	if (k == 0 || k == 1 || k == 6)
		gen_rename(m, actor, p, k == 6 ? 2 : k);
	else if (k == 2 && m->ndirs > 1 && m->ndirs < MAX_NAMES && pick(3) == 0)
		gen_dir_link(m, actor);
	else if (k == 2) {
		new_name(m, b, sizeof(b), 'l');
		const char *slash = strrchr(p, '/');
		printf("%d symlink %s %s\n", actor, pick(3) ? slash + 1 : "../x", b);
		if (m->nfiles < MAX_NAMES)
			snprintf(m->files[m->nfiles++], 128, "%s", b);
	} else if (k == 3) {
		printf("%d unlink %s\n", actor, p);
		if ((i = find_name(m->files, m->nfiles, p)) >= 0)
			forget(m->files, &m->nfiles, i);
	} else if (k == 4)
		printf("%d truncate %s %d\n", actor, p, pick(70000));
	else
		printf("%d readlink %s\n", actor, p);
}

static void gen_meta_call(struct model *m, int actor, int root)
{
	char a[128];
	int k = pick(root ? 6 : 4);
	const char *p = k == 5 ? "." : pick(4) ? some_file(m, a) : m->dirs[pick(m->ndirs)];
	if (k == 0 || k == 5)
		printf("%d chmod %s %s\n", actor, p, strcmp(p, ".") == 0 ? (pick(2) ? "0755" : "0775")
				: pick(2) ? "0644" : "0600");
	else if (k == 1 || k == 4)
		printf("%d utimes %s\n", actor, k == 4 ? "." : p);
	else
		printf("%d %s %s\n", actor, k == 2 ? "stat" : "lstat", p);
}

static void gen_actor(struct model *m, int actor)
{
	if (m->nactors >= MAX_ACTORS)
		return;
	int a = m->nactors++, thread = pick(2);
	printf("%d %s %d\n", actor, thread ? "thread" : "fork", a);
	m->proc_of[a] = thread ? m->proc_of[actor] : a;
	if (!thread)
		memcpy(m->open[a], m->open[m->proc_of[actor]], sizeof(m->open[a]));
}

static void gen_case(int k, int calls, int root)
{
	struct model m = { .ndirs = 1, .nactors = 1 };
	printf("case\n");
	snprintf(m.dirs[0], sizeof(m.dirs[0]), "c%d", k);
	printf("0 mkdir c%d\n", k);
	for (int i = 0; i < calls; i++) {
		int actor = pick(m.nactors), s = open_slot(&m, actor), r = pick(100);
		if (r < 35 && s >= 0)
			gen_slot_call(&m, actor, s);
		else if (r < 50)
			gen_open(&m, actor);
		else if (r < 62)
			gen_dir_call(&m, actor);
		else if (r < 82)
			gen_name_call(&m, actor);
		else if (r < 95)
			gen_meta_call(&m, actor, root);
		else if (r >= 95)
			gen_actor(&m, actor);
	}
}

int main(int argc, char **argv)
{
	if (argc >= 4 && strcmp(argv[1], "gen") == 0) {
		int cases = atoi(argv[3]), calls = argc > 4 ? atoi(argv[4]) : 30;
		const char *noroot = getenv("FSPROG_NO_ROOT");
		rng = strtoull(argv[2], NULL, 10);
		for (int k = 0; k < cases; k++)
			gen_case(k, calls, !(noroot && *noroot));
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "run") == 0)
		return run_script(argv[2]);
	fprintf(stderr, "usage: fsprog gen SEED CASES [CALLS] | fsprog run SCRIPT\n");
	return 2;
}
