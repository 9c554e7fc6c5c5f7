//! SQLite FTS5: a contentless FTS5 table (`unicode61`) over name, description and every
//! other string, beside a plain table of keyword columns (one B-tree index per filtered
//! or sorted column, as one would add per field) holding the source, and a keyword table
//! for the facet. Totals are a separate `count(*)` over the same condition, run before
//! the page query; both are in the measured time.

use super::Searcher;
use crate::corpus::{days_from_civil, Corpus};
use crate::queries::{Outcome, Query};
use rusqlite::{params, params_from_iter, Connection, OpenFlags};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

fn file(dir: &Path) -> PathBuf {
    dir.join("fts5.sqlite")
}

/// Loads `n` records in one transaction, then builds the indexes and optimizes the FTS
/// index into one b-tree; returns the file's size.
pub fn build(corpus: &Corpus, n: u64, dir: &Path) -> u64 {
    let path = file(dir);
    let _ = std::fs::remove_file(&path);
    let mut c = Connection::open(&path).expect("create sqlite");
    c.execute_batch(
        "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-262144;
         CREATE TABLE docs(rowid INTEGER PRIMARY KEY, id TEXT, identifier TEXT, name_key TEXT,
                           organism TEXT, types TEXT, created INTEGER, source TEXT);
         CREATE TABLE kw(doc INTEGER, keyword TEXT, PRIMARY KEY(doc, keyword)) WITHOUT ROWID;
         CREATE VIRTUAL TABLE fts USING fts5(name, description, other, content='', tokenize='unicode61');",
    )
    .expect("schema");
    let tx = c.transaction().expect("tx");
    {
        let mut docs = tx.prepare("INSERT INTO docs VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)").expect("prepare");
        let mut kw = tx.prepare("INSERT INTO kw VALUES (?1, ?2)").expect("prepare");
        let mut fts =
            tx.prepare("INSERT INTO fts(rowid, name, description, other) VALUES (?1, ?2, ?3, ?4)").expect("prepare");
        for i in 0..n {
            let r = corpus.flat(i);
            let row = i as i64 + 1;
            assert!(r.types.len() <= 1, "one resource type per record");
            docs.execute(params![
                row,
                r.id,
                r.identifier,
                r.name_key,
                r.organism,
                r.types.first(),
                r.created,
                r.source
            ])
            .expect("insert doc");
            for k in &r.keywords {
                kw.execute(params![row, k]).expect("insert keyword");
            }
            fts.execute(params![row, r.name, r.description, r.other]).expect("insert fts");
        }
    }
    tx.commit().expect("commit");
    c.execute_batch(
        "CREATE INDEX docs_identifier ON docs(identifier);
         CREATE INDEX docs_name_key ON docs(name_key);
         CREATE INDEX docs_organism ON docs(organism);
         CREATE INDEX docs_types ON docs(types);
         CREATE INDEX docs_created ON docs(created);
         INSERT INTO fts(fts) VALUES('optimize');
         ANALYZE;",
    )
    .expect("indexes");
    drop(c);
    super::disk_bytes(&path)
}

/// An open SQLite file: a pool of read-only connections (a connection is not `Sync`; each
/// thread takes one for the duration of a query).
pub struct Fts {
    path: PathBuf,
    pool: Mutex<Vec<Connection>>,
}

impl Fts {
    /// Opens the file built by [`build`] with one connection.
    pub fn open(dir: &Path) -> Fts {
        let fts = Fts { path: file(dir), pool: Mutex::new(Vec::new()) };
        let c = fts.connect();
        fts.pool.lock().expect("pool").push(c);
        fts
    }

    fn connect(&self) -> Connection {
        let c =
            Connection::open_with_flags(&self.path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
                .expect("open sqlite");
        // Memory-mapped reads, as tantivy reads its files (the OS page cache either way).
        c.execute_batch("PRAGMA mmap_size=17179869184;").expect("pragma");
        c
    }

    fn with<T>(&self, f: impl FnOnce(&Connection) -> T) -> T {
        let c = self.pool.lock().expect("pool").pop().unwrap_or_else(|| self.connect());
        let out = f(&c);
        self.pool.lock().expect("pool").push(c);
        out
    }
}

/// An FTS5 string literal (double quotes doubled).
fn lit(w: &str) -> String {
    format!("\"{}\"", w.replace('"', "\"\""))
}

/// The count and a page of (source) rows for one condition.
fn count_and_page(
    c: &Connection,
    count_sql: &str,
    page_sql: &str,
    args: &[rusqlite::types::Value],
) -> (u64, usize, Vec<String>) {
    let total: i64 =
        c.prepare_cached(count_sql).expect("prepare").query_row(params_from_iter(args), |r| r.get(0)).expect("count");
    let mut st = c.prepare_cached(page_sql).expect("prepare");
    let mut rows = st.query(params_from_iter(args)).expect("page");
    let mut hits = 0;
    let mut keys = Vec::new();
    while let Some(row) = rows.next().expect("row") {
        let source: String = row.get(0).expect("source");
        std::hint::black_box(source);
        if keys.len() < 3 {
            if let Ok(k) = row.get::<_, String>(1) {
                keys.push(k);
            }
        }
        hits += 1;
    }
    (total as u64, hits, keys)
}

impl Searcher for Fts {
    fn run(&self, q: &Query) -> Outcome {
        use rusqlite::types::Value as V;
        self.with(|c| match q {
            Query::Term { identifier } => {
                let (total, hits, _) = count_and_page(
                    c,
                    "SELECT count(*) FROM docs WHERE identifier = ?1",
                    "SELECT source FROM docs WHERE identifier = ?1 LIMIT 10",
                    &[V::Text(identifier.clone())],
                );
                Outcome { total, hits, sig: String::new() }
            }
            Query::Match { .. } | Query::Phrase { .. } | Query::Portal { .. } => {
                let (m, filter) = match q {
                    Query::Match { words, and } => {
                        let op = if *and { " AND " } else { " OR " };
                        (format!("description : ({})", words.iter().map(|w| lit(w)).collect::<Vec<_>>().join(op)), None)
                    }
                    Query::Phrase { words } => (format!("description : {}", lit(&words.join(" "))), None),
                    Query::Portal { words, types, from_year, to_year } => {
                        (words.iter().map(|w| lit(w)).collect::<Vec<_>>().join(" AND "), Some((types, from_year, to_year)))
                    }
                    _ => unreachable!(),
                };
                let mut args = vec![V::Text(m)];
                let (count_sql, page_sql) = match filter {
                    None => (
                        "SELECT count(*) FROM fts WHERE fts MATCH ?1".to_string(),
                        "SELECT d.source FROM (SELECT rowid AS r, rank FROM fts WHERE fts MATCH ?1 ORDER BY rank LIMIT 10) m
                         JOIN docs d ON d.rowid = m.r ORDER BY m.rank"
                            .to_string(),
                    ),
                    Some((types, from, to)) => {
                        let marks: Vec<String> = (0..types.len()).map(|k| format!("?{}", k + 4)).collect();
                        args.push(V::Integer(days_from_civil(*from, 1, 1) * 86_400));
                        args.push(V::Integer(days_from_civil(*to, 1, 1) * 86_400));
                        args.extend(types.iter().map(|t| V::Text(t.clone())));
                        let cond = format!(
                            "fts MATCH ?1 AND d.created >= ?2 AND d.created < ?3 AND d.types IN ({})",
                            marks.join(", ")
                        );
                        (
                            format!("SELECT count(*) FROM fts JOIN docs d ON d.rowid = fts.rowid WHERE {cond}"),
                            format!("SELECT d.source FROM fts JOIN docs d ON d.rowid = fts.rowid WHERE {cond} ORDER BY fts.rank LIMIT 10"),
                        )
                    }
                };
                let (total, hits, _) = count_and_page(c, &count_sql, &page_sql, &args);
                Outcome { total, hits, sig: String::new() }
            }
            Query::Facet { word } => {
                let m = format!("description : {}", lit(word));
                let total: i64 = c
                    .prepare_cached("SELECT count(*) FROM fts WHERE fts MATCH ?1")
                    .expect("prepare")
                    .query_row([&m], |r| r.get(0))
                    .expect("count");
                let mut st = c
                    .prepare_cached(
                        "SELECT k.keyword, count(*) AS n FROM fts JOIN kw k ON k.doc = fts.rowid
                         WHERE fts MATCH ?1 GROUP BY k.keyword ORDER BY n DESC, k.keyword LIMIT 200",
                    )
                    .expect("prepare");
                let buckets: Vec<(String, i64)> =
                    st.query_map([&m], |r| Ok((r.get(0)?, r.get(1)?))).expect("facet").map(|r| r.expect("row")).collect();
                let sig = buckets.iter().take(3).map(|(k, n)| format!("{k}:{n}")).collect::<Vec<_>>().join(",");
                Outcome { total: total as u64, hits: 0, sig }
            }
            Query::SortedFilter { organism } => {
                let (total, hits, keys) = count_and_page(
                    c,
                    "SELECT count(*) FROM docs WHERE organism = ?1",
                    "SELECT source, name_key FROM docs WHERE organism = ?1 ORDER BY name_key, rowid LIMIT 100",
                    &[V::Text(organism.clone())],
                );
                Outcome { total, hits, sig: keys.join(",") }
            }
            Query::Prefix { prefix } => {
                let (total, hits, _) = count_and_page(
                    c,
                    "SELECT count(*) FROM docs WHERE identifier GLOB ?1",
                    "SELECT source FROM docs WHERE identifier GLOB ?1 LIMIT 10",
                    &[V::Text(format!("{prefix}*"))],
                );
                Outcome { total, hits, sig: String::new() }
            }
            Query::Wildcard { pattern } => {
                let (total, hits, _) = count_and_page(
                    c,
                    "SELECT count(*) FROM docs WHERE name_key GLOB ?1",
                    "SELECT source FROM docs WHERE name_key GLOB ?1 LIMIT 10",
                    &[V::Text(pattern.clone())],
                );
                Outcome { total, hits, sig: String::new() }
            }
        })
    }

    fn scroll(&self, page: usize, on_page: &mut dyn FnMut(usize)) -> u64 {
        // Keyset pagination on the rowid: the cursor is the last rowid seen.
        self.with(|c| {
            let mut st = c
                .prepare_cached("SELECT rowid, source FROM docs WHERE rowid > ?1 ORDER BY rowid LIMIT ?2")
                .expect("prepare");
            let mut after = 0i64;
            let mut read = 0;
            loop {
                let mut rows = st.query(params![after, page as i64]).expect("page");
                let mut hits = 0;
                while let Some(row) = rows.next().expect("row") {
                    after = row.get(0).expect("rowid");
                    let source: String = row.get(1).expect("source");
                    std::hint::black_box(source);
                    hits += 1;
                }
                if hits == 0 {
                    break;
                }
                read += hits as u64;
                on_page(hits);
            }
            read
        })
    }
}
