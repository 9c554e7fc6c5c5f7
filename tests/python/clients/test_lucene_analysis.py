"""metagate's `standard` analyzer and BM25 scores against Lucene's own (Debian's
liblucene8-java, the JDK's javac): every string of the whole demo corpus must give the
same tokens (oracle: tests/lucene/LuceneTokens.java, metagate through `metagate analyze`),
and `match` queries over the demo tools' descriptions the same totals and ranking, and
scores within Lucene 8's float rounding of Lucene 7's formula (oracle: tests/lucene/LuceneScores.java, metagate through `_msearch` on
`metagate serve`).

Run (after `cargo build --release`, with Java and liblucene8-java installed):
    python -m pytest -q tests/python/clients/test_lucene_analysis.py
"""
import base64
import glob
import gzip
import json
import os
import shutil
import subprocess

import pytest

from conftest import ROOT, find_bin

# Debian names the jar with its version (lucene-core-8.7.0.jar for liblucene8-java 8.8.1).
LUCENE_JARS = sorted(glob.glob("/usr/share/java/lucene-core-8*.jar"))
LUCENE_JAR = LUCENE_JARS[-1] if LUCENE_JARS else "/usr/share/java/lucene-core-8.jar"
LUCENE_MISC = LUCENE_JAR.replace("lucene-core-", "lucene-misc-")
LUCENE_ANALYZERS = LUCENE_JAR.replace("lucene-core-", "lucene-analyzers-common-")
# LuceneScores's `common` mode builds a CommonTermsQuery (lucene-queries).
LUCENE_QUERIES = LUCENE_JAR.replace("lucene-core-", "lucene-queries-")


def strings(value):
    """Every string leaf of a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)


def corpus_texts():
    """Every distinct string of every record of the demo corpus."""
    seen = set()
    for path in sorted(glob.glob(os.path.join(ROOT, "data", "demo", "*.ndjson.gz"))):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for line in f:
                doc = json.loads(line)
                if "index" in doc and len(doc) == 1:
                    continue  # a bulk action line
                for s in strings(doc):
                    if s not in seen:
                        seen.add(s)
                        yield s


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    if shutil.which("javac") is None or not os.path.exists(LUCENE_JAR):
        pytest.fail("the Lucene oracle needs javac and liblucene8-java (tests/run_all.sh installs them)")
    out = str(tmp_path_factory.mktemp("lucene"))
    for source in ("LuceneTokens.java", "LuceneScores.java"):
        subprocess.run(["javac", "-nowarn", "-cp", ":".join([LUCENE_JAR, LUCENE_MISC, LUCENE_ANALYZERS, LUCENE_QUERIES]), "-d", out,
                        os.path.join(ROOT, "tests", "lucene", source)], check=True, stderr=subprocess.DEVNULL)
    return out


def lucene_tokens(classes, texts):
    data = "".join(base64.b64encode(t.encode("utf-8")).decode("ascii") + "\n" for t in texts)
    res = subprocess.run(["java", "-cp", LUCENE_JAR + ":" + classes, "LuceneTokens"], input=data.encode("ascii"),
                         stdout=subprocess.PIPE, check=True)
    lines = res.stdout.decode("ascii").split("\n")[:len(texts)]
    return [[base64.b64decode(t).decode("utf-8") for t in line.split(" ") if t] for line in lines]


def metagate_tokens(texts):
    data = "".join(json.dumps(t) + "\n" for t in texts)
    res = subprocess.run([find_bin(), "analyze", "--analyzer", "standard"], input=data.encode("utf-8"),
                         stdout=subprocess.PIPE, check=True)
    return [json.loads(line) for line in res.stdout.decode("utf-8").splitlines()]


def test_tokens_of_the_whole_demo_corpus_are_lucenes(oracle):
    texts = list(corpus_texts())
    assert len(texts) > 100000
    ours = metagate_tokens(texts)
    theirs = lucene_tokens(oracle, texts)
    assert len(ours) == len(theirs) == len(texts)
    differ = [(t, o, l) for t, o, l in zip(texts, ours, theirs) if o != l]
    tokens = sum(len(l) for l in theirs)
    print("{} texts, {} tokens, {} differ".format(len(texts), tokens, len(differ)))
    assert differ == [], "\n".join("{!r}\n  metagate {}\n  lucene   {}".format(*d) for d in differ[:25])


def test_tricky_texts_are_lucenes(oracle):
    texts = ["x² CO₂ H₂O ½ 3.14 1,000.5 e-mail don't O'Neil", "☕ 👍🏽 👨‍👩‍👧 🇫🇷 #️⃣ 1️⃣ ©", "日本語のテキスト カタカナ ひらがな",
             "ภาษาไทย", "a" * 300, "Ⅻ ⅻ ⒈ ① µm °C ™ ‰", "_under_score_ __x__ a_1", "tab\tnew\nline\u00a0nbsp",
             "α-synuclein β₂-adrenergic", "3'-UTR 5′-end", "https://example.org/a?b=c#d user@example.org"]
    assert metagate_tokens(texts) == lucene_tokens(oracle, texts)


@pytest.mark.parametrize("analyzer", ["standard", "english"])
def test_match_scores_of_demo_tools_are_lucenes(oracle, tmp_path, analyzer):
    """300 `match` queries (one to four words drawn from the documents, frequent and rare)
    over the first 3,000 demo tool descriptions, in a field analysed by `analyzer` (the
    index's default, or `english` from a create-index body): the same total, the same top
    10 and the same f32 scores (to Lucene 8's rounding) as Lucene's BM25 of ES 6.8."""
    import random
    import urllib.request
    from conftest import add_key, running_server
    docs = []
    with gzip.open(os.path.join(ROOT, "data", "demo", "tools.ndjson.gz"), "rt", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if "index" in d and len(d) == 1:
                continue
            text = d.get("item", {}).get("description")
            if isinstance(text, str) and text:
                docs.append(("d{}".format(len(docs)), text))
            if len(docs) == 3000:
                break
    rng = random.Random(7)
    words = [w for _, t in docs for w in metagate_tokens([t])[0]]
    queries = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 4))) for _ in range(300)]
    # Lucene.
    data = "{}\n".format(len(docs)) + "".join("{}\t{}\n".format(i, base64.b64encode(t.encode()).decode()) for i, t in docs)
    data += "".join(base64.b64encode(q.encode()).decode() + "\n" for q in queries)
    res = subprocess.run(["java", "-cp", ":".join([LUCENE_JAR, LUCENE_MISC, LUCENE_ANALYZERS, LUCENE_QUERIES, oracle]), "LuceneScores",
                          analyzer],
                         input=data.encode(), stdout=subprocess.PIPE, check=True)
    lucene = []
    for line in res.stdout.decode().splitlines():
        total, _, top = line.partition("\t")
        lucene.append((int(total), [(h.split(":")[0], int(h.split(":")[1], 16)) for h in top.split()]))
    # metagate.
    binary = find_bin()
    db = str(tmp_path / "scores.redb")
    bulk = tmp_path / "docs.ndjson"
    bulk.write_text("".join(json.dumps({"index": {"_id": i}}) + "\n" + json.dumps({"d": t}) + "\n" for i, t in docs))
    create = tmp_path / "create.json"
    create.write_text(json.dumps({"mappings": {"_doc": {"properties": {"d": {"type": "text", "analyzer": analyzer}}}}}))
    subprocess.run([binary, "load", "--file", db, "--index", "scores", "--create-body", str(create), str(bulk)],
                   check=True, capture_output=True)
    key = add_key(binary, db, "oracle")
    body = "".join(json.dumps({}) + "\n" + json.dumps({"query": {"match": {"d": q}}, "size": 10, "_source": False}) + "\n"
                   for q in queries)
    import struct
    with running_server(binary, db, tmp_path / "server.log") as url:
        req = urllib.request.Request(url + "/scores/_msearch", data=body.encode(), method="POST",
                                     headers={"apikey": key, "Content-Type": "application/x-ndjson"})
        responses = json.loads(urllib.request.urlopen(req).read())["responses"]
    ours = []
    for r in responses:
        hits = [(h["_id"], struct.unpack(">I", struct.pack(">f", h["_score"]))[0]) for h in r["hits"]["hits"]]
        ours.append((r["hits"]["total"], hits))
    # Lucene 8 keeps Lucene 7's BM25 as LegacyBM25Similarity but orders its float
    # operations differently, so the last bits may differ: within 4 ulps, the same
    # documents in the same order (tests/relevance_bm25.rs checks Lucene 7's own formula
    # to the bit).
    def same(o, l):
        (ot, oh), (lt, lh) = o, l
        ours_by_id, theirs_by_id = dict(oh), dict(lh)
        if ot != lt or ours_by_id.keys() != theirs_by_id.keys():
            return False
        if any(abs(ours_by_id[i] - theirs_by_id[i]) > 4 for i in ours_by_id):
            return False
        # The same order, but for neighbours whose scores are that close.
        return all(a[0] == b[0] or abs(a[1] - b[1]) <= 4 for a, b in zip(oh, lh))
    differ = [(q, o, l) for q, o, l in zip(queries, ours, lucene) if not same(o, l)]
    assert len(ours) == len(lucene) == 300
    assert sum(1 for t, _ in lucene if t > 0) > 250
    assert differ == [], "\n".join("{!r}\n  metagate {}\n  lucene   {}".format(*d) for d in differ[:10])
