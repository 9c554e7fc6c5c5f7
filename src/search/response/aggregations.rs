//! The typed result tree of a request's aggregations: what the aggregators build, what
//! bucket ordering and the pipeline aggregations read, and what the response writer
//! renders once, in ES 6.8's key order, with `typed_keys` names applied only there.
//!
//! A number that ES prints as `null` when it has no value (NaN, an infinity) is kept as
//! the double it is; the renderer writes `null`, and a reader of the tree sees NaN
//! ([`read`]), as ES's pipelines read a missing value.

use super::Hits;
use crate::json_value::java_double;
use serde_json::{Map, Value};

/// The `aggregations` of a response: the top level's results and whether names carry
/// their aggregation's type (`typed_keys`).
#[derive(Debug, Clone)]
pub struct Aggregations {
    /// The top-level aggregations, in request order, the top level's pipelines last.
    pub results: AggResults,
    /// `typed_keys`: each name written as `type#name`.
    pub typed_keys: bool,
}

impl Aggregations {
    /// The `aggregations` object as ES writes it.
    pub fn to_value(&self) -> Value {
        Value::Object(self.results.render(self.typed_keys))
    }
}

/// The results of sibling aggregations, in the order they are written.
#[derive(Debug, Clone, Default)]
pub struct AggResults(pub Vec<AggResult>);

impl AggResults {
    /// The result named `name`.
    pub fn find(&self, name: &str) -> Option<&AggResult> {
        self.0.iter().find(|r| r.name == name)
    }

    /// The members `name: body` (`type#name` with `typed_keys`).
    fn render(&self, typed_keys: bool) -> Map<String, Value> {
        let mut m = Map::new();
        self.render_into(&mut m, typed_keys);
        m
    }

    fn render_into(&self, m: &mut Map<String, Value>, typed_keys: bool) {
        for r in &self.0 {
            let key = if typed_keys { format!("{}#{}", r.type_name, r.name) } else { r.name.clone() };
            m.insert(key, r.render(typed_keys));
        }
    }
}

/// One aggregation's result.
#[derive(Debug, Clone)]
pub struct AggResult {
    /// The aggregation's name in the request.
    pub name: String,
    /// ES's name of the result's class, the `typed_keys` prefix (`sterms`, `avg`, ...).
    pub type_name: &'static str,
    /// The request's `meta`, written first.
    pub meta: Option<Value>,
    /// What it computed.
    pub body: AggBody,
}

impl AggResult {
    fn render(&self, typed_keys: bool) -> Value {
        let mut m = Map::new();
        if let Some(meta) = &self.meta {
            m.insert("meta".into(), meta.clone());
        }
        self.body.render_into(&mut m, typed_keys);
        Value::Object(m)
    }
}

/// A number of a metric: a count, or a double (`null` when it is not finite).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// A count (`value_count`, `cardinality`).
    Count(u64),
    /// A double.
    Double(f64),
}

impl Num {
    /// The number as a reader sees it: NaN for a double without a value.
    pub fn read(self) -> f64 {
        match self {
            Num::Count(n) => n as f64,
            Num::Double(v) => read(v),
        }
    }

    fn json(self) -> Value {
        match self {
            Num::Count(n) => Value::from(n),
            Num::Double(v) => Value::from(v),
        }
    }
}

/// A double as the tree's readers see it: NaN for a value ES prints as `null`.
pub fn read(v: f64) -> f64 {
    if v.is_finite() {
        v
    } else {
        f64::NAN
    }
}

/// A value with its text in the request's or field's format (`value_as_string`).
#[derive(Debug, Clone, PartialEq)]
pub struct Formatted {
    /// The number.
    pub value: f64,
    /// Its text, when there is a format.
    pub as_string: Option<String>,
}

/// What an aggregation computed, by kind of result.
#[derive(Debug, Clone)]
pub enum AggBody {
    /// `value` and `value_as_string`: a single-value metric (`min`, `avg`, `value_count`,
    /// `weighted_avg`, ...) or a pipeline's `simple_value`.
    Value {
        /// The value.
        value: Num,
        /// Its text, when there is a format.
        as_string: Option<String>,
    },
    /// `derivative`: the value, and per unit of `unit` when asked.
    Derivative {
        /// The difference.
        value: Formatted,
        /// `normalized_value`.
        normalized: Option<Formatted>,
    },
    /// `max_bucket` and `min_bucket`: the value and the keys of the buckets holding it.
    BucketMetricValue {
        /// The best value.
        value: Formatted,
        /// The keys of the buckets with that value.
        keys: Vec<String>,
    },
    /// `stats`, `extended_stats` and their `_bucket` pipelines.
    Stats(Box<Stats>),
    /// `percentiles`, `percentile_ranks`, `percentiles_bucket`.
    Percentiles {
        /// `(key, value, value_as_string)` in request order.
        values: Vec<(f64, f64, Option<String>)>,
        /// An object by key rather than an array.
        keyed: bool,
    },
    /// A single-bucket aggregation (`filter`, `missing`, `global`, `nested`, ...).
    SingleBucket {
        /// Its documents.
        doc_count: u64,
        /// Its sub-aggregations.
        subs: AggResults,
    },
    /// A multi-bucket aggregation.
    Buckets(BucketList),
    /// `top_hits`.
    TopHits(Box<Hits>),
    /// `geo_bounds`: `(top, left, bottom, right)`, none without points.
    GeoBounds(Option<(f64, f64, f64, f64)>),
    /// `geo_centroid`: the mean point (none without points) and the count.
    GeoCentroid {
        /// `(lat, lon)`.
        location: Option<(f64, f64)>,
        /// Points counted.
        count: u64,
    },
    /// `scripted_metric`: the reduce script's returned object (or the shards' states).
    Scripted(Value),
}

/// The statistics of `stats`, `extended_stats`, `stats_bucket`, `extended_stats_bucket`.
#[derive(Debug, Clone)]
pub struct Stats {
    /// Values counted.
    pub count: u64,
    /// Smallest (infinite without values).
    pub min: f64,
    /// Largest (infinite without values).
    pub max: f64,
    /// Mean (NaN without values).
    pub avg: f64,
    /// Sum.
    pub sum: f64,
    /// The extended statistics (`extended_stats`), written `null` without values.
    pub extended: Option<Extended>,
    /// `min`, `max`, `avg`, `sum` as text, each when the format gives one.
    pub strings: [Option<String>; 4],
    /// The extended statistics as text (`extended_stats_bucket` with a `format`).
    pub extended_strings: Option<[String; 5]>,
    /// Where the texts go: after the extended statistics (the metrics), or between the
    /// plain and the extended ones (the bucket pipelines).
    pub layout: StatsLayout,
}

/// The order of a stats result's members.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatsLayout {
    /// `count`..`sum`, the extended statistics, then the texts (`InternalStats`).
    Metric,
    /// `count`..`sum`, their texts, the extended statistics and their texts.
    Bucket,
}

/// `sum_of_squares`, `variance`, `std_deviation` and the bounds at `sigma`.
#[derive(Debug, Clone, Copy)]
pub struct Extended {
    /// Sum of the squares.
    pub sum_of_squares: f64,
    /// Population variance.
    pub variance: f64,
    /// Its square root.
    pub std_deviation: f64,
    /// `avg + sigma * std_deviation`.
    pub upper: f64,
    /// `avg - sigma * std_deviation`.
    pub lower: f64,
}

impl Stats {
    /// A named value, as a `buckets_path` or an order names it (`None`: no such value).
    pub fn named(&self, name: &str) -> Option<f64> {
        let no_values = self.count == 0;
        let ext =
            |f: fn(&Extended) -> f64| self.extended.as_ref().map(|e| if no_values { f64::NAN } else { read(f(e)) });
        match name {
            "count" => Some(self.count as f64),
            "min" => Some(read(self.min)),
            "max" => Some(read(self.max)),
            "avg" => Some(read(self.avg)),
            "sum" => Some(read(self.sum)),
            "sum_of_squares" => ext(|e| e.sum_of_squares),
            "variance" => ext(|e| e.variance),
            "std_deviation" => ext(|e| e.std_deviation),
            _ => None,
        }
    }

    fn render_into(&self, m: &mut Map<String, Value>) {
        m.insert("count".into(), Value::from(self.count));
        m.insert("min".into(), Value::from(self.min));
        m.insert("max".into(), Value::from(self.max));
        m.insert("avg".into(), Value::from(self.avg));
        m.insert("sum".into(), Value::from(self.sum));
        if self.layout == StatsLayout::Bucket {
            self.strings_into(m);
        }
        if let Some(e) = &self.extended {
            let (squares, variance, std, upper, lower) = if self.count == 0 {
                (Value::Null, Value::Null, Value::Null, Value::Null, Value::Null)
            } else {
                (
                    Value::from(e.sum_of_squares),
                    Value::from(e.variance),
                    Value::from(e.std_deviation),
                    Value::from(e.upper),
                    Value::from(e.lower),
                )
            };
            m.insert("sum_of_squares".into(), squares);
            m.insert("variance".into(), variance);
            m.insert("std_deviation".into(), std);
            m.insert("std_deviation_bounds".into(), bounds(upper, lower));
        }
        if let Some([squares, variance, std, upper, lower]) = &self.extended_strings {
            m.insert("sum_of_squares_as_string".into(), Value::from(squares.as_str()));
            m.insert("variance_as_string".into(), Value::from(variance.as_str()));
            m.insert("std_deviation_as_string".into(), Value::from(std.as_str()));
            m.insert(
                "std_deviation_bounds_as_string".into(),
                bounds(Value::from(upper.as_str()), Value::from(lower.as_str())),
            );
        }
        if self.layout == StatsLayout::Metric {
            self.strings_into(m);
        }
    }

    fn strings_into(&self, m: &mut Map<String, Value>) {
        for (name, s) in ["min_as_string", "max_as_string", "avg_as_string", "sum_as_string"].iter().zip(&self.strings)
        {
            if let Some(s) = s {
                m.insert((*name).into(), Value::from(s.as_str()));
            }
        }
    }
}

/// `{"upper": .., "lower": ..}`.
fn bounds(upper: Value, lower: Value) -> Value {
    let mut b = Map::new();
    b.insert("upper".into(), upper);
    b.insert("lower".into(), lower);
    Value::Object(b)
}

/// The buckets of a multi-bucket aggregation and what its result writes around them.
#[derive(Debug, Clone)]
pub struct BucketList {
    /// The members besides `buckets`, by aggregation.
    pub head: ListHead,
    /// The buckets, in the order they are written.
    pub buckets: Vec<Bucket>,
    /// Written as an object by each bucket's [`Bucket::keyed_name`] rather than an array.
    pub keyed: bool,
}

/// The members of a multi-bucket result besides `buckets`.
#[derive(Debug, Clone)]
pub enum ListHead {
    /// Only `buckets`.
    Plain,
    /// `terms`: `doc_count_error_upper_bound` (0: one shard per index) and
    /// `sum_other_doc_count` before the buckets.
    Terms {
        /// Documents of the buckets not returned.
        sum_other_doc_count: u64,
    },
    /// `significant_terms` / `significant_text`: the foreground and background sizes.
    Significant {
        /// The foreground's documents.
        doc_count: u64,
        /// The background's documents.
        bg_count: u64,
    },
    /// `composite`: `after_key`, the last bucket's key, when there are buckets.
    Composite {
        /// The key to continue after.
        after_key: Option<Vec<(String, KeyValue)>>,
    },
    /// `auto_date_histogram`: the interval chosen, after the buckets.
    AutoDate {
        /// `1d`, `7d`, `1M`, ...
        interval: String,
    },
}

/// A key as written: JSON's scalar kinds.
#[derive(Debug, Clone, PartialEq)]
pub enum KeyValue {
    /// A whole number (also dates, in epoch milliseconds).
    Long(i64),
    /// A double.
    Double(f64),
    /// Text.
    Str(String),
    /// A boolean (a composite's `terms` over a boolean field).
    Bool(bool),
    /// No value (a composite's `missing_bucket`).
    Null,
}

impl KeyValue {
    fn json(&self) -> Value {
        match self {
            KeyValue::Long(v) => Value::from(*v),
            KeyValue::Double(v) => Value::from(*v),
            KeyValue::Str(s) => Value::from(s.as_str()),
            KeyValue::Bool(b) => Value::from(*b),
            KeyValue::Null => Value::Null,
        }
    }

    /// The key as a number, when it is one.
    pub fn number(&self) -> Option<f64> {
        match self {
            KeyValue::Long(v) => Some(*v as f64),
            KeyValue::Double(v) => Some(*v),
            _ => None,
        }
    }
}

/// One bucket of a multi-bucket result.
#[derive(Debug, Clone)]
pub struct Bucket {
    /// Its key, in its aggregation's form.
    pub key: BucketKey,
    /// Its documents.
    pub doc_count: u64,
    /// `score` and `bg_count` of a significant term.
    pub significance: Option<(f64, u64)>,
    /// Its sub-aggregations (and the pipelines that ran in it).
    pub subs: AggResults,
}

/// A bucket's key, in the form its aggregation writes.
#[derive(Debug, Clone)]
pub enum BucketKey {
    /// `key`, then `key_as_string` (`terms`, `significant_terms`, `geohash_grid`,
    /// `adjacency_matrix`).
    Term {
        /// The key.
        key: KeyValue,
        /// Its text in the field's format.
        as_string: Option<String>,
    },
    /// `key_as_string`, then `key` (`histogram`, `date_histogram`, `auto_date_histogram`).
    Histogram {
        /// The bucket's start.
        key: KeyValue,
        /// Its text in the field's format.
        as_string: Option<String>,
    },
    /// `key` (not when keyed), `from`, `from_as_string`, `to`, `to_as_string` (the ranges).
    Range {
        /// The range's key.
        key: String,
        /// The lower bound, when there is one.
        from: Option<(KeyValue, Option<String>)>,
        /// The upper bound, when there is one.
        to: Option<(KeyValue, Option<String>)>,
    },
    /// No key member: a `filters` bucket, by its filter's name when keyed.
    Named(String),
    /// A composite key: each source's value.
    Composite(Vec<(String, KeyValue)>),
}

impl Bucket {
    /// The member `key` as a number, when it is one.
    pub fn key_number(&self) -> Option<f64> {
        match &self.key {
            BucketKey::Term { key, .. } | BucketKey::Histogram { key, .. } => key.number(),
            _ => None,
        }
    }

    /// The member `key_as_string`.
    pub fn key_as_string(&self) -> Option<&str> {
        match &self.key {
            BucketKey::Term { as_string, .. } | BucketKey::Histogram { as_string, .. } => as_string.as_deref(),
            _ => None,
        }
    }

    /// The name of the bucket in a keyed list.
    pub fn keyed_name(&self) -> String {
        match &self.key {
            BucketKey::Term { key, as_string } | BucketKey::Histogram { key, as_string } => {
                as_string.clone().unwrap_or_else(|| key_text(key))
            }
            BucketKey::Range { key, .. } | BucketKey::Named(key) => key.clone(),
            BucketKey::Composite(_) => String::new(),
        }
    }

    fn render(&self, keyed: bool, typed_keys: bool) -> Value {
        let mut m = Map::new();
        match &self.key {
            BucketKey::Term { key, as_string } => {
                m.insert("key".into(), key.json());
                if let Some(s) = as_string {
                    m.insert("key_as_string".into(), Value::from(s.as_str()));
                }
            }
            BucketKey::Histogram { key, as_string } => {
                if let Some(s) = as_string {
                    m.insert("key_as_string".into(), Value::from(s.as_str()));
                }
                m.insert("key".into(), key.json());
            }
            BucketKey::Range { key, from, to } => {
                if !keyed {
                    m.insert("key".into(), Value::from(key.as_str()));
                }
                for (name, bound) in [("from", from), ("to", to)] {
                    if let Some((v, s)) = bound {
                        m.insert(name.into(), v.json());
                        if let Some(s) = s {
                            m.insert(format!("{name}_as_string"), Value::from(s.as_str()));
                        }
                    }
                }
            }
            BucketKey::Named(_) => {}
            BucketKey::Composite(parts) => {
                m.insert("key".into(), composite_key(parts));
            }
        }
        m.insert("doc_count".into(), Value::from(self.doc_count));
        if let Some((score, bg_count)) = self.significance {
            m.insert("score".into(), Value::from(score));
            m.insert("bg_count".into(), Value::from(bg_count));
        }
        self.subs.render_into(&mut m, typed_keys);
        Value::Object(m)
    }
}

/// A key as text where it names a keyed bucket or a `_bucket` pipeline's key.
pub fn key_text(key: &KeyValue) -> String {
    match key {
        KeyValue::Long(v) => v.to_string(),
        KeyValue::Double(v) => java_double(*v),
        KeyValue::Str(s) => s.clone(),
        KeyValue::Bool(b) => b.to_string(),
        KeyValue::Null => String::new(),
    }
}

fn composite_key(parts: &[(String, KeyValue)]) -> Value {
    Value::Object(parts.iter().map(|(name, v)| (name.clone(), v.json())).collect())
}

impl AggBody {
    /// A top-level number of the result by the name it is written under, as an `order`
    /// names it (`None`: no such member; NaN: a member without a number).
    pub fn member(&self, name: &str) -> Option<f64> {
        match self {
            AggBody::Value { value, as_string } => match name {
                "value" => Some(value.read()),
                "value_as_string" if as_string.is_some() => Some(f64::NAN),
                _ => None,
            },
            AggBody::Derivative { value, normalized } => match name {
                "value" => Some(read(value.value)),
                "normalized_value" => normalized.as_ref().map(|n| read(n.value)),
                _ => None,
            },
            AggBody::BucketMetricValue { value, .. } => (name == "value").then(|| read(value.value)),
            AggBody::Stats(s) => s.named(name),
            AggBody::SingleBucket { doc_count, .. } => (name == "doc_count").then_some(*doc_count as f64),
            AggBody::Buckets(list) => match (&list.head, name) {
                (ListHead::Terms { .. }, "doc_count_error_upper_bound") => Some(0.0),
                (ListHead::Terms { sum_other_doc_count }, "sum_other_doc_count") => Some(*sum_other_doc_count as f64),
                (ListHead::Significant { doc_count, .. }, "doc_count") => Some(*doc_count as f64),
                (ListHead::Significant { bg_count, .. }, "bg_count") => Some(*bg_count as f64),
                _ => None,
            },
            AggBody::GeoCentroid { count, .. } => (name == "count").then_some(*count as f64),
            AggBody::Scripted(v) => (name == "value").then(|| v.as_f64().unwrap_or(f64::NAN)),
            AggBody::Percentiles { .. } | AggBody::TopHits(_) | AggBody::GeoBounds(_) => None,
        }
    }

    fn render_into(&self, m: &mut Map<String, Value>, typed_keys: bool) {
        match self {
            AggBody::Value { value, as_string } => {
                m.insert("value".into(), value.json());
                if let Some(s) = as_string {
                    m.insert("value_as_string".into(), Value::from(s.as_str()));
                }
            }
            AggBody::Derivative { value, normalized } => {
                formatted_into(m, "value", value);
                if let Some(n) = normalized {
                    formatted_into(m, "normalized_value", n);
                }
            }
            AggBody::BucketMetricValue { value, keys } => {
                formatted_into(m, "value", value);
                m.insert("keys".into(), Value::from(keys.clone()));
            }
            AggBody::Stats(s) => s.render_into(m),
            AggBody::Percentiles { values, keyed } => {
                let rendered = if *keyed {
                    let mut o = Map::new();
                    for (k, v, s) in values {
                        let key = java_double(*k);
                        o.insert(key.clone(), Value::from(*v));
                        if let Some(s) = s {
                            o.insert(format!("{key}_as_string"), Value::from(s.as_str()));
                        }
                    }
                    Value::Object(o)
                } else {
                    Value::Array(
                        values
                            .iter()
                            .map(|(k, v, s)| {
                                let mut o = Map::new();
                                o.insert("key".into(), Value::from(*k));
                                o.insert("value".into(), Value::from(*v));
                                if let Some(s) = s {
                                    o.insert("value_as_string".into(), Value::from(s.as_str()));
                                }
                                Value::Object(o)
                            })
                            .collect(),
                    )
                };
                m.insert("values".into(), rendered);
            }
            AggBody::SingleBucket { doc_count, subs } => {
                m.insert("doc_count".into(), Value::from(*doc_count));
                subs.render_into(m, typed_keys);
            }
            AggBody::Buckets(list) => list.render_into(m, typed_keys),
            AggBody::TopHits(hits) => {
                // The hits as a tree, as ES nests them in the aggregation; our own writer's
                // bytes always read back.
                m.insert("hits".into(), hits.to_value().unwrap_or(Value::Null));
            }
            AggBody::GeoBounds(None) => {}
            AggBody::GeoBounds(Some((top, left, bottom, right))) => {
                let corner = |lat: f64, lon: f64| {
                    let mut c = Map::new();
                    c.insert("lat".into(), Value::from(lat));
                    c.insert("lon".into(), Value::from(lon));
                    Value::Object(c)
                };
                let mut b = Map::new();
                b.insert("top_left".into(), corner(*top, *left));
                b.insert("bottom_right".into(), corner(*bottom, *right));
                m.insert("bounds".into(), Value::Object(b));
            }
            AggBody::GeoCentroid { location, count } => {
                if let Some((lat, lon)) = location {
                    let mut l = Map::new();
                    l.insert("lat".into(), Value::from(*lat));
                    l.insert("lon".into(), Value::from(*lon));
                    m.insert("location".into(), Value::Object(l));
                }
                m.insert("count".into(), Value::from(*count));
            }
            AggBody::Scripted(v) => {
                m.insert("value".into(), v.clone());
            }
        }
    }
}

/// `name` (null when not finite) and, when finite, `name_as_string`.
fn formatted_into(m: &mut Map<String, Value>, name: &str, f: &Formatted) {
    m.insert(name.into(), Value::from(f.value));
    if let (true, Some(s)) = (f.value.is_finite(), &f.as_string) {
        m.insert(format!("{name}_as_string"), Value::from(s.as_str()));
    }
}

impl BucketList {
    fn render_into(&self, m: &mut Map<String, Value>, typed_keys: bool) {
        match &self.head {
            ListHead::Terms { sum_other_doc_count } => {
                m.insert("doc_count_error_upper_bound".into(), Value::from(0));
                m.insert("sum_other_doc_count".into(), Value::from(*sum_other_doc_count));
            }
            ListHead::Significant { doc_count, bg_count } => {
                m.insert("doc_count".into(), Value::from(*doc_count));
                m.insert("bg_count".into(), Value::from(*bg_count));
            }
            ListHead::Composite { after_key: Some(k) } => {
                m.insert("after_key".into(), composite_key(k));
            }
            ListHead::Plain | ListHead::Composite { after_key: None } | ListHead::AutoDate { .. } => {}
        }
        let buckets = if self.keyed {
            Value::Object(self.buckets.iter().map(|b| (b.keyed_name(), b.render(true, typed_keys))).collect())
        } else {
            Value::Array(self.buckets.iter().map(|b| b.render(false, typed_keys)).collect())
        };
        m.insert("buckets".into(), buckets);
        if let ListHead::AutoDate { interval } = &self.head {
            m.insert("interval".into(), Value::from(interval.as_str()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(name: &str, type_name: &'static str, body: AggBody) -> AggResult {
        AggResult { name: name.into(), type_name, meta: None, body }
    }

    #[test]
    fn renders_in_es_order_with_typed_keys_only_when_asked() {
        let avg = result("a", "avg", AggBody::Value { value: Num::Double(f64::NAN), as_string: None });
        let bucket = Bucket {
            key: BucketKey::Histogram { key: KeyValue::Double(5.0), as_string: Some("5".into()) },
            doc_count: 2,
            significance: None,
            subs: AggResults(vec![avg]),
        };
        let list = BucketList { head: ListHead::Plain, buckets: vec![bucket], keyed: true };
        let h =
            AggResult { meta: Some(serde_json::json!({"m": 1})), ..result("h", "histogram", AggBody::Buckets(list)) };
        let aggs = Aggregations { results: AggResults(vec![h]), typed_keys: true };
        assert_eq!(
            aggs.to_value().to_string(),
            r#"{"histogram#h":{"meta":{"m":1},"buckets":{"5":{"key_as_string":"5","key":5.0,"doc_count":2,"avg#a":{"value":null}}}}}"#
        );
        let plain = Aggregations { typed_keys: false, ..aggs };
        assert!(plain.to_value().to_string().starts_with(r#"{"h":{"meta""#));
    }

    #[test]
    fn stats_layouts_place_texts_as_es_does() {
        let stats = |layout| Stats {
            count: 1,
            min: 1.0,
            max: 1.0,
            avg: 1.0,
            sum: 1.0,
            extended: Some(Extended { sum_of_squares: 1.0, variance: 0.0, std_deviation: 0.0, upper: 1.0, lower: 1.0 }),
            strings: [Some("1".into()), None, None, None],
            extended_strings: None,
            layout,
        };
        let keys = |s: Stats| {
            let mut m = Map::new();
            s.render_into(&mut m);
            m.keys().cloned().collect::<Vec<_>>().join(",")
        };
        assert_eq!(
            keys(stats(StatsLayout::Metric)),
            "count,min,max,avg,sum,sum_of_squares,variance,std_deviation,std_deviation_bounds,min_as_string"
        );
        assert_eq!(
            keys(stats(StatsLayout::Bucket)),
            "count,min,max,avg,sum,min_as_string,sum_of_squares,variance,std_deviation,std_deviation_bounds"
        );
        let empty = Stats { count: 0, ..stats(StatsLayout::Metric) };
        assert!(empty.named("variance").is_some_and(f64::is_nan));
        assert_eq!(empty.named("count"), Some(0.0));
        assert_eq!(empty.named("nothing"), None);
    }
}
