//! The Snowball Dutch stemmer as Lucene 8 runs it (`org.tartarus.snowball.ext.DutchStemmer`,
//! the original Snowball algorithm), over UTF-16 units as Lucene counts them: accents
//! folded and `y`/`i` marked as consonants in the prelude, R1 (at least three units in)
//! and R2, the standard suffixes, `e` endings and undoubling, then the marks undone.

const UPPER_I: u16 = b'I' as u16;
const UPPER_Y: u16 = b'Y' as u16;
const E_GRAVE: u16 = 0xE8;

fn is(c: u16, ascii: u8) -> bool {
    c == u16::from(ascii)
}

/// Snowball's `v` grouping: `aeiouyè`.
fn vowel(c: u16) -> bool {
    c == E_GRAVE || (c < 128 && b"aeiouy".contains(&(c as u8)))
}

struct Word {
    s: Vec<u16>,
    p1: usize,
    p2: usize,
    e_found: bool,
}

impl Word {
    fn ends_with(&self, suffix: &str) -> bool {
        let n = suffix.len();
        self.s.len() >= n && self.s[self.s.len() - n..].iter().zip(suffix.bytes()).all(|(c, b)| is(*c, b))
    }

    /// The unit before the last `n` units, if any.
    fn before(&self, n: usize) -> Option<u16> {
        self.s.len().checked_sub(n + 1).map(|i| self.s[i])
    }

    fn in_r1(&self, n: usize) -> bool {
        self.s.len() >= n && self.p1 <= self.s.len() - n
    }

    fn in_r2(&self, n: usize) -> bool {
        self.s.len() >= n && self.p2 <= self.s.len() - n
    }

    fn cut(&mut self, n: usize) {
        let len = self.s.len() - n;
        self.s.truncate(len);
    }

    fn undouble(&mut self) {
        if self.ends_with("kk") || self.ends_with("dd") || self.ends_with("tt") {
            self.cut(1);
        }
    }

    /// `e_ending`: a final `e` in R1 after a consonant.
    fn e_ending(&mut self) {
        self.e_found = false;
        if self.ends_with("e") && self.in_r1(1) && self.before(1).is_some_and(|c| !vowel(c)) {
            self.cut(1);
            self.e_found = true;
            self.undouble();
        }
    }

    /// `en_ending`: a final `en`/`ene` (`n` units) in R1 after a consonant, not `gem`.
    fn en_ending(&mut self, n: usize) -> bool {
        if !self.in_r1(n) || self.before(n).is_none_or(vowel) {
            return false;
        }
        let stem_end = self.s.len() - n;
        if stem_end >= 3 && self.s[stem_end - 3..stem_end].iter().zip(b"gem").all(|(c, b)| is(*c, *b)) {
            return false;
        }
        self.cut(n);
        self.undouble();
        true
    }

    fn standard_suffix(&mut self) {
        // Step 1: the longest of heden, ene, en, se, s.
        if self.ends_with("heden") {
            if self.in_r1(5) {
                self.cut(2);
                let len = self.s.len();
                self.s[len - 1] = u16::from(b'i');
                self.s.push(u16::from(b'd'));
            }
        } else if self.ends_with("ene") {
            self.en_ending(3);
        } else if self.ends_with("en") {
            self.en_ending(2);
        } else if self.ends_with("se") || self.ends_with("s") {
            let n = if self.ends_with("se") { 2 } else { 1 };
            if self.in_r1(n) && self.before(n).is_some_and(|c| !vowel(c) && !is(c, b'j')) {
                self.cut(n);
            }
        }
        // Step 2.
        self.e_ending();
        // Step 3a: heid.
        if self.ends_with("heid") && self.in_r2(4) && !self.before(4).is_some_and(|c| is(c, b'c')) {
            self.cut(4);
            if self.ends_with("en") {
                self.en_ending(2);
            }
        }
        // Step 3b: the longest of end, ing, ig, lijk, baar, bar.
        if self.ends_with("end") || self.ends_with("ing") {
            if self.in_r2(3) {
                self.cut(3);
                if self.ends_with("ig") && self.in_r2(2) && !self.before(2).is_some_and(|c| is(c, b'e')) {
                    self.cut(2);
                } else {
                    self.undouble();
                }
            }
        } else if self.ends_with("ig") {
            if self.in_r2(2) && !self.before(2).is_some_and(|c| is(c, b'e')) {
                self.cut(2);
            }
        } else if self.ends_with("lijk") {
            if self.in_r2(4) {
                self.cut(4);
                self.e_ending();
            }
        } else if self.ends_with("baar") {
            if self.in_r2(4) {
                self.cut(4);
            }
        } else if self.ends_with("bar") && self.in_r2(3) && self.e_found {
            self.cut(3);
        }
        // Step 4: undouble a vowel between consonants at the end (CVVD, D not I).
        let n = self.s.len();
        if n >= 4 {
            let (c, v1, v2, d) = (self.s[n - 4], self.s[n - 3], self.s[n - 2], self.s[n - 1]);
            if !vowel(d) && d != UPPER_I && v1 == v2 && b"aeou".iter().any(|b| is(v1, *b)) && !vowel(c) {
                self.s.remove(n - 2);
            }
        }
    }
}

/// The prelude: accents folded; `y` first or after a vowel, and `i` between vowels,
/// marked as consonants.
fn prelude(s: &mut [u16]) {
    for c in s.iter_mut() {
        let folded = match *c {
            0xE4 | 0xE1 => b'a',
            0xEB | 0xE9 => b'e',
            0xEF | 0xED => b'i',
            0xF6 | 0xF3 => b'o',
            0xFC | 0xFA => b'u',
            _ => continue,
        };
        *c = u16::from(folded);
    }
    if s.first().is_some_and(|c| is(*c, b'y')) {
        s[0] = UPPER_Y;
    }
    for i in 0..s.len() {
        if !vowel(s[i]) || i + 1 >= s.len() {
            continue;
        }
        if is(s[i + 1], b'i') && s.get(i + 2).is_some_and(|c| vowel(*c)) {
            s[i + 1] = UPPER_I;
        } else if is(s[i + 1], b'y') {
            s[i + 1] = UPPER_Y;
        }
    }
}

/// R1 and R2: after the first consonant that follows a vowel (R1 at least three units
/// in), each; the word's end when there is none.
fn regions(s: &[u16]) -> (usize, usize) {
    let n = s.len();
    if n < 3 {
        return (n, n);
    }
    let after_vc = |from: usize| -> Option<usize> {
        let v = (from..n).find(|&i| vowel(s[i]))?;
        let c = (v + 1..n).find(|&i| !vowel(s[i]))?;
        Some(c + 1)
    };
    let Some(p1) = after_vc(0) else {
        return (n, n);
    };
    let p2 = after_vc(p1).unwrap_or(n);
    (p1.max(3), p2)
}

/// The Dutch stem of `term`.
pub fn stem(term: &str) -> String {
    let mut s: Vec<u16> = term.encode_utf16().collect();
    prelude(&mut s);
    let (p1, p2) = regions(&s);
    let mut w = Word { s, p1, p2, e_found: false };
    w.standard_suffix();
    for c in &mut w.s {
        if *c == UPPER_I {
            *c = u16::from(b'i');
        } else if *c == UPPER_Y {
            *c = u16::from(b'y');
        }
    }
    String::from_utf16_lossy(&w.s)
}

#[cfg(test)]
mod tests {
    #[test]
    fn stems() {
        for (w, s) in
            [("lichamelijke", "licham"), ("fietsen", "fiets"), ("maan", "man"), ("brood", "brod"), ("aßen", "aßen")]
        {
            assert_eq!(super::stem(w), s, "{w}");
        }
    }
}
