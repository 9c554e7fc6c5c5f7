#![no_main]
//! Fuzz target `image`: see `metagate::fuzzing::image`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| metagate::fuzzing::image(data));
