"""300 connections trickle a request head one byte at a time while one well-behaved
client searches: does the server cut the slow ones off (and when, with what answer), and
what do they cost the client that behaves and the server's memory and threads?

Usage: python3 benches/http/trickle.py --port 9311 --pid PID --key KEY
       [--conns 300] [--interval 1] [--duration 45] [--path /elastic/v1/gen/_search?q=alignment]
Prints the probe's figures alone, then with the tricklers, then each trickler's fate.
"""
import argparse
import os
import select
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe import Probe, server_stats  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--pid", type=int, required=True, help="the server's process id")
    ap.add_argument("--key", required=True)
    ap.add_argument("--conns", type=int, default=300)
    ap.add_argument("--interval", type=float, default=1.0, help="seconds between two bytes")
    ap.add_argument("--duration", type=float, default=45.0)
    ap.add_argument("--alone", type=float, default=10.0, help="seconds the probe runs alone first")
    ap.add_argument("--path", default="/elastic/v1/gen/_search?q=alignment&size=10")
    a = ap.parse_args()

    probe = Probe(a.host, a.port, a.path, a.key)
    probe.start()
    time.sleep(a.alone)
    probe.stop.set()
    probe.join()
    print("alone    " + probe.summary(a.alone))
    print("server before: RSS %.1f MB, %d threads" % server_stats(a.pid))

    # Longer than the run can send, so no trickled head is ever complete.
    head = ("GET %s HTTP/1.1\r\nHost: bench\r\napikey: %s\r\nX-Pad: %s\r\n\r\n"
            % (a.path, a.key, "a" * 4096)).encode()
    socks, sent, fate = [], [], []
    started = time.monotonic()
    for _ in range(a.conns):
        s = socket.socket()
        s.settimeout(5)
        try:
            s.connect((a.host, a.port))
        except OSError as e:
            fate.append(("connect failed: %s" % e.__class__.__name__, 0.0))
            continue
        s.setblocking(False)
        socks.append(s)
        sent.append(0)
        fate.append(None)
    open_at = time.monotonic()
    probe = Probe(a.host, a.port, a.path, a.key)
    probe.start()
    peak = server_stats(a.pid)
    next_byte = time.monotonic()
    while time.monotonic() - open_at < a.duration:
        now = time.monotonic()
        if now >= next_byte:
            for i, s in enumerate(socks):
                if fate[i] is None:
                    try:
                        sent[i] += s.send(head[sent[i]:sent[i] + 1])
                    except OSError as e:
                        fate[i] = ("send failed: %s" % e.__class__.__name__, now - started)
            next_byte += a.interval
            peak = max(peak, server_stats(a.pid))
        live = [s for i, s in enumerate(socks) if fate[i] is None]
        readable, _, _ = select.select(live, [], [], 0.05) if live else ([], [], [])
        for s in readable:
            i = socks.index(s)
            try:
                data = s.recv(65536)
            except OSError as e:
                fate[i] = ("reset: %s" % e.__class__.__name__, time.monotonic() - started)
                continue
            status = data.split(b" ")[1].decode() if data.startswith(b"HTTP/") else None
            fate[i] = ("answered %s" % status if status else "closed", time.monotonic() - started)
    probe.stop.set()
    probe.join()
    print("tricklers " + probe.summary(a.duration))
    print("server with %d tricklers: peak RSS %.1f MB, %d threads; at the end RSS %.1f MB, %d threads"
          % ((len(socks),) + peak + server_stats(a.pid)))
    kinds = {}
    for f in fate:
        kind = f[0] if f else "still open after %.0fs" % a.duration
        kinds.setdefault(kind, []).append(f[1] if f else None)
    for kind, times in sorted(kinds.items()):
        t = [x for x in times if x is not None]
        when = " (after %.1f-%.1f s)" % (min(t), max(t)) if t else ""
        print("tricklers %s: %d%s" % (kind, len(times), when))
    for s in socks:
        s.close()


if __name__ == "__main__":
    main()
