"""Searches per second from one and from two Python threads on one Engine.

    python bindings/python/bench_threads.py metagate-demo.redb

Each ctypes call releases the GIL, so two threads search in parallel on two cores.
"""
import sys
import threading
import time

import metagate

BODIES = [
    {"query": {"match": {"item.description": w}}, "size": 10}
    for w in ["sequence alignment", "protein structure", "gene expression", "image analysis", "genome assembly"]
]


def run(es, n):
    for i in range(n):
        es.search(index="RIN_Tool_pr", body=BODIES[i % len(BODIES)])


def rate(es, threads, per_thread):
    ts = [threading.Thread(target=run, args=(es, per_thread)) for _ in range(threads)]
    t0 = time.perf_counter()
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return threads * per_thread / (time.perf_counter() - t0)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "metagate-demo.redb"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    with metagate.Engine(path) as es:
        run(es, 50)  # warm the term dictionaries
        one = rate(es, 1, n)
        two = rate(es, 2, n)
    print("1 thread: {:.0f} searches/s; 2 threads: {:.0f} searches/s; speed-up {:.2f}x".format(one, two, two / one))


if __name__ == "__main__":
    main()
