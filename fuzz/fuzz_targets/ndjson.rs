#![no_main]
//! Fuzz target `ndjson`: see `metagate::fuzzing::ndjson`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| metagate::fuzzing::ndjson(data));
