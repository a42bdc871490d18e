/*
 * test_smb_args.c - the smb backend's share and credentials parsing
 * (backends/smb_args.h): the forms a user may write, the errors for the
 * rest, smbclient's order of precedence, and the scrubbing of argv.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"
#include "smb_args.h"

/* ---- the share ---- */

static struct smb_share *share_ok(void **state, const char *spec)
{
	char *err = NULL;
	struct smb_share *sh = smb_args_share(fixture_ctx(state), spec, &err);
	if (!sh)
		fail_msg("'%s' refused: %s", spec, err);
	return sh;
}

static void share_bad(void **state, const char *spec, const char *why)
{
	char *err = NULL;
	assert_null(smb_args_share(fixture_ctx(state), spec, &err));
	assert_non_null(err);
	if (!strstr(err, why) || !strstr(err, spec))
		fail_msg("'%s': message '%s' lacks '%s'", spec, err, why);
}

static void test_share_host_and_share(void **state)
{
	struct smb_share *sh = share_ok(state, "//fs1.example.org/data");
	assert_string_equal(sh->host, "fs1.example.org");
	assert_int_equal(sh->port, 445);
	assert_false(sh->port_given);
	assert_string_equal(sh->share, "data");
	assert_string_equal(sh->path, "");
}

static void test_share_port_and_path(void **state)
{
	struct smb_share *sh = share_ok(state, "//127.0.0.1:4450/dbench/runs/a b/");
	assert_string_equal(sh->host, "127.0.0.1");
	assert_int_equal(sh->port, 4450);
	assert_true(sh->port_given);
	assert_string_equal(sh->share, "dbench");
	assert_string_equal(sh->path, "runs/a b");
}

static void test_share_smb_scheme_and_ipv6(void **state)
{
	struct smb_share *sh = share_ok(state, "smb://[::1]:1445/s");
	assert_string_equal(sh->host, "::1");
	assert_int_equal(sh->port, 1445);
	assert_string_equal(sh->share, "s");
}

static void test_share_errors(void **state)
{
	share_bad(state, "fs1/data", "does not start with //");
	share_bad(state, "//fs1", "no share");
	share_bad(state, "//fs1/", "no share");
	share_bad(state, "///data", "no host");
	share_bad(state, "//fs1:0/data", "port");
	share_bad(state, "//fs1:65536/data", "port");
	share_bad(state, "//fs1:/data", "empty port");
	share_bad(state, "//fs1:44x/data", "port");
	share_bad(state, "//us@fs1/data", "a user in the share's name");
	share_bad(state, "//[::1/data", "IPv6");
	share_bad(state, "//fs1/da*ta", "share name");
	share_bad(state, "//fs1/data/../etc", "'.' or '..'");
	share_bad(state, "//fs1/data/a//b", "empty name");
	share_bad(state, "//fs1/data/a\\b", "not allowed");
}

/* A password in the share's URL is refused, and not echoed. */
static void test_share_password_is_masked(void **state)
{
	static const char *const specs[] = { "//bob:Secret@fs1/data", "smb://d;bob:Secret@fs1/d",
					     "//bob%Secret@fs1:99999/data" };

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		char *err = NULL;
		assert_null(smb_args_share(fixture_ctx(state), specs[i], &err));
		assert_non_null(err);
		if (strstr(err, "Secret") || !strstr(err, ":***@") == !strstr(err, "%***@") ||
		    !strstr(err, "a user in the share's name"))
			fail_msg("'%s': message '%s'", specs[i], err);
	}
}

/* ---- credentials ---- */

static void test_user_forms(void **state)
{
	struct smb_creds c = { 0 };
	char *err = NULL;

	assert_true(smb_args_user(fixture_ctx(state), "CORP/alice%s3cr%t", "x", &c, &err));
	assert_string_equal(c.domain, "CORP");
	assert_string_equal(c.user, "alice");
	assert_string_equal(c.password, "s3cr%t");	/* the first % splits */

	struct smb_creds d = { 0 };
	assert_true(smb_args_user(fixture_ctx(state), "CORP\\bob", "x", &d, &err));
	assert_string_equal(d.domain, "CORP");
	assert_string_equal(d.user, "bob");
	assert_null(d.password);

	struct smb_creds e = { 0 };
	assert_true(smb_args_user(fixture_ctx(state), "guest%", "x", &e, &err));
	assert_null(e.domain);
	assert_string_equal(e.password, "");	/* empty, on purpose */
}

static void test_user_errors(void **state)
{
	struct smb_creds c = { 0 };
	char *err = NULL;

	assert_false(smb_args_user(fixture_ctx(state), "%pw", "--smb-user", &c, &err));
	assert_string_equal(err, "--smb-user: no user name (want [DOMAIN/]USER[%PASSWORD])");
	assert_false(smb_args_user(fixture_ctx(state), "/bob%pw", "--smb-user", &c, &err));
	assert_non_null(strstr(err, "no domain"));
	assert_null(strstr(err, "pw"));
}

static const char *write_file(void **state, const char *name, const char *text)
{
	const char *path = talloc_asprintf(fixture_ctx(state), "%s/%s",
					   fixture_scratch_dir(state, "smb_args"), name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void test_credentials_file(void **state)
{
	const char *path = write_file(state, "auth",
				      "# smbclient -A style\n"
				      "username = WG/carol\n"
				      "\n"
				      "Password=pass with  spaces\r\n"
				      "  ; a comment\n"
				      "realm = EXAMPLE.ORG\n");
	struct smb_creds c = { 0 };
	char *err = NULL;

	assert_true(smb_args_credentials_file(fixture_ctx(state), path, &c, &err));
	assert_string_equal(c.domain, "WG");
	assert_string_equal(c.user, "carol");
	assert_string_equal(c.password, "pass with  spaces");
}

static void test_credentials_file_errors(void **state)
{
	const char *path = write_file(state, "bad", "username = dave\npasword = x\n");
	struct smb_creds c = { 0 };
	char *err = NULL;

	assert_false(smb_args_credentials_file(fixture_ctx(state), path, &c, &err));
	char *want = talloc_asprintf(fixture_ctx(state), "%s:2: not 'username = ...', 'password ="
				     " ...', 'domain = ...' or 'realm = ...'", path);
	assert_string_equal(err, want);

	struct smb_creds d = { 0 };
	assert_false(smb_args_credentials_file(fixture_ctx(state), "/nonexistent/auth", &d, &err));
	assert_string_equal(err, "--smb-credentials '/nonexistent/auth': No such file or directory");
}

/* --smb-user, then the file, then $USER and $PASSWD; a domain is taken
 * only with its user. */
static void test_creds_precedence(void **state)
{
	const char *path = write_file(state, "auth2",
				      "username = filedom/fileuser\npassword = filepw\n");
	struct smb_creds c = { 0 };
	char *err = NULL;

	setenv("USER", "envuser%envpw", 1);
	setenv("PASSWD", "passwdpw", 1);
	assert_true(smb_args_creds(fixture_ctx(state), "erin", path, &c, &err));
	assert_string_equal(c.user, "erin");
	assert_null(c.domain);	/* the file's domain came with another user */
	assert_string_equal(c.password, "filepw");

	struct smb_creds d = { 0 };
	assert_true(smb_args_creds(fixture_ctx(state), NULL, NULL, &d, &err));
	assert_string_equal(d.user, "envuser");
	assert_string_equal(d.password, "envpw");

	struct smb_creds e = { 0 };
	setenv("USER", "frank", 1);
	assert_true(smb_args_creds(fixture_ctx(state), NULL, NULL, &e, &err));
	assert_string_equal(e.user, "frank");
	assert_string_equal(e.password, "passwdpw");
}

/* Once taken, $PASSWD and the password of a $USER of USER%PASSWORD are
 * blanked where the environment holds them (/proc/PID/environ, and every
 * process forked after), the user kept. */
static void test_env_password_forgotten(void **state)
{
	extern char **environ;

	(void)state;
	setenv("USER", "envuser%envpw", 1);
	setenv("PASSWD", "passwdpw", 1);
	smb_args_forget_env();
	assert_string_equal(getenv("PASSWD"), "");
	assert_string_equal(getenv("USER"), "envuser%");
	for (char **e = environ; *e; e++)
		assert_true(!strstr(*e, "envpw") && !strstr(*e, "passwdpw"));
	unsetenv("PASSWD");
	unsetenv("USER");
}

static void test_creds_missing(void **state)
{
	struct smb_creds c = { 0 };
	char *err = NULL;

	unsetenv("PASSWD");
	setenv("USER", "gina", 1);
	assert_false(smb_args_creds(fixture_ctx(state), NULL, NULL, &c, &err));
	assert_non_null(strstr(err, "no password for 'gina'"));

	struct smb_creds d = { 0 };
	unsetenv("USER");
	assert_false(smb_args_creds(fixture_ctx(state), NULL, NULL, &d, &err));
	assert_string_equal(err, "smb: no user name: give --smb-user=[DOMAIN/]USER%PASSWORD,"
			    " --smb-credentials=FILE or $USER");
}

/* What a password's bytes were when it was freed: a child of it sees them
 * from its own destructor, which talloc runs after the parent's. */
static char seen_at_free[sizeof("wipeme")];

static int observe_parent(char *child)
{
	memcpy(seen_at_free, talloc_parent(child), sizeof(seen_at_free));	/* the password's own size */
	return 0;
}

/* A freed password leaves no copy of itself in the memory it used. */
static void test_password_wiped_on_free(void **state)
{
	struct smb_creds c = { 0 };
	char *err = NULL;

	assert_true(smb_args_user(fixture_ctx(state), "u%wipeme", "x", &c, &err));
	char *child = talloc_size(c.password, 1);
	assert_non_null(child);
	talloc_set_destructor(child, observe_parent);
	memset(seen_at_free, 'x', sizeof(seen_at_free));
	talloc_free(c.password);
	assert_memory_equal(seen_at_free, "\0\0\0\0\0\0\0", sizeof(seen_at_free));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_share_host_and_share, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_share_port_and_path, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_share_smb_scheme_and_ipv6, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_share_errors, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_share_password_is_masked, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_user_forms, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_user_errors, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_credentials_file, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_credentials_file_errors, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_creds_precedence, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_env_password_forgotten, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_creds_missing, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_password_wiped_on_free, fixture_setup, fixture_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
