/*
 * test_env.c - the environment record (env.h) and the parsers behind it
 * (src/host/env_internal.h), specified by example.
 *
 * The parsers are fed fixture text: mountinfo lines as the kernel writes
 * them, cpuinfo from x86, ARM and MIPS, meminfo, queue/scheduler.  Queue
 * reading runs on a fake sysfs tree built in a mkdtemp directory.  Last,
 * env_capture() runs for real on "." and must return every key with the
 * right JSON type.  Each test has its own talloc context, and the tests
 * that allocate check that only the result is left on it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fixture.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <talloc.h>

#include "jsontext.h"
#include "env.h"
#include "host/env_internal.h"

/* ---- fixture ---- */

#define setup fixture_setup
#define teardown fixture_teardown
#define ctx_of fixture_ctx
#define scratch_dir(state) fixture_scratch_dir((state), "test_env")

/* Writes TEXT to SCRATCH/NAME, making SCRATCH/DIRNAME(NAME) first. */
static void write_file(void **state, const char *name, const char *text)
{
	char *path = talloc_asprintf(ctx_of(state), "%s/%s", scratch_dir(state), name);
	char *slash = strrchr(path, '/');
	FILE *fp;

	*slash = '\0';
	for (char *p = path + strlen(scratch_dir(state)) + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	}
	mkdir(path, 0755);
	*slash = '/';
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
}

/* Only RESULT (and its children) is left on the test's context. */
static void assert_only_result_left(void **state, const void *result)
{
	assert_int_equal(talloc_total_blocks(ctx_of(state)),
			 1 + (result ? talloc_total_blocks(result) : 0));
}

/* ---- mountinfo lines ---- */

static void parses_the_fields_of_a_mountinfo_line(void **state)
{
	struct env_mount *m = env_mountinfo_parse_line(ctx_of(state),
		"27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard,resuid=65534\n");

	assert_non_null(m);
	assert_int_equal(m->major, 254);
	assert_int_equal(m->minor, 0);
	assert_string_equal(m->root, "/");
	assert_string_equal(m->mount_point, "/");
	assert_string_equal(m->vfs_options, "rw,relatime");
	assert_string_equal(m->fstype, "ext4");
	assert_string_equal(m->source, "/dev/vda");
	assert_string_equal(m->fs_options, "rw,discard,resuid=65534");
}

static void skips_optional_fields_before_the_separator(void **state)
{
	/* The example in proc(5), with one more optional field. */
	struct env_mount *m = env_mountinfo_parse_line(ctx_of(state),
		"36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 shared:7 - ext3 /dev/root rw,errors=continue");

	assert_non_null(m);
	assert_int_equal(m->major, 98);
	assert_string_equal(m->root, "/mnt1");
	assert_string_equal(m->mount_point, "/mnt2");
	assert_string_equal(m->vfs_options, "rw,noatime");
	assert_string_equal(m->fstype, "ext3");
	assert_string_equal(m->source, "/dev/root");
	assert_string_equal(m->fs_options, "rw,errors=continue");
}

static void decodes_octal_escapes_in_every_field(void **state)
{
	struct env_mount *m = env_mountinfo_parse_line(ctx_of(state),
		"46 27 0:41 /a\\011b /tmp/a\\040b\\134c rw - tmpfs my\\040src rw,x=a\\054b\n");

	assert_non_null(m);
	assert_string_equal(m->root, "/a\tb");
	assert_string_equal(m->mount_point, "/tmp/a b\\c");
	assert_string_equal(m->source, "my src");
	assert_string_equal(m->fs_options, "rw,x=a,b");
}

static void keeps_a_backslash_that_is_not_an_escape(void **state)
{
	struct env_mount *m = env_mountinfo_parse_line(ctx_of(state),
		"46 27 0:41 / /x\\9y\\04 rw - tmpfs src\\ rw");

	assert_non_null(m);
	assert_string_equal(m->mount_point, "/x\\9y\\04");
	assert_string_equal(m->source, "src\\");
}

static void an_empty_source_is_an_empty_field(void **state)
{
	struct env_mount *m = env_mountinfo_parse_line(ctx_of(state),
		"50 27 0:50 / /x rw,relatime shared:4 - tmpfs  rw,size=4k");

	assert_non_null(m);
	assert_string_equal(m->fstype, "tmpfs");
	assert_string_equal(m->source, "");
	assert_string_equal(m->fs_options, "rw,size=4k");
}

static void rejects_lines_not_in_mountinfo_format(void **state)
{
	const char *bad[] = {
		"",
		"/dev/vda / ext4 rw,relatime 0 0",		/* /proc/mounts */
		"27 1 254:0 / / rw,relatime ext4 /dev/vda rw",	/* no "-" */
		"27 1 254:0 / / rw,relatime - ext4 /dev/vda",	/* no fs options */
		"27 1 254 / / rw - ext4 /dev/vda rw",		/* no minor */
		"x 1 254:0 / / rw - ext4 /dev/vda rw",		/* id not a number */
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_null(env_mountinfo_parse_line(ctx_of(state), bad[i]));
	assert_only_result_left(state, NULL);
}

/* ---- finding the mount that holds a directory ---- */

/* A root fs, a tmpfs on /srv, two bind mounts of parts of the root fs
 * (one under the tmpfs), and two mounts stacked on /stack. */
static const char MOUNTINFO[] =
	"27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
	"22 27 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:5 - proc proc rw\n"
	"40 27 0:40 / /srv rw,relatime - tmpfs tmpfs rw,size=65536k\n"
	"41 40 254:0 /data /srv/b rw,noatime - ext4 /dev/vda rw\n"
	"42 27 254:0 /data/x /srv\\040c rw - ext4 /dev/vda rw\n"
	"43 27 0:43 / /stack rw - tmpfs first rw\n"
	"44 43 0:43 / /stack rw - tmpfs second rw\n";

/* The mount found for MAJ:MIN and PATH is at WANT; the lines that lost
 * were freed. */
static void found(void **state, unsigned maj, unsigned min, const char *path,
		  const char *want)
{
	struct env_mount *m = env_mountinfo_find(ctx_of(state), MOUNTINFO, maj, min, path);

	assert_non_null(m);
	assert_only_result_left(state, m);
	assert_string_equal(m->mount_point, want);
	talloc_free(m);
}

static void finds_the_bind_mount_with_the_longest_prefix(void **state)
{
	found(state, 254, 0, "/srv/b/dir/file", "/srv/b");
	found(state, 254, 0, "/srv/b", "/srv/b");
	found(state, 254, 0, "/srv c/y", "/srv c");
	found(state, 254, 0, "/home/user", "/");
}

static void a_prefix_must_end_at_a_path_component(void **state)
{
	found(state, 254, 0, "/srv/bx", "/");
	found(state, 0, 40, "/srv/bx", "/srv");
}

static void matches_the_device_before_the_prefix(void **state)
{
	/* /srv/b/... on the tmpfs's device is not inside the bind mount. */
	found(state, 0, 40, "/srv/b/z", "/srv");
}

static void the_later_of_two_stacked_mounts_wins(void **state)
{
	struct env_mount *m = env_mountinfo_find(ctx_of(state), MOUNTINFO, 0, 43, "/stack/f");

	assert_non_null(m);
	assert_string_equal(m->source, "second");
	assert_only_result_left(state, m);
}

static void without_a_line_for_the_device_takes_the_longest_prefix(void **state)
{
	/* A btrfs subvolume has an anonymous st_dev of its own. */
	found(state, 0, 99, "/srv/b/sub", "/srv/b");
	found(state, 0, 99, "/proc/1", "/proc");
}

static void finds_nothing_for_a_relative_path_or_empty_table(void **state)
{
	assert_null(env_mountinfo_find(ctx_of(state), MOUNTINFO, 254, 0, "rel/path"));
	assert_null(env_mountinfo_find(ctx_of(state), "", 254, 0, "/"));
	assert_null(env_mountinfo_find(ctx_of(state), "garbage\n", 254, 0, "/"));
	assert_only_result_left(state, NULL);
}

/* ---- what findmnt prints ---- */

static void merge(void **state, const char *vfs, const char *fs, const char *want)
{
	char *got = env_merge_options(ctx_of(state), vfs, fs);

	assert_non_null(got);
	assert_string_equal(got, want);
	assert_only_result_left(state, got);
	talloc_free(got);
}

static void merges_options_like_findmnt(void **state)
{
	merge(state, "rw,relatime", "rw", "rw,relatime");
	merge(state, "rw,noatime", "rw,data=writeback", "rw,noatime,data=writeback");
	merge(state, "rw,relatime", "rw,size=65536k,mode=700", "rw,relatime,size=65536k,mode=700");
	merge(state, "rw,nosuid,nodev", "rw,nosuid,nodev", "rw,nosuid,nodev");
}

static void read_only_on_either_side_makes_ro(void **state)
{
	merge(state, "ro,nosuid,relatime", "ro,size=4k", "ro,nosuid,relatime,size=4k");
	merge(state, "ro,relatime", "rw,discard", "ro,relatime,discard");
	merge(state, "rw,relatime", "ro,errors=remount-ro", "ro,relatime,errors=remount-ro");
	merge(state, "ro", "rw", "ro");
}

static void keeps_commas_inside_quoted_values(void **state)
{
	merge(state, "rw", "rw,context=\"system_u:object_r:tmp_t:s0:c1,c2\",size=4k",
	      "rw,context=\"system_u:object_r:tmp_t:s0:c1,c2\",size=4k");
}

static void one_side_missing_gives_the_other(void **state)
{
	merge(state, NULL, "rw,size=4k", "rw,size=4k");
	merge(state, "rw,relatime", NULL, "rw,relatime");
	assert_null(env_merge_options(ctx_of(state), NULL, NULL));
}

static void source_names_the_root_of_a_bind_mount(void **state)
{
	struct env_mount *m = env_mountinfo_parse_line(ctx_of(state),
		"41 40 254:0 /data /srv/b rw - ext4 /dev/vda rw");

	assert_non_null(m);
	assert_string_equal(env_mount_source(ctx_of(state), m), "/dev/vda[/data]");
	m->root[1] = '\0';
	assert_string_equal(env_mount_source(ctx_of(state), m), "/dev/vda");
}

/* ---- block queue ---- */

static void the_scheduler_is_the_bracketed_word(void **state)
{
	TALLOC_CTX *ctx = ctx_of(state);

	assert_string_equal(env_parse_scheduler(ctx, "[mq-deadline] kyber bfq none\n"), "mq-deadline");
	assert_string_equal(env_parse_scheduler(ctx, "none [mq-deadline] kyber bfq \n"), "mq-deadline");
	assert_string_equal(env_parse_scheduler(ctx, "[none] mq-deadline kyber bfq \n"), "none");
	assert_string_equal(env_parse_scheduler(ctx, "none\n"), "none");
	assert_null(env_parse_scheduler(ctx, ""));
	assert_null(env_parse_scheduler(ctx, "noop deadline\n"));
	assert_null(env_parse_scheduler(ctx, "[] none\n"));
	assert_null(env_parse_scheduler(ctx, "[none\n"));
}

/* A fake sysfs: a disk "sdz" with a queue, its partition "sdz1" without
 * one, and a device "nq" with no queue directory at all. */
static char *fake_sysfs(void **state)
{
	write_file(state, "block/sdz/queue/scheduler", "mq-deadline kyber [bfq] none\n");
	write_file(state, "block/sdz/queue/read_ahead_kb", "128\n");
	write_file(state, "block/sdz/queue/nr_requests", "64\n");
	write_file(state, "block/sdz/queue/rotational", "0\n");
	write_file(state, "block/sdz/sdz1/partition", "1\n");
	write_file(state, "block/nq/dev", "7:9\n");
	return talloc_asprintf(ctx_of(state), "%s/block", scratch_dir(state));
}

static void assert_json_eq(json_t *got, const char *want)
{
	json_t *w = json_loads(want, 0, NULL);

	assert_non_null(w);
	if (!json_equal(got, w)) {
		char *s = json_dumps(got, JSON_SORT_KEYS);

		fail_msg("got %s, want %s", s, want);
	}
	json_decref(w);
}

static void reads_the_queue_of_a_disk(void **state)
{
	char *sys = fake_sysfs(state);
	json_t *q = env_block_queue(ctx_of(state), talloc_asprintf(ctx_of(state), "%s/sdz", sys));

	assert_json_eq(q, "{\"scheduler\": \"bfq\", \"read_ahead_kb\": 128,"
			  " \"nr_requests\": 64, \"rotational\": 0}");
	json_decref(q);
}

static void reads_a_partitions_queue_from_its_disk(void **state)
{
	char *sys = fake_sysfs(state);
	json_t *q = env_block_queue(ctx_of(state), talloc_asprintf(ctx_of(state), "%s/sdz/sdz1", sys));

	assert_json_eq(q, "{\"scheduler\": \"bfq\", \"read_ahead_kb\": 128,"
			  " \"nr_requests\": 64, \"rotational\": 0}");
	json_decref(q);
}

static void a_value_that_cannot_be_read_is_null(void **state)
{
	char *sys = fake_sysfs(state);
	char *path = talloc_asprintf(ctx_of(state), "%s/sdz/queue/nr_requests", sys);
	json_t *q;

	assert_int_equal(unlink(path), 0);
	write_file(state, "block/sdz/queue/rotational", "yes\n");
	q = env_block_queue(ctx_of(state), talloc_asprintf(ctx_of(state), "%s/sdz", sys));
	assert_json_eq(q, "{\"scheduler\": \"bfq\", \"read_ahead_kb\": 128,"
			  " \"nr_requests\": null, \"rotational\": null}");
	json_decref(q);
}

static void no_queue_directory_is_null(void **state)
{
	char *sys = fake_sysfs(state);
	json_t *q = env_block_queue(ctx_of(state), talloc_asprintf(ctx_of(state), "%s/nq", sys));

	assert_true(json_is_null(q));
}

/* ---- cpuinfo and meminfo ---- */

static void the_cpu_model_is_the_first_model_name(void **state)
{
	const char *x86 =
		"processor\t: 0\nvendor_id\t: GenuineIntel\n"
		"model name\t: Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz  \n\n"
		"processor\t: 1\nmodel name\t: Some Other CPU\n";

	assert_string_equal(env_parse_cpu_model(ctx_of(state), x86),
			    "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz");
}

static void without_model_name_the_cpu_model_comes_from_arm_or_mips_keys(void **state)
{
	const char *arm =
		"Processor\t: ARMv6-compatible processor rev 7 (v6l)\n"
		"processor\t: 0\nBogoMIPS\t: 697.95\n\nHardware\t: BCM2708\n";
	const char *arm_no_hw =
		"processor\t: 0\nProcessor\t: ARMv7 Processor rev 10 (v7l)\n";
	const char *mips =
		"system type\t\t: Atheros AR9330\nmachine\t\t\t: TP-LINK\n"
		"processor\t\t: 0\ncpu model\t\t: MIPS 24Kc V7.4\n";

	assert_string_equal(env_parse_cpu_model(ctx_of(state), arm), "BCM2708");
	assert_string_equal(env_parse_cpu_model(ctx_of(state), arm_no_hw),
			    "ARMv7 Processor rev 10 (v7l)");
	assert_string_equal(env_parse_cpu_model(ctx_of(state), mips), "MIPS 24Kc V7.4");
}

static void no_cpu_model_is_null(void **state)
{
	/* arm64 without "Hardware": only implementer and part numbers. */
	const char *arm64 =
		"processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n"
		"CPU part\t: 0xd0c\nmodel name\t:\n";

	assert_null(env_parse_cpu_model(ctx_of(state), arm64));
	assert_null(env_parse_cpu_model(ctx_of(state), ""));
}

static void memory_is_memtotal_in_bytes(void **state)
{
	(void)state;
	assert_int_equal(env_parse_mem_total(
		"MemTotal:       24684084 kB\nMemFree:        1000 kB\n"),
		24684084LL * 1024);
	assert_int_equal(env_parse_mem_total("MemFree: 1 kB\nMemTotal: 2 kB\n"), 2048);
	assert_int_equal(env_parse_mem_total("MemFree: 1 kB\n"), -1);
	assert_int_equal(env_parse_mem_total("MemTotal: 2\n"), -1);
	assert_int_equal(env_parse_mem_total("MemTotal: many kB\n"), -1);
}

/* ---- env_capture on this machine ---- */

static void assert_keys(json_t *obj, const char *const *keys, size_t n)
{
	assert_true(json_is_object(obj));
	assert_int_equal(json_object_size(obj), n);
	for (size_t i = 0; i < n; i++)
		if (!json_object_get(obj, keys[i]))
			fail_msg("no key \"%s\"", keys[i]);
}

#define KEYS(obj, ...) do { \
	const char *const k_[] = { __VA_ARGS__ }; \
	assert_keys(obj, k_, sizeof(k_) / sizeof(k_[0])); \
} while (0)

static void assert_string_or_null(json_t *v)
{
	assert_true(json_is_string(v) || json_is_null(v));
}

static void assert_target_types(json_t *t, const char *dir)
{
	json_t *q = json_object_get(t, "queue");

	KEYS(t, "directory", "fstype", "source", "mount_options",
	     "block_device", "queue", "backing_file", "backing_device", "backing_queue");
	assert_string_or_null(json_object_get(t, "backing_file"));
	assert_string_or_null(json_object_get(t, "backing_device"));
	assert_string_equal(json_string_value(json_object_get(t, "directory")), dir);
	assert_string_or_null(json_object_get(t, "block_device"));
	if (json_is_null(q))
		return;
	KEYS(q, "scheduler", "read_ahead_kb", "nr_requests", "rotational");
	assert_string_or_null(json_object_get(q, "scheduler"));
	assert_true(json_is_integer(json_object_get(q, "read_ahead_kb")));
	assert_true(json_is_integer(json_object_get(q, "nr_requests")));
	assert_true(json_is_integer(json_object_get(q, "rotational")));
}

static void captures_every_key_with_its_type(void **state)
{
	const char *const dirs[] = { "." };
	json_t *env = env_capture(dirs, 1, NULL), *t;

	(void)state;
	assert_non_null(env);
	KEYS(env, "hostname", "kernel", "cpu", "memory_bytes", "targets", "vm");
	assert_true(json_is_string(json_object_get(env, "hostname")));
	KEYS(json_object_get(env, "kernel"), "sysname", "release", "version", "machine");
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(env, "kernel"), "sysname")), "Linux");
	KEYS(json_object_get(env, "cpu"), "model", "count");
	assert_string_or_null(json_object_get(json_object_get(env, "cpu"), "model"));
	assert_true(json_integer_value(json_object_get(json_object_get(env, "cpu"), "count")) >= 1);
	assert_true(json_integer_value(json_object_get(env, "memory_bytes")) > 0);
	KEYS(json_object_get(env, "vm"), "dirty_ratio", "dirty_background_ratio",
	     "dirty_expire_centisecs", "dirty_writeback_centisecs", "swappiness",
	     "vfs_cache_pressure");
	assert_true(json_is_integer(json_object_get(json_object_get(env, "vm"), "swappiness")));
	assert_int_equal(json_array_size(json_object_get(env, "targets")), 1);
	t = json_array_get(json_object_get(env, "targets"), 0);
	assert_target_types(t, ".");
	assert_true(json_is_string(json_object_get(t, "fstype")));
	assert_true(json_is_string(json_object_get(t, "source")));
	assert_true(json_is_string(json_object_get(t, "mount_options")));
	json_decref(env);
}

static void a_missing_directory_has_null_facts(void **state)
{
	const char *const dirs[] = { "/nonexistent/dbench-test-env", "/proc" };
	json_t *env = env_capture(dirs, 2, NULL);
	json_t *targets = json_object_get(env, "targets");

	(void)state;
	assert_int_equal(json_array_size(targets), 2);
	assert_json_eq(json_array_get(targets, 0),
		"{\"directory\": \"/nonexistent/dbench-test-env\", \"fstype\": null,"
		" \"source\": null, \"mount_options\": null, \"block_device\": null,"
		" \"queue\": null, \"backing_file\": null, \"backing_device\": null,"
		" \"backing_queue\": null}");
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(targets, 1), "fstype")), "proc");
	json_decref(env);
}

/* A directory whose name is not UTF-8 reads as the run's JSON writes it
 * (jsontext.h): each byte above 0x7f as \xHH, not null. */
static void a_directory_named_in_bytes_that_are_not_utf8_keeps_its_name(void **state)
{
	const char *const dirs[] = { "/nonexistent/caf\xe9-\xff" };
	json_t *env = env_capture(dirs, 1, NULL);
	json_t *t = json_array_get(json_object_get(env, "targets"), 0);

	(void)state;
	assert_string_equal(json_string_value(json_object_get(t, "directory")),
			    "/nonexistent/caf\\xE9-\\xFF");
	json_t *same = jsontext(dirs[0]);
	assert_true(json_equal(json_object_get(t, "directory"), same));
	json_decref(same);
	json_decref(env);
}

/* A target its backend described (a share, an export) gets the backend's
 * facts beside its spec, and no mount lookup. */
static void a_described_target_carries_its_backends_facts(void **state)
{
	const char *const dirs[] = { "//127.0.0.1/share", "." };
	const struct dockey_value v[] = { { DK_TARGET_SERVER, json_string("127.0.0.1") },
					  { DK_TARGET_PROTOCOL, json_string("SMB3_11") } };
	const struct env_facts facts[] = { { v, 2 }, { NULL, 0 } };
	json_t *env = env_capture(dirs, 2, facts);
	json_t *targets = json_object_get(env, "targets");

	(void)state;
	assert_json_eq(json_array_get(targets, 0),
		"{\"directory\": \"//127.0.0.1/share\", \"server\": \"127.0.0.1\","
		" \"protocol\": \"SMB3_11\"}");
	assert_true(json_is_string(json_object_get(json_array_get(targets, 1), "fstype")));
	json_decref(env);
}

static void no_directories_give_an_empty_targets_array(void **state)
{
	json_t *env = env_capture(NULL, 0, NULL);

	(void)state;
	assert_non_null(env);
	assert_true(json_is_array(json_object_get(env, "targets")));
	assert_int_equal(json_array_size(json_object_get(env, "targets")), 0);
	json_decref(env);
}

static void capture_leaves_no_talloc_memory_behind(void **state)
{
	const char *const dirs[] = { ".", "/" };
	size_t before;
	json_t *env;

	(void)state;
	talloc_enable_null_tracking();
	before = talloc_total_blocks(NULL);
	env = env_capture(dirs, 2, NULL);
	assert_non_null(env);
	assert_int_equal(talloc_total_blocks(NULL), before);
	json_decref(env);
	talloc_disable_null_tracking();
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* mountinfo lines */
		T(parses_the_fields_of_a_mountinfo_line),
		T(skips_optional_fields_before_the_separator),
		T(decodes_octal_escapes_in_every_field),
		T(keeps_a_backslash_that_is_not_an_escape),
		T(an_empty_source_is_an_empty_field),
		T(rejects_lines_not_in_mountinfo_format),
		/* the mount that holds a directory */
		T(finds_the_bind_mount_with_the_longest_prefix),
		T(a_prefix_must_end_at_a_path_component),
		T(matches_the_device_before_the_prefix),
		T(the_later_of_two_stacked_mounts_wins),
		T(without_a_line_for_the_device_takes_the_longest_prefix),
		T(finds_nothing_for_a_relative_path_or_empty_table),
		/* what findmnt prints */
		T(merges_options_like_findmnt),
		T(read_only_on_either_side_makes_ro),
		T(keeps_commas_inside_quoted_values),
		T(one_side_missing_gives_the_other),
		T(source_names_the_root_of_a_bind_mount),
		/* block queue */
		T(the_scheduler_is_the_bracketed_word),
		T(reads_the_queue_of_a_disk),
		T(reads_a_partitions_queue_from_its_disk),
		T(a_value_that_cannot_be_read_is_null),
		T(no_queue_directory_is_null),
		/* cpuinfo and meminfo */
		T(the_cpu_model_is_the_first_model_name),
		T(without_model_name_the_cpu_model_comes_from_arm_or_mips_keys),
		T(no_cpu_model_is_null),
		T(memory_is_memtotal_in_bytes),
		/* env_capture */
		T(captures_every_key_with_its_type),
		T(a_missing_directory_has_null_facts),
		T(a_directory_named_in_bytes_that_are_not_utf8_keeps_its_name),
		T(a_described_target_carries_its_backends_facts),
		T(no_directories_give_an_empty_targets_array),
		T(capture_leaves_no_talloc_memory_behind),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
