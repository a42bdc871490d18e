/*
 * test_sockio.c - the sizes of the messages the sockio backend turns
 * operations into (sockio.h): those dbench 4.0's tbench sends, as strace
 * showed them for the first line of each kind in client.txt.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "fixture.h"
#include "backends/sockio.h"

/* What dbench 4.0 sent and got back for these lines, as client 1. */
static const struct {
	const char *line;
	uint32_t send, recv;
} seen[] = {
	{ "Mkdir \"\\clients\" NT_STATUS_OK", 61, 39 },
	{ "NTCreateX \"\\clients\\client1\" 0x1 0x2 16385 NT_STATUS_OK", 108, 87 },
	{ "Close 16385 NT_STATUS_OK", 47, 39 },
	{ "QUERY_PATH_INFORMATION \"\\clients\\client1\\~dmtmp\" 1004"
	  " NT_STATUS_OBJECT_NAME_NOT_FOUND", 103, 71 },
	{ "FIND_FIRST \"\\clients\\client1\\FILLER.*\" 260 1366 0 NT_STATUS_NO_SUCH_FILE", 111, 39 },
	{ "QUERY_FS_INFORMATION 1 NT_STATUS_OK", 59, 71 },
	{ "NTCreateX \"\\clients\\client1\\f\" 0x1 0x2 9938 NT_STATUS_OK", 112, 87 },
	{ "WriteX 9938 65534 1 1 NT_STATUS_OK", 60, 55 },
	{ "QUERY_FILE_INFORMATION 9938 258 NT_STATUS_OK", 59, 71 },
	{ "ReadX 9938 0 4096 4096 NT_STATUS_OK", 59, 4155 },
	{ "SET_FILE_INFORMATION 9938 1004 NT_STATUS_OK", 71, 47 },
	{ "Flush 9938 NT_STATUS_OK", 41, 39 },
	{ "LockX 9938 2147483538 1 NT_STATUS_OK", 51, 39 },
	{ "UnlockX 9938 2147483538 1 NT_STATUS_OK", 51, 39 },
	{ "Unlink \"\\clients\\client1\\~dmtmp\\PWRPNT\\NEWPCB.PPT\" 0x6 NT_STATUS_OK", 127, 39 },
	{ "Rename \"\\clients\\client1\\~dmtmp\\PWRPNT\\NEWPCB.PPT\""
	  " \"\\clients\\client1\\~dmtmp\\PWRPNT\\PPTB1E4.TMP\" NT_STATUS_OK", 217, 39 },
};
#define NSEEN (sizeof(seen) / sizeof(seen[0]))

/* "./clients/client1" */
#define CLIENT1_NAME_LEN 17

static struct program *compile(void **state, const char *text)
{
	char *err = NULL;
	struct program *p = loadfile_compile(fixture_ctx(state), "t.txt", text, strlen(text), &err);

	if (!p)
		fail_msg("%s", err);
	return p;
}

static void every_kind_of_operation_has_dbench4s_sizes(void **state)
{
	char *text = talloc_strdup(fixture_ctx(state), "");

	for (size_t i = 0; i < NSEEN; i++)
		text = talloc_asprintf_append(text, "%s\n", seen[i].line);
	struct program *p = compile(state, text);
	assert_int_equal(p->nops, NSEEN);
	for (size_t i = 0; i < NSEEN; i++) {
		uint32_t send = 0, recv = 0;
		assert_true(sockio_sizes(loadfile_op(p, i), CLIENT1_NAME_LEN, &send, &recv));
		if (send != seen[i].send || recv != seen[i].recv)
			fail_msg("%s: %u/%u, want %u/%u", seen[i].line, send, recv, seen[i].send,
				 seen[i].recv);
	}
}

static void a_longer_client_name_lengthens_its_paths_not_clients(void **state)
{
	struct program *p = compile(state, "Mkdir \"\\clients\" NT_STATUS_OK\n"
					   "Mkdir \"\\clients\\client1\\d\" NT_STATUS_OK\n");
	uint32_t send, recv;

	assert_true(sockio_sizes(loadfile_op(p, 0), CLIENT1_NAME_LEN + 1, &send, &recv));
	assert_int_equal(send, 61);
	assert_true(sockio_sizes(loadfile_op(p, 1), CLIENT1_NAME_LEN + 1, &send, &recv));
	assert_int_equal(send, 43 + 2 * (CLIENT1_NAME_LEN + 1 + 2));
}

static void deltree_sends_nothing(void **state)
{
	struct program *p = compile(state, "Deltree \"\\clients\\client1\" NT_STATUS_OK\n");
	uint32_t send, recv;

	assert_false(sockio_sizes(loadfile_op(p, 0), CLIENT1_NAME_LEN, &send, &recv));
}

static void find_first_replies_grow_with_the_matches(void **state)
{
	struct program *p = compile(state, "FIND_FIRST \"\\clients\\client1\\*\" 260 1366 7"
					   " NT_STATUS_OK\n");
	uint32_t send, recv;

	assert_true(sockio_sizes(loadfile_op(p, 0), CLIENT1_NAME_LEN, &send, &recv));
	assert_int_equal(recv, 39 + 90 * 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(every_kind_of_operation_has_dbench4s_sizes,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(a_longer_client_name_lengthens_its_paths_not_clients,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(deltree_sends_nothing, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(find_first_replies_grow_with_the_matches,
						fixture_setup, fixture_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
