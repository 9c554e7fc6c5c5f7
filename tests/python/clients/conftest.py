"""Helpers shared by the real-client tests: the server binary, a free port, and a running
`metagate serve` on 127.0.0.1 that stops with the test module."""
import gzip
import json
import os
import socket
import subprocess
import time
from contextlib import contextmanager

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def find_bin():
    """$METAGATE_BIN, else target/debug/metagate, else target/release/metagate."""
    if os.environ.get("METAGATE_BIN"):
        return os.environ["METAGATE_BIN"]
    for profile in ("debug", "release"):
        path = os.path.join(ROOT, "target", profile, "metagate")
        if os.path.exists(path):
            return path
    pytest.fail("no metagate binary: run `cargo build` or set METAGATE_BIN")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def add_key(binary, db, name):
    """Creates an API key on the file and returns it."""
    return subprocess.run([binary, "keys", "add", name, "--file", db],
                          check=True, capture_output=True, text=True).stdout.strip()


KINDS = ["alignment", "imaging", "genome assembly"]
TYPES = ["software", "database"]


def load_tools(binary, d, n, year=False):
    """A metagate file in `d` holding `n` generated tools (index `tools-v1`, alias
    `RIN_Tool_pr`, the registry family); each has a `year` when `year` is set. Its path."""
    db = str(d / "t.redb")
    bulk = d / "tools.ndjson.gz"
    with gzip.open(bulk, "wt") as f:
        for i in range(n):
            item = {"name": "tool %d" % i, "description": "a %s tool" % KINDS[i % 3], "identifier": "SCR_%06d" % i}
            if year:
                item["year"] = 1990 + i % 30
            item["types"] = [{"name": TYPES[i % 2]}]
            f.write(json.dumps({"index": {"_id": "rrid:scr_%06d" % i, "_type": "rin"}}) + "\n")
            f.write(json.dumps({"item": item}) + "\n")
    subprocess.run([binary, "load", "--file", db, "--index", "tools-v1", "--alias", "RIN_Tool_pr",
                    "--family", "registry", str(bulk)], check=True, capture_output=True)
    return db


def count(es, index, query=None):
    """Documents matching `query` (all without one), from a `size: 0` search."""
    body = {"size": 0} if query is None else {"size": 0, "query": query}
    return es.search(index=index, body=body)["hits"]["total"]


@contextmanager
def running_server(binary, db, log_path):
    """`metagate serve` on a free port without a rate limit; yields the base URL."""
    port = free_port()
    log = open(log_path, "w")
    proc = subprocess.Popen([binary, "serve", "--file", db, "--bind", "127.0.0.1:%d" % port,
                             "--rate-limit", "0"], stderr=log)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    try:
        yield "http://127.0.0.1:%d/elastic/v1" % port
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()


@pytest.fixture(scope="session")
def demo_es(tmp_path_factory):
    """An ES 6.8 client on `metagate serve` over the demo corpus ($METAGATE_DEMO, which
    tests/extra.sh builds, else a file built here)."""
    from elasticsearch import Elasticsearch

    binary = find_bin()
    d = tmp_path_factory.mktemp("demo")
    db = os.environ.get("METAGATE_DEMO")
    if not db or not os.path.exists(db):
        db = str(d / "demo.redb")
        subprocess.run([binary, "demo", "--file", db], check=True, capture_output=True)
    name = "tests-%d" % os.getpid()
    key = add_key(binary, db, name)
    with running_server(binary, db, d / "server.log") as url:
        client = Elasticsearch([url], headers={"apikey": key}, timeout=60)
        # Tests that go around the client (the `key=` parameter) need these.
        client.metagate_url, client.metagate_key = url, key
        yield client
    subprocess.run([binary, "keys", "revoke", name, "--file", db], capture_output=True)
