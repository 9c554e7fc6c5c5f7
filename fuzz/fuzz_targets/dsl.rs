#![no_main]
//! Fuzz target `dsl`: see `metagate::fuzzing::dsl`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| metagate::fuzzing::dsl(data));
