//! Crash safety: `metagate load`, `alias swap`, `delete-index` and `compact` killed with
//! SIGKILL at random moments, the file reopened after each kill. It must open; the indices and aliases
//! it held must give the same answers, byte for byte; the next write must succeed; and a
//! killed write must leave nothing behind once the next one has run (no stray generations,
//! temporary files or growth of the file).
//!
//! The kill moments are drawn from a seeded RNG (the seed is printed; `METAGATE_SEED`
//! replays it). The suite's default is a small load; the documented run (README,
//! "Reliability") is
//! `METAGATE_BIN=target/release/metagate METAGATE_CRASH_RECORDS=200000 cargo test --test crash_safety -- --nocapture`.

mod common;
use common::cli::{env_or, gateway, gen, probe_answers, seed};
use metagate::Engine;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Records of the load that is killed (`METAGATE_CRASH_RECORDS`).
fn records() -> usize {
    env_or("METAGATE_CRASH_RECORDS", 1_000)
}

/// Kills of each kind (`METAGATE_CRASH_KILLS`).
fn kills() -> usize {
    env_or("METAGATE_CRASH_KILLS", 20)
}

/// A scratch directory for one test: the file, the inputs, and `TMPDIR` of the children
/// (so that temporary files a killed load leaves would be seen).
struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("metagate-crash-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("tmp")).unwrap();
        Scratch { dir }
    }

    fn file(&self) -> PathBuf {
        self.dir.join("data.redb")
    }

    fn f(&self) -> String {
        self.file().to_str().unwrap().to_string()
    }

    /// `metagate args...` as a child with this scratch's `TMPDIR`.
    fn spawn(&self, args: &[&str]) -> Child {
        Command::new(common::cli::bin())
            .args(args)
            .env("TMPDIR", self.dir.join("tmp"))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    /// Runs `metagate args...` to its end and fails the test unless it succeeds; returns
    /// how long it took.
    fn complete(&self, args: &[&str]) -> Duration {
        let started = Instant::now();
        let out = self.spawn(args).wait_with_output().unwrap();
        assert!(out.status.success(), "metagate {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        started.elapsed()
    }

    /// Starts `metagate args...` and kills it with SIGKILL after `delay`: `None` when the
    /// kill landed, or how long the command took when it had finished (successfully) first.
    fn kill_after(&self, args: &[&str], delay: Duration) -> Option<Duration> {
        let mut child = self.spawn(args);
        let started = Instant::now();
        // Poll rather than sleep, so that a command that ends first is noticed as such.
        while started.elapsed() < delay {
            if let Some(status) = child.try_wait().unwrap() {
                let mut err = String::new();
                std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
                assert!(status.success(), "metagate {args:?} failed before its kill: {err}");
                return Some(started.elapsed());
            }
            std::thread::sleep(Duration::from_millis(1).min(delay.saturating_sub(started.elapsed())));
        }
        child.kill().unwrap(); // SIGKILL
                               // It may have exited on its own between the last poll and the kill.
        child.wait().unwrap().success().then(|| started.elapsed())
    }

    /// Files the children left in `TMPDIR` and beside the metagate file (besides itself
    /// and the inputs).
    fn strays(&self, inputs: &[&Path]) -> Vec<String> {
        let mut out = Vec::new();
        for dir in [self.dir.clone(), self.dir.join("tmp")] {
            for e in std::fs::read_dir(&dir).unwrap() {
                let p = e.unwrap().path();
                if p == self.file() || p == self.dir.join("tmp") || inputs.contains(&p.as_path()) {
                    continue;
                }
                out.push(p.display().to_string());
            }
        }
        out
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What a reader sees of the file: aliases, indices with their document counts, and the
/// probe answers of every index and alias.
#[derive(Debug, Clone, PartialEq)]
struct State {
    aliases: Vec<(String, String)>,
    indices: Vec<(String, u64)>,
    answers: BTreeMap<String, Vec<(u16, Vec<u8>)>>,
}

/// Opens `file` (repairing it after a kill, as any user's open does) and reads its
/// [`State`]. Also checks that the file holds exactly one generation per index when
/// `exact_generations` (after a completed write), or at least those (after a kill).
fn observe(file: &Path, exact_generations: bool) -> State {
    let engine = Arc::new(Engine::open(file).unwrap_or_else(|e| panic!("the file does not open after a kill: {e:?}")));
    let infos = engine.indices().unwrap();
    let mut live: Vec<u64> = infos.iter().map(|i| i.generation).collect();
    live.sort();
    let stored = engine.stored_generations().unwrap();
    if exact_generations {
        assert_eq!(stored, live, "generations stored beside the indices' own");
    } else {
        assert!(live.iter().all(|g| stored.contains(g)), "an index lost its generation: {live:?} {stored:?}");
    }
    let aliases = engine.aliases().unwrap();
    let indices: Vec<(String, u64)> = infos.iter().map(|i| (i.name.clone(), i.docs)).collect();
    let names: BTreeSet<&str> =
        indices.iter().map(|(n, _)| n.as_str()).chain(aliases.iter().map(|(a, _)| a.as_str())).collect();
    let gateway = gateway(engine);
    let answers = names
        .into_iter()
        .map(|n| {
            let a = probe_answers(&gateway, n);
            assert!(a.iter().all(|(s, _)| *s == 200), "{n}: {:?}", a.iter().map(|(s, _)| s).collect::<Vec<_>>());
            (n.to_string(), a)
        })
        .collect();
    State { aliases, indices, answers }
}

fn size(file: &Path) -> u64 {
    std::fs::metadata(file).unwrap().len()
}

/// A file holding `base` (alias `Base_pr`) of `base_docs` generated records, and those
/// records' input.
fn with_base(s: &Scratch, base_docs: usize) -> PathBuf {
    let input = s.dir.join("base.ndjson");
    gen(&input, base_docs, 7);
    s.complete(&["load", "--file", &s.f(), "--index", "base", "--alias", "Base_pr", input.to_str().unwrap()]);
    input
}

#[test]
fn killed_loads_leave_the_file_as_it_was() {
    let s = Scratch::new("load");
    let mut rng = StdRng::seed_from_u64(seed("killed_loads_leave_the_file_as_it_was"));
    let n = records();
    let base_input = with_base(&s, 500);
    let input = s.dir.join("big.ndjson");
    gen(&input, n, 1);
    let inputs = [base_input.as_path(), input.as_path()];
    let f = s.f();
    let load = ["load", "--file", &f, "--index", "big", "--alias", "Big_pr", "--replace", input.to_str().unwrap()];
    // Two loads run to their end: the time a load takes (the kills are drawn within it)
    // and the size of the file in its steady state (an index replaced once).
    let mut full = s.complete(&load);
    full = full.min(s.complete(&load));
    let steady = size(&s.file());
    let mut state = observe(&s.file(), true);
    assert_eq!(state.indices, vec![("base".to_string(), 500), ("big".to_string(), n as u64)]);
    let (mut killed, mut finished, mut largest) = (0, 0, steady);
    let started = Instant::now();
    while killed < kills() {
        // Uniform over the load's run, and as often late in it, where it writes.
        let at = if rng.gen_bool(0.5) { rng.gen_range(0.0..1.0) } else { rng.gen_range(0.7..1.0) };
        let delay = full.mul_f64(at);
        match s.kill_after(&load, delay) {
            None => {
                killed += 1;
                assert_eq!(observe(&s.file(), false), state, "after a kill {delay:?} into a load");
                println!("load killed {delay:.1?} in ({killed}); file {} bytes", size(&s.file()));
            }
            Some(took) => {
                // The machine got faster (the calibration ran on a busy one): draw the
                // next kills within what a load takes now.
                finished += 1;
                full = full.min(took);
                state = observe(&s.file(), true);
            }
        }
        largest = largest.max(size(&s.file()));
        assert!(finished <= 3 * kills(), "loads keep ending before their kill: is the binary too fast for {full:?}?");
    }
    // The next load succeeds, and leaves nothing of the killed ones behind.
    s.complete(&load);
    let after = observe(&s.file(), true);
    assert_eq!(after, state, "a completed load of the same input answers the same");
    assert_eq!(s.strays(&inputs), Vec::<String>::new(), "temporary files of killed loads");
    let end = size(&s.file());
    // A leak of each killed load's pages would grow the file by a load per kill.
    assert!(end <= steady + steady / 2, "file grew from {steady} to {end} bytes over {killed} killed loads");
    println!(
        "crash_safety load: {n} records, {killed} loads killed (+{finished} finished first), load {full:.1?}, \
         file {steady} -> {end} bytes (largest {largest}), {:.0?}",
        started.elapsed()
    );
}

#[test]
fn killed_alias_swaps_are_all_or_nothing() {
    let s = Scratch::new("swap");
    let mut rng = StdRng::seed_from_u64(seed("killed_alias_swaps_are_all_or_nothing"));
    with_base(&s, 300);
    let other = s.dir.join("other.ndjson");
    gen(&other, 400, 2);
    let f = s.f();
    s.complete(&["load", "--file", &f, "--index", "other", other.to_str().unwrap()]);
    s.complete(&["alias", "--file", &f, "add", "Swap_pr", "base"]);
    // The two states a swap may leave: before it, or after it.
    let on_base = observe(&s.file(), true);
    let mut full = s.complete(&["alias", "--file", &f, "swap", "Swap_pr", "other"]);
    let on_other = observe(&s.file(), true);
    assert_ne!(on_base.answers["Swap_pr"], on_other.answers["Swap_pr"]);
    let mut current = "other";
    let (mut killed, mut finished) = (0, 0);
    while killed < kills() {
        let target = if current == "base" { "other" } else { "base" };
        let delay = full.mul_f64(rng.gen_range(0.0..1.0));
        match s.kill_after(&["alias", "--file", &f, "swap", "Swap_pr", target], delay) {
            None => killed += 1,
            Some(took) => {
                finished += 1;
                full = full.min(took);
            }
        }
        let seen = observe(&s.file(), true);
        current = if seen == on_base {
            "base"
        } else {
            assert_eq!(seen, on_other, "after a swap killed {delay:?} in: neither before nor after it");
            "other"
        };
        assert!(finished <= 3 * kills(), "swaps keep ending before their kill");
    }
    // The next swap succeeds.
    let target = if current == "base" { "other" } else { "base" };
    s.complete(&["alias", "--file", &f, "swap", "Swap_pr", target]);
    assert_eq!(observe(&s.file(), true), if target == "base" { on_base } else { on_other });
    println!("crash_safety swap: {killed} alias swaps killed (+{finished} finished first)");
}

#[test]
fn killed_index_deletions_are_all_or_nothing() {
    let s = Scratch::new("delete");
    let mut rng = StdRng::seed_from_u64(seed("killed_index_deletions_are_all_or_nothing"));
    with_base(&s, 300);
    let victim_input = s.dir.join("victim.ndjson");
    gen(&victim_input, 200, 3);
    let f = s.f();
    let load = ["load", "--file", &f, "--index", "victim", "--alias", "Victim_pr", victim_input.to_str().unwrap()];
    s.complete(&load);
    let with_victim = observe(&s.file(), true);
    let mut full = s.complete(&["delete-index", "--file", &f, "victim"]);
    let without = observe(&s.file(), true);
    assert_eq!(without.aliases, vec![("Base_pr".to_string(), "base".to_string())]);
    let steady = size(&s.file());
    s.complete(&load);
    let (mut killed, mut finished, mut deleted) = (0, 0, 0);
    while killed < kills() {
        let delay = full.mul_f64(rng.gen_range(0.0..1.0));
        let was_killed = match s.kill_after(&["delete-index", "--file", &f, "victim"], delay) {
            None => {
                killed += 1;
                true
            }
            Some(took) => {
                finished += 1;
                full = full.min(took);
                false
            }
        };
        let seen = observe(&s.file(), true);
        if seen != with_victim {
            assert_eq!(seen, without, "after a deletion killed {delay:?} in: neither before nor after it");
            // Killed after its commit, before the process ended.
            deleted += usize::from(was_killed);
            // The next load of the index succeeds.
            s.complete(&load);
            assert_eq!(observe(&s.file(), true), with_victim);
        }
        assert!(finished <= 3 * kills(), "deletions keep ending before their kill");
    }
    // The next deletion succeeds and the file does not grow with the loads and kills.
    s.complete(&["delete-index", "--file", &f, "victim"]);
    assert_eq!(observe(&s.file(), true), without);
    let end = size(&s.file());
    assert!(end <= 2 * steady, "file grew from {steady} to {end} bytes");
    assert_eq!(s.strays(&[victim_input.as_path(), s.dir.join("base.ndjson").as_path()]), Vec::<String>::new());
    println!("crash_safety delete: {killed} deletions killed (+{finished} finished first, {deleted} of the killed ones after their commit)");
}

#[test]
fn killed_compactions_leave_the_file_as_it_was() {
    let s = Scratch::new("compact");
    let mut rng = StdRng::seed_from_u64(seed("killed_compactions_leave_the_file_as_it_was"));
    let base_input = with_base(&s, 300);
    let input = s.dir.join("big.ndjson");
    gen(&input, records(), 4);
    let f = s.f();
    let load = ["load", "--file", &f, "--index", "big", "--alias", "Big_pr", "--replace", input.to_str().unwrap()];
    s.complete(&load);
    let compacted = size(&s.file());
    let state = observe(&s.file(), true);
    // A replace that keeps its free pages, then the compaction that is killed.
    let mut loose = load.to_vec();
    loose.push("--no-compact");
    s.complete(&loose);
    let mut full = s.complete(&["compact", "--file", &f]);
    let (mut killed, mut finished) = (0, 0);
    while killed < kills() {
        if size(&s.file()) <= compacted + compacted / 10 {
            s.complete(&loose);
        }
        let delay = full.mul_f64(rng.gen_range(0.0..1.0));
        match s.kill_after(&["compact", "--file", &f], delay) {
            None => killed += 1,
            Some(took) => {
                finished += 1;
                full = full.min(took);
            }
        }
        assert_eq!(observe(&s.file(), true), state, "after a compaction killed {delay:?} in");
        assert!(finished <= 3 * kills(), "compactions keep ending before their kill");
    }
    // The next compaction succeeds and gives the free pages back.
    s.complete(&["compact", "--file", &f]);
    assert_eq!(observe(&s.file(), true), state);
    let end = size(&s.file());
    assert!(end <= compacted + compacted / 10, "{end} bytes after the last compaction, {compacted} before");
    assert_eq!(s.strays(&[base_input.as_path(), input.as_path()]), Vec::<String>::new());
    println!("crash_safety compact: {killed} compactions killed (+{finished} finished first)");
}
