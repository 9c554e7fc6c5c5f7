//! The Markdown section of BENCHMARKS.md, written between marker comments so that a rerun
//! replaces exactly its own section and nothing else.

use crate::engines::ENGINES;
use serde_json::Value;
use std::fmt::Write;
use std::path::Path;

/// The markers around the section.
pub const BEGIN: &str = "<!-- compare:begin (written by benches/compare; rerun to replace) -->";
/// The end marker.
pub const END: &str = "<!-- compare:end -->";

/// Display names.
fn label(engine: &str) -> &str {
    match engine {
        "metagate" => "metagate",
        "tantivy" => "tantivy 0.27",
        "fts5" => "SQLite FTS5",
        other => other,
    }
}

/// A latency in microseconds, in the unit that reads best.
fn ms(us: f64) -> String {
    let m = us / 1000.0;
    if m >= 100.0 {
        format!("{m:.0}")
    } else if m >= 10.0 {
        format!("{m:.1}")
    } else if m >= 1.0 {
        format!("{m:.2}")
    } else {
        format!("{m:.3}")
    }
}

/// Thousands separators.
fn thousands(x: f64) -> String {
    let s = format!("{:.0}", x);
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// What each engine runs per class (the translation is in `src/engines/`).
const TRANSLATIONS: [(&str, &str, &str, &str); 11] = [
    ("Q1", "`term` `item.identifier.aggregate`", "`TermQuery` on a raw lower-cased field", "`identifier = ?` (B-tree index)"),
    ("Q2", "`match` `item.description`", "`TermQuery` (BM25)", "`description : \"w\"`, `ORDER BY rank` (bm25)"),
    ("Q3", "`match` 2 words", "`BooleanQuery` 2× Should", "`description : (\"a\" OR \"b\")`"),
    ("Q4", "`match` 2 words, `operator: and`", "`BooleanQuery` 2× Must", "`description : (\"a\" AND \"b\")`"),
    ("Q5", "`match_phrase`", "`PhraseQuery`", "`description : \"a b\"`"),
    (
        "Q6",
        "`query_string` `fields: [\"*\"]`, `cross_fields`, AND; `terms` + date `range` filters",
        "per word Must(Should over name, description, other); filters as `ConstScoreQuery(0)` over `TermSetQuery` and a fast-field `RangeQuery` (scores are summed per field, not ES's blended cross_fields)",
        "`\"a\" AND \"b\"` over all three columns, joined to `docs` with `types IN (…)` and `created` range, `ORDER BY rank`",
    ),
    ("Q7", "`size: 0`, `terms` agg size 200 on `item.keywords.keyword.aggregate`", "`(AggregationCollector, Count)`, terms agg on a fast field", "`GROUP BY keyword` over the match joined to a keyword table, `ORDER BY count DESC, keyword LIMIT 200`"),
    ("Q8", "`bool.filter` `term` organism, `sort` `item.name.aggregate`, size 100", "`TopDocs::order_by_string_fast_field`", "`WHERE organism = ? ORDER BY name_key, rowid LIMIT 100`"),
    ("Q9a", "`prefix` `item.identifier.aggregate`", "`RegexQuery` `prefix.*`", "`identifier GLOB 'prefix*'` (uses the index)"),
    ("Q9b", "`wildcard` `item.name.aggregate` `abc*e*`", "`RegexQuery` `abc.*e.*`", "`name_key GLOB 'abc*e*'`"),
    ("Q10", "scroll `sort: [\"_doc\"]`, size 1000, `_search/scroll` to the end", "a (segment, doc) cursor, stored documents fetched 1000 at a time", "keyset pages `WHERE rowid > ? ORDER BY rowid LIMIT 1000`"),
];

/// Whether the peers' totals (and facet buckets / sort keys) match metagate's for every
/// variant of a class.
fn agreement(run: &Value, class: &str) -> String {
    let mg = &run["engines"]["metagate"]["search"]["classes"][class];
    let mut notes = Vec::new();
    for peer in ["tantivy", "fts5"] {
        let p = &run["engines"][peer]["search"]["classes"][class];
        if p.is_null() || mg.is_null() {
            continue;
        }
        let (a, b) = (mg["totals"].as_array(), p["totals"].as_array());
        let (Some(a), Some(b)) = (a, b) else { continue };
        let differ: Vec<(u64, u64)> = a
            .iter()
            .zip(b)
            .map(|(x, y)| (x.as_u64().unwrap_or(0), y.as_u64().unwrap_or(0)))
            .filter(|(x, y)| x != y)
            .collect();
        let sigs_differ = mg["sigs"]
            .as_array()
            .zip(p["sigs"].as_array())
            .map(|(x, y)| x.iter().zip(y).filter(|(x, y)| x != y).count())
            .unwrap_or(0);
        if !differ.is_empty() {
            let rel: Vec<f64> =
                differ.iter().map(|(x, y)| (*y as f64 - *x as f64) / (*x).max(1) as f64 * 100.0).collect();
            let (lo, hi) = (
                rel.iter().cloned().fold(f64::INFINITY, f64::min),
                rel.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
            );
            notes.push(format!("{} {}/{} ({:+.1}…{:+.1}%)", short(peer), differ.len(), a.len(), lo, hi));
        }
        if sigs_differ > 0 {
            notes.push(format!("{} {} bucket/sort lists", short(peer), sigs_differ));
        }
    }
    if notes.is_empty() {
        "same".into()
    } else {
        notes.join("; ")
    }
}

fn short(engine: &str) -> &str {
    match engine {
        "tantivy" => "tantivy",
        "fts5" => "FTS5",
        e => e,
    }
}

/// The section: per size, the latency table and the engine figures; then the HTTP run.
pub fn markdown(results: &Value) -> String {
    let mut s = String::new();
    let w = &mut s;
    let _ = writeln!(w, "{BEGIN}\n## Peers: metagate, tantivy, SQLite FTS5\n");
    let _ = writeln!(
        w,
        "The same `metagate gen` corpus (seed 1, generated while it is read) loaded into each engine \
         one after another, each built and searched in its own process. metagate at `{}`, run {} UTC on {} CPUs; the CPU is \
         shared with other work, so each figure carries the load average (1, 5, 15 min) seen around it. \
         Latencies are per request, single-threaded, in **ms**, page cache warm, each engine returning the \
         top hits with their stored source **and the exact total**: tantivy through a `(TopDocs, Count)` \
         collector tuple, SQLite as a `count(*)` over the same condition followed by the page query (both \
         timed). metagate writes the full ES 6.8 response JSON (sources copied as stored); the peers hand \
         back raw stored strings. **ratio** = metagate ÷ peer (p50 / p99): below 1 metagate is faster, above 1 slower. \
         The two-thread row also gives the CPUs the process actually got: well under 2 means other work \
         held the second core, and its speed-up says little.\n",
        results["metagate_rev"].as_str().unwrap_or("?"),
        results["started"].as_str().unwrap_or("?"),
        results["cpus"]
    );
    let _ = writeln!(
        w,
        "```sh\ncargo build --release   # the metagate binary, for the HTTP run\n\
         cargo run --release --manifest-path benches/compare/Cargo.toml -- --docs 100000,1000000\n```\n"
    );
    let _ = writeln!(w, "![p50 and p99 latency per class and engine](benches/compare/latency.svg)\n");
    for run in results["runs"].as_array().into_iter().flatten() {
        class_table(w, run);
        engine_table(w, run);
    }
    http_table(w, results);
    let _ = writeln!(w, "### What each engine runs\n");
    let _ = writeln!(w, "| class | metagate (ES 6.8 DSL) | tantivy | SQLite FTS5 |\n|---|---|---|---|");
    for (id, a, b, c) in TRANSLATIONS {
        let _ = writeln!(w, "| {id} | {a} | {b} | {c} |");
    }
    let _ = writeln!(
        w,
        "\nAnalysis: metagate `standard` (UAX#29 + lower case); tantivy `default` (split on \
         non-alphanumerics, lower case, tokens over 40 bytes dropped); FTS5 `unicode61`. Query words are \
         plain lower-case ASCII words drawn from the corpus at document-frequency ranks 1 to 3,000 (12 \
         per class, run round-robin), so the three analyses read them alike; totals can still differ \
         where a tokenizer splits a word the others keep whole (`protein's`). Keyword values are \
         lower-cased at index time for the peers (ES's `lowercase` normalizer) and de-duplicated per \
         record (ES counts documents per bucket). The peers' `other` text holds every string ES's `*` reaches with analysis (identifiers, curies, citation, organism, role, types, ingest method) plus the keyword-typed values a one-word term can equal whole (single-token `keywords.keyword` and `availability.keyword` values). Totals differ only where a tokenizer disagrees on a word: UAX#29 keeps `a.b`, `a:b`, `a_b` and `a's` whole, the peers split them, so peers find slightly more. Scores: metagate is Lucene 7 BM25 per field; tantivy \
         BM25 per field; FTS5's `bm25()` normalises by the whole row's length, and Q1, Q8, Q9 are plain \
         SQL with no score. tantivy is merged to one segment after loading; FTS5 is `optimize`d; metagate's file is compacted after the load, as `metagate load` does; SQLite \
         reads through `mmap` (tantivy too), so their RSS while searching counts mapped file pages; metagate reads through its own page cache. Build rates include generating the records (the generator's own rate is \
         given) and, for tantivy, one indexing thread beside the generating thread.\n"
    );
    let _ = writeln!(w, "{END}");
    s
}

fn class_table(w: &mut String, run: &Value) {
    let n = run["docs"].as_f64().unwrap_or(0.0);
    let _ = writeln!(w, "### {} documents\n", thousands(n));
    let _ = write!(w, "| class | what |");
    for e in ENGINES {
        let _ = write!(w, " {} p50 / p99 |", label(e));
    }
    let _ = writeln!(
        w,
        " tantivy `TopDocs` only p50 / p99 | ratio vs tantivy | ratio vs tantivy `TopDocs` only | ratio vs FTS5 | peer totals ≠ metagate (variants, peer − metagate) |"
    );
    let _ = writeln!(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---|");
    let classes: Vec<String> = run["engines"]["metagate"]["search"]["classes"]
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    if classes.is_empty() {
        return;
    }
    for c in &classes {
        let what = crate::queries::describe(c);
        let _ = write!(w, "| {c} | {what} |");
        let cell = |e: &str| &run["engines"][e]["search"]["classes"][c.as_str()];
        for e in ENGINES {
            let x = cell(e);
            if x.is_null() {
                let _ = write!(w, " – |");
            } else {
                let _ = write!(
                    w,
                    " {} / {} |",
                    ms(x["p50_us"].as_f64().unwrap_or(0.0)),
                    ms(x["p99_us"].as_f64().unwrap_or(0.0))
                );
            }
        }
        let top_only = &run["engines"]["tantivy"]["search"]["classes_top_docs_only"][c.as_str()];
        if top_only.is_null() {
            let _ = write!(w, " – |");
        } else {
            let p = |k: &str| ms(top_only[k].as_f64().unwrap_or(0.0));
            let _ = write!(w, " {} / {} |", p("p50_us"), p("p99_us"));
        }
        for p in [cell("tantivy"), top_only, cell("fts5")] {
            let m = cell("metagate");
            let r = |k: &str| m[k].as_f64().unwrap_or(0.0) / p[k].as_f64().unwrap_or(f64::NAN);
            if p.is_null() {
                let _ = write!(w, " – |");
            } else {
                let (a, b) = (r("p50_us"), r("p99_us"));
                let mark = if a < 1.0 { "" } else { "**" };
                let _ = write!(w, " {mark}{a:.2}{mark} / {b:.2} |");
            }
        }
        let _ = writeln!(w, " {} |", agreement(run, c));
    }
    let _ = writeln!(w);
}

fn engine_table(w: &mut String, run: &Value) {
    let n = run["docs"].as_f64().unwrap_or(1.0);
    let e = |engine: &str, phase: &str, key: &str| run["engines"][engine][phase][key].as_f64();
    let row = |w: &mut String, title: &str, f: &dyn Fn(&str) -> Option<String>| {
        let _ = write!(w, "| {title} |");
        for engine in ENGINES {
            let _ = write!(w, " {} |", f(engine).unwrap_or_else(|| "–".into()));
        }
        let _ = writeln!(w);
    };
    let _ = write!(w, "| {} documents |", thousands(n));
    for engine in ENGINES {
        let _ = write!(w, " {} |", label(engine));
    }
    let _ = writeln!(w, "\n|---|---:|---:|---:|");
    row(w, "index build, docs/s (build time)", &|x| {
        Some(format!("{} ({:.1} s)", thousands(e(x, "build", "docs_per_s")?), e(x, "build", "build_secs")?))
    });
    row(w, "bytes on disk per document", &|x| Some(thousands(e(x, "build", "bytes")? / n)));
    row(w, "open + first Q1 query, ms", &|x| Some(format!("{:.1}", e(x, "search", "open_ms")?)));
    row(w, "peak RSS building, MB", &|x| Some(thousands(e(x, "build", "peak_rss_kb")? / 1024.0)));
    row(w, "peak RSS searching, MB (RSS after open)", &|x| {
        Some(format!(
            "{} ({})",
            thousands(e(x, "search", "peak_rss_kb")? / 1024.0),
            thousands(e(x, "search", "rss_open_kb")? / 1024.0)
        ))
    });
    row(w, "Q2+Q6 mix, 1 thread, queries/s", &|x| Some(thousands(e(x, "search", "mix_qps_1")?)));
    row(w, "Q2+Q6 mix, 2 threads, queries/s (speed-up; CPUs the process got)", &|x| {
        let (a, b) = (e(x, "search", "mix_qps_1")?, e(x, "search", "mix_qps_2")?);
        let cpus = e(x, "search", "mix_cpus_2").map_or(String::new(), |c| format!("; {c:.2} CPUs"));
        Some(format!("{} ({:.2}×{cpus})", thousands(b), b / a))
    });
    row(w, "full scroll (Q10), s", &|x| {
        Some(format!("{:.1}", run["engines"][x]["search"]["classes"]["Q10"]["scroll_secs"].as_f64()?))
    });
    row(w, "load average building", &|x| run["engines"][x]["build"]["load"].as_str().map(str::to_string));
    row(w, "load average searching", &|x| run["engines"][x]["search"]["load"].as_str().map(str::to_string));
    let _ = writeln!(
        w,
        "\nThe generator alone produces {} records/s (included in every build rate).\n",
        thousands(run["generator_docs_per_s"].as_f64().unwrap_or(0.0))
    );
}

fn http_table(w: &mut String, results: &Value) {
    let runs: Vec<&Value> = results["runs"].as_array().into_iter().flatten().filter(|r| !r["http"].is_null()).collect();
    if runs.is_empty() {
        return;
    }
    let _ = writeln!(w, "### HTTP: `metagate serve`, wrk, 64 connections, Q2 and Q6 alternating\n");
    let _ = writeln!(w, "| documents | requests/s | p50 ms | p99 ms | errors (socket / non-2xx) | server RSS before → after (peak), MB | load average |");
    let _ = writeln!(w, "|---:|---:|---:|---:|---:|---:|---|");
    for r in runs {
        let h = &r["http"];
        let f = |k: &str| h[k].as_f64().unwrap_or(0.0);
        let _ = writeln!(
            w,
            "| {} | {:.0} | {:.1} | {:.1} | {} / {} | {:.1} → {:.1} ({:.1}) | {} |",
            thousands(r["docs"].as_f64().unwrap_or(0.0)),
            f("rps"),
            f("p50_ms"),
            f("p99_ms"),
            h["socket_errors"],
            h["non_2xx"],
            f("rss_before_kb") / 1024.0,
            f("rss_after_kb") / 1024.0,
            f("rss_peak_kb") / 1024.0,
            h["load"].as_str().unwrap_or_default()
        );
    }
    let _ = writeln!(
        w,
        "\nServer: `metagate serve --file F --bind 127.0.0.1:PORT --rate-limit 0 --threads 4`; client: \
         `wrk -t2 -c64 -d15s --timeout 30s -s benches/compare/http/mixed.lua` on the same two cores (the client's CPU \
         is taken from the server's). With 64 connections on 4 workers, p50 is mostly queueing.\n"
    );
}

/// Replaces the marked section of `path` (or appends it at the end when absent).
pub fn splice_into(path: &Path, section: &str) -> std::io::Result<()> {
    let text = std::fs::read_to_string(path)?;
    let out = match (text.find(BEGIN), text.find(END)) {
        (Some(a), Some(b)) if b > a => format!("{}{}{}", &text[..a], section.trim_end(), &text[b + END.len()..]),
        _ => format!("{}\n{}", text.trim_end_matches('\n').to_string() + "\n", section),
    };
    std::fs::write(path, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splices_only_its_section() {
        let dir = std::env::temp_dir().join(format!("compare-splice-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("B.md");
        std::fs::write(&p, "# B\n\nother\n").unwrap();
        splice_into(&p, &format!("{BEGIN}\none\n{END}\n")).unwrap();
        std::fs::write(&p, std::fs::read_to_string(&p).unwrap() + "\ntail\n").unwrap();
        splice_into(&p, &format!("{BEGIN}\ntwo\n{END}\n")).unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), format!("# B\n\nother\n\n{BEGIN}\ntwo\n{END}\n\ntail\n"));
        assert_eq!(thousands(1234567.0), "1,234,567");
    }
}
