//! metagate side by side with tantivy and SQLite FTS5 on the same generated registry
//! corpus: build each engine in turn, time the query classes, run the HTTP load, and
//! write the table and chart into BENCHMARKS.md.
//!
//! ```sh
//! cargo run --release --manifest-path benches/compare/Cargo.toml -- --docs 100000,1000000
//! ```
//!
//! Each engine is built and searched in its own child process (this binary with
//! `--worker`), one after another: peak RSS is then the engine's own, and a million-document
//! build never shares memory with another engine's.

mod chart;
mod codecs;
mod corpus;
mod engines;
mod http;
mod measure;
mod queries;
mod report;

use corpus::Corpus;
use engines::ENGINES;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Command-line options.
struct Args {
    docs: Vec<u64>,
    engines: Vec<String>,
    data: PathBuf,
    http: bool,
    http_secs: u64,
    write: bool,
    report_only: bool,
    keep: bool,
    worker: Option<String>,
    class: String,
    secs: u64,
    /// A fixed number of operations for the loop (instead of `secs`), for instruction
    /// counts under callgrind.
    ops: u64,
}

fn usage() -> ! {
    eprintln!(
        "usage: metagate-compare [--docs 100000,1000000] [--engines metagate,tantivy,fts5] [--data DIR]
                         [--no-http] [--http-secs 15] [--no-write] [--report-only] [--keep]
       metagate-compare --worker loop --engines E --docs N --data DIR/N --class Q5 [--secs 10 | --ops N]
         (one class in a loop on a kept index, to run under a profiler; --ops: a fixed count)
       metagate-compare --worker codecs --docs N
         (the doc store's block codecs: LZ4 and zstd, size and decompression speed)"
    );
    std::process::exit(2)
}

fn parse_args() -> Args {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut a = Args {
        docs: vec![100_000, 1_000_000],
        engines: ENGINES.iter().map(|s| s.to_string()).collect(),
        data: here.join("target/data"),
        http: true,
        http_secs: 15,
        write: true,
        report_only: false,
        keep: false,
        worker: None,
        class: "Q2".into(),
        secs: 10,
        ops: 0,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut val = || it.next().unwrap_or_else(|| usage());
        match arg.as_str() {
            "--docs" => {
                a.docs = val().split(',').map(|v| v.replace('_', "").parse().unwrap_or_else(|_| usage())).collect()
            }
            "--engines" => a.engines = val().split(',').map(str::to_string).collect(),
            "--data" => a.data = PathBuf::from(val()),
            "--no-http" => a.http = false,
            "--http-secs" => a.http_secs = val().parse().unwrap_or_else(|_| usage()),
            "--no-write" => a.write = false,
            "--report-only" => a.report_only = true,
            "--keep" => a.keep = true,
            "--worker" => a.worker = Some(val()),
            "--class" => a.class = val(),
            "--secs" => a.secs = val().parse().unwrap_or_else(|_| usage()),
            "--ops" => a.ops = val().parse().unwrap_or_else(|_| usage()),
            _ => usage(),
        }
    }
    a
}

/// Where the results of the last run are kept (the report can be rewritten from them).
fn results_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("results.json")
}

fn main() {
    let args = parse_args();
    if let Some(phase) = &args.worker {
        worker(phase, &args);
        return;
    }
    let results = if args.report_only {
        serde_json::from_str(&std::fs::read_to_string(results_path()).expect("results.json")).expect("results JSON")
    } else {
        run_all(&args)
    };
    let md = report::markdown(&results);
    println!("{md}");
    let svg = chart::svg(&results);
    std::fs::write(Path::new(env!("CARGO_MANIFEST_DIR")).join("latency.svg"), svg).expect("write latency.svg");
    if args.write {
        report::splice_into(&http::repo_root().join("BENCHMARKS.md"), &md).expect("write BENCHMARKS.md");
        eprintln!("BENCHMARKS.md and benches/compare/latency.svg written");
    }
}

/// Every size, every engine, then the HTTP run; results saved after each step.
fn run_all(args: &Args) -> Value {
    let mut results = json!({"runs": [], "started": now_utc(), "metagate_rev": metagate_rev(),
               "cpus": std::thread::available_parallelism().map_or(0, |n| n.get())});
    for &n in &args.docs {
        let dir = args.data.join(n.to_string());
        std::fs::create_dir_all(&dir).expect("data dir");
        let corpus = Corpus::new();
        let mut run = json!({"docs": n, "generator_docs_per_s": generator_rate(&corpus, n.min(20_000)), "engines": {}});
        for e in &args.engines {
            eprintln!("[{n}] {e}: building");
            let build = spawn_worker("build", e, n, &dir);
            eprintln!("[{n}] {e}: built in {:.1} s; searching", build["build_secs"].as_f64().unwrap_or(0.0));
            let search = spawn_worker("search", e, n, &dir);
            run["engines"][e] = json!({"build": build, "search": search});
            if e != "metagate" && !args.keep {
                let _ = std::fs::remove_dir_all(dir.join("tantivy"));
                let _ = std::fs::remove_file(dir.join("fts5.sqlite"));
            }
        }
        if args.http && args.engines.iter().any(|e| e == "metagate") {
            eprintln!("[{n}] HTTP load run ({} s)", args.http_secs);
            let classes = queries::classes(&corpus, n);
            run["http"] = http::run(&dir.join("metagate.redb"), &classes, 4, args.http_secs).unwrap_or(Value::Null);
        }
        if !args.keep {
            let _ = std::fs::remove_file(dir.join("metagate.redb"));
        }
        results["runs"].as_array_mut().expect("runs").push(run);
        std::fs::write(results_path(), serde_json::to_string_pretty(&results).expect("JSON")).expect("results.json");
    }
    results
}

/// Records per second the generator alone produces (flattened, as the peers take them),
/// so build rates can be read net of it.
fn generator_rate(corpus: &Corpus, k: u64) -> f64 {
    let t = Instant::now();
    for i in 0..k {
        std::hint::black_box(corpus.flat(i));
    }
    k as f64 / t.elapsed().as_secs_f64()
}

/// Runs a phase of one engine in a child process and returns the JSON it prints.
fn spawn_worker(phase: &str, engine: &str, n: u64, dir: &Path) -> Value {
    let exe = std::env::current_exe().expect("current exe");
    let out = Command::new(exe)
        .args(["--worker", phase, "--engines", engine, "--docs", &n.to_string(), "--data"])
        .arg(dir)
        .stderr(std::process::Stdio::inherit())
        .output()
        .expect("spawn worker");
    assert!(out.status.success(), "{engine} {phase} worker failed");
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.lines().last().unwrap_or_default()).expect("worker JSON")
}

/// One phase of one engine (in a child process): prints one JSON line.
fn worker(phase: &str, args: &Args) {
    let engine = args.engines[0].as_str();
    let n = args.docs[0];
    let dir = &args.data;
    let corpus = Corpus::new();
    let load = measure::loadavg();
    let out = match phase {
        "build" => {
            let t = Instant::now();
            let bytes = engines::build(engine, &corpus, n, dir);
            let secs = t.elapsed().as_secs_f64();
            json!({"build_secs": secs, "docs_per_s": n as f64 / secs, "bytes": bytes,
                   "peak_rss_kb": measure::status_kb("VmHWM:"), "load": format!("{load} → {}", measure::loadavg())})
        }
        "search" => {
            let classes = queries::classes(&corpus, n);
            let t = Instant::now();
            let s = engines::open(engine, dir);
            // Ready means answering: the first Q1 (one term lookup and one fetch) is included.
            std::hint::black_box(s.run(&classes[0].variants[0]));
            let open_ms = t.elapsed().as_secs_f64() * 1e3;
            let rss_open = measure::status_kb("VmRSS:");
            let mut per_class = json!({});
            for c in &classes {
                eprintln!("  {engine} {}", c.id);
                per_class[c.id] = measure::class(s.as_ref(), c, n);
            }
            // tantivy's top hits without a count: the scored classes' speed anchor.
            let mut top_docs_only = json!({});
            if engine == "tantivy" {
                let top = engines::tv::Tv::open_top_docs_only(dir);
                for c in classes.iter().filter(|c| queries::scored_top_hits(c.id)) {
                    eprintln!("  tantivy TopDocs only {}", c.id);
                    top_docs_only[c.id] = measure::class(&top, c, n);
                }
            }
            let pick = |id: &str| classes.iter().find(|c| c.id == id).map(|c| c.variants.clone()).unwrap_or_default();
            let mix: Vec<queries::Query> = pick("Q2").into_iter().zip(pick("Q6")).flat_map(|(a, b)| [a, b]).collect();
            let one = measure::throughput(s.as_ref(), &mix, 1);
            let two = measure::throughput(s.as_ref(), &mix, 2);
            json!({"open_ms": open_ms, "rss_open_kb": rss_open, "classes": per_class,
                   "classes_top_docs_only": top_docs_only,
                   "mix_qps_1": one.0, "mix_qps_2": two.0, "mix_cpus_1": one.1, "mix_cpus_2": two.1,
                   "peak_rss_kb": measure::status_kb("VmHWM:"), "load": format!("{load} → {}", measure::loadavg())})
        }
        "codecs" => codecs::run(&corpus, n),
        "loop" => {
            let classes = queries::classes(&corpus, n);
            let class = classes.iter().find(|c| c.id == args.class).unwrap_or_else(|| usage());
            let s = engines::open(engine, dir);
            let t = Instant::now();
            let mut ops = 0u64;
            let more = |ops: u64| if args.ops > 0 { ops < args.ops } else { t.elapsed().as_secs() < args.secs };
            while more(ops) {
                if class.id == queries::SCROLL {
                    s.scroll(1000, &mut |_| ops += 1);
                } else {
                    std::hint::black_box(s.run(&class.variants[ops as usize % class.variants.len()]));
                    ops += 1;
                }
            }
            json!({"class": class.id, "ops": ops, "secs": t.elapsed().as_secs_f64()})
        }
        _ => usage(),
    };
    println!("{out}");
}

/// The metagate revision measured (`git describe --always --dirty` of the repository).
fn metagate_rev() -> String {
    Command::new("git")
        .args(["describe", "--always", "--dirty"])
        .current_dir(http::repo_root())
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

/// The current UTC time, `YYYY-MM-DD HH:MM` (from `date`, to keep dependencies few).
fn now_utc() -> String {
    Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}
