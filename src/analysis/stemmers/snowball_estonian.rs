//! Snowball Estonian as Lucene 8 runs it (`EstonianStemmer`): irregular verb forms
//! mapped whole, then the emphatic `-gi`/`-ki`, verb endings or noun endings (special
//! nouns, cases, plurals, degrees), and doubled `kk pp tt` after a vowel undoubled.
//! Lucene's grouping of the consonants before `-ki` spells `š ž` in Latin-1 bytes, so
//! they count as other letters there (the generated table keeps that).

use super::snowball_runtime::Program;
use super::snowball_tables::*;

struct Word {
    p: Program,
    p1: usize,
}

/// The stems of the irregular verb forms: Lucene's table numbers its rules by group,
/// each group's stem given with the last rule number of the group.
const VERB_STEMS: [(i8, &str); 18] = [
    (3, "joo"),
    (7, "saa"),
    (11, "viima"),
    (14, "keesi"),
    (17, "löö"),
    (18, "löi"),
    (21, "loo"),
    (24, "käisi"),
    (28, "söö"),
    (32, "too"),
    (35, "võisi"),
    (39, "jääma"),
    (42, "müüsi"),
    (44, "luge"),
    (46, "põde"),
    (48, "ladu"),
    (51, "tegi"),
    (54, "nägi"),
];

impl Word {
    /// `setlimit tomark p1 for ([substring] among (...))`: the rule of an ending found
    /// in R1, the slice marked.
    fn ending(&mut self, table: &[(&str, i8)]) -> i8 {
        if self.p.cursor < self.p1 {
            return 0;
        }
        let limit_backward = self.p.limit_backward;
        self.p.limit_backward = self.p1;
        self.p.ket = self.p.cursor;
        let rule = self.p.find_among_b(table);
        self.p.bra = self.p.cursor;
        self.p.limit_backward = limit_backward;
        rule
    }

    /// `LONGV`: a long vowel precedes the cursor (which steps back over it).
    fn long_vowel(&mut self) -> bool {
        self.p.find_among_b(ESTONIAN_2) != 0
    }

    /// `not LONGV`, the cursor kept.
    fn no_long_vowel(&mut self) -> bool {
        let at = self.p.mark_b();
        let long = self.long_vowel();
        self.p.restore_b(at);
        !long
    }

    /// `(RV or LONGV)`.
    fn vowel_or_long(&mut self) -> bool {
        let at = self.p.mark_b();
        if self.p.in_grouping_b(ESTONIAN_RV) {
            return true;
        }
        self.p.restore_b(at);
        self.long_vowel()
    }

    /// Whether `literal` precedes the cursor, the cursor kept.
    fn before(&mut self, literal: &str) -> bool {
        let at = self.p.mark_b();
        let found = self.p.eq_s_b(literal);
        self.p.restore_b(at);
        found
    }

    fn emphasis(&mut self) {
        let rule = self.ending(ESTONIAN_0);
        if rule == 0 {
            return;
        }
        // test hop 4: at least four units before the cursor.
        if self.p.cursor - self.p.limit_backward < 4 {
            return;
        }
        match rule {
            1 => {
                let at = self.p.mark_b();
                let gi = self.p.in_grouping_b(ESTONIAN_GI);
                self.p.restore_b(at);
                if gi && self.no_long_vowel() {
                    self.p.slice_del();
                }
            }
            2 if self.p.in_grouping_b(ESTONIAN_KI) => self.p.slice_del(),
            _ => {}
        }
    }

    /// `verb`: whether a verb ending was found (and removed or replaced).
    fn verb(&mut self) -> bool {
        // Lucene's table numbers each group of endings: 6 is `-akse`, 10-13 `-me -da -n
        // -b` (after a vowel), the others plain deletions.
        match self.ending(ESTONIAN_1) {
            6 => self.p.slice_from("a"),
            10..=13 if self.p.in_grouping_b(ESTONIAN_V1) => self.p.slice_del(),
            1..=9 => self.p.slice_del(),
            _ => return false,
        }
        true
    }

    fn special_noun_endings(&mut self) {
        // Rules 1-4 are the `las-` endings, 5-8 `mis-`, 9-12 `lis-`.
        let rule = self.ending(ESTONIAN_4);
        if rule > 0 {
            self.p.slice_from(["lase", "mise", "lise"][(rule as usize - 1) / 4]);
        }
    }

    fn case_ending(&mut self) {
        if self.ending(ESTONIAN_5) != 0 && self.vowel_or_long() {
            self.p.slice_del();
        }
    }

    fn plural_three_first_cases(&mut self) {
        // Rules 1-3 are `-ikkude -ikke -ike`, 4 `-sid`, 5 `-te`, 6-7 `-de -d`.
        match self.ending(ESTONIAN_6) {
            1..=3 => self.p.slice_from("iku"),
            4 if self.no_long_vowel() => self.p.slice_del(),
            5 => {
                let at = self.p.mark_b();
                let long_enough = self.p.cursor - self.p.limit_backward >= 4;
                if long_enough {
                    if self.p.eq_s_b("mis")
                        || {
                            self.p.restore_b(at);
                            self.p.eq_s_b("las")
                        }
                        || {
                            self.p.restore_b(at);
                            self.p.eq_s_b("lis")
                        }
                    {
                        self.p.slice_from("e");
                        return;
                    }
                    self.p.restore_b(at);
                    if !self.before("t") {
                        self.p.slice_del();
                        return;
                    }
                }
                self.p.restore_b(at);
                if !self.before("t") {
                    self.p.slice_from("t");
                }
            }
            6 | 7 if self.vowel_or_long() => self.p.slice_del(),
            _ => {}
        }
    }

    fn degrees(&mut self) {
        // Rule 2 is `-ma`; 1 and 3 (`-mai`, `-m`) need a vowel before.
        match self.ending(ESTONIAN_9) {
            1 | 3 if self.p.in_grouping_b(ESTONIAN_RV) => self.p.slice_del(),
            2 => self.p.slice_del(),
            _ => {}
        }
    }

    fn i_plural(&mut self) {
        if self.ending(ESTONIAN_3) != 0 && self.p.in_grouping_b(ESTONIAN_RV) {
            self.p.slice_del();
        }
    }

    fn nu(&mut self) {
        if self.ending(ESTONIAN_8) != 0 {
            self.p.slice_del();
        }
    }

    fn substantive(&mut self) {
        let steps: [fn(&mut Word); 6] = [
            Word::special_noun_endings,
            Word::case_ending,
            Word::plural_three_first_cases,
            Word::degrees,
            Word::i_plural,
            Word::nu,
        ];
        for step in steps {
            let at = self.p.mark_b();
            step(self);
            self.p.restore_b(at);
        }
    }

    /// `remove_double_kpt`: `kk pp tt` before a final vowel undoubled.
    fn remove_double_kpt(&mut self) {
        if !self.p.in_grouping_b(ESTONIAN_V1) {
            return;
        }
        let at = self.p.mark_b();
        if self.p.find_among_b(ESTONIAN_7) == 0 {
            return;
        }
        self.p.restore_b(at);
        if self.p.prev() {
            self.p.ket = self.p.cursor;
            if self.p.hop_b(1) {
                self.p.bra = self.p.cursor;
                self.p.slice_del();
            }
        }
    }
}

/// R1: after the first consonant that follows a vowel.
fn mark_r1(p: &mut Program) -> usize {
    // goto V1, gopast non-V1.
    loop {
        let at = p.cursor;
        if p.in_grouping(ESTONIAN_V1) {
            p.cursor = at;
            break;
        }
        if !p.next() {
            return p.limit;
        }
    }
    if p.go_past(ESTONIAN_V1, true) {
        p.cursor
    } else {
        p.limit
    }
}

/// `verb_exceptions`: the whole word an irregular verb form, replaced by its stem.
fn verb_exception(p: &mut Program) -> bool {
    p.bra = p.cursor;
    let rule = p.find_among(ESTONIAN_10);
    if rule <= 0 || p.cursor < p.limit {
        return false;
    }
    p.ket = p.cursor;
    let Some((_, stem)) = VERB_STEMS.iter().find(|(last, _)| rule <= *last) else { return false };
    p.slice_from(stem);
    true
}

/// The stem of `term` by Lucene 8's Snowball Estonian.
pub fn stem(term: &str) -> String {
    let mut p = Program::new(term);
    let p1 = mark_r1(&mut p);
    p.cursor = 0;
    if verb_exception(&mut p) {
        return p.word();
    }
    p.cursor = 0;
    p.backwards();
    let mut w = Word { p, p1 };
    let at = w.p.mark_b();
    w.emphasis();
    w.p.restore_b(at);
    let is_verb = w.verb();
    w.p.restore_b(at);
    if !is_verb {
        w.substantive();
    }
    w.p.restore_b(at);
    w.remove_double_kpt();
    w.p.forwards();
    w.p.word()
}
