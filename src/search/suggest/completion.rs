//! The completion suggester over one index: the field's entries read once per
//! generation into sorted views, and lookups that find the best entries of a prefix
//! (exact, fuzzy or by regex, within category contexts) without walking the prefix's
//! whole range.
//!
//! **Structure.** Entries (one per indexed input, `mapping::completion::entry_term`)
//! get a rank: weight descending, then analysed form, then document, the order in
//! which Lucene's `NRTSuggester` meets equal scores. A *view* lists the entries sorted
//! by a key — the analysed form (`plain`), or, for fields with contexts, the context's
//! number and value, [`CONTEXT_SEPARATOR`] and the analysed form (`by_context`) — so
//! that every prefix is one range of rows; over the rows a segment tree holds the
//! least rank of each node. The best entries of a range come out of a heap seeded
//! with the range's O(log n) covering nodes, one pop and at most two pushes per step,
//! so a lookup costs O((log n)² + k log n) whatever the range's size.
//!
//! **Lookups** follow ES 6.8 (`CompletionSuggester` on Lucene's `NRTSuggester`): a
//! query becomes *start groups* (a range or a list of rows with a boost): one for a
//! prefix, one per matched context, one per shortest accepted prefix of a fuzzy or
//! regex query. Entries come out best score first (weight × boost; the weight alone
//! when the boost is 0), ties by rank; as in Lucene's top-N search, `size` × the
//! number of groups entries are accepted (skipping repeated texts with
//! `skip_duplicates`), and each document's best becomes an option.

use crate::error::{Error, Result};
use crate::index::IndexReader;
use crate::mapping::completion::{parse_entry_term, CompletionMapping, CONTEXT_SEPARATOR};
use crate::request::suggest::{CompletionSuggest, FuzzyOptions};
use crate::store::Snapshot;
use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input};
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::sync::Arc;

/// One entry: where its term's parts lie in the arena, its document and weight.
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// Start of the analysed form (the term's start).
    start: u32,
    /// End of the analysed form.
    analysed_end: u32,
    /// Start and end of the input as given.
    surface: (u32, u32),
    /// End of the term (contexts run from the surface's end to here).
    end: u32,
    doc: u32,
    weight: u32,
}

/// Rows sorted by key, with a segment tree of least ranks over them.
#[derive(Debug, Default)]
struct View {
    keys: Vec<u8>,
    /// `rows + 1` offsets into `keys`.
    key_at: Vec<u32>,
    /// The entry of each row.
    entry: Vec<u32>,
    /// Least rank per node; leaves from `leaves`.
    tree: Vec<u32>,
    leaves: usize,
}

impl View {
    /// A view of `rows` rows, row `r` being entry `entry_of(r)` under the key
    /// `key(r, out)` appends to `out`; sorted by key, then rank.
    fn build(rows: usize, entry_of: impl Fn(usize) -> u32, key: impl Fn(usize, &mut Vec<u8>), rank: &[u32]) -> View {
        let mut keys = Vec::new();
        let mut spans: Vec<(u32, u32, u32)> = Vec::with_capacity(rows); // (key start, key end, entry)
        for r in 0..rows {
            let start = keys.len() as u32;
            key(r, &mut keys);
            spans.push((start, keys.len() as u32, entry_of(r)));
        }
        let key_of = |s: &(u32, u32, u32)| &keys[s.0 as usize..s.1 as usize];
        let order = |a: &(u32, u32, u32), b: &(u32, u32, u32)| {
            key_of(a).cmp(key_of(b)).then(rank[a.2 as usize].cmp(&rank[b.2 as usize]))
        };
        // The plain view's entries come in dictionary order already: then no sort.
        if !spans.windows(2).all(|w| order(&w[0], &w[1]).is_le()) {
            spans.sort_unstable_by(order);
        }
        let mut v = View::default();
        v.keys.reserve(keys.len());
        v.key_at.reserve(spans.len() + 1);
        v.key_at.push(0);
        for s in &spans {
            v.keys.extend_from_slice(key_of(s));
            v.key_at.push(v.keys.len() as u32);
            v.entry.push(s.2);
        }
        v.leaves = spans.len().next_power_of_two().max(1);
        v.tree = vec![u32::MAX; 2 * v.leaves];
        for (i, e) in v.entry.iter().enumerate() {
            v.tree[v.leaves + i] = rank[*e as usize];
        }
        for n in (1..v.leaves).rev() {
            v.tree[n] = v.tree[2 * n].min(v.tree[2 * n + 1]);
        }
        v
    }

    fn len(&self) -> usize {
        self.entry.len()
    }

    fn key(&self, row: usize) -> &[u8] {
        &self.keys[self.key_at[row] as usize..self.key_at[row + 1] as usize]
    }

    /// The rows in `[lo, hi)` whose key starts with `prefix`.
    fn prefix_range(&self, lo: usize, hi: usize, prefix: &[u8]) -> (usize, usize) {
        let first = lo + partition(hi - lo, |i| self.key(lo + i) < prefix);
        let end = first + partition(hi - first, |i| self.key(first + i).starts_with(prefix));
        (first, end)
    }

    /// The covering nodes of `[lo, hi)`.
    fn cover(&self, mut lo: usize, mut hi: usize, out: &mut Vec<usize>) {
        lo += self.leaves;
        hi += self.leaves;
        while lo < hi {
            if lo & 1 == 1 {
                out.push(lo);
                lo += 1;
            }
            if hi & 1 == 1 {
                hi -= 1;
                out.push(hi);
            }
            lo /= 2;
            hi /= 2;
        }
    }
}

/// The first `i < n` for which `pred(i)` is false (`pred` holds on a prefix of 0..n).
fn partition(n: usize, pred: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if pred(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// A completion field's entries in one generation.
#[derive(Debug, Default)]
pub struct CompletionIndex {
    arena: Vec<u8>,
    entries: Vec<Entry>,
    rank: Vec<u32>,
    /// The entry of each rank.
    inverse: Vec<u32>,
    plain: View,
    by_context: Option<View>,
}

impl CompletionIndex {
    /// Reads the entries of `field` (built once per generation, then cached on the reader).
    pub fn of(reader: &IndexReader, snap: &Snapshot, field: &str, contexts: bool) -> Result<Arc<CompletionIndex>> {
        reader.extension(&format!("completion/{field}"), || CompletionIndex::build(reader, snap, field, contexts))
    }

    fn build(reader: &IndexReader, snap: &Snapshot, field: &str, contexts: bool) -> Result<CompletionIndex> {
        let mut ix = CompletionIndex::default();
        reader.for_each_term_docs(snap, field, &mut |term, docs| {
            let text = std::str::from_utf8(term).map_err(|_| damaged(field))?;
            let parts = parse_entry_term(text).ok_or_else(|| damaged(field))?;
            let start = ix.arena.len() as u32;
            ix.arena.extend_from_slice(term);
            let analysed_end = start + parts.analysed.len() as u32;
            let surface_start = start + (parts.surface.as_ptr() as usize - text.as_ptr() as usize) as u32;
            let surface = (surface_start, surface_start + parts.surface.len() as u32);
            for doc in docs.iter() {
                let end = start + term.len() as u32;
                ix.entries.push(Entry { start, analysed_end, surface, end, doc, weight: parts.weight });
            }
            Ok(())
        })?;
        // Rank: weight descending, analysed form, document.
        let mut order: Vec<u32> = (0..ix.entries.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| {
            let (ea, eb) = (&ix.entries[a as usize], &ix.entries[b as usize]);
            eb.weight.cmp(&ea.weight).then_with(|| ix.analysed(ea).cmp(ix.analysed(eb))).then(ea.doc.cmp(&eb.doc))
        });
        ix.rank = vec![0; ix.entries.len()];
        for (r, e) in order.iter().enumerate() {
            ix.rank[*e as usize] = r as u32;
        }
        ix.inverse = order;
        let plain_key = |r: usize, out: &mut Vec<u8>| out.extend_from_slice(ix.analysed(&ix.entries[r]));
        let plain = View::build(ix.entries.len(), |r| r as u32, plain_key, &ix.rank);
        if contexts {
            // One row per (entry, context): the context's number and value, the
            // separator, the analysed form.
            let rows: Vec<(u32, u32)> = (0..ix.entries.len() as u32)
                .flat_map(|e| (0..ix.contexts(&ix.entries[e as usize]).len() as u32).map(move |c| (e, c)))
                .collect();
            let key = |r: usize, out: &mut Vec<u8>| {
                let (e, c) = rows[r];
                let entry = &ix.entries[e as usize];
                if let Some((i, value)) = ix.contexts(entry).get(c as usize) {
                    out.extend_from_slice(context_key(*i, value).as_bytes());
                }
                out.push(CONTEXT_SEPARATOR as u8);
                out.extend_from_slice(ix.analysed(entry));
            };
            ix.by_context = Some(View::build(rows.len(), |r| rows[r].0, key, &ix.rank));
        }
        ix.plain = plain;
        Ok(ix)
    }

    fn analysed(&self, e: &Entry) -> &[u8] {
        &self.arena[e.start as usize..e.analysed_end as usize]
    }

    fn surface(&self, e: &Entry) -> &str {
        std::str::from_utf8(&self.arena[e.surface.0 as usize..e.surface.1 as usize]).unwrap_or_default()
    }

    /// An entry's (context number, value) pairs.
    fn contexts(&self, e: &Entry) -> Vec<(usize, &str)> {
        let tail = std::str::from_utf8(&self.arena[e.surface.1 as usize..e.end as usize]).unwrap_or_default();
        tail.split(CONTEXT_SEPARATOR)
            .skip(1)
            .filter_map(|p| {
                let mut chars = p.chars();
                let i = (chars.next()? as u32).checked_sub(0x30)? as usize;
                Some((i, chars.as_str()))
            })
            .collect()
    }
}

fn damaged(field: &str) -> Error {
    Error::storage(format!("damaged completion entry of field [{field}]: the file is corrupt"))
}

/// A context's key prefix: its number as a character, then its value.
fn context_key(i: usize, value: &str) -> String {
    let mut k = String::with_capacity(value.len() + 1);
    k.push(char::from_u32(0x30 + i as u32).unwrap_or('0'));
    k.push_str(value);
    k
}

/// Where a lookup starts: rows of one view and the boost of their entries.
enum Group {
    Range { context_view: bool, lo: usize, hi: usize, boost: f32 },
    Rows { context_view: bool, rows: Vec<usize>, boost: f32 },
}

/// Where a prefix is looked for: the rows `[lo, hi)` of one view (the whole plain view,
/// or one queried context's part of the context view), whose keys' first `offset` bytes
/// are the context, and the boost of their entries.
#[derive(Clone, Copy)]
struct Start {
    context_view: bool,
    lo: usize,
    hi: usize,
    offset: usize,
    boost: f32,
}

/// One found option: the entry and its score, with the contexts it matched.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// The document.
    pub doc: u32,
    /// The input as given.
    pub text: String,
    /// Its score.
    pub score: f32,
    /// (context number, value) of the contexts it was found under.
    pub contexts: Vec<(usize, String)>,
}

/// Lucene's `CompletionScorer.score`.
fn score(weight: u32, boost: f32) -> f32 {
    let w = weight as f32;
    if boost == 0.0 {
        w
    } else if w == 0.0 {
        boost
    } else {
        w * boost
    }
}

/// What a lookup searches for.
pub enum Target<'a> {
    /// A prefix text (analysed with the search analyzer), optionally fuzzy.
    Prefix(&'a str, Option<&'a FuzzyOptions>),
    /// A regex over analysed forms.
    Regex(&'a str),
}

impl CompletionIndex {
    /// The options of a completion suggestion over this index, best first.
    pub fn lookup(
        &self,
        mapping: &CompletionMapping,
        spec: &CompletionSuggest,
        target: Target<'_>,
    ) -> Result<Vec<Found>> {
        // The starts: the whole plain view, or each queried context's part of the
        // context view, with its boost.
        let mut starts: Vec<Start> = Vec::new();
        if !spec.contexts.is_empty() && self.by_context.is_none() {
            return Err(Error::illegal_argument(format!("suggester [{}] doesn't expect any context", spec.field)));
        }
        match &self.by_context {
            Some(view) => {
                // Each distinct context value the query names (all of them when it names
                // none); the longest queried context it starts with gives its boost
                // (Lucene's ContextQuery), none when the query names no context.
                let mut boosts: HashMap<String, (usize, f32)> = HashMap::new();
                let mut queried: Vec<(Vec<u8>, usize, f32)> = Vec::new();
                for (name, values) in &spec.contexts {
                    let i = mapping.context_index(name).ok_or_else(|| {
                        let names: Vec<&str> = mapping.contexts.iter().map(|c| c.name.as_str()).collect();
                        Error::illegal_argument(format!(
                            "Unknown context name [{name}], must be one of [{}]",
                            names.join(", ")
                        ))
                    })?;
                    for q in values {
                        let key = context_key(i, &q.context);
                        let mut prefix = key.clone().into_bytes();
                        if !q.prefix {
                            prefix.push(CONTEXT_SEPARATOR as u8);
                        }
                        queried.push((prefix, key.len(), q.boost as f32));
                    }
                }
                if spec.contexts.is_empty() {
                    queried.push((Vec::new(), 0, 0.0));
                }
                for (prefix, key_len, boost) in queried {
                    let (mut lo, hi) = view.prefix_range(0, view.len(), &prefix);
                    while lo < hi {
                        let k = view.key(lo);
                        let sep = k.iter().position(|&b| b == CONTEXT_SEPARATOR as u8).unwrap_or(k.len());
                        let full = String::from_utf8_lossy(&k[..sep]).into_owned();
                        let mut with_sep = k[..sep].to_vec();
                        with_sep.push(CONTEXT_SEPARATOR as u8);
                        let (_, end) = view.prefix_range(lo, hi, &with_sep);
                        let slot = boosts.entry(full).or_insert((0, 0.0));
                        if key_len >= slot.0 {
                            *slot = (key_len, boost);
                        }
                        lo = end.max(lo + 1);
                    }
                }
                let mut contexts: Vec<(String, f32)> = boosts.into_iter().map(|(k, (_, b))| (k, b)).collect();
                contexts.sort_by(|a, b| a.0.cmp(&b.0));
                for (full, boost) in contexts {
                    let mut with_sep = full.clone().into_bytes();
                    with_sep.push(CONTEXT_SEPARATOR as u8);
                    let (lo, hi) = view.prefix_range(0, view.len(), &with_sep);
                    starts.push(Start { context_view: true, lo, hi, offset: with_sep.len(), boost });
                }
            }
            None => starts.push(Start { context_view: false, lo: 0, hi: self.plain.len(), offset: 0, boost: 0.0 }),
        }
        let mut groups = Vec::new();
        match target {
            Target::Prefix(text, fuzzy) => {
                let analysed = mapping.analyse_query(text)?;
                for start in &starts {
                    let Start { context_view: cv, lo, hi, offset, boost } = *start;
                    let view = self.view(cv);
                    match fuzzy {
                        None => {
                            if lo >= hi {
                                continue;
                            }
                            let mut prefix = view.key(lo)[..offset].to_vec();
                            prefix.extend_from_slice(analysed.as_bytes());
                            let (l, h) = view.prefix_range(lo, hi, &prefix);
                            if l < h {
                                groups.push(Group::Range { context_view: cv, lo: l, hi: h, boost });
                            }
                        }
                        Some(f) => {
                            if lo < hi {
                                fuzzy_groups(view, start, analysed.as_bytes(), f, &mut groups)
                            }
                        }
                    }
                }
            }
            Target::Regex(pattern) => {
                if pattern.is_empty() {
                    return Ok(Vec::new());
                }
                let translated = crate::query::pattern::translate_lucene_regex(pattern);
                let re = Regex::builder()
                    .syntax(regex_automata::util::syntax::Config::new().dot_matches_new_line(true))
                    .build(&format!("(?:{translated})"))
                    .map_err(|e| Error::illegal_argument(format!("invalid regex [{pattern}]: {e}")))?;
                let mut ticker = crate::budget::Ticker::new();
                let literal = literal_prefix(pattern);
                for start in &starts {
                    let Start { context_view: cv, lo, hi, offset, boost } = *start;
                    let view = self.view(cv);
                    if lo >= hi {
                        continue;
                    }
                    // Only the rows starting with the pattern's literal prefix can match.
                    let mut narrowed = view.key(lo)[..offset].to_vec();
                    narrowed.extend_from_slice(literal.as_bytes());
                    let (lo, hi) = view.prefix_range(lo, hi, &narrowed);
                    // Rows by their shortest matching prefix: each is one start path.
                    let mut by_prefix: Vec<(usize, usize)> = Vec::new(); // (prefix len, row)
                    for row in lo..hi {
                        if ticker.tick()? {
                            break;
                        }
                        let key = &view.key(row)[offset..];
                        let input = Input::new(key).anchored(Anchored::Yes).earliest(true);
                        if let Some(m) = re.search_half(&input) {
                            by_prefix.push((m.offset(), row));
                        }
                    }
                    let mut seen: HashMap<&[u8], usize> = HashMap::new();
                    let mut lists: Vec<Vec<usize>> = Vec::new();
                    for (len, row) in by_prefix {
                        let p = &view.key(row)[offset..offset + len];
                        let at = *seen.entry(p).or_insert_with(|| {
                            lists.push(Vec::new());
                            lists.len() - 1
                        });
                        lists[at].push(row);
                    }
                    for rows in lists {
                        groups.push(Group::Rows { context_view: cv, rows, boost });
                    }
                }
            }
        }
        Ok(self.collect(groups, spec))
    }

    fn view(&self, context_view: bool) -> &View {
        match (&self.by_context, context_view) {
            (Some(v), true) => v,
            _ => &self.plain,
        }
    }

    /// Best entries first across the groups, as Lucene's top-N search accepts them.
    fn collect(&self, groups: Vec<Group>, spec: &CompletionSuggest) -> Vec<Found> {
        let size = spec.shard_size.unwrap_or(spec.size);
        let budget = size.saturating_mul(groups.len().max(1));
        // Heap items: (score, -rank) max-first, the group and a node or list position.
        #[derive(PartialEq)]
        struct Item {
            score: f32,
            rank: u32,
            group: usize,
            node: usize,
        }
        impl Eq for Item {}
        impl Ord for Item {
            fn cmp(&self, o: &Self) -> Ordering {
                self.score.total_cmp(&o.score).then(o.rank.cmp(&self.rank)).then(o.node.cmp(&self.node))
            }
        }
        impl PartialOrd for Item {
            fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
                Some(self.cmp(o))
            }
        }
        let mut heap = BinaryHeap::new();
        let mut cover = Vec::new();
        // The best score an entry of this rank can have in a group: ranks order weights.
        let item = |g: usize, node: usize, rank: u32, boost: f32| -> Option<Item> {
            (rank != u32::MAX).then(|| Item {
                score: score(self.entries[self.inverse[rank as usize] as usize].weight, boost),
                rank,
                group: g,
                node,
            })
        };
        let mut lists: Vec<Vec<usize>> = Vec::new();
        for (g, group) in groups.iter().enumerate() {
            match group {
                Group::Range { context_view, lo, hi, boost } => {
                    let view = self.view(*context_view);
                    cover.clear();
                    view.cover(*lo, *hi, &mut cover);
                    for &n in &cover {
                        heap.extend(item(g, n, view.tree[n], *boost));
                    }
                    lists.push(Vec::new());
                }
                Group::Rows { context_view, rows, boost } => {
                    let view = self.view(*context_view);
                    let mut sorted = rows.clone();
                    sorted.sort_by_key(|&r| std::cmp::Reverse(self.rank[view.entry[r] as usize]));
                    if let Some(&r) = sorted.last() {
                        heap.extend(item(g, usize::MAX, self.rank[view.entry[r] as usize], *boost));
                    }
                    lists.push(sorted);
                }
            }
        }
        let mut accepted = 0;
        let mut seen_text: HashSet<&str> = HashSet::new();
        let mut seen_doc: HashSet<u32> = HashSet::new();
        let mut found: Vec<Found> = Vec::new();
        while let Some(it) = heap.pop() {
            if accepted >= budget {
                break;
            }
            let (context_view, boost) = match &groups[it.group] {
                Group::Range { context_view, boost, .. } | Group::Rows { context_view, boost, .. } => {
                    (*context_view, *boost)
                }
            };
            let view = self.view(context_view);
            let row = if it.node == usize::MAX {
                let list = &mut lists[it.group];
                let row = list.pop();
                if let Some(&next) = list.last() {
                    heap.extend(item(it.group, usize::MAX, self.rank[view.entry[next] as usize], boost));
                }
                match row {
                    Some(r) => r,
                    None => continue,
                }
            } else if it.node < view.leaves {
                for child in [2 * it.node, 2 * it.node + 1] {
                    heap.extend(item(it.group, child, view.tree[child], boost));
                }
                continue;
            } else {
                it.node - view.leaves
            };
            let e = view.entry[row];
            let entry = &self.entries[e as usize];
            let text = self.surface(entry);
            if spec.skip_duplicates && !seen_text.insert(text) {
                continue;
            }
            accepted += 1;
            let matched: Vec<(usize, String)> = if context_view {
                let k = view.key(row);
                let sep = k.iter().position(|&b| b == CONTEXT_SEPARATOR as u8).unwrap_or(0);
                let ctx = String::from_utf8_lossy(&k[..sep]);
                let mut chars = ctx.chars();
                let i = chars.next().map_or(0, |c| (c as u32).saturating_sub(0x30) as usize);
                vec![(i, chars.as_str().to_string())]
            } else {
                self.contexts(entry).into_iter().map(|(i, v)| (i, v.to_string())).collect()
            };
            if seen_doc.insert(entry.doc) {
                found.push(Found { doc: entry.doc, text: text.to_string(), score: it.score, contexts: matched });
            } else if let Some(f) = found.iter_mut().find(|f| f.doc == entry.doc) {
                for c in matched {
                    if !f.contexts.contains(&c) {
                        f.contexts.push(c);
                    }
                }
            }
        }
        // The collector's order: score, then text (UTF-16 order), then document.
        found.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| a.text.encode_utf16().cmp(b.text.encode_utf16()))
                .then(a.doc.cmp(&b.doc))
        });
        found.truncate(size);
        found
    }
}

/// The characters every match of a Lucene regexp starts with: its leading letters and
/// digits, less the last one when a quantifier follows it.
fn literal_prefix(pattern: &str) -> String {
    let mut out: Vec<char> = pattern.chars().take_while(|c| c.is_alphanumeric()).collect();
    if matches!(pattern.chars().nth(out.len()), Some('?' | '*' | '{' | '+' | '|')) {
        out.pop();
    }
    if pattern.contains('|') {
        // An alternation at the top may start anywhere.
        out.clear();
    }
    out.into_iter().collect()
}

/// The start groups of a fuzzy prefix: walking the sorted keys as a trie from `offset`,
/// each shortest prefix within `max_edits` of the query (after `prefix_length` exact
/// labels) starts a group whose boost adds Lucene's `FuzzyCompletionWeight` boost: the
/// labels the path shares with the query from its start.
fn fuzzy_groups(view: &View, start: &Start, query: &[u8], f: &FuzzyOptions, groups: &mut Vec<Group>) {
    let Start { context_view, lo, hi, offset, boost: context_boost } = *start;
    // Labels: bytes, or code points when unicode-aware.
    let labels: Vec<u32> = if f.unicode_aware {
        String::from_utf8_lossy(query).chars().map(u32::from).collect()
    } else {
        query.iter().map(|&b| u32::from(b)).collect()
    };
    let fuzzy = labels.len() > f.prefix_length && labels.len() >= f.min_length;
    let exact = if fuzzy { f.prefix_length } else { labels.len() };
    // The exact part narrows the range first.
    let exact_bytes: Vec<u8> = if f.unicode_aware {
        labels[..exact].iter().filter_map(|&c| char::from_u32(c)).collect::<String>().into_bytes()
    } else {
        labels[..exact].iter().map(|&b| b as u8).collect()
    };
    let mut prefix = view.key(lo).get(..offset).unwrap_or_default().to_vec();
    prefix.extend_from_slice(&exact_bytes);
    let (lo, hi) = view.prefix_range(lo, hi, &prefix);
    if lo >= hi {
        return;
    }
    let boost_of = |path: &[u32]| -> f32 {
        // Lucene compares the query's labels with the path's bytes as they are.
        let path_bytes: Vec<u32> = path.to_vec();
        labels.iter().zip(path_bytes.iter()).take_while(|(a, b)| a == b).count() as f32
    };
    if !fuzzy {
        let path: Vec<u32> =
            if f.unicode_aware { exact_bytes.iter().map(|&b| u32::from(b)).collect() } else { labels.clone() };
        groups.push(Group::Range { context_view, lo, hi, boost: context_boost + boost_of(&path) });
        return;
    }
    let rest = &labels[exact..];
    let max = f.max_edits;
    let first_row: Vec<u32> = (0..=rest.len() as u32).collect();
    let path: Vec<u32> =
        if f.unicode_aware { exact_bytes.iter().map(|&b| u32::from(b)).collect() } else { labels[..exact].to_vec() };
    let start = offset + exact_bytes.len();
    let mut accept = |lo, hi, path: &[u32]| {
        groups.push(Group::Range { context_view, lo, hi, boost: context_boost + boost_of(path) });
    };
    FuzzyWalk { view, rest, max, f, path, accept: &mut accept }.step(lo, hi, start, &first_row, None);
}

/// A walk of a view's sorted keys as a trie, looking for the paths within `max` edits of
/// `rest` (the query's labels after its exact prefix): what stays the same from step to
/// step, and the path walked so far.
struct FuzzyWalk<'w> {
    view: &'w View,
    rest: &'w [u32],
    max: u32,
    f: &'w FuzzyOptions,
    path: Vec<u32>,
    /// Called with each accepted range of rows and its path.
    accept: &'w mut dyn FnMut(usize, usize, &[u32]),
}

impl FuzzyWalk<'_> {
    /// One step of the walk: rows `[lo, hi)` share their first `depth` bytes; `row` is
    /// the edit-distance row of the path so far against `rest`.
    fn step(&mut self, lo: usize, hi: usize, depth: usize, row: &[u32], prev: Option<(&[u32], u32)>) {
        let (view, rest, max, f) = (self.view, self.rest, self.max, self.f);
        if row[rest.len()] <= max {
            (self.accept)(lo, hi, &self.path);
            return;
        }
        if row.iter().min().copied().unwrap_or(u32::MAX) > max || self.path.len() > 1 << 12 {
            return;
        }
        let mut i = lo;
        while i < hi {
            let key = view.key(i);
            if key.len() <= depth {
                i += 1;
                continue;
            }
            // The next label and its bytes.
            let (label, width) = if f.unicode_aware {
                let w = utf8_width(key[depth]).min(key.len() - depth);
                let c = std::str::from_utf8(&key[depth..depth + w])
                    .ok()
                    .and_then(|s| s.chars().next())
                    .map_or(u32::from(key[depth]), u32::from);
                (c, w)
            } else {
                (u32::from(key[depth]), 1)
            };
            let step = &key[..depth + width];
            let (_, end) = view.prefix_range(i, hi, step);
            let end = end.max(i + 1);
            // The next row of the (restricted Damerau-)Levenshtein table.
            let mut next = vec![0u32; rest.len() + 1];
            next[0] = row[0] + 1;
            for j in 1..=rest.len() {
                let cost = u32::from(rest[j - 1] != label);
                let mut v = (row[j] + 1).min(next[j - 1] + 1).min(row[j - 1] + cost);
                if f.transpositions && j > 1 {
                    if let Some((prev_row, prev_label)) = prev {
                        if rest[j - 1] == prev_label && rest[j - 2] == label {
                            v = v.min(prev_row[j - 2] + 1);
                        }
                    }
                }
                next[j] = v;
            }
            self.path.extend(if f.unicode_aware {
                step[depth..].iter().map(|&b| u32::from(b)).collect::<Vec<_>>()
            } else {
                vec![label]
            });
            self.step(i, end, depth + width, &next, Some((row, label)));
            self.path.truncate(self.path.len() - if f.unicode_aware { width } else { 1 });
            i = end;
        }
    }
}

fn utf8_width(first: u8) -> usize {
    match first {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}
