//! What `_stats` reports of each index's one shard: its counters (`shard_counters`) and
//! what its generation holds (segments, term dictionaries and norms in memory,
//! completion terms).

use crate::engine::{Engine, IndicesOptions};
use crate::error::Result;
use crate::read::shards::ShardIndex;
use crate::shard_counters::Counted;

/// What `_stats` tells of one index.
#[derive(Debug, Clone, PartialEq)]
pub struct ShardStats {
    /// The index as the cluster-level endpoints see it.
    pub index: ShardIndex,
    /// Its counters.
    pub counted: Counted,
    /// Segments: one for an index with documents, none for an empty one.
    pub segments: u64,
    /// Bytes of term dictionaries the reader holds in memory.
    pub terms_memory: u64,
    /// Bytes of norms the reader holds in memory.
    pub norms_memory: u64,
    /// Bytes of the term dictionary of each `completion` field asked for (by pattern),
    /// in field order.
    pub completion_fields: Vec<(String, u64)>,
    /// Bytes of every `completion` field's term dictionary.
    pub completion_bytes: u64,
}

impl Engine {
    /// `_stats` of the indices `index` names, in name order; `completion_fields`
    /// (patterns) chooses the completion fields listed one by one.
    pub fn shard_stats(
        &self,
        index: &str,
        options: IndicesOptions,
        completion_fields: &[String],
    ) -> Result<Vec<ShardStats>> {
        let snap = self.snapshot()?;
        let all = self.index_readers(&snap)?;
        let live: Vec<&str> = all.values().map(|r| r.meta.uuid.as_str()).collect();
        self.counters().keep_only(&live);
        let mut out = Vec::new();
        for shard in self.shard_indices(index, options)? {
            let Some(reader) = all.get(&shard.name) else { continue };
            let mut completion_fields_out = Vec::new();
            let mut completion_bytes = 0;
            for (path, field) in &reader.meta.mapping.fields {
                if field.params.completion.is_none() {
                    continue;
                }
                let bytes = reader.term_dictionary_bytes(&snap, path)?;
                completion_bytes += bytes;
                if completion_fields.iter().any(|p| crate::mapping::simple_match(p, path)) {
                    completion_fields_out.push((path.clone(), bytes));
                }
            }
            let memory = reader.memory();
            out.push(ShardStats {
                counted: self.counters().of(&shard.uuid).read(),
                segments: u64::from(shard.doc_count > 0),
                terms_memory: memory.terms,
                norms_memory: memory.norms,
                completion_fields: completion_fields_out,
                completion_bytes,
                index: shard,
            });
        }
        Ok(out)
    }
}
