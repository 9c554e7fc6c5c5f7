"""What the slow-client benchmarks share: a well-behaved client that measures its
requests while the server is under attack, and the server's RSS, threads and open
descriptors read from /proc (the figures that show what each hostile connection costs,
and when the server lets go of one)."""
import http.client
import os
import threading
import time


def server_stats(pid):
    """(RSS in MB, threads) of process `pid`, from /proc/PID/status."""
    rss_kb, threads = 0, 0
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss_kb = int(line.split()[1])
            elif line.startswith("Threads:"):
                threads = int(line.split()[1])
    return rss_kb / 1024.0, threads


def open_sockets(pid):
    """Sockets process `pid` holds open (a connection it has closed no longer counts,
    even while the kernel still owes the peer its last bytes)."""
    fds = "/proc/%d/fd" % pid
    n = 0
    for fd in os.listdir(fds):
        try:
            n += os.readlink(os.path.join(fds, fd)).startswith("socket:")
        except OSError:
            pass
    return n


def percentile(values, p):
    """The p-th percentile (nearest rank) of `values`, or None when there are none."""
    if not values:
        return None
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(p / 100.0 * len(s) + 0.5)) - 1))]


class Probe(threading.Thread):
    """Sends `path` with `key` over one keep-alive connection again and again until
    stopped, reconnecting after an error; keeps each request's latency (seconds) and the
    errors (a request with no answer within `timeout` counts as one)."""

    def __init__(self, host, port, path, key, timeout=60.0):
        super().__init__(daemon=True)
        self.host, self.port, self.path, self.key, self.timeout = host, port, path, key, timeout
        self.latencies, self.errors, self.non200 = [], 0, 0
        self.stop = threading.Event()

    def run(self):
        conn = None
        while not self.stop.is_set():
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
                started = time.monotonic()
                conn.request("GET", self.path, headers={"apikey": self.key})
                resp = conn.getresponse()
                resp.read()
                self.latencies.append(time.monotonic() - started)
                if resp.status != 200:
                    self.non200 += 1
            except Exception:
                self.errors += 1
                if conn is not None:
                    conn.close()
                conn = None
                time.sleep(0.05)

    def summary(self, seconds):
        """requests/s, p50 and p99 in ms, max in ms, errors, non-200."""
        ms = [x * 1000.0 for x in self.latencies]
        p50, p99 = percentile(ms, 50), percentile(ms, 99)
        return "probe: %d requests (%.1f/s) p50 %s p99 %s max %s ms, errors %d, non-200 %d" % (
            len(ms), len(ms) / seconds, fmt(p50), fmt(p99), fmt(max(ms) if ms else None),
            self.errors, self.non200)


def fmt(x):
    return "-" if x is None else "%.1f" % x
