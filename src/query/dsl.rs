//! The ES 6.8 query DSL: JSON -> `Query`, with ES's parsing errors.

use super::*;
use crate::error::{Error, Result};
use crate::json_value::{bool_of, num_f32, token_name, value_to_string};
use serde_json::Value;

/// Deepest nesting accepted, so hostile input cannot exhaust the stack.
const MAX_DEPTH: usize = 64;

/// Parses query DSL. `raw` is the request text, used to report `line`/`col` like ES.
pub struct DslParser<'a> {
    raw: &'a str,
}

fn parsing(msg: String) -> Error {
    Error::parsing_no_pos(msg)
}

impl<'a> DslParser<'a> {
    /// A parser over a request whose text is `raw` (may be empty when unknown).
    pub fn new(raw: &'a str) -> DslParser<'a> {
        DslParser { raw }
    }

    /// Line and column (1-based) of the first `"name"` key in the raw text.
    fn locate(&self, name: &str) -> (u32, u32) {
        let needle = format!("\"{name}\"");
        if let Some(i) = self.raw.find(&needle) {
            let before = &self.raw[..i];
            let line = before.matches('\n').count() as u32 + 1;
            let col = (i - before.rfind('\n').map(|p| p + 1).unwrap_or(0)) as u32 + 1;
            // Jackson reports the position just after the field name's START_OBJECT.
            let after = &self.raw[i + needle.len()..];
            let skip = after.find('{').map(|p| p + 1).unwrap_or(0) as u32;
            return (line, col + needle.len() as u32 + skip);
        }
        (1, 1)
    }

    fn parsing_at(&self, name: &str, msg: String) -> Error {
        let (line, col) = self.locate(name);
        Error::parsing(msg, line, col)
    }

    /// Parses a query object `{"<type>": {...}}`.
    pub fn parse(&mut self, v: &Value) -> Result<Query> {
        self.parse_depth(v, 0)
    }

    pub(super) fn parse_depth(&mut self, v: &Value, depth: usize) -> Result<Query> {
        if depth > MAX_DEPTH {
            return Err(parsing(format!("query is nested too deeply (more than {MAX_DEPTH} levels)")));
        }
        let obj = match v {
            Value::Object(o) => o,
            _ => return Err(parsing("[_na] query malformed, must start with start_object".into())),
        };
        let mut it = obj.iter();
        let (name, body) = match it.next() {
            Some(kv) => kv,
            None => return Err(parsing("query malformed, empty clause found".into())),
        };
        if let Some((second, _)) = it.next() {
            return Err(self.parsing_at(
                second,
                format!("[{name}] malformed query, expected [END_OBJECT] but found [FIELD_NAME]"),
            ));
        }
        match name.as_str() {
            "match_all" => Ok(Query::MatchAll { boost: boost_of(body, name)? }),
            "match_none" => Ok(Query::MatchNone),
            "match" => self.parse_match(name, body),
            "match_phrase" | "match_phrase_prefix" => self.parse_match_phrase(name, body),
            "multi_match" => self.parse_multi_match(body),
            "term" => self.parse_term(body),
            "terms" => self.parse_terms(body),
            "range" => self.parse_range(body),
            "exists" => {
                let field = str_param(body, "field", name)?
                    .ok_or_else(|| parsing("[exists] must be provided with a [field]".into()))?;
                Ok(Query::Exists { field, boost: boost_of(body, name)? })
            }
            "prefix" | "wildcard" | "regexp" | "fuzzy" => self.parse_single_value(name, body),
            "ids" => {
                let values = match body.get("values") {
                    Some(Value::Array(a)) => a.iter().map(value_to_string).collect(),
                    Some(_) => return Err(parsing("[ids] query values must be an array".into())),
                    None => Vec::new(),
                };
                Ok(Query::Ids { values, boost: boost_of(body, name)? })
            }
            "bool" => self.parse_bool(body, depth),
            "constant_score" => {
                let f =
                    body.get("filter").ok_or_else(|| parsing("[constant_score] requires a 'filter' element".into()))?;
                Ok(Query::ConstantScore {
                    filter: Box::new(self.parse_depth(f, depth + 1)?),
                    boost: boost_of(body, name)?,
                })
            }
            "dis_max" => {
                let qs = match body.get("queries") {
                    Some(Value::Array(a)) => {
                        a.iter().map(|q| self.parse_depth(q, depth + 1)).collect::<Result<Vec<_>>>()?
                    }
                    Some(q @ Value::Object(_)) => vec![self.parse_depth(q, depth + 1)?],
                    _ => return Err(parsing("[dis_max] requires 'queries' field with at least one clause".into())),
                };
                if qs.is_empty() {
                    return Err(parsing("[dis_max] requires 'queries' field with at least one clause".into()));
                }
                Ok(Query::DisMax {
                    queries: qs,
                    tie_breaker: f32_param(body, "tie_breaker")?.unwrap_or(0.0),
                    boost: boost_of(body, name)?,
                })
            }
            "boosting" => {
                let p =
                    body.get("positive").ok_or_else(|| parsing("[boosting] query requires 'positive' query".into()))?;
                let n =
                    body.get("negative").ok_or_else(|| parsing("[boosting] query requires 'negative' query".into()))?;
                let nb = f32_param(body, "negative_boost")?.ok_or_else(|| {
                    parsing("[boosting] query requires 'negative_boost' to be set to be a positive value'".into())
                })?;
                Ok(Query::Boosting {
                    positive: Box::new(self.parse_depth(p, depth + 1)?),
                    negative: Box::new(self.parse_depth(n, depth + 1)?),
                    negative_boost: nb,
                    boost: boost_of(body, name)?,
                })
            }
            "function_score" => self.parse_function_score(body, depth),
            "query_string" | "simple_query_string" => self.parse_query_string(name, body),
            "nested" => self.parse_nested(body, depth),
            "has_child" | "has_parent" | "parent_id" => {
                Err(parsing(format!("[{name}] queries are not supported: metagate has no parent-child (join) fields")))
            }
            "script" => parse_script_query(body),
            "geo_distance" | "geo_bounding_box" | "geo_polygon" => super::geo::parse(name, body),
            "geo_shape" => super::geo_shape::parse(body),
            n if super::span::NAMES.contains(&n) => super::span::parse(self, n, body, depth),
            "wrapper" => super::wrapper::parse_wrapper(body, depth),
            "common" => Ok(Query::Common(Box::new(super::common::parse(body)?))),
            "terms_set" => super::terms_set::parse(body),
            "more_like_this" => Ok(Query::MoreLikeThis(Box::new(super::more_like_this::parse(body)?))),
            "type" => super::wrapper::parse_type(body),
            other => Err(self.parsing_at(other, format!("no [query] registered for [{other}]"))),
        }
    }

    fn parse_bool(&mut self, body: &Value, depth: usize) -> Result<Query> {
        let obj = body
            .as_object()
            .ok_or_else(|| parsing("[bool] query malformed, no start_object after query name".into()))?;
        let mut b = BoolQuery { boost: 1.0, ..Default::default() };
        for (k, v) in obj {
            let target = match k.as_str() {
                "must" => &mut b.must,
                "filter" => &mut b.filter,
                "should" => &mut b.should,
                "must_not" | "mustNot" => &mut b.must_not,
                "minimum_should_match" | "minimumShouldMatch" => {
                    b.minimum_should_match = Some(msm_of(v)?);
                    continue;
                }
                "boost" => {
                    b.boost = num_f32(v).ok_or_else(|| parsing("[bool] query [boost] must be a number".into()))?;
                    continue;
                }
                "disable_coord" | "adjust_pure_negative" | "_name" => continue,
                other => return Err(parsing(format!("[bool] query does not support [{other}]"))),
            };
            let items: Vec<&Value> = match v {
                Value::Array(a) => a.iter().collect(),
                Value::Object(_) => vec![v],
                _ => return Err(parsing(format!("[bool] query does not support [{k}]"))),
            };
            let mut parsed = Vec::with_capacity(items.len());
            for q in items {
                parsed.push(self.parse_depth(q, depth + 1)?);
            }
            target.extend(parsed);
        }
        Ok(Query::Bool(b))
    }

    fn field_body<'v>(&self, name: &str, body: &'v Value) -> Result<(String, &'v Value)> {
        let obj = body
            .as_object()
            .ok_or_else(|| parsing(format!("[{name}] query malformed, no start_object after query name")))?;
        let mut fields = obj.iter().filter(|(k, _)| k.as_str() != "boost" && k.as_str() != "_name");
        let (field, v) =
            fields.next().ok_or_else(|| parsing(format!("[{name}] query malformed, no field specified")))?;
        if let Some((other, _)) = fields.next() {
            return Err(self.parsing_at(
                other,
                format!("[{name}] query doesn't support multiple fields, found [{field}] and [{other}]"),
            ));
        }
        Ok((field.clone(), v))
    }

    fn parse_match(&mut self, name: &str, body: &Value) -> Result<Query> {
        let (field, v) = self.field_body(name, body)?;
        let mut m = MatchQuery::new(field, String::new());
        match v {
            Value::Object(o) => {
                for (k, pv) in o {
                    match k.as_str() {
                        "query" => m.text = scalar_text(pv, name)?,
                        "type" => match pv.as_str() {
                            Some("boolean") => {}
                            Some("phrase") | Some("phrase_prefix") => {
                                let prefix = pv.as_str() == Some("phrase_prefix");
                                let text =
                                    o.get("query").map(|q| scalar_text(q, name)).transpose()?.unwrap_or_default();
                                return Ok(Query::MatchPhrase {
                                    field: m.field,
                                    text,
                                    slop: o.get("slop").and_then(Value::as_u64).unwrap_or(0) as u32,
                                    analyzer: o.get("analyzer").and_then(Value::as_str).map(str::to_string),
                                    prefix,
                                    max_expansions: 50,
                                    boost: boost_of(pv, name).unwrap_or(1.0),
                                });
                            }
                            _ => return Err(parsing(format!("[{name}] query does not support type {pv}"))),
                        },
                        _ => self.match_option(name, k, pv, &mut m)?,
                    }
                }
            }
            other => m.text = scalar_text(other, name)?,
        }
        Ok(Query::Match(m))
    }

    fn match_option(&self, name: &str, k: &str, pv: &Value, m: &mut MatchQuery) -> Result<()> {
        match k {
            "operator" => {
                m.operator = match pv.as_str().map(str::to_ascii_lowercase).as_deref() {
                    Some("or") => Operator::Or,
                    Some("and") => Operator::And,
                    _ => {
                        return Err(Error::illegal_argument(format!(
                            "No enum constant org.elasticsearch.index.query.Operator.{}",
                            pv.as_str().unwrap_or("").to_ascii_uppercase()
                        )))
                    }
                }
            }
            "minimum_should_match" => m.minimum_should_match = Some(msm_of(pv)?),
            "analyzer" => m.analyzer = pv.as_str().map(str::to_string),
            "fuzziness" => m.fuzziness = Some(value_to_string(pv)),
            "prefix_length" => m.prefix_length = int_of(pv, name, k)? as usize,
            "max_expansions" => m.max_expansions = int_of(pv, name, k)? as usize,
            "fuzzy_transpositions" => m.transpositions = bool_of(pv).unwrap_or(true),
            "zero_terms_query" => {
                m.zero_terms_all = match pv.as_str() {
                    Some("all") => true,
                    Some("none") => false,
                    _ => return Err(parsing(format!("Unsupported zero_terms_query value [{}]", value_to_string(pv)))),
                }
            }
            "lenient" => m.lenient = bool_of(pv).unwrap_or(false),
            "boost" => {
                m.boost = num_f32(pv).ok_or_else(|| parsing(format!("[{name}] query [boost] must be a number")))?
            }
            "auto_generate_synonyms_phrase_query" => m.synonym_phrases = bool_of(pv).unwrap_or(true),
            "cutoff_frequency" => {
                m.cutoff_frequency = Some(
                    num_f32(pv)
                        .ok_or_else(|| parsing(format!("[{name}] query [cutoff_frequency] must be a number")))?,
                )
            }
            "_name" | "fuzzy_rewrite" | "rewrite" => {}
            other => return Err(parsing(format!("[{name}] query does not support [{other}]"))),
        }
        Ok(())
    }

    fn parse_match_phrase(&mut self, name: &str, body: &Value) -> Result<Query> {
        let (field, v) = self.field_body(name, body)?;
        let prefix = name == "match_phrase_prefix";
        let mut q = (String::new(), 0u32, None, 50usize, 1.0f32);
        match v {
            Value::Object(o) => {
                for (k, pv) in o {
                    match k.as_str() {
                        "query" => q.0 = scalar_text(pv, name)?,
                        "slop" => q.1 = int_of(pv, name, k)? as u32,
                        "analyzer" => q.2 = pv.as_str().map(str::to_string),
                        "max_expansions" if prefix => q.3 = int_of(pv, name, k)? as usize,
                        "boost" => {
                            q.4 = num_f32(pv)
                                .ok_or_else(|| parsing(format!("[{name}] query [boost] must be a number")))?
                        }
                        "_name" | "zero_terms_query" => {}
                        other => return Err(parsing(format!("[{name}] query does not support [{other}]"))),
                    }
                }
            }
            other => q.0 = scalar_text(other, name)?,
        }
        Ok(Query::MatchPhrase { field, text: q.0, slop: q.1, analyzer: q.2, prefix, max_expansions: q.3, boost: q.4 })
    }

    fn parse_multi_match(&mut self, body: &Value) -> Result<Query> {
        let name = "multi_match";
        let o = body.as_object().ok_or_else(|| parsing("[multi_match] query malformed".into()))?;
        let text = o
            .get("query")
            .map(|v| scalar_text(v, name))
            .transpose()?
            .ok_or_else(|| parsing("No text specified for multi_match query".into()))?;
        let fields = match o.get("fields") {
            Some(Value::Array(a)) => {
                a.iter().filter_map(Value::as_str).map(parse_field_boost).collect::<Result<Vec<_>>>()?
            }
            Some(Value::String(s)) => vec![parse_field_boost(s)?],
            None => Vec::new(),
            Some(_) => return Err(parsing("[multi_match] query does not support [fields]".into())),
        };
        let mut m = MatchQuery::new(String::new(), text.clone());
        let mut kind = MultiMatchType::BestFields;
        let mut tie = None;
        let mut slop = 0u32;
        for (k, v) in o {
            match k.as_str() {
                "query" | "fields" => {}
                "type" => {
                    kind = parse_mm_type(v.as_str().unwrap_or("")).ok_or_else(|| {
                        parsing(format!("[multi_match] query does not allow type [{}]", value_to_string(v)))
                    })?
                }
                "tie_breaker" => {
                    tie = Some(num_f32(v).ok_or_else(|| parsing("[multi_match] tie_breaker must be a number".into()))?)
                }
                "slop" => slop = int_of(v, name, k)? as u32,
                "use_dis_max" => {}
                _ => self.match_option(name, k, v, &mut m)?,
            }
        }
        let _ = slop;
        if m.fuzziness.is_some()
            && matches!(kind, MultiMatchType::CrossFields | MultiMatchType::Phrase | MultiMatchType::PhrasePrefix)
        {
            return Err(parsing(format!(
                "Fuzziness not allowed for type [{}]",
                match kind {
                    MultiMatchType::CrossFields => "cross_fields",
                    MultiMatchType::Phrase => "phrase",
                    _ => "phrase_prefix",
                }
            )));
        }
        Ok(Query::MultiMatch { fields, text, kind, tie_breaker: tie, options: m })
    }

    fn parse_term(&mut self, body: &Value) -> Result<Query> {
        let (field, v) = self.field_body("term", body)?;
        let mut boost = boost_of(body, "term").unwrap_or(1.0);
        let value = match v {
            Value::Object(o) => {
                let mut value = None;
                for (k, pv) in o {
                    match k.as_str() {
                        "value" | "term" => value = Some(pv.clone()),
                        "boost" => {
                            boost =
                                num_f32(pv).ok_or_else(|| parsing("[term] query [boost] must be a number".into()))?
                        }
                        "_name" => {}
                        other => return Err(parsing(format!("[term] query does not support [{other}]"))),
                    }
                }
                value.ok_or_else(|| parsing("No value specified for term query".into()))?
            }
            Value::Array(_) => return Err(parsing("[term] query does not support array of values".into())),
            Value::Null => return Err(parsing("No value specified for term query".into())),
            other => other.clone(),
        };
        if value.is_object() || value.is_array() {
            return Err(parsing("[term] query does not support array of values".into()));
        }
        Ok(Query::Term { field, value: scalar_of(&value), boost })
    }

    fn parse_terms(&mut self, body: &Value) -> Result<Query> {
        let o = body
            .as_object()
            .ok_or_else(|| parsing("[terms] query malformed, no start_object after query name".into()))?;
        let mut field = None;
        let mut lookup_of = None;
        let mut boost = 1.0;
        for (k, v) in o {
            match k.as_str() {
                "boost" => {
                    boost = num_f32(v).ok_or_else(|| parsing("[terms] query [boost] must be a number".into()))?
                }
                "_name" => {}
                _ => match v {
                    Value::Array(a) => {
                        if let Some((prev, _)) = &field {
                            return Err(parsing(format!(
                                "[terms] query does not support multiple fields, found [{prev}] and [{k}]"
                            )));
                        }
                        field = Some((k.clone(), a.clone()));
                    }
                    Value::Object(lookup) => {
                        if let Some((prev, _)) = &field {
                            return Err(parsing(format!(
                                "[terms] query does not support multiple fields, found [{prev}] and [{k}]"
                            )));
                        }
                        lookup_of = Some((k.clone(), lookup.clone()));
                        field = Some((k.clone(), Vec::new()));
                    }
                    _ => return Err(parsing(format!("[terms] query does not support [{k}]"))),
                },
            }
        }
        let (field, values) =
            field.ok_or_else(|| parsing("[terms] query requires a field with an array of values".into()))?;
        if let Some((field, lookup)) = lookup_of {
            return super::terms_lookup::parse(&field, &lookup, boost);
        }
        // TermsQueryBuilder.parseValues: a null is no value.
        let values = values
            .iter()
            .map(|v| match v {
                Value::Null => Err(parsing("No value specified for terms query".into())),
                v => Ok(scalar_of(v)),
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Query::Terms { field, values, boost })
    }

    fn parse_range(&mut self, body: &Value) -> Result<Query> {
        let (field, v) = self.field_body("range", body)?;
        let o = v
            .as_object()
            .ok_or_else(|| parsing("[range] query malformed, no start_object after query name".to_string()))?;
        let mut r =
            RangeQuery { field, lower: None, upper: None, format: None, time_zone: None, relation: None, boost: 1.0 };
        let mut include_lower = true;
        let mut include_upper = true;
        let mut from = None;
        let mut to = None;
        for (k, pv) in o {
            match k.as_str() {
                "gt" => r.lower = Some((scalar_of(pv), false)),
                "gte" => r.lower = Some((scalar_of(pv), true)),
                "lt" => r.upper = Some((scalar_of(pv), false)),
                "lte" => r.upper = Some((scalar_of(pv), true)),
                "from" => from = Some(pv.clone()),
                "to" => to = Some(pv.clone()),
                "include_lower" => include_lower = bool_of(pv).unwrap_or(true),
                "include_upper" => include_upper = bool_of(pv).unwrap_or(true),
                "format" => r.format = pv.as_str().map(str::to_string),
                "time_zone" => r.time_zone = pv.as_str().map(str::to_string),
                "boost" => {
                    r.boost = num_f32(pv).ok_or_else(|| parsing("[range] query [boost] must be a number".into()))?
                }
                "relation" => r.relation = Some(relation_of(pv)?),
                "_name" => {}
                other => return Err(parsing(format!("[range] query does not support [{other}]"))),
            }
        }
        if let Some(f) = from.filter(|v| !v.is_null()) {
            r.lower = Some((scalar_of(&f), include_lower));
        }
        if let Some(t) = to.filter(|v| !v.is_null()) {
            r.upper = Some((scalar_of(&t), include_upper));
        }
        if matches!(&r.lower, Some((Scalar::Null, _))) {
            r.lower = None;
        }
        if matches!(&r.upper, Some((Scalar::Null, _))) {
            r.upper = None;
        }
        Ok(Query::Range(r))
    }

    fn parse_single_value(&mut self, name: &str, body: &Value) -> Result<Query> {
        let (field, v) = self.field_body(name, body)?;
        let mut value = None;
        let mut boost = 1.0;
        let mut fuzziness = "AUTO".to_string();
        let mut prefix_length = 0usize;
        let mut max_expansions = 50usize;
        let mut transpositions = true;
        let mut max_states = 10_000usize;
        match v {
            Value::Object(o) => {
                for (k, pv) in o {
                    match k.as_str() {
                        "value" | "prefix" | "wildcard" => value = Some(value_to_string(pv)),
                        "boost" => {
                            boost = num_f32(pv)
                                .ok_or_else(|| parsing(format!("[{name}] query [boost] must be a number")))?
                        }
                        "fuzziness" if name == "fuzzy" => fuzziness = value_to_string(pv),
                        "prefix_length" if name == "fuzzy" => prefix_length = int_of(pv, name, k)? as usize,
                        "max_expansions" if name == "fuzzy" => max_expansions = int_of(pv, name, k)? as usize,
                        "transpositions" if name == "fuzzy" => transpositions = bool_of(pv).unwrap_or(true),
                        "max_determinized_states" if name == "regexp" => max_states = int_of(pv, name, k)? as usize,
                        "flags" | "flags_value" if name == "regexp" => {}
                        "rewrite" | "_name" => {}
                        other => return Err(parsing(format!("[{name}] query does not support [{other}]"))),
                    }
                }
            }
            other => value = Some(value_to_string(other)),
        }
        let value = value.ok_or_else(|| parsing(format!("No value specified for {name} query")))?;
        Ok(match name {
            "prefix" => Query::Prefix { field, value, boost },
            "wildcard" => Query::Wildcard { field, pattern: value, boost },
            "regexp" => {
                Query::Regexp { field, pattern: value, max_determinized_states: max_states, limit_length: true, boost }
            }
            _ => Query::Fuzzy { field, value, fuzziness, prefix_length, max_expansions, transpositions, boost },
        })
    }

    fn parse_function_score(&mut self, body: &Value, depth: usize) -> Result<Query> {
        let o = body.as_object().ok_or_else(|| parsing("[function_score] malformed query".into()))?;
        let mut fs = FunctionScoreQuery {
            query: Query::match_all(),
            functions: Vec::new(),
            score_mode: "multiply".into(),
            boost_mode: "multiply".into(),
            max_boost: f32::MAX,
            min_score: None,
            boost: 1.0,
        };
        let mut single = ScoreFunction { filter: None, weight: None, kind: ScoreFunctionKind::Weight };
        let mut has_single = false;
        for (k, v) in o {
            match k.as_str() {
                "query" => fs.query = self.parse_depth(v, depth + 1)?,
                "functions" => {
                    let arr =
                        v.as_array().ok_or_else(|| parsing("[function_score] [functions] must be an array".into()))?;
                    for f in arr {
                        fs.functions.push(self.parse_function(f, depth)?);
                    }
                }
                "score_mode" => {
                    fs.score_mode = check_mode(v, &["multiply", "sum", "avg", "first", "max", "min"], "score_mode")?
                }
                "boost_mode" => {
                    fs.boost_mode = check_mode(v, &["multiply", "replace", "sum", "avg", "max", "min"], "boost_mode")?
                }
                "max_boost" => {
                    fs.max_boost =
                        num_f32(v).ok_or_else(|| parsing("[function_score] max_boost must be a number".into()))?
                }
                "min_score" => {
                    fs.min_score =
                        Some(num_f32(v).ok_or_else(|| parsing("[function_score] min_score must be a number".into()))?)
                }
                "boost" => {
                    fs.boost = num_f32(v).ok_or_else(|| parsing("[function_score] boost must be a number".into()))?
                }
                "weight" => {
                    single.weight =
                        Some(num_f32(v).ok_or_else(|| parsing("[function_score] weight must be a number".into()))?);
                    has_single = true;
                }
                "field_value_factor" | "random_score" => {
                    single.kind = parse_function_kind(k, v)?;
                    has_single = true;
                }
                "script_score" => {
                    single.kind = parse_script_score(v)?;
                    has_single = true;
                }
                "gauss" | "linear" | "exp" => {
                    return Err(parsing(format!("[function_score] decay function [{k}] is not supported")))
                }
                "_name" => {}
                other => return Err(parsing(format!("function_score query does not support [{other}]"))),
            }
        }
        if has_single {
            if !fs.functions.is_empty() {
                return Err(parsing("failed to parse [function_score] query. already found [functions] array, now encountering a function outside it".into()));
            }
            fs.functions.push(single);
        }
        Ok(Query::FunctionScore(Box::new(fs)))
    }

    fn parse_function(&mut self, f: &Value, depth: usize) -> Result<ScoreFunction> {
        let o = f.as_object().ok_or_else(|| parsing("[function_score] malformed function".into()))?;
        let mut sf = ScoreFunction { filter: None, weight: None, kind: ScoreFunctionKind::Weight };
        for (k, v) in o {
            match k.as_str() {
                "filter" => sf.filter = Some(self.parse_depth(v, depth + 1)?),
                "weight" => {
                    sf.weight =
                        Some(num_f32(v).ok_or_else(|| parsing("[function_score] weight must be a number".into()))?)
                }
                "field_value_factor" | "random_score" => sf.kind = parse_function_kind(k, v)?,
                "script_score" => sf.kind = parse_script_score(v)?,
                other => return Err(parsing(format!("function_score query does not support [{other}]"))),
            }
        }
        Ok(sf)
    }

    fn parse_query_string(&mut self, name: &str, body: &Value) -> Result<Query> {
        let o = body.as_object().ok_or_else(|| parsing(format!("[{name}] query malformed")))?;
        let simple = name == "simple_query_string";
        let mut q = QueryStringQuery {
            query: String::new(),
            fields: Vec::new(),
            default_field: None,
            default_operator: Operator::Or,
            kind: MultiMatchType::BestFields,
            tie_breaker: None,
            lenient: false,
            analyzer: None,
            analyze_wildcard: false,
            allow_leading_wildcard: true,
            minimum_should_match: None,
            fuzziness: None,
            phrase_slop: 0,
            simple,
            simple_flags: u32::MAX,
            boost: 1.0,
            parsed: QueryText::Unparsed,
        };
        let mut has_query = false;
        for (k, v) in o {
            match k.as_str() {
                "query" => {
                    q.query = scalar_text(v, name)?;
                    has_query = true;
                }
                "fields" => {
                    q.fields = match v {
                        Value::Array(a) => {
                            a.iter().filter_map(Value::as_str).map(parse_field_boost).collect::<Result<Vec<_>>>()?
                        }
                        Value::String(s) => vec![parse_field_boost(s)?],
                        _ => return Err(parsing(format!("[{name}] query does not support [fields]"))),
                    }
                }
                "default_field" => q.default_field = v.as_str().map(str::to_string),
                "default_operator" => {
                    q.default_operator = match v.as_str().map(str::to_ascii_lowercase).as_deref() {
                        Some("or") => Operator::Or,
                        Some("and") => Operator::And,
                        _ => {
                            return Err(parsing(format!(
                                "[{name}] default operator [{}] is not allowed",
                                value_to_string(v)
                            )))
                        }
                    }
                }
                "type" if !simple => {
                    q.kind = parse_mm_type(v.as_str().unwrap_or("")).ok_or_else(|| {
                        parsing(format!("[query_string] query does not allow type [{}]", value_to_string(v)))
                    })?
                }
                "tie_breaker" if !simple => q.tie_breaker = num_f32(v),
                "lenient" => {
                    q.lenient = bool_of(v).ok_or_else(|| parsing(format!("[{name}] lenient must be a boolean")))?
                }
                "analyzer" => q.analyzer = v.as_str().map(str::to_string),
                "analyze_wildcard" => q.analyze_wildcard = bool_of(v).unwrap_or(false),
                "allow_leading_wildcard" if !simple => q.allow_leading_wildcard = bool_of(v).unwrap_or(true),
                "minimum_should_match" => q.minimum_should_match = Some(msm_of(v)?),
                "fuzziness" if !simple => q.fuzziness = Some(value_to_string(v)),
                "phrase_slop" if !simple => q.phrase_slop = int_of(v, name, k)? as u32,
                "boost" => q.boost = num_f32(v).ok_or_else(|| parsing(format!("[{name}] boost must be a number")))?,
                "flags" if simple => q.simple_flags = parse_simple_flags(v)?,
                "auto_generate_phrase_queries"
                | "max_determinized_states"
                | "enable_position_increments"
                | "fuzzy_prefix_length"
                | "fuzzy_max_expansions"
                | "fuzzy_transpositions"
                | "quote_field_suffix"
                | "quote_analyzer"
                | "rewrite"
                | "time_zone"
                | "escape"
                | "split_on_whitespace"
                | "auto_generate_synonyms_phrase_query"
                | "fuzzy_rewrite"
                | "analyze_wildcard_"
                | "_name"
                | "all_fields" => {}
                other => return Err(parsing(format!("[{name}] query does not support [{other}]"))),
            }
        }
        if !has_query {
            return Err(parsing(format!("[{name}] must be provided with a [query]")));
        }
        q.parse_text();
        Ok(Query::QueryString(Box::new(q)))
    }
}

fn parse_simple_flags(v: &Value) -> Result<u32> {
    if let Some(n) = v.as_i64() {
        return Ok(n as u32);
    }
    let s = v.as_str().unwrap_or("ALL");
    let mut bits = 0u32;
    for f in s.split('|') {
        bits |= match f.trim().to_ascii_uppercase().as_str() {
            "ALL" => u32::MAX,
            "NONE" => 0,
            "AND" => 1,
            "NOT" => 2,
            "OR" => 4,
            "PREFIX" => 8,
            "PHRASE" => 16,
            "PRECEDENCE" => 32,
            "ESCAPE" => 64,
            "WHITESPACE" => 128,
            "FUZZY" => 256,
            "NEAR" | "SLOP" => 512,
            other => return Err(Error::illegal_argument(format!("Unknown simple_query_string flag [{other}]"))),
        };
    }
    Ok(bits)
}

fn check_mode(v: &Value, allowed: &[&str], what: &str) -> Result<String> {
    let s = v.as_str().unwrap_or("");
    if allowed.contains(&s) {
        Ok(s.to_string())
    } else {
        Err(Error::illegal_argument(format!("illegal {what} [{s}]")))
    }
}

/// The `script` query: `{"script": <script>, "boost", "_name"}`.
fn parse_script_query(body: &Value) -> Result<Query> {
    let o =
        body.as_object().ok_or_else(|| parsing("[script] query malformed, no start_object after query name".into()))?;
    let mut script = None;
    for (k, v) in o {
        match k.as_str() {
            "script" => script = Some(crate::script::Script::parse(v)?),
            "boost" | "_name" => {}
            other => return Err(parsing(format!("[script] query does not support [{other}]"))),
        }
    }
    let script = script.ok_or_else(|| parsing("script must be provided with a [script] filter".into()))?;
    Ok(Query::Script { script: std::sync::Arc::new(script), boost: boost_of(body, "script")? })
}

/// `script_score`: `{"script": <script>}`.
fn parse_script_score(v: &Value) -> Result<ScoreFunctionKind> {
    let o = v.as_object().ok_or_else(|| parsing("[script_score] malformed".into()))?;
    let mut script = None;
    for (k, x) in o {
        match k.as_str() {
            "script" => script = Some(crate::script::Script::parse(x)?),
            other => return Err(parsing(format!("script_score query does not support [{other}]"))),
        }
    }
    let script = script.ok_or_else(|| parsing("script_score function must be provided with a [script]".into()))?;
    Ok(ScoreFunctionKind::Script(std::sync::Arc::new(script)))
}

fn parse_function_kind(name: &str, v: &Value) -> Result<ScoreFunctionKind> {
    match name {
        "field_value_factor" => {
            let field = v
                .get("field")
                .and_then(Value::as_str)
                .ok_or_else(|| parsing("[field_value_factor] requires a [field]".into()))?
                .to_string();
            let modifier = v.get("modifier").and_then(Value::as_str).unwrap_or("none").to_ascii_lowercase();
            const MODS: [&str; 10] =
                ["none", "log", "log1p", "log2p", "ln", "ln1p", "ln2p", "square", "sqrt", "reciprocal"];
            if !MODS.contains(&modifier.as_str()) {
                return Err(Error::illegal_argument(format!("Illegal modifier: {modifier}")));
            }
            Ok(ScoreFunctionKind::FieldValueFactor {
                field,
                factor: v.get("factor").and_then(num_f32).unwrap_or(1.0),
                modifier,
                missing: v.get("missing").and_then(|m| m.as_f64().or_else(|| m.as_str().and_then(|s| s.parse().ok()))),
            })
        }
        _ => Ok(ScoreFunctionKind::RandomScore {
            seed: v.get("seed").and_then(|s| s.as_i64().or_else(|| s.as_str().and_then(|x| x.parse().ok()))),
            field: v.get("field").and_then(Value::as_str).map(str::to_string),
        }),
    }
}

fn parse_mm_type(s: &str) -> Option<MultiMatchType> {
    Some(match s {
        "best_fields" | "boolean" => MultiMatchType::BestFields,
        "most_fields" => MultiMatchType::MostFields,
        "cross_fields" => MultiMatchType::CrossFields,
        "phrase" => MultiMatchType::Phrase,
        "phrase_prefix" => MultiMatchType::PhrasePrefix,
        _ => return None,
    })
}

/// Splits `field^2.5` into the name and its boost.
pub fn parse_field_boost(s: &str) -> Result<(String, f32)> {
    match s.rsplit_once('^') {
        Some((f, b)) => {
            let boost = b
                .parse::<f32>()
                .map_err(|_| Error::illegal_argument(format!("failed to parse boost [{b}] of field [{f}]")))?;
            Ok((f.to_string(), boost))
        }
        None => Ok((s.to_string(), 1.0)),
    }
}

fn msm_of(v: &Value) -> Result<MinimumShouldMatch> {
    match v {
        Value::Number(n) => Ok(MinimumShouldMatch::Spec(n.to_string())),
        Value::String(s) => Ok(MinimumShouldMatch::Spec(s.clone())),
        _ => Err(parsing("[minimum_should_match] must be a number or a string".into())),
    }
}

fn boost_of(body: &Value, name: &str) -> Result<f32> {
    match body.get("boost") {
        None => Ok(1.0),
        Some(b) => num_f32(b).ok_or_else(|| parsing(format!("[{name}] query [boost] must be a number"))),
    }
}

fn f32_param(body: &Value, key: &str) -> Result<Option<f32>> {
    match body.get(key) {
        None => Ok(None),
        Some(v) => num_f32(v).map(Some).ok_or_else(|| parsing(format!("[{key}] must be a number"))),
    }
}

fn str_param(body: &Value, key: &str, name: &str) -> Result<Option<String>> {
    match body.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(parsing(format!("[{name}] query [{key}] must be a string"))),
    }
}

fn int_of(v: &Value, name: &str, key: &str) -> Result<i64> {
    match v {
        Value::Number(n) => n.as_i64().ok_or_else(|| parsing(format!("[{name}] query [{key}] must be an integer"))),
        Value::String(s) => s.trim().parse().map_err(|_| parsing(format!("[{name}] query [{key}] must be an integer"))),
        _ => Err(parsing(format!("[{name}] query [{key}] must be an integer"))),
    }
}

fn scalar_text(v: &Value, name: &str) -> Result<String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        _ => Err(parsing(format!("[{name}] unknown token [{}] after [query]", token_name(v)))),
    }
}

/// A query's value as a scalar. An object or array where ES expects a value is kept as
/// its JSON text: ES too reads it as an object and turns it into text, which matches no
/// term of the index.
fn scalar_of(v: &Value) -> Scalar {
    Scalar::from_json(v).unwrap_or_else(|| Scalar::Text(v.to_string()))
}

/// A `range` query's `relation` (ES's `ShapeRelation` names, any case); `disjoint`, a
/// shape relation, is refused like an unknown one.
fn relation_of(v: &Value) -> Result<crate::mapping::ranges::Relation> {
    use crate::mapping::ranges::Relation;
    let name = v.as_str().map_or_else(|| v.to_string(), str::to_string);
    match name.to_lowercase().as_str() {
        "intersects" => Ok(Relation::Intersects),
        "contains" => Ok(Relation::Contains),
        "within" => Ok(Relation::Within),
        _ => Err(Error::illegal_argument(format!("[range] query does not support relation [{name}]"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse_query(v: &Value, raw: &str) -> Result<Query> {
        DslParser::new(raw).parse(v)
    }

    #[test]
    fn terms_values_are_scalars_and_null_is_no_value() {
        let q = parse_query(&json!({"terms": {"f": ["a", 2, 2.5, true]}}), "").unwrap();
        assert_eq!(
            q,
            Query::Terms {
                field: "f".into(),
                values: vec![Scalar::Text("a".into()), Scalar::Long(2), Scalar::Double(2.5), Scalar::Bool(true)],
                boost: 1.0
            }
        );
        let e = parse_query(&json!({"terms": {"f": ["a", null]}}), "").unwrap_err();
        assert_eq!(e.reason(), "No value specified for terms query");
    }

    #[test]
    fn term_forms() {
        for body in
            [json!({"term": {"f": "v"}}), json!({"term": {"f": {"value": "v"}}}), json!({"term": {"f": {"term": "v"}}})]
        {
            match parse_query(&body, "").unwrap() {
                Query::Term { field, value, .. } => {
                    assert_eq!(field, "f");
                    assert_eq!(value, Scalar::Text("v".into()));
                }
                q => panic!("{q:?}"),
            }
        }
    }

    #[test]
    fn unknown_query_reports_position() {
        let raw = r#"{"query": {"foo": {}}}"#;
        let v: Value = serde_json::from_str(raw).unwrap();
        let e = parse_query(&v["query"], raw).unwrap_err();
        assert_eq!(e.reason(), "no [query] registered for [foo]");
        assert_eq!(e.kind(), "parsing_exception");
    }

    #[test]
    fn cutoff_frequency_is_read() {
        let raw = r#"{"query": {"match": {"f": {"query": "a b", "cutoff_frequency": 0.01}}}}"#;
        let v: Value = serde_json::from_str(raw).unwrap();
        let Query::Match(m) = parse_query(&v["query"], raw).unwrap() else { panic!() };
        assert_eq!(m.cutoff_frequency, Some(0.01));
    }

    #[test]
    fn bool_clause_object_or_array() {
        let q = parse_query(
            &json!({"bool": {"filter": {"term": {"a": 1}}, "should": [{"match_all": {}}, {"match_none": {}}]}}),
            "",
        )
        .unwrap();
        let Query::Bool(b) = q else { panic!() };
        assert_eq!(b.filter.len(), 1);
        assert_eq!(b.should.len(), 2);
    }

    #[test]
    fn clause_count_is_left_to_each_boolean_query() {
        // Lucene counts per BooleanQuery when the query is built on the shard, so parsing
        // accepts wide queries and a terms query's values are no clauses at all.
        let should: Vec<Value> = (0..1100).map(|i| json!({"term": {"a": i}})).collect();
        let values: Vec<i32> = (0..5000).collect();
        let q = json!({"bool": {"should": should, "filter": {"terms": {"a": values}}}});
        let Query::Bool(b) = parse_query(&q, "").unwrap() else { panic!() };
        assert_eq!(b.should.len(), 1100);
    }

    #[test]
    fn deep_nesting_is_an_error() {
        let mut q = json!({"match_all": {}});
        for _ in 0..200 {
            q = json!({"bool": {"must": q}});
        }
        assert!(parse_query(&q, "").is_err());
    }
}
