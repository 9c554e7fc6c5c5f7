//! Aggregation scripts: `terms` over a script's values (value type `string` unless
//! `value_type` says otherwise, `double` for a value script on a numeric field), value scripts (`field` + `script`, each value given as
//! `_value`), the values of scripted metrics, and script values computed once for the
//! documents of any other aggregation over values ([`values_of`]). Scripts here may read
//! `params._source`, as ES's aggregation scripts may.

use super::buckets::{finish_subs, order_buckets, Bucket};
use super::values::{FieldValues, Key, TargetValues, ValueKind};
use super::Ctx;
use crate::error::{Error, Result};
use crate::index::DocSet;
use crate::request::aggs::{AggNode, FieldSpec, TermsSpec, ValueType};
use crate::script::{Script, Value};
use crate::search::response::aggregations::{AggBody, BucketKey, BucketList, KeyValue, ListHead};
use crate::search::script_host::{Access, ScriptRunner};
use std::collections::HashMap;
use std::sync::Arc;

/// What aggregation scripts may read: `_score` is the query's score of the document, as
/// ES 6.8 scores the documents for an aggregation whose script needs scores.
const ACCESS: Access = Access { source: true, score: true, context: crate::search::script_host::Context::Aggs };

/// The script values of one document: the script's elements, or with a field, the
/// script applied to each of the field's values.
struct DocValuesOf<'c> {
    runner: ScriptRunner<'c>,
    field: Option<&'c FieldValues>,
    target: usize,
    /// The request's context when the script reads `_score` (scores are computed only
    /// then).
    scores: Option<&'c Ctx<'c>>,
}

impl<'c> DocValuesOf<'c> {
    /// The values `script` gives in target `t`, applied to `field`'s values if any.
    fn new(ctx: &'c Ctx<'c>, script: &Arc<Script>, t: usize, field: Option<&'c FieldValues>) -> Result<Self> {
        let runner = ScriptRunner::new(script, &ctx.targets[t], ctx.snap, ACCESS)?;
        let scores = script.reads_score().then_some(ctx);
        Ok(DocValuesOf { runner, field, target: t, scores })
    }

    /// The values of `doc`; `None` once the deadline has passed.
    fn values(&mut self, doc: u32) -> Result<Option<Vec<Value>>> {
        if let Some(ctx) = self.scores {
            self.runner.host.score = f64::from(ctx.score(self.target, doc)?);
        }
        match self.field {
            None => Ok(self.runner.run(doc)?.map(|v| self.runner.elements(&v))),
            Some(fv) => {
                let mut inputs = Vec::new();
                fv.for_each_key(self.target, doc, |k| inputs.push(k));
                let mut out = Vec::with_capacity(inputs.len());
                for k in inputs {
                    self.runner.host.value = match k {
                        Key::Str(s) => Value::Str(s.into()),
                        Key::Long(v) => Value::Long(v),
                        Key::Double(v) => Value::Double(v),
                    };
                    let Some(v) = self.runner.run(doc)? else { return Ok(None) };
                    out.extend(self.runner.elements(&v));
                }
                Ok(Some(out))
            }
        }
    }
}

/// The field a value script maps, opened (without the script).
fn value_field(ctx: &Ctx<'_>, spec: &FieldSpec) -> Result<Option<FieldValues>> {
    if spec.field.is_empty() {
        return Ok(None);
    }
    let plain = FieldSpec { script: None, ..spec.clone() };
    FieldValues::open(ctx, &plain).map(Some)
}

/// The key type of `terms` over a script without `value_type`: strings, except that a value
/// script over a numeric field keeps numeric values, and as ES 6.8 (whose scripted numeric
/// values may become decimals) keys them as doubles (`dterms`, `2.0`).
fn default_value_type(field: Option<&FieldValues>) -> ValueType {
    match field.map(|f| &f.kind) {
        Some(ValueKind::Long | ValueKind::Double) => ValueType::Double,
        _ => ValueType::String,
    }
}

/// A script value as a bucket key of `value_type`.
fn key_of(runner: &ScriptRunner<'_>, v: &Value, value_type: ValueType) -> Result<Key> {
    Ok(match value_type {
        ValueType::String => Key::Str(runner.text(v)),
        ValueType::Double => Key::Double(runner.number(v)?),
        _ => Key::Long(match v {
            Value::Bool(b) => i64::from(*b),
            Value::Int(i) => *i as i64,
            Value::Long(l) => *l,
            other => runner.number(other)? as i64,
        }),
    })
}

/// What values an aggregation takes from a script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// Numbers (`histogram`, `range`, the numeric metrics): doubles, or longs with
    /// `value_type: long`; dates count as their milliseconds.
    Numbers,
    /// Dates (`date_histogram`, `date_range`): milliseconds, printed with `format` or
    /// the default date format.
    Dates,
    /// Any values (`cardinality`, composite `terms` sources): strings as Java prints
    /// them unless `value_type` says numbers.
    Terms,
}

/// The values `spec` gives for the documents of `docs`: its field's doc values, or with
/// a `script`, the script's values computed once for those documents (ES's script
/// values source), which every aggregation over doc values then reads alike.
pub fn values_of(ctx: &Ctx<'_>, spec: &FieldSpec, docs: &[DocSet], want: Want) -> Result<FieldValues> {
    let Some(script) = &spec.script else { return FieldValues::open(ctx, spec) };
    let date_format = || {
        crate::date::DateFormat::parse_format(spec.format.as_deref().unwrap_or(crate::mapping::DEFAULT_DATE_FORMAT))
            .map_err(|e| Error::illegal_argument(e.message))
    };
    let kind = match (want, spec.value_type) {
        (Want::Dates, _) | (_, Some(ValueType::Date)) => ValueKind::Date(date_format()?),
        (Want::Numbers, Some(ValueType::Long | ValueType::Boolean)) => ValueKind::Long,
        (Want::Numbers, _) => ValueKind::Double,
        (Want::Terms, None | Some(ValueType::String)) => ValueKind::Keyword,
        (Want::Terms, Some(ValueType::Double)) => ValueKind::Double,
        (Want::Terms, Some(ValueType::Long | ValueType::Boolean)) => ValueKind::Long,
    };
    let fv = value_field(ctx, spec)?;
    let mut targets = Vec::with_capacity(docs.len());
    let mut charged = 0usize;
    for (t, d) in docs.iter().enumerate() {
        let mut values = DocValuesOf::new(ctx, script, t, fv.as_ref())?;
        let mut computed: HashMap<u32, Box<[Key]>> = HashMap::new();
        for doc in super::walk(d) {
            let Some(vals) = values.values(doc)? else { break };
            if vals.is_empty() {
                continue;
            }
            let mut keys = Vec::with_capacity(vals.len());
            for v in &vals {
                keys.push(computed_key(&values.runner, v, &kind)?);
            }
            keys.sort();
            charged += super::CANDIDATE_BYTES + keys.len() * std::mem::size_of::<Key>();
            computed.insert(doc, keys.into_boxed_slice());
            if charged >= 1 << 16 {
                ctx.charge_as(charged, super::ARRAYS_LABEL)?;
                charged = 0;
            }
        }
        targets.push(TargetValues::Computed(computed));
    }
    ctx.charge_as(charged, super::ARRAYS_LABEL)?;
    let missing = match &spec.missing {
        None => None,
        Some(v) => Some(super::values::missing_key(&kind, v, &spec.field, ctx.now_ms)?),
    };
    let decimal = super::values::decimal_format(ctx, &kind, spec)?;
    Ok(FieldValues { kind, targets, missing, unmapped: false, decimal })
}

/// A script value as a key of `kind`: dates count as their milliseconds, booleans as 0
/// or 1 among numbers; a value that is not a number where numbers are wanted fails as
/// ES's script values fail.
fn computed_key(runner: &ScriptRunner<'_>, v: &Value, kind: &ValueKind) -> Result<Key> {
    if matches!(kind, ValueKind::Keyword) {
        return Ok(Key::Str(runner.text(v)));
    }
    let millis = match v {
        Value::Time(_, ms) => Some(*ms),
        Value::Bool(b) => Some(i64::from(*b)),
        _ => None,
    };
    Ok(match kind {
        ValueKind::Double => Key::Double(match millis {
            Some(ms) => ms as f64,
            None => runner.number(v)?,
        }),
        _ => Key::Long(match (millis, v) {
            (Some(ms), _) => ms,
            (None, Value::Int(i)) => *i as i64,
            (None, Value::Long(l)) => *l,
            (None, other) => runner.number(other)? as i64,
        }),
    })
}

/// `terms` over a script's values.
pub fn terms(
    ctx: &Ctx<'_>,
    node: &AggNode,
    spec: &TermsSpec,
    script: &Arc<Script>,
    docs: &[DocSet],
) -> Result<super::Typed> {
    if spec.include.is_some() || spec.exclude.is_some() {
        return Err(Error::illegal_argument(
            "[include] and [exclude] are not supported with a [terms] script on this engine",
        ));
    }
    let fv = value_field(ctx, &spec.field)?;
    let value_type = spec.field.value_type.unwrap_or_else(|| default_value_type(fv.as_ref()));
    // Per key: its count and its documents per target (for sub-aggregations).
    let mut found: HashMap<Key, (u64, Vec<DocSet>)> = HashMap::new();
    let mut charged = 0usize;
    for (t, d) in docs.iter().enumerate() {
        let mut values = DocValuesOf::new(ctx, script, t, fv.as_ref())?;
        for doc in super::walk(d) {
            let Some(vals) = values.values(doc)? else { break };
            let mut keys = Vec::with_capacity(vals.len());
            for v in &vals {
                keys.push(key_of(&values.runner, v, value_type)?);
            }
            // A document counts once per distinct key (ES sorts and dedups them).
            keys.sort();
            keys.dedup();
            for k in keys {
                let bytes = super::CANDIDATE_BYTES + if let Key::Str(s) = &k { s.len() } else { 0 };
                let entry = found.entry(k).or_insert_with(|| {
                    charged += bytes;
                    (0, vec![DocSet::new(); docs.len()])
                });
                entry.0 += 1;
                entry.1[t].insert(doc);
            }
            if charged >= 1 << 16 {
                ctx.charge(charged, &node.name)?;
                charged = 0;
            }
        }
    }
    ctx.charge(charged, &node.name)?;
    let type_name = match value_type {
        ValueType::String => "sterms",
        ValueType::Double => "dterms",
        _ => "lterms",
    };
    let mut docs_by_key: HashMap<Key, Vec<DocSet>> = HashMap::new();
    let mut buckets: Vec<Bucket> = Vec::with_capacity(found.len());
    for (key, (count, d)) in found {
        if count >= spec.min_doc_count.max(1) {
            docs_by_key.insert(key.clone(), d);
            buckets.push(Bucket { key, count, subs: None });
        }
    }
    let docs_of = |keys: &[Key]| -> Vec<Vec<DocSet>> {
        keys.iter().map(|k| docs_by_key.get(k).cloned().unwrap_or_default()).collect()
    };
    order_buckets(ctx, node, &spec.order, &mut buckets, &docs_of)?;
    let all: u64 = buckets.iter().map(|b| b.count).sum();
    buckets.truncate(spec.size);
    let shown: u64 = buckets.iter().map(|b| b.count).sum();
    ctx.add_buckets(&node.name, buckets.len())?;
    finish_subs(ctx, node, &mut buckets, &docs_of)?;
    let buckets = buckets
        .into_iter()
        .map(|b| {
            let key = match &b.key {
                Key::Str(s) => KeyValue::Str(s.clone()),
                Key::Long(v) => KeyValue::Long(*v),
                Key::Double(v) => KeyValue::Double(*v),
            };
            super::buckets::bucket(BucketKey::Term { key, as_string: None }, b)
        })
        .collect();
    let list = BucketList { head: ListHead::Terms { sum_other_doc_count: all - shown }, buckets, keyed: false };
    Ok((type_name, AggBody::Buckets(list)))
}

/// Calls `f` with every numeric value the script gives for the documents of `docs`
/// (scripted metrics); `count_only` counts values of any type (`value_count`).
pub fn for_each_number(
    ctx: &Ctx<'_>,
    spec: &FieldSpec,
    script: &Arc<Script>,
    docs: &[DocSet],
    count_only: bool,
    f: &mut dyn FnMut(f64),
) -> Result<()> {
    let fv = value_field(ctx, spec)?;
    for (t, d) in docs.iter().enumerate() {
        let mut values = DocValuesOf::new(ctx, script, t, fv.as_ref())?;
        for doc in super::walk(d) {
            let Some(vals) = values.values(doc)? else { break };
            for v in &vals {
                if count_only {
                    f(0.0);
                } else {
                    f(values.runner.number(v)?);
                }
            }
        }
    }
    Ok(())
}
