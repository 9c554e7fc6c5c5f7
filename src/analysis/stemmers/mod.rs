//! Stemmers as Lucene runs them, one algorithm a file: Porter, the small English filters,
//! and the Snowball languages whose stems are Lucene 8's.

pub mod english;
pub mod porter;
pub mod snowball;

pub use english::{minimal_english, possessive};
pub use porter::porter;
