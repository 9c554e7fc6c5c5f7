import os

import pytest

import metagate

TOOLS = [
    {"_id": "rrid:scr_000001", "item": {"name": "BLAST", "identifier": "SCR_000001", "description": "Basic local alignment search tool for sequences", "keywords": [{"keyword": "Alignment"}]}, "mentions": [{"totalMentions": {"count": 120}}]},
    {"_id": "rrid:scr_000002", "item": {"name": "Clustal Omega", "identifier": "SCR_000002", "description": "Multiple sequence alignment of protein sequences", "keywords": [{"keyword": "alignment"}, {"keyword": "Protein"}]}, "mentions": [{"totalMentions": {"count": 40}}]},
    {"_id": "rrid:scr_000003", "item": {"name": "ImageJ", "identifier": "SCR_000003", "description": "Image processing and analysis in Java", "keywords": [{"keyword": "Imaging"}]}, "mentions": [{"totalMentions": {"count": 900}}]},
]


@pytest.fixture()
def db_path(tmp_path):
    return str(tmp_path / "test.redb")


@pytest.fixture()
def engine(db_path):
    with metagate.Engine(db_path, create=True) as es:
        report = es.load("tools-v1", TOOLS, alias="RIN_Tool_pr", family="registry", progress=False)
        assert report["docs"] == 3
        extra = [{"_id": str(i), "item": {"name": "tool {}".format(i), "description": "generated sequence tool {}".format(i)}} for i in range(2500)]
        es.load("many-v1", extra, alias="Many_pr", family="registry", progress=False)
        yield es
