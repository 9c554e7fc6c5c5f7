#!/usr/bin/env python3
"""Builds the metagate demo corpus from the real records in the project's shared data.

Writes one gzip-compressed Elasticsearch _bulk NDJSON file per concrete index (two lines
per record: the `index` action with `_id` and `_type`, then the `_source`), a
manifest.json naming each index, its template family, `_type`, aliases and record count,
and copies the licence texts into licenses/.

Deterministic: the same input gives byte-identical output (gzip mtime 0 and no file name,
inputs read in file order, uuid5 ids, generated records from a fixed seed, a fixed ingest
time). Python 3.11, standard library only.

    python3 data/demo/build_demo.py --shared /work/shared/data --out data/demo

Real sources: bio.tools, the Antibody Registry sample, Cellosaurus 55, NCBITaxon, InterLex
(NIF-Ontology), Uberon, CL and ten SPARC datasets (see NOTICE). Plasmids, biosamples and
protocols have no openly licensed source: those records are generated, and each says so
(provenance.ingestMethod "generated"; item.description begins "Generated demo record").
"""
import argparse
import datetime
import gzip
import html
import json
import os
import random
import re
import shutil
import uuid

STAMP = "2026nov22"
# Time the shared data was copied (README: 2026-11-22); used as ingest/last-seen time.
INGEST = "20261122T000000+0000"
NS = uuid.UUID("6f1c0e52-2b6e-4d55-9a43-9b4b0f0c6d21")
SEED = 20261122
GENERATED_PREFIX = "Generated demo record"

# The 20 lab species whose full lineage the NCBITaxon subset keeps (shared README).
LAB_TAXA = [
    "NCBITaxon:9606", "NCBITaxon:10090", "NCBITaxon:10116", "NCBITaxon:9823", "NCBITaxon:9825",
    "NCBITaxon:9685", "NCBITaxon:9615", "NCBITaxon:9669", "NCBITaxon:9544", "NCBITaxon:9541",
    "NCBITaxon:9940", "NCBITaxon:9986", "NCBITaxon:10141", "NCBITaxon:7955", "NCBITaxon:7227",
    "NCBITaxon:6239", "NCBITaxon:8355", "NCBITaxon:9913", "NCBITaxon:10036", "NCBITaxon:9598",
]
# Species used by the generated records (all looked up in the NCBITaxon file). Mammals
# only for tissues and protocols, so that every organ in GEN_ORGANS is plausible.
GEN_SPECIES = ["NCBITaxon:9606", "NCBITaxon:10090", "NCBITaxon:10116", "NCBITaxon:9823",
               "NCBITaxon:9544", "NCBITaxon:9986"]
GENE_SPECIES = ["NCBITaxon:9606", "NCBITaxon:10090", "NCBITaxon:10116", "NCBITaxon:7955"]
# Antibody targets that look like symbols but are not genes (chemicals, viruses, classes).
NOT_GENES = {"ACTH", "ALDH", "ASS", "ATP", "DBP2", "EBNA", "ECA39", "FITC", "GOAT", "GRIP", "GST",
             "HCV", "HEC", "HIV1", "HMW", "HTLV", "IKB", "JNK", "KIN", "LDL", "LH", "LPS", "LR11",
             "MHC", "PDGF", "PEP", "PI3", "PKC", "PMA", "RIP", "STAT", "SV40", "TATA", "TCR", "TR2"}
# Organs and cell types used by the generated records (all looked up in Uberon / CL).
GEN_ORGANS = ["brain", "heart", "liver", "kidney", "lung", "spleen", "pancreas", "stomach",
              "colon", "small intestine", "esophagus", "spinal cord", "retina", "urinary bladder",
              "skeletal muscle tissue", "adipose tissue", "bone marrow", "thymus", "lymph node",
              "thyroid gland", "adrenal gland", "testis", "ovary", "uterus", "prostate gland",
              "blood", "cerebral cortex", "hippocampal formation", "cerebellum",
              "dorsal root ganglion", "sciatic nerve", "vagus nerve", "aorta", "trachea",
              "skin of body", "mammary gland", "placenta", "duodenum", "hypothalamus",
              "olfactory bulb", "striatum", "gallbladder"]
GEN_CELL_TYPES = ["neuron", "astrocyte", "oligodendrocyte", "microglial cell", "hepatocyte",
                  "cardiac muscle cell", "T cell", "B cell", "macrophage", "fibroblast",
                  "endothelial cell", "keratinocyte", "epithelial cell", "stem cell", "monocyte",
                  "natural killer cell", "dendritic cell", "Schwann cell", "smooth muscle cell",
                  "adipocyte", "mast cell", "podocyte", "enterocyte", "osteoblast", "chondrocyte",
                  "myoblast", "GABAergic neuron", "interneuron", "motor neuron", "sensory neuron",
                  "retinal ganglion cell", "neutrophil", "hematopoietic stem cell"]
# Cell types that plausibly occur in each organ (CL labels); the fallback otherwise.
NEURAL = ["neuron", "astrocyte", "oligodendrocyte", "microglial cell", "GABAergic neuron", "interneuron"]
ORGAN_CELLS = {
    "brain": NEURAL, "cerebral cortex": NEURAL, "hippocampal formation": NEURAL, "cerebellum": NEURAL,
    "hypothalamus": NEURAL, "olfactory bulb": NEURAL, "striatum": NEURAL,
    "spinal cord": ["motor neuron", "interneuron", "astrocyte", "oligodendrocyte", "microglial cell"],
    "dorsal root ganglion": ["sensory neuron", "Schwann cell", "fibroblast"],
    "sciatic nerve": ["Schwann cell", "fibroblast", "macrophage"], "vagus nerve": ["Schwann cell", "sensory neuron", "fibroblast"],
    "retina": ["retinal ganglion cell", "neuron", "endothelial cell"],
    "heart": ["cardiac muscle cell", "fibroblast", "endothelial cell", "smooth muscle cell", "macrophage"],
    "aorta": ["smooth muscle cell", "endothelial cell", "fibroblast", "macrophage"],
    "liver": ["hepatocyte", "endothelial cell", "macrophage"], "kidney": ["podocyte", "epithelial cell", "endothelial cell"],
    "lung": ["epithelial cell", "endothelial cell", "macrophage", "fibroblast"], "trachea": ["epithelial cell", "smooth muscle cell"],
    "spleen": ["B cell", "T cell", "macrophage", "dendritic cell"], "thymus": ["T cell", "epithelial cell", "dendritic cell"],
    "lymph node": ["B cell", "T cell", "dendritic cell", "natural killer cell"],
    "bone marrow": ["hematopoietic stem cell", "monocyte", "neutrophil", "B cell"],
    "blood": ["T cell", "B cell", "monocyte", "neutrophil", "natural killer cell"],
    "small intestine": ["enterocyte", "smooth muscle cell", "mast cell"], "duodenum": ["enterocyte", "smooth muscle cell"],
    "colon": ["epithelial cell", "smooth muscle cell", "macrophage"], "stomach": ["epithelial cell", "smooth muscle cell"],
    "esophagus": ["epithelial cell", "smooth muscle cell"], "skin of body": ["keratinocyte", "fibroblast", "mast cell"],
    "skeletal muscle tissue": ["myoblast", "fibroblast", "endothelial cell"], "adipose tissue": ["adipocyte", "stem cell", "macrophage"],
}
CELL_FALLBACK = ["epithelial cell", "fibroblast", "endothelial cell", "macrophage", "smooth muscle cell"]
VECTOR_BACKBONES = ["pcDNA3.1", "pLenti", "pAAV", "pET-28a", "pGEX-4T-1", "pCMV", "pX330",
                    "pMSCV", "pLKO.1", "pCAG", "pEGFP-N1", "pUC19"]
PLASMID_PURPOSES = ["expression", "knockdown", "reporter", "CRISPR targeting", "fusion protein"]
SAMPLE_PREPS = ["fresh frozen", "formalin fixed, paraffin embedded", "dissociated", "cultured",
                "snap frozen", "perfusion fixed"]
SEXES = ["male", "female"]
AGE_CATEGORIES = ["embryonic", "juvenile", "adult", "aged"]
PROTOCOL_KINDS = [("Isolation and culture of {ct} from {organ}", "isolation"),
                  ("Immunostaining of {ct} in {organ} sections", "immunohistochemistry"),
                  ("Single-cell dissociation of {organ} for {ct} profiling", "dissociation"),
                  ("Flow cytometry sorting of {ct} from {organ}", "flow cytometry"),
                  ("Whole-mount clearing and imaging of {organ}", "tissue clearing")]


# -- helpers ------------------------------------------------------------------------------
def compact(ts):
    """ISO 8601 timestamp -> the gateway's compact form YYYYMMDDThhmmss+0000 (UTC)."""
    if not ts:
        return INGEST
    d = datetime.datetime.fromisoformat(ts.replace("Z", "+00:00"))
    if d.tzinfo is not None:
        d = d.astimezone(datetime.timezone.utc)
    return d.strftime("%Y%m%dT%H%M%S") + "+0000"


def with_fraction(ts):
    """Mention timestamps carry a fraction of a second, as the production records do."""
    d = datetime.datetime.fromisoformat(ts.replace("Z", "+00:00")).astimezone(datetime.timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S.%f") + "Z"


def iso_stamp(ts):
    """{timestamp, epoch} with epoch as a string of digits (seconds)."""
    if not ts:
        return None
    d = datetime.datetime.fromisoformat(ts.replace("Z", "+00:00"))
    return {"timestamp": ts, "epoch": str(int(d.timestamp()))}


def uniq(values):
    """Order-preserving de-duplication, dropping empty values."""
    out, seen = [], set()
    for v in values:
        if v in (None, "") or v in seen:
            continue
        seen.add(v)
        out.append(v)
    return out


def clean(text):
    return html.unescape(str(text)).strip() if text is not None else ""


def prune(obj):
    """Drops None, empty strings, empty lists and empty objects (recursively), keeping the
    key order. Members the layout always carries are re-added by the callers."""
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            v = prune(v)
            if v is None or v == "" or v == [] or v == {}:
                continue
            out[k] = v
        return out
    if isinstance(obj, list):
        return [x for x in (prune(v) for v in obj) if x not in (None, "", [], {})]
    return obj


def load_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def write_index(out_dir, file_name, doc_type, docs):
    """Writes the _bulk file; returns the record count. Raises on a duplicate _id."""
    path = os.path.join(out_dir, file_name)
    seen = set()
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
            for _id, src in docs:
                if _id in seen:
                    raise SystemExit("duplicate _id {!r} in {}".format(_id, file_name))
                seen.add(_id)
                action = {"index": {"_id": _id, "_type": doc_type}}
                gz.write((json.dumps(action, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8"))
                gz.write((json.dumps(src, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8"))
    return len(seen)


# -- shared RIN record parts --------------------------------------------------------------
def provenance(method, target, pattern, created, key, notes=None):
    p = {
        "ingestMethod": method,
        "ingestTarget": target,
        "filePattern": pattern,
        "ingestTime": INGEST,
        "lastSeenDate": INGEST,
        "creationDate": created or [INGEST],
        "docId": key,
        "primaryKey": key,
    }
    if notes:
        p["notes"] = notes
    return p


def rin_item(name, description, identifier, types, type_kind, supertype, keywords=(),
             synonyms=(), abbreviations=(), alt_ids=(), extra=None):
    docid = identifier.lower()
    item = {
        "name": name,
        "description": description,
        "identifier": identifier,
        "docid": docid,
        "curie": identifier,
        "uuid": str(uuid.uuid5(NS, docid)),
        "types": [{"name": t, "type": type_kind} for t in uniq(types)],
        "supercategory": [{"name": "Resource", "type": supertype}],
        "contentTypes": [{"curie": "", "name": supertype}],
        "language": "en",
        "keywords": [{"keyword": k} for k in uniq(keywords)],
        "synonyms": [{"name": s} for s in uniq(synonyms)],
        "abbreviations": [{"name": a} for a in uniq(abbreviations)],
        "alternateIdentifiers": [{"identifier": a} for a in uniq(alt_ids)],
    }
    if extra:
        item.update(extra)
    return item


def rin_record(sections):
    """Assembles a RIN `_source`: prunes empty members (provenance is kept whole), lists
    the sections present in dataItem.dataTypes, and ends with recordValid."""
    sections = dict(sections)
    prov = sections.pop("provenance")
    src = prune(sections)
    src["provenance"] = prov
    src["dataItem"] = {"dataTypes": list(src)}
    src["recordValid"] = True
    return src


def mention(count, availability, ts):
    return [{
        "totalResourceMentions": {"count": count},
        "totalRRIDMentions": {"count": 0},
        "totalMentions": {"count": count},
        "availability": {"keyword": availability},
        "timestamp": ts,
    }]


# -- tools (bio.tools) --------------------------------------------------------------------
ABBR = re.compile(r"^(?P<long>.*\S)\s*\((?P<abbr>[^()\s]+)\)\s*$")


def tools(shared):
    path = os.path.join(shared, "biotools_tools.jsonl.gz")
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            tid = r["biotoolsID"]
            ident = "biotools:" + tid
            name = r.get("name") or tid
            topics = [t["term"] for t in r.get("topic") or [] if t.get("term")]
            ops = [o["term"] for fn in r.get("function") or [] for o in fn.get("operation") or [] if o.get("term")]
            tool_types = r.get("toolType") or []
            refs = []
            for p in r.get("publication") or []:
                if p.get("doi"):
                    refs.append("DOI:" + p["doi"])
                if p.get("pmid"):
                    refs.append("PMID:" + str(p["pmid"]))
                if p.get("pmcid"):
                    refs.append("PMCID:" + p["pmcid"])
            pubs = len(r.get("publication") or [])
            m = ABBR.match(name)
            abbreviations = [m.group("abbr")] if m else []
            synonyms = [m.group("long")] if m else []
            alt_ids = [o.get("value") for o in r.get("otherID") or []]
            item = rin_item(
                name, r.get("description") or "", ident,
                [t.lower() for t in tool_types] or ["software resource"], "resource type", "software",
                keywords=topics + ops, synonyms=synonyms, abbreviations=abbreviations, alt_ids=alt_ids,
                extra={
                    "toolType": tool_types,
                    "programmingLanguages": r.get("language") or [],
                    "operatingSystem": r.get("operatingSystem") or [],
                    "license": r.get("license") or "",
                    "maturity": r.get("maturity") or "",
                    "versions": r.get("version") or [],
                    "collections": r.get("collectionID") or [],
                    "edamTopics": [{"curie": "EDAM:" + t["uri"].rsplit("/", 1)[-1], "name": t["term"]}
                                   for t in r.get("topic") or [] if t.get("uri") and t.get("term")],
                },
            )
            created = uniq([compact(r.get("additionDate")), compact(r.get("lastUpdate"))])
            src = rin_record({
                "item": item,
                "authority": {"name": "bio.tools"},
                "distributions": {
                    "current": [{"type": "landing page", "uri": r.get("homepage") or ""}]
                    + [{"type": "download", "uri": d["url"]} for d in r.get("download") or [] if d.get("url")],
                    "alternate": [{"uri": d["url"]} for d in (r.get("documentation") or []) + (r.get("link") or []) if d.get("url")],
                },
                "rrid": {"is_unique": "true", "curie": ident, "properCitation": "({}, {})".format(name, ident)},
                "disco": {"v_uuid": str(uuid.uuid5(NS, "version:" + ident.lower()))},
                "references": [{"curie": c} for c in uniq(refs)],
                "credits": [{"name": c.get("name"), "type": c.get("typeEntity") or "",
                             "roles": c.get("typeRole") or [], "orcid": c.get("orcidid") or ""}
                            for c in r.get("credit") or [] if c.get("name")],
                "mentions": mention(pubs, "available" if pubs else "unknown",
                                    with_fraction(r.get("lastUpdate") or r.get("additionDate"))),
                "organization": {"hierarchy": {}},
                "provenance": provenance(
                    "bio.tools import", "registry_tools", "data/<id>/<id>.biotools.json", created, ident.lower(),
                    "bio-tools/content@51540fd (bio.tools import 2021-03-07), CC BY 4.0. mentions[] counts are "
                    "derived: the number of publications the bio.tools record lists; not mined mention counts."),
            })
            yield ident.lower(), src


# -- antibodies ---------------------------------------------------------------------------
def split_species(text):
    out = []
    for s in clean(text).split(","):
        s = s.split(" - ")[0].strip().rstrip("-").strip()
        if s:
            out.append(s)
    return uniq(out)


def antibodies(shared):
    with open(os.path.join(shared, "antibody_registry_sample_1000.json"), encoding="utf-8") as f:
        data = json.load(f)
    for r in data:
        abid = str(r["ab_id"]).strip()
        ident = "RRID:" + (abid if abid.startswith("AB_") else "AB_" + abid)
        name = clean(r.get("ab_name")) or ident
        vendor = clean(r.get("vendor"))
        cat = clean(r.get("catalog_num"))
        target = clean(r.get("ab_target"))
        clonality = clean(r.get("clonality"))
        species = split_species(r.get("target_species"))
        refs = [x.strip() for x in str(r.get("reference") or "").split(",") if x.strip()]
        desc = clean(r.get("comments")) or "{} from {}, catalog number {}.".format(name, vendor, cat)
        item = rin_item(name, desc, ident, ["antibody"], "resource type", "antibody",
                        keywords=[target], alt_ids=[], extra={"cloneId": clean(r.get("clone_id"))})
        src = rin_record({
            "item": item,
            "authority": {"name": "Antibody Registry"},
            "rrid": {"is_unique": "true", "curie": ident, "properCitation": clean(r.get("proper_citation"))},
            "vendors": [{"name": vendor, "catalogNumber": cat}],
            "antibodies": {"primary": [{
                "targets": [{"name": target}],
                "clonality": {"name": clonality},
                "cloneId": clean(r.get("clone_id")),
            }]},
            "organisms": {"related": [{"role": "target organism", "species": {"name": s}} for s in species]},
            "references": [{"curie": c} for c in uniq(refs)],
            "mentions": mention(len(refs), "available" if refs else "unknown", "2022-09-21T00:00:00.000000Z"),
            "provenance": provenance(
                "Antibody Registry sample", "registry_antibodies", "data.json", [INGEST], ident.lower(),
                "MetaCell/scicrunch-antibody-registry@0616a74 applications/portal/frontend/src/services/data.json. "
                "Placeholder fields of the sample (url, host, insert_time, curate_time, commercialType) are not used; "
                "HTML entities unescaped. mentions[] counts are derived: the number of PMIDs in the record's "
                "reference field."),
        })
        yield ident.lower(), src


# -- cell lines ---------------------------------------------------------------------------
def cell_lines(shared, limit=20000):
    rows = []
    with open(os.path.join(shared, "cellosaurus_cvcl_labels.tsv"), encoding="utf-8") as f:
        header = next(f)
        assert header.split("\t")[0] == "rrid"
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 3 and parts[0]:
                rows.append(parts)
    n = len(rows)
    picks = sorted({(i * n) // limit for i in range(limit)}) if n > limit else range(n)
    for i in picks:
        rrid, cvcl, label = rows[i]
        item = rin_item(label, "Cell line {} (Cellosaurus {}).".format(label, cvcl), rrid, ["cell line"],
                        "resource type", "cell line", alt_ids=["Cellosaurus:" + cvcl])
        src = rin_record({
            "item": item,
            "authority": {"name": "Cellosaurus"},
            "rrid": {"is_unique": "true", "curie": rrid, "properCitation": "({})".format(rrid)},
            "distributions": {"current": [{"type": "landing page", "uri": "https://www.cellosaurus.org/" + cvcl}]},
            "provenance": provenance(
                "Cellosaurus release 55", "registry_cell_lines", "cellosaurus_cvcl_labels.tsv", [INGEST], rrid.lower(),
                "Evenly spaced deterministic subset ({} of {} rows). Cellosaurus 55, CC BY 4.0; the source has "
                "labels only (no species, disease or synonyms).".format(min(n, limit), n)),
        })
        yield rrid.lower(), src


# -- organisms ----------------------------------------------------------------------------
class Taxa:
    def __init__(self, taxa):
        self.taxa = taxa
        self.by_curie = {t["curie"]: t for t in taxa}

    def label(self, curie):
        t = self.by_curie.get(curie)
        return t.get("label", "") if t else ""

    def lineage(self, curie):
        """Ancestors nearest first, following the first parent (NCBITaxon is a tree)."""
        out, seen = [], {curie}
        t = self.by_curie.get(curie)
        while t and t.get("parents"):
            p = t["parents"][0]
            if p in seen:
                break
            seen.add(p)
            out.append(p)
            t = self.by_curie.get(p)
        return out

    def species_ref(self, curie):
        return {"curie": curie, "name": self.label(curie)}


def organisms(taxa):
    for t in taxa.taxa:
        curie = t["curie"]
        label = t.get("label") or curie
        parents = t.get("parents") or []
        lineage = taxa.lineage(curie)
        desc = "{} ({}), NCBI Taxonomy. Lineage: {}.".format(
            label, curie, " < ".join(taxa.label(p) or p for p in lineage) or "root")
        item = rin_item(label, desc, curie, ["organism"], "resource type", "organism",
                        synonyms=t.get("synonyms") or [],
                        extra={"parents": [taxa.species_ref(p) for p in parents],
                               "lineage": [taxa.species_ref(p) for p in lineage]})
        src = rin_record({
            "item": item,
            "authority": {"name": "NCBI Taxonomy"},
            "rrid": {"is_unique": "true", "curie": curie, "properCitation": "({})".format(curie)},
            "organisms": {"related": [{"role": "self", "species": {"name": label, "curie": curie}}]},
            "graph": {"parent": [{"resource": {"identifier": p, "name": taxa.label(p)},
                                  "relationship": {"identifier": "subClassOf", "name": "is_a"}} for p in parents]},
            "distributions": {"current": [{"type": "landing page",
                                           "uri": "http://purl.obolibrary.org/obo/NCBITaxon_" + curie.split(":")[1]}]},
            "provenance": provenance(
                "NCBITaxon OBO build", "registry_organisms", "ncbitaxon_vertebrate_subset.jsonl", [INGEST], curie.lower(),
                "NCBITaxon-ontology-v2026-05-13 via cellxgene-ontology-guide 1.11.1; CC0 1.0."),
        })
        yield curie.lower(), src


# -- generated registries -----------------------------------------------------------------
GENE_LIKE = re.compile(r"^[A-Z][A-Z0-9]{1,7}(-[A-Z0-9]{1,3})?$")


def gene_names(shared):
    """Real gene/protein target symbols taken from the antibody sample."""
    with open(os.path.join(shared, "antibody_registry_sample_1000.json"), encoding="utf-8") as f:
        data = json.load(f)
    names = set()
    for r in data:
        t = clean(r.get("ab_target")).split(" ")[0].rstrip(",")
        if GENE_LIKE.match(t) and not t.startswith("HLA") and t not in NOT_GENES:
            names.add(t)
    return sorted(names)


def generated_records(kind, prefix, n, rng, ctx):
    species_pool = [ctx["taxa"].species_ref(c) for c in GEN_SPECIES]
    gene_species = [ctx["taxa"].species_ref(c) for c in GENE_SPECIES]
    for i in range(1, n + 1):
        ident = "DEMO:{}_{:06d}".format(prefix, i)
        sp = rng.choice(species_pool)
        organ = rng.choice(ctx["organs"])
        ct = ctx["cell_types"][rng.choice(ORGAN_CELLS.get(organ["name"], CELL_FALLBACK))]
        extra, sections = {}, {}
        if kind == "plasmid":
            gene = rng.choice(ctx["genes"])
            ct = ctx["cell_types"][rng.choice(GEN_CELL_TYPES)]
            sp = rng.choice(gene_species)
            backbone = rng.choice(VECTOR_BACKBONES)
            purpose = rng.choice(PLASMID_PURPOSES)
            name = "{}-{}".format(backbone, gene)
            desc = ("{}: {} plasmid on a {} backbone carrying {} ({} gene) for use in {} cells. "
                    "Not a real repository entry.").format(GENERATED_PREFIX, purpose, backbone, gene, sp["name"], ct["name"])
            types, keywords = ["plasmid"], [gene, purpose, backbone]
            extra = {"insert": {"gene": gene, "species": sp}, "backbone": backbone, "purpose": purpose}
            sections["organisms"] = {"related": [{"role": "gene species", "species": sp}]}
        elif kind == "biosample":
            prep = rng.choice(SAMPLE_PREPS)
            sex, age = rng.choice(SEXES), rng.choice(AGE_CATEGORIES)
            name = "{} {} sample {:04d}".format(sp["name"], organ["name"], i)
            desc = ("{}: {} {} sample from a {} {} ({} donor), enriched for {}. Not a real biosample.").format(
                GENERATED_PREFIX, prep, organ["name"], sex, sp["name"], age, ct["name"])
            types, keywords = ["biosample"], [organ["name"], ct["name"], prep]
            sections["organisms"] = {"related": [{"role": "source organism", "species": sp}]}
            sections["anatomy"] = {"organ": [organ]}
            sections["cells"] = {"types": [ct]}
            sections["attributes"] = {"sex": {"value": sex}, "ageCategory": {"value": age}}
        else:
            template, technique = rng.choice(PROTOCOL_KINDS)
            name = template.format(ct=ct["name"], organ=organ["name"]) + " ({}) v{}".format(sp["name"], 1 + i % 3)
            desc = ("{}: step-by-step {} protocol for {} {} ({}). Not a published protocol.").format(
                GENERATED_PREFIX, technique, sp["name"], organ["name"], ct["name"])
            types, keywords = ["protocol"], [technique, organ["name"], ct["name"]]
            sections["organisms"] = {"related": [{"role": "studied organism", "species": sp}]}
            sections["anatomy"] = {"organ": [organ]}
        item = rin_item(name, desc, ident, types, "resource type", kind, keywords=keywords + ["generated"],
                        extra=extra)
        src = rin_record({
            "item": item,
            "authority": {"name": "metagate demo generator"},
            "rrid": {"is_unique": "false", "curie": ident, "properCitation": "({}, generated demo record)".format(ident)},
            **sections,
            "provenance": provenance(
                "generated", "registry_" + kind + "s", "build_demo.py", [INGEST], ident.lower(),
                "Generated by data/demo/build_demo.py (seed {}); no openly licensed {} records were found. "
                "Species, organs, cell types and gene symbols are real terms from NCBITaxon, Uberon, CL and the "
                "antibody sample; the records themselves are not real.".format(SEED, kind)),
        })
        yield ident.lower(), src


# -- lexicon ------------------------------------------------------------------------------
def obo_iri(curie):
    prefix, _, local = curie.partition(":")
    return "http://purl.obolibrary.org/obo/{}_{}".format(prefix, local)


def merge_lists(a, b):
    out = list(a)
    for x in b:
        if x not in out:
            out.append(x)
    return out


def closure(start, parents_of):
    """Transitive ancestors, breadth first (nearest first), each once."""
    out, seen, frontier = [], {start}, list(parents_of(start))
    while frontier:
        nxt = []
        for p in frontier:
            if p in seen:
                continue
            seen.add(p)
            out.append(p)
            nxt.extend(parents_of(p))
        frontier = nxt
    return out


def lexicon(shared):
    # InterLex SPARC terms: keep ilx ids; duplicate rows (4 ids appear twice) are merged.
    terms = {}
    for t in load_jsonl(os.path.join(shared, "interlex_sparc_terms.jsonl")):
        key = t["ilx"].lower()
        if key in terms:
            old = terms[key]
            for k in ("synonyms", "existing_ids", "superclasses", "partOf"):
                old[k] = merge_lists(old.get(k) or [], t.get(k) or [])
            for k in ("definition", "comment"):
                old[k] = old.get(k) or t.get(k) or ""
        else:
            terms[key] = dict(t)
    ilx_label = {k: t.get("label", "") for k, t in terms.items()}

    def ilx_parents(k):
        return [s["ilx"].lower() for s in terms[k].get("superclasses") or [] if s.get("ilx") and s["ilx"].lower() in terms] \
            if k in terms else []

    for key, t in terms.items():
        anc = closure(key, ilx_parents)
        src = {
            "ilx": t["ilx"],
            "label": t.get("label", ""),
            "definition": t.get("definition", ""),
            "comment": t.get("comment", ""),
            "type": t.get("type", ""),
            "status": t.get("status", ""),
            "synonyms": t.get("synonyms") or [],
            "existing_ids": t.get("existing_ids") or [],
            "superclasses": t.get("superclasses") or [],
            "ancestors": [{"ilx": a, "label": ilx_label.get(a, "")} for a in anc],
            "partOf": t.get("partOf") or [],
            "source": "InterLex (NIF-Ontology sparc-community-terms.ttl)",
        }
        yield key, src

    # Uberon and CL: no ilx ids; the lower-cased curie serves as _id and ilx.
    obo = []
    for fname in ("uberon_terms.jsonl", "cl_terms.jsonl"):
        obo.extend((fname, t) for t in load_jsonl(os.path.join(shared, fname)))
    by_curie = {t["curie"]: t for _, t in obo}

    def obo_parents(c):
        return [p for p in (by_curie[c].get("parents") or []) if p in by_curie] if c in by_curie else []

    def ref(c):
        return {"ilx": c.lower(), "curie": c, "label": by_curie[c].get("label", "") if c in by_curie else ""}

    for fname, t in obo:
        curie = t["curie"]
        source = "Uberon" if fname.startswith("uberon") else "Cell Ontology"
        yield curie.lower(), {
            "ilx": curie.lower(),
            "label": t.get("label", ""),
            "definition": t.get("definition", ""),
            "comment": "",
            "type": "term",
            "status": "0",
            "synonyms": [{"literal": s, "type": ""} for s in uniq(t.get("synonyms") or [])],
            "existing_ids": [{"curie": curie, "iri": obo_iri(curie), "preferred": "1"}],
            "superclasses": [ref(p) for p in t.get("parents") or []],
            "ancestors": [{"ilx": a.lower(), "label": by_curie[a].get("label", "")} for a in closure(curie, obo_parents)],
            "source": source,
        }


# -- datasets -----------------------------------------------------------------------------
def build_matchers(uberon, taxa):
    ub_label, ub_syn = {}, {}
    for t in uberon:
        if t.get("label"):
            ub_label.setdefault(t["label"].lower(), t)
        for s in t.get("synonyms") or []:
            ub_syn.setdefault(s.lower(), []).append(t)
    tx_label, tx_syn = {}, {}
    for t in taxa.taxa:
        tx_label.setdefault(t["label"].lower(), t)
        for s in t.get("synonyms") or []:
            tx_syn.setdefault(s.lower(), []).append(t)

    def organ(tag):
        tag = tag.lower().strip()
        if tag in ub_label:
            return ub_label[tag]
        c = ub_syn.get(tag) or []
        return c[0] if len(c) == 1 else None

    def species(tag):
        tag = tag.lower().strip()
        if tag in tx_label:
            return tx_label[tag]
        c = tx_syn.get(tag) or []
        lab = [t for t in c if t["curie"] in LAB_TAXA]
        if lab:
            return lab[0]
        return c[0] if len(c) == 1 else None

    return organ, species


def datasets(shared, organ_of, species_of, taxa):
    with open(os.path.join(shared, "sparc_pennsieve_discover_datasets_sample.json"), encoding="utf-8") as f:
        data = json.load(f)
    for r in sorted(data, key=lambda r: int(r["id"])):
        did = str(r["id"])
        tags = [t.strip() for t in r.get("tags") or [] if t and t.strip()]
        organs = {}
        for t in tags:
            o = organ_of(t)
            if o:
                organs.setdefault(o["curie"], o)
        species = {}
        for t in tags:
            s = species_of(t)
            if s:
                species.setdefault(s["curie"], s)
        # Drop a species whose descendant is also tagged ("pig" next to "sus scrofa domesticus").
        for c in list(species):
            if any(c in taxa.lineage(o) for o in species if o != c):
                del species[c]
        counts = {m["modelName"]: m["count"] for m in r.get("modelCount") or []}
        subjects = counts.get("animal_subject", counts.get("subject", counts.get("sample_subject", 0)))
        doi = r.get("doi") or ""
        name = r.get("name", "")
        desc = r.get("description", "")
        created = r.get("createdAt") or ""
        src = {
            "item": {
                "version": {"keyword": "demo-1", "description": "metagate demo layout converted from a Pennsieve Discover API (2020) record"},
                "types": [{"name": "dataset", "type": "dataset"}],
                "contentTypes": [{"curie": "", "name": "dataset"}],
                "statistics": {
                    "files": {"count": str(r.get("fileCount") or 0)},
                    "subjects": {"count": str(subjects or 0)},
                    "samples": {"count": str(counts.get("sample", 0))},
                    "bytes": {"count": str(r.get("size") or 0)},
                },
                "keywords": [{"keyword": t} for t in uniq(tags)],
                "published": {"status": "revision" if r.get("revision") else "published", "boolean": "true"},
                "dataset": {"name": name, "description": desc},
                "name": name,
                "identifier": "N:dataset:{}".format(r.get("sourceDatasetId")) if r.get("sourceDatasetId") is not None else "",
                "curie": "DOI:" + doi if doi else "",
                "docid": did,
                "description": desc,
            },
            "supportingAwards": [{"agency": {"name": r["sponsorship"]["title"]}}]
            if (r.get("sponsorship") or {}).get("title") else [],
            "platform": {
                "files": {"count": str(r.get("fileCount") or 0)},
                "records": {"count": str(r.get("recordCount") or 0)},
                "owner": {
                    "researcher_id": {"identifier": r.get("ownerOrcid") or ""},
                    "identifier": str(r.get("ownerId") or ""),
                    "first": {"name": (r.get("ownerFirstName") or "").strip()},
                    "last": {"name": (r.get("ownerLastName") or "").strip()},
                },
                "organization": {"identifier": str(r.get("organizationId") or ""), "name": r.get("organizationName") or ""},
                "arn": r.get("arn") or "",
                "uri": r.get("uri") or "",
                "createdAt": iso_stamp(r.get("createdAt")),
                "firstPublishedAt": iso_stamp(r.get("firstPublishedAt")),
                "versionPublishedAt": iso_stamp(r.get("versionPublishedAt")),
                "updatedAt": iso_stamp(r.get("updatedAt")),
                "revisedAt": iso_stamp(r.get("revisedAt")),
                "status": r.get("status") or "",
                "name": name,
                "description": desc,
                "banner": {"uri": r.get("banner") or ""},
                "readme": {"uri": r.get("readme") or ""},
                "license": {"keyword": r.get("license") or ""},
                "version": {"identifier": str(r.get("version") or "")},
                "revision": {"identifier": str(r["revision"]) if r.get("revision") is not None else ""},
                "sourceDataset": {"identifier": str(r.get("sourceDatasetId") or "")},
                "identifier": did,
                "schemaVersion": {"identifier": r.get("blackfynnSchemaVersion") or ""},
                "embargo": {"keyword": "true" if r.get("embargo") else "false"},
            },
            "contributors": [{
                "last": {"name": (c.get("lastName") or "").strip()},
                "first": {"name": (c.get("firstName") or "").strip()},
                "name": " ".join(x for x in [(c.get("firstName") or "").strip(), (c.get("middleInitial") or "").strip(),
                                              (c.get("lastName") or "").strip()] if x),
                "curie": "ORCID:" + c["orcid"] if c.get("orcid") else "",
                "uri": "https://orcid.org/" + c["orcid"] if c.get("orcid") else "",
                "degree": c.get("degree") or "",
            } for c in r.get("contributors") or []],
            "distributions": {
                "current": [{"uri": "https://sparc.science/datasets/{}".format(did)}],
                "api": [{"uri": "https://api.pennsieve.io/discover/datasets/{}".format(did)}],
            },
            "organisms": {"primary": [{"species": {
                "curie": s["curie"], "name": s["label"], "matchingStatus": "Exact Match",
                "parents": [taxa.species_ref(p) for p in taxa.lineage(s["curie"])],
            }} for s in species.values()]},
            "anatomy": {"organ": [{"curie": o["curie"], "name": o["label"], "matchingStatus": "Exact Match"}
                                  for o in organs.values()]},
            "dates": {"created": {"timestamp": created}, "updated": [{"timestamp": r.get("updatedAt") or ""}]},
        }
        src = prune(src)
        src["provenance"] = provenance(
            "Pennsieve Discover API sample", "portal_datasets", "dataset-data.js",
            uniq([compact(r.get("firstPublishedAt")), compact(created)]), did,
            "nih-sparc/sparc-design-system-components@c9b0b3e src/stories/table/dataset-data.js. anatomy.organ and "
            "organisms.primary come from matching the dataset's tags against Uberon and NCBITaxon labels/synonyms.")
        yield did, src


# -- main ---------------------------------------------------------------------------------
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", required=True, help="folder holding the shared data files (README.md, licenses/)")
    ap.add_argument("--out", required=True, help="output folder (data/demo)")
    a = ap.parse_args()
    shared, out = a.shared, a.out
    os.makedirs(out, exist_ok=True)

    taxa = Taxa(load_jsonl(os.path.join(shared, "ncbitaxon_vertebrate_subset.jsonl")))
    uberon = load_jsonl(os.path.join(shared, "uberon_terms.jsonl"))
    cl = load_jsonl(os.path.join(shared, "cl_terms.jsonl"))
    ub_by_label = {t["label"]: t for t in uberon if t.get("label")}
    cl_by_label = {t["label"]: t for t in cl if t.get("label")}
    for c in GEN_SPECIES + LAB_TAXA:
        assert c in taxa.by_curie, c
    ctx = {
        "taxa": taxa,
        "organs": [{"curie": ub_by_label[o]["curie"], "name": o} for o in GEN_ORGANS],
        "cell_types": {c: {"curie": cl_by_label[c]["curie"], "name": c} for c in GEN_CELL_TYPES},
        "genes": gene_names(shared),
    }
    organ_of, species_of = build_matchers(uberon, taxa)

    def gen(kind, prefix, offset):
        return generated_records(kind, prefix, 300, random.Random(SEED + offset), ctx)

    reg = "scr_005400-registry_{}_pr-rin-" + STAMP
    plan = [
        (reg.format("tools"), "tools.ndjson.gz", "registry", "rin", ["RIN_Tool_pr"], tools(shared)),
        (reg.format("antibodies"), "antibodies.ndjson.gz", "registry", "rin", ["RIN_Antibody_pr"], antibodies(shared)),
        (reg.format("cell_lines"), "cell_lines.ndjson.gz", "registry", "rin", ["RIN_CellLine_pr"], cell_lines(shared)),
        (reg.format("organisms"), "organisms.ndjson.gz", "registry", "rin", ["RIN_Organism_pr"], organisms(taxa)),
        (reg.format("plasmids_a"), "plasmids_a.ndjson.gz", "registry", "rin", ["RIN_PlasmidA_pr"], gen("plasmid", "PLASMIDA", 1)),
        (reg.format("plasmids_b"), "plasmids_b.ndjson.gz", "registry", "rin", ["RIN_PlasmidB_main_pr"], gen("plasmid", "PLASMIDB", 2)),
        (reg.format("biosamples"), "biosamples.ndjson.gz", "registry", "rin", ["RIN_BioSample_pr"], gen("biosample", "BIOSAMPLE", 3)),
        (reg.format("protocols"), "protocols.ndjson.gz", "registry", "rin", ["RIN_Protocols_pr"], gen("protocol", "PROTOCOL", 4)),
        ("scr_002101-interlex_pr-term-" + STAMP, "lexicon.ndjson.gz", "lexicon", "term", ["Lexicon_pr"], lexicon(shared)),
        ("scr_017041-portal_datasets_pr-ks-" + STAMP, "datasets.ndjson.gz", "dataset", "ks", ["Portal_Dataset_pr"],
         datasets(shared, organ_of, species_of, taxa)),
    ]
    manifest = []
    for index, fname, family, doc_type, aliases, docs in plan:
        n = write_index(out, fname, doc_type, docs)
        manifest.append({"index": index, "file": fname, "family": family, "type": doc_type, "aliases": aliases, "docs": n})
        print("{:>7}  {:<24} {}".format(n, fname, index))
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump({"indices": manifest}, f, indent=1, ensure_ascii=False)
        f.write("\n")
    lic = os.path.join(out, "licenses")
    os.makedirs(lic, exist_ok=True)
    for name in sorted(os.listdir(os.path.join(shared, "licenses"))):
        shutil.copyfile(os.path.join(shared, "licenses", name), os.path.join(lic, name))


if __name__ == "__main__":
    main()
