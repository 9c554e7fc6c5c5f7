//! The `phrase` suggester's options, read as ES 6.8's `PhraseSuggestionBuilder` reads
//! them: the noisy channel model's settings (`real_word_error_likelihood`, `confidence`,
//! `max_errors`, `gram_size`, `separator`, `force_unigrams`, `token_limit`), the
//! `smoothing` model, the `direct_generator`s that draw candidates, `highlight` tags and
//! the `collate` query. Checks ES makes on the shard (analyzers, the field, unigrams) are
//! left to the run; the ones its builders make while parsing answer here, with ES's texts.

use super::suggest::{
    bool_of, float_of, illegal, int_of, parsing, positive_size, text_of, token, SuggestMode, TermSuggest,
};
use crate::error::{Error, Exception, Result};
use serde_json::{Map, Value};

/// The phrase suggester's options.
#[derive(Debug, Clone, PartialEq)]
pub struct PhraseSuggest {
    /// `field`: the field whose n-gram frequencies score the corrections.
    pub field: String,
    /// `analyzer` (the field's search analyzer when absent).
    pub analyzer: Option<String>,
    /// `size` (5).
    pub size: usize,
    /// `shard_size` (`max(size, 5)` when absent).
    pub shard_size: Option<usize>,
    /// `real_word_error_likelihood` (0.95).
    pub real_word_error_likelihood: f32,
    /// `confidence` (1.0).
    pub confidence: f32,
    /// `max_errors` (0.5): a fraction of the tokens below 1, else a count.
    pub max_errors: f32,
    /// `separator` (" "): what joins the words of the field's shingles.
    pub separator: String,
    /// `gram_size`: the field's largest shingle when absent.
    pub gram_size: Option<usize>,
    /// `force_unigrams` (true): shingle tokens of the text are skipped.
    pub force_unigrams: bool,
    /// `token_limit` (10): texts of this many tokens or more get no corrections.
    pub token_limit: usize,
    /// `highlight`: `pre_tag` and `post_tag`.
    pub highlight: Option<(String, String)>,
    /// `collate`.
    pub collate: Option<Collate>,
    /// `smoothing` (none given: stupid backoff with ES's default discount).
    pub smoothing: Option<Smoothing>,
    /// `direct_generator`s, in the request's order.
    pub generators: Vec<DirectGenerator>,
}

/// A smoothing model of the n-gram language model.
#[derive(Debug, Clone, PartialEq)]
pub enum Smoothing {
    /// `stupid_backoff`: `discount` (0.4).
    StupidBackoff(f64),
    /// `laplace`: `alpha` (0.5).
    Laplace(f64),
    /// `linear`: the trigram, bigram and unigram lambdas (summing to 1).
    Linear(f64, f64, f64),
}

/// `collate`: a query template each correction is checked against.
#[derive(Debug, Clone, PartialEq)]
pub struct Collate {
    /// The Mustache template of the query.
    pub source: String,
    /// `params`: the template's variables besides `suggestion`.
    pub params: Map<String, Value>,
    /// `prune` (false): keep non-matching corrections, marked with `collate_match`.
    pub prune: bool,
}

/// A `direct_generator`: a term suggester run over a field for each token.
#[derive(Debug, Clone, PartialEq)]
pub struct DirectGenerator {
    /// The spell checker's settings; its `field` is the generator's field.
    pub settings: TermSuggest,
    /// `size` (5): the candidates drawn per token.
    pub size: usize,
    /// `pre_filter`: an analyzer applied to each token before drawing.
    pub pre_filter: Option<String>,
    /// `post_filter`: an analyzer applied to each candidate drawn.
    pub post_filter: Option<String>,
    /// `suggest_mode` as given (resolved on the shard, as ES does).
    pub suggest_mode: Option<String>,
    /// `sort` as given.
    pub sort: Option<String>,
    /// `string_distance` as given.
    pub string_distance: Option<String>,
}

/// Reads a `phrase` suggester object.
pub fn parse(o: &Map<String, Value>) -> Result<PhraseSuggest> {
    let mut p = PhraseSuggest {
        field: String::new(),
        analyzer: None,
        size: 5,
        shard_size: None,
        real_word_error_likelihood: 0.95,
        confidence: 1.0,
        max_errors: 0.5,
        separator: " ".into(),
        gram_size: None,
        force_unigrams: true,
        token_limit: 10,
        highlight: None,
        collate: None,
        smoothing: None,
        generators: Vec::new(),
    };
    let mut field = None;
    for (k, v) in o {
        match v {
            Value::Array(items) => {
                if k != "direct_generator" {
                    return Err(parsing(format!("suggester[phrase]  doesn't support array field [{k}]")));
                }
                for item in items {
                    // ES reads generators while the array holds objects.
                    let Value::Object(g) = item else { break };
                    p.generators.push(parse_generator(g)?);
                }
            }
            Value::Object(inner) => match k.as_str() {
                "smoothing" => p.smoothing = parse_smoothing(inner)?,
                "highlight" => p.highlight = parse_highlight(inner)?,
                "collate" => p.collate = parse_collate(inner)?,
                _ => return Err(parsing(format!("suggester[phrase]  doesn't support array field [{k}]"))),
            },
            Value::Null => return Err(parsing(format!("suggester[phrase] doesn't support field [{k}]"))),
            _ => match k.as_str() {
                "analyzer" => p.analyzer = text_of(v),
                "field" => field = text_of(v),
                "size" => p.size = positive_size("size", v)?,
                "shard_size" => p.shard_size = Some(positive_size("shard_size", v)?),
                "real_word_error_likelihood" => {
                    p.real_word_error_likelihood = float_of(k, v)? as f32;
                    if p.real_word_error_likelihood <= 0.0 {
                        return Err(illegal("real_word_error_likelihood must be > 0.0"));
                    }
                }
                "confidence" => {
                    p.confidence = float_of(k, v)? as f32;
                    if p.confidence < 0.0 {
                        return Err(illegal("confidence must be >= 0.0"));
                    }
                }
                "separator" => p.separator = text_of(v).unwrap_or_default(),
                "max_errors" => {
                    p.max_errors = float_of(k, v)? as f32;
                    if p.max_errors <= 0.0 {
                        return Err(illegal("max_error must be > 0.0"));
                    }
                }
                "gram_size" => {
                    let n = int_of(k, v)?;
                    if n < 1 {
                        return Err(illegal("gramSize must be >= 1"));
                    }
                    p.gram_size = Some(n as usize);
                }
                "force_unigrams" => p.force_unigrams = bool_of(k, v)?,
                "token_limit" => {
                    let n = int_of(k, v)?;
                    if n <= 0 {
                        return Err(illegal("token_limit must be >= 1"));
                    }
                    p.token_limit = n as usize;
                }
                _ => return Err(parsing(format!("suggester[phrase] doesn't support field [{k}]"))),
            },
        }
    }
    p.field = field.ok_or_else(|| {
        Error::new(400, Exception::new("parse_exception", "the required field option [field] is missing"))
    })?;
    Ok(p)
}

fn parse_smoothing(o: &Map<String, Value>) -> Result<Option<Smoothing>> {
    let mut model = None;
    for (name, v) in o {
        let Value::Object(params) = v else {
            return Err(parsing(format!("[smoothing] unknown token [{}] after [{name}]", token(v))));
        };
        model = Some(match name.as_str() {
            "linear" => parse_linear(params)?,
            "laplace" => Smoothing::Laplace(number_param(params, "alpha", 0.5)?),
            "stupid_backoff" => Smoothing::StupidBackoff(number_param(params, "discount", 0.4)?),
            _ => return Err(illegal(format!("suggester[phrase] doesn't support object field [{name}]"))),
        });
    }
    Ok(model)
}

/// A model's one parameter: ES reads it among any other fields, which it ignores.
fn number_param(o: &Map<String, Value>, name: &str, default: f64) -> Result<f64> {
    match o.get(name) {
        Some(v) if !v.is_object() && !v.is_array() => float_of(name, v),
        _ => Ok(default),
    }
}

fn parse_linear(o: &Map<String, Value>) -> Result<Smoothing> {
    let (mut tri, mut bi, mut uni) = (0.0, 0.0, 0.0);
    for (k, v) in o {
        if v.is_object() || v.is_array() {
            return Err(parsing(format!("[linear] unknown token [{}] after [{k}]", token(v))));
        }
        let slot = match k.as_str() {
            "trigram_lambda" => &mut tri,
            "bigram_lambda" => &mut bi,
            "unigram_lambda" => &mut uni,
            _ => return Err(illegal(format!("suggester[phrase][smoothing][linear] doesn't support field [{k}]"))),
        };
        *slot = float_of(k, v)?;
        if *slot < 0.0 {
            return Err(illegal(format!("{k} must be positive")));
        }
    }
    if (tri + bi + uni - 1.0f64).abs() > 0.001 {
        return Err(illegal("linear smoothing lambdas must sum to 1"));
    }
    Ok(Smoothing::Linear(tri, bi, uni))
}

fn parse_highlight(o: &Map<String, Value>) -> Result<Option<(String, String)>> {
    let (mut pre, mut post) = (None, None);
    for (k, v) in o {
        if v.is_object() || v.is_array() {
            continue;
        }
        match k.as_str() {
            "pre_tag" => pre = text_of(v),
            "post_tag" => post = text_of(v),
            _ => return Err(parsing(format!("suggester[phrase][highlight] doesn't support field [{k}]"))),
        }
    }
    match (pre, post) {
        (Some(pre), Some(post)) => Ok(Some((pre, post))),
        (None, None) => Ok(None),
        _ => Err(illegal("Pre and post tag must both be null or both not be null.")),
    }
}

/// A `collate` object; without a `query` ES collates nothing.
fn parse_collate(o: &Map<String, Value>) -> Result<Option<Collate>> {
    let mut c = Collate { source: String::new(), params: Map::new(), prune: false };
    let mut query = false;
    for (k, v) in o {
        match k.as_str() {
            "query" => {
                if query {
                    return Err(parsing(format!(
                        "suggester[phrase][collate] query already set, doesn't support additional [{k}]"
                    )));
                }
                query = true;
                c.source = match v {
                    Value::String(s) => s.clone(),
                    Value::Object(script) => {
                        // Script.parse: `lang` names mustache (the default for templates).
                        let mut rest = script.clone();
                        if let Some(lang) = rest.remove("lang") {
                            let lang = text_of(&lang).unwrap_or_default();
                            if lang != "mustache" {
                                return Err(illegal(format!(
                                    "script_lang not supported [{lang}] for a phrase suggestion's collate query"
                                )));
                            }
                        }
                        rest.remove("options");
                        super::template::SearchTemplate::from_value(&Value::Object(rest))?.source
                    }
                    other => return Err(parsing(format!("[script] unknown token [{}]", token(other)))),
                };
            }
            "params" => match v {
                Value::Object(params) => c.params = params.clone(),
                other => return Err(parsing(format!("[params] unknown token [{}]", token(other)))),
            },
            "prune" => match v {
                Value::Bool(b) => c.prune = *b,
                _ => return Err(parsing("suggester[phrase][collate] prune must be either 'true' or 'false'")),
            },
            _ => return Err(parsing(format!("suggester[phrase][collate] doesn't support field [{k}]"))),
        }
    }
    Ok(query.then_some(c))
}

/// The generator ES adds when a suggestion names none: the suggestion's field with
/// the spell checker's defaults (`DirectSpellcheckerSettings`).
pub fn default_generator(field: &str) -> DirectGenerator {
    DirectGenerator {
        settings: TermSuggest {
            field: field.to_string(),
            analyzer: None,
            size: 5,
            shard_size: None,
            suggest_mode: SuggestMode::Missing,
            sort_by_frequency: false,
            max_edits: 2,
            prefix_length: 1,
            min_word_length: 4,
            min_doc_freq: 0.0,
            max_term_freq: 0.01,
            max_inspections: 5,
            accuracy: 0.5,
            lowercase_terms: false,
        },
        size: 5,
        pre_filter: None,
        post_filter: None,
        suggest_mode: None,
        sort: None,
        string_distance: None,
    }
}

/// A `direct_generator` object, as ES's `ConstructingObjectParser` for it reads one.
fn parse_generator(o: &Map<String, Value>) -> Result<DirectGenerator> {
    let mut g = default_generator("");
    let mut settings = g.settings.clone();
    let failed = |k: &str| parsing(format!("[direct_generator] failed to parse field [{k}]"));
    let mut field = None;
    for (k, v) in o {
        if v.is_object() || v.is_array() || v.is_null() {
            return Err(failed(k));
        }
        let int = || int_of(k, v).map_err(|_| failed(k));
        let float = || float_of(k, v).map(|f| f as f32).map_err(|_| failed(k));
        match k.as_str() {
            "field" => field = text_of(v),
            "pre_filter" => g.pre_filter = text_of(v),
            "post_filter" => g.post_filter = text_of(v),
            "suggest_mode" => g.suggest_mode = text_of(v),
            "sort" => g.sort = text_of(v),
            "string_distance" => g.string_distance = text_of(v),
            "min_doc_freq" => settings.min_doc_freq = float()?,
            "accuracy" => settings.accuracy = float()?,
            "max_term_freq" => settings.max_term_freq = float()?,
            "size" => {
                let n = int()?;
                if n <= 0 {
                    return Err(failed(k));
                }
                g.size = n as usize;
            }
            "max_edits" => {
                let n = int()?;
                if !(1..=2).contains(&n) {
                    return Err(failed(k));
                }
                settings.max_edits = n as u32;
            }
            "max_inspections" => settings.max_inspections = int()?.max(0) as usize,
            "min_word_length" => settings.min_word_length = int()?.max(0) as usize,
            "prefix_length" => settings.prefix_length = int()?.max(0) as usize,
            _ => return Err(parsing(format!("[direct_generator] unknown field [{k}], parser not found"))),
        }
    }
    settings.field = field.ok_or_else(|| illegal("Required [field]"))?;
    g.settings = settings;
    Ok(g)
}

/// A generator's `suggest_mode`, `sort` and `string_distance` resolved as ES resolves
/// them when it builds the suggestion on the shard (the errors are the shard's).
pub fn resolve_generator(g: &DirectGenerator) -> Result<TermSuggest> {
    let mut s = g.settings.clone();
    if let Some(mode) = &g.suggest_mode {
        let mode = mode.to_lowercase();
        s.suggest_mode = match mode.as_str() {
            "missing" => SuggestMode::Missing,
            "popular" => SuggestMode::Popular,
            "always" => SuggestMode::Always,
            _ => return Err(illegal(format!("Illegal suggest mode {mode}"))),
        };
    }
    if let Some(sort) = &g.sort {
        // ES's `SortBy.resolve`: the enum constant of the upper-cased name.
        let constant = sort.to_uppercase();
        s.sort_by_frequency = match constant.as_str() {
            "SCORE" => false,
            "FREQUENCY" => true,
            _ => return Err(illegal(format!("No enum constant org.elasticsearch.search.suggest.SortBy.{constant}"))),
        };
    }
    // Lucene's `DirectSpellChecker` setters.
    for f in [s.min_doc_freq, s.max_term_freq] {
        if f >= 1.0 && f.fract() != 0.0 {
            return Err(illegal("Fractional absolute document frequencies are not allowed"));
        }
    }
    if let Some(distance) = &g.string_distance {
        let distance = distance.to_lowercase();
        match distance.as_str() {
            "internal" => {}
            "damerau_levenshtein"
            | "damerauLevenshtein"
            | "levenstein"
            | "levenshtein"
            | "jarowinkler"
            | "jaro_winkler"
            | "ngram" => {
                return Err(illegal(format!(
                    "string_distance [{distance}] is not supported by metagate: only [internal] is"
                )))
            }
            _ => return Err(illegal(format!("Illegal distance option {distance}"))),
        }
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn phrase(v: Value) -> Result<PhraseSuggest> {
        match v {
            Value::Object(o) => parse(&o),
            _ => unreachable!("tests pass objects"),
        }
    }

    #[test]
    fn defaults_are_es_defaults() {
        let p = phrase(json!({"field": "body"})).ok();
        let p = p.as_ref();
        assert_eq!(p.map(|p| (p.size, p.max_errors, p.confidence, p.token_limit)), Some((5, 0.5, 1.0, 10)));
        assert_eq!(p.map(|p| (p.gram_size, p.force_unigrams, p.separator.as_str())), Some((None, true, " ")));
    }

    #[test]
    fn parse_errors_carry_es_texts() {
        let reason = |v: Value| phrase(v).err().map(|e| e.reason().to_string());
        assert_eq!(reason(json!({})).as_deref(), Some("the required field option [field] is missing"));
        assert_eq!(reason(json!({"field": "f", "max_errors": 0})).as_deref(), Some("max_error must be > 0.0"));
        assert_eq!(reason(json!({"field": "f", "gram_size": 0})).as_deref(), Some("gramSize must be >= 1"));
        assert_eq!(reason(json!({"field": "f", "token_limit": 0})).as_deref(), Some("token_limit must be >= 1"));
        assert_eq!(reason(json!({"field": "f", "confidence": -1})).as_deref(), Some("confidence must be >= 0.0"));
        assert_eq!(
            reason(json!({"field": "f", "highlight": {"pre_tag": "<em>"}})).as_deref(),
            Some("Pre and post tag must both be null or both not be null.")
        );
        assert_eq!(
            reason(json!({"field": "f", "smoothing": {"linear": {"trigram_lambda": 0.5}}})).as_deref(),
            Some("linear smoothing lambdas must sum to 1")
        );
        assert_eq!(
            reason(json!({"field": "f", "smoothing": {"kneser": {}}})).as_deref(),
            Some("suggester[phrase] doesn't support object field [kneser]")
        );
        assert_eq!(
            reason(json!({"field": "f", "foo": 1})).as_deref(),
            Some("suggester[phrase] doesn't support field [foo]")
        );
        assert_eq!(
            reason(json!({"field": "f", "collate": {"prune": "yes"}})).as_deref(),
            Some("suggester[phrase][collate] prune must be either 'true' or 'false'")
        );
        assert_eq!(
            reason(json!({"field": "f", "direct_generator": [{"field": "f", "foo": 1}]})).as_deref(),
            Some("[direct_generator] unknown field [foo], parser not found")
        );
    }

    #[test]
    fn generators_smoothing_and_collate_are_read() {
        let p = phrase(json!({
            "field": "f",
            "smoothing": {"laplace": {"alpha": 0.7}},
            "collate": {"query": {"source": {"match": {"f": "{{suggestion}}"}}}, "params": {"x": 1}, "prune": true},
            "direct_generator": [{"field": "g", "size": 3, "suggest_mode": "always", "min_word_length": 1}]
        }))
        .ok();
        let p = p.as_ref();
        assert_eq!(p.and_then(|p| p.smoothing.clone()), Some(Smoothing::Laplace(0.7)));
        let c = p.and_then(|p| p.collate.clone());
        assert_eq!(
            c.as_ref().map(|c| (c.source.as_str(), c.prune)),
            Some((r#"{"match":{"f":"{{suggestion}}"}}"#, true))
        );
        let g = p.and_then(|p| p.generators.first().cloned());
        assert_eq!(
            g.as_ref().map(|g| (g.settings.field.as_str(), g.size, g.settings.min_word_length)),
            Some(("g", 3, 1))
        );
        let resolved = g.as_ref().map(resolve_generator).and_then(|r| r.ok());
        assert_eq!(resolved.map(|s| s.suggest_mode), Some(SuggestMode::Always));
    }
}
