//! Snowball Portuguese as Lucene 8 runs it (`PortugueseStemmer`, the Snowball algorithm's
//! first revision: `-logía`, `-ución` rules carried over from Spanish, no `-ução`).

use super::snowball_runtime::Program;
use super::snowball_tables::*;

const V: &str = PORTUGUESE_V;

/// A word with its regions: RV (`pv`), R1 and R2, as positions.
struct Word {
    p: Program,
    pv: usize,
    p1: usize,
    p2: usize,
}

impl Word {
    fn rv(&self) -> bool {
        self.pv <= self.p.cursor
    }
    fn r1(&self) -> bool {
        self.p1 <= self.p.cursor
    }
    fn r2(&self) -> bool {
        self.p2 <= self.p.cursor
    }

    /// `try ([ literal ] R2 delete)`.
    fn try_delete_r2(&mut self, literal: &str) {
        let at = self.p.mark_b();
        self.p.ket = self.p.cursor;
        if self.p.eq_s_b(literal) {
            self.p.bra = self.p.cursor;
            if self.r2() {
                self.p.slice_del();
                return;
            }
        }
        self.p.restore_b(at);
    }

    /// `try ([ substring ] among (... (R2 delete)))`.
    fn try_delete_among_r2(&mut self, table: &[(&str, i8)]) {
        let at = self.p.mark_b();
        self.p.ket = self.p.cursor;
        if self.p.find_among_b(table) != 0 {
            self.p.bra = self.p.cursor;
            if self.r2() {
                self.p.slice_del();
                return;
            }
        }
        self.p.restore_b(at);
    }

    fn standard_suffix(&mut self) -> bool {
        self.p.ket = self.p.cursor;
        let rule = self.p.find_among_b(PORTUGUESE_5);
        if rule == 0 {
            return false;
        }
        self.p.bra = self.p.cursor;
        match rule {
            1..=4 => {
                if !self.r2() {
                    return false;
                }
                self.p.slice_from(["", "", "log", "u", "ente"][rule as usize]);
            }
            5 => {
                if !self.r1() {
                    return false;
                }
                self.p.slice_del();
                // try ([ substring ] R2 delete among ('iv' ([ 'at' ] R2 delete) 'os' 'ic' 'ad'))
                let at = self.p.mark_b();
                self.p.ket = self.p.cursor;
                let rule = self.p.find_among_b(PORTUGUESE_2);
                if rule == 0 {
                    self.p.restore_b(at);
                    return true;
                }
                self.p.bra = self.p.cursor;
                if !self.r2() {
                    self.p.restore_b(at);
                    return true;
                }
                self.p.slice_del();
                if rule == 1 {
                    self.p.ket = self.p.cursor;
                    if self.p.eq_s_b("at") && {
                        self.p.bra = self.p.cursor;
                        self.r2()
                    } {
                        self.p.slice_del();
                    } else {
                        self.p.restore_b(at);
                    }
                }
            }
            6 | 7 => {
                if !self.r2() {
                    return false;
                }
                self.p.slice_del();
                self.try_delete_among_r2(if rule == 6 { PORTUGUESE_3 } else { PORTUGUESE_4 });
            }
            8 => {
                if !self.r2() {
                    return false;
                }
                self.p.slice_del();
                self.try_delete_r2("at");
            }
            9 => {
                if !self.rv() || !self.p.eq_s_b("e") {
                    return false;
                }
                self.p.slice_from("ir");
            }
            _ => return false,
        }
        true
    }

    /// `setlimit tomark pV for ([ substring ] among (... delete))`.
    fn verb_suffix(&mut self) -> bool {
        if self.p.cursor < self.pv {
            return false;
        }
        let limit_backward = self.p.limit_backward;
        self.p.limit_backward = self.pv;
        self.p.ket = self.p.cursor;
        let found = self.p.find_among_b(PORTUGUESE_6) != 0;
        if found {
            self.p.bra = self.p.cursor;
            self.p.slice_del();
        }
        self.p.limit_backward = limit_backward;
        found
    }

    fn residual_suffix(&mut self) -> bool {
        self.p.ket = self.p.cursor;
        if self.p.find_among_b(PORTUGUESE_7) == 0 {
            return false;
        }
        self.p.bra = self.p.cursor;
        if !self.rv() {
            return false;
        }
        self.p.slice_del();
        true
    }

    /// `[ literal ] test follower`.
    fn marked_before(&mut self, literal: &str, follower: &str) -> bool {
        if !self.p.eq_s_b(literal) {
            return false;
        }
        self.p.bra = self.p.cursor;
        let at = self.p.mark_b();
        let ok = self.p.eq_s_b(follower);
        self.p.restore_b(at);
        ok
    }

    fn residual_form(&mut self) {
        self.p.ket = self.p.cursor;
        match self.p.find_among_b(PORTUGUESE_8) {
            1 => {
                self.p.bra = self.p.cursor;
                if !self.rv() {
                    return;
                }
                self.p.slice_del();
                self.p.ket = self.p.cursor;
                let at = self.p.mark_b();
                if !self.marked_before("u", "g") {
                    self.p.restore_b(at);
                    if !self.marked_before("i", "c") {
                        return;
                    }
                }
                if self.rv() {
                    self.p.slice_del();
                }
            }
            2 => {
                self.p.bra = self.p.cursor;
                self.p.slice_from("c");
            }
            _ => {}
        }
    }
}

/// `repeat ([substring] among (from <- to ... '' next))` forwards.
fn map_units(p: &mut Program, table: &[(&str, i8)], to: [&str; 2]) {
    loop {
        let at = p.cursor;
        p.bra = p.cursor;
        let rule = p.find_among(table);
        p.ket = p.cursor;
        match rule {
            1 | 2 => p.slice_from(to[rule as usize - 1]),
            3 if p.next() => {}
            _ => {
                p.cursor = at;
                return;
            }
        }
    }
}

/// `mark_regions`: RV after the next vowel (second letter a consonant) or the next
/// consonant (two vowels first), else after the third letter; R1 and R2 as usual.
fn mark_regions(p: &mut Program) -> (usize, usize, usize) {
    let (mut pv, mut p1, mut p2) = (p.limit, p.limit, p.limit);
    let start = p.cursor;
    let rv = (|| {
        if p.in_grouping(V) {
            let at = p.cursor;
            if p.out_grouping(V) && p.go_past(V, false) {
                return true;
            }
            p.cursor = at;
            if p.in_grouping(V) && p.go_past(V, true) {
                return true;
            }
        }
        p.cursor = start;
        if !p.out_grouping(V) {
            return false;
        }
        let at = p.cursor;
        if p.out_grouping(V) && p.go_past(V, false) {
            return true;
        }
        p.cursor = at;
        p.in_grouping(V) && p.next()
    })();
    if rv {
        pv = p.cursor;
    }
    p.cursor = start;
    if p.go_past(V, false) && p.go_past(V, true) {
        p1 = p.cursor;
        if p.go_past(V, false) && p.go_past(V, true) {
            p2 = p.cursor;
        }
    }
    p.cursor = start;
    (pv, p1, p2)
}

/// The stem of `term` by Lucene 8's Snowball Portuguese.
pub fn stem(term: &str) -> String {
    let mut p = Program::new(term);
    map_units(&mut p, PORTUGUESE_0, ["a~", "o~"]);
    p.cursor = 0;
    let (pv, p1, p2) = mark_regions(&mut p);
    p.backwards();
    let mut w = Word { p, pv, p1, p2 };
    let start = w.p.mark_b();
    let suffixed = w.standard_suffix() || {
        w.p.restore_b(start);
        w.verb_suffix()
    };
    if suffixed {
        w.p.restore_b(start);
        // do ([ 'i' ] test 'c' RV delete)
        w.p.ket = w.p.cursor;
        if w.marked_before("i", "c") && w.rv() {
            w.p.slice_del();
        }
    } else {
        w.p.restore_b(start);
        w.residual_suffix();
    }
    w.p.restore_b(start);
    w.residual_form();
    let mut p = w.p;
    p.forwards();
    map_units(&mut p, PORTUGUESE_1, ["ã", "õ"]);
    p.word()
}
