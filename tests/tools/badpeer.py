#!/usr/bin/env python3
"""badpeer.py - a misbehaving tbench peer on 127.0.0.1, for the tests.

As a server (tbench's peer):

    badpeer.py server MODE [--serve-first N] [--answer K]

listens on 127.0.0.1 on a port the kernel picks, prints "port P" on one
line, and serves until it is sent SIGTERM.  On each connection it answers
the first K requests (default 0) as tbench_srv would (wire.h: a request is
[len u32][want u32][len - 4 bytes], its reply [want u32][want bytes]), then
misbehaves as MODE says:

    silent   reads whatever comes and never sends a byte
    half     sends the first 2 bytes of the next reply's header, then
             reads and stays silent
    garbage  answers the next request with a header that says 7 bytes
             follow, whatever was asked for
    trickle  sends the next reply one byte a second

The first N connections (default 0) are served whole, so that the side
that checks the server first (dbench's parent) finds it answering and the
clients meet the misbehaviour.

As a client (tbench_srv's peer):

    badpeer.py client MODE PORT SECS

connects to 127.0.0.1:PORT and holds the connection SECS seconds:

    silent   sends nothing
    half     sends the first 4 bytes of a request header
    body     sends a whole header promising 1000 bytes, and 10 of them

then prints what came back ("closed after S s" when the server closed
the connection first, "held" when it did not) and exits.  Nothing here
talks to any address but 127.0.0.1.
"""
import ctypes
import os
import select
import signal
import socket
import struct
import sys
import time


def recv_exactly(c, n):
    data = b""
    while len(data) < n:
        chunk = c.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def answer(c):
    """Read one request; answer it properly."""
    length, want = struct.unpack(">II", recv_exactly(c, 8))
    recv_exactly(c, length - 4)
    c.sendall(struct.pack(">I", want) + bytes(want))


def misbehave(c, mode):
    if mode == "half":
        recv_exactly(c, 8)
        c.sendall(b"\0\0")
    elif mode == "garbage":
        length, _ = struct.unpack(">II", recv_exactly(c, 8))
        recv_exactly(c, length - 4)
        c.sendall(struct.pack(">I", 7) + bytes(7))
    elif mode == "trickle":
        length, want = struct.unpack(">II", recv_exactly(c, 8))
        recv_exactly(c, length - 4)
        for b in struct.pack(">I", want) + bytes(want):
            c.sendall(bytes([b]))
            time.sleep(1)
    while c.recv(65536):
        pass


def die_with_parent():
    """Each connection's process ends with the server (PR_SET_PDEATHSIG)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGKILL, 0, 0, 0)
    if os.getppid() == 1:
        os._exit(0)


def serve_one(c, mode, answer_count):
    try:
        for _ in range(answer_count):
            answer(c)
        misbehave(c, mode)
    except (EOFError, OSError):
        pass
    os._exit(0)


def server(mode, serve_first, answer_count):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(64)
    print("port %d" % s.getsockname()[1], flush=True)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)   # no zombies
    signal.signal(signal.SIGTERM, lambda *a: os._exit(0))
    seen = 0
    while True:
        c, _ = s.accept()
        seen += 1
        if os.fork() == 0:
            s.close()
            die_with_parent()
            if seen <= serve_first:
                try:
                    while True:
                        answer(c)
                except (EOFError, OSError):
                    os._exit(0)
            serve_one(c, mode, answer_count)
        c.close()


def client(mode, port, secs):
    # timed from before the connection, so that a close is never seen
    # sooner than the server's own count, however late this process runs
    t0 = time.monotonic()
    c = socket.create_connection(("127.0.0.1", port))
    if mode == "half":
        c.sendall(b"\0\0\0\x04")
    elif mode == "body":
        c.sendall(struct.pack(">II", 1000, 4) + bytes(10))
    deadline = t0 + secs
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            print("held", flush=True)
            return
        r, _, _ = select.select([c], [], [], left)
        if r:
            try:
                data = c.recv(65536)
            except OSError:
                data = b""
            if not data:
                print("closed after %.1f s" % (time.monotonic() - t0), flush=True)
                return


def main(argv):
    if len(argv) >= 2 and argv[0] == "server":
        opts = {"--serve-first": 0, "--answer": 0}
        rest = argv[2:]
        while rest:
            opts[rest[0]] = int(rest[1])
            rest = rest[2:]
        server(argv[1], opts["--serve-first"], opts["--answer"])
    elif len(argv) == 4 and argv[0] == "client":
        client(argv[1], int(argv[2]), float(argv[3]))
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
