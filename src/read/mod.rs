//! The read APIs clients call besides `_search`: `_count`, `_msearch`, documents by
//! `_id` (GET, `_source`, `_mget`), `_mapping`, `_field_caps`, aliases and index
//! existence — methods of [`Engine`](crate::Engine), so every door answers them alike.

pub mod analyze;
pub mod count;
pub mod docs;
pub mod explain;
pub mod indices;
pub mod msearch;
pub mod painless_execute;
pub mod shard_stats;
pub mod shards;
pub mod termvectors;
pub mod validate;
