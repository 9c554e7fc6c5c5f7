//! The inverted index: building generations and reading them.
//!
//! fst and roaring types stay inside this module; the rest of the crate sees `DocSet`,
//! `Postings` and doc-value views.

mod arena;
mod bitpack;
mod blob;
mod codec;
mod completion_input;
mod dictionary;
mod docset;
mod docstore;
mod fst_writer;
mod json;
mod merge;
mod meta;
mod nested_sets;
pub mod norms;
mod packed;
mod postings;
mod prepare;
mod reader;
mod segment;
mod stream;
mod terms;
mod writer;

pub use docset::{DocCursor, DocIter, DocSet};
pub use docstore::StoredDoc;
pub(crate) use json::Json;
pub use meta::{Definition, IndexMeta};
pub use postings::{Freqs, Postings, BLOCK};
pub(crate) use prepare::{Prepared, Preparer, TermUse};
pub use reader::{Bound, IndexReader, KeywordDocValues, Num, NumericDocValues, PositionsCursor};
pub(crate) use segment::{read_u64_at, temp_file, NumKind};
pub(crate) use writer::SegmentWriter;
pub use writer::{random_id, DEFAULT_MEMORY};

/// The internal keyword field holding `_id`.
pub const ID_FIELD: &str = "_id";
/// The internal keyword field holding `_type`.
pub const TYPE_FIELD: &str = "_type";
/// The internal keyword field holding a document's routing, when it was loaded with one
/// (a file written before routings were kept has no such field: no document has one).
pub const ROUTING_FIELD: &str = "_routing";
/// ES 6.8's refusal to sort, aggregate, script or fetch doc values on `_routing`: its
/// field type builds no field data (`MappedFieldType.fielddataBuilder`).
pub const ROUTING_FIELDDATA_ERROR: &str = "Fielddata is not supported on field [_routing] of type [_routing]";
/// The internal keyword field naming a nested document's path (ES 6.8 gives such a
/// document the `_type` `__{path}`); root documents do not have it.
pub const NESTED_PATH_FIELD: &str = "_nested_path";

/// Where a term's postings start in its field's postings stream (the term dictionary's value).
pub type TermAddr = u64;
