//! The redb file: the only module that names redb.
//!
//! Layout of one metagate file:
//! - `meta` (str -> bytes): format version, the scroll-signing secret, generation counter.
//! - `indices` (str -> json): catalog entry of each concrete index.
//! - `aliases` (str -> json): alias name -> list of concrete index names.
//! - `keys` (str -> json): API keys (salted hashes only).
//! - `scrolls` (str -> bytes): cleared scroll ids, shared by every process using the file.
//! - per generation `g<N>/<part>`: `source` (u32 -> bytes), `ids` (str -> u32),
//!   `postings` and `positions` (u64 -> bytes), `blobs` (str -> bytes).

mod memory;

use crate::error::{Error, Result};
use redb::{ReadableDatabase, ReadableTable, TableDefinition};
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Display;
use std::path::Path;
use std::sync::Arc;

/// The on-disk format this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");
const INDICES: TableDefinition<&str, &[u8]> = TableDefinition::new("indices");
const ALIASES: TableDefinition<&str, &[u8]> = TableDefinition::new("aliases");
const KEYS: TableDefinition<&str, &[u8]> = TableDefinition::new("keys");
const SCROLLS: TableDefinition<&str, &[u8]> = TableDefinition::new("scrolls");

fn storage<E: Display>(e: E) -> Error {
    Error::storage(format!("storage error: {e}"))
}

/// Per-generation table names.
fn gen_table(generation: u64, part: &str) -> String {
    format!("g{generation}/{part}")
}

/// Which of the small catalog tables to address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Catalog {
    /// File-level settings.
    Meta,
    /// Concrete indices.
    Indices,
    /// Aliases.
    Aliases,
    /// API keys.
    Keys,
    /// Scroll bookkeeping.
    Scrolls,
}

impl Catalog {
    fn def(self) -> TableDefinition<'static, &'static str, &'static [u8]> {
        match self {
            Catalog::Meta => META,
            Catalog::Indices => INDICES,
            Catalog::Aliases => ALIASES,
            Catalog::Keys => KEYS,
            Catalog::Scrolls => SCROLLS,
        }
    }
}

/// An open metagate file.
pub struct Store {
    db: redb::Database,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Store")
    }
}

/// redb's page cache per open file. Its default (1 GiB) lets a full scroll of a large
/// index pin every page it reads; bounded, memory stays flat and the OS page cache serves
/// re-reads.
const CACHE_BYTES: usize = 128 << 20;

impl Store {
    /// Opens `path`, creating it when `create` is set. Several processes may open one file
    /// at once (servers and the CLI); redb serialises their write transactions.
    pub fn open(path: &Path, create: bool) -> Result<Store> {
        let mut builder = redb::Builder::new();
        builder.set_concurrency_mode(redb::ConcurrencyMode::MultiWriter).set_cache_size(CACHE_BYTES);
        let exists = path.exists();
        if !exists && !create {
            return Err(Error::storage(format!("no metagate file at [{}]", path.display())));
        }
        let db = if exists { builder.open(path) } else { builder.create(path) }
            .map_err(|e| Error::storage(format!("cannot open [{}]: {e}", path.display())))?;
        let store = Store { db };
        store.check_or_init_version()?;
        Ok(store)
    }

    /// Rewrites the file without free space (no other process may have it open).
    pub fn compact(path: &Path) -> Result<()> {
        let mut db = redb::Builder::new()
            .set_concurrency_mode(redb::ConcurrencyMode::MultiWriter)
            .open(path)
            .map_err(|e| Error::storage(format!("cannot open [{}] for compaction: {e}", path.display())))?;
        while db.compact().map_err(storage)? {}
        Ok(())
    }

    /// Opens a file image held in memory (for WASM and tests): read and written in memory.
    ///
    /// An image comes from elsewhere (a download, a user's file picker), so every page's
    /// checksum is verified on opening: damage is a storage error here, where trusting the
    /// image could panic on the first damaged page read later — and in the browser a panic
    /// aborts the whole module.
    pub fn open_bytes(bytes: Vec<u8>) -> Result<Store> {
        let db = redb::Builder::new()
            .set_check_integrity_on_open(true)
            .create_with_backend(memory::MemoryBackend::new(bytes))
            .map_err(|e| Error::storage(format!("cannot open metagate image: {e}")))?;
        let store = Store { db };
        store.check_or_init_version()?;
        Ok(store)
    }

    fn check_or_init_version(&self) -> Result<()> {
        let found = self.read()?.meta_get("format_version")?;
        match found {
            Some(v) => {
                let v = String::from_utf8_lossy(&v).parse::<u32>().unwrap_or(0);
                if v != FORMAT_VERSION {
                    return Err(Error::storage(format!(
                        "this file has metagate format version {v}; this build reads version {FORMAT_VERSION} — rebuild the file with this version's `metagate load`"
                    )));
                }
                Ok(())
            }
            None => {
                let mut w = self.write()?;
                if w.get(Catalog::Meta, "format_version")?.is_none() {
                    if !w.is_empty_file()? {
                        return Err(Error::storage("this redb file is not a metagate file (no format version)"));
                    }
                    w.put(Catalog::Meta, "format_version", FORMAT_VERSION.to_string().as_bytes())?;
                    let secret: [u8; 32] = rand::random();
                    w.put(Catalog::Meta, "scroll_secret", &secret)?;
                }
                w.commit()
            }
        }
    }

    /// Begins a read snapshot.
    pub fn read(&self) -> Result<Snapshot> {
        Ok(Snapshot { txn: self.db.begin_read().map_err(storage)?, tables: RefCell::new(HashMap::new()) })
    }

    /// Begins the (single) write transaction.
    pub fn write(&self) -> Result<WriteTxn> {
        Ok(WriteTxn { txn: self.db.begin_write().map_err(storage)? })
    }
}

type BytesTable = redb::ReadOnlyTable<u64, &'static [u8]>;

/// A consistent read snapshot of the file.
pub struct Snapshot {
    txn: redb::ReadTransaction,
    tables: RefCell<HashMap<String, Option<Arc<BytesTable>>>>,
}

impl Snapshot {
    /// Reads one value of a catalog table.
    pub fn get(&self, cat: Catalog, key: &str) -> Result<Option<Vec<u8>>> {
        let table = match self.txn.open_table(cat.def()) {
            Ok(t) => t,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(None),
            Err(e) => return Err(storage(e)),
        };
        Ok(table.get(key).map_err(storage)?.map(|v| v.value().to_vec()))
    }

    fn meta_get(&self, key: &str) -> Result<Option<Vec<u8>>> {
        self.get(Catalog::Meta, key)
    }

    /// Every entry of a catalog table, in key order.
    pub fn list(&self, cat: Catalog) -> Result<Vec<(String, Vec<u8>)>> {
        let table = match self.txn.open_table(cat.def()) {
            Ok(t) => t,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
            Err(e) => return Err(storage(e)),
        };
        let mut out = Vec::new();
        for item in table.iter().map_err(storage)? {
            let (k, v) = item.map_err(storage)?;
            out.push((k.value().to_string(), v.value().to_vec()));
        }
        Ok(out)
    }

    fn u64_table(&self, generation: u64, part: &str) -> Result<Option<Arc<BytesTable>>> {
        let name = gen_table(generation, part);
        if let Some(t) = self.tables.borrow().get(&name) {
            return Ok(t.clone());
        }
        let def: TableDefinition<u64, &[u8]> = TableDefinition::new(&name);
        let t = match self.txn.open_table(def) {
            Ok(t) => Some(Arc::new(t)),
            Err(redb::TableError::TableDoesNotExist(_)) => None,
            Err(e) => return Err(storage(e)),
        };
        self.tables.borrow_mut().insert(name, t.clone());
        Ok(t)
    }

    /// Reads a u64-keyed value of a generation table (`source`, `postings`, `positions`).
    pub fn gen_get(&self, generation: u64, part: &str, key: u64) -> Result<Option<Vec<u8>>> {
        match self.u64_table(generation, part)? {
            None => Ok(None),
            Some(t) => Ok(t.get(key).map_err(storage)?.map(|v| v.value().to_vec())),
        }
    }

    /// Calls `f` with a u64-keyed value without copying it.
    pub fn gen_with<T>(&self, generation: u64, part: &str, key: u64, f: impl FnOnce(&[u8]) -> T) -> Result<Option<T>> {
        match self.u64_table(generation, part)? {
            None => Ok(None),
            Some(t) => Ok(t.get(key).map_err(storage)?.map(|v| f(v.value()))),
        }
    }

    /// Reads a string-keyed value of a generation table (`blobs`).
    pub fn gen_blob(&self, generation: u64, key: &str) -> Result<Option<Vec<u8>>> {
        let name = gen_table(generation, "blobs");
        let def: TableDefinition<&str, &[u8]> = TableDefinition::new(&name);
        let table = match self.txn.open_table(def) {
            Ok(t) => t,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(None),
            Err(e) => return Err(storage(e)),
        };
        Ok(table.get(key).map_err(storage)?.map(|v| v.value().to_vec()))
    }
}

/// The write transaction; nothing is visible to readers until `commit`.
pub struct WriteTxn {
    txn: redb::WriteTransaction,
}

impl WriteTxn {
    /// Reads a catalog value inside the transaction.
    pub fn get(&self, cat: Catalog, key: &str) -> Result<Option<Vec<u8>>> {
        let table = self.txn.open_table(cat.def()).map_err(storage)?;
        let v = table.get(key).map_err(storage)?.map(|v| v.value().to_vec());
        Ok(v)
    }

    /// Every entry of a catalog table inside the transaction.
    pub fn list(&self, cat: Catalog) -> Result<Vec<(String, Vec<u8>)>> {
        let table = self.txn.open_table(cat.def()).map_err(storage)?;
        let mut out = Vec::new();
        for item in table.iter().map_err(storage)? {
            let (k, v) = item.map_err(storage)?;
            out.push((k.value().to_string(), v.value().to_vec()));
        }
        Ok(out)
    }

    fn is_empty_file(&self) -> Result<bool> {
        Ok(self.txn.list_tables().map_err(storage)?.all(|t| {
            use redb::TableHandle;
            t.name() == "meta"
        }))
    }

    /// Writes a catalog value.
    pub fn put(&mut self, cat: Catalog, key: &str, value: &[u8]) -> Result<()> {
        let mut table = self.txn.open_table(cat.def()).map_err(storage)?;
        table.insert(key, value).map_err(storage)?;
        Ok(())
    }

    /// Removes a catalog value; returns whether it existed.
    pub fn remove(&mut self, cat: Catalog, key: &str) -> Result<bool> {
        let mut table = self.txn.open_table(cat.def()).map_err(storage)?;
        let existed = table.remove(key).map_err(storage)?.is_some();
        Ok(existed)
    }

    /// Allocates a new generation number.
    pub fn next_generation(&mut self) -> Result<u64> {
        let cur = self
            .get(Catalog::Meta, "next_generation")?
            .and_then(|v| String::from_utf8(v).ok())
            .and_then(|s| s.parse::<u64>().ok())
            .unwrap_or(1);
        self.put(Catalog::Meta, "next_generation", (cur + 1).to_string().as_bytes())?;
        Ok(cur)
    }

    /// Writes many u64-keyed values into a generation table.
    pub fn gen_put_all<'a>(
        &mut self,
        generation: u64,
        part: &str,
        items: impl Iterator<Item = (u64, &'a [u8])>,
    ) -> Result<()> {
        let name = gen_table(generation, part);
        let def: TableDefinition<u64, &[u8]> = TableDefinition::new(&name);
        let mut table = self.txn.open_table(def).map_err(storage)?;
        for (k, v) in items {
            table.insert(k, v).map_err(storage)?;
        }
        Ok(())
    }

    /// Writes a string-keyed blob of a generation.
    pub fn gen_put_blob(&mut self, generation: u64, key: &str, value: &[u8]) -> Result<()> {
        let name = gen_table(generation, "blobs");
        let def: TableDefinition<&str, &[u8]> = TableDefinition::new(&name);
        let mut table = self.txn.open_table(def).map_err(storage)?;
        table.insert(key, value).map_err(storage)?;
        Ok(())
    }

    /// Drops every table of a generation.
    pub fn drop_generation(&mut self, generation: u64) -> Result<()> {
        for part in ["source", "postings", "positions"] {
            let name = gen_table(generation, part);
            let def: TableDefinition<u64, &[u8]> = TableDefinition::new(&name);
            self.txn.delete_table(def).map_err(storage)?;
        }
        let name = gen_table(generation, "blobs");
        let def: TableDefinition<&str, &[u8]> = TableDefinition::new(&name);
        self.txn.delete_table(def).map_err(storage)?;
        Ok(())
    }

    /// Makes every change visible atomically.
    pub fn commit(self) -> Result<()> {
        self.txn.commit().map_err(storage)
    }
}
