//! The inverted index: building generations and reading them.
//!
//! fst and roaring types stay inside this module; the rest of the crate sees `DocSet`,
//! `Postings` and doc-value views.

mod codec;
mod docset;
mod meta;
pub mod norms;
mod reader;
mod writer;

pub use docset::DocSet;
pub use meta::{FieldStats, IndexMeta};
pub use reader::{Bound, IndexReader, KeywordDocValues, Num, NumericDocValues, Points, Postings, StoredDoc};
pub use writer::{random_id, GenerationBuilder, POSITION_INCREMENT_GAP};

/// The internal keyword field holding `_id`.
pub const ID_FIELD: &str = "_id";
/// The internal keyword field holding `_type`.
pub const TYPE_FIELD: &str = "_type";

/// Key of a term's postings: field id in the high half, term ordinal in the low half.
fn postings_key(fid: u32, ord: u32) -> u64 {
    ((fid as u64) << 32) | ord as u64
}
