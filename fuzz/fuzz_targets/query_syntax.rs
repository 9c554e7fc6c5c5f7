#![no_main]
//! Fuzz target `query_syntax`: see `metagate::fuzzing::query_syntax`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| metagate::fuzzing::query_syntax(data));
