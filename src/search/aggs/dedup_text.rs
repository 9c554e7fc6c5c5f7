//! `significant_text`'s `filter_duplicate_text`: ES's `DeDuplicatingTokenFilter` over a
//! `DuplicateByteSequenceSpotter`. Each token is hashed to one byte (the low byte of
//! MurmurHash3 x64 128's first half); the spotter counts how often each run of six bytes
//! was seen before, over all the texts one aggregator reads (restarting its runs at each
//! document). A token is dropped when a run ending at it or at one of the five tokens
//! after it in the same text was seen before. ES's window over the last six tokens is
//! reproduced as it is, marks left on its empty slots included.

use crate::search::murmur3::murmur3_x64_128_h1;
use std::collections::HashMap;

/// `DuplicateByteSequenceSpotter.TREE_DEPTH`: the run length, and the token window.
const DEPTH: usize = 6;

/// Estimated bytes one remembered run costs (what the aggregation charges its budget).
pub const RUN_BYTES: usize = 48;

/// The runs of token bytes seen by one aggregator, with their sighting counts.
#[derive(Default)]
pub struct Spotter {
    seen: HashMap<[u8; DEPTH], u8>,
    run: [u8; DEPTH],
    next: usize,
    filled: bool,
}

impl Spotter {
    /// `startNewSequence`: the next runs start with the next document's tokens.
    pub fn start_new_sequence(&mut self) {
        self.filled = false;
        self.next = 0;
    }

    /// How many runs this spotter remembers.
    pub fn runs(&self) -> usize {
        self.seen.len()
    }

    /// `addByte`: the number of earlier sightings (up to 255) of the run of six bytes
    /// ending with `b`; 0 until six bytes have come since the sequence started.
    fn add_byte(&mut self, b: u8) -> u8 {
        self.run[self.next] = b;
        self.next = (self.next + 1) % DEPTH;
        if self.next == 0 {
            self.filled = true;
        }
        if !self.filled {
            return 0;
        }
        let mut key = [0u8; DEPTH];
        for (i, k) in key.iter_mut().enumerate() {
            *k = self.run[(self.next + i) % DEPTH];
        }
        let count = self.seen.entry(key).or_insert(0);
        let prior = *count;
        *count = count.saturating_add(1);
        prior
    }

    /// The tokens of one text that `DeDuplicatingTokenFilter` lets through, in order.
    pub fn filter(&mut self, tokens: Vec<String>) -> Vec<String> {
        let mut kept = Vec::with_capacity(tokens.len());
        let mut slots: [Option<usize>; DEPTH] = [None; DEPTH];
        let mut sightings = [0u8; DEPTH];
        let mut cursor = 0usize;
        let mut wrapped = false;
        let mut emit = |slot: usize, slots: &[Option<usize>; DEPTH], sightings: &mut [u8; DEPTH]| {
            let duplicate = sightings[slot] > 0;
            sightings[slot] = 0;
            if let (false, Some(t)) = (duplicate, slots[slot]) {
                kept.push(t);
            }
        };
        for (i, token) in tokens.iter().enumerate() {
            let byte = (murmur3_x64_128_h1(token.as_bytes(), 0) & 0xFF) as u8;
            let n = self.add_byte(byte);
            slots[cursor] = Some(i);
            if n >= 1 {
                // The current slot and the five before it (filled or not).
                for back in 0..DEPTH {
                    let at = (cursor + DEPTH - back) % DEPTH;
                    sightings[at] = sightings[at].max(n);
                }
            }
            cursor += 1;
            if cursor >= DEPTH {
                cursor = 0;
                wrapped = true;
            }
            if wrapped && slots[cursor].is_some() {
                emit(cursor, &slots, &mut sightings);
            }
        }
        let mut at = if wrapped { (cursor + 1) % DEPTH } else { 0 };
        while at != cursor {
            emit(at, &slots, &mut sightings);
            at = (at + 1) % DEPTH;
        }
        let mut tokens: Vec<Option<String>> = tokens.into_iter().map(Some).collect();
        kept.into_iter().filter_map(|i| tokens[i].take()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn a_repeated_run_of_six_is_dropped() {
        let mut s = Spotter::default();
        let text = "a b c d e f g h i j";
        assert_eq!(s.filter(words(text)), words(text));
        s.start_new_sequence();
        // The second document repeats "c d e f g h": those six go, the rest stays.
        assert_eq!(s.filter(words("x c d e f g h y")), words("x y"));
        s.start_new_sequence();
        // Five words in common are not a run.
        assert_eq!(s.filter(words("c d e f g z")), words("c d e f g z"));
    }
}
