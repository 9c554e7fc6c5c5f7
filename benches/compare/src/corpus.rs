//! The corpus every engine loads: `metagate gen`'s registry tool records, generated on the
//! fly (record `i` of seed 1, exactly what `metagate gen -n N` writes), plus the flat view
//! of a record the peers index.

use metagate::gen::Model;
use serde_json::Value;
use std::io::Read;

/// The seed of `metagate gen` (its default), so the corpus is the one the CLI writes.
pub const SEED: u64 = 1;

/// A record reduced to what the peers index: the text fields, the lower-cased keyword
/// values (ES's `lowercase` normalizer applied once, at index time) and the source.
pub struct Flat {
    /// `_id`.
    pub id: String,
    /// `item.name`.
    pub name: String,
    /// `item.description`.
    pub description: String,
    /// Every other string `*` reaches in ES, space-joined (the portal's search).
    pub other: String,
    /// `item.identifier`, lower-cased.
    pub identifier: String,
    /// `item.name`, lower-cased (the sort key).
    pub name_key: String,
    /// `organisms.related.species.name`, lower-cased.
    pub organism: String,
    /// `item.types.name`, lower-cased (zero or one per record).
    pub types: Vec<String>,
    /// `item.keywords.keyword`, lower-cased and de-duplicated: ES counts documents per
    /// bucket, so a keyword repeated in one record must count once everywhere.
    pub keywords: Vec<String>,
    /// `provenance.creationDate` as seconds since the epoch.
    pub created: i64,
    /// The `_source` JSON.
    pub source: String,
}

/// The generator.
pub struct Corpus {
    model: Model,
}

impl Corpus {
    /// The model learned from the embedded demo (as `metagate gen` does).
    pub fn new() -> Corpus {
        Corpus { model: Model::from_demo().expect("the demo corpus is embedded") }
    }

    /// Record `i`: `(_id, _source)`.
    pub fn record(&self, i: u64) -> (String, Value) {
        self.model.record(SEED, i)
    }

    /// Record `i` flattened for the peers.
    pub fn flat(&self, i: u64) -> Flat {
        let (id, v) = self.record(i);
        let item = &v["item"];
        let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
        let list = |arr: &Value, key: &str| -> Vec<String> {
            arr.as_array().into_iter().flatten().map(|x| s(&x[key])).filter(|x| !x.is_empty()).collect()
        };
        let types = list(&item["types"], "name");
        let keywords = list(&item["keywords"], "keyword");
        let organism = s(&v["organisms"]["related"][0]["species"]["name"]);
        // The text fields of the record (what `*` reaches with analysis)...
        let mut other = vec![
            s(&item["identifier"]),
            s(&item["docid"]),
            s(&item["curie"]),
            s(&v["rrid"]["curie"]),
            s(&v["rrid"]["properCitation"]),
            s(&v["organisms"]["related"][0]["role"]),
            organism.clone(),
            s(&v["provenance"]["ingestMethod"]),
        ];
        other.extend(item["types"].as_array().into_iter().flatten().map(|t| s(&t["type"])));
        other.extend(types.iter().cloned());
        // ...and the keyword-typed values (`keywords.keyword`, `availability.keyword`) that
        // a one-word query term can equal: in ES such a field matches only its whole value,
        // so only single-token values may take part in the peers' full text.
        let availability = s(&v["mentions"][0]["availability"]["keyword"]);
        other.extend(
            keywords
                .iter()
                .chain([&availability])
                .filter(|k| !k.is_empty() && k.chars().all(char::is_alphanumeric))
                .cloned(),
        );
        let lower = |xs: &[String]| {
            let mut out: Vec<String> = xs.iter().map(|x| x.to_lowercase()).collect();
            out.sort();
            out.dedup();
            out
        };
        Flat {
            name: s(&item["name"]),
            description: s(&item["description"]),
            other: other.join(" "),
            identifier: s(&item["identifier"]).to_lowercase(),
            name_key: s(&item["name"]).to_lowercase(),
            organism: organism.to_lowercase(),
            types: lower(&types),
            keywords: lower(&keywords),
            created: parse_compact(&s(&v["provenance"]["ingestTime"])),
            source: v.to_string(),
            id,
        }
    }

    /// Bulk NDJSON of records `0..n`, produced while it is read (a million records never
    /// sit in memory).
    pub fn bulk(&self, n: u64) -> Bulk<'_> {
        Bulk { corpus: self, next: 0, n, buf: Vec::new(), pos: 0 }
    }
}

/// `YYYYMMDDThhmmss+0000` as seconds since the epoch (0 when malformed).
pub fn parse_compact(s: &str) -> i64 {
    let num = |a: usize, b: usize| s.get(a..b).and_then(|x| x.parse::<i64>().ok()).unwrap_or(0);
    let days = days_from_civil(num(0, 4), num(4, 6), num(6, 8));
    days * 86_400 + num(9, 11) * 3600 + num(11, 13) * 60 + num(13, 15)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A reader over generated bulk NDJSON.
pub struct Bulk<'a> {
    corpus: &'a Corpus,
    next: u64,
    n: u64,
    buf: Vec<u8>,
    pos: usize,
}

impl Read for Bulk<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.pos == self.buf.len() {
            self.buf.clear();
            self.pos = 0;
            while self.next < self.n && self.buf.len() < 1 << 16 {
                let (id, src) = self.corpus.record(self.next);
                // The action line `metagate gen` writes.
                let action = serde_json::json!({"index": {"_id": id, "_type": "rin"}});
                self.buf.extend_from_slice(format!("{action}\n{src}\n").as_bytes());
                self.next += 1;
            }
        }
        let k = out.len().min(self.buf.len() - self.pos);
        out[..k].copy_from_slice(&self.buf[self.pos..self.pos + k]);
        self.pos += k;
        Ok(k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_dates() {
        assert_eq!(parse_compact("19700101T000000+0000"), 0);
        assert_eq!(parse_compact("20000101T000001+0000"), 946_684_801);
    }
}
