//! The Porter stemmer as Lucene runs it (Lucene's PorterStemmer, the reference C
//! implementation with its two departures). It works on UTF-16 units; letters other than
//! ASCII lowercase vowels count as consonants, as in Lucene.

/// Lucene's PorterStemmer over a term.
pub fn porter(term: &str) -> String {
    let mut b: Vec<char> = term.chars().collect();
    if b.iter().any(|c| c.len_utf16() != 1) {
        // Lucene's indices count UTF-16 units; astral characters would shift them.
        return term.to_string();
    }
    let mut s = Porter { b: &mut b, k: 0, j: 0 };
    let len = s.b.len();
    if len < 3 {
        return term.to_string();
    }
    s.k = len - 1;
    s.step1();
    s.step2();
    s.step3();
    s.step4();
    s.step5();
    s.step6();
    let k = s.k;
    b[..=k].iter().collect()
}

struct Porter<'b> {
    b: &'b mut Vec<char>,
    k: usize,
    j: usize,
}

impl Porter<'_> {
    fn cons(&self, i: usize) -> bool {
        match self.b[i] {
            'a' | 'e' | 'i' | 'o' | 'u' => false,
            'y' => i == 0 || !self.cons(i - 1),
            _ => true,
        }
    }

    /// The number of vowel-consonant sequences in `b[0..=j]`.
    fn m(&self) -> usize {
        let mut n = 0;
        let mut i = 0;
        let j = self.j as isize;
        loop {
            if i as isize > j {
                return n;
            }
            if !self.cons(i) {
                break;
            }
            i += 1;
        }
        i += 1;
        loop {
            loop {
                if i as isize > j {
                    return n;
                }
                if self.cons(i) {
                    break;
                }
                i += 1;
            }
            i += 1;
            n += 1;
            loop {
                if i as isize > j {
                    return n;
                }
                if !self.cons(i) {
                    break;
                }
                i += 1;
            }
            i += 1;
        }
    }

    fn vowel_in_stem(&self) -> bool {
        (0..=self.j).any(|i| !self.cons(i))
    }

    fn double_c(&self, j: usize) -> bool {
        j >= 1 && self.b[j] == self.b[j - 1] && self.cons(j)
    }

    fn cvc(&self, i: usize) -> bool {
        if i < 2 || !self.cons(i) || self.cons(i - 1) || !self.cons(i - 2) {
            return false;
        }
        !matches!(self.b[i], 'w' | 'x' | 'y')
    }

    /// Whether `b[0..=k]` ends with `s`; sets `j` before the suffix.
    fn ends(&mut self, s: &str) -> bool {
        let l = s.len();
        if l > self.k + 1 {
            return false;
        }
        let start = self.k + 1 - l;
        if !self.b[start..=self.k].iter().copied().eq(s.chars()) {
            return false;
        }
        // `j` is one before the suffix; a suffix covering the whole word leaves j "at -1",
        // which Lucene's loops treat as an empty stem.
        self.j = start.wrapping_sub(1);
        true
    }

    fn set_to(&mut self, s: &str) {
        let at = self.j.wrapping_add(1);
        self.b.truncate(at);
        self.b.extend(s.chars());
        self.k = self.j.wrapping_add(s.len());
    }

    fn r(&mut self, s: &str) {
        if self.j != usize::MAX && self.m() > 0 {
            self.set_to(s);
        }
    }

    fn step1(&mut self) {
        if self.b[self.k] == 's' {
            if self.ends("sses") {
                self.k -= 2;
            } else if self.ends("ies") {
                self.set_to("i");
            } else if self.b[self.k - 1] != 's' {
                self.k -= 1;
            }
        }
        if self.ends("eed") {
            if self.j != usize::MAX && self.m() > 0 {
                self.k -= 1;
            }
        } else if (self.ends("ed") || self.ends("ing")) && self.j != usize::MAX && self.vowel_in_stem() {
            self.k = self.j;
            if self.ends("at") {
                self.set_to("ate");
            } else if self.ends("bl") {
                self.set_to("ble");
            } else if self.ends("iz") {
                self.set_to("ize");
            } else if self.double_c(self.k) {
                let ch = self.b[self.k];
                self.k -= 1;
                if matches!(ch, 'l' | 's' | 'z') {
                    self.k += 1;
                }
            } else {
                self.j = self.k;
                if self.m() == 1 && self.cvc(self.k) {
                    self.set_to("e");
                }
            }
        }
    }

    /// Replaces the first of `rules`' suffixes the word ends with (Porter's `r`, which
    /// applies only when the stem's measure is above zero).
    fn replace_first(&mut self, rules: &[(&str, &str)]) {
        if let Some((_, to)) = rules.iter().find(|(suffix, _)| self.ends(suffix)) {
            self.r(to);
        }
    }

    fn step2(&mut self) {
        if self.ends("y") && self.j != usize::MAX && self.vowel_in_stem() {
            self.b[self.k] = 'i';
        }
    }

    fn step3(&mut self) {
        if self.k == 0 {
            return;
        }
        let rules: &[(&str, &str)] = match self.b[self.k - 1] {
            'a' => &[("ational", "ate"), ("tional", "tion")],
            'c' => &[("enci", "ence"), ("anci", "ance")],
            'e' => &[("izer", "ize")],
            'l' => &[("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous")],
            'o' => &[("ization", "ize"), ("ation", "ate"), ("ator", "ate")],
            's' => &[("alism", "al"), ("iveness", "ive"), ("fulness", "ful"), ("ousness", "ous")],
            't' => &[("aliti", "al"), ("iviti", "ive"), ("biliti", "ble")],
            'g' => &[("logi", "log")],
            _ => &[],
        };
        self.replace_first(rules);
    }

    fn step4(&mut self) {
        let rules: &[(&str, &str)] = match self.b[self.k] {
            'e' => &[("icate", "ic"), ("ative", ""), ("alize", "al")],
            'i' => &[("iciti", "ic")],
            'l' => &[("ical", "ic"), ("ful", "")],
            's' => &[("ness", "")],
            _ => &[],
        };
        self.replace_first(rules);
    }

    fn step5(&mut self) {
        if self.k == 0 {
            return;
        }
        let suffixes: &[&str] = match self.b[self.k - 1] {
            'a' => &["al"],
            'c' => &["ance", "ence"],
            'e' => &["er"],
            'i' => &["ic"],
            'l' => &["able", "ible"],
            'n' => &["ant", "ement", "ment", "ent"],
            'o' => &["ion", "ou"],
            's' => &["ism"],
            't' => &["ate", "iti"],
            'u' => &["ous"],
            'v' => &["ive"],
            'z' => &["ize"],
            _ => return,
        };
        let mut found = false;
        for s in suffixes {
            if self.ends(s) {
                if *s == "ion" && !(self.j != usize::MAX && matches!(self.b[self.j], 's' | 't')) {
                    continue;
                }
                found = true;
                break;
            }
        }
        if found && self.j != usize::MAX && self.m() > 1 {
            self.k = self.j;
        }
    }

    fn step6(&mut self) {
        self.j = self.k;
        if self.b[self.k] == 'e' {
            let a = self.m();
            if a > 1 || (a == 1 && !(self.k >= 1 && self.cvc(self.k - 1))) {
                self.k -= 1;
            }
        }
        if self.b[self.k] == 'l' && self.double_c(self.k) && self.m() > 1 {
            self.k -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn porter_stems() {
        for (w, s) in [
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("cats", "cat"),
            ("feed", "feed"),
            ("agreed", "agre"),
            ("plastered", "plaster"),
            ("motoring", "motor"),
            ("hopping", "hop"),
            ("filing", "file"),
            ("happy", "happi"),
            ("relational", "relat"),
            ("generalization", "gener"),
            ("electricity", "electr"),
            ("adjustable", "adjust"),
            ("controlling", "control"),
            ("is", "is"),
        ] {
            assert_eq!(porter(w), s, "{w}");
        }
    }
}
