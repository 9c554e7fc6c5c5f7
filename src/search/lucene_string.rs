//! Lucene's `Query.toString` of the queries ES 6.8 builds, as constant-score
//! explanations print them (`ConstantScore(...)`, `field:[1 TO 1]`, `match filter: ...`).
//!
//! As in Lucene, the string is the query's, not its weight's: it names the query as ES
//! wrote it for the index (field names as given, keyword terms normalized, numbers as
//! point queries print them), where a weight holds only what it needs to run. Only
//! weights compiled for explanations ask for it.

use super::exec::{Executor, Resolved};
use super::response::{java_double, java_float};
use crate::mapping::FieldType;
use crate::query::{Query, Scalar};

/// Lucene's `toString` of the query ES builds from `q` on this index.
pub fn lucene_string(ex: &Executor<'_>, q: &Query) -> String {
    match q {
        Query::MatchAll { .. } => "*:*".into(),
        Query::MatchNone => "MatchNoDocsQuery(\"\")".into(),
        Query::Term { field, value, .. } => {
            let v = value.text();
            match ex.resolve(field) {
                Resolved::Field(fm) if fm.ftype.is_numeric_like() && fm.ftype != FieldType::Boolean => {
                    let n = ex.number_value(fm, value, false, None).map(num_str).unwrap_or(v);
                    format!("{field}:[{n} TO {n}]")
                }
                Resolved::Field(fm) if fm.ftype == FieldType::Keyword => {
                    format!("{field}:{}", fm.normalizer.map(|n| n.normalize(&v)).unwrap_or(v))
                }
                _ => format!("{field}:{v}"),
            }
        }
        Query::Terms { field, values, .. } => {
            format!("{field}:({})", values.iter().map(Scalar::text).collect::<Vec<_>>().join(" "))
        }
        Query::Ids { values, .. } => format!("_id:({})", values.join(" ")),
        Query::Range(r) => {
            let b = |v: &Option<(Scalar, bool)>| v.as_ref().map(|(v, _)| v.text()).unwrap_or_else(|| "*".into());
            let lo = if r.lower.as_ref().map(|l| l.1).unwrap_or(true) { '[' } else { '{' };
            let hi = if r.upper.as_ref().map(|u| u.1).unwrap_or(true) { ']' } else { '}' };
            format!("{}:{lo}{} TO {}{hi}", r.field, b(&r.lower), b(&r.upper))
        }
        Query::Exists { field, .. } => {
            let kind = match ex.resolve(field) {
                Resolved::Field(fm) if fm.ftype == FieldType::Text => "NormsFieldExistsQuery",
                _ => "DocValuesFieldExistsQuery",
            };
            format!("ConstantScore({kind} [field={field}])")
        }
        Query::Prefix { field, value, .. } => format!("{field}:{value}*"),
        Query::Wildcard { field, pattern, .. } => format!("{field}:{pattern}"),
        Query::Regexp { field, pattern, .. } => format!("{field}:/{pattern}/"),
        Query::Fuzzy { field, value, fuzziness, .. } => format!("{field}:{value}~{fuzziness}"),
        Query::Match(m) => match ex.resolve(&m.field) {
            Resolved::Field(fm) if fm.ftype == FieldType::Text => {
                let tokens =
                    ex.search_analyzer(fm, m.analyzer.as_deref()).map(|a| a.analyze(&m.text)).unwrap_or_default();
                let plus = if m.operator == crate::query::Operator::And && tokens.len() > 1 { "+" } else { "" };
                tokens.iter().map(|t| format!("{plus}{}:{}", m.field, t.text)).collect::<Vec<_>>().join(" ")
            }
            _ => lucene_string(
                ex,
                &Query::Term { field: m.field.clone(), value: Scalar::Text(m.text.clone()), boost: 1.0 },
            ),
        },
        Query::MatchPhrase { field, text, slop, .. } => {
            let mut s = format!("{field}:\"{text}\"");
            if *slop != 0 {
                s.push_str(&format!("~{slop}"));
            }
            s
        }
        Query::MultiMatch { fields, text, .. } => {
            let parts: Vec<String> = fields.iter().map(|(f, _)| format!("{f}:{text}")).collect();
            format!("({})", parts.join(" | "))
        }
        Query::Bool(b) => {
            let mut parts = Vec::new();
            let mut push = |prefix: &str, c: &Query| {
                let s = lucene_string(ex, c);
                parts.push(if matches!(c, Query::Bool(_)) { format!("{prefix}({s})") } else { format!("{prefix}{s}") });
            };
            b.must.iter().for_each(|c| push("+", c));
            b.must_not.iter().for_each(|c| push("-", c));
            b.should.iter().for_each(|c| push("", c));
            b.filter.iter().for_each(|c| push("#", c));
            let msm = b.minimum_should_match.as_ref().map(|s| s.resolve(b.should.len())).unwrap_or(0);
            let s = parts.join(" ");
            if msm > 0 {
                format!("({s})~{msm}")
            } else {
                s
            }
        }
        Query::ConstantScore { filter, .. } => format!("ConstantScore({})", lucene_string(ex, filter)),
        Query::DisMax { queries, tie_breaker, .. } => {
            let s = queries.iter().map(|c| lucene_string(ex, c)).collect::<Vec<_>>().join(" | ");
            if *tie_breaker != 0.0 {
                format!("({s})~{}", java_float(*tie_breaker))
            } else {
                format!("({s})")
            }
        }
        Query::Boosting { positive, .. } => lucene_string(ex, positive),
        Query::FunctionScore(fs) => format!("function score ({}, functions: [...])", lucene_string(ex, &fs.query)),
        Query::QueryString(q) => q.query.clone(),
    }
}

/// A number as Lucene's point queries print it.
fn num_str(n: crate::index::Num) -> String {
    match n {
        crate::index::Num::I(i) => i.to_string(),
        crate::index::Num::F(f) => java_double(f),
    }
}
