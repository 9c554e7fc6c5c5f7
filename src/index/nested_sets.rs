//! The document sets of a generation's nested blocks, computed once per reader: the
//! root documents (Lucene's parents bitset of `Queries.newNonNestedFilter`) and each
//! nested path's documents. A generation never changes, so they are cached with it; an
//! index without nested documents computes nothing.

use super::{DocSet, IndexReader, NESTED_PATH_FIELD};
use crate::error::{Error, Result};
use crate::store::Snapshot;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The cached sets (see the module's documentation).
#[derive(Debug, Default)]
pub struct NestedSets {
    roots: Mutex<Option<Arc<DocSet>>>,
    paths: Mutex<HashMap<String, Arc<DocSet>>>,
}

fn poisoned<T>(_: T) -> Error {
    Error::storage("cache lock poisoned")
}

impl IndexReader {
    /// Whether the generation holds nested documents.
    pub fn has_nested_docs(&self) -> bool {
        self.meta.fields.contains_key(NESTED_PATH_FIELD)
    }

    /// The root documents, when the generation holds nested ones (`None`: every document
    /// is a root, nothing to filter).
    pub fn root_docs(&self, snap: &Snapshot) -> Result<Option<Arc<DocSet>>> {
        if !self.has_nested_docs() {
            return Ok(None);
        }
        if let Some(r) = self.nested.roots.lock().map_err(poisoned)?.as_ref() {
            return Ok(Some(r.clone()));
        }
        let mut roots = DocSet::full(self.max_doc());
        let paths: Vec<String> =
            self.meta.mapping.objects.iter().filter(|(_, o)| o.nested.is_some()).map(|(p, _)| p.clone()).collect();
        for path in &paths {
            roots.sub_with(&*self.nested_docs(snap, path)?);
        }
        let roots = Arc::new(roots);
        *self.nested.roots.lock().map_err(poisoned)? = Some(roots.clone());
        Ok(Some(roots))
    }

    /// The nested documents of the objects at `path`.
    pub fn nested_docs(&self, snap: &Snapshot, path: &str) -> Result<Arc<DocSet>> {
        if let Some(d) = self.nested.paths.lock().map_err(poisoned)?.get(path) {
            return Ok(d.clone());
        }
        let docs = match self.term_addr(snap, NESTED_PATH_FIELD, path)? {
            Some(addr) => self.postings(snap, NESTED_PATH_FIELD, addr)?.docs,
            None => DocSet::new(),
        };
        let docs = Arc::new(docs);
        self.nested.paths.lock().map_err(poisoned)?.insert(path.to_string(), docs.clone());
        Ok(docs)
    }
}
