//! The parent pipelines: computed over the buckets of the aggregation they sit in,
//! adding a value to buckets (`derivative`, `cumulative_sum`, `serial_diff`,
//! `moving_avg`, `moving_fn`, `bucket_script`) or choosing and ordering them
//! (`bucket_selector`, `bucket_sort`), as ES 6.8's pipeline aggregators do.

use super::path::{resolve_bucket_value, KeyKind};
use super::{execution_error, Output};
use crate::error::{Error, Result};
use crate::request::aggs::{AggKind, AggNode};
use crate::request::pipeline_aggs::{BucketSortKey, GapPolicy, PipelineKind};
use crate::script::{Halt, Heap, NoDocument, Script};
use crate::search::response::aggregations::{AggBody, AggResults, Bucket, BucketKey, KeyValue};
use serde_json::{Map, Value};
use std::cmp::Ordering;
use std::collections::VecDeque;

/// Runs the parent pipeline of `out` over the buckets of `parent`'s result `body`.
pub fn run(out: &Output<'_>, parent: &AggNode, body: &mut AggBody) -> Result<()> {
    let AggBody::Buckets(list) = body else {
        return Err(execution_error(format!(
            "pipeline aggregation [{}] of type [{}] needs a multi-bucket parent aggregation",
            out.node.name, out.spec.type_name
        )));
    };
    let keys = match parent.kind {
        AggKind::DateHistogram(_) => KeyKind::Date,
        AggKind::Histogram(_) => KeyKind::Number,
        _ => KeyKind::Text,
    };
    compute(out, parent, keys, list.keyed, &mut list.buckets)
}

fn compute(out: &Output<'_>, parent: &AggNode, keys: KeyKind, keyed: bool, buckets: &mut Vec<Bucket>) -> Result<()> {
    let gap = out.spec.gap_policy;
    let path = out.spec.paths.first().map(|(_, p)| p.strings()).unwrap_or_default();
    let key_kind = |b: &Bucket| key_kind(keys, b);
    let value = |b: &Bucket, gap: GapPolicy| resolve_bucket_value(b, key_kind(b), &path, gap);
    match &out.spec.kind {
        PipelineKind::Derivative { unit_ms } => {
            let mut last: Option<(f64, Option<f64>)> = None;
            for b in buckets.iter_mut() {
                let key = b.key_number().unwrap_or(f64::NAN);
                let this = value(b, gap)?;
                if let (Some((last_key, Some(last_value))), Some(v)) = (last, this) {
                    let gradient = v - last_value;
                    let x_diff = unit_ms.map(|u| (key - last_key) / u).unwrap_or(-1.0);
                    let normalized = (x_diff > 0.0).then(|| out.formatted(gradient / x_diff));
                    let body = AggBody::Derivative { value: out.formatted(gradient), normalized };
                    b.subs.0.push(out.result("derivative", body));
                }
                last = Some((key, this));
            }
        }
        PipelineKind::CumulativeSum => {
            let mut sum = 0.0;
            for b in buckets.iter_mut() {
                if let Some(v) = value(b, GapPolicy::InsertZeros)? {
                    sum += v;
                }
                b.subs.0.push(out.simple_value(sum));
            }
        }
        PipelineKind::SerialDiff { lag } => {
            let mut window: VecDeque<f64> = VecDeque::with_capacity(*lag);
            for (counter, b) in buckets.iter_mut().enumerate() {
                let lag_value = if counter < *lag { f64::NAN } else { window.front().copied().unwrap_or(f64::NAN) };
                let this = value(b, gap)?.unwrap_or(f64::NAN);
                if !this.is_nan() && !lag_value.is_nan() {
                    b.subs.0.push(out.simple_value(this - lag_value));
                }
                if window.len() == *lag {
                    window.pop_front();
                }
                window.push_back(this);
            }
        }
        PipelineKind::MovingAvg { model, window, predict } => {
            let mut values: VecDeque<f64> = VecDeque::with_capacity(*window);
            let mut last_valid: Option<(f64, usize)> = None;
            for (counter, b) in buckets.iter_mut().enumerate() {
                let Some(this) = value(b, gap)?.filter(|v| !v.is_nan()) else { continue };
                if super::models::has_value(model, values.len()) {
                    let window: Vec<f64> = values.iter().copied().collect();
                    let next = super::models::next(model, &window).map_err(execution_error)?;
                    b.subs.0.push(out.simple_value(next));
                }
                last_valid = Some((b.key_number().unwrap_or(0.0), counter));
                if values.len() == *window {
                    values.pop_front();
                }
                values.push_back(this);
            }
            if *predict > 0 && !buckets.is_empty() {
                let window: Vec<f64> = values.iter().copied().collect();
                let predictions = super::models::predict(model, &window, *predict).map_err(execution_error)?;
                let next = NextKey::of(out, parent)?;
                let (mut key, position) = last_valid.unwrap_or((0.0, 0));
                for (i, p) in predictions.into_iter().enumerate() {
                    key = next.after(key);
                    let prediction = out.simple_value(p);
                    let at = position + i + 1;
                    if at < buckets.len() {
                        let b = &mut buckets[at];
                        next.set_key(b, key);
                        b.subs.0.push(prediction);
                    } else {
                        // A bucket past the data: the key, no documents, the prediction.
                        out.ctx.add_buckets(&out.node.name, 1)?;
                        let key = next.new_key(key);
                        buckets.push(Bucket {
                            key,
                            doc_count: 0,
                            significance: None,
                            subs: AggResults(vec![prediction]),
                        });
                    }
                }
            }
        }
        PipelineKind::MovingFn { window, script } => {
            if let Some(e) = script.unsupported_context("moving-function") {
                return Err(e);
            }
            let mut values: VecDeque<f64> = VecDeque::with_capacity(*window);
            let mut heap = Heap::default();
            for b in buckets.iter_mut() {
                let Some(this) = value(b, gap)?.filter(|v| !v.is_nan()) else { continue };
                let mut host = Window(values.iter().copied().collect());
                let result = run_script(out, script, &mut heap, &mut host, script.params.clone())?;
                let number = as_double(&result).ok_or_else(|| {
                    execution_error(format!(
                        "moving_fn script for aggregation [{}] must return a double",
                        out.node.name
                    ))
                })?;
                b.subs.0.push(out.simple_value(number));
                if values.len() == *window {
                    values.pop_front();
                }
                values.push_back(this);
            }
        }
        PipelineKind::BucketScript(script) => {
            let mut heap = Heap::default();
            for b in buckets.iter_mut() {
                let Some((params, mut vars)) = script_params(out, script, b, key_kind(b), true)? else { continue };
                let result = run_script(out, script, &mut heap, &mut vars, params)?;
                if result == crate::script::Value::Null {
                    continue;
                }
                let number = as_double(&result).ok_or_else(|| {
                    execution_error(format!(
                        "series_arithmetic script for reducer [{}] must return a Number",
                        out.node.name
                    ))
                })?;
                b.subs.0.push(out.simple_value(number));
            }
        }
        PipelineKind::BucketSelector(script) => {
            let mut heap = Heap::default();
            let mut kept = Vec::with_capacity(buckets.len());
            for b in buckets.drain(..) {
                let (params, mut vars) = script_params(out, script, &b, key_kind(&b), false)?.unwrap_or_default();
                match run_script(out, script, &mut heap, &mut vars, params)? {
                    crate::script::Value::Bool(true) => kept.push(b),
                    crate::script::Value::Bool(false) => {}
                    // ES's expression selector keeps a bucket whose value is exactly 1.
                    crate::script::Value::Double(v) if script.is_expression() => {
                        if v == 1.0 {
                            kept.push(b)
                        }
                    }
                    other => {
                        return Err(Error::new(
                            500,
                            crate::error::Exception::new(
                                "class_cast_exception",
                                format!("{} cannot be cast to java.lang.Boolean", Heap::class_name(&other)),
                            ),
                        ))
                    }
                }
            }
            *buckets = kept;
        }
        PipelineKind::BucketSort { sort, from, size } => bucket_sort(out, keys, keyed, buckets, sort, *from, *size)?,
        PipelineKind::Sibling(_) => {}
    }
    Ok(())
}

/// The keys of buckets a prediction adds after the parent's last (ES's `nextKey`).
struct NextKey {
    /// The histogram's interval and offset (keys round as its buckets do).
    histogram: Option<(f64, f64)>,
    /// The date histogram's rounding and the field's format with the time zone.
    date: Option<(crate::request::aggs::DateInterval, i64, i32, Option<crate::date::DateFormat>)>,
}

impl NextKey {
    fn of(out: &Output<'_>, parent: &AggNode) -> Result<NextKey> {
        Ok(match &parent.kind {
            AggKind::Histogram(h) => NextKey { histogram: Some((h.interval, h.offset)), date: None },
            AggKind::DateHistogram(d) => {
                let fv = crate::search::aggs::values::FieldValues::open(out.ctx, &d.field)?;
                let format = match fv.kind {
                    crate::search::aggs::values::ValueKind::Date(f) => Some(f),
                    _ => None,
                };
                NextKey { histogram: None, date: Some((d.interval, d.offset, d.time_zone.offset_secs(), format)) }
            }
            _ => return Err(execution_error("moving_avg predictions need a histogram or date_histogram parent")),
        })
    }

    /// The key after `key`.
    fn after(&self, key: f64) -> f64 {
        if let Some((interval, offset)) = self.histogram {
            let next = key + interval + interval / 2.0;
            return ((next - offset) / interval).floor() * interval + offset;
        }
        match self.date {
            Some((crate::request::aggs::DateInterval::Calendar(unit), offset, tz, _)) => {
                crate::date::calendar_next(key as i64 - offset, unit, tz)
                    .map(|n| (n + offset) as f64)
                    .unwrap_or(f64::NAN)
            }
            Some((crate::request::aggs::DateInterval::Fixed(len), ..)) => key + len as f64,
            None => f64::NAN,
        }
    }

    /// The key as the parent writes it (`key_as_string` of a date).
    fn text(&self, key: f64) -> String {
        match &self.date {
            Some((_, _, tz, Some(f))) => f.format_at(key as i64, *tz),
            Some(_) => (key as i64).to_string(),
            None => crate::json_value::java_double(key),
        }
    }

    /// Sets an existing bucket's key to `key` (a date's `key_as_string` with it).
    fn set_key(&self, b: &mut Bucket, key: f64) {
        let BucketKey::Histogram { key: k, as_string } = &mut b.key else { return };
        match &self.date {
            Some((_, _, _, format)) => {
                if format.is_some() {
                    *as_string = Some(self.text(key));
                }
                *k = KeyValue::Long(key as i64);
            }
            None => *k = KeyValue::Double(key),
        }
    }

    /// The key of a bucket the predictions add, as the parent writes its keys.
    fn new_key(&self, key: f64) -> BucketKey {
        match &self.date {
            Some((_, _, _, format)) => BucketKey::Histogram {
                key: KeyValue::Long(key as i64),
                as_string: format.is_some().then(|| self.text(key)),
            },
            None => BucketKey::Histogram { key: KeyValue::Double(key), as_string: None },
        }
    }
}

/// `params` of a bucket script: the script's own with each `buckets_path` variable's
/// value; `None` when a value is missing and the gap policy skips the bucket.
fn script_params(
    out: &Output<'_>,
    script: &Script,
    b: &Bucket,
    keys: KeyKind,
    skip_gaps: bool,
) -> Result<Option<(Value, Vars)>> {
    let mut nan = Vars::default();
    let mut params = match &script.params {
        Value::Object(m) => m.clone(),
        _ => Map::new(),
    };
    for (var, path) in &out.spec.paths {
        let v = resolve_bucket_value(b, keys, &path.strings(), out.spec.gap_policy)?;
        if skip_gaps && out.spec.gap_policy == GapPolicy::Skip && v.is_none_or(f64::is_nan) {
            return Ok(None);
        }
        if v.is_some_and(f64::is_nan) {
            nan.0.push(var.clone());
        }
        params.insert(var.clone(), v.map(Value::from).unwrap_or(Value::Null));
    }
    Ok(Some((Value::Object(params), nan)))
}

/// The host of bucket scripts: no document; the variables whose value is NaN (a gap
/// the policy skips), which ES passes as `Double.NaN` and JSON params cannot hold.
#[derive(Default)]
struct Vars(Vec<String>);

impl crate::script::Host for Vars {
    fn doc_values(&mut self, name: &str, offset: usize) -> std::result::Result<crate::script::DocValues, Halt> {
        NoDocument.doc_values(name, offset)
    }
    fn has_field(&mut self, _name: &str) -> bool {
        false
    }
    fn source(&mut self, offset: usize) -> std::result::Result<Value, Halt> {
        NoDocument.source(offset)
    }
    fn score(&mut self, offset: usize) -> std::result::Result<f64, Halt> {
        NoDocument.score(offset)
    }
    fn value(&mut self, offset: usize) -> std::result::Result<crate::script::Value, Halt> {
        NoDocument.value(offset)
    }
    fn param(&mut self, name: &str) -> Option<crate::script::Value> {
        self.0.iter().any(|v| v == name).then_some(crate::script::Value::Double(f64::NAN))
    }
}

/// Runs `script` with `params`, its errors as the search's.
fn run_script<H: crate::script::Host>(
    out: &Output<'_>,
    script: &Script,
    heap: &mut Heap,
    host: &mut H,
    params: Value,
) -> Result<crate::script::Value> {
    let index = out.ctx.targets.first().map(|t| t.meta.name.as_str());
    script.check(index)?;
    let mut with_params = script.clone();
    with_params.params = params;
    heap.reset();
    let result = with_params.run(heap, host).map_err(|h: Halt| with_params.failure(index, &h))?;
    Ok(result)
}

/// A number a script returned, as a double.
fn as_double(v: &crate::script::Value) -> Option<f64> {
    crate::script::ops::Num::of(v).map(crate::script::ops::Num::f64)
}

/// The host of a `moving_fn` script: the window's values, no document.
struct Window(Vec<f64>);

impl crate::script::Host for Window {
    fn doc_values(&mut self, name: &str, offset: usize) -> std::result::Result<crate::script::DocValues, Halt> {
        NoDocument.doc_values(name, offset)
    }
    fn has_field(&mut self, _name: &str) -> bool {
        false
    }
    fn source(&mut self, offset: usize) -> std::result::Result<Value, Halt> {
        NoDocument.source(offset)
    }
    fn score(&mut self, offset: usize) -> std::result::Result<f64, Halt> {
        NoDocument.score(offset)
    }
    fn value(&mut self, offset: usize) -> std::result::Result<crate::script::Value, Halt> {
        NoDocument.value(offset)
    }
    fn window(&mut self, _offset: usize) -> std::result::Result<Vec<f64>, Halt> {
        Ok(self.0.clone())
    }
}

/// `bucket_sort`: the buckets with a value for some criterion, ordered by the criteria,
/// `from` and `size` applied (without criteria, only the page is cut).
fn bucket_sort(
    out: &Output<'_>,
    keys: KeyKind,
    keyed: bool,
    buckets: &mut Vec<Bucket>,
    sort: &[BucketSortKey],
    from: usize,
    size: Option<usize>,
) -> Result<()> {
    let count = buckets.len();
    let size = size.unwrap_or(count);
    if from >= count {
        buckets.clear();
        return Ok(());
    }
    if sort.is_empty() {
        let end = from.saturating_add(size).min(count);
        *buckets = buckets.drain(from..end).collect();
        return Ok(());
    }
    let mut rows: Vec<(Vec<Option<SortValue>>, Bucket)> = Vec::with_capacity(count);
    for b in buckets.drain(..) {
        let mut values = Vec::with_capacity(sort.len());
        for s in sort {
            let v = if s.path == "_key" {
                sort_key(&b, keyed)
            } else {
                let path = crate::request::pipeline_aggs::BucketsPath::parse(&s.path)?.strings();
                match resolve_bucket_value(&b, key_kind(keys, &b), &path, out.spec.gap_policy)? {
                    Some(v) if out.spec.gap_policy == GapPolicy::Skip && v.is_nan() => None,
                    Some(v) => Some(SortValue::Number(v)),
                    None => None,
                }
            };
            values.push(v);
        }
        if values.iter().any(Option::is_some) {
            rows.push((values, b));
        }
    }
    let compare = |a: &[Option<SortValue>], b: &[Option<SortValue>]| {
        for (i, s) in sort.iter().enumerate() {
            let ord = match (&a[i], &b[i]) {
                (None, None) => continue,
                (None, Some(_)) => Ordering::Less,
                (Some(_), None) => Ordering::Greater,
                (Some(SortValue::Number(x)), Some(SortValue::Number(y))) => x.total_cmp(y),
                (Some(SortValue::Text(x)), Some(SortValue::Text(y))) => x.cmp(y),
                (Some(SortValue::Number(_)), Some(SortValue::Text(_))) => Ordering::Less,
                (Some(SortValue::Text(_)), Some(SortValue::Number(_))) => Ordering::Greater,
            };
            if ord != Ordering::Equal {
                return if s.asc { ord } else { ord.reverse() };
            }
        }
        Ordering::Equal
    };
    rows.sort_by(|a, b| compare(&a.0, &b.0));
    *buckets = rows.into_iter().skip(from).take(size).map(|(_, b)| b).collect();
    Ok(())
}

/// A criterion's value of `bucket_sort`: a key (number or text) or a metric.
#[derive(PartialEq)]
enum SortValue {
    Number(f64),
    Text(String),
}

/// A bucket's `_key` for `bucket_sort`: its key, a keyed `filters` bucket's name.
fn sort_key(b: &Bucket, keyed: bool) -> Option<SortValue> {
    if let Some(n) = b.key_number() {
        return Some(SortValue::Number(n));
    }
    match &b.key {
        BucketKey::Term { key: KeyValue::Str(t), .. } | BucketKey::Histogram { key: KeyValue::Str(t), .. } => {
            Some(SortValue::Text(t.clone()))
        }
        BucketKey::Range { key, .. } => Some(SortValue::Text(key.clone())),
        BucketKey::Named(name) if keyed => Some(SortValue::Text(name.clone())),
        _ => None,
    }
}

/// How a bucket's key reads as `_key`: a parent's text keys that are numbers (`terms`
/// over numbers) read as numbers.
fn key_kind(keys: KeyKind, b: &Bucket) -> KeyKind {
    match (keys, b.key_number()) {
        (KeyKind::Text, Some(_)) => KeyKind::Number,
        (k, _) => k,
    }
}
