//! Lucene's QueryBuilder over a token graph (`synonym_graph` rules of several words), as
//! ES 6.8's `match` builds it (`analyzeGraphBoolean`): the graph is cut at its
//! articulation points (states every path crosses); a stretch without side paths is a
//! term or SynonymQuery, a stretch with side paths a disjunction of its paths, each a
//! term, or a phrase (`auto_generate_synonyms_phrase_query` true, the default) or a
//! conjunction of its terms (false).

use super::context::Executor;
use super::weight::{BoolWeight, Weight};
use crate::analysis::token::AnalyzedToken;
use crate::analysis::Token;
use crate::error::{Error, Result};
use crate::index::DocSet;
use crate::mapping::FieldMapping;

/// A transition of the token automaton: its token's index (Lucene's term id) and target.
struct Edge {
    id: usize,
    to: usize,
}

/// Lucene's GraphTokenStreamFiniteStrings: states by position (holes closed), one
/// transition per token, each token's own increment kept for the phrases of its paths.
struct Graph {
    edges: Vec<Vec<Edge>>,
    terms: Vec<String>,
    increments: Vec<u32>,
    last: usize,
}

fn refusal(what: &str) -> Error {
    Error::illegal_argument(format!("a token graph query {what} is not supported by metagate"))
}

impl Graph {
    fn new(tokens: &[AnalyzedToken]) -> Result<Graph> {
        let mut edges: Vec<Vec<Edge>> = Vec::new();
        let (mut terms, mut increments) = (Vec::new(), Vec::new());
        let mut pos = -1i64;
        let mut prev_incr = 1u32;
        for (id, t) in tokens.iter().enumerate() {
            if pos == -1 && t.position_increment < 1 {
                return Err(refusal("over a stream starting with a stacked token"));
            }
            if t.position_increment > 0 {
                pos += 1;
            }
            let from = pos as usize;
            let to = from + t.position_length as usize;
            while edges.len() <= to {
                edges.push(Vec::new());
            }
            // A transition with a label already leaving the state would need Lucene's
            // determinization, which this port does not run.
            if edges[from].iter().any(|e| terms[e.id] == t.term) {
                return Err(refusal("with one term on two paths from a position"));
            }
            edges[from].push(Edge { id, to });
            terms.push(t.term.clone());
            let incr = if t.position_increment == 0 && prev_incr > 1 { prev_incr } else { t.position_increment.max(1) };
            increments.push(incr);
            if t.position_increment > 0 {
                prev_incr = t.position_increment;
            }
        }
        let last = edges.len().saturating_sub(1);
        Ok(Graph { edges, terms, increments, last })
    }

    /// The states every path from the first to the last crosses, in order.
    fn articulation_points(&self) -> Vec<usize> {
        // Reachable states in order along every path: a state s (not first or last) is
        // crossed by every path when no transition jumps over it.
        (1..self.last)
            .filter(|&s| {
                !self.edges.iter().enumerate().any(|(from, out)| from < s && out.iter().any(|e| e.to > s))
                    && (0..s).any(|f| self.edges[f].iter().any(|e| e.to == s))
            })
            .collect()
    }

    fn has_side_path(&self, state: usize) -> bool {
        let out = &self.edges[state];
        out.len() > 1 && out.iter().any(|e| e.to != out[0].to)
    }

    /// Every path from `start` to `end`, as token ids, depth first in token order.
    fn paths(&self, start: usize, end: usize, budget: &mut usize) -> Result<Vec<Vec<usize>>> {
        let mut out = Vec::new();
        let mut stack = vec![(start, Vec::new())];
        while let Some((state, path)) = stack.pop() {
            if state == end {
                *budget = budget.checked_sub(1).ok_or_else(|| refusal("with that many paths"))?;
                out.push(path);
                continue;
            }
            for e in self.edges[state].iter().rev() {
                let mut p = path.clone();
                p.push(e.id);
                stack.push((e.to, p));
            }
        }
        Ok(out)
    }
}

/// The most paths a graph query takes (Lucene enumerates them all; a bound keeps a
/// hostile rule set from exploding).
const MAX_PATHS: usize = 1024;

/// The graph query of `tokens` on `fm`, its positions joined by `must` or should.
pub fn compile<'a>(
    ex: &Executor<'a>,
    fm: &FieldMapping,
    tokens: &[AnalyzedToken],
    must: bool,
    phrases: bool,
    boost: f32,
) -> Result<Weight<'a>> {
    let graph = Graph::new(tokens)?;
    let mut clauses = Vec::new();
    let mut start = 0;
    let mut budget = MAX_PATHS;
    let points = graph.articulation_points();
    for end in points.iter().copied().chain(std::iter::once(graph.last)) {
        let clause = if graph.has_side_path(start) {
            let mut alternatives = Vec::new();
            for path in graph.paths(start, end, &mut budget)? {
                alternatives.push(path_query(ex, fm, &graph, &path, phrases, boost)?);
            }
            if alternatives.len() == 1 {
                alternatives.pop().unwrap_or_else(Weight::none)
            } else {
                Weight::any_of(alternatives, 1)
            }
        } else {
            let terms: Vec<String> = graph.edges[start].iter().map(|e| graph.terms[e.id].clone()).collect();
            match terms.as_slice() {
                [one] => ex.scored_term(fm, one, boost)?,
                _ => ex.synonym(fm, &terms, boost)?,
            }
        };
        clauses.push(clause);
        start = end;
    }
    if clauses.len() == 1 {
        return Ok(clauses.pop().unwrap_or_else(Weight::none));
    }
    let (must, should) = if must { (clauses, Vec::new()) } else { (Vec::new(), clauses) };
    let min_should_match = usize::from(!should.is_empty());
    Ok(Weight::boolean(BoolWeight {
        must,
        filter: None,
        should,
        must_not: DocSet::new(),
        min_should_match,
        filter_clauses: Vec::new(),
    }))
}

/// One path: a term, a phrase with the tokens' increments, or (`phrases` false, several
/// words) a conjunction of its terms, as Lucene's `createBooleanQuery` with `MUST`.
fn path_query<'a>(
    ex: &Executor<'a>,
    fm: &FieldMapping,
    graph: &Graph,
    path: &[usize],
    phrases: bool,
    boost: f32,
) -> Result<Weight<'a>> {
    if !phrases && path.len() > 1 {
        let must = path.iter().map(|&id| ex.scored_term(fm, &graph.terms[id], boost)).collect::<Result<Vec<_>>>()?;
        return Ok(Weight::boolean(BoolWeight {
            must,
            filter: None,
            should: Vec::new(),
            must_not: DocSet::new(),
            min_should_match: 0,
            filter_clauses: Vec::new(),
        }));
    }
    let mut position = 0u32;
    let tokens: Vec<Token> = path
        .iter()
        .enumerate()
        .map(|(i, &id)| {
            if i > 0 {
                position += graph.increments[id];
            }
            Token { text: graph.terms[id].clone(), position, start: 0, end: 0 }
        })
        .collect();
    super::phrase::compile(ex, fm, &tokens, 0, false, 0, boost)
}

/// Lucene's `toString` of the graph query of `tokens` on `field`: top clauses joined by
/// spaces (`+` before each with `must`), a disjunction of paths in parentheses, phrases
/// quoted, stacked terms as `Synonym(...)`.
pub fn query_string(field: &str, tokens: &[AnalyzedToken], must: bool, phrases: bool) -> Result<String> {
    let graph = Graph::new(tokens)?;
    let mut clauses = Vec::new();
    let mut start = 0;
    let mut budget = MAX_PATHS;
    for end in graph.articulation_points().into_iter().chain(std::iter::once(graph.last)) {
        let clause = if graph.has_side_path(start) {
            let paths: Vec<String> = graph
                .paths(start, end, &mut budget)?
                .iter()
                .map(|path| {
                    let words: Vec<&str> = path.iter().map(|&id| graph.terms[id].as_str()).collect();
                    match words.as_slice() {
                        [one] => format!("{field}:{one}"),
                        _ if phrases => format!("{field}:\"{}\"", words.join(" ")),
                        _ => {
                            format!("({})", words.iter().map(|w| format!("+{field}:{w}")).collect::<Vec<_>>().join(" "))
                        }
                    }
                })
                .collect();
            // A disjunction is a BooleanQuery: in parentheses inside another.
            match paths.as_slice() {
                [one] => one.clone(),
                _ => format!("({})", paths.join(" ")),
            }
        } else {
            let terms: Vec<String> = graph.edges[start].iter().map(|e| graph.terms[e.id].clone()).collect();
            match terms.as_slice() {
                [one] => format!("{field}:{one}"),
                _ => super::synonym::query_string(field, &terms),
            }
        };
        clauses.push(clause);
        start = end;
    }
    if let [one] = clauses.as_slice() {
        // A one-clause boolean is its clause, a disjunction printed bare.
        let bare = one.strip_prefix('(').and_then(|c| c.strip_suffix(')'));
        return Ok(bare.unwrap_or(one).to_string());
    }
    let plus = if must { "+" } else { "" };
    Ok(clauses.iter().map(|c| format!("{plus}{c}")).collect::<Vec<_>>().join(" "))
}
