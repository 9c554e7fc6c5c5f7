"""Clients that send requests with large answers and never read them, while one
well-behaved client searches: does the server keep serving the others, and does it give
up on the non-readers (write timeout) instead of holding a worker or a connection forever?

Usage: python3 benches/http/nonreader.py --port 9311 --pid PID --key KEY
       [--conns 8] [--requests 20] [--duration 45]
Each non-reader pipelines `--requests` searches of 1,000 hits (about 1.5 MB of answer
each) with a 4 KiB receive buffer, so the server's writes stall at once. At the end each
is read: an end of stream means the server closed it; silence, that it still holds it.
While the test runs, the server's open sockets tell when it gives up on them (the
client cannot see it: the server's FIN waits behind the bytes the client does not read).
"""
import argparse
import os
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe import Probe, open_sockets, server_stats  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--pid", type=int, required=True, help="the server's process id")
    ap.add_argument("--key", required=True)
    ap.add_argument("--conns", type=int, default=8)
    ap.add_argument("--requests", type=int, default=20)
    ap.add_argument("--duration", type=float, default=75.0)
    ap.add_argument("--alone", type=float, default=10.0, help="seconds the probe runs alone first")
    ap.add_argument("--path", default="/elastic/v1/gen/_search?q=alignment&size=10")
    ap.add_argument("--big", default="/elastic/v1/gen/_search?q=alignment&size=1000")
    a = ap.parse_args()

    probe = Probe(a.host, a.port, a.path, a.key)
    probe.start()
    time.sleep(a.alone)
    probe.stop.set()
    probe.join()
    print("alone       " + probe.summary(a.alone))
    print("server before: RSS %.1f MB, %d threads" % server_stats(a.pid))

    one = ("GET %s HTTP/1.1\r\nHost: bench\r\napikey: %s\r\n\r\n" % (a.big, a.key)).encode()
    requests = one * a.requests
    socks, sent = [], []
    # The listener and the probe's connection, when the probe has one.
    baseline = open_sockets(a.pid)
    for _ in range(a.conns):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect((a.host, a.port))
        s.setblocking(False)
        socks.append(s)
        sent.append(0)
    probe = Probe(a.host, a.port, a.path, a.key)
    probe.start()
    begun = time.monotonic()
    peak = server_stats(a.pid)
    held_at, released = [], None
    while time.monotonic() - begun < a.duration:
        # Keep offering requests as the server reads them; never read an answer.
        for i, s in enumerate(socks):
            if sent[i] < len(requests):
                try:
                    sent[i] += s.send(requests[sent[i]:])
                except (BlockingIOError, OSError):
                    pass
        held = open_sockets(a.pid) - baseline
        held_at.append((time.monotonic() - begun, held))
        if released is None and len(held_at) > 4 and held <= 1:
            released = time.monotonic() - begun
        peak = max(peak, server_stats(a.pid))
        time.sleep(0.5)
    probe.stop.set()
    probe.join()
    print("non-readers " + probe.summary(a.duration))
    print("server with %d non-readers: peak RSS %.1f MB, %d threads; at the end RSS %.1f MB, %d threads"
          % ((len(socks),) + peak + server_stats(a.pid)))
    print("server sockets beyond the listener and the probe's: at most %d; %s" % (
        max(h for _, h in held_at), "back to at most 1 after %.1f s" % released if released
        else "still %d after %.0f s" % (held_at[-1][1], a.duration)))
    closed, held, got = 0, 0, []
    for s in socks:
        s.setblocking(True)
        s.settimeout(3)
        n = 0
        try:
            while True:
                data = s.recv(1 << 20)
                if not data:
                    closed += 1
                    break
                n += len(data)
        except socket.timeout:
            held += 1
        except OSError:
            closed += 1
        got.append(n)
        s.close()
    print("non-readers closed by the server: %d, still held: %d; answer bytes each could then read: %s"
          % (closed, held, ", ".join("%.1f MB" % (n / 1e6) for n in got)))


if __name__ == "__main__":
    main()
