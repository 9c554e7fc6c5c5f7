//! Lucene's IndonesianStemmer (Tala's algorithm): particles and possessive pronouns,
//! then (derivational stemming) first- and second-order prefixes and suffixes, each step
//! only while the word keeps more than two syllables.

use super::utf16::{delete_n, ends_with, starts_with, u, with_units};

const REMOVED_KE: u8 = 1;
const REMOVED_PENG: u8 = 2;
const REMOVED_DI: u8 = 4;
const REMOVED_MENG: u8 = 8;
const REMOVED_TER: u8 = 16;
const REMOVED_BER: u8 = 32;
const REMOVED_PE: u8 = 64;

fn is_vowel(c: u16) -> bool {
    "aeiou".encode_utf16().any(|v| v == c)
}

/// One word's stemming state: its syllable count and which affixes were removed.
struct Word<'a> {
    s: &'a mut Vec<u16>,
    len: usize,
    syllables: usize,
    flags: u8,
}

/// The Indonesian stem of `term` (expected lowercased); `derivational` also removes
/// prefixes and suffixes (IndonesianStemFilter's `stemDerivational`, on in ES).
pub fn stem(term: &str, derivational: bool) -> String {
    with_units(term, |s, len| {
        let syllables = s[..len].iter().filter(|c| is_vowel(**c)).count();
        let mut w = Word { s, len, syllables, flags: 0 };
        if w.syllables > 2 {
            w.remove_particle();
        }
        if w.syllables > 2 {
            w.remove_possessive_pronoun();
        }
        if derivational {
            w.stem_derivational();
        }
        w.len
    })
}

impl Word<'_> {
    fn ends(&self, suffix: &str) -> bool {
        ends_with(self.s, self.len, suffix)
    }

    fn starts(&self, prefix: &str) -> bool {
        starts_with(self.s, self.len, prefix)
    }

    /// Cuts `n` units from the end, one syllable fewer.
    fn cut_end(&mut self, n: usize) {
        self.syllables -= 1;
        self.len -= n;
    }

    /// Cuts `n` units from the start, one syllable fewer, recording `flag`.
    fn cut_start(&mut self, n: usize, flag: u8) {
        self.flags |= flag;
        self.syllables -= 1;
        self.len = delete_n(self.s, 0, self.len, n);
    }

    fn stem_derivational(&mut self) {
        let before = self.len;
        if self.syllables > 2 {
            self.remove_first_order_prefix();
        }
        if before != self.len {
            let before = self.len;
            if self.syllables > 2 {
                self.remove_suffix();
            }
            if before != self.len && self.syllables > 2 {
                self.remove_second_order_prefix();
            }
        } else {
            if self.syllables > 2 {
                self.remove_second_order_prefix();
            }
            if self.syllables > 2 {
                self.remove_suffix();
            }
        }
    }

    fn remove_particle(&mut self) {
        if self.ends("kah") || self.ends("lah") || self.ends("pun") {
            self.cut_end(3);
        }
    }

    fn remove_possessive_pronoun(&mut self) {
        if self.ends("ku") || self.ends("mu") {
            self.cut_end(2);
        } else if self.ends("nya") {
            self.cut_end(3);
        }
    }

    /// Whether the unit at `i` exists and is a vowel.
    fn vowel_at(&self, i: usize) -> bool {
        self.len > i && is_vowel(self.s[i])
    }

    fn remove_first_order_prefix(&mut self) {
        if self.starts("meng") {
            self.cut_start(4, REMOVED_MENG);
        } else if self.starts("meny") && self.vowel_at(4) {
            self.s[3] = u('s');
            self.cut_start(3, REMOVED_MENG);
        } else if self.starts("men") || self.starts("mem") {
            self.cut_start(3, REMOVED_MENG);
        } else if self.starts("me") {
            self.cut_start(2, REMOVED_MENG);
        } else if self.starts("peng") {
            self.cut_start(4, REMOVED_PENG);
        } else if self.starts("peny") && self.vowel_at(4) {
            self.s[3] = u('s');
            self.cut_start(3, REMOVED_PENG);
        } else if self.starts("peny") {
            self.cut_start(4, REMOVED_PENG);
        } else if self.starts("pen") && self.vowel_at(3) {
            self.s[2] = u('t');
            self.cut_start(2, REMOVED_PENG);
        } else if self.starts("pen") || self.starts("pem") {
            self.cut_start(3, REMOVED_PENG);
        } else if self.starts("di") {
            self.cut_start(2, REMOVED_DI);
        } else if self.starts("ter") {
            self.cut_start(3, REMOVED_TER);
        } else if self.starts("ke") {
            self.cut_start(2, REMOVED_KE);
        }
    }

    fn remove_second_order_prefix(&mut self) {
        if self.starts("ber") || (self.len == 7 && self.starts("belajar")) {
            self.cut_start(3, REMOVED_BER);
        } else if self.starts("be")
            && self.len > 4
            && !is_vowel(self.s[2])
            && self.s[3] == u('e')
            && self.s[4] == u('r')
        {
            self.cut_start(2, REMOVED_BER);
        } else if self.starts("per") || (self.len == 7 && self.starts("pelajar")) {
            self.cut_start(3, 0);
        } else if self.starts("pe") {
            self.cut_start(2, REMOVED_PE);
        }
    }

    fn remove_suffix(&mut self) {
        let flags = self.flags;
        let none = |f: u8| flags & f == 0;
        if self.ends("kan") && none(REMOVED_KE | REMOVED_PENG | REMOVED_PE) {
            self.cut_end(3);
        } else if self.ends("an") && none(REMOVED_DI | REMOVED_MENG | REMOVED_TER) {
            self.cut_end(2);
        } else if self.ends("i") && !self.ends("si") && none(REMOVED_BER | REMOVED_KE | REMOVED_PENG) {
            self.cut_end(1);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn stems() {
        assert_eq!(super::stem("membaca", true), "baca");
        assert_eq!(super::stem("bukunya", true), "buku");
        assert_eq!(super::stem("pelajaran", true), "lajar");
        assert_eq!(super::stem("bukunya", false), "buku");
    }
}
