//! The redb file: the only module that names redb.
//!
//! Layout of one metagate file:
//! - `meta` (str -> bytes): format version, the scroll-signing secret, generation counter.
//! - `indices` (str -> json): catalog entry of each concrete index.
//! - `aliases` (str -> json): alias name -> list of concrete index names.
//! - `keys` (str -> json): API keys (salted hashes only).
//! - `scrolls` (str -> bytes): cleared scroll ids, the generations open scrolls pin and
//!   their expiry index, shared by every process using the file (read by key and by key
//!   range, [`Snapshot::range`] / [`WriteTxn::range`], never listed on a request's path).
//! - per generation `g<N>/<part>`: `source`, `postings` and `positions` (u64 -> bytes),
//!   `blobs` (str -> bytes).
//!
//! ARCHITECTURE.md describes every table and encoding.

mod chunked;
#[cfg(not(target_arch = "wasm32"))]
mod deferred;
mod memory;
mod overlay;

pub use chunked::{ChunkPolicy, ImageSource};

use crate::error::{Error, Result};
use redb::{ReadableDatabase, ReadableTable, TableDefinition, TableHandle};
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Display;
#[cfg(not(target_arch = "wasm32"))]
use std::path::Path;
use std::sync::Arc;

/// The on-disk format this build reads and writes (4: blobs over a page stored in
/// page-sized parts, packed doc values and points, checksummed document blocks; 3:
/// documents in compressed blocks, stream chunks sized to fill redb's pages).
pub const FORMAT_VERSION: u32 = 4;

/// How the refusal of a file of another format version begins.
const FORMAT_MISMATCH: &str = "this file has metagate format version";

/// Whether `e` is the refusal of a file written in another format version (a file that
/// `metagate load` can rebuild).
#[cfg(feature = "demo")]
pub fn is_format_mismatch(e: &Error) -> bool {
    e.reason().starts_with(FORMAT_MISMATCH)
}

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
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

/// What [`Store::compact`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compaction {
    /// The file holds no free pages any more.
    Done,
    /// Another process, or a reader of this one, had a transaction open: nothing changed.
    Busy,
}

/// An open metagate file.
pub struct Store {
    db: Db,
    /// The directory of the file (where a load spills its temporary runs).
    dir: Option<std::path::PathBuf>,
    /// Bookkeeping writes waiting for the file's write lock (see [`Store::write_or_defer`]).
    #[cfg(not(target_arch = "wasm32"))]
    deferred: deferred::Deferred,
}

/// A bookkeeping write that may run later, in a transaction of its own or shared with
/// other deferred writes (see [`Store::write_or_defer`]).
pub type Job = Box<dyn FnOnce(&mut WriteTxn<'_>) -> Result<()> + Send>;

/// How the file is open.
enum Db {
    /// A file on disk, read and written (not built for the browser, which has no files and
    /// whose module should not carry redb's write paths). Shared with the deferred writer
    /// while it has work.
    #[cfg(not(target_arch = "wasm32"))]
    File(Arc<redb::Database>),
    /// An image opened read-only (bytes, or pages fetched on demand), with the catalog
    /// changes a reader makes held beside it.
    Image(redb::ReadOnlyDatabase, overlay::Overlay),
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Store")
    }
}

/// redb's page cache per open file. Its default (1 GiB) lets a full scroll of a large
/// index pin every page it reads; bounded, memory stays flat and the OS page cache serves
/// re-reads.
#[cfg(not(target_arch = "wasm32"))]
const CACHE_BYTES: usize = 128 << 20;

impl Store {
    /// Opens `path`, creating it when `create` is set. Several processes may open one file
    /// at once (servers and the CLI); redb serialises their write transactions.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open(path: &Path, create: bool) -> Result<Store> {
        let mut builder = redb::Builder::new();
        builder.set_concurrency_mode(redb::ConcurrencyMode::MultiWriter).set_cache_size(CACHE_BYTES);
        let exists = path.exists();
        if !exists && !create {
            return Err(Error::storage(format!("no metagate file at [{}]", path.display())));
        }
        let db = if exists { builder.open(path) } else { builder.create(path) }
            .map_err(|e| Error::storage(format!("cannot open [{}]: {e}", path.display())))?;
        let dir =
            path.parent().map(|p| if p.as_os_str().is_empty() { Path::new(".") } else { p }).map(Path::to_path_buf);
        let store = Store { db: Db::File(Arc::new(db)), dir, deferred: deferred::Deferred::default() };
        store.check_or_init_version()?;
        Ok(store)
    }

    /// Rewrites the file without free space: pages in use move into the free ones and the
    /// file is truncated after the last. It needs the file to itself for its duration:
    /// while another process (or a reader of this one) has a transaction open, nothing
    /// changes and [`Compaction::Busy`] says so. A kill during it leaves the file as the
    /// last completed step wrote it (each step is a two-phase commit).
    ///
    /// A compacted file has no free page, and redb grows a full file (below its 4 GiB
    /// region) by doubling its length, placing the new pages at the start of the added
    /// space where later commits cannot give it back: the first write of any kind after a
    /// compaction doubles the file's apparent length (sparsely: only the written pages take
    /// disk) until the next compaction. redb has no setting for it, so writers that follow
    /// a compaction (a server's scroll bookkeeping) write as seldom as they can.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn compact(&mut self) -> Result<Compaction> {
        let Db::File(db) = &mut self.db else {
            return Err(Error::storage("a file image opened read-only cannot be compacted"));
        };
        // The deferred writer holds the database while it has work: a write in progress.
        let Some(db) = Arc::get_mut(db) else { return Ok(Compaction::Busy) };
        match db.compact() {
            Ok(_) => Ok(Compaction::Done),
            Err(redb::CompactionError::TransactionInProgress) => Ok(Compaction::Busy),
            Err(e) => Err(storage(e)),
        }
    }

    /// Opens a file image held in memory, read-only (see [`Store::open_image`]).
    ///
    /// An image comes from elsewhere (a download, a user's file picker), so every page's
    /// checksum is verified first: damage is a storage error here, where trusting the image
    /// could panic on the first damaged page read later — and in the browser a panic aborts
    /// the whole module. (An image taken while a writer had the file open is repaired in
    /// memory by the same step.)
    pub fn open_bytes(bytes: Vec<u8>) -> Result<Store> {
        let shared = memory::MemoryBackend(Arc::new(std::sync::RwLock::new(bytes)));
        let verified = redb::Builder::new()
            .set_check_integrity_on_open(true)
            .create_with_backend(shared.clone())
            .and_then(|db| db.close());
        verified.map_err(|e| Error::storage(format!("cannot open metagate image: {e}")))?;
        let bytes = std::mem::take(&mut *shared.0.write().unwrap_or_else(|p| p.into_inner()));
        let backend = chunked::ChunkedBackend::direct(memory::MemoryImage(bytes))
            .map_err(|e| Error::storage(format!("cannot open metagate image: {e}")))?;
        Store::open_image(backend)
    }

    /// Opens a file image read-only over any storage: bytes in memory, or pages fetched on
    /// demand (the browser's HTTP range reader). Nothing is ever written to the image;
    /// clearing a scroll is remembered beside it, and changes to indices, aliases or keys
    /// answer `cluster_block_exception` (403).
    fn open_image<S: ImageSource>(backend: chunked::ChunkedBackend<S>) -> Result<Store> {
        let db = redb::Builder::new()
            .set_cache_size(IMAGE_CACHE_BYTES)
            .set_concurrency_mode(redb::ConcurrencyMode::SingleWriter)
            .open_read_only_with_backend(backend)
            .map_err(|e| Error::storage(format!("cannot open metagate image: {e}")))?;
        let store = Store {
            db: Db::Image(db, overlay::Overlay::default()),
            dir: None,
            #[cfg(not(target_arch = "wasm32"))]
            deferred: deferred::Deferred::default(),
        };
        store.check_or_init_version()?;
        Ok(store)
    }

    /// Opens a file image read-only from a source read on demand, a chunk at a time (see
    /// [`ChunkPolicy`]): only the pages searches touch are fetched.
    ///
    /// Unlike [`Store::open_bytes`], pages are not verified first (that would fetch the
    /// whole file): the source must serve the file as written, unchanged while it is read
    /// (the browser's reader checks the server's ETag on every answer). A damaged file
    /// may panic redb's page decoding.
    pub fn open_source(source: impl ImageSource, policy: ChunkPolicy) -> Result<Store> {
        let backend = chunked::ChunkedBackend::new(source, policy)
            .map_err(|e| Error::storage(format!("cannot open metagate image: {e}")))?;
        Store::open_image(backend)
    }

    /// Where a load spills its temporary runs: beside the file (the system's temporary
    /// directory for an image).
    pub fn temp_dir(&self) -> std::path::PathBuf {
        self.dir.clone().unwrap_or_else(std::env::temp_dir)
    }

    /// Whether the file is an image opened read-only.
    pub fn is_read_only(&self) -> bool {
        matches!(self.db, Db::Image(..))
    }

    fn check_or_init_version(&self) -> Result<()> {
        let found = self.read()?.meta_get("format_version")?;
        match found {
            Some(v) => {
                let v = String::from_utf8_lossy(&v).parse::<u32>().unwrap_or(0);
                if v != FORMAT_VERSION {
                    return Err(Error::storage(format!(
                        "{FORMAT_MISMATCH} {v}; this build reads version {FORMAT_VERSION} — rebuild the file with this version's `metagate load`"
                    )));
                }
                Ok(())
            }
            None if self.is_read_only() => {
                Err(Error::storage("this redb file is not a metagate file (no format version)"))
            }
            None => self.init_version(),
        }
    }

    /// Marks a new, empty file as a metagate file of this format, with its scroll secret.
    #[cfg(not(target_arch = "wasm32"))]
    fn init_version(&self) -> Result<()> {
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

    /// The browser opens images only, which are never initialised.
    #[cfg(target_arch = "wasm32")]
    fn init_version(&self) -> Result<()> {
        Err(overlay::read_only())
    }

    /// Begins a read snapshot.
    pub fn read(&self) -> Result<Snapshot> {
        let (txn, changes) = match &self.db {
            #[cfg(not(target_arch = "wasm32"))]
            Db::File(db) => (db.begin_read(), None),
            Db::Image(db, overlay) => (db.begin_read(), Some(overlay.current())),
        };
        Ok(Snapshot { txn: txn.map_err(storage)?, changes, tables: RefCell::new(HashMap::new()) })
    }

    /// Begins the (single) write transaction.
    pub fn write(&self) -> Result<WriteTxn<'_>> {
        match &self.db {
            #[cfg(not(target_arch = "wasm32"))]
            Db::File(db) => Ok(WriteTxn(Txn::File(Box::new(db.begin_write().map_err(storage)?)))),
            Db::Image(_, overlay) => {
                Ok(WriteTxn(Txn::Image { base: Box::new(self.read()?), staged: overlay::Changes::new(), overlay }))
            }
        }
    }

    /// Runs a small bookkeeping write without waiting for the file's write lock: now, in a
    /// transaction of its own, when the lock is free; otherwise later, on a background
    /// thread that waits for the lock (another process's load may hold it for minutes) and
    /// runs every job queued meanwhile in one transaction. Returns whether the job ran now.
    /// A deferred job's error is reported on stderr (there is no caller left to tell), and
    /// the jobs committed with it are lost with it: jobs must be safe to lose or to run
    /// late (they re-read what they change), as bookkeeping that only extends deadlines is.
    pub fn write_or_defer(&self, job: Job) -> Result<bool> {
        match &self.db {
            #[cfg(not(target_arch = "wasm32"))]
            Db::File(db) => match db.try_begin_write() {
                Ok(txn) => {
                    let mut w = WriteTxn(Txn::File(Box::new(txn)));
                    job(&mut w)?;
                    w.commit()?;
                    Ok(true)
                }
                Err(redb::TransactionError::WouldBlock) => {
                    self.deferred.push(db, job);
                    Ok(false)
                }
                Err(e) => Err(storage(e)),
            },
            // An image's overlay never waits.
            Db::Image(..) => {
                let mut w = self.write()?;
                job(&mut w)?;
                w.commit()?;
                Ok(true)
            }
        }
    }

    /// Waits until every deferred bookkeeping write queued so far has been committed (or
    /// has failed): for tests and for an orderly close.
    pub fn flush_deferred(&self) {
        #[cfg(not(target_arch = "wasm32"))]
        self.deferred.wait_idle();
    }
}

/// redb's page cache for an image. The image itself is in memory (or fetched on demand,
/// where the fetcher keeps its own cache), so this only saves decoding pages again.
const IMAGE_CACHE_BYTES: usize = 16 << 20;

type BytesTable = redb::ReadOnlyTable<u64, &'static [u8]>;

/// A value of a generation table, borrowed from the snapshot's page (it keeps the page
/// alive, not the table or the snapshot).
pub struct StoredBytes(redb::AccessGuard<'static, &'static [u8]>);

impl std::ops::Deref for StoredBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        self.0.value()
    }
}

/// A consistent read snapshot of the file.
pub struct Snapshot {
    txn: redb::ReadTransaction,
    /// An image's catalog changes as of the snapshot's start.
    changes: Option<Arc<overlay::Changes>>,
    tables: RefCell<HashMap<String, Option<Arc<BytesTable>>>>,
}

impl Snapshot {
    /// Reads one value of a catalog table.
    pub fn get(&self, cat: Catalog, key: &str) -> Result<Option<Vec<u8>>> {
        if let Some(change) = self.changes.as_ref().and_then(|c| c.get(&(cat, key.to_string()))) {
            return Ok(change.clone());
        }
        self.file_get(cat, key)
    }

    /// A catalog value as the file has it, without an image's changes.
    fn file_get(&self, cat: Catalog, key: &str) -> Result<Option<Vec<u8>>> {
        touched(1);
        let table = match self.txn.open_table(cat.def()) {
            Ok(t) => t,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(None),
            Err(e) => return Err(storage(e)),
        };
        Ok(table.get(key).map_err(storage)?.map(|v| v.value().to_vec()))
    }

    /// The catalog version this snapshot sees (0 in a file whose catalog never changed):
    /// equal versions mean equal `indices` and `aliases` tables.
    pub fn catalog_version(&self) -> Result<u64> {
        Ok(self.meta_get(CATALOG_VERSION)?.map(|v| parse_version(&v)).unwrap_or(0))
    }

    fn meta_get(&self, key: &str) -> Result<Option<Vec<u8>>> {
        self.get(Catalog::Meta, key)
    }

    /// Every entry of a catalog table, in key order.
    pub fn list(&self, cat: Catalog) -> Result<Vec<(String, Vec<u8>)>> {
        let base = self.file_list(cat)?;
        Ok(match &self.changes {
            Some(changes) => overlay::merge_list(cat, base, &[changes]),
            None => base,
        })
    }

    /// A catalog table as the file has it, without an image's changes.
    fn file_list(&self, cat: Catalog) -> Result<Vec<(String, Vec<u8>)>> {
        let table = match self.txn.open_table(cat.def()) {
            Ok(t) => t,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
            Err(e) => return Err(storage(e)),
        };
        collect_range(&table, .., usize::MAX)
    }

    /// At most `limit` entries of a catalog table with keys in `from..to`, in key order:
    /// reads those entries only, whatever the table's size.
    pub fn range(&self, cat: Catalog, from: &str, to: &str, limit: usize) -> Result<Vec<(String, Vec<u8>)>> {
        let Some(changes) = &self.changes else {
            let table = match self.txn.open_table(cat.def()) {
                Ok(t) => t,
                Err(redb::TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
                Err(e) => return Err(storage(e)),
            };
            return collect_range(&table, from..to, limit);
        };
        // An image: its few in-memory changes over the image's own entries.
        let base = match self.txn.open_table(cat.def()) {
            Ok(t) => collect_range(&t, from..to, usize::MAX)?,
            Err(redb::TableError::TableDoesNotExist(_)) => Vec::new(),
            Err(e) => return Err(storage(e)),
        };
        Ok(overlay::merge_range(cat, base, &[changes], from, to, limit))
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

    /// Reads a u64-keyed value of a generation table (`docs`, `postings`, `positions`),
    /// borrowing the file's page instead of copying it: a term lookup touches a few bytes
    /// of a 32 KiB chunk.
    pub fn gen_get(&self, generation: u64, part: &str, key: u64) -> Result<Option<StoredBytes>> {
        match self.u64_table(generation, part)? {
            None => Ok(None),
            Some(t) => Ok(t.get(key).map_err(storage)?.map(StoredBytes)),
        }
    }

    /// The generations whose tables the file holds, ascending.
    pub fn generations(&self) -> Result<Vec<u64>> {
        let mut out: Vec<u64> = self
            .txn
            .list_tables()
            .map_err(storage)?
            .filter_map(|t| t.name().strip_prefix('g')?.split_once('/')?.0.parse().ok())
            .collect();
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    /// Reads a string-keyed value of a generation table (`blobs`): stored whole, or
    /// reassembled from its parts (see [`BLOB_PART`]).
    pub fn gen_blob(&self, generation: u64, key: &str) -> Result<Option<Vec<u8>>> {
        let name = gen_table(generation, "blobs");
        let def: TableDefinition<&str, &[u8]> = TableDefinition::new(&name);
        let table = match self.txn.open_table(def) {
            Ok(t) => t,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(None),
            Err(e) => return Err(storage(e)),
        };
        if let Some(whole) = table.get(key).map_err(storage)? {
            return Ok(Some(whole.value().to_vec()));
        }
        let (first, past) = blob_part_range(key);
        let mut out: Option<Vec<u8>> = None;
        for part in table.range(first.as_str()..past.as_str()).map_err(storage)? {
            let (_, bytes) = part.map_err(storage)?;
            out.get_or_insert_with(Vec::new).extend_from_slice(bytes.value());
        }
        Ok(out)
    }
}

/// The write transaction; nothing is visible to readers until `commit`.
pub struct WriteTxn<'a>(Txn<'a>);

enum Txn<'a> {
    /// A redb write transaction on a file.
    #[cfg(not(target_arch = "wasm32"))]
    File(Box<redb::WriteTransaction>),
    /// Catalog changes staged for a read-only image's overlay.
    Image {
        /// The image as of the transaction's start, with the changes committed by then.
        base: Box<Snapshot>,
        /// This transaction's changes.
        staged: overlay::Changes,
        /// Where they go on commit.
        overlay: &'a overlay::Overlay,
    },
}

impl WriteTxn<'_> {
    /// The redb transaction of a file, or the read-only error for an image (whose
    /// generation tables cannot change).
    #[cfg(not(target_arch = "wasm32"))]
    fn file_txn(&mut self) -> Result<&mut redb::WriteTransaction> {
        match &mut self.0 {
            Txn::File(txn) => Ok(txn),
            Txn::Image { .. } => Err(overlay::read_only()),
        }
    }

    #[cfg(target_arch = "wasm32")]
    fn file_txn(&mut self) -> Result<&mut Never> {
        Err(overlay::read_only())
    }

    /// Reads a catalog value inside the transaction.
    pub fn get(&self, cat: Catalog, key: &str) -> Result<Option<Vec<u8>>> {
        match &self.0 {
            #[cfg(not(target_arch = "wasm32"))]
            Txn::File(txn) => {
                touched(1);
                let table = txn.open_table(cat.def()).map_err(storage)?;
                let v = table.get(key).map_err(storage)?.map(|v| v.value().to_vec());
                Ok(v)
            }
            Txn::Image { base, staged, .. } => match staged.get(&(cat, key.to_string())) {
                Some(change) => Ok(change.clone()),
                None => base.get(cat, key),
            },
        }
    }

    /// Every entry of a catalog table inside the transaction.
    pub fn list(&self, cat: Catalog) -> Result<Vec<(String, Vec<u8>)>> {
        match &self.0 {
            #[cfg(not(target_arch = "wasm32"))]
            Txn::File(txn) => collect_range(&txn.open_table(cat.def()).map_err(storage)?, .., usize::MAX),
            Txn::Image { base, staged, .. } => Ok(overlay::merge_list(cat, base.list(cat)?, &[staged])),
        }
    }

    /// At most `limit` entries of a catalog table with keys in `from..to`, in key order,
    /// inside the transaction: reads those entries only, whatever the table's size.
    pub fn range(&self, cat: Catalog, from: &str, to: &str, limit: usize) -> Result<Vec<(String, Vec<u8>)>> {
        match &self.0 {
            #[cfg(not(target_arch = "wasm32"))]
            Txn::File(txn) => collect_range(&txn.open_table(cat.def()).map_err(storage)?, from..to, limit),
            Txn::Image { base, staged, .. } => {
                Ok(overlay::merge_range(cat, base.range(cat, from, to, usize::MAX)?, &[staged], from, to, limit))
            }
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn is_empty_file(&mut self) -> Result<bool> {
        Ok(self.file_txn()?.list_tables().map_err(storage)?.all(|t| {
            use redb::TableHandle;
            t.name() == "meta"
        }))
    }

    /// Writes a catalog value.
    pub fn put(&mut self, cat: Catalog, key: &str, value: &[u8]) -> Result<()> {
        self.change(cat, key, Some(value)).map(|_| ())
    }

    /// Removes a catalog value; returns whether it existed.
    pub fn remove(&mut self, cat: Catalog, key: &str) -> Result<bool> {
        self.change(cat, key, None)
    }

    /// Writes (`Some`) or removes (`None`) a catalog value; returns whether one existed.
    fn change(&mut self, cat: Catalog, key: &str, value: Option<&[u8]>) -> Result<bool> {
        touched(1);
        let existed = match &mut self.0 {
            #[cfg(not(target_arch = "wasm32"))]
            Txn::File(txn) => {
                let existed = {
                    let mut table = txn.open_table(cat.def()).map_err(storage)?;
                    let old = match value {
                        Some(v) => table.insert(key, v).map_err(storage)?,
                        None => table.remove(key).map_err(storage)?,
                    };
                    old.is_some()
                };
                if matches!(cat, Catalog::Indices | Catalog::Aliases) {
                    bump_catalog_version(txn)?;
                }
                existed
            }
            Txn::Image { base, staged, .. } => {
                overlay::check_writable(cat)?;
                let slot = (cat, key.to_string());
                let existed = match staged.get(&slot) {
                    Some(change) => change.is_some(),
                    None => base.get(cat, key)?.is_some(),
                };
                staged.insert(slot, value.map(<[u8]>::to_vec));
                existed
            }
        };
        Ok(existed)
    }

    /// Allocates a new generation number.
    pub fn next_generation(&mut self) -> Result<u64> {
        self.file_txn()?;
        let cur = self
            .get(Catalog::Meta, "next_generation")?
            .and_then(|v| String::from_utf8(v).ok())
            .and_then(|s| s.parse::<u64>().ok())
            .unwrap_or(1);
        self.put(Catalog::Meta, "next_generation", (cur + 1).to_string().as_bytes())?;
        Ok(cur)
    }

    /// Writes many u64-keyed values into a generation table.
    pub fn gen_put_all<'v>(
        &mut self,
        generation: u64,
        part: &str,
        items: impl Iterator<Item = (u64, &'v [u8])>,
    ) -> Result<()> {
        let txn = self.file_txn()?;
        let name = gen_table(generation, part);
        let def: TableDefinition<u64, &[u8]> = TableDefinition::new(&name);
        let mut table = txn.open_table(def).map_err(storage)?;
        for (k, v) in items {
            table.insert(k, v).map_err(storage)?;
        }
        Ok(())
    }

    /// Writes a string-keyed blob of a generation: whole when it fits one page, else in
    /// parts of [`BLOB_PART`] bytes.
    pub fn gen_put_blob(&mut self, generation: u64, key: &str, value: &[u8]) -> Result<()> {
        let txn = self.file_txn()?;
        let name = gen_table(generation, "blobs");
        let def: TableDefinition<&str, &[u8]> = TableDefinition::new(&name);
        let mut table = txn.open_table(def).map_err(storage)?;
        if value.len() <= BLOB_PART {
            table.insert(key, value).map_err(storage)?;
        } else {
            for (i, part) in value.chunks(BLOB_PART).enumerate() {
                table.insert(blob_part_key(key, i).as_str(), part).map_err(storage)?;
            }
        }
        Ok(())
    }

    /// Writes part `i` of a blob too long to write whole, for a writer that produces the
    /// blob as it goes: every part but the last must hold [`BLOB_PART`] bytes, and a blob of
    /// at most [`BLOB_PART`] bytes must be written whole with [`WriteTxn::gen_put_blob`]
    /// (readers take a blob stored whole over its parts).
    pub fn gen_put_blob_part(&mut self, generation: u64, key: &str, i: usize, part: &[u8]) -> Result<()> {
        let txn = self.file_txn()?;
        let name = gen_table(generation, "blobs");
        let def: TableDefinition<&str, &[u8]> = TableDefinition::new(&name);
        let mut table = txn.open_table(def).map_err(storage)?;
        table.insert(blob_part_key(key, i).as_str(), part).map_err(storage)?;
        Ok(())
    }

    /// Drops every table of a generation.
    pub fn drop_generation(&mut self, generation: u64) -> Result<()> {
        let txn = self.file_txn()?;
        for part in ["docs", "postings", "positions"] {
            let name = gen_table(generation, part);
            let def: TableDefinition<u64, &[u8]> = TableDefinition::new(&name);
            txn.delete_table(def).map_err(storage)?;
        }
        let name = gen_table(generation, "blobs");
        let def: TableDefinition<&str, &[u8]> = TableDefinition::new(&name);
        txn.delete_table(def).map_err(storage)?;
        Ok(())
    }

    /// Makes every change visible atomically.
    pub fn commit(self) -> Result<()> {
        match self.0 {
            #[cfg(not(target_arch = "wasm32"))]
            Txn::File(txn) => txn.commit().map_err(storage),
            Txn::Image { staged, overlay, .. } => {
                overlay.commit(staged);
                Ok(())
            }
        }
    }
}

/// Up to `limit` entries of `range` of a catalog table, in key order.
fn collect_range<'a, T, R>(table: &T, range: R, limit: usize) -> Result<Vec<(String, Vec<u8>)>>
where
    T: ReadableTable<&'static str, &'static [u8]>,
    R: std::ops::RangeBounds<&'a str> + 'a,
{
    let mut out = Vec::new();
    for item in table.range::<&'a str>(range).map_err(storage)?.take(limit) {
        let (k, v) = item.map_err(storage)?;
        out.push((k.value().to_string(), v.value().to_vec()));
    }
    touched(out.len() as u64);
    Ok(out)
}

thread_local! {
    /// Catalog entries this thread has read or written (see [`catalog_entries_touched`]).
    static TOUCHED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

fn touched(n: u64) {
    TOUCHED.with(|t| t.set(t.get() + n));
}

/// How many catalog entries this thread has read or written through the store so far: a
/// deterministic measure of what an operation costs, for tests that check that it does not
/// grow with the age of the file (differences between two calls count one operation).
#[doc(hidden)]
pub fn catalog_entries_touched() -> u64 {
    TOUCHED.with(std::cell::Cell::get)
}

/// The largest blob stored as one value; longer ones are stored in parts of this size.
/// redb gives a value larger than a page a run of pages rounded up to a power of two (a
/// 9 MB doc-values blob took 16 MB), while a part and its leaf's overhead (about 12
/// bytes and the key) fill one 32 KiB page.
pub const BLOB_PART: usize = 32 * 1024 - 64;

/// The key of part `i` of blob `key`: `{key}#{i:08}`, so that a blob's parts are one key
/// range in order (blob names hold no `#`).
fn blob_part_key(key: &str, i: usize) -> String {
    format!("{key}#{i:08}")
}

/// The key range holding every part of blob `key`.
fn blob_part_range(key: &str) -> (String, String) {
    (format!("{key}#"), format!("{key}$"))
}

/// The `meta` key of the catalog version: a counter raised by every write transaction
/// that changes an index entry or an alias, so a reader that has parsed the catalog
/// once knows from one small read whether it must parse it again.
const CATALOG_VERSION: &str = "catalog_version";

/// Raises the catalog version inside a file's write transaction.
#[cfg(not(target_arch = "wasm32"))]
fn bump_catalog_version(txn: &mut redb::WriteTransaction) -> Result<()> {
    let mut table = txn.open_table(Catalog::Meta.def()).map_err(storage)?;
    let current = table.get(CATALOG_VERSION).map_err(storage)?.map(|v| parse_version(v.value())).unwrap_or(0);
    table.insert(CATALOG_VERSION, (current + 1).to_string().as_bytes()).map_err(storage)?;
    Ok(())
}

fn parse_version(bytes: &[u8]) -> u64 {
    std::str::from_utf8(bytes).ok().and_then(|s| s.parse().ok()).unwrap_or(0)
}

/// On wasm32 there is no file to write: the type of the transaction a file would give, of
/// which no value exists, so the browser module carries none of redb's write paths.
#[cfg(target_arch = "wasm32")]
enum Never {}

#[cfg(target_arch = "wasm32")]
impl Never {
    fn open_table<K: redb::Key + 'static, V: redb::Value + 'static>(
        &mut self,
        _: TableDefinition<K, V>,
    ) -> std::result::Result<NeverTable, Error> {
        match *self {}
    }

    fn delete_table<K: redb::Key + 'static, V: redb::Value + 'static>(
        &mut self,
        _: TableDefinition<K, V>,
    ) -> std::result::Result<bool, Error> {
        match *self {}
    }
}

#[cfg(target_arch = "wasm32")]
enum NeverTable {}

#[cfg(target_arch = "wasm32")]
impl NeverTable {
    fn insert<K, V>(&mut self, _: K, _: V) -> std::result::Result<(), Error> {
        match *self {}
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn compaction_waits_for_a_reader_in_another_handle() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.redb");
        let mut writer = Store::open(&path, true).unwrap();
        let reader = Store::open(&path, false).unwrap();
        let snapshot = reader.read().unwrap();
        assert_eq!(writer.compact().unwrap(), Compaction::Busy);
        drop(snapshot);
        assert_eq!(writer.compact().unwrap(), Compaction::Done);
    }

    #[test]
    fn a_bookkeeping_write_waits_for_the_lock_on_its_own_thread() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.redb");
        let mut store = Store::open(&path, true).unwrap();
        let put = |value: &'static [u8]| -> Job { Box::new(move |w| w.put(Catalog::Scrolls, "k", value)) };
        // The lock is free: the job runs at once.
        assert!(store.write_or_defer(put(b"1")).unwrap());
        // Another handle holds it (a load in another process): the job waits, the caller
        // does not; jobs queued meanwhile commit together once the lock frees.
        let other = redb::Builder::new().set_concurrency_mode(redb::ConcurrencyMode::MultiWriter).open(&path).unwrap();
        let held = other.begin_write().unwrap();
        assert!(!store.write_or_defer(put(b"2")).unwrap());
        assert!(!store.write_or_defer(put(b"3")).unwrap());
        assert_eq!(store.read().unwrap().get(Catalog::Scrolls, "k").unwrap().unwrap(), b"1");
        drop(held);
        store.flush_deferred();
        assert_eq!(store.read().unwrap().get(Catalog::Scrolls, "k").unwrap().unwrap(), b"3");
        // The writer let the file go when it was done.
        drop(other);
        assert_eq!(store.compact().unwrap(), Compaction::Done);
    }

    #[test]
    fn blobs_over_a_page_come_back_whole_from_their_parts() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.redb");
        let store = Store::open(&path, true).unwrap();
        let big: Vec<u8> = (0..3 * BLOB_PART + 17).map(|i| (i * 7 % 251) as u8).collect();
        let page: Vec<u8> = vec![9; BLOB_PART];
        let mut txn = store.write().unwrap();
        // Neighbours whose names extend each other: "fst/1" must not take "fst/10"'s parts.
        txn.gen_put_blob(5, "fst/1", &big).unwrap();
        txn.gen_put_blob(5, "fst/10", &page).unwrap();
        txn.gen_put_blob(5, "fst/11", &big[..BLOB_PART + 1]).unwrap();
        txn.gen_put_blob(5, "norms/1", b"").unwrap();
        txn.commit().unwrap();
        let snap = store.read().unwrap();
        assert_eq!(snap.gen_blob(5, "fst/1").unwrap().unwrap(), big);
        assert_eq!(snap.gen_blob(5, "fst/10").unwrap().unwrap(), page);
        assert_eq!(snap.gen_blob(5, "fst/11").unwrap().unwrap(), &big[..BLOB_PART + 1]);
        assert_eq!(snap.gen_blob(5, "norms/1").unwrap().unwrap(), b"");
        assert_eq!(snap.gen_blob(5, "fst/2").unwrap(), None);
        assert_eq!(snap.gen_blob(6, "fst/1").unwrap(), None);
    }
}
