//! Snowball Lithuanian as Lucene 8 runs it (`LithuanianStemmer`, the contributed
//! algorithm Lucene ships): conflicting endings fixed, one inflectional ending then
//! derivational ones removed in R1, `č`/`dž` back to `t`/`d`, `gd` to `g`.

use super::snowball_runtime::Program;
use super::snowball_tables::*;

const V: &str = LITHUANIAN_V;

/// R1: after the first consonant that follows a vowel; a long word's initial `a` is
/// skipped first.
fn mark_r1(p: &mut Program) -> usize {
    let start = p.cursor;
    if !(p.s.len() > 6 && p.eq_s("a")) {
        p.cursor = start;
    }
    if p.go_past(V, false) && p.go_past(V, true) {
        return p.cursor;
    }
    p.limit
}

/// `[substring] among (...)` replaced by `to[rule - 1]`.
fn replace_b(p: &mut Program, table: &[(&str, i8)], to: &[&str]) {
    p.ket = p.cursor;
    let rule = p.find_among_b(table);
    if rule > 0 {
        p.bra = p.cursor;
        p.slice_from(to[rule as usize - 1]);
    }
}

/// `setlimit tomark p1 for ([substring] among (...))` deleted; whether one was.
fn delete_in_r1(p: &mut Program, p1: usize, table: &[(&str, i8)]) -> bool {
    if p.cursor < p1 {
        return false;
    }
    let limit_backward = p.limit_backward;
    p.limit_backward = p1;
    p.ket = p.cursor;
    let found = p.find_among_b(table) != 0;
    p.bra = p.cursor;
    p.limit_backward = limit_backward;
    if found {
        p.slice_del();
    }
    found
}

fn fix_chdz(p: &mut Program) {
    replace_b(p, LITHUANIAN_3, &["t", "d"]);
}

/// The stem of `term` by Lucene 8's Snowball Lithuanian.
pub fn stem(term: &str) -> String {
    let mut p = Program::new(term);
    let p1 = mark_r1(&mut p);
    p.cursor = 0;
    p.backwards();
    let steps: [&dyn Fn(&mut Program); 6] = [
        &|p| {
            replace_b(
                p,
                LITHUANIAN_2,
                &["aitė", "aitė", "uotė", "uotė", "ėjimas", "esys", "asys", "avimas", "ojimas", "okatė", "okatė"],
            )
        },
        &|p| {
            delete_in_r1(p, p1, LITHUANIAN_0);
        },
        &fix_chdz,
        &|p| {
            // repeat: derivational endings, one after another.
            loop {
                let at = p.mark_b();
                if !delete_in_r1(p, p1, LITHUANIAN_1) {
                    p.restore_b(at);
                    break;
                }
            }
        },
        &fix_chdz,
        &|p| replace_b(p, LITHUANIAN_4, &["g"]),
    ];
    for step in steps {
        let at = p.mark_b();
        step(&mut p);
        p.restore_b(at);
    }
    p.forwards();
    p.word()
}
