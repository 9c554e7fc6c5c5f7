#![no_main]
//! Fuzz target `aggs`: see `metagate::fuzzing::aggs`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| metagate::fuzzing::aggs(data));
