//! Snowball Hungarian as Lucene 8 runs it (`HungarianStemmer`, the Snowball algorithm's
//! first revision, whose grouping and suffixes spell `ő ű` as the Latin-1 `õ û`, so words
//! with `ő ű` are read as consonants there).

use super::snowball_runtime::Program;
use super::snowball_tables::*;

const V: &str = HUNGARIAN_V;

/// `mark_regions`: R1 after the first consonant (or consonant digraph) of a word that
/// starts with a vowel, else after its first vowel.
fn mark_regions(p: &mut Program) -> usize {
    let start = p.cursor;
    if p.in_grouping(V) {
        // goto non-v: stop before the first consonant.
        let found = loop {
            let at = p.cursor;
            if p.out_grouping(V) {
                p.cursor = at;
                break true;
            }
            if !p.next() {
                break false;
            }
        };
        if found {
            let at = p.cursor;
            if p.find_among(HUNGARIAN_0) != 0 || {
                p.cursor = at;
                p.next()
            } {
                return p.cursor;
            }
        }
    }
    p.cursor = start;
    if p.out_grouping(V) && p.go_past(V, false) {
        return p.cursor;
    }
    p.limit
}

struct Word {
    p: Program,
    p1: usize,
}

impl Word {
    fn r1(&self) -> bool {
        self.p1 <= self.p.cursor
    }

    /// `[substring] R1`: the rule of the ending of `table` found in R1, the slice marked.
    fn ending(&mut self, table: &[(&str, i8)]) -> i8 {
        self.p.ket = self.p.cursor;
        let rule = self.p.find_among_b(table);
        if rule == 0 {
            return 0;
        }
        self.p.bra = self.p.cursor;
        if self.r1() {
            rule
        } else {
            0
        }
    }

    /// An ending of `table` in R1 replaced by `to[rule - 1]` (empty: deleted).
    fn replace(&mut self, table: &[(&str, i8)], to: &[&str]) -> bool {
        let rule = self.ending(table);
        if rule <= 0 {
            return false;
        }
        self.p.slice_from(to[rule as usize - 1]);
        true
    }

    /// `v_ending`: a final `á`/`é` in R1 back to `a`/`e`.
    fn v_ending(&mut self) -> bool {
        self.replace(HUNGARIAN_1, &["a", "e"])
    }

    /// `test double`: a doubled consonant precedes the cursor.
    fn double(&mut self) -> bool {
        let at = self.p.mark_b();
        let found = self.p.find_among_b(HUNGARIAN_2) != 0;
        self.p.restore_b(at);
        found
    }

    /// `undouble`: the last but one unit deleted.
    fn undouble(&mut self) -> bool {
        if !self.p.prev() {
            return false;
        }
        self.p.ket = self.p.cursor;
        if !self.p.hop_b(1) {
            return false;
        }
        self.p.bra = self.p.cursor;
        self.p.slice_del();
        true
    }

    /// `instrum` (`-al`/`-el` after a double consonant) and `factive` (`-á`/`-é` after
    /// one): the ending deleted and the consonant undoubled.
    fn after_double(&mut self, table: &[(&str, i8)]) {
        if self.ending(table) != 0 && self.double() {
            self.p.slice_del();
            self.undouble();
        }
    }

    /// `case`: a case ending in R1 deleted, then `v_ending`.
    fn case(&mut self) {
        if self.ending(HUNGARIAN_4) != 0 {
            self.p.slice_del();
            self.v_ending();
        }
    }
}

const D: &str = "";

/// The stem of `term` by Lucene 8's Snowball Hungarian.
pub fn stem(term: &str) -> String {
    let mut p = Program::new(term);
    let p1 = mark_regions(&mut p);
    p.cursor = 0;
    p.backwards();
    let mut w = Word { p, p1 };
    let steps: [&dyn Fn(&mut Word); 9] = [
        &|w| w.after_double(HUNGARIAN_3),
        &|w| w.case(),
        &|w| {
            w.replace(HUNGARIAN_5, &["e", "a", "a"]);
        },
        &|w| {
            w.replace(HUNGARIAN_6, &[D, D, "a", "e"]);
        },
        &|w| w.after_double(HUNGARIAN_7),
        &|w| {
            w.replace(HUNGARIAN_9, &[D, "e", "a", D, "e", "a", D, "e", D]);
        },
        &|w| {
            w.replace(HUNGARIAN_10, &[D, "a", "e", D, "a", "e", D, D, D, "a", "e", D, D, "a", "e", D, D, D, "a", "e"]);
        },
        &|w| {
            w.replace(
                HUNGARIAN_11,
                &[
                    D, "a", "e", D, D, D, "a", "e", D, D, D, "a", "e", D, D, D, D, "a", "e", D, D, "a", "e", D, D, D,
                    "a", "e", D,
                ],
            );
        },
        &|w| {
            w.replace(HUNGARIAN_8, &["a", "e", D, D, D, D, D]);
        },
    ];
    for step in steps {
        let at = w.p.mark_b();
        step(&mut w);
        w.p.restore_b(at);
    }
    w.p.forwards();
    w.p.word()
}
