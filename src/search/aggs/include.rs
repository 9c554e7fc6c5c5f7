//! `include` / `exclude` of a `terms` aggregation, compiled against the field's kind as
//! ES 6.8's `IncludeExclude` is: regular expressions and value lists for keyword terms;
//! value lists parsed as numbers, dates (in the field's format) or booleans for the other
//! kinds; and partitions, which hash each term (keywords: MurmurHash3 x86 32 of its
//! UTF-8 bytes, seed 31; numbers: HPPC's `BitMixer.mix64` of the value, doubles in their
//! sortable-long form) and keep those whose hash falls in the partition.

use super::values::{FieldValues, Key, ValueKind};
use super::Ctx;
use crate::error::{Error, Exception, Result};
use crate::request::aggs::TermFilter;
use crate::search::murmur3::murmur3_x86_32;
use std::collections::HashSet;

/// ES's seed for hashing terms into partitions.
const PARTITION_SEED: u32 = 31;

/// A filter ready to test keys of one field.
pub enum KeyFilter<'a> {
    /// Keyword terms by regex or set (as given).
    Text(&'a TermFilter),
    /// Numbers, dates and booleans by value.
    Numbers(HashSet<Key>),
    /// Keys whose hash falls in `partition` of `num`.
    Partition {
        /// Zero-based partition.
        partition: u32,
        /// Number of partitions.
        num: u32,
    },
}

impl<'a> KeyFilter<'a> {
    /// Compiles `filter` for the values of `fv` (`agg`: the aggregation's name, for errors).
    pub fn compile(ctx: &Ctx<'_>, agg: &str, fv: &FieldValues, filter: &'a TermFilter) -> Result<KeyFilter<'a>> {
        let numeric = !matches!(fv.kind, ValueKind::Keyword | ValueKind::Unmapped);
        Ok(match filter {
            TermFilter::Partition { partition, num } => KeyFilter::Partition { partition: *partition, num: *num },
            TermFilter::Regex(_) if numeric => {
                return Err(Error::all_shards_failed(
                    500,
                    ctx.targets.first().map(|t| t.meta.name.as_str()),
                    Exception::new(
                        "aggregation_execution_exception",
                        match fv.kind {
                            // Addresses are bytes with a format (`IncludeExclude.convertToStringFilter`).
                            ValueKind::Ip => format!("Aggregation [{agg}] cannot support regular expression style include/exclude settings as they can only be applied to string fields. Use an array of values for include/exclude clauses"),
                            _ => format!("Aggregation [{agg}] cannot support regular expression style include/exclude settings as they can only be applied to string fields. Use an array of numeric values for include/exclude clauses used to filter numeric fields"),
                        },
                    ),
                ));
            }
            TermFilter::Set(values) if numeric => {
                let mut keys = HashSet::new();
                for v in values {
                    keys.insert(fv.parse_key(v, ctx.now_ms).map_err(|e| {
                        Error::all_shards_failed(400, ctx.targets.first().map(|t| t.meta.name.as_str()), e.exception)
                    })?);
                }
                KeyFilter::Numbers(keys)
            }
            other => KeyFilter::Text(other),
        })
    }

    /// Whether `key` (rendered as `text` for keyword filters) passes.
    pub fn accepts(&self, key: &Key, text: &str) -> bool {
        match self {
            KeyFilter::Text(TermFilter::Regex(r)) => r.is_match(text),
            KeyFilter::Text(TermFilter::Set(s)) => s.contains(text),
            KeyFilter::Text(TermFilter::Partition { .. }) => true,
            KeyFilter::Numbers(keys) => keys.contains(key),
            KeyFilter::Partition { partition, num } => {
                let hash = match key {
                    Key::Str(s) => i64::from(murmur3_x86_32(s.as_bytes(), PARTITION_SEED) as i32),
                    Key::Long(v) => mix64(*v),
                    Key::Double(v) => mix64(sortable_long(*v)),
                };
                hash.rem_euclid(i64::from(*num)) == i64::from(*partition)
            }
        }
    }
}

/// Lucene's `NumericUtils.doubleToSortableLong`.
fn sortable_long(v: f64) -> i64 {
    let bits = v.to_bits() as i64;
    bits ^ ((bits >> 63) & 0x7fff_ffff_ffff_ffff)
}

/// HPPC's `BitMixer.mix64`.
fn mix64(z: i64) -> i64 {
    let mut z = z as u64;
    z = (z ^ (z >> 32)).wrapping_mul(0x4cd6_944c_5cc2_0b6d);
    z = (z ^ (z >> 29)).wrapping_mul(0xfc12_c5b1_9d32_59e9);
    (z ^ (z >> 32)) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixers_and_sortable_doubles() {
        assert_eq!(mix64(0), 0);
        assert_eq!(sortable_long(0.0), 0);
        assert_eq!(sortable_long(-0.0), -1);
        assert!(sortable_long(-1.5) < sortable_long(-1.0) && sortable_long(1.0) < sortable_long(1.5));
        // Every key falls in exactly one partition.
        let f = |p| KeyFilter::Partition { partition: p, num: 7 };
        for k in [Key::Str("heart".into()), Key::Long(-42), Key::Double(2.5)] {
            assert_eq!((0..7).filter(|p| f(*p).accepts(&k, "")).count(), 1);
        }
    }
}
