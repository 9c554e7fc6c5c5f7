//! The `synonym` and `synonym_graph` token filters: Lucene's SynonymFilter and
//! SynonymGraphFilter over a [`rules::SynonymMap`], whose rules are analysed, as ES 6.8's
//! SynonymTokenFilterFactory does, by the chain before the filter (its char filters,
//! tokenizer and preceding token filters, earlier synonym filters left out).

pub mod files;
pub mod filter;
pub mod graph;
pub mod rules;

use super::chain::{Analysis, Kind};
use super::token::TokenStream;
use super::token_filters::TokenFilter;
use crate::error::{Error, Result};
use rules::{RuleSet, SynonymMap};
use std::sync::Arc;

/// A synonym filter's rules and, once it knows the chain it stands in, their map.
#[derive(Debug, Clone)]
pub struct Synonyms {
    /// The rules as defined.
    pub rules: Arc<RuleSet>,
    /// The map built against the chain before the filter ([`bind`]).
    pub map: Option<Arc<SynonymMap>>,
}

impl Synonyms {
    /// Unbound synonyms of `rules`.
    pub fn new(rules: RuleSet) -> Synonyms {
        Synonyms { rules: Arc::new(rules), map: None }
    }

    fn map(&self) -> Result<&SynonymMap> {
        self.map
            .as_deref()
            .ok_or_else(|| Error::illegal_argument("a synonym filter runs only inside an analysis chain"))
    }

    /// Lucene's SynonymFilter over `stream`.
    pub fn apply_flat(&self, stream: &mut TokenStream) -> Result<()> {
        let map = self.map()?;
        if !map.is_empty() {
            stream.tokens = filter::apply(map, std::mem::take(&mut stream.tokens))?;
        }
        Ok(())
    }

    /// Lucene's SynonymGraphFilter over `stream`.
    pub fn apply_graph(&self, stream: &mut TokenStream) -> Result<()> {
        let map = self.map()?;
        if !map.is_empty() {
            stream.tokens = graph::apply(map, std::mem::take(&mut stream.tokens))?;
        }
        Ok(())
    }
}

fn synonyms_of(filter: &mut TokenFilter) -> Option<&mut Synonyms> {
    match filter {
        TokenFilter::Synonym(s) | TokenFilter::SynonymGraph(s) => Some(s),
        _ => None,
    }
}

/// Builds the map of every synonym filter of `analysis` against the chain before it, as
/// ES's `getChainAwareTokenFilterFactory` does when it builds an analyzer.
pub fn bind(analysis: &mut Analysis) -> Result<()> {
    for i in 0..analysis.filters.len() {
        let Some(rules) = synonyms_of(&mut analysis.filters[i].component).map(|s| s.rules.clone()) else {
            continue;
        };
        // Earlier synonym filters stand aside (ES's IDENTITY_FILTER): the map takes no
        // stacked input.
        let preceding = analysis.filters[..i]
            .iter()
            .filter(|f| !matches!(f.component, TokenFilter::Synonym(_) | TokenFilter::SynonymGraph(_)))
            .cloned()
            .collect();
        let rules_analyzer = Analysis {
            kind: Kind::Custom,
            char_filters: analysis.char_filters.clone(),
            tokenizer: analysis.tokenizer.clone(),
            filters: preceding,
            position_increment_gap: 0,
            offset_gap: 1,
        };
        let map = rules::build(&rules, &rules_analyzer)?;
        if let Some(s) = synonyms_of(&mut analysis.filters[i].component) {
            s.map = Some(Arc::new(map));
        }
    }
    Ok(())
}

/// The synonyms of a `synonym` or `synonym_graph` definition, as ES 6.8's
/// SynonymTokenFilterFactory reads its settings.
/// `files` holds the texts of the `synonyms_path` files read when the index was created.
pub(in crate::analysis) fn definition(
    o: &super::settings::Options,
    files: &std::collections::BTreeMap<String, String>,
) -> Result<Synonyms> {
    if o.has("ignore_case") {
        crate::deprecation::warn(
            "The ignore_case option on the synonym_graph filter is deprecated. Instead, insert a lowercase filter in \
             the filter chain before the synonym_graph filter.",
        );
    }
    let expand = o.boolean("expand", true)?;
    let lenient = o.boolean("lenient", false)?;
    let wordnet = o.string("format").is_some_and(|f| f.eq_ignore_ascii_case("wordnet"));
    let text = match o.list("synonyms") {
        // ES joins the rules with the platform's line separator.
        Some(lines) => Some(lines.iter().map(|l| format!("{l}\n")).collect()),
        None => match o.string("synonyms_path") {
            Some(path) => match files.get(&path) {
                Some(text) => Some(text.clone()),
                // Read only through an index's load (its configuration folder).
                None => {
                    return Err(Error::illegal_argument(format!(
                        "IOException while reading synonyms_path_path: {path}"
                    )))
                }
            },
            None => None,
        },
    };
    Ok(Synonyms::new(RuleSet { text, wordnet, expand, lenient }))
}

#[cfg(test)]
mod tests {
    use super::super::definition::AnalysisRegistry;
    use super::*;
    use serde_json::{json, Value};

    fn chain(filter: Value) -> Result<Analysis> {
        let registry = AnalysisRegistry::global();
        let mut analysis = Analysis {
            kind: Kind::Custom,
            char_filters: Vec::new(),
            tokenizer: registry.tokenizer(&json!("standard"))?,
            filters: vec![registry.token_filter(&json!("stop"))?, registry.token_filter(&filter)?],
            position_increment_gap: 0,
            offset_gap: 1,
        };
        bind(&mut analysis)?;
        Ok(analysis)
    }

    /// (term, position, position length, type) of each token.
    fn graph(analysis: &Analysis, text: &str) -> Vec<(String, i64, u32, &'static str)> {
        let mut position = -1i64;
        let stream = analysis.analyze(text).unwrap();
        stream
            .tokens
            .into_iter()
            .map(|t| {
                position += i64::from(t.position_increment);
                (t.term, position, t.position_length, t.token_type)
            })
            .collect()
    }

    #[test]
    fn graph_synonyms_make_side_paths() {
        let a = chain(json!({"type": "synonym_graph", "synonyms": ["ny, new york"]})).unwrap();
        let tokens = graph(&a, "ny city");
        let expected = [
            ("new", 0, 1, "SYNONYM"),
            ("ny", 0, 2, "<ALPHANUM>"),
            ("york", 1, 1, "SYNONYM"),
            ("city", 2, 1, "<ALPHANUM>"),
        ];
        assert_eq!(tokens, expected.map(|(t, p, l, ty)| (t.to_string(), p, l, ty)));
    }

    #[test]
    fn flat_synonyms_stack_on_the_input() {
        let a = chain(json!({"type": "synonym", "synonyms": ["ny, new york"]})).unwrap();
        let tokens = graph(&a, "ny city");
        let expected = [
            ("ny", 0, 1, "<ALPHANUM>"),
            ("new", 0, 1, "SYNONYM"),
            ("city", 1, 1, "<ALPHANUM>"),
            ("york", 1, 1, "SYNONYM"),
        ];
        assert_eq!(tokens, expected.map(|(t, p, l, ty)| (t.to_string(), p, l, ty)));
    }

    #[test]
    fn rules_are_analysed_by_the_chain_before_the_filter() {
        // `stop` removes `the` from the rule: ES's error, unless lenient.
        let e = chain(json!({"type": "synonym", "synonyms": ["fox, the dog"]})).unwrap_err();
        let tree = e.exception.to_json(true);
        assert_eq!(tree["reason"], "failed to build synonyms");
        assert_eq!(tree["caused_by"]["type"], "parse_exception");
        assert_eq!(tree["caused_by"]["reason"], "Invalid synonym rule at line 1");
        assert_eq!(
            tree["caused_by"]["caused_by"]["reason"],
            "term: the dog analyzed to a token (dog) with position increment != 1 (got: 2)"
        );
        let a = chain(json!({"type": "synonym", "lenient": true, "synonyms": ["fox, the dog", "a b, c"]})).unwrap();
        assert_eq!(graph(&a, "fox").len(), 1);
        let e = chain(json!({"type": "synonym"})).unwrap_err();
        assert_eq!(e.reason(), "synonym requires either `synonyms` or `synonyms_path` to be configured");
    }
}

#[cfg(test)]
mod bounds {
    use serde_json::json;

    #[test]
    fn rules_that_expand_past_the_quota_stop_with_an_error() {
        // 1,500 equivalent words expand to 2,247,000 pairs.
        let line: Vec<String> = (0..1500).map(|i| format!("w{i}")).collect();
        let spec = json!({"tokenizer": "whitespace", "filter": [{"type": "synonym", "synonyms": [line.join(", ")]}], "text": "w1"});
        let e = crate::analysis::analyze_api::respond(
            &crate::analysis::analyze_api::AnalyzeRequest::parse(&spec.to_string()).unwrap(),
            None,
        )
        .unwrap_err();
        assert!(e.reason().contains("metagate stops there"), "{}", e.reason());
    }
}
