//! The `metagate` command line: serve, load, alias, indices, search, keys, demo.
#![allow(clippy::result_large_err)]

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use metagate::cluster::{Cluster, ClusterConfig};
use metagate::compat::Flavor;
use metagate::export::to_cluster::SendOptions;
use metagate::gateway::call::Call;
use metagate::gateway::percent_encode;
use metagate::gateway::{Gateway, GatewayConfig};
use metagate::Family;
use metagate::LoadOptions;
use metagate::{AliasAction, AliasOptions, Compaction, Engine};
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Default file of the demo server.
const DEMO_FILE: &str = "metagate-demo.redb";
/// The smaller demo file the browser page opens (built beside [`DEMO_FILE`]).
const WEB_DEMO_FILE: &str = "metagate-demo-web.redb";

/// `--version`: the crate's version and the file format it reads and writes.
fn version_text() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| format!("{} (file format {})", metagate::VERSION, metagate::FORMAT_VERSION))
}

#[derive(Parser)]
#[command(name = "metagate", version = version_text(), about = "Search research metadata from one file with the Elasticsearch 6.8 API")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// What `serve` allows requests (see `metagate::http::ServeOptions`).
#[derive(clap::Args)]
struct ServeLimits {
    /// Bytes of request bodies being read or answered at once, all clients together
    /// (ES's in_flight_requests breaker: 429 past it); bytes or e.g. 256m.
    #[arg(long, default_value = "256m", value_parser = parse_memory)]
    max_in_flight_bytes: usize,
    /// Requests waiting for a worker at most (429 past it, as ES's search queue).
    #[arg(long, default_value_t = 1000)]
    queue_size: usize,
    /// Workers one API key may hold at once (default: half of --threads, rounded up).
    #[arg(long)]
    key_share: Option<usize>,
    /// Seconds a request may run (a search's own timeout may shorten it).
    #[arg(long, default_value_t = 30.0)]
    max_request_time: f64,
    /// Bytes one request may build: hits, buckets, answers (429 past it); e.g. 256m.
    #[arg(long, default_value = "256m", value_parser = parse_memory)]
    max_request_bytes: usize,
    /// Bytes all requests being answered may build together; e.g. 1g.
    #[arg(long, default_value = "1g", value_parser = parse_memory)]
    max_total_bytes: usize,
}

impl ServeLimits {
    /// The server's options: these limits, `bind` and `threads`, the rest at their defaults.
    fn options(&self, bind: &str, threads: usize) -> metagate::Result<metagate::http::ServeOptions> {
        if !(self.max_request_time.is_finite() && self.max_request_time > 0.0) {
            return Err(metagate::Error::illegal_argument(format!(
                "--max-request-time [{}] must be a positive number of seconds",
                self.max_request_time
            )));
        }
        if self.queue_size == 0 || self.key_share == Some(0) {
            return Err(metagate::Error::illegal_argument("--queue-size and --key-share must be at least 1"));
        }
        Ok(metagate::http::ServeOptions {
            bind: bind.to_string(),
            threads,
            max_in_flight_bytes: self.max_in_flight_bytes,
            queue_size: self.queue_size,
            key_share: self.key_share,
            max_request_time: std::time::Duration::from_secs_f64(self.max_request_time),
            max_request_bytes: self.max_request_bytes,
            max_total_bytes: self.max_total_bytes,
            ..Default::default()
        })
    }
}

#[derive(Subcommand)]
enum Command {
    /// Serve a file over HTTP (with no --file: the embedded demo, built on first run).
    Serve {
        /// The metagate file.
        #[arg(long)]
        file: Option<PathBuf>,
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1:9200")]
        bind: String,
        /// Worker threads.
        #[arg(long, default_value_t = 4)]
        threads: usize,
        /// Requests per second allowed per API key (0: unlimited).
        #[arg(long, default_value_t = 10.0)]
        rate_limit: f64,
        /// Directory of the page served at /demo/ (default: wasm/www of the source tree).
        #[arg(long)]
        demo_dir: Option<PathBuf>,
        /// The file the /demo/ page opens in the browser (default: the browser demo file,
        /// built on first run, when serving the demo).
        #[arg(long)]
        demo_file: Option<PathBuf>,
        /// Answer searches, scrolls and _cat/aliases from this Elasticsearch or OpenSearch
        /// cluster (http(s)://host:port[/prefix]); --file then holds only the API keys.
        #[arg(long, requires = "file")]
        upstream: Option<String>,
        /// A header sent with every request to the upstream cluster, e.g.
        /// 'Authorization: Basic dXNlcjpwYXNz' (repeatable).
        #[arg(long = "upstream-header", requires = "upstream")]
        upstream_headers: Vec<String>,
        /// Seconds the upstream cluster has for one request.
        #[arg(long, default_value_t = 60.0, requires = "upstream")]
        upstream_timeout: f64,
        /// Do not write each key's last use (`last_used_ms`) to the file: requests then
        /// write no key data (see README, "What the server writes").
        #[arg(long)]
        no_key_bookkeeping: bool,
        /// Let scripts use regexes (ES's `script.painless.regex.enabled: true`).
        #[arg(long)]
        script_regex: bool,
        #[command(flatten)]
        limits: ServeLimits,
    },
    /// Manage API keys.
    Keys {
        /// The metagate file.
        #[arg(long, global = true, default_value = DEMO_FILE)]
        file: PathBuf,
        #[command(subcommand)]
        action: KeysCommand,
    },
    /// Load NDJSON (ES _bulk or plain JSON lines, gzip accepted) into a new index.
    Load {
        /// The metagate file (created when missing).
        #[arg(long, default_value = "metagate.redb")]
        file: PathBuf,
        /// Name of the new concrete index.
        #[arg(long)]
        index: String,
        /// Point this alias at the new index in the same transaction.
        #[arg(long)]
        alias: Option<String>,
        /// Mapping template family: registry, lexicon or dataset.
        #[arg(long)]
        family: Option<String>,
        /// ES 6.8 create-index body (JSON file): `settings` (analysis, similarity,
        /// index limits), `mappings` under their type name, `aliases`.
        #[arg(long)]
        create_body: Option<PathBuf>,
        /// Configuration folder the body's settings read files from (`synonyms_path`),
        /// as ES reads them from its node's config folder.
        #[arg(long = "config", value_name = "DIR")]
        config: Option<PathBuf>,
        /// ES mapping JSON file (merged over the family template and the body's mapping).
        #[arg(long)]
        mapping: Option<PathBuf>,
        /// For plain JSON lines: the field holding _id.
        #[arg(long)]
        id_field: Option<String>,
        /// _type for documents that do not name one.
        #[arg(long, default_value = "_doc")]
        doc_type: String,
        /// Bad lines tolerated before the load aborts.
        #[arg(long, default_value_t = 0)]
        max_errors: usize,
        /// index.max_result_window of the new index (10000 unless the body sets it).
        #[arg(long)]
        max_result_window: Option<u64>,
        /// Replace an existing index of the same name.
        #[arg(long)]
        replace: bool,
        /// Memory for building a segment before it is spilled to a temporary file and
        /// merged at the end: bytes, or with a k, m or g suffix (e.g. 256m).
        #[arg(long, default_value = "256m", value_parser = parse_memory)]
        memory: usize,
        /// Leave the file's free pages inside it (by default the file is compacted after
        /// the load; see `metagate compact`).
        #[arg(long)]
        no_compact: bool,
        /// Input file ("-" or absent: standard input).
        input: Option<PathBuf>,
    },
    /// Manage aliases.
    Alias {
        /// The metagate file.
        #[arg(long, global = true, default_value = "metagate.redb")]
        file: PathBuf,
        #[command(subcommand)]
        action: AliasCommand,
    },
    /// List indices with document counts and sizes.
    Indices {
        /// The metagate file.
        #[arg(long, default_value = "metagate.redb")]
        file: PathBuf,
    },
    /// Delete a concrete index (and compact the file).
    DeleteIndex {
        /// The metagate file.
        #[arg(long, default_value = "metagate.redb")]
        file: PathBuf,
        /// Leave the freed pages inside the file.
        #[arg(long)]
        no_compact: bool,
        /// Index name.
        index: String,
    },
    /// Give the file's free pages back to the file system. It needs the file to itself:
    /// while a server or another command has it open mid-transaction, it fails and
    /// changes nothing.
    Compact {
        /// The metagate file.
        #[arg(long, default_value = "metagate.redb")]
        file: PathBuf,
    },
    /// Run one search and print the ES response.
    Search {
        /// The metagate file.
        #[arg(long, default_value = "metagate.redb")]
        file: PathBuf,
        /// Index expression (alias, name, list, wildcard).
        index: String,
        /// JSON body ("-" reads standard input).
        #[arg(long)]
        body: Option<String>,
        /// URI-style query string (q=...).
        #[arg(short, long)]
        q: Option<String>,
        /// Pretty-print.
        #[arg(long)]
        pretty: bool,
    },
    /// Generate N synthetic registry tool records (ES bulk NDJSON) shaped like the demo's.
    Gen {
        /// Number of records.
        #[arg(short, long, default_value_t = 100_000)]
        n: u64,
        /// Random seed (same seed, same corpus).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output file (default: standard output).
        #[arg(short, long)]
        out: Option<PathBuf>,
    },
    /// Export an index or alias for Elasticsearch/OpenSearch: mapping and settings,
    /// _bulk NDJSON and alias actions into a directory (--out), or sent to a cluster (--to).
    Export {
        /// The metagate file.
        #[arg(long, default_value = "metagate.redb")]
        file: PathBuf,
        /// Index name or alias (comma lists and wildcards too).
        #[arg(long)]
        index: String,
        /// Directory to write into (created when missing).
        #[arg(long, required_unless_present = "to", conflicts_with = "to")]
        out: Option<PathBuf>,
        /// Gzip the _bulk files.
        #[arg(long, requires = "out")]
        gzip: bool,
        /// Send to this cluster instead (http(s)://host:port[/prefix]).
        #[arg(long)]
        to: Option<String>,
        /// A header sent with every request to the cluster, e.g.
        /// 'Authorization: Basic dXNlcjpwYXNz' (repeatable).
        #[arg(long = "header", requires = "to")]
        headers: Vec<String>,
        /// The cluster the export is for: es6, es7, es8 or opensearch (default: es6 for
        /// files; with --to, what the cluster says it is).
        #[arg(long)]
        target: Option<String>,
        /// Documents per _bulk request (with --to).
        #[arg(long, default_value_t = 1_000)]
        batch: usize,
        /// Seconds the cluster has for one request (with --to).
        #[arg(long, default_value_t = 120.0)]
        timeout: f64,
    },
    /// Import one index of an Elasticsearch 6.x/7.x/8.x or OpenSearch 1/2 cluster (settings,
    /// mapping, aliases and documents) into the file as one new index: the inverse of
    /// `export --to`.
    Import {
        /// The metagate file (created when missing).
        #[arg(long, default_value = "metagate.redb")]
        file: PathBuf,
        /// The cluster (http(s)://[user:pass@]host:port[/prefix]).
        #[arg(long)]
        from: String,
        /// The index (or an alias of one index) on the cluster.
        #[arg(long)]
        index: String,
        /// Name of the new index in the file (default: the cluster's index name).
        #[arg(long = "as")]
        as_name: Option<String>,
        /// A header sent with every request to the cluster, e.g.
        /// 'Authorization: Basic dXNlcjpwYXNz' (repeatable; never printed or stored).
        #[arg(long = "header")]
        headers: Vec<String>,
        /// Documents per scroll page.
        #[arg(long, default_value_t = 1_000)]
        page: usize,
        /// Slices of a sliced scroll read at once (faster on a cluster of several
        /// shards; documents then arrive in no fixed order, which orders ties).
        #[arg(long, default_value_t = 1)]
        slices: usize,
        /// Seconds the cluster has for one request.
        #[arg(long, default_value_t = 120.0)]
        timeout: f64,
        /// Replace an index of the same name in the file.
        #[arg(long)]
        replace: bool,
        /// Leave the file's free pages inside it (by default the file is compacted after
        /// the import; see `metagate compact`).
        #[arg(long)]
        no_compact: bool,
    },
    /// Print the tokens an analyzer makes of each line of standard input (a JSON string,
    /// or plain text), one JSON array per line, as the index and the queries see them.
    Analyze {
        /// The analyzer: standard, simple, whitespace or keyword.
        #[arg(long, default_value = "standard")]
        analyzer: String,
        /// An `_analyze` request body (JSON): print ES's `_analyze` answer to it instead
        /// of reading lines.
        #[arg(long)]
        body: Option<String>,
        /// The file whose index `--index` names (with --body).
        #[arg(long, requires = "index")]
        file: Option<PathBuf>,
        /// Analyse on this index: its fields (`field`) and normalizers (with --body).
        #[arg(long, requires = "file")]
        index: Option<String>,
    },
    /// Build the embedded demo corpus into a file.
    Demo {
        /// Target file (default: metagate-demo.redb, or metagate-demo-web.redb with --web).
        #[arg(long)]
        file: Option<PathBuf>,
        /// Build the browser demo: the first --per-index records of each index.
        #[arg(long)]
        web: bool,
        /// Records per index of the browser demo.
        #[arg(long, default_value_t = metagate::demo::WEB_RECORDS_PER_INDEX)]
        per_index: usize,
    },
}

#[derive(Subcommand)]
enum KeysCommand {
    /// Create a key: prints it once; only a salted hash is stored.
    Add { name: String },
    /// List keys (name, created, last used).
    List,
    /// Revoke a key (effective immediately, also for running servers).
    Revoke { name: String },
}

#[derive(Subcommand)]
enum AliasCommand {
    /// List aliases.
    List,
    /// Point ALIAS (also) at INDEX, optionally with a filter and routing values.
    Add {
        alias: String,
        index: String,
        /// A query (JSON) every search through the alias is filtered with.
        #[arg(long)]
        filter: Option<String>,
        /// Index and search routing.
        #[arg(long)]
        routing: Option<String>,
        /// Index routing (over --routing).
        #[arg(long)]
        index_routing: Option<String>,
        /// Search routing (over --routing).
        #[arg(long)]
        search_routing: Option<String>,
    },
    /// Stop pointing ALIAS at INDEX.
    Remove { alias: String, index: String },
    /// Point ALIAS at INDEX only, atomically.
    Swap { alias: String, index: String },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Opens the demo file, building it first when missing; `web`: the browser subset with
/// that many records per index.
fn demo_engine(path: &std::path::Path, web: Option<usize>) -> metagate::Result<Engine> {
    let started = Instant::now();
    let mut announced = false;
    let mut progress = |idx: &metagate::demo::DemoIndex, n: usize, total: usize| {
        if !announced {
            eprintln!("building the demo corpus into {} (first run)...", path.display());
            announced = true;
        }
        let docs = web.map_or(idx.docs, |w| idx.docs.min(w as u64));
        eprintln!("  [{}/{}] {} ({} records) -> {}", n + 1, total, idx.index, docs, idx.aliases.join(", "));
    };
    let engine = match web {
        Some(n) => metagate::demo::open_or_build_web(path, n, &mut progress)?,
        None => metagate::demo::open_or_build(path, &mut progress)?,
    };
    if announced {
        eprintln!("demo built in {:.1}s", started.elapsed().as_secs_f64());
    }
    Ok(engine)
}

fn run(cmd: Command) -> metagate::Result<()> {
    match cmd {
        Command::Serve {
            file,
            bind,
            threads,
            rate_limit,
            demo_dir,
            demo_file,
            upstream,
            upstream_headers,
            upstream_timeout,
            no_key_bookkeeping,
            script_regex,
            limits,
        } => {
            let record_key_use = !no_key_bookkeeping;
            let opts = limits.options(&bind, threads)?;
            if let (Some(url), Some(keys)) = (upstream, &file) {
                let cluster = cluster(&url, &upstream_headers, upstream_timeout)?;
                return serve_upstream(Engine::open(keys)?, cluster, opts, rate_limit, record_key_use);
            }
            let (engine, is_demo) = match &file {
                Some(f) => (Engine::open(f)?, false),
                None => (demo_engine(std::path::Path::new(DEMO_FILE), None)?, true),
            };
            engine.set_script_regex(script_regex);
            let demo_file = match demo_file {
                Some(f) => Some(f),
                None if is_demo => {
                    let web = PathBuf::from(WEB_DEMO_FILE);
                    demo_engine(&web, Some(metagate::demo::WEB_RECORDS_PER_INDEX))?;
                    Some(web)
                }
                None => None,
            };
            let page = demo_page(demo_dir, demo_file);
            serve(engine, metagate::http::ServeOptions { demo: page, ..opts }, rate_limit, is_demo, record_key_use)
        }
        Command::Keys { file, action } => {
            let engine = Engine::open_or_create(&file)?;
            match action {
                KeysCommand::Add { name } => {
                    let key = metagate::gateway::keys::add(&engine, &name)?;
                    println!("{key}");
                    eprintln!("key [{name}] created; it is shown only now");
                }
                KeysCommand::List => {
                    println!("{:<24} {:<25} last used", "name", "created");
                    for k in metagate::gateway::keys::list(&engine)? {
                        println!("{:<24} {:<25} {}", k.name, fmt_ms(Some(k.created_ms)), fmt_ms(k.last_used_ms));
                    }
                }
                KeysCommand::Revoke { name } => {
                    if !metagate::gateway::keys::revoke(&engine, &name)? {
                        return Err(metagate::Error::illegal_argument(format!("no key named [{name}]")));
                    }
                    eprintln!("key [{name}] revoked");
                }
            }
            Ok(())
        }
        Command::Load {
            file,
            index,
            alias,
            family,
            create_body,
            config,
            mapping,
            id_field,
            doc_type,
            max_errors,
            max_result_window,
            replace,
            memory,
            no_compact,
            input,
        } => {
            let mut engine = Engine::open_or_create(&file)?;
            let family = family.as_deref().map(Family::from_name).transpose()?;
            let read_json = |p: Option<PathBuf>, what: &str| -> Result<Option<serde_json::Value>, metagate::Error> {
                let Some(p) = p else { return Ok(None) };
                serde_json::from_slice(&std::fs::read(&p)?)
                    .map(Some)
                    .map_err(|e| metagate::Error::illegal_argument(format!("{what} file {}: {e}", p.display())))
            };
            let opts = LoadOptions {
                id_field,
                doc_type,
                alias,
                family,
                create_body: read_json(create_body, "create-index body")?,
                mapping: read_json(mapping, "mapping")?,
                max_errors,
                max_result_window,
                replace,
                memory,
                config_dir: config,
            };
            let (reader, total): (Box<dyn Read>, Option<u64>) = match input.as_ref().filter(|p| p.as_os_str() != "-") {
                Some(p) => {
                    let f = std::fs::File::open(p)?;
                    let len = f.metadata().ok().map(|m| m.len());
                    (Box::new(f), len)
                }
                None => (Box::new(std::io::stdin()), None),
            };
            let bar = if std::io::stderr().is_terminal() {
                let b = match total {
                    Some(t) => ProgressBar::new(t),
                    None => ProgressBar::new_spinner(),
                };
                b.set_style(
                    ProgressStyle::with_template(
                        "{spinner} [{elapsed_precise}] {bar:30} {bytes}/{total_bytes} {msg} (eta {eta})",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
                );
                Some(b)
            } else {
                None
            };
            let started = Instant::now();
            let counting =
                CountingReader { inner: reader, count: std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0)) };
            let counter = counting.count.clone();
            let report = engine.load(&index, counting, &opts, &mut |_, docs| {
                if let Some(b) = &bar {
                    b.set_position(counter.load(std::sync::atomic::Ordering::Relaxed));
                    let secs = started.elapsed().as_secs_f64().max(1e-3);
                    let rss = resident_bytes().map(|b| format!(", {} MiB in use", b >> 20)).unwrap_or_default();
                    b.set_message(format!("{docs} docs, {:.0} docs/s{rss}", docs as f64 / secs));
                }
            })?;
            if let Some(b) = bar {
                b.finish_and_clear();
            }
            let secs = started.elapsed().as_secs_f64();
            for e in &report.errors {
                eprintln!("line {}: {}", e.line, e.reason);
            }
            println!(
                "loaded {} documents into [{index}] in {:.2}s ({:.0} docs/s), {} bytes{}{}",
                report.docs,
                secs,
                report.docs as f64 / secs.max(1e-9),
                report.size_bytes,
                if report.errors.is_empty() {
                    String::new()
                } else {
                    format!(", {} bad line(s) skipped", report.errors.len())
                },
                opts.alias.as_ref().map(|a| format!(", alias [{a}] -> [{index}]")).unwrap_or_default()
            );
            if !no_compact {
                compact_after_change(&mut engine, &file)?;
            }
            Ok(())
        }
        Command::Alias { file, action } => {
            let engine = Engine::open(&file)?;
            match action {
                AliasCommand::List => {
                    for (a, i) in engine.aliases()? {
                        println!("{a} {i}");
                    }
                    Ok(())
                }
                AliasCommand::Add { alias, index, filter, routing, index_routing, search_routing } => {
                    let filter = match filter {
                        Some(f) => Some(
                            serde_json::from_str::<serde_json::Value>(&f)
                                .map_err(|e| metagate::Error::illegal_argument(format!("--filter is not JSON: {e}")))?,
                        ),
                        None => None,
                    };
                    // ES keeps no filter for an empty one.
                    let filter = filter.filter(|f| f.as_object().is_none_or(|o| !o.is_empty()));
                    let options = AliasOptions {
                        filter,
                        index_routing: index_routing.or_else(|| routing.clone()),
                        search_routing: search_routing.or(routing),
                        is_write_index: None,
                    };
                    let action = match options == AliasOptions::default() {
                        true => AliasAction::Add { alias, index },
                        false => AliasAction::AddWithOptions { alias, index, options },
                    };
                    engine.update_aliases(&[action])
                }
                AliasCommand::Remove { alias, index } => engine.update_aliases(&[AliasAction::Remove { alias, index }]),
                AliasCommand::Swap { alias, index } => engine.swap_alias(&alias, &index),
            }
        }
        Command::Indices { file } => {
            let engine = Engine::open(&file)?;
            println!("{:<60} {:>10} {:>12}  aliases", "index", "docs", "bytes");
            for i in engine.indices()? {
                println!("{:<60} {:>10} {:>12}  {}", i.name, i.docs, i.size_bytes, i.aliases.join(","));
            }
            Ok(())
        }
        Command::DeleteIndex { file, no_compact, index } => {
            let mut engine = Engine::open(&file)?;
            engine.delete_index(&index)?;
            if !no_compact {
                compact_after_change(&mut engine, &file)?;
            }
            Ok(())
        }
        Command::Compact { file } => {
            let mut engine = Engine::open(&file)?;
            let before = file_len(&file);
            let started = Instant::now();
            let done = engine.compact()?;
            // Closing the file records its allocator state: measure it closed.
            drop(engine);
            match done {
                Compaction::Done => {
                    println!(
                        "compacted [{}]: {} bytes -> {} bytes in {:.2}s",
                        file.display(),
                        before,
                        file_len(&file),
                        started.elapsed().as_secs_f64()
                    );
                    Ok(())
                }
                Compaction::Busy => Err(metagate::Error::storage(format!(
                    "[{}] is in use by another process (a server or a command in the middle of a \
                     transaction); compaction needs the file to itself: run it again when the file is free",
                    file.display()
                ))),
            }
        }
        Command::Search { file, index, body, q, pretty } => {
            let engine = Engine::open(&file)?;
            let body = match body.as_deref() {
                Some("-") => {
                    let mut s = String::new();
                    std::io::stdin().read_to_string(&mut s)?;
                    s
                }
                Some(b) => b.to_string(),
                None => String::new(),
            };
            let mut query: Vec<String> = q.iter().map(|q| format!("q={}", percent_encode(q))).collect();
            if pretty {
                query.push("pretty".into());
            }
            // The HTTP API's answer, asked in process.
            let gateway = Gateway::new(std::sync::Arc::new(engine), GatewayConfig::default());
            let resp = gateway.call(Call::search(&index, &query.join("&"), &body));
            let text = String::from_utf8_lossy(&resp.body);
            println!("{}", text.trim_end());
            if resp.status >= 300 {
                let reason = serde_json::from_str::<serde_json::Value>(&text)
                    .ok()
                    .and_then(|v| v.pointer("/error/reason").and_then(|r| r.as_str()).map(str::to_string))
                    .unwrap_or_default();
                return Err(metagate::Error::simple(resp.status, reason));
            }
            Ok(())
        }
        Command::Gen { n, seed, out } => {
            let model = metagate::gen::Model::from_demo()?;
            let mut w: Box<dyn std::io::Write> = match out {
                Some(p) => Box::new(std::io::BufWriter::new(std::fs::File::create(p)?)),
                None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
            };
            model.write_bulk(seed, n, &mut w)?;
            w.flush()?;
            Ok(())
        }
        Command::Export { file, index, out, gzip, to, headers, target, batch, timeout } => {
            let engine = Engine::open(&file)?;
            let export = metagate::export::Export::plan(&engine, &index)?;
            let target = match target {
                Some(t) => Some(Flavor::from_target(&t).ok_or_else(|| {
                    metagate::Error::illegal_argument(format!("unknown target [{t}]: use es6, es7, es8 or opensearch"))
                })?),
                None => None,
            };
            let bar = progress_bar(export.total_docs());
            let started = Instant::now();
            let mut progress = |docs: u64| {
                if let Some(b) = &bar {
                    b.set_position(docs);
                    b.set_message(format!("{:.0} docs/s", docs as f64 / started.elapsed().as_secs_f64().max(1e-3)));
                }
            };
            let names: Vec<&str> = export.indices().iter().map(|i| i.name.as_str()).collect();
            match (out, to) {
                (Some(dir), _) => {
                    let flavor = target.unwrap_or(Flavor::Typed);
                    let written = metagate::export::files::write_dir(&export, &dir, flavor, gzip, &mut progress)?;
                    if let Some(b) = bar {
                        b.finish_and_clear();
                    }
                    println!(
                        "exported {} documents of [{}] and {} alias(es) to {} in {:.2}s; load them with: sh {} URL",
                        written.docs,
                        names.join(", "),
                        export.aliases().len(),
                        dir.display(),
                        started.elapsed().as_secs_f64(),
                        dir.join("load.sh").display()
                    );
                }
                (None, Some(url)) => {
                    let cluster = cluster(&url, &headers, timeout)?;
                    let version = cluster.cluster_version()?;
                    let flavor = target.unwrap_or_else(|| Flavor::for_cluster(&version));
                    let opts = SendOptions { batch_docs: batch.max(1), ..Default::default() };
                    let report = metagate::export::to_cluster::send(&export, &cluster, flavor, &opts, &mut progress)?;
                    if let Some(b) = bar {
                        b.finish_and_clear();
                    }
                    println!(
                        "sent {} documents of [{}] and {} alias(es) to {} ({}) in {:.2}s: {} _bulk requests, {} retries",
                        report.docs,
                        names.join(", "),
                        report.aliases,
                        cluster.address(),
                        version.describe(),
                        started.elapsed().as_secs_f64(),
                        report.bulk_requests,
                        report.retries
                    );
                }
                (None, None) => return Err(metagate::Error::illegal_argument("give --out DIR or --to URL")),
            }
            Ok(())
        }
        Command::Import { file, from, index, as_name, headers, page, slices, timeout, replace, no_compact } => {
            let metagate::import::Address { url: address, authorization: basic, mut secrets } =
                metagate::import::credentials_from_address(&from);
            let mut opts = metagate::import::ImportOptions::new(&index);
            opts.target = as_name;
            opts.page_size = page.max(1);
            opts.slices = slices.clamp(1, 1024);
            opts.replace = replace;
            let imported = (|| {
                let mut parsed = Vec::new();
                for h in &headers {
                    // A malformed line is quoted by the parse error: it may hold a token.
                    secrets.push(h.clone());
                    let (name, value) = metagate::cluster::parse_header(h)?;
                    secrets.push(value.clone());
                    parsed.push((name, value));
                }
                if let Some(b) = basic.filter(|_| !parsed.iter().any(|(n, _)| n.eq_ignore_ascii_case("authorization")))
                {
                    parsed.push(b);
                }
                opts.secrets = secrets.clone();
                let cluster = cluster_with(&address, parsed, timeout)?;
                let mut engine = Engine::open_or_create(&file)?;
                let bar = progress_bar(0);
                let started = Instant::now();
                let report = metagate::import::import(&engine, &cluster, &opts, &mut |docs, total| {
                    if let Some(b) = &bar {
                        b.set_length(total);
                        b.set_position(docs);
                        b.set_message(format!("{:.0} docs/s", docs as f64 / started.elapsed().as_secs_f64().max(1e-3)));
                    }
                })?;
                if let Some(b) = bar {
                    b.finish_and_clear();
                }
                if !report.dropped_aliases.is_empty() {
                    eprintln!(
                        "note: aliases with a filter or routing were left out: {}",
                        report.dropped_aliases.join(", ")
                    );
                }
                if !report.dropped_settings.is_empty() {
                    eprintln!(
                        "note: settings ES 6.8 does not know were left out: {}",
                        report.dropped_settings.join(", ")
                    );
                }
                println!(
                    "imported {} documents of [{}] from {} ({}) into [{}] in {:.2}s: {} scroll pages, {} retries, {} bytes{}",
                    report.load.docs,
                    report.source,
                    cluster.address(),
                    report.version.describe(),
                    report.target,
                    started.elapsed().as_secs_f64(),
                    report.pages,
                    report.retries,
                    report.load.size_bytes,
                    match report.load.replaced {
                        0 => String::new(),
                        n => format!(", {n} documents replaced by a later one with the same _id"),
                    }
                );
                if !no_compact {
                    compact_after_change(&mut engine, &file)?;
                }
                Ok(())
            })();
            imported.map_err(|e| metagate::import::redact(e, &secrets))
        }
        Command::Analyze { body: Some(body), file, index, .. } => {
            let req = metagate::AnalyzeRequest::parse(&body)?;
            let answer = match (file, index) {
                (Some(file), Some(index)) => Engine::open(&file)?.analyze(Some(&index), &req)?,
                _ => metagate::analyze_request(&req)?,
            };
            println!("{:#}", answer.to_json());
            Ok(())
        }
        Command::Analyze { analyzer, .. } => {
            // The analyzer name is checked before any input is read.
            metagate::analyze(&analyzer, "")?;
            let stdin = std::io::stdin();
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            for line in std::io::BufRead::lines(stdin.lock()) {
                let line = line?;
                let text = match serde_json::from_str::<serde_json::Value>(&line) {
                    Ok(serde_json::Value::String(s)) => s,
                    _ => line,
                };
                let tokens = metagate::analyze(&analyzer, &text)?;
                writeln!(out, "{}", serde_json::Value::from(tokens))?;
            }
            out.flush()?;
            Ok(())
        }
        Command::Demo { file, web, per_index } => {
            let default = if web { WEB_DEMO_FILE } else { DEMO_FILE };
            let file = file.unwrap_or_else(|| PathBuf::from(default));
            demo_engine(&file, web.then_some(per_index))?;
            Ok(())
        }
    }
}

/// Compacts the file after a load or a removal; a file another process is using is left
/// as it is, with a note (the change itself is done, and the free pages are reused by the
/// next load).
fn compact_after_change(engine: &mut Engine, file: &std::path::Path) -> metagate::Result<()> {
    if engine.compact()? == Compaction::Busy {
        eprintln!(
            "note: [{}] is in use by another process, so it was not compacted; run `metagate compact --file {}` \
             when it is free",
            file.display(),
            file.display()
        );
    }
    Ok(())
}

/// The length of a file in bytes (0 when it cannot be read).
fn file_len(file: &std::path::Path) -> u64 {
    std::fs::metadata(file).map(|m| m.len()).unwrap_or(0)
}

struct CountingReader {
    inner: Box<dyn Read>,
    count: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl Read for CountingReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
        Ok(n)
    }
}

fn fmt_ms(ms: Option<i64>) -> String {
    ms.and_then(chrono::DateTime::from_timestamp_millis)
        .map(|d| d.format("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_else(|| "-".into())
}

/// The /demo/ page: its directory (the source tree's wasm/www unless given) and the file
/// it opens. `None` when there is no page directory to serve.
fn demo_page(dir: Option<PathBuf>, data: Option<PathBuf>) -> Option<metagate::http::demo_page::DemoPage> {
    let dir = dir.unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("wasm").join("www"));
    if !dir.join("index.html").is_file() {
        eprintln!("no demo page at {} (pass --demo-dir): /demo/ is off", dir.display());
        return None;
    }
    if !dir.join("pkg").join("metagate_wasm_bg.wasm").is_file() {
        eprintln!("the demo page's browser build is missing: run `bash wasm/build.sh`");
    }
    Some(metagate::http::demo_page::DemoPage::new(dir, data))
}

fn serve(
    engine: Engine,
    opts: metagate::http::ServeOptions,
    rate_limit: f64,
    is_demo: bool,
    record_key_use: bool,
) -> metagate::Result<()> {
    let bind = opts.bind.clone();
    let store_keys = metagate::gateway::keys::list(&engine)?;
    if is_demo {
        // The demo must be usable at once: create a key on first run and show it.
        let key = if store_keys.is_empty() {
            let k = metagate::gateway::keys::add(&engine, "demo")?;
            std::fs::write(format!("{DEMO_FILE}.key"), &k)?;
            k
        } else {
            std::fs::read_to_string(format!("{DEMO_FILE}.key"))
                .unwrap_or_else(|_| "<the key printed on first run>".into())
        };
        eprintln!("demo API key: {key}");
        eprintln!(
            "try:  curl -H 'apikey: {key}' 'http://{bind}/elastic/v1/RIN_Tool_pr/_search?q=alignment&size=3&pretty'"
        );
    } else if store_keys.is_empty() {
        eprintln!("no API keys in this file: create one with `metagate keys add NAME --file ...`");
    }
    if opts.demo.is_some() {
        eprintln!("demo page (searches in the browser, no key needed): http://{bind}/demo/");
    }
    let config = metagate::gateway::GatewayConfig { rate_limit, record_key_use, ..Default::default() };
    let opts = metagate::http::ServeOptions { max_body: config.max_body, ..opts };
    let gateway = std::sync::Arc::new(metagate::gateway::Gateway::new(std::sync::Arc::new(engine), config));
    eprintln!("{}", opts.describe_limits());
    eprintln!("listening on http://{bind}/elastic/v1/ with {} threads", opts.threads);
    metagate::http::serve(gateway, &opts)
}

/// A progress bar of `total` documents on a terminal (none otherwise).
fn progress_bar(total: u64) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let b = ProgressBar::new(total);
    b.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} documents, {msg} (eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    Some(b)
}

/// The cluster at `url` with `headers` ('Name: value') on every request.
fn cluster(url: &str, headers: &[String], timeout_secs: f64) -> metagate::Result<Cluster> {
    let parsed = headers.iter().map(|h| metagate::cluster::parse_header(h)).collect::<metagate::Result<Vec<_>>>()?;
    cluster_with(url, parsed, timeout_secs)
}

/// The cluster at `url` with parsed `headers` on every request.
fn cluster_with(url: &str, headers: Vec<(String, String)>, timeout_secs: f64) -> metagate::Result<Cluster> {
    let mut config = ClusterConfig::new(url);
    config.headers = headers;
    if !(timeout_secs.is_finite() && timeout_secs > 0.0) {
        return Err(metagate::Error::illegal_argument(format!(
            "timeout [{timeout_secs}] must be a positive number of seconds"
        )));
    }
    config.timeout = std::time::Duration::from_secs_f64(timeout_secs);
    Cluster::new(&config)
}

/// Serves the gateway in front of `cluster`, with the keys of `keys`.
fn serve_upstream(
    keys: Engine,
    cluster: Cluster,
    opts: metagate::http::ServeOptions,
    rate_limit: f64,
    record_key_use: bool,
) -> metagate::Result<()> {
    if metagate::gateway::keys::list(&keys)?.is_empty() {
        eprintln!("no API keys in this file: create one with `metagate keys add NAME --file ...`");
    }
    match cluster.cluster_version() {
        Ok(v) => eprintln!("upstream: {} at {}", v.describe(), cluster.address()),
        // Not fatal: the cluster may come up later; until then requests answer 502.
        Err(e) => eprintln!("upstream {} not reachable yet: {}", cluster.address(), e.reason()),
    }
    let config = metagate::gateway::GatewayConfig {
        rate_limit,
        upstream: Some(std::sync::Arc::new(cluster)),
        record_key_use,
        ..Default::default()
    };
    let opts = metagate::http::ServeOptions { max_body: config.max_body, ..opts };
    let gateway = std::sync::Arc::new(metagate::gateway::Gateway::new(std::sync::Arc::new(keys), config));
    eprintln!("{}", opts.describe_limits());
    eprintln!(
        "listening on http://{}/elastic/v1/ with {} threads, forwarding to the upstream cluster",
        opts.bind, opts.threads
    );
    metagate::http::serve(gateway, &opts)
}

/// A `--memory` value: bytes, or a number with a k, m or g suffix (binary units).
fn parse_memory(s: &str) -> std::result::Result<usize, String> {
    let t = s.trim().to_ascii_lowercase();
    let (digits, shift) = match t.strip_suffix(['k', 'm', 'g']) {
        Some(d) => (d, [10, 20, 30][["k", "m", "g"].iter().position(|u| t.ends_with(u)).unwrap_or(0)]),
        None => (t.as_str(), 0),
    };
    let n: usize = digits.trim().parse().map_err(|_| format!("[{s}] is not a size (bytes, or e.g. 512k, 256m, 2g)"))?;
    n.checked_mul(1 << shift).filter(|&b| b > 0).ok_or_else(|| format!("[{s}] is not a usable memory size"))
}

/// The process's resident memory, which the progress bar shows (Linux only).
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}
