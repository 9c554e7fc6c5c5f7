//! Embeds the demo corpus (data/demo/*.ndjson.gz and manifest.json) into the library, so
//! `metagate serve` can build the demo file with no data on disk.

use std::env;
use std::fs;
use std::path::Path;

fn main() {
    let root = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let demo = Path::new(&root).join("data").join("demo");
    println!("cargo:rerun-if-changed=data/demo");
    let embed = env::var_os("CARGO_FEATURE_DEMO").is_some();
    let mut files: Vec<String> = fs::read_dir(&demo)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".ndjson.gz") || n == "manifest.json")
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    if !embed {
        files.clear();
    }
    let mut out =
        String::from("/// Embedded demo files: (name, bytes).\npub static DEMO_FILES: &[(&str, &[u8])] = &[\n");
    for f in &files {
        let p = demo.join(f);
        println!("cargo:rerun-if-changed={}", p.display());
        out.push_str(&format!("    ({f:?}, include_bytes!({:?})),\n", p.display().to_string()));
    }
    out.push_str("];\n");
    let dest = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("demo_files.rs");
    fs::write(dest, out).expect("write demo_files.rs");
}
