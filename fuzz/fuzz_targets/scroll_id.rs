#![no_main]
//! Fuzz target `scroll_id`: see `metagate::fuzzing::scroll_id`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| metagate::fuzzing::scroll_id(data));
