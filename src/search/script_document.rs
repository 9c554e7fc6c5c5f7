//! Scripts over one document that is not in the index: the document is parsed with an
//! index's mapping, as loading would index it, and `doc['f']` reads the doc values it
//! would have (keywords normalized, sorted and deduplicated; numbers coerced and sorted;
//! dates as milliseconds). The Painless execute API's `filter` and `score` contexts run
//! here, as ES 6.8 runs them over a one-document in-memory index.

use super::script_host::{field_type, Access};
use crate::error::Result;
use crate::index::{IndexReader, Json, Prepared, Preparer, TermUse};
use crate::mapping::{FieldType, Mapping};
use crate::script::{DocKind, DocValues, Halt, Host, Value};
use std::collections::HashMap;

/// The doc values one field of the document has.
enum Raw {
    /// Keyword and ip terms, sorted and distinct (a sorted set).
    Terms(Vec<Vec<u8>>),
    /// Numbers' bits, sorted as their kind orders them (a sorted numeric).
    Numbers(crate::index::NumKind, Vec<u64>),
}

/// The [`Host`] of scripts over one document parsed with an index's mapping.
pub struct DocumentHost {
    mapping: Mapping,
    fields: HashMap<String, Raw>,
    source: serde_json::Value,
    access: Access,
    /// The document's score (`_score`).
    pub score: f64,
}

impl DocumentHost {
    /// The document `source` as `reader`'s index would index it (its mapping errors, such
    /// as a value a field cannot take, are ES's `mapper_parsing_exception`s).
    pub fn new(reader: &IndexReader, source: &serde_json::Value, access: Access) -> Result<DocumentHost> {
        let raw = serde_json::to_vec(source).map_err(|e| crate::error::Error::storage(e.to_string()))?;
        let json = Json::parse(&raw).map_err(|e| crate::error::Error::json_parse(e.to_string()))?;
        let mapping = reader.meta.mapping.clone();
        let doc_type = reader.meta.type_name.clone().unwrap_or_else(|| "_doc".into());
        let mut preparer = Preparer::new(mapping.clone());
        let mut out = Prepared::default();
        // ES parses the document with the id `_id`.
        preparer.prepare("_id", &doc_type, None, &json, &raw, &mut out)?;
        let schema = preparer.into_schema();
        // The root document is the last one (nested objects precede it).
        let root = out.docs.len() - 1;
        let (ops_from, numbers_from) = match root.checked_sub(1).map(|i| out.docs[i]) {
            Some(before) => (before.ops, before.numbers),
            None => (0, 0),
        };
        let end = out.docs[root];
        let mut fields: HashMap<String, Raw> = HashMap::new();
        for op in &out.ops[ops_from..end.ops] {
            if op.kind != TermUse::DocValue {
                continue;
            }
            let path = &schema.fields[op.field as usize].0;
            let term = out.term_bytes[op.at..op.at + op.len].to_vec();
            if let Raw::Terms(terms) = fields.entry(path.clone()).or_insert_with(|| Raw::Terms(Vec::new())) {
                terms.push(term);
            }
        }
        for &(field, bits) in &out.numbers[numbers_from..end.numbers] {
            let (path, plan) = &schema.fields[field as usize];
            let kind = plan.numbers.unwrap_or(crate::index::NumKind::Long);
            if let Raw::Numbers(_, values) =
                fields.entry(path.clone()).or_insert_with(|| Raw::Numbers(kind, Vec::new()))
            {
                values.push(bits);
            }
        }
        for raw in fields.values_mut() {
            match raw {
                Raw::Terms(terms) => {
                    terms.sort();
                    terms.dedup();
                }
                Raw::Numbers(kind, values) => values.sort_by(|a, b| kind.cmp(*a, *b)),
            }
        }
        Ok(DocumentHost { mapping, fields, source: source.clone(), access, score: 0.0 })
    }

    fn read(&self, name: &str, offset: usize) -> std::result::Result<DocValues, Halt> {
        let (stored, ftype) =
            field_type(&self.mapping, name).map_err(|(kind, message)| Halt::at(offset, kind, message))?;
        let raw = self.fields.get(&stored);
        let terms = || match raw {
            Some(Raw::Terms(t)) => t.as_slice(),
            _ => &[],
        };
        let numbers = || match raw {
            Some(Raw::Numbers(_, n)) => n.as_slice(),
            _ => &[],
        };
        let text = |t: &Vec<u8>| String::from_utf8_lossy(t).into_owned();
        Ok(match ftype {
            FieldType::Keyword => DocValues {
                kind: DocKind::Strings,
                values: terms().iter().map(|t| Value::Str(text(t).into())).collect(),
            },
            FieldType::Ip => DocValues {
                kind: DocKind::Strings,
                values: terms().iter().map(|t| Value::Str(crate::mapping::ip::format_term(&text(t)).into())).collect(),
            },
            FieldType::Date => DocValues {
                kind: DocKind::Dates,
                values: numbers().iter().map(|b| crate::script::time::doc_value(*b as i64)).collect(),
            },
            FieldType::GeoPoint => DocValues {
                kind: DocKind::GeoPoints,
                values: numbers().iter().map(|b| Value::Geo(*b as i64)).collect(),
            },
            FieldType::Boolean => {
                DocValues { kind: DocKind::Booleans, values: numbers().iter().map(|b| Value::Bool(*b != 0)).collect() }
            }
            _ => match raw {
                Some(Raw::Numbers(crate::index::NumKind::Double, n)) => DocValues {
                    kind: DocKind::Doubles,
                    values: n.iter().map(|b| Value::Double(f64::from_bits(*b))).collect(),
                },
                _ if matches!(ftype, FieldType::Double | FieldType::Float) => DocValues {
                    kind: DocKind::Doubles,
                    values: numbers().iter().map(|b| Value::Double(f64::from_bits(*b))).collect(),
                },
                _ => DocValues {
                    kind: DocKind::Longs,
                    values: numbers().iter().map(|b| Value::Long(*b as i64)).collect(),
                },
            },
        })
    }
}

impl Host for DocumentHost {
    fn doc_values(&mut self, name: &str, offset: usize) -> std::result::Result<DocValues, Halt> {
        self.read(name, offset)
    }

    fn has_field(&mut self, name: &str) -> bool {
        matches!(name, "_id" | "_type") || self.mapping.field(name).is_some()
    }

    fn source(&mut self, _offset: usize) -> std::result::Result<serde_json::Value, Halt> {
        if !self.access.source {
            return Ok(serde_json::Value::Null);
        }
        Ok(self.source.clone())
    }

    fn score(&mut self, offset: usize) -> std::result::Result<f64, Halt> {
        if !self.access.score {
            return Err(Halt::at(offset, "illegal_argument_exception", "Variable [_score] is not defined."));
        }
        Ok(self.score)
    }

    fn value(&mut self, offset: usize) -> std::result::Result<Value, Halt> {
        Err(Halt::at(offset, "illegal_argument_exception", "Variable [_value] is not defined."))
    }
}
