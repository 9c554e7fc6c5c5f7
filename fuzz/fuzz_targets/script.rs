#![no_main]
//! Fuzz target `script`: see `metagate::fuzzing::script`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| metagate::fuzzing::script(data));
