/*
 * test_secret.c - the passwords found in the user's input and masked
 * (secret.h): in URLs, in a user option's value however the option is
 * spelt, and in the process's own argument area, where the mask has one
 * width whatever the password's length.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "fixture.h"
#include "secret.h"

static void url(void **state, const char *text, const char *want)
{
	assert_string_equal(secret_mask_url(fixture_ctx(state), text), want);
}

static void a_urls_password_is_masked_wherever_it_is(void **state)
{
	url(state, "//bob:Secret@host/share", "//bob:***@host/share");
	url(state, "smb://CORP;bob:Secret@host:445/s", "smb://CORP;bob:***@host:445/s");
	url(state, "nfs://bob:S3cr3t:x@host/export?version=4", "nfs://bob:***@host/export?version=4");
	url(state, "//bob%Secret@host/share", "//bob%***@host/share");
	url(state, "cannot mount 'nfs://a:pw@h/e' nor '//c:pw2@d/f': refused",
	    "cannot mount 'nfs://a:***@h/e' nor '//c:***@d/f': refused");
	url(state, "//bob@host/share", "//bob@host/share");	/* no password */
	url(state, "//host:445/share", "//host:445/share");
	url(state, "a // comment: x@y", "a // comment: x@y");	/* no authority */
	url(state, "", "");
}

static void word(void **state, const char *w, const char *prev, const char *want)
{
	assert_string_equal(secret_mask_word(fixture_ctx(state), w, prev), want);
}

static void a_user_options_password_is_masked_however_spelt(void **state)
{
	word(state, "--smb-user=CORP/u%topsecret", NULL, "--smb-user=CORP/u%***");
	word(state, "--smb-user=u%pw%with%percents", NULL, "--smb-user=u%***");
	word(state, "--smb-us=root%Secret", NULL, "--smb-us=root%***");	/* abbreviated */
	word(state, "--smb-u=root%Secret", NULL, "--smb-u=root%***");
	word(state, "--SMB-USER=root%Secret", NULL, "--SMB-USER=root%***");
	word(state, "--smbuser=root%Secret", NULL, "--smbuser=root%***");	/* misspelt */
	word(state, "-smb-user=root%Secret", NULL, "-smb-user=root%***");
	word(state, "v%hidden", "--smb-user", "v%***");		/* the next word */
	word(state, "v%hidden", "--smb-us", "v%***");
	word(state, "bob%pw", "-U", "bob%***");				/* smbclient's habit */
	word(state, "--smb-share=//bob:pw@h/s", NULL, "--smb-share=//bob:***@h/s");
	word(state, "//bob:pw@h/s", "--smb-share", "//bob:***@h/s");
}

static void a_command_line_within_a_word_has_each_of_its_words_masked(void **state)
{
	/* dbench ab's --a=OPTIONS and --b=OPTIONS: what ps shows of them */
	word(state, "--a=--smb-user=bob%Secret", NULL, "--a=--smb-user=bob%***");
	word(state, "--b=-D /x --smb-user=bob%Secret -F", NULL,
	     "--b=-D /x --smb-user=bob%*** -F");
	word(state, "--a=-U  bob%Secret\t-s", NULL, "--a=-U  bob%***\t-s");
	word(state, "--b=--smb-share=//u:Secret@h/s -F", NULL, "--b=--smb-share=//u:***@h/s -F");
	/* the word after a separate --a, and a quoted password with a blank */
	word(state, "--smb-user bob%Secret -F", "--a", "--smb-user bob%*** -F");
	/* read as one option word, the user option's: all after its '%' */
	word(state, "-D /x --smb-user='bob%Sec ret' -F", "--b", "-D /x --smb-user='bob%***");
	word(state, "--a=--smb-user=\"b%Sec ret\"", NULL, "--a=--smb-user=\"b%***");
}

static void other_words_are_left_as_they_are(void **state)
{
	const char *w = "--label=50% fill";

	assert_ptr_equal(secret_mask_word(fixture_ctx(state), w, NULL), w);
	word(state, "50%", "--label", "50%");
	word(state, "--smb=root%x", NULL, "--smb=root%x");	/* too short to be --smb-user */
	word(state, "--smb-user=alice", NULL, "--smb-user=alice");	/* no password */
	word(state, "4", "--smb-user=u%p", "4");		/* a joined value took it */
	word(state, "-t", "--smb-user", "-t");
	/* a command line within a word, with no password in it */
	w = "--b=-D /x -F --label=5% more";
	assert_ptr_equal(secret_mask_word(fixture_ctx(state), w, NULL), w);
	w = "--a=--smb-user=alice";
	assert_ptr_equal(secret_mask_word(fixture_ctx(state), w, NULL), w);
}

/* A process's argument area as execve lays it out: the words one after
 * the other, each with its NUL. */
struct area {
	char buf[256];
	size_t size;
	char *argv[8];
	int argc;
};

static void area_of(struct area *a, const char *const *words)
{
	memset(a, 0, sizeof(*a));
	for (a->argc = 0; words[a->argc]; a->argc++) {
		a->argv[a->argc] = a->buf + a->size;
		strcpy(a->buf + a->size, words[a->argc]);
		a->size += strlen(words[a->argc]) + 1;
	}
}

/*
 * What ps shows of the area, from what /proc/PID/cmdline gives: when its
 * last byte is no NUL (setproctitle), the kernel gives the text up to the
 * first NUL; else the whole area, its NULs shown as spaces, where a run
 * of NULs at the end would tell a length (there must be none).
 */
static const char *cmdline_of(void **state, const struct area *a)
{
	if (a->buf[a->size - 1])
		return a->buf;
	assert_true(a->size < 2 || a->buf[a->size - 2] != '\0');
	char *s = talloc_memdup(fixture_ctx(state), a->buf, a->size);
	for (size_t i = 0; i + 1 < a->size; i++)
		s[i] = s[i] ? s[i] : ' ';
	return s;
}

static void ps_shows_one_mask_whatever_the_passwords_length(void **state)
{
	const char *const shortpw[] = { "dbench", "--smb-user=u%pw1", "-B", "smb", "4", NULL };
	const char *const longpw[] = { "dbench", "--smb-user=u%a-very-long-password", "-B", "smb",
				       "4", NULL };
	struct area s, l;

	area_of(&s, shortpw);
	area_of(&l, longpw);
	secret_hide_argv(s.argc, s.argv);
	secret_hide_argv(l.argc, l.argv);
	assert_string_equal(cmdline_of(state, &s), "dbench --smb-user=u%*** -B smb 4");
	assert_string_equal(cmdline_of(state, &l), "dbench --smb-user=u%*** -B smb 4");
	assert_null(memmem(l.buf, l.size, "long-password", 13));
	/* what the parser reads: the words as given */
	assert_string_equal(l.argv[1], "--smb-user=u%a-very-long-password");
	assert_string_equal(l.argv[4], "4");
	assert_string_equal(s.argv[1], "--smb-user=u%pw1");
}

/* A mask wider than a short password needs room the area lacks: the
 * words that do not fit are left out of what ps shows, never cut into
 * a password. */
static void words_the_area_has_no_room_for_are_left_out(void **state)
{
	const char *const words[] = { "dbench", "-U", "a%b", NULL };
	struct area a;

	area_of(&a, words);
	secret_hide_argv(a.argc, a.argv);
	assert_string_equal(cmdline_of(state, &a), "dbench -U");
	assert_null(memmem(a.buf, a.size, "a%", 2));
	assert_string_equal(a.argv[2], "a%b");
}

static void an_area_without_passwords_is_left_alone(void **state)
{
	const char *const words[] = { "dbench", "-t", "10", "--label=5%", NULL };
	struct area a;
	char *before[8];

	(void)state;
	area_of(&a, words);
	memcpy(before, a.argv, sizeof(before));
	secret_hide_argv(a.argc, a.argv);
	assert_memory_equal(a.argv, before, sizeof(before));
	assert_memory_equal(a.buf, "dbench\0-t\0" "10\0--label=5%", a.size);
}

#define T(f) cmocka_unit_test_setup_teardown(f, fixture_setup, fixture_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(a_urls_password_is_masked_wherever_it_is),
		T(a_user_options_password_is_masked_however_spelt),
		T(a_command_line_within_a_word_has_each_of_its_words_masked),
		T(other_words_are_left_as_they_are),
		T(ps_shows_one_mask_whatever_the_passwords_length),
		T(words_the_area_has_no_room_for_are_left_out),
		T(an_area_without_passwords_is_left_alone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
