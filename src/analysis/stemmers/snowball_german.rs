//! Snowball German and German2 as Lucene 8 runs them (`GermanStemmer`, `German2Stemmer`,
//! the Snowball algorithm's revision Lucene ships: no `-nis` rule, `ä ö ü` folded at
//! the end). German2 reads `ae oe ue` (not after `q`) as umlauts first.

use super::snowball_runtime::Program;
use super::snowball_tables::*;

const V: &str = GERMAN_V;

/// `prelude`: `ß` as `ss` (German2: also `ae oe ue` as umlauts), `u`/`y` between vowels
/// marked as consonants (`U`, `Y`).
fn prelude(p: &mut Program, german2: bool) {
    let start = p.cursor;
    if !german2 {
        replace_sharp_s(p);
        p.cursor = start;
    }
    // repeat goto (v [('u' ] v <- 'U') or ('y' ] v <- 'Y')).
    loop {
        let found = loop {
            let at = p.cursor;
            if p.in_grouping(V) {
                p.bra = p.cursor;
                let before = p.cursor;
                if p.eq_s("u") && {
                    p.ket = p.cursor;
                    p.in_grouping(V)
                } {
                    p.slice_from("U");
                    p.cursor = at;
                    break true;
                }
                p.cursor = before;
                if p.eq_s("y") && {
                    p.ket = p.cursor;
                    p.in_grouping(V)
                } {
                    p.slice_from("Y");
                    p.cursor = at;
                    break true;
                }
            }
            p.cursor = at;
            if !p.next() {
                break false;
            }
        };
        if !found {
            break;
        }
    }
    if german2 {
        p.cursor = start;
        fold_umlaut_spellings(p);
    }
}

fn replace_sharp_s(p: &mut Program) {
    loop {
        p.bra = p.cursor;
        let at = p.cursor;
        if p.eq_s("ß") {
            p.ket = p.cursor;
            p.slice_from("ss");
            continue;
        }
        p.cursor = at;
        if !p.next() {
            return;
        }
    }
}

/// German2's `repeat ([substring] among ('ß' <- 'ss' 'ae' <- 'ä' 'oe' <- 'ö' 'ue' <- 'ü'
/// 'qu' hop 2 '' next))`.
fn fold_umlaut_spellings(p: &mut Program) {
    loop {
        let at = p.cursor;
        p.bra = p.cursor;
        let rule = p.find_among(GERMAN2_0);
        p.ket = p.cursor;
        let ok = match rule {
            1 => {
                p.slice_from("ss");
                true
            }
            2 => {
                p.slice_from("ä");
                true
            }
            3 => {
                p.slice_from("ö");
                true
            }
            4 => {
                p.slice_from("ü");
                true
            }
            5 => p.hop(2),
            6 => p.next(),
            _ => false,
        };
        if !ok {
            p.cursor = at;
            return;
        }
    }
}

/// `mark_regions`: p1 after the first non-vowel following a vowel (at least three units
/// in), p2 the same again after p1; both the end when the word is shorter.
fn mark_regions(p: &mut Program) -> (usize, usize) {
    let (mut p1, mut p2) = (p.limit, p.limit);
    let start = p.cursor;
    if !p.hop(3) {
        return (p1, p2);
    }
    let x = p.cursor;
    p.cursor = start;
    if !p.go_past(V, false) || !p.go_past(V, true) {
        return (p1, p2);
    }
    p1 = p.cursor.max(x);
    if !p.go_past(V, false) || !p.go_past(V, true) {
        return (p1, p2);
    }
    p2 = p.cursor;
    (p1, p2)
}

/// `standard_suffix`, in backward mode.
fn standard_suffix(p: &mut Program, p1: usize, p2: usize, tables: [&[(&str, i8)]; 4]) {
    let [step1, step2, ending, adjective] = tables;
    let mark = p.mark_b();
    p.ket = p.cursor;
    let rule = p.find_among_b(step1);
    if rule != 0 {
        p.bra = p.cursor;
        if p1 <= p.cursor {
            match rule {
                1 => p.slice_del(),
                2 if p.in_grouping_b(GERMAN_S_ENDING) => p.slice_del(),
                _ => {}
            }
        }
    }
    p.restore_b(mark);

    let mark = p.mark_b();
    p.ket = p.cursor;
    let rule = p.find_among_b(step2);
    if rule != 0 {
        p.bra = p.cursor;
        if p1 <= p.cursor {
            match rule {
                1 => p.slice_del(),
                2 if p.in_grouping_b(GERMAN_ST_ENDING) && p.hop_b(3) => p.slice_del(),
                _ => {}
            }
        }
    }
    p.restore_b(mark);

    let mark = p.mark_b();
    p.ket = p.cursor;
    let rule = p.find_among_b(ending);
    if rule != 0 {
        p.bra = p.cursor;
        if p2 <= p.cursor {
            match rule {
                1 => {
                    p.slice_del();
                    // try ([ 'ig' ] not 'e' R2 delete)
                    let at = p.mark_b();
                    p.ket = p.cursor;
                    if p.eq_s_b("ig") {
                        p.bra = p.cursor;
                        let before = p.mark_b();
                        let after_e = p.eq_s_b("e");
                        p.restore_b(before);
                        if !after_e && p2 <= p.cursor {
                            p.slice_del();
                        } else {
                            p.restore_b(at);
                        }
                    } else {
                        p.restore_b(at);
                    }
                }
                2 => {
                    let before = p.mark_b();
                    let after_e = p.eq_s_b("e");
                    p.restore_b(before);
                    if !after_e {
                        p.slice_del();
                    }
                }
                3 => {
                    p.slice_del();
                    // try ([ 'er' or 'en' ] R1 delete)
                    let at = p.mark_b();
                    p.ket = p.cursor;
                    let found = p.eq_s_b("er") || {
                        p.restore_b(at);
                        p.eq_s_b("en")
                    };
                    if found {
                        p.bra = p.cursor;
                        if p1 <= p.cursor {
                            p.slice_del();
                        } else {
                            p.restore_b(at);
                        }
                    } else {
                        p.restore_b(at);
                    }
                }
                4 => {
                    p.slice_del();
                    // try ([ substring ] R2 among ('ig' 'lich' (delete)))
                    let at = p.mark_b();
                    p.ket = p.cursor;
                    if p.find_among_b(adjective) == 1 {
                        p.bra = p.cursor;
                        if p2 <= p.cursor {
                            p.slice_del();
                        } else {
                            p.restore_b(at);
                        }
                    } else {
                        p.restore_b(at);
                    }
                }
                _ => {}
            }
        }
    }
    p.restore_b(mark);
}

/// `postlude`: the marks undone and umlauts folded (`U`→`u`, `Y`→`y`, `ä`→`a`, ...).
fn postlude(p: &mut Program, table: &[(&str, i8)]) {
    loop {
        let at = p.cursor;
        p.bra = p.cursor;
        let rule = p.find_among(table);
        p.ket = p.cursor;
        match rule {
            1 => p.slice_from("y"),
            2 | 5 => p.slice_from("u"),
            3 => p.slice_from("a"),
            4 => p.slice_from("o"),
            6 if p.next() => {}
            _ => {
                p.cursor = at;
                return;
            }
        }
    }
}

/// The stem of `term` by Snowball German (`german2` false) or German2.
pub fn stem(term: &str, german2: bool) -> String {
    let mut p = Program::new(term);
    prelude(&mut p, german2);
    p.cursor = 0;
    let (p1, p2) = mark_regions(&mut p);
    p.cursor = 0;
    p.backwards();
    if german2 {
        standard_suffix(&mut p, p1, p2, [GERMAN2_2, GERMAN2_3, GERMAN2_5, GERMAN2_4]);
    } else {
        standard_suffix(&mut p, p1, p2, [GERMAN_1, GERMAN_2, GERMAN_4, GERMAN_3]);
    }
    p.forwards();
    postlude(&mut p, if german2 { GERMAN2_1 } else { GERMAN_0 });
    p.word()
}

#[cfg(test)]
mod tests {
    use super::stem;

    #[test]
    fn lucene_stems() {
        // Lucene 8.7's stems (no -nis rule: `kenntnisse` keeps its `ss`).
        assert_eq!(stem("aufeinanderfolgenden", false), "aufeinanderfolg");
        assert_eq!(stem("kenntnisse", false), "kenntniss");
        assert_eq!(stem("häuser", false), "haus");
        assert_eq!(stem("haeuser", true), "haus");
        assert_eq!(stem("straße", false), "strass");
    }
}
