//! `_analyze` on the engine: without an index, or on one index, whose mapped fields and
//! normalizers the request may name.

use crate::analysis::analyze_api::{self, AnalyzeRequest, FieldAnalysis, IndexAnalysis};
use crate::analysis::chain::{Analysis, Kind, Named};
use crate::analysis::definition::AnalysisRegistry;
use crate::analysis::token_filters::TokenFilter;
use crate::analysis::tokenizers::Tokenizer;
use crate::analysis::Normalizer;
use crate::engine::{Engine, IndicesOptions};
use crate::error::{Error, Result};
use crate::mapping::FieldType;
use serde_json::Value;

/// The custom analyzer ES builds for a normalizer: the keyword tokenizer and its filters
/// (metagate's `lowercase` is the lowercase filter).
fn normalizer_analysis(n: &Normalizer) -> Analysis {
    match n.analysis() {
        Some(a) => a.clone(),
        None => Analysis {
            kind: Kind::Custom,
            char_filters: Vec::new(),
            tokenizer: Named::new("keyword", Tokenizer::Keyword),
            filters: vec![Named::new("lowercase", TokenFilter::Lowercase)],
            position_increment_gap: 0,
            offset_gap: 1,
        },
    }
}

/// Answers `_analyze` without an index.
pub fn analyze_global(req: &AnalyzeRequest) -> Result<analyze_api::AnalyzeResponse> {
    analyze_api::respond(req, None)
}

/// Answers `_analyze` as an index with these `analysis` settings and no fields would.
pub fn analyze_with_analysis(analysis: &Value, req: &AnalyzeRequest) -> Result<analyze_api::AnalyzeResponse> {
    let settings = analysis.as_object().cloned().unwrap_or_default();
    let registry = AnalysisRegistry::for_index(settings);
    let no_field = |_: &str| None;
    let normalizer = |name: &str| registry.normalizer(name).ok().flatten();
    let on_index = IndexAnalysis { registry: registry.clone(), field: &no_field, normalizer: &normalizer };
    analyze_api::respond(req, Some(&on_index))
}

impl Engine {
    /// `[/{index}]/_analyze`, answered as ES 6.8 answers it: without an index, or with
    /// the analyzers, normalizers and mapped fields of the one index `index` names.
    pub fn analyze(&self, index: Option<&str>, req: &AnalyzeRequest) -> Result<analyze_api::AnalyzeResponse> {
        let Some(index) = index else {
            return analyze_api::respond(req, None);
        };
        let snap = self.snapshot()?;
        let readers =
            self.resolve(&snap, index, IndicesOptions { ignore_unavailable: false, allow_no_indices: false })?;
        let reader = match readers.as_slice() {
            [one] => one.clone(),
            [] => return Err(Error::index_not_found(index)),
            _ => {
                return Err(Error::illegal_argument(format!(
                    "Alias has more than one indices associated with it [{:?}], can't execute a single index op",
                    readers.iter().map(|r| r.meta.name.clone()).collect::<Vec<_>>()
                )))
            }
        };
        // The index's own analysis (its create-index body's `settings.analysis`).
        let mapping = &reader.meta.mapping;
        let registry = &mapping.analysis;
        let field = |name: &str| -> Option<FieldAnalysis> {
            let fm = mapping.fields.get(name)?;
            Some(match fm.ftype {
                FieldType::Text => {
                    let analysis = match fm.analyzer.analysis() {
                        Some(a) => Ok(a.clone()),
                        None => analyze_api::field_analyzer(registry, fm.analyzer.name()),
                    };
                    match analysis {
                        Ok(mut a) => {
                            a.position_increment_gap = fm.position_gap();
                            FieldAnalysis::Analyzer(a)
                        }
                        Err(_) => FieldAnalysis::NotTokenized,
                    }
                }
                FieldType::Keyword => FieldAnalysis::Keyword(match &fm.normalizer {
                    Some(n) => normalizer_analysis(n),
                    None => {
                        let mut a = AnalysisRegistry::global().analyzer("keyword").ok()?;
                        a.position_increment_gap = 0;
                        a
                    }
                }),
                _ => FieldAnalysis::NotTokenized,
            })
        };
        // The index's own normalizers first, then the built-in families' `lowercase`.
        let normalizer = |name: &str| match registry.field_normalizer(name) {
            Ok(Some(n)) => Some(normalizer_analysis(&n)),
            _ => None,
        };
        let on_index = IndexAnalysis { registry: registry.clone(), field: &field, normalizer: &normalizer };
        analyze_api::respond(req, Some(&on_index))
    }
}
