/*
 * test_net.c - the net layer: -T socket option lists (sockopt.h), the
 * tbench message header and whole-message I/O over a loopback TCP
 * connection (wire.h), and addresses (addr.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "fixture.h"
#include "opclock.h"
#include "addr.h"
#include "sockopt.h"
#include "wire.h"

static int int_option(int fd, int level, int name)
{
	int v = -1;
	socklen_t len = sizeof(v);

	assert_int_equal(getsockopt(fd, level, name, &v, &len), 0);
	return v;
}

static void the_default_list_sets_nodelay_and_reuseaddr(void **state)
{
	char *err = NULL;
	struct sockopt_set *set = sockopt_parse(fixture_ctx(state), SOCKOPT_DEFAULT, &err);
	const char *bad = NULL;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	assert_non_null(set);
	assert_int_equal(sockopt_apply(set, fd, &bad), 0);
	assert_int_not_equal(int_option(fd, IPPROTO_TCP, TCP_NODELAY), 0);
	assert_int_not_equal(int_option(fd, SOL_SOCKET, SO_REUSEADDR), 0);
	close(fd);
}

static void names_are_case_insensitive_and_commas_separate(void **state)
{
	char *err = NULL;
	struct sockopt_set *set = sockopt_parse(fixture_ctx(state),
						" so_keepalive,SO_RCVBUF=65536\tTCP_NODELAY=0 ", &err);
	const char *bad = NULL;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	assert_non_null(set);
	assert_int_equal(sockopt_apply(set, fd, &bad), 0);
	assert_int_not_equal(int_option(fd, SOL_SOCKET, SO_KEEPALIVE), 0);
	assert_int_equal(int_option(fd, IPPROTO_TCP, TCP_NODELAY), 0);
	/* Linux doubles what it is given for its own bookkeeping */
	assert_int_equal(int_option(fd, SOL_SOCKET, SO_RCVBUF), 2 * 65536);
	close(fd);
}

static void an_empty_list_sets_nothing(void **state)
{
	char *err = NULL;
	const char *bad = NULL;

	assert_non_null(sockopt_parse(fixture_ctx(state), "", &err));
	assert_int_equal(sockopt_apply(sockopt_parse(fixture_ctx(state), " ,, ", &err), -1, &bad),
			 0);
}

static void an_unknown_name_is_refused_naming_it(void **state)
{
	char *err = NULL;

	assert_null(sockopt_parse(fixture_ctx(state), "TCP_NODELAY TCP_FASTER", &err));
	assert_non_null(strstr(err, "socket option 'TCP_FASTER' is not a socket option"));
}

static void bad_values_are_refused(void **state)
{
	static const char *const bad[] = { "SO_SNDBUF=", "SO_SNDBUF=-1", "SO_SNDBUF=12k",
					   "SO_SNDBUF=99999999999", "IPTOS_LOWDELAY=1" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *err = NULL;
		assert_null(sockopt_parse(fixture_ctx(state), bad[i], &err));
		assert_non_null(strstr(err, "socket option '"));
	}
}

/* A whole number too large is said to be too large, not not a number. */
static void each_bad_value_is_named_for_what_is_wrong(void **state)
{
	static const struct { const char *spec, *why; } cases[] = {
		{ "SO_RCVTIMEO=99999999999", "'SO_RCVTIMEO=99999999999' is too large: at most 2147483647" },
		{ "SO_RCVTIMEO=2147483648", "is too large: at most 2147483647" },
		{ "SO_RCVTIMEO=999999999999999999999999999999999", "is too large" },
		{ "SO_SNDBUF=-1", "needs a whole number from 0 to 2147483647 after '='" },
		{ "SO_SNDBUF=12k", "needs a whole number from 0 to 2147483647 after '='" },
		{ "SO_SNDBUF=", "needs a whole number from 0 to 2147483647 after '='" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *err = NULL;
		assert_null(sockopt_parse(fixture_ctx(state), cases[i].spec, &err));
		if (!strstr(err, cases[i].why))
			fail_msg("'%s': '%s' lacks '%s'", cases[i].spec, err, cases[i].why);
	}
	char *err = NULL;
	assert_non_null(sockopt_parse(fixture_ctx(state), "SO_RCVTIMEO=2147483647", &err));
}

static void the_header_holds_both_lengths_big_endian(void **state)
{
	uint8_t hdr[8];

	(void)state;
	wire_request_header(hdr, 111, 87);
	assert_memory_equal(hdr, "\0\0\0\x6b\0\0\0\x53", 8);
	assert_int_equal(wire_get32(hdr), 107);
	assert_int_equal(wire_get32(hdr + 4), 83);
}

/* A connected loopback pair: fds[0] the client, fds[1] the server's. */
static void loopback_pair(void **state, int fds[2])
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct net_addr bound;
	char *err = NULL;
	int l = net_listen_host(ctx, "127.0.0.1", 0, NULL, &bound, &err);

	assert_true(l >= 0);
	fds[0] = net_connect(ctx, &bound, NULL, 0, &err);
	assert_true(fds[0] >= 0);
	fds[1] = accept(l, NULL, NULL);
	assert_true(fds[1] >= 0);
	close(l);
}

static void a_message_in_pieces_arrives_whole_and_is_discarded_whole(void **state)
{
	static uint8_t big[200000];
	uint8_t hdr[8], got[8];
	int fds[2];

	loopback_pair(state, fds);
	wire_request_header(hdr, 8 + sizeof(big), 4);
	/* more than the socket buffers hold: the sender is another process */
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct iovec iov[3] = { { hdr, 8 }, { big, sizeof(big) }, { "tail", 4 } };
		_exit(wire_send_iov(fds[0], iov, 3, 0));
	}
	int status;
	assert_int_equal(wire_recv_all(fds[1], got, 8, 0), 0);
	assert_memory_equal(got, hdr, 8);
	assert_int_equal(wire_discard(fds[1], sizeof(big), 0), 0);
	assert_int_equal(wire_recv_all(fds[1], got, 4, 0), 0);
	assert_memory_equal(got, "tail", 4);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(fds[0]);
	assert_int_equal(wire_recv_all(fds[1], got, 1, 0), ECONNRESET);
	close(fds[1]);
}

static void an_address_is_written_with_its_port(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct net_addr bound;
	char *err = NULL;
	int l = net_listen_host(ctx, "127.0.0.1", 0, NULL, &bound, &err);
	char *s = net_addr_string(ctx, &bound);

	assert_true(l >= 0);
	assert_true(strncmp(s, "127.0.0.1:", 10) == 0 && strcmp(s, "127.0.0.1:0") != 0);
	close(l);
}

static void nobody_listening_is_connection_refused(void **state)
{
	TALLOC_CTX *ctx = fixture_ctx(state);
	struct net_addr bound;
	char *err = NULL;
	int l = net_listen_host(ctx, "127.0.0.1", 0, NULL, &bound, &err);
	char *where = net_addr_string(ctx, &bound);

	close(l);	/* the port is now free, and nobody listens on it */
	unsigned port = (unsigned)strtoul(strrchr(where, ':') + 1, NULL, 10);
	assert_int_equal(net_connect_host(ctx, "127.0.0.1", port, NULL, 0, NULL, &err), -1);
	assert_non_null(strstr(err, "cannot connect to 127.0.0.1:"));
	assert_non_null(strstr(err, "Connection refused"));
}

/* A silent peer: the wait ends at the deadline with ETIMEDOUT, for a
 * reply that never begins and for one that stops half way. */
static void a_silent_peer_times_out_at_the_deadline(void **state)
{
	uint8_t got[8];
	int fds[2];

	loopback_pair(state, fds);
	assert_int_equal(wire_set_timeout(fds[1], 200), 0);
	uint64_t t0 = monotonic_ns();
	assert_int_equal(wire_recv_all(fds[1], got, 4, wire_deadline(200)), ETIMEDOUT);
	uint64_t waited = monotonic_ns() - t0;
	assert_true(waited >= 190000000u);	/* the bound, not sooner */
	assert_true(waited < 5000000000u);	/* and not for ever (a busy machine) */
	assert_int_equal(send(fds[0], "ab", 2, 0), 2);	/* half a header */
	assert_int_equal(wire_recv_all(fds[1], got, 4, wire_deadline(200)), ETIMEDOUT);
	close(fds[0]);
	close(fds[1]);
}

/* A peer that sends a byte now and then cannot stretch a wait past its
 * deadline, though each byte comes within the socket's own timeout. */
static void a_trickling_peer_cannot_stretch_the_wait(void **state)
{
	uint8_t got[64];
	int fds[2];

	loopback_pair(state, fds);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		for (int i = 0; i < 40; i++) {
			if (send(fds[0], "x", 1, MSG_NOSIGNAL) != 1)
				break;
			usleep(50000);
		}
		_exit(0);
	}
	assert_int_equal(wire_set_timeout(fds[1], 300), 0);
	uint64_t t0 = monotonic_ns();
	assert_int_equal(wire_recv_all(fds[1], got, sizeof(got), wire_deadline(300)), ETIMEDOUT);
	assert_true(monotonic_ns() - t0 < 1500000000u);	/* the peer goes on for 2 s */
	close(fds[1]);
	close(fds[0]);
	waitpid(pid, NULL, 0);
}

/* An empty iovec (a reply of no payload) goes out as nothing, at once. */
static void an_empty_iovec_sends_nothing_and_returns(void **state)
{
	uint8_t hdr[4] = { 0, 0, 0, 0 }, got[4];
	struct iovec iov[2] = { { hdr, 4 }, { hdr, 0 } };
	int fds[2];

	loopback_pair(state, fds);
	assert_int_equal(wire_send_iov(fds[0], iov, 2, wire_deadline(2000)), 0);
	assert_int_equal(wire_recv_all(fds[1], got, 4, wire_deadline(2000)), 0);
	close(fds[0]);
	close(fds[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(the_default_list_sets_nodelay_and_reuseaddr,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(names_are_case_insensitive_and_commas_separate,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(an_empty_list_sets_nothing, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(an_unknown_name_is_refused_naming_it, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(each_bad_value_is_named_for_what_is_wrong,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(bad_values_are_refused, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(the_header_holds_both_lengths_big_endian,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(
			a_message_in_pieces_arrives_whole_and_is_discarded_whole, fixture_setup,
			fixture_teardown),
		cmocka_unit_test_setup_teardown(an_address_is_written_with_its_port, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(nobody_listening_is_connection_refused,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(a_silent_peer_times_out_at_the_deadline,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(a_trickling_peer_cannot_stretch_the_wait,
						fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(an_empty_iovec_sends_nothing_and_returns,
						fixture_setup, fixture_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
