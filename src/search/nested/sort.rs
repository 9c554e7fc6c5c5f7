//! Nested sort (ES 6.8's `NestedSortBuilder`): a document sorts by the values of its
//! nested objects at the sort's deepest `nested` path, those whose objects (and whose
//! ancestors' objects) match each level's `filter`.

use crate::error::Result;
use crate::index::{DocSet, IndexReader};
use crate::request::sort::NestedSort;
use crate::search::context::{query_shard_error, Executor};
use crate::search::weight::join::children_of;
use crate::store::Snapshot;

/// The nested documents whose values a document sorts by (they lie in its block).
pub fn sort_docs(reader: &IndexReader, snap: &Snapshot, spec: &NestedSort) -> Result<DocSet> {
    let ex = Executor::new(reader, snap, crate::node::now_ms());
    // The kept objects of the level above, and all of that level's objects (which
    // delimit the blocks of the level below).
    let mut kept: Option<(DocSet, std::sync::Arc<DocSet>)> = None;
    let mut at = Some(spec);
    while let Some(s) = at {
        let Some((path, object)) = reader.meta.mapping.objects.get_key_value(s.path.as_str()) else {
            return Err(query_shard_error(format!("[nested] failed to find nested object under path [{}]", s.path)));
        };
        if object.nested.is_none() {
            return Err(query_shard_error(format!(
                "[nested] nested object under path [{}] is not of nested type",
                s.path
            )));
        }
        let all = reader.nested_docs(snap, path)?;
        let mut docs = (*all).clone();
        if let Some(f) = &s.filter {
            docs.and_with(&Executor { nested_scope: Some(path.as_str()), ..ex }.filter(f)?);
        }
        if let Some((above, above_all)) = &kept {
            docs = children_of(above, above_all, &docs);
        }
        kept = Some((docs, all));
        at = s.nested.as_deref();
    }
    Ok(kept.map(|k| k.0).unwrap_or_default())
}
