//! The indices behind an index expression as the cluster-level read endpoints see them
//! (`_search_shards`, `_cluster/health`, `_stats`, `_cat/health`, `_cat/shards`): each
//! index of the file is one started primary shard on this one node; the replicas its
//! settings ask for (`index.number_of_replicas`, kept from an imported index) are
//! unassigned, as on a one-node cluster, so such an index is yellow.

use crate::engine::{Engine, IndicesOptions};
use crate::error::Result;

/// What the cluster-level endpoints tell of an index (its one shard).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardIndex {
    /// The concrete index name.
    pub name: String,
    /// Its uuid (ES's `index_uuid`; also the shard's allocation id here).
    pub uuid: String,
    /// Its number of documents.
    pub doc_count: u64,
    /// The bytes its generation holds.
    pub size_bytes: u64,
    /// The replicas its settings ask for: none can be assigned on one node.
    pub replicas: u64,
}

impl ShardIndex {
    /// Its health ([`index_health`]).
    pub fn health(&self) -> &'static str {
        index_health(self.replicas)
    }
}

/// The health of an index asking for `replicas`: its one primary is always started on
/// this one node, and replicas can never be assigned beside it, which ES reports as
/// yellow; without replicas it is green.
pub fn index_health(replicas: u64) -> &'static str {
    if replicas > 0 {
        "yellow"
    } else {
        "green"
    }
}

impl Engine {
    /// The indices `index` (an expression) names under `options`, in name order.
    pub fn shard_indices(&self, index: &str, options: IndicesOptions) -> Result<Vec<ShardIndex>> {
        let snap = self.snapshot()?;
        let mut out: Vec<ShardIndex> = self
            .resolve(&snap, index, options)?
            .iter()
            .map(|t| ShardIndex {
                name: t.meta.name.clone(),
                uuid: t.meta.uuid.clone(),
                doc_count: t.meta.doc_count,
                size_bytes: t.meta.size_bytes,
                replicas: t.meta.settings.number_of_replicas(),
            })
            .collect();
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }
}

impl Engine {
    /// The filtering aliases `index` (an expression) reaches each index through, with
    /// their filters as the aliases hold them (`_search_shards`'s `indices`).
    pub(crate) fn alias_filters_of(&self, index: &str) -> Result<Vec<crate::engine::AliasFilterSource>> {
        let snap = self.snapshot()?;
        self.alias_filter_sources(&snap, index)
    }
}
