//! The layer rules of ARCHITECTURE.md, checked against the code. The rules are written
//! once, as the tables of its "Layers" section, and read from there:
//! - the layer table: each top-level module of `src/` belongs to one layer, listed from
//!   the highest to the lowest, and may import only modules of its own layer or below;
//! - "Owned names": an external crate only its owner may name (`redb`, `fst`, `roaring`);
//! - "Not reached past": a module that must not import another even though it is below
//!   (the gateway asks the engine, never the store or the index);
//! - "Known exceptions": imports that break a rule for now, each with its reason; an
//!   exception that no longer occurs fails the test too, so the list only shrinks.
//!
//! Beside the tables, the top-level modules must not import each other in a cycle, and
//! neither must the modules inside `src/search` (the files and folders directly in it),
//! but for the imports ARCHITECTURE.md lists under "Cycles inside search", each with its
//! reason (the list only shrinks, as the known exceptions do).
//!
//! An import is any path through `crate::` in the code of a module (its `use` lines and
//! paths written in place, test code included; comments are skipped), names re-exported
//! at the crate root (`crate::Engine`) counting as the module that defines them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The markdown table that follows `heading` in `doc`: its rows' cells (header and
/// separator left out).
fn table_after(doc: &str, heading: &str) -> Vec<Vec<String>> {
    let start = doc.find(heading).unwrap_or_else(|| panic!("ARCHITECTURE.md has no {heading:?}"));
    doc[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| l.trim().trim_matches('|').split('|').map(|c| c.trim().to_string()).collect())
        .collect()
}

/// The names written as code (`` `name` ``) in a table cell.
fn code_names(cell: &str) -> Vec<String> {
    cell.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// The rules, as ARCHITECTURE.md writes them.
struct Rules {
    /// Top-level module → its layer's rank (0 is the highest layer).
    rank: BTreeMap<String, usize>,
    /// Layer names by rank.
    layers: Vec<String>,
    /// External crate → the one module that may name it.
    owners: BTreeMap<String, String>,
    /// (module, module it must not import).
    not_reached: BTreeSet<(String, String)>,
    /// (importer, imported) pairs that break a rule for now.
    exceptions: BTreeSet<(String, String)>,
    /// (importer, imported) pairs of `search`'s modules that close a cycle for now.
    search_cycles: BTreeSet<(String, String)>,
}

fn rules() -> Rules {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md")).unwrap();
    let mut rank = BTreeMap::new();
    let mut layers = Vec::new();
    for (i, row) in table_after(&doc, "## Layers").iter().enumerate() {
        layers.push(row[0].clone());
        for m in code_names(&row[1]) {
            assert!(rank.insert(m.clone(), i).is_none(), "module `{m}` is in two layers");
        }
    }
    let mut owners = BTreeMap::new();
    for row in table_after(&doc, "**Owned names**") {
        let owner = code_names(&row[1]).pop().expect("an owner");
        for name in code_names(&row[0]) {
            owners.insert(name, owner.clone());
        }
    }
    let mut not_reached = BTreeSet::new();
    for row in table_after(&doc, "**Not reached past**") {
        for from in code_names(&row[0]) {
            for to in code_names(&row[1]) {
                not_reached.insert((from.clone(), to));
            }
        }
    }
    let mut exceptions = BTreeSet::new();
    for row in table_after(&doc, "**Known exceptions**") {
        if row.len() < 3 || row[2].is_empty() {
            panic!("every known exception needs a reason: {row:?}");
        }
        if let (Some(from), Some(to)) = (code_names(&row[0]).pop(), code_names(&row[1]).pop()) {
            exceptions.insert((from, to));
        }
    }
    let mut search_cycles = BTreeSet::new();
    for row in table_after(&doc, "**Cycles inside search**") {
        if row.len() < 3 || row[2].is_empty() {
            panic!("every import closing a cycle inside search needs a reason: {row:?}");
        }
        for from in code_names(&row[0]) {
            for to in code_names(&row[1]) {
                search_cycles.insert((from.clone(), to));
            }
        }
    }
    Rules { rank, layers, owners, not_reached, exceptions, search_cycles }
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its comments (line comments and doc comments; the code
/// has no block comments).
fn code_of(text: &str) -> String {
    text.lines()
        .map(|l| match l.trim_start().starts_with("//") {
            true => "",
            false => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The first identifier of each path that starts with `prefix` (`crate::`, `redb::`)
/// in `code`, braces of a `use` group opened (`crate::{a, b::c}` gives `a` and `b`).
fn paths_after(code: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = code[at..].find(prefix) {
        let start = at + i;
        at = start + prefix.len();
        // A whole path segment: not `$crate::` nor `foo_crate::`, nor `x::redb::`.
        let before = code[..start].chars().next_back();
        if before.is_some_and(|c| is_ident(c) || c == ':' || c == '$') {
            continue;
        }
        out.extend(names_at(&code[at..]));
    }
    out
}

/// The top-level module of a file under `src/` (`None` for the crate root and the
/// binaries, which are crates of their own).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel.components().next()?.as_os_str().to_str()?.to_string();
    match first.as_str() {
        "lib.rs" | "bin" => None,
        f => Some(f.trim_end_matches(".rs").to_string()),
    }
}

/// Names the crate root re-exports (`pub use engine::{Engine, ..}`) → their module.
fn root_exports(src: &Path) -> BTreeMap<String, String> {
    let lib = code_of(&std::fs::read_to_string(src.join("lib.rs")).unwrap());
    let mut out = BTreeMap::new();
    for line in lib.lines().map(str::trim).filter(|l| l.starts_with("pub use ")) {
        let path = line.trim_start_matches("pub use ").trim_end_matches(';');
        let Some((module, rest)) = path.split_once("::") else { continue };
        let names = rest.rsplit("::").next().unwrap_or(rest);
        for name in names.trim_matches(|c| c == '{' || c == '}').split(',') {
            out.insert(name.trim().to_string(), module.to_string());
        }
    }
    out
}

/// Every import between top-level modules: (importer, imported) → a file that has it;
/// and every external crate named: (module, crate) → a file.
struct Imports {
    modules: BTreeMap<(String, String), String>,
    crates: BTreeMap<(String, String), String>,
}

fn imports(rules: &Rules) -> Imports {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let exports = root_exports(&src);
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut modules = BTreeMap::new();
    let mut crates = BTreeMap::new();
    for file in &files {
        let Some(from) = module_of(&src, file) else { continue };
        assert!(rules.rank.contains_key(&from), "module `{from}` is in no layer of ARCHITECTURE.md");
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        let shown = file.strip_prefix(&src).unwrap().display().to_string();
        for name in paths_after(&code, "crate::") {
            let to = match exports.get(&name) {
                Some(module) => module.clone(),
                None => name,
            };
            if to != from && rules.rank.contains_key(&to) {
                modules.entry((from.clone(), to)).or_insert_with(|| shown.clone());
            }
        }
        for name in rules.owners.keys() {
            if !paths_after(&code, &format!("{name}::")).is_empty() {
                crates.entry((from.clone(), name.clone())).or_insert_with(|| shown.clone());
            }
        }
    }
    Imports { modules, crates }
}

/// A cycle among the imports, if any (as the list of its modules).
fn cycle(edges: &BTreeSet<(String, String)>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeSet<(String, String)>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        path.push(node.to_string());
        for (_, to) in edges.iter().filter(|(from, _)| from == node) {
            match state.get(to) {
                Some(1) => {
                    let at = path.iter().position(|p| p == to).unwrap_or(0);
                    let mut found = path[at..].to_vec();
                    found.push(to.clone());
                    return Some(found);
                }
                Some(_) => {}
                None => {
                    if let Some(found) = visit(to, edges, state, path) {
                        return Some(found);
                    }
                }
            }
        }
        path.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    let nodes: BTreeSet<&String> = edges.iter().map(|(from, _)| from).collect();
    for node in nodes {
        if !state.contains_key(node) {
            if let Some(found) = visit(node, edges, &mut state, &mut Vec::new()) {
                return Some(found);
            }
        }
    }
    None
}

#[test]
fn imports_point_down_the_layers() {
    let rules = rules();
    let found = imports(&rules);
    let mut broken = Vec::new();
    let mut excused = BTreeSet::new();
    for ((from, to), file) in &found.modules {
        let (f, t) = (rules.rank[from], rules.rank[to]);
        let why = if t < f {
            format!("imports `{to}` of the layer above it ({} over {})", rules.layers[t], rules.layers[f])
        } else if rules.not_reached.contains(&(from.clone(), to.clone())) {
            format!("imports `{to}`, which ARCHITECTURE.md says it does not reach")
        } else {
            continue;
        };
        if rules.exceptions.contains(&(from.clone(), to.clone())) {
            excused.insert((from.clone(), to.clone()));
        } else {
            broken.push(format!("`{from}` {why} ({file})"));
        }
    }
    for ((module, name), file) in &found.crates {
        if rules.owners.get(name) != Some(module) {
            if rules.exceptions.contains(&(module.clone(), name.clone())) {
                excused.insert((module.clone(), name.clone()));
            } else {
                broken
                    .push(format!("`{module}` names `{name}`, which only `{}` may name ({file})", rules.owners[name]));
            }
        }
    }
    for stale in rules.exceptions.difference(&excused) {
        broken.push(format!("known exception `{}` → `{}` no longer occurs: remove it", stale.0, stale.1));
    }
    let edges: BTreeSet<(String, String)> = found.modules.keys().cloned().collect();
    if let Some(c) = cycle(&edges) {
        broken.push(format!("the modules import each other in a cycle: {}", c.join(" → ")));
    }
    assert!(broken.is_empty(), "layer rules broken:\n{}", broken.join("\n"));
}

/// The names a path reaches, given the text right after its prefix (`crate::`,
/// `super::`): one name, or the top-level names of a `use` group.
fn names_at(rest: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(group) = rest.strip_prefix('{') {
        let (mut depth, mut name, mut expecting) = (0, String::new(), true);
        for c in group.chars() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => break,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    if !name.is_empty() {
                        out.push(std::mem::take(&mut name));
                    }
                    expecting = true;
                }
                c if depth == 0 && expecting && is_ident(c) => name.push(c),
                _ if depth == 0 && expecting && !name.is_empty() => {
                    out.push(std::mem::take(&mut name));
                    expecting = false;
                }
                _ => {}
            }
        }
        if !name.is_empty() {
            out.push(name);
        }
    } else {
        let name: String = rest.chars().take_while(|c| is_ident(*c)).collect();
        if !name.is_empty() {
            out.push(name);
        }
    }
    out
}

/// Each relative path of `code` (`super::x`, `super::super::{x, y}`): how many levels it
/// goes up, and the names it then reaches.
fn relative_paths(code: &str) -> Vec<(usize, Vec<String>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = code[at..].find("super::") {
        let start = at + i;
        at = start + "super::".len();
        if code[..start].chars().next_back().is_some_and(|c| is_ident(c) || c == ':') {
            continue;
        }
        let mut ups = 1;
        while code[at..].starts_with("super::") {
            ups += 1;
            at += "super::".len();
        }
        out.push((ups, names_at(&code[at..])));
    }
    out
}

/// Every import between the modules directly inside `src/search` (its files and
/// folders): (importer, imported) → a file that has it. A file's `super::` paths are
/// resolved from its module (`search/span/expand.rs` is `search::span::expand`), and
/// `crate::search::` paths count too; names that are not modules of `search` (items of
/// `search/mod.rs`) are left out.
fn search_imports() -> BTreeMap<(String, String), String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let dir = src.join("search");
    let mut modules = BTreeSet::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        if path.is_dir() || (path.extension().is_some_and(|e| e == "rs") && name != "mod") {
            modules.insert(name);
        }
    }
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    files.sort();
    let mut edges = BTreeMap::new();
    for file in &files {
        // The file's module path below `search`: `span/expand.rs` → [span, expand].
        let rel = file.strip_prefix(&dir).unwrap();
        let mut path: Vec<String> =
            rel.iter().map(|c| c.to_str().unwrap().trim_end_matches(".rs").to_string()).collect();
        if path.last().is_some_and(|l| l == "mod") {
            path.pop();
        }
        let Some(from) = path.first().cloned() else { continue };
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        let mut reached = paths_after(&code, "crate::search::");
        for (ups, names) in relative_paths(&code) {
            // Paths that land on `search` itself name its modules.
            if ups == path.len() {
                reached.extend(names);
            }
        }
        for to in reached {
            if to != from && modules.contains(&to) {
                let shown = rel.display().to_string();
                edges.entry((from.clone(), to)).or_insert(shown);
            }
        }
    }
    edges
}

#[test]
fn the_modules_inside_search_import_each_other_in_no_cycle() {
    let rules = rules();
    let found = search_imports();
    let mut broken = Vec::new();
    for stale in rules.search_cycles.iter().filter(|e| !found.contains_key(e)) {
        broken.push(format!(
            "`search/{}` no longer imports `{}`: remove it from the cycles inside search",
            stale.0, stale.1
        ));
    }
    let edges: BTreeSet<(String, String)> =
        found.keys().filter(|e| !rules.search_cycles.contains(e)).cloned().collect();
    if let Some(c) = cycle(&edges) {
        let files: Vec<String> = c.windows(2).map(|w| found[&(w[0].clone(), w[1].clone())].clone()).collect();
        broken.push(format!(
            "the modules of search import each other in a cycle: {} (in {})",
            c.join(" → "),
            files.join(", ")
        ));
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn the_reader_of_imports_reads_groups_and_skips_comments() {
    let code =
        code_of("use crate::{a, b::{c, d}, e as f};\n// crate::commented\nlet x = crate::g::h(); $crate::no; redb::Db");
    assert_eq!(paths_after(&code, "crate::"), ["a", "b", "e", "g"]);
    assert_eq!(paths_after(&code, "redb::"), ["Db"]);
    assert_eq!(paths_after("x::redb::Db", "redb::"), Vec::<String>::new());
    let relative = relative_paths("use super::a::B;\nuse super::super::{c, d::E};\nx::super::no");
    assert_eq!(relative, [(1, vec!["a".to_string()]), (2, vec!["c".to_string(), "d".to_string()])]);
    let edges: BTreeSet<(String, String)> =
        [("a", "b"), ("b", "c"), ("c", "a")].iter().map(|(x, y)| (x.to_string(), y.to_string())).collect();
    assert_eq!(cycle(&edges), Some(vec!["a".into(), "b".into(), "c".into(), "a".into()]));
    let edges: BTreeSet<(String, String)> =
        [("a", "b"), ("a", "c")].iter().map(|(x, y)| (x.to_string(), y.to_string())).collect();
    assert_eq!(cycle(&edges), None);
}
