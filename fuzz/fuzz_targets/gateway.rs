#![no_main]
//! Fuzz target `gateway`: see `metagate::fuzzing::gateway`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| metagate::fuzzing::gateway(data));
