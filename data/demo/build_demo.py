#!/usr/bin/env python3
"""Builds the metagate demo corpus from the real records in ../shared/data.

Writes one gzip-compressed Elasticsearch _bulk NDJSON file per concrete index, a
manifest.json naming each index, its family, _type and aliases, and copies the licences.
Deterministic: the same input gives byte-identical output (gzip mtime 0, sorted input,
uuid5 ids, generated records from a fixed seed).

    python3 data/demo/build_demo.py --shared ../shared/data --out data/demo
"""
import argparse
import gzip
import io
import json
import os
import random
import shutil
import uuid

STAMP = "2026nov22"
NS = uuid.UUID("6f1c0e52-2b6e-4d55-9a43-9b4b0f0c6d21")
INGEST = "20261122T000000+0000"


def compact(ts):
    """ISO timestamp -> the gateway's compact form YYYYMMDDThhmmss+0000."""
    if not ts:
        return INGEST
    d, _, t = ts.partition("T")
    t = (t.replace("Z", "").split(".")[0] + "000000")[:8]
    return d.replace("-", "") + "T" + t.replace(":", "")[:6] + "+0000"


def with_fraction(ts):
    """Mention timestamps carry a fraction of a second, as the real records do."""
    if "." in ts:
        return ts
    return ts.replace("Z", ".000000Z")


def bulk_writer(path):
    raw = open(path, "wb")
    gz = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9)
    return raw, io.TextIOWrapper(gz, encoding="utf-8")


def write_index(out_dir, file_name, doc_type, docs):
    raw, w = bulk_writer(os.path.join(out_dir, file_name))
    n = 0
    seen = set()
    for _id, src in docs:
        if _id in seen:
            continue
        seen.add(_id)
        w.write(json.dumps({"index": {"_id": _id, "_type": doc_type}}, ensure_ascii=False, separators=(",", ":")) + "\n")
        w.write(json.dumps(src, ensure_ascii=False, separators=(",", ":")) + "\n")
        n += 1
    w.close()
    raw.close()
    return n


def provenance(method, target, created, primary_key, pattern=""):
    return {
        "ingestMethod": method,
        "ingestTarget": target,
        "filePattern": pattern,
        "ingestTime": INGEST,
        "lastSeenDate": INGEST,
        "creationDate": [created],
        "docId": primary_key,
        "primaryKey": primary_key,
    }


def registry_item(name, description, identifier, types, keywords=(), synonyms=(), alt_ids=()):
    docid = identifier.lower()
    return {
        "supercategory": [{"name": "Resource", "type": "supercategory"}],
        "contentTypes": [{"curie": "NIF:Resource", "name": "Resource"}],
        "language": "en",
        "description": description,
        "identifier": identifier,
        "docid": docid,
        "uuid": str(uuid.uuid5(NS, docid)),
        "synonyms": [{"name": s} for s in synonyms],
        "types": [{"name": t, "type": "resource type"} for t in types],
        "keywords": [{"keyword": k} for k in keywords],
        "curie": identifier,
        "alternateIdentifiers": [{"identifier": a} for a in alt_ids],
        "name": name,
    }


# -- tools ---------------------------------------------------------------------------------
def tools(shared):
    with gzip.open(os.path.join(shared, "biotools_tools.jsonl.gz"), "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            tid = r["biotoolsID"]
            ident = "biotools:" + tid
            topics = [t["term"] for t in r.get("topic") or [] if t.get("term")]
            ops = [o["term"] for fn in r.get("function") or [] for o in fn.get("operation") or [] if o.get("term")]
            keywords = list(dict.fromkeys(topics + ops))
            types = [t.lower() for t in r.get("toolType") or []] or ["software resource"]
            refs = []
            for p in r.get("publication") or []:
                if p.get("doi"):
                    refs.append({"curie": "DOI:" + p["doi"]})
                elif p.get("pmid"):
                    refs.append({"curie": "PMID:" + str(p["pmid"])})
                elif p.get("pmcid"):
                    refs.append({"curie": "PMCID:" + p["pmcid"]})
            alt = [o.get("value") for o in r.get("otherID") or [] if o.get("value")]
            item = registry_item(r.get("name") or tid, r.get("description") or "", ident, types, keywords, alt_ids=alt)
            item["license"] = r.get("license") or ""
            item["operatingSystem"] = r.get("operatingSystem") or []
            item["maturity"] = r.get("maturity") or ""
            created = compact(r.get("additionDate"))
            pubs = len(refs)
            src = {
                "item": item,
                "authority": {"name": "bio.tools"},
                "distributions": {
                    "current": [{"type": "landing page", "uri": r.get("homepage") or ""}]
                    + [{"type": "download", "uri": d["url"]} for d in r.get("download") or [] if d.get("url")],
                    "deprecated": [],
                    "alternate": [{"uri": d["url"]} for d in r.get("documentation") or [] if d.get("url")],
                },
                "rrid": {"is_unique": "true", "curie": ident, "properCitation": "({}, {})".format(item["name"], ident)},
                "disco": {"v_uuid": str(uuid.uuid5(NS, "v:" + ident))},
                "references": refs,
                "supportingAwards": [],
                "credits": [{"name": c.get("name"), "type": c.get("typeEntity") or ""} for c in r.get("credit") or [] if c.get("name")],
                # Mention counts here are derived (publications listed in the record), not mined.
                "mentions": [{
                    "totalResourceMentions": {"count": pubs},
                    "totalRRIDMentions": {"count": 0},
                    "totalMentions": {"count": pubs},
                    "availability": {"keyword": "listed publications"},
                    "timestamp": with_fraction(r.get("lastUpdate") or "2021-03-07T00:00:00Z"),
                }],
                "dataItem": {"dataTypes": ["item", "distributions", "rrid", "references", "mentions", "provenance"]},
                "provenance": provenance("bio.tools import 2021-03-07 (CC BY 4.0)", "registry_tools", created, ident, "biotools.json"),
                "organization": {"hierarchy": {}},
                "recordValid": True,
            }
            yield ident.lower(), src


# -- antibodies ---------------------------------------------------------------------------
def antibodies(shared):
    data = json.load(open(os.path.join(shared, "antibody_registry_sample_1000.json"), encoding="utf-8"))
    for r in data:
        abid = str(r.get("ab_id") or "").strip()
        ident = "RRID:AB_" + abid if abid and not abid.startswith("AB_") else "RRID:" + abid
        desc = "{} from {} (catalog {}). {}".format(r.get("ab_name", ""), r.get("vendor", ""), r.get("catalog_num", ""), r.get("comments") or "").strip()
        item = registry_item(r.get("ab_name") or ident, desc, ident, ["antibody"])
        src = {
            "item": item,
            "rrid": {"is_unique": "true", "curie": ident, "properCitation": r.get("proper_citation") or ""},
            "vendors": [{"name": r.get("vendor") or "", "catalogNumber": r.get("catalog_num") or ""}],
            "antibodies": {"primary": [{
                "targets": [{"name": r.get("ab_target") or ""}],
                "clonality": {"name": r.get("clonality") or ""},
                "cloneId": r.get("clone_id") or "",
                "targetSpecies": [{"name": s.strip()} for s in (r.get("target_species") or "").split(",") if s.strip()],
            }]},
            "references": [{"curie": x.strip()} for x in str(r.get("reference") or "").split(",") if x.strip()],
            "provenance": provenance("Antibody Registry sample (scicrunch-antibody-registry)", "registry_antibodies", INGEST, ident),
            "recordValid": True,
        }
        yield ident.lower(), src


# -- cell lines ---------------------------------------------------------------------------
def cell_lines(shared):
    """Every Cellosaurus record of the label table, in its order."""
    rows = []
    with open(os.path.join(shared, "cellosaurus_cvcl_labels.tsv"), encoding="utf-8") as f:
        next(f)
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 3:
                rows.append(parts)
    for rrid, cvcl, label in rows:
        item = registry_item(label, "Cell line {} (Cellosaurus {}).".format(label, cvcl), rrid, ["cell line"], alt_ids=[cvcl])
        src = {
            "item": item,
            "rrid": {"is_unique": "true", "curie": rrid, "properCitation": "(Cellosaurus Cat# {}, {})".format(cvcl, rrid)},
            "provenance": provenance("Cellosaurus release 55 (CC BY 4.0)", "registry_cell_lines", INGEST, rrid),
            "recordValid": True,
        }
        yield rrid.lower(), src


# -- organisms ----------------------------------------------------------------------------
def load_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


def organisms(taxa):
    labels = {t["curie"]: t.get("label", "") for t in taxa}
    for t in taxa:
        curie = t["curie"]
        parents = [{"curie": p, "name": labels.get(p, "")} for p in t.get("parents") or []]
        desc = "{} ({}){}.".format(t.get("label", ""), curie, "; child of " + ", ".join(p["name"] or p["curie"] for p in parents) if parents else "")
        item = registry_item(t.get("label", curie), desc, curie, ["organism"], synonyms=t.get("synonyms") or [])
        src = {
            "item": item,
            "organisms": {"related": [{"role": "species", "species": {"name": t.get("label", ""), "curie": curie}}]},
            "graph": {"parent": [{"resource": {"identifier": p["curie"], "name": p["name"]}, "relationship": {"identifier": "6", "name": "is_related_to"}} for p in parents]},
            "provenance": provenance("NCBITaxon (CC0 1.0)", "registry_organisms", INGEST, curie),
            "recordValid": True,
        }
        yield curie.lower(), src


# -- generated registries -----------------------------------------------------------------
GENES = ["GFP", "mCherry", "Cas9", "TP53", "BRCA1", "EGFR", "MYC", "KRAS", "GAPDH", "ACTB", "SOX2", "OCT4", "NANOG", "GCaMP6s", "ChR2", "Cre", "tdTomato", "Luciferase", "VEGFA", "PTEN"]
VECTORS = ["pLenti", "pcDNA3.1", "pAAV", "pET-28a", "pGEX", "pUC19", "pCMV", "pX330", "pMSCV", "pLKO.1"]


def generated(kind, prefix, n, rng, taxa_names, organs, cell_types):
    for i in range(1, n + 1):
        ident = "{}_{:06d}".format(prefix, i)
        species = rng.choice(taxa_names)
        if kind == "plasmid":
            gene, vec = rng.choice(GENES), rng.choice(VECTORS)
            name = "{}-{}".format(vec, gene)
            desc = "Generated demo record: {} expression plasmid carrying {} for use in {}.".format(vec, gene, species)
            types = ["plasmid"]
        elif kind == "biosample":
            organ = rng.choice(organs)
            name = "{} sample {} from {}".format(organ, i, species)
            desc = "Generated demo record: {} tissue biosample of {}, {} preparation.".format(organ, species, rng.choice(["fresh frozen", "fixed", "cultured", "dissociated"]))
            types = ["biosample"]
        else:
            ct = rng.choice(cell_types)
            name = "Isolation of {} ({})".format(ct, i)
            desc = "Generated demo record: protocol for isolating and culturing {} from {} tissue.".format(ct, rng.choice(organs))
            types = ["protocol"]
        item = registry_item(name, desc, ident, types, keywords=[types[0], "generated"])
        src = {
            "item": item,
            "organisms": {"related": [{"role": "source", "species": {"name": species}}]},
            "provenance": provenance("generated", "registry_" + kind, INGEST, ident),
            "recordValid": True,
        }
        yield ident.lower(), src


# -- lexicon ------------------------------------------------------------------------------
def obo_iri(curie):
    p, _, local = curie.partition(":")
    return "http://purl.obolibrary.org/obo/{}_{}".format(p, local)


def lexicon(shared):
    for t in load_jsonl(os.path.join(shared, "interlex_sparc_terms.jsonl")):
        t = dict(t)
        t.setdefault("ancestors", t.get("superclasses") or [])
        yield t["ilx"].lower(), t
    for fname in ("uberon_terms.jsonl", "cl_terms.jsonl"):
        terms = load_jsonl(os.path.join(shared, fname))
        labels = {t["curie"]: t.get("label", "") for t in terms}
        for t in terms:
            curie = t["curie"]
            sup = [{"ilx": p.lower(), "label": labels.get(p, "")} for p in t.get("parents") or []]
            yield curie.lower(), {
                "ilx": curie.lower(),
                "label": t.get("label", ""),
                "definition": t.get("definition", ""),
                "comment": "",
                "type": "term",
                "status": "0",
                "synonyms": [{"literal": s, "type": ""} for s in t.get("synonyms") or []],
                "existing_ids": [{"curie": curie, "iri": obo_iri(curie), "preferred": "1"}],
                "superclasses": sup,
                "ancestors": sup,
            }


# -- datasets -----------------------------------------------------------------------------
def stamp(ts):
    if not ts:
        return None
    import datetime
    d = datetime.datetime.fromisoformat(ts.replace("Z", "+00:00"))
    return {"timestamp": ts, "epoch": str(int(d.timestamp()))}


def datasets(shared, uberon_by_label, taxa_by_label):
    data = json.load(open(os.path.join(shared, "sparc_pennsieve_discover_datasets_sample.json"), encoding="utf-8"))
    for r in data:
        did = str(r["id"])
        tags = r.get("tags") or []
        organs = [uberon_by_label[t.lower()] for t in tags if t.lower() in uberon_by_label]
        species = [taxa_by_label[t.lower()] for t in tags if t.lower() in taxa_by_label]
        counts = {m["modelName"]: m["count"] for m in r.get("modelCount") or []}
        src = {
            "item": {
                "version": {"keyword": "1.1.5", "description": "demo layout"},
                "types": [{"name": "dataset", "type": "dataset"}],
                "contentTypes": [{"curie": "", "name": "dataset"}],
                "statistics": {"directory": {"count": "0"}, "files": {"count": str(r.get("fileCount") or 0)},
                               "subjects": {"count": str(counts.get("animal_subject", 0))}, "bytes": {"count": str(r.get("size") or 0)}},
                "keywords": [{"keyword": t} for t in tags],
                "published": {"status": "revision" if r.get("revision") else "published", "boolean": "true"},
                "dataset": {"name": r.get("name", ""), "description": r.get("description", "")},
                "name": r.get("name", ""),
                "identifier": "N:dataset:{}".format(r.get("sourceDatasetId")),
                "curie": "DOI:" + (r.get("doi") or ""),
                "modalities": [],
                "docid": did,
                "description": r.get("description", ""),
            },
            "platform": {
                "files": {"count": str(r.get("fileCount") or 0)},
                "records": {"count": str(r.get("recordCount") or 0)},
                "owner": {"researcher_id": {"identifier": r.get("ownerOrcid") or ""}, "identifier": str(r.get("ownerId")),
                          "first": {"name": r.get("ownerFirstName", "")}, "last": {"name": r.get("ownerLastName", "")}},
                "organization": {"identifier": str(r.get("organizationId")), "name": r.get("organizationName", "")},
                "arn": r.get("arn", ""), "uri": r.get("uri", ""),
                "createdAt": stamp(r.get("createdAt")), "firstPublishedAt": stamp(r.get("firstPublishedAt")),
                "versionPublishedAt": stamp(r.get("versionPublishedAt")), "updatedAt": stamp(r.get("updatedAt")),
                "status": r.get("status", ""), "name": r.get("name", ""), "description": r.get("description", ""),
                "banner": {"uri": r.get("banner", "")}, "readme": {"uri": r.get("readme", "")},
                "license": {"keyword": r.get("license", "")},
                "version": {"identifier": str(r.get("version"))}, "identifier": did,
                "schemaVersion": {"identifier": r.get("blackfynnSchemaVersion", "")},
                "embargo": {"keyword": "true" if r.get("embargo") else "false"},
            },
            "contributors": [{
                "last": {"name": c.get("lastName", "")}, "first": {"name": (c.get("firstName") or "").strip()},
                "name": "{} {}".format((c.get("firstName") or "").strip(), c.get("lastName", "")),
                "curie": "ORCID:" + c["orcid"] if c.get("orcid") else "",
                "uri": "https://orcid.org/" + c["orcid"] if c.get("orcid") else "",
                "affiliations": [],
            } for c in r.get("contributors") or []],
            "distributions": {"current": [{"uri": "https://sparc.science/datasets/{}".format(did)}], "api": [{"uri": r.get("uri", "")}]},
            "organisms": {"primary": [{"species": {"curie": s["curie"], "name": s["label"], "matchingStatus": "Exact Match", "parents": []}} for s in species]},
            "anatomy": {"organ": [{"curie": o["curie"], "name": o["label"], "matchingStatus": "Exact Match"} for o in organs]},
            "dates": {"created": {"timestamp": r.get("createdAt", "")}, "updated": [{"timestamp": r.get("updatedAt", "")}]},
            "provenance": provenance("Pennsieve Discover API sample (SPARC)", "portal_datasets", compact(r.get("createdAt")), did),
        }
        yield did, src


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data"))
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    a = ap.parse_args()
    shared, out = a.shared, a.out
    os.makedirs(out, exist_ok=True)
    rng = random.Random(20261122)
    taxa = load_jsonl(os.path.join(shared, "ncbitaxon_vertebrate_subset.jsonl"))
    uberon = load_jsonl(os.path.join(shared, "uberon_terms.jsonl"))
    cl = load_jsonl(os.path.join(shared, "cl_terms.jsonl"))
    lab_species = ["Homo sapiens", "Mus musculus", "Rattus norvegicus", "Danio rerio", "Sus scrofa", "Macaca mulatta"]
    organs = sorted(t["label"] for t in uberon if t.get("label") and " " not in t["label"] and len(t["label"]) < 12)[:400]
    cell_types = sorted(t["label"] for t in cl if t.get("label"))[:400]
    uberon_by_label = {t["label"].lower(): t for t in uberon if t.get("label")}
    taxa_by_label = {}
    for t in taxa:
        for s in [t.get("label", "")] + list(t.get("synonyms") or []):
            taxa_by_label.setdefault(s.lower(), t)

    plan = [
        ("scr_005400-registry_tools_pr-rin-" + STAMP, "tools.ndjson.gz", "registry", "rin", ["RIN_Tool_pr"], tools(shared)),
        ("scr_005400-registry_antibodies_pr-rin-" + STAMP, "antibodies.ndjson.gz", "registry", "rin", ["RIN_Antibody_pr"], antibodies(shared)),
        ("scr_005400-registry_cell_lines_pr-rin-" + STAMP, "cell_lines.ndjson.gz", "registry", "rin", ["RIN_CellLine_pr"], cell_lines(shared)),
        ("scr_005400-registry_organisms_pr-rin-" + STAMP, "organisms.ndjson.gz", "registry", "rin", ["RIN_Organism_pr"], organisms(taxa)),
        ("scr_005400-registry_plasmids_a_pr-rin-" + STAMP, "plasmids_a.ndjson.gz", "registry", "rin", ["RIN_PlasmidA_pr"], generated("plasmid", "GEN_PLA", 300, rng, lab_species, organs, cell_types)),
        ("scr_005400-registry_plasmids_b_pr-rin-" + STAMP, "plasmids_b.ndjson.gz", "registry", "rin", ["RIN_PlasmidB_main_pr"], generated("plasmid", "GEN_PLB", 300, rng, lab_species, organs, cell_types)),
        ("scr_005400-registry_biosamples_pr-rin-" + STAMP, "biosamples.ndjson.gz", "registry", "rin", ["RIN_BioSample_pr"], generated("biosample", "GEN_BSM", 300, rng, lab_species, organs, cell_types)),
        ("scr_005400-registry_protocols_pr-rin-" + STAMP, "protocols.ndjson.gz", "registry", "rin", ["RIN_Protocols_pr"], generated("protocol", "GEN_PRT", 300, rng, lab_species, organs, cell_types)),
        ("scr_002101-interlex_pr-term-" + STAMP, "lexicon.ndjson.gz", "lexicon", "term", ["Lexicon_pr"], lexicon(shared)),
        ("scr_017041-portal_datasets_pr-ks-" + STAMP, "datasets.ndjson.gz", "dataset", "ks", ["Portal_Dataset_pr"], datasets(shared, uberon_by_label, taxa_by_label)),
    ]
    manifest = []
    for index, fname, family, doc_type, aliases, docs in plan:
        n = write_index(out, fname, doc_type, docs)
        manifest.append({"index": index, "file": fname, "family": family, "type": doc_type, "aliases": aliases, "docs": n})
        print("{:>7} {}".format(n, index))
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump({"indices": manifest}, f, indent=1)
        f.write("\n")
    lic = os.path.join(out, "licenses")
    os.makedirs(lic, exist_ok=True)
    for name in sorted(os.listdir(os.path.join(shared, "licenses"))):
        shutil.copyfile(os.path.join(shared, "licenses", name), os.path.join(lic, name))


if __name__ == "__main__":
    main()
