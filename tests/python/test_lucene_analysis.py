"""metagate's `standard` analyzer against Lucene's own StandardAnalyzer (Debian's
liblucene8-java, the JDK's javac): every string of the whole demo corpus must give the
same tokens. The oracle is tests/lucene/LuceneTokens.java; metagate answers through
`metagate analyze`.

Run (after `cargo build --release`, with Java and liblucene8-java installed):
    python -m pytest -q tests/python/test_lucene_analysis.py
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
    subprocess.run(["javac", "-cp", LUCENE_JAR, "-d", out, os.path.join(ROOT, "tests", "lucene", "LuceneTokens.java")],
                   check=True)
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
