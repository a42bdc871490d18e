/*
 * genload.c - generate dbench's built-in workload, loadfiles/default.txt.
 *
 * This program owns loadfiles/default.txt; do not edit that file by hand.
 * To regenerate it, run this from the top of the tree:
 *
 *	cc -std=c11 -O2 -o tools/genload tools/genload.c && tools/genload > loadfiles/default.txt
 *
 * (`make loadfile` does the same.)  Commit the new default.txt with any
 * change to this file, and check it with
 * `./dbench --check-loadfile -c loadfiles/default.txt` and a
 * `./dbench --run-once` pass.
 *
 * The output depends only on the seed (default 20240601) and the line target
 * (default 40000).  It uses its own PRNG (splitmix64) and integer
 * arithmetic only, so every platform produces the same bytes.
 *
 *	tools/genload [--seed N] [--lines N] [--summary]
 *
 * --summary prints the operation counts and bytes per pass to stderr.
 *
 * What the trace models: one client's office file-server day, the same day
 * as the netbench trace (client.txt).  A user works in a tree of ten
 * folders under \clients\client1\office: opens and reads documents,
 * spreadsheets and presentations, keeps a few of them open, saves through a
 * temporary file and a rename, prints, reads and files mail, copies files
 * from a shared folder, lists folders and looks up files that are not
 * there.  The mix of operation types follows client.txt's within a couple of
 * percentage points; transfers are mostly 4 KiB, up to 64 KiB, with 1-byte
 * writes where a file is pre-extended before it is written.
 *
 * Rules every line obeys, so that the file replays again and again on a
 * POSIX filesystem:
 *   - the generator keeps a model of the tree (which files exist, their
 *     sizes, which handles are open) and derives each expected status from
 *     it: a lookup expects NT_STATUS_OBJECT_NAME_NOT_FOUND only for a file
 *     that is really absent; a Rename target never exists; an Unlink'ed
 *     file exists and is not open; a FIND_FIRST's count is the number of
 *     names matching in the folder, "." and ".." included, and a pattern
 *     that matches nothing expects NT_STATUS_NO_SUCH_FILE;
 *   - a ReadX never reaches past the end of the file, so its return value
 *     is its size;
 *   - every handle a successful NTCreateX opens is closed by a Close, every
 *     fnum is used once, and a failing NTCreateX opens nothing;
 *   - the pass begins with Deltree of the client directory and ends with
 *     it, so each pass finds the same (empty) state.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_SEED 20240601u
#define DEFAULT_LINES 40000u

#define CLIENT "\\clients\\client1"
#define KiB 1024
#define MiB (1024 * 1024)

/* ------------------------------------------------------------------ */
/* Random numbers: splitmix64, nothing from libc.                      */

static uint64_t rng_state;

static uint64_t rnd64(void)
{
	uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Uniform in 0 .. n-1 (n > 0). */
static uint32_t below(uint32_t n)
{
	return (uint32_t)(((rnd64() >> 32) * n) >> 32);
}

/* Uniform in lo .. hi inclusive. */
static int64_t between(int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rnd64() % (uint64_t)(hi - lo + 1));
}

/* True with probability pct/100. */
static bool chance(unsigned pct)
{
	return below(100) < pct;
}

/* Index chosen with the given integer weights. */
static unsigned pick(const unsigned *w, unsigned n)
{
	unsigned total = 0, i, r;

	for (i = 0; i < n; i++)
		total += w[i];
	r = below(total);
	for (i = 0; r >= w[i]; i++)
		r -= w[i];
	return i;
}

/* ------------------------------------------------------------------ */
/* The model: folders, files, open handles.                            */

enum kind { K_DOC, K_TXT, K_XLS, K_PPT, K_PDF, K_BMP, K_MBX, K_IDX, K_DOT, K_TMP, K_NKINDS };

/* Size range of a freshly made file of each kind, in bytes. */
static const struct {
	int64_t lo, hi;
} kind_size[K_NKINDS] = {
	[K_DOC] = {16 * KiB, 160 * KiB},
	[K_TXT] = {1 * KiB, 12 * KiB},
	[K_XLS] = {24 * KiB, 320 * KiB},
	[K_PPT] = {400 * KiB, 2 * MiB},
	[K_PDF] = {100 * KiB, 1200 * KiB},
	[K_BMP] = {200 * KiB, 700 * KiB},
	[K_MBX] = {1 * MiB, 5 * MiB / 2},
	[K_IDX] = {12 * KiB, 48 * KiB},
	[K_DOT] = {20 * KiB, 70 * KiB},
	[K_TMP] = {1 * KiB, 4 * KiB},
};

enum {
	F_OFFICE, F_DOCS, F_LETTERS, F_MINUTES, F_SHEETS, F_BUDGET,
	F_SLIDES, F_MAIL, F_SHARED, F_TEMPLATES, NFOLDERS
};

static const struct {
	const char *path;	/* below the client directory */
	int parent;		/* -1: the client directory itself */
} folders[NFOLDERS] = {
	[F_OFFICE] = {"office", -1},
	[F_DOCS] = {"office\\docs", F_OFFICE},
	[F_LETTERS] = {"office\\docs\\letters", F_DOCS},
	[F_MINUTES] = {"office\\docs\\minutes", F_DOCS},
	[F_SHEETS] = {"office\\sheets", F_OFFICE},
	[F_BUDGET] = {"office\\sheets\\budget", F_SHEETS},
	[F_SLIDES] = {"office\\slides", F_OFFICE},
	[F_MAIL] = {"office\\mail", F_OFFICE},
	[F_SHARED] = {"office\\shared", F_OFFICE},
	[F_TEMPLATES] = {"office\\templates", F_OFFICE},
};

/* The files present when the day begins. */
static const struct {
	int folder;
	enum kind kind;
	const char *name;
} seed_files[] = {
	{F_DOCS, K_DOC, "ANNUAL.DOC"}, {F_DOCS, K_DOC, "HANDBOOK.DOC"},
	{F_DOCS, K_DOC, "POLICY.DOC"}, {F_DOCS, K_DOC, "PROPOSAL.DOC"},
	{F_DOCS, K_DOC, "ROADMAP.DOC"}, {F_DOCS, K_DOC, "STRATEGY.DOC"},
	{F_DOCS, K_DOC, "TRAINING.DOC"}, {F_DOCS, K_DOC, "CONTRACT.DOC"},
	{F_DOCS, K_DOC, "PRESSREL.DOC"}, {F_DOCS, K_TXT, "TODO.TXT"},
	{F_DOCS, K_TXT, "PHONES.TXT"},
	{F_LETTERS, K_DOC, "SUPPLIER.DOC"}, {F_LETTERS, K_DOC, "THANKYOU.DOC"},
	{F_LETTERS, K_DOC, "OFFER.DOC"}, {F_LETTERS, K_DOC, "REMINDER.DOC"},
	{F_LETTERS, K_DOC, "INVITE.DOC"}, {F_LETTERS, K_DOC, "REFERENC.DOC"},
	{F_LETTERS, K_DOC, "WELCOME.DOC"}, {F_LETTERS, K_DOC, "RENEWAL.DOC"},
	{F_MINUTES, K_DOC, "MTG0108.DOC"}, {F_MINUTES, K_DOC, "MTG0115.DOC"},
	{F_MINUTES, K_DOC, "MTG0122.DOC"}, {F_MINUTES, K_DOC, "MTG0129.DOC"},
	{F_MINUTES, K_DOC, "MTG0205.DOC"}, {F_MINUTES, K_DOC, "BOARD_Q4.DOC"},
	{F_SHEETS, K_XLS, "SALES.XLS"}, {F_SHEETS, K_XLS, "PAYROLL.XLS"},
	{F_SHEETS, K_XLS, "INVENTRY.XLS"}, {F_SHEETS, K_XLS, "TIMESHT.XLS"},
	{F_SHEETS, K_XLS, "EXPENSES.XLS"}, {F_SHEETS, K_XLS, "CONTACTS.XLS"},
	{F_SHEETS, K_XLS, "ROTA.XLS"},
	{F_BUDGET, K_XLS, "BUDGQ1.XLS"}, {F_BUDGET, K_XLS, "BUDGQ2.XLS"},
	{F_BUDGET, K_XLS, "BUDGQ3.XLS"}, {F_BUDGET, K_XLS, "FORECAST.XLS"},
	{F_BUDGET, K_XLS, "CAPEX.XLS"},
	{F_SLIDES, K_PPT, "KICKOFF.PPT"}, {F_SLIDES, K_PPT, "QREVIEW.PPT"},
	{F_SLIDES, K_PPT, "PRODUCT.PPT"}, {F_SLIDES, K_PPT, "ALLHANDS.PPT"},
	{F_MAIL, K_MBX, "INBOX.MBX"}, {F_MAIL, K_IDX, "INBOX.IDX"},
	{F_MAIL, K_MBX, "SENT.MBX"}, {F_MAIL, K_IDX, "SENT.IDX"},
	{F_SHARED, K_PDF, "CATALOG.PDF"}, {F_SHARED, K_PDF, "PRICELST.PDF"},
	{F_SHARED, K_PDF, "ORGCHART.PDF"}, {F_SHARED, K_PDF, "FLOORPLN.PDF"},
	{F_SHARED, K_BMP, "LOGO.BMP"},
	{F_TEMPLATES, K_DOT, "NORMAL.DOT"}, {F_TEMPLATES, K_DOT, "LETTER.DOT"},
	{F_TEMPLATES, K_DOT, "MEMO.DOT"}, {F_TEMPLATES, K_DOT, "FAX.DOT"},
};
#define NSEED (sizeof(seed_files) / sizeof(seed_files[0]))

/* Names that Explorer and Office look for and never find. */
static const char *const never_there[] = {
	"DESKTOP.INI", "THUMBS.DB", "FOLDER.JPG", "AUTORUN.INF", "INDEX.DAT",
};
static const char *const no_match[] = {
	"*.BAK", "*.LNK", "~*.TMP", "*.OLD", "*.WBK", "*.ASD",
};

#define MAX_FILES 4096
#define MAX_HANDLES 64
#define DESK_MAX 10	/* documents left open in the background */

struct file {
	char name[16];
	int folder;
	enum kind kind;
	bool exists;
	int64_t size;
	int opens;		/* handles open on it */
};

static struct file files[MAX_FILES];
static int nfiles;

struct handle {
	int fnum;
	int file;
};

static struct handle handles[MAX_HANDLES];
static int nhandles, max_handles;
static int next_fnum = 1001;

static int desk[DESK_MAX];	/* fnums of background documents */
static int ndesk;

static int made[64];		/* files created during the day (to tidy) */
static int nmade;

static unsigned temp_serial;	/* ~WRDnnnn.TMP and friends */

/* Bookkeeping for --summary and the line target. */
enum op { NTCREATEX, CLOSE, RENAME, UNLINK, DELTREE, MKDIR, QPATHINFO, QFILEINFO,
	  QFSINFO, SFILEINFO, FINDFIRST, WRITEX, READX, LOCKX, UNLOCKX, FLUSH, NOPS };
static const char *const op_name[NOPS] = {
	"NTCreateX", "Close", "Rename", "Unlink", "Deltree", "Mkdir",
	"QUERY_PATH_INFORMATION", "QUERY_FILE_INFORMATION", "QUERY_FS_INFORMATION",
	"SET_FILE_INFORMATION", "FIND_FIRST", "WriteX", "ReadX", "LockX", "UnlockX",
	"Flush",
};
static uint64_t op_count[NOPS], lines, bytes_read, bytes_written;
static int64_t disk_now, disk_peak;

static _Noreturn void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("genload: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static void emit(enum op op, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	op_count[op]++;
	lines++;
}

static const char *status(bool ok, const char *failure)
{
	return ok ? "NT_STATUS_OK" : failure;
}

/* "\clients\client1\office\docs" */
static const char *folder_path(int d)
{
	static char buf[128];

	snprintf(buf, sizeof(buf), CLIENT "\\%s", folders[d].path);
	return buf;
}

static const char *file_path(int f)
{
	static char buf[160];

	snprintf(buf, sizeof(buf), CLIENT "\\%s\\%s", folders[files[f].folder].path,
		 files[f].name);
	return buf;
}

/* The model's entry for a name in a folder, made (absent) on first use. */
static int file_at(int folder, const char *name, enum kind kind)
{
	int f;

	for (f = 0; f < nfiles; f++)
		if (files[f].folder == folder && strcmp(files[f].name, name) == 0)
			return f;
	if (strlen(name) >= sizeof(files[0].name))
		die("name too long: %s", name);
	if (nfiles < MAX_FILES) {
		f = nfiles++;
	} else {
		/* table full: forget an absent name, oldest first; absent is
		 * what the model assumes of any name it does not know */
		static int cursor;

		for (int tries = 0;; tries++, cursor = (cursor + 1) % MAX_FILES) {
			if (tries == MAX_FILES)
				die("too many files");
			if (!files[cursor].exists && !files[cursor].opens)
				break;
		}
		f = cursor;
		cursor = (cursor + 1) % MAX_FILES;
	}
	memset(&files[f], 0, sizeof(files[f]));
	strcpy(files[f].name, name);
	files[f].folder = folder;
	files[f].kind = kind;
	return f;
}

static void set_size(int f, int64_t size)
{
	disk_now += size - files[f].size;
	files[f].size = size;
	if (disk_now > disk_peak)
		disk_peak = disk_now;
}

/* A name like ~WRD00A1.TMP, new each time. */
static int temp_file(int folder, const char *prefix)
{
	char name[16];

	snprintf(name, sizeof(name), "%s%04X.TMP", prefix, ++temp_serial & 0xffff);
	return file_at(folder, name, K_TMP);
}

/* Office's owner file for an open document: ~$ and the name less two. */
static int owner_file(int f)
{
	char name[16];

	snprintf(name, sizeof(name), "~$%s", files[f].name + 2);
	return file_at(files[f].folder, name, K_TMP);
}

static struct handle *handle_of(int fnum)
{
	for (int i = 0; i < nhandles; i++)
		if (handles[i].fnum == fnum)
			return &handles[i];
	die("fnum %d is not open", fnum);
}

static int64_t handle_size(int fnum)
{
	return files[handle_of(fnum)->file].size;
}

/* ------------------------------------------------------------------ */
/* One function per operation.  Each derives its status from the model. */

/* Open or create a file; returns the fnum, or -1 when the model says it fails. */
static int ntcreatex(int f, int disposition)
{
	struct file *fp = &files[f];
	int fnum = next_fnum++;
	bool ok;

	switch (disposition) {
	case 1:		/* FILE_OPEN */
		ok = fp->exists;
		break;
	case 2:		/* FILE_CREATE: callers only create what is absent */
		if (fp->exists)
			die("create of existing %s", file_path(f));
		ok = true;
		break;
	case 5:		/* FILE_OVERWRITE_IF */
		ok = true;
		break;
	default:
		die("disposition %d", disposition);
	}
	emit(NTCREATEX, "NTCreateX \"%s\" 0x40 0x%x %d %s", file_path(f), disposition, fnum,
	     status(ok, "NT_STATUS_OBJECT_NAME_NOT_FOUND"));
	if (!ok)
		return -1;
	if (!fp->exists)
		fp->size = 0;
	fp->exists = true;
	if (disposition == 5)
		set_size(f, 0);
	fp->opens++;
	if (nhandles == MAX_HANDLES)
		die("too many handles");
	handles[nhandles].fnum = fnum;
	handles[nhandles].file = f;
	nhandles++;
	if (nhandles > max_handles)
		max_handles = nhandles;
	return fnum;
}

static void close_handle(int fnum)
{
	struct handle *h = handle_of(fnum);

	files[h->file].opens--;
	*h = handles[--nhandles];
	emit(CLOSE, "Close %d NT_STATUS_OK", fnum);
}

static void mkdir_folder(int d)
{
	int fnum = next_fnum++;

	emit(NTCREATEX, "NTCreateX \"%s\" 0x1 0x2 %d NT_STATUS_OK", folder_path(d), fnum);
	emit(CLOSE, "Close %d NT_STATUS_OK", fnum);
}

static void qpathinfo(int f, int level)
{
	emit(QPATHINFO, "QUERY_PATH_INFORMATION \"%s\" %d %s", file_path(f), level,
	     status(files[f].exists, "NT_STATUS_OBJECT_NAME_NOT_FOUND"));
}

static void qpathinfo_folder(int d, int level)
{
	emit(QPATHINFO, "QUERY_PATH_INFORMATION \"%s\" %d NT_STATUS_OK", folder_path(d), level);
}

static void qfileinfo(int fnum, int level)
{
	handle_of(fnum);
	emit(QFILEINFO, "QUERY_FILE_INFORMATION %d %d NT_STATUS_OK", fnum, level);
}

static void sfileinfo(int fnum)
{
	handle_of(fnum);
	emit(SFILEINFO, "SET_FILE_INFORMATION %d 1004 NT_STATUS_OK", fnum);
}

static void qfsinfo(void)
{
	static const unsigned w[] = {1, 2, 17};
	static const int level[] = {1, 3, 259};

	emit(QFSINFO, "QUERY_FS_INFORMATION %d NT_STATUS_OK", level[pick(w, 3)]);
}

static void flush(int fnum)
{
	handle_of(fnum);
	emit(FLUSH, "Flush %d NT_STATUS_OK", fnum);
}

static void readx(int fnum, int64_t off, int64_t size)
{
	if (size <= 0 || off < 0 || off + size > handle_size(fnum))
		die("read %" PRId64 "+%" PRId64 " past the end of %d", off, size, fnum);
	emit(READX, "ReadX %d %" PRId64 " %" PRId64 " %" PRId64 " NT_STATUS_OK", fnum, off, size,
	     size);
	bytes_read += (uint64_t)size;
}

static void writex(int fnum, int64_t off, int64_t size)
{
	int f = handle_of(fnum)->file;

	emit(WRITEX, "WriteX %d %" PRId64 " %" PRId64 " %" PRId64 " NT_STATUS_OK", fnum, off, size,
	     size);
	bytes_written += (uint64_t)size;
	if (off + size > files[f].size)
		set_size(f, off + size);
}

static void lockx(int fnum, int64_t off, int64_t len)
{
	handle_of(fnum);
	emit(LOCKX, "LockX %d %" PRId64 " %" PRId64 " NT_STATUS_OK", fnum, off, len);
}

static void unlockx(int fnum, int64_t off, int64_t len)
{
	handle_of(fnum);
	emit(UNLOCKX, "UnlockX %d %" PRId64 " %" PRId64 " NT_STATUS_OK", fnum, off, len);
}

static void unlink_file(int f)
{
	if (!files[f].exists || files[f].opens)
		die("unlink of absent or open %s", file_path(f));
	emit(UNLINK, "Unlink \"%s\" 0x6 NT_STATUS_OK", file_path(f));
	set_size(f, 0);
	files[f].exists = false;
}

static void rename_file(int from, int to)
{
	char old[160];

	if (!files[from].exists || files[from].opens || files[to].exists)
		die("bad rename %s", file_path(from));
	snprintf(old, sizeof(old), "%s", file_path(from));
	emit(RENAME, "Rename \"%s\" \"%s\" NT_STATUS_OK", old, file_path(to));
	files[to].exists = true;
	files[to].size = files[from].size;
	files[from].exists = false;
	files[from].size = 0;
}

/* Does a name match a pattern of * and ? (ASCII, case as written)? */
static bool glob(const char *pat, const char *name)
{
	if (*pat == '\0')
		return *name == '\0';
	if (*pat == '*')
		return glob(pat + 1, name) || (*name && glob(pat, name + 1));
	if (*name && (*pat == '?' || *pat == *name))
		return glob(pat + 1, name + 1);
	return false;
}

/* List a folder; the count is what readdir would find, "." and ".." included. */
static void find_first(int d, const char *pattern)
{
	int n = glob(pattern, ".") + glob(pattern, "..");

	for (int i = 0; i < NFOLDERS; i++)
		if (folders[i].parent == d && glob(pattern, strrchr(folders[i].path, '\\') + 1))
			n++;
	for (int f = 0; f < nfiles; f++)
		if (files[f].folder == d && files[f].exists && glob(pattern, files[f].name))
			n++;
	emit(FINDFIRST, "FIND_FIRST \"%s\\%s\" 260 1366 %d %s", folder_path(d), pattern, n,
	     status(n > 0, "NT_STATUS_NO_SUCH_FILE"));
}

/* ------------------------------------------------------------------ */
/* Building blocks of the day.                                         */

static int64_t new_size(enum kind k)
{
	return between(kind_size[k].lo, kind_size[k].hi);
}

/* Scattered reads as an application pages through a document. */
static void read_scattered(int fnum, int n)
{
	static const unsigned w[] = {66, 6, 5, 4, 3, 3, 2, 8, 3};
	static const int64_t sz[] = {4096, 8192, 2048, 1024, 512, 16384, 32768, 0, 65536};

	while (n-- > 0) {
		int64_t fsize = handle_size(fnum), size, off;

		size = sz[pick(w, 9)];
		if (size == 0)	/* a small record: a header field, a table entry */
			size = between(8, 600);
		if (size > fsize)
			size = fsize;
		if (size <= 0)
			return;
		off = between(0, fsize - size);
		if (chance(60))
			off &= ~(int64_t)511;
		readx(fnum, off, size);
	}
}

/* Sequential reads from the start, as when a whole file is loaded or copied. */
static void read_sequential(int fnum, int64_t chunk, int64_t limit)
{
	int64_t fsize = handle_size(fnum), off;

	if (limit > fsize)
		limit = fsize;
	for (off = 0; off < limit; off += chunk)
		readx(fnum, off, off + chunk <= limit ? chunk : limit - off);
}

/* Write a whole file's contents: a 1-byte write to set the final size
 * first (as Explorer and Office do), then chunks from the start. */
static void write_contents(int fnum, int64_t size, int64_t chunk)
{
	int64_t off;

	writex(fnum, size - 1, 1);
	qfileinfo(fnum, 258);
	for (off = 0; off < size; off += chunk)
		writex(fnum, off, off + chunk <= size ? chunk : size - off);
}

/* A file that exists, is of one of the kinds, and has no open handle
 * (when idle is set); -1 if there is none. */
static int choose_file(const enum kind *kinds, int nk, bool idle)
{
	int cand[MAX_FILES], n = 0;

	for (int f = 0; f < nfiles; f++) {
		if (!files[f].exists || (idle && files[f].opens))
			continue;
		for (int k = 0; k < nk; k++)
			if (files[f].kind == kinds[k])
				cand[n++] = f;
	}
	return n ? cand[below((uint32_t)n)] : -1;
}

/* A file that exists in folder d; -1 if there is none. */
static int file_in(int d)
{
	int cand[MAX_FILES], n = 0;

	for (int f = 0; f < nfiles; f++)
		if (files[f].exists && files[f].folder == d)
			cand[n++] = f;
	return n ? cand[below((uint32_t)n)] : -1;
}

static void desk_push(int fnum)
{
	desk[ndesk++] = fnum;
}

static int desk_take(int i)
{
	int fnum = desk[i];

	desk[i] = desk[--ndesk];
	return fnum;
}

/* Remember a file made today; when the list is long, the oldest goes. */
static void tidy_one(void);
static void remember(int f)
{
	if (nmade == (int)(sizeof(made) / sizeof(made[0])))
		tidy_one();
	if (nmade == (int)(sizeof(made) / sizeof(made[0])))
		die("too many files made");
	made[nmade++] = f;
}

/* Delete a file made earlier today, as Explorer does: look, look, delete. */
static void tidy_one(void)
{
	for (int i = 0; i < nmade; i++) {
		int f = made[i];

		if (files[f].opens)
			continue;
		memmove(&made[i], &made[i + 1], (size_t)(nmade - i - 1) * sizeof(made[0]));
		nmade--;
		if (!files[f].exists)
			return;
		qpathinfo(f, 1004);
		qpathinfo(f, 1035);
		unlink_file(f);
		return;
	}
}

/* Rename a file made today, in Explorer: is the new name free?  Then
 * rename and list the folder again. */
static void rename_made(int f)
{
	int g;
	char name[16];

	if (!files[f].exists || files[f].opens)
		return;
	snprintf(name, sizeof(name), "R%07u%s", (unsigned)between(0, 9999999),
		 strchr(files[f].name, '.'));
	g = file_at(files[f].folder, name, files[f].kind);
	if (files[g].exists)
		return;
	qpathinfo(g, 1004);
	rename_file(f, g);
	for (int i = 0; i < nmade; i++)
		if (made[i] == f)
			made[i] = g;
	find_first(files[g].folder, "*");
}

/* ------------------------------------------------------------------ */
/* Activities.                                                         */

/* Open a document, read around in it, close it or leave it open. */
static void view_document(void)
{
	static const enum kind kinds[] = {K_DOC, K_DOC, K_XLS, K_PDF, K_TXT, K_PPT};
	int f = choose_file(kinds, 6, false), fnum;

	if (f < 0)
		return;
	if (chance(40))
		qfsinfo();
	qpathinfo(f, 1004);
	if (chance(40))
		qpathinfo(f, 1035);
	if (files[f].kind != K_PDF && chance(20))
		ntcreatex(owner_file(f), 1);	/* is someone editing it? */
	fnum = ntcreatex(f, 1);
	if (chance(30))
		qfileinfo(fnum, chance(70) ? 1004 : 1005);
	if (files[f].kind == K_PPT && chance(40))
		read_sequential(fnum, 61440, between(2, 6) * 61440);
	read_scattered(fnum, (int)between(2, 10));
	if (ndesk < DESK_MAX && chance(45))
		desk_push(fnum);
	else
		close_handle(fnum);
}

/* A fast save: changed pieces written in place or appended, made durable. */
static void quick_save(int fnum)
{
	static const unsigned w[] = {70, 12, 10, 8};
	static const int64_t sz[] = {4096, 2048, 512, 8192};

	for (int n = (int)between(1, 5); n > 0; n--) {
		int64_t size = sz[pick(w, 4)], fsize = handle_size(fnum);

		if (chance(70))
			writex(fnum, between(0, (fsize - size) / 512) * 512, size);
		else
			writex(fnum, fsize, size);
	}
	flush(fnum);
	if (chance(30))
		sfileinfo(fnum);
}

/* Come back to a document left open: read more, perhaps close it. */
static void desk_work(void)
{
	int i, fnum;

	if (ndesk == 0) {
		view_document();
		return;
	}
	i = (int)below((uint32_t)ndesk);
	fnum = desk[i];
	if (chance(10))
		qfileinfo(fnum, 1004);
	read_scattered(fnum, (int)between(2, 10));
	if (chance(40) && handle_size(fnum) >= 16384)
		quick_save(fnum);
	if (chance(25)) {
		desk_take(i);
		close_handle(fnum);
	}
}

/* Save a document through a temporary file: write the temporary, delete
 * the original, rename the temporary into place.  fnum is the original's
 * handle; the new handle on the saved file is returned. */
static int save_via_temp(int f, int fnum, const char *prefix)
{
	int t = temp_file(files[f].folder, prefix), th;
	enum kind k = files[f].kind;
	int64_t size = files[f].size + between(-8, 8) * 1024;

	if (size < kind_size[k].lo)
		size = kind_size[k].lo;
	if (size > kind_size[k].hi)
		size = kind_size[k].hi;
	qfsinfo();
	if (chance(20))
		qpathinfo(t, 1004);
	th = ntcreatex(t, 2);
	write_contents(th, size, k == K_TXT ? 4096 : 65536);
	flush(th);
	sfileinfo(th);
	close_handle(th);
	close_handle(fnum);
	qpathinfo(f, 1004);
	qpathinfo(f, 1035);
	if (k == K_XLS && chance(60)) {
		/* Excel keeps the old copy as a backup until the rename is done */
		int b = temp_file(files[f].folder, "~XLB");

		rename_file(f, b);
		rename_file(t, f);
		qpathinfo(b, 1004);
		unlink_file(b);
	} else {
		unlink_file(f);
		rename_file(t, f);
	}
	fnum = ntcreatex(f, 1);
	readx(fnum, 0, 4096 < files[f].size ? 4096 : files[f].size);
	return fnum;
}

/* Open a document for editing, work in it, save once or twice, close. */
static void edit_document(void)
{
	static const enum kind kinds[] = {K_DOC, K_DOC, K_DOC, K_XLS, K_TXT, K_TXT};
	int f = choose_file(kinds, 6, true), o, ofnum, fnum, saves, n;
	bool locked = false;

	if (f < 0)
		return;
	qpathinfo(f, 1004);
	o = owner_file(f);
	fnum = ntcreatex(f, 1);
	if (chance(50))
		qfileinfo(fnum, 1004);
	read_scattered(fnum, (int)between(2, 8));
	/* claim the document: ~$NAME, open it first to see that nobody has */
	qpathinfo(o, 1004);
	if (chance(50))
		ntcreatex(o, 1);
	ofnum = ntcreatex(o, 2);
	writex(ofnum, 0, 162);
	close_handle(ofnum);
	if (files[f].kind == K_XLS && chance(20)) {
		lockx(fnum, 0, 1);
		locked = true;
	}
	for (saves = chance(25) ? 2 : 1; saves > 0; saves--) {
		read_scattered(fnum, (int)between(2, 8));
		/* Excel rewrites changed cells' blocks in place */
		for (n = files[f].kind == K_XLS ? (int)between(0, 2) : 0; n > 0; n--)
			writex(fnum, between(0, files[f].size / 4096 - 1) * 4096, 4096);
		if (locked) {
			unlockx(fnum, 0, 1);
			locked = false;
		}
		fnum = save_via_temp(f, fnum, files[f].kind == K_XLS ? "~XLS" : "~WRD");
	}
	close_handle(fnum);
	qpathinfo(o, 1004);
	unlink_file(o);
}

/* A new document from a template, saved under a new name. */
static void new_document(void)
{
	static const int where[] = {F_DOCS, F_LETTERS, F_MINUTES};
	static const enum kind kinds[] = {K_DOT};
	int tpl = choose_file(kinds, 1, false), d = where[below(3)], f, fnum;
	char name[16];

	if (tpl < 0)
		return;
	fnum = ntcreatex(tpl, 1);
	read_scattered(fnum, (int)between(3, 10));
	close_handle(fnum);
	snprintf(name, sizeof(name), "DOC%05u.DOC", (unsigned)between(0, 99999));
	f = file_at(d, name, K_DOC);
	if (files[f].exists)
		return;
	find_first(d, name);
	qpathinfo(f, 1004);
	if (chance(60))
		ntcreatex(f, 1);
	fnum = ntcreatex(f, 2);
	write_contents(fnum, new_size(K_DOC) / 2, 65536);
	sfileinfo(fnum);
	close_handle(fnum);
	remember(f);
	if (chance(30))
		rename_made(f);
}

/* Browse a folder in Explorer or a file dialog. */
static void browse_folder(void)
{
	int d = (int)below(NFOLDERS), n, f;
	unsigned i;

	if (chance(20))
		qpathinfo_folder(d, 1004);
	find_first(d, "*");
	if (chance(10))
		qpathinfo(file_at(d, never_there[below(5)], K_TMP), 1004);
	i = below(6);
	find_first(d, no_match[i]);
	if (chance(30))
		find_first(d, no_match[(i + 1 + below(5)) % 6]);
	for (n = (int)between(0, 1); n > 0; n--) {
		f = file_in(d);
		if (f < 0)
			break;
		qpathinfo(f, 1004);
		if (chance(30))
			qpathinfo(f, 1035);
	}
	if (chance(40))
		qfsinfo();
}

/* Print a document: the spooler's file is made, written, closed, deleted. */
static void print_document(void)
{
	static const enum kind kinds[] = {K_DOC, K_XLS, K_PPT};
	int f = choose_file(kinds, 3, false), p, fnum;
	int64_t size;
	char name[16];

	if (f < 0)
		return;
	snprintf(name, sizeof(name), "%.*s.PRN", (int)strcspn(files[f].name, "."),
		 files[f].name);
	p = file_at(files[f].folder, name, K_TMP);
	if (files[p].exists)
		return;
	qpathinfo(p, 1004);
	ntcreatex(p, 1);
	fnum = ntcreatex(p, 2);
	close_handle(fnum);
	qpathinfo(p, 1004);
	qpathinfo(p, 1035);
	unlink_file(p);
	if (chance(50))
		ntcreatex(p, 1);
	fnum = ntcreatex(p, 2);
	size = between(4 * KiB, 40 * KiB);
	for (int64_t off = 0; off < size; off += 65536)
		writex(fnum, off, off + 65536 <= size ? 65536 : size - off);
	close_handle(fnum);
	qpathinfo(p, 1004);
	unlink_file(p);
}

/* Read mail: the index and the mailbox, now and then a message filed. */
static void mail_session(void)
{
	int box = chance(75) ? 0 : 1;
	int mf = file_at(F_MAIL, box ? "SENT.MBX" : "INBOX.MBX", K_MBX);
	int xf = file_at(F_MAIL, box ? "SENT.IDX" : "INBOX.IDX", K_IDX);
	int m, x, n;
	bool lock = chance(12);

	qpathinfo(mf, 1004);
	x = ntcreatex(xf, 1);
	m = ntcreatex(mf, 1);
	if (lock)
		lockx(m, 0, 1);
	read_sequential(x, 4096, between(1, 4) * 4096);
	for (n = (int)between(1, 5); n > 0; n--) {
		int64_t off = between(0, files[mf].size - 4 * 4096);

		readx(m, off, 4096);
		readx(m, off + 4096, chance(50) ? 4096 : 2048);
		if (chance(30))
			readx(m, off + 8192, 8192);
	}
	if (chance(40)) {
		/* a message arrives: appended to the mailbox, then to the index */
		int64_t len = between(1, 5) * 4096 + between(100, 4000), end = files[mf].size;

		for (int64_t o = 0; o < len; o += 4096)
			writex(m, end + o, o + 4096 <= len ? 4096 : len - o);
		flush(m);
		writex(x, files[xf].size, 64);
		flush(x);
	}
	if (lock)
		unlockx(m, 0, 1);
	close_handle(m);
	close_handle(x);
	if (chance(10)) {
		/* the mail program compacts the index: rewritten from scratch */
		x = ntcreatex(xf, 5);
		write_contents(x, new_size(K_IDX), 4096);
		flush(x);
		close_handle(x);
	}
}

/* Copy a file from the shared folder to the user's documents. */
static void copy_from_shared(void)
{
	static const enum kind kinds[] = {K_PDF, K_BMP};
	int src = choose_file(kinds, 2, false), dst, in, out;
	char name[16];
	int64_t off, size;

	if (src < 0)
		return;
	snprintf(name, sizeof(name), "CP%06u%s", (unsigned)between(0, 999999),
		 strchr(files[src].name, '.'));
	dst = file_at(F_DOCS, name, files[src].kind);
	if (files[dst].exists)
		return;
	qpathinfo(src, 1004);
	qpathinfo(dst, 1004);
	in = ntcreatex(src, 1);
	out = ntcreatex(dst, 2);
	size = files[src].size;
	writex(out, size - 1, 1);
	qfileinfo(out, 258);
	for (off = 0; off < size; off += 65536) {
		int64_t n = off + 65536 <= size ? 65536 : size - off;

		readx(in, off, n);
		writex(out, off, n);
	}
	sfileinfo(out);
	close_handle(out);
	close_handle(in);
	remember(dst);
	rename_made(dst);
}

/* A temporary scratch file (an autosave, a clipboard dump), soon deleted. */
static void scratch_file(void)
{
	int d = (int)between(F_DOCS, F_SHEETS), t = temp_file(d, "~DF"), fnum;

	if (chance(15))
		qpathinfo(t, 1004);
	fnum = ntcreatex(t, 2);
	if (chance(40))
		write_contents(fnum, new_size(K_TMP), 4096);
	close_handle(fnum);
	if (chance(30))
		qpathinfo(t, 1004);
	unlink_file(t);
}

/* Recent-files list and shortcuts: some of them are gone. */
static void stale_lookups(void)
{
	int d = (int)between(F_DOCS, F_SHARED), f;
	char name[16];

	snprintf(name, sizeof(name), "OLD%05u.DOC", (unsigned)between(0, 99999));
	f = file_at(d, name, K_DOC);
	if (files[f].exists)
		return;
	if (chance(30))
		qpathinfo(f, 1004);
	ntcreatex(f, 1);
	if (chance(10))
		emit(QPATHINFO, "QUERY_PATH_INFORMATION \"" CLIENT "\\office\\archive\\%s\" 1004 "
		     "NT_STATUS_OBJECT_PATH_NOT_FOUND", name);
}

/* Explorer fetches a file's icon and properties: open, query, close. */
static void inspect(void)
{
	static const enum kind kinds[] = {K_DOC, K_XLS, K_PPT, K_PDF, K_TXT, K_DOT, K_BMP};
	int f = choose_file(kinds, 7, false), fnum;

	if (f < 0)
		return;
	if (chance(45))
		qpathinfo(f, 1004);
	fnum = ntcreatex(f, 1);
	if (chance(10))
		qfileinfo(fnum, chance(50) ? 1004 : 1005);
	if (chance(30))
		readx(fnum, 0, between(64, 1024));
	if (chance(10))
		sfileinfo(fnum);
	close_handle(fnum);
}

/* A status check: free space and a few attributes. */
static void glance(void)
{
	static const enum kind kinds[] = {K_DOC, K_XLS, K_PPT, K_PDF, K_DOT, K_MBX};
	int f;

	if (chance(40))
		qfsinfo();
	for (int n = (int)between(1, 2); n > 0; n--) {
		f = choose_file(kinds, 6, false);
		if (f < 0)
			break;
		qpathinfo(f, 1004);
		if (chance(50))
			qpathinfo(f, 1035);
	}
	if (ndesk && chance(30))
		qfileinfo(desk[below((uint32_t)ndesk)], 1004);
}

/* ------------------------------------------------------------------ */

/* Make the tree and put the day's starting files in place. */
static void morning(void)
{
	int fnum = next_fnum++;

	emit(DELTREE, "Deltree \"" CLIENT "\" NT_STATUS_OK");
	emit(MKDIR, "Mkdir \"\\clients\" NT_STATUS_OK");
	emit(NTCREATEX, "NTCreateX \"" CLIENT "\" 0x1 0x2 %d NT_STATUS_OK", fnum);
	emit(CLOSE, "Close %d NT_STATUS_OK", fnum);
	emit(QPATHINFO, "QUERY_PATH_INFORMATION \"" CLIENT "\\office\" 1004 "
	     "NT_STATUS_OBJECT_NAME_NOT_FOUND");
	emit(FINDFIRST, "FIND_FIRST \"" CLIENT "\\*.INI\" 260 1366 0 NT_STATUS_NO_SUCH_FILE");
	for (int d = 0; d < NFOLDERS; d++)
		mkdir_folder(d);
	qfsinfo();
	for (unsigned i = 0; i < NSEED; i++) {
		int f = file_at(seed_files[i].folder, seed_files[i].name, seed_files[i].kind);

		fnum = ntcreatex(f, 2);
		write_contents(fnum, new_size(files[f].kind), 65536);
		sfileinfo(fnum);
		close_handle(fnum);
	}
}

static void evening(void)
{
	while (ndesk)
		close_handle(desk_take(ndesk - 1));
	if (nhandles)
		die("%d handles left open", nhandles);
	emit(DELTREE, "Deltree \"" CLIENT "\" NT_STATUS_OK");
}

/*
 * The day: activities drawn at random by weight until the line target is
 * reached.  The weights were tuned, with the activities' own odds, so that
 * the mix of operations matches client.txt's (see tools/README).
 */
static void day(uint64_t target)
{
	static const struct {
		void (*run)(void);
		unsigned weight;
	} activities[] = {
		{view_document, 53},
		{desk_work, 110},
		{edit_document, 45},
		{new_document, 6},
		{browse_folder, 220},
		{print_document, 35},
		{mail_session, 45},
		{copy_from_shared, 2},
		{scratch_file, 85},
		{stale_lookups, 45},
		{glance, 90},
		{tidy_one, 4},
		{inspect, 640},
	};
	enum { N = sizeof(activities) / sizeof(activities[0]) };
	unsigned weight[N];

	for (unsigned i = 0; i < N; i++)
		weight[i] = activities[i].weight;
	while (lines < target)
		activities[pick(weight, N)].run();
}

static uint64_t number(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	if (*s == '\0' || *s == '-' || *end != '\0')
		die("not a number: %s", s);
	return v;
}

int main(int argc, char **argv)
{
	uint64_t seed = DEFAULT_SEED, target = DEFAULT_LINES;
	bool summary = false;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
			seed = number(argv[++i]);
		else if (strcmp(argv[i], "--lines") == 0 && i + 1 < argc)
			target = number(argv[++i]);
		else if (strcmp(argv[i], "--summary") == 0)
			summary = true;
		else {
			fprintf(stderr, "usage: %s [--seed N] [--lines N] [--summary]\n", argv[0]);
			return 2;
		}
	}
	rng_state = seed;

	printf("# dbench default workload: one client's office file-server day.\n"
	       "# Generated by tools/genload.c with seed %" PRIu64 " and a target of %" PRIu64
	       " lines; do not edit.\n"
	       "# Regenerate: cc -std=c11 -O2 -o tools/genload tools/genload.c && "
	       "tools/genload", seed, target);
	if (seed != DEFAULT_SEED)
		printf(" --seed %" PRIu64, seed);
	if (target != DEFAULT_LINES)
		printf(" --lines %" PRIu64, target);
	printf(" > loadfiles/default.txt\n");
	morning();
	day(target);
	evening();

	if (summary) {
		for (int i = 0; i < NOPS; i++)
			fprintf(stderr, "%-24s %6" PRIu64 " %3" PRIu64 ".%02" PRIu64 "%%\n", op_name[i],
				op_count[i], op_count[i] * 100 / lines,
				op_count[i] * 10000 / lines % 100);
		fprintf(stderr, "lines %" PRIu64 ", read %" PRIu64 ", written %" PRIu64
			", peak on disk %" PRId64 ", max handles %d\n", lines, bytes_read,
			bytes_written, disk_peak, max_handles);
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		die("write error");
	return 0;
}
