//! The lines of a load: ES `_bulk` NDJSON (an action line, then its source line) or plain
//! JSON lines, fed in chunks as they are read and turned into prepared documents, with
//! an ES-style error for each line that cannot be loaded.

use super::{too_many_errors, LineError, LoadOptions};
use crate::error::{Error, Result};
use crate::index::{random_id, DocSet, Json, Prepared, Preparer};
use serde_json::Value;
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};

/// What the next line is.
enum Expect {
    /// An action line (bulk) or a document (plain lines).
    Line,
    /// The source line of a bulk `index` or `create` action.
    Source { id: Option<String>, doc_type: String, create: bool, action_line: u64, routing: Option<String> },
    /// The body of an `update` action, which is refused.
    Skip,
}

/// What a document's action says about it: a bulk `index` or `create` line's metadata,
/// or a plain line's defaults.
struct DocAction<'t> {
    /// `_id` (a random one is made when `None`).
    id: Option<String>,
    /// `_type`.
    doc_type: &'t str,
    /// Whether it is a `create` (refused when its `_id` exists).
    create: bool,
    /// The routing the action gave (`routing`, or 6.x's deprecated `_routing`).
    routing: Option<String>,
}

/// Turns input lines into prepared documents, in order.
pub struct LineParser<'o> {
    opts: &'o LoadOptions,
    preparer: Preparer,
    /// Lines rejected so far.
    pub errors: Vec<LineError>,
    /// Documents that were `create` actions (a `create` of an existing `_id` is refused).
    pub creates: DocSet,
    /// `_type` of those `create` documents whose type is not the default one.
    pub create_types: HashMap<u32, String>,
    /// Each document's source line number (u64 LE), by load ordinal.
    lines_out: BufWriter<File>,
    /// The load ordinals given so far (a document's nested documents take some too).
    ordinals: u32,
    line_no: u64,
    bulk: Option<bool>,
    expect: Expect,
    /// The start of a line whose end is in a later chunk.
    carry: Vec<u8>,
    /// The index name and its mapping's type name, when the definition names one: a
    /// document of another type is refused, as ES refuses a second type.
    pub one_type: Option<(String, String)>,
    /// The index loaded (named by `routing_missing_exception`).
    pub index: String,
    /// The mapping's `_source` filter, when it keeps less than the whole document.
    source_filter: Option<crate::request::source::SourceFilter>,
}

impl<'o> LineParser<'o> {
    /// A parser that prepares documents with `preparer`, keeping each document's line
    /// number in `lines_out`.
    pub fn new(opts: &'o LoadOptions, preparer: Preparer, lines_out: File) -> LineParser<'o> {
        LineParser {
            opts,
            preparer,
            errors: Vec::new(),
            creates: DocSet::new(),
            create_types: HashMap::new(),
            lines_out: BufWriter::new(lines_out),
            ordinals: 0,
            line_no: 0,
            bulk: None,
            expect: Expect::Line,
            carry: Vec::new(),
            one_type: None,
            index: String::new(),
            source_filter: None,
        }
        .with_source_filter()
    }

    /// Reads the mapping's `_source` parameters once.
    fn with_source_filter(mut self) -> Self {
        let source = &self.preparer.mapping().root.source;
        if !source.is_whole() {
            self.source_filter = Some(crate::request::source::SourceFilter {
                disabled: !source.enabled,
                includes: source.includes.clone(),
                excludes: source.excludes.clone(),
            });
        }
        self
    }

    /// Takes the next bytes of the input: each complete line is parsed into `out`, and an
    /// unfinished last line waits for the next chunk. Fails once the errors pass
    /// `max_errors`.
    pub fn feed(&mut self, chunk: &[u8], out: &mut Prepared) -> Result<()> {
        let mut rest = chunk;
        if !self.carry.is_empty() {
            let Some(end) = memchr::memchr(b'\n', rest) else {
                self.carry.extend_from_slice(rest);
                return Ok(());
            };
            let mut line = std::mem::take(&mut self.carry);
            line.extend_from_slice(&rest[..end]);
            self.line(&line, out)?;
            line.clear();
            self.carry = line;
            rest = &rest[end + 1..];
        }
        while let Some(end) = memchr::memchr(b'\n', rest) {
            self.line(&rest[..end], out)?;
            rest = &rest[end + 1..];
        }
        self.carry.extend_from_slice(rest);
        Ok(())
    }

    /// Ends the input: parses a last line without a newline, and refuses an action left
    /// without its source line.
    pub fn finish(&mut self, out: &mut Prepared) -> Result<()> {
        if !self.carry.is_empty() {
            let line = std::mem::take(&mut self.carry);
            self.line(&line, out)?;
        }
        if let Expect::Source { action_line, .. } = std::mem::replace(&mut self.expect, Expect::Line) {
            self.fail(action_line, "bulk action without a source line".into())?;
        }
        self.lines_out.flush().map_err(temp_error)
    }

    /// The preparer and the file of line numbers, once the input is done.
    pub fn into_parts(self) -> Result<(Preparer, File)> {
        let lines = self.lines_out.into_inner().map_err(|e| temp_error(e.into_error()))?;
        Ok((self.preparer, lines))
    }

    fn fail(&mut self, line: u64, reason: String) -> Result<()> {
        self.errors.push(LineError { line, reason });
        too_many_errors(&self.errors, self.opts.max_errors)
    }

    fn line(&mut self, line: &[u8], out: &mut Prepared) -> Result<()> {
        self.line_no += 1;
        match std::mem::replace(&mut self.expect, Expect::Line) {
            Expect::Line => {}
            Expect::Skip => return Ok(()),
            Expect::Source { id, doc_type, create, routing, .. } => {
                // The line after an action is its source, even when blank.
                let src = trim_ascii(line);
                return match Json::parse(src) {
                    Ok(parsed) => {
                        let action = DocAction { id, doc_type: &doc_type, create, routing };
                        self.document(action, &parsed, src, out)
                    }
                    Err(e) => self.fail(self.line_no, format!("not valid JSON: {e}")),
                };
            }
        }
        let trimmed = trim_ascii(line);
        if trimmed.is_empty() {
            return Ok(());
        }
        let opts = self.opts;
        if self.bulk == Some(false) {
            return self.plain(trimmed, out);
        }
        let v: Value = match serde_json::from_slice(trimmed) {
            Ok(v) => v,
            Err(e) => return self.fail(self.line_no, format!("not valid JSON: {e}")),
        };
        let is_bulk = *self.bulk.get_or_insert_with(|| opts.id_field.is_none() && bulk_action(&v).is_some());
        if !is_bulk {
            return self.plain(trimmed, out);
        }
        let Some((action, meta)) = bulk_action(&v) else {
            return self
                .fail(self.line_no, "expected a bulk action line ({\"index\":{...}} or {\"create\":{...}})".into());
        };
        if action == "delete" || action == "update" {
            self.fail(
                self.line_no,
                format!("bulk action [{action}] is not supported by load; build a new generation instead"),
            )?;
            if action == "update" {
                self.expect = Expect::Skip;
            }
            return Ok(());
        }
        if let (Some((index, one)), Some(other)) = (&self.one_type, meta.get("_type").and_then(Value::as_str)) {
            if other != one {
                let reason = format!(
                    "Rejecting mapping update to [{index}] as the final mapping would have more than 1 type: [{one}, {other}]"
                );
                self.fail(self.line_no, reason)?;
                self.expect = Expect::Skip;
                return Ok(());
            }
        }
        self.expect = Expect::Source {
            id: meta.get("_id").map(crate::json_value::value_to_string),
            doc_type: meta.get("_type").and_then(Value::as_str).unwrap_or(&opts.doc_type).to_string(),
            create: action == "create",
            action_line: self.line_no,
            routing: meta
                .get("routing")
                .or_else(|| meta.get("_routing"))
                .filter(|r| !r.is_null())
                .map(crate::json_value::value_to_string),
        };
        Ok(())
    }

    /// A plain JSON line: one document, its `_id` from `id_field` (random without one).
    fn plain(&mut self, line: &[u8], out: &mut Prepared) -> Result<()> {
        let v = match Json::parse(line) {
            Ok(v) => v,
            Err(e) => return self.fail(self.line_no, format!("not valid JSON: {e}")),
        };
        let opts = self.opts;
        let id = match &opts.id_field {
            Some(f) => match lookup_path(&v, f) {
                Some(Json::Str(s)) => Some(s.to_string()),
                Some(Json::Number(n)) => Some(n.to_string()),
                _ => return self.fail(self.line_no, format!("no [{f}] value to use as _id")),
            },
            None => None,
        };
        self.document(DocAction { id, doc_type: &opts.doc_type, create: false, routing: None }, &v, line, out)
    }

    /// Prepares the document of the current line, of source `source` (its bytes `raw`).
    fn document(&mut self, action: DocAction<'_>, source: &Json<'_>, raw: &[u8], out: &mut Prepared) -> Result<()> {
        let DocAction { id, doc_type, create, routing } = action;
        let id = id.unwrap_or_else(|| random_id(20));
        if routing.is_none() && self.preparer.mapping().root.routing_required == Some(true) {
            let reason =
                format!("[routing_missing_exception] routing is required for [{}]/[{doc_type}]/[{id}]", self.index);
            return self.fail(self.line_no, reason);
        }
        // `_source` keeps what the mapping says: the document is indexed whole, stored
        // filtered (or not at all).
        let filtered;
        let raw = match &self.source_filter {
            None => raw,
            Some(f) if f.disabled => &[][..],
            Some(f) => {
                let Ok(v) = serde_json::from_slice::<Value>(raw) else {
                    return self.fail(self.line_no, "not valid JSON".into());
                };
                filtered = serde_json::to_vec(&f.apply(&v)).unwrap_or_default();
                &filtered[..]
            }
        };
        match self.preparer.prepare(&id, doc_type, routing.as_deref(), source, raw, out) {
            Ok(doc) => {
                // Its nested documents, numbered before it, come from the same line.
                for _ in self.ordinals..=doc {
                    self.lines_out.write_all(&self.line_no.to_le_bytes()).map_err(temp_error)?;
                }
                self.ordinals = doc + 1;
                if create {
                    self.creates.insert(doc);
                    if doc_type != self.opts.doc_type {
                        self.create_types.insert(doc, doc_type.to_string());
                    }
                }
                Ok(())
            }
            Err(e) => {
                // A wrapped cause (a geo point's "failed to parse") is what says why.
                let cause = match &e.exception.caused_by {
                    Some(c) => format!(": [{}] {}", c.kind, c.reason),
                    None => String::new(),
                };
                self.fail(self.line_no, format!("[{}] {}{cause}", e.kind(), e.reason()))
            }
        }
    }
}

/// The action and its metadata, when `v` is a bulk action line.
fn bulk_action(v: &Value) -> Option<(&str, &serde_json::Map<String, Value>)> {
    let o = v.as_object()?;
    if o.len() != 1 {
        return None;
    }
    let (k, meta) = o.iter().next()?;
    match k.as_str() {
        "index" | "create" | "update" | "delete" => Some((k.as_str(), meta.as_object()?)),
        _ => None,
    }
}

fn temp_error(e: std::io::Error) -> Error {
    Error::storage(format!("load temporary file: {e}"))
}

fn trim_ascii(b: &[u8]) -> &[u8] {
    let start = b.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !c.is_ascii_whitespace()).map(|p| p + 1).unwrap_or(start);
    &b[start..end.max(start)]
}

fn lookup_path<'v, 'a>(v: &'v Json<'a>, path: &str) -> Option<&'v Json<'a>> {
    let mut cur = v;
    for part in path.split('.') {
        cur = cur.members()?.find(|(name, _)| *name == part)?.1;
    }
    Some(cur)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::mapping::Mapping;

    /// Parses `input` fed in chunks of `chunk` bytes: the documents' ids and the errors.
    fn parse(input: &[u8], chunk: usize, opts: &LoadOptions) -> (Vec<String>, Vec<LineError>) {
        let lines = crate::index::temp_file(&std::env::temp_dir()).unwrap();
        let mut parser = LineParser::new(opts, Preparer::new(Mapping::default()), lines);
        let mut out = Prepared::default();
        for piece in input.chunks(chunk) {
            parser.feed(piece, &mut out).unwrap();
        }
        parser.finish(&mut out).unwrap();
        let errors = std::mem::take(&mut parser.errors);
        let id_field = parser.into_parts().unwrap().0.into_schema().field(crate::index::ID_FIELD);
        let ids = out
            .ops
            .iter()
            .filter(|o| Some(o.field as usize) == id_field)
            .map(|o| String::from_utf8_lossy(&out.term_bytes[o.at..o.at + o.len]).into_owned())
            .collect();
        (ids, errors)
    }

    #[test]
    fn lines_split_anywhere_between_chunks_parse_as_one_input() {
        let input = concat!(
            "{\"index\":{\"_id\":\"a\"}}\n{\"t\":\"x y\"}\r\n",
            "\n",
            "{\"update\":{\"_id\":\"u\"}}\n{\"doc\":{}}\n",
            "{\"create\":{\"_id\":\"b\"}}\n\n",
            "{\"index\":{\"_id\":\"c\"}}\n{\"t\":\"ünïcode\"}\n",
            "not json\n",
            "{\"index\":{\"_id\":\"d\"}}\n{\"t\":1}",
        );
        let opts = LoadOptions { max_errors: 10, ..LoadOptions::default() };
        let whole = parse(input.as_bytes(), input.len(), &opts);
        assert_eq!(whole.0, ["a", "c", "d"]);
        let lines: Vec<u64> = whole.1.iter().map(|e| e.line).collect();
        // The update (line 4), the blank source of the create (line 7), the bad line (10).
        assert_eq!(lines, [4, 7, 10]);
        for chunk in [1, 2, 3, 7, 64] {
            assert_eq!(parse(input.as_bytes(), chunk, &opts), whole, "chunks of {chunk} bytes");
        }
    }

    #[test]
    fn an_action_without_its_source_at_the_end_is_refused() {
        let opts = LoadOptions { max_errors: 10, ..LoadOptions::default() };
        let (ids, errors) = parse(b"{\"index\":{\"_id\":\"a\"}}\n{}\n{\"index\":{\"_id\":\"b\"}}\n", 5, &opts);
        assert_eq!(ids, ["a"]);
        assert_eq!(errors, [LineError { line: 3, reason: "bulk action without a source line".into() }]);
    }
}
