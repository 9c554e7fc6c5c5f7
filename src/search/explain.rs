//! `explain`: the Lucene 7 explanation tree of a hit's score, as ES 6.8 renders it.
//!
//! Each weight explains itself ([`Weight::explain`], beside its scorer): BM25 terms and
//! phrases (`weight(field:term in doc) [PerFieldSimilarity], result of:` → `score(...),
//! product of:` → boost, idf, tfNorm), `sum of:` for booleans (filter clauses as `match
//! on required clause`), `max of:` / `max plus T times others of:` for dis_max,
//! constant-score queries described by their Lucene `toString`, and ES's function_score
//! explanations. Values are computed the way Lucene's `explain` computes them (boost ×
//! idf × tfNorm, float sums in clause order), which can differ from the scorer's value in
//! the last bit, as in ES. This module holds the tree, its JSON form (values written as
//! `_score` is) and the leaves the weights share.

use super::bm25::{idf, B, K1};
use super::json_out::write_score;
use super::json_out::Object;
use crate::index::norms::byte4_to_int;
pub use crate::json_value::java_float;

/// One node of a Lucene explanation.
#[derive(Debug, Clone, PartialEq)]
pub struct Expl {
    /// The value.
    pub value: f32,
    /// What it is.
    pub description: String,
    /// How it was computed.
    pub details: Vec<Expl>,
}

impl Expl {
    /// A node computed from `details`.
    pub fn new(value: f32, description: impl Into<String>, details: Vec<Expl>) -> Expl {
        Expl { value, description: description.into(), details }
    }

    /// A node without details.
    pub fn leaf(value: f32, description: impl Into<String>) -> Expl {
        Expl::new(value, description, Vec::new())
    }

    /// Writes ES's JSON form (`value`, `description`, `details`) at the end of `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        let mut o = Object::start(out);
        write_score(o.key("value"), Some(self.value));
        o.str("description", &self.description);
        let details = o.key("details");
        details.push(b'[');
        for (i, d) in self.details.iter().enumerate() {
            if i > 0 {
                details.push(b',');
            }
            d.write(details);
        }
        details.push(b']');
        o.end();
    }
}

/// A constant-score description with its boost, as Lucene's `BoostQuery` prints it.
pub fn boosted_desc(desc: &str, score: f32) -> String {
    if score == 1.0 {
        desc.to_string()
    } else {
        format!("{desc}^{}", java_float(score))
    }
}

/// `idf, computed as ...` for one term.
pub fn idf_expl(df: u64, doc_count: u64) -> Expl {
    Expl::new(
        idf(df, doc_count),
        "idf, computed as log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)) from:",
        vec![Expl::leaf(df as f32, "docFreq"), Expl::leaf(doc_count as f32, "docCount")],
    )
}

/// A term or phrase weight under Lucene's non-scoring similarity (filter context).
pub fn non_scoring(desc: &str, doc: u32, freq: f32, label: &str) -> Expl {
    let f = java_float(freq);
    Expl::new(
        0.0,
        format!("weight({desc} in {doc}) [], result of:"),
        vec![Expl::new(
            0.0,
            format!("score(doc={doc},freq={f}), with freq of:"),
            vec![Expl::leaf(freq, format!("{label}={f}"))],
        )],
    )
}

/// `weight(query_desc in doc) [PerFieldSimilarity], result of:` over BM25's
/// `explainScore`: `label` names the frequency (`termFreq`, `phraseFreq`); `norms` is the
/// field's average length and the document's norm byte, `None` for a field without norms.
pub fn bm25_expl(
    query_desc: &str,
    doc: u32,
    freq: f32,
    label: &str,
    idf_e: Expl,
    boost: f32,
    norms: Option<(f32, u8)>,
) -> Expl {
    let freq_e = Expl::leaf(freq, format!("{label}={}", java_float(freq)));
    let tf_norm = match norms {
        Some((avgdl, norm)) => {
            let dl = byte4_to_int(norm) as f32;
            let v = (freq * (K1 + 1.0)) / (freq + K1 * (1.0 - B + B * dl / avgdl));
            Expl::new(
                v,
                "tfNorm, computed as (freq * (k1 + 1)) / (freq + k1 * (1 - b + b * fieldLength / avgFieldLength)) from:",
                vec![
                    freq_e,
                    Expl::leaf(K1, "parameter k1"),
                    Expl::leaf(B, "parameter b"),
                    Expl::leaf(avgdl, "avgFieldLength"),
                    Expl::leaf(dl, "fieldLength"),
                ],
            )
        }
        None => {
            let v = (freq * (K1 + 1.0)) / (freq + K1);
            Expl::new(
                v,
                "tfNorm, computed as (freq * (k1 + 1)) / (freq + k1) from:",
                vec![freq_e, Expl::leaf(K1, "parameter k1"), Expl::leaf(0.0, "parameter b (norms omitted for field)")],
            )
        }
    };
    let value = boost * idf_e.value * tf_norm.value;
    let mut details = Vec::with_capacity(3);
    if boost != 1.0 {
        details.push(Expl::leaf(boost, "boost"));
    }
    details.push(idf_e);
    details.push(tf_norm);
    let f = java_float(freq);
    let score = Expl::new(value, format!("score(doc={doc},freq={f} = {label}={f}\n), product of:"), details);
    Expl::new(value, format!("weight({query_desc} in {doc}) [PerFieldSimilarity], result of:"), vec![score])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_float_strings() {
        assert_eq!(java_float(1.0), "1.0");
        assert_eq!(java_float(1.3862944), "1.3862944");
        assert_eq!(java_float(0.3), "0.3");
        assert_eq!(java_float(3.4028235e38), "3.4028235E38");
        assert_eq!(java_float(1.0e-4), "1.0E-4");
    }

    #[test]
    fn boosts_and_non_scoring_terms() {
        assert_eq!(boosted_desc("*:*", 1.0), "*:*");
        assert_eq!(boosted_desc("f:x", 0.0), "f:x^0.0");
        let e = non_scoring("f:x", 3, 2.0, "termFreq");
        assert_eq!(e.description, "weight(f:x in 3) [], result of:");
        assert_eq!(e.details[0].details[0].description, "termFreq=2.0");
    }

    #[test]
    fn trees_write_values_as_scores() {
        let tree = Expl::new(
            1.3862944,
            "sum of:",
            vec![Expl::leaf(1.0e-5, "a \"b\""), Expl::leaf(f32::NAN, "nan"), Expl::leaf(2.0, "two")],
        );
        let mut out = Vec::new();
        tree.write(&mut out);
        assert_eq!(
            String::from_utf8(out).ok().as_deref(),
            Some(concat!(
                r#"{"value":1.3862944,"description":"sum of:","details":["#,
                r#"{"value":1.0E-5,"description":"a \"b\"","details":[]},"#,
                r#"{"value":null,"description":"nan","details":[]},"#,
                r#"{"value":2.0,"description":"two","details":[]}]}"#
            ))
        );
    }
}
