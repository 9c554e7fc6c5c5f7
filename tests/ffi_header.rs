//! The checked-in C header must match what cbindgen generates from src/ffi.rs.

#[test]
fn header_is_current() {
    let root = env!("CARGO_MANIFEST_DIR");
    let config = cbindgen::Config::from_file(format!("{root}/cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new().with_crate(root).with_config(config).generate().expect("cbindgen runs");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let path = format!("{root}/include/metagate.h");
    if std::env::var_os("METAGATE_UPDATE_HEADER").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let current = std::fs::read(&path).unwrap_or_default();
    assert!(
        current == generated,
        "include/metagate.h is stale: regenerate it with `METAGATE_UPDATE_HEADER=1 cargo test --test ffi_header`"
    );
}
