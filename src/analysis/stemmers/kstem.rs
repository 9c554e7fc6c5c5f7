//! Krovetz's KStem as Lucene's KStemmer runs it (the `kstem` filter, and the `stemmer`
//! languages `light_english`, `lightEnglish` and `kstem`): inflectional and derivational
//! endings removed step by step, each candidate checked against a dictionary of English
//! words, the first one found being the stem.
//!
//! The dictionary is Lucene's, generated from its jar into [`kstem_tables`](super::kstem_tables)
//! by tests/lucene/KStemTables.java. The word is kept as Lucene keeps it, a buffer with a
//! length that may shrink below characters it still reads (`setLength` does not clear),
//! since some steps read past the current length.

use super::kstem_tables::{EXCEPTIONS, ROOTS, WORDS};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Lucene's `MaxWordLen`: longer terms are not stemmed.
const MAX_WORD_LEN: usize = 50;

/// A dictionary entry: a fixed stem, or none (the word is its own stem); exceptions are
/// their own stem but do not end the `-ed` and `-ing` steps.
#[derive(Clone, Copy)]
struct Entry {
    root: Option<&'static str>,
    exception: bool,
}

fn dictionary() -> &'static HashMap<Box<[u8]>, Entry> {
    static DICT: OnceLock<HashMap<Box<[u8]>, Entry>> = OnceLock::new();
    DICT.get_or_init(|| {
        let mut d = HashMap::with_capacity(28_000);
        for w in EXCEPTIONS {
            d.insert(w.as_bytes().into(), Entry { root: Some(w), exception: true });
        }
        for (w, root) in ROOTS {
            d.insert(w.as_bytes().into(), Entry { root: Some(root), exception: false });
        }
        // Front-coded: a letter `'A' + shared` starts each word.
        let mut word: Vec<u8> = Vec::new();
        let mut rest = WORDS.as_bytes();
        while let Some((&marker, tail)) = rest.split_first() {
            let end = tail.iter().position(u8::is_ascii_uppercase).unwrap_or(tail.len());
            word.truncate(usize::from(marker - b'A'));
            word.extend_from_slice(&tail[..end]);
            d.insert(word.clone().into_boxed_slice(), Entry { root: None, exception: false });
            rest = &tail[end..];
        }
        d
    })
}

/// The stem of `term`, or `None` when KStem leaves it as it is.
pub fn stem(term: &str) -> Option<String> {
    let bytes = term.as_bytes();
    let len = term.encode_utf16().count();
    if len <= 2 || len >= MAX_WORD_LEN {
        return None;
    }
    let dict = dictionary();
    if let Some(e) = dict.get(bytes) {
        return e.root.map(str::to_string);
    }
    if !bytes.iter().all(u8::is_ascii_lowercase) {
        return None;
    }
    let mut s = KStem { buf: bytes.to_vec(), len: bytes.len(), j: 0, k: bytes.len() as isize - 1, matched: None, dict };
    s.buf.resize(bytes.len() + 10, 0);
    s.run();
    Some(match s.matched.and_then(|e| e.root) {
        Some(root) => root.to_string(),
        None => String::from_utf8_lossy(&s.buf[..s.len]).into_owned(),
    })
}

struct KStem {
    /// Lucene's OpenStringBuilder: characters beyond `len` stay readable.
    buf: Vec<u8>,
    len: usize,
    /// Index of the last letter of the stem.
    j: isize,
    /// Index of the last letter of the word.
    k: isize,
    matched: Option<Entry>,
    dict: &'static HashMap<Box<[u8]>, Entry>,
}

impl KStem {
    fn at(&self, i: isize) -> u8 {
        self.buf.get(i.max(0) as usize).copied().unwrap_or(0)
    }

    fn set_at(&mut self, i: isize, c: u8) {
        let i = i.max(0) as usize;
        if i >= self.buf.len() {
            self.buf.resize(i + 1, 0);
        }
        self.buf[i] = c;
    }

    fn set_len(&mut self, n: isize) {
        self.len = n.max(0) as usize;
        if self.len > self.buf.len() {
            self.buf.resize(self.len, 0);
        }
    }

    fn push(&mut self, c: u8) {
        let at = self.len as isize;
        self.set_at(at, c);
        self.len += 1;
    }

    fn append(&mut self, s: &str) {
        for c in s.bytes() {
            self.push(c);
        }
    }

    fn is_cons(&self, i: isize) -> bool {
        match self.at(i) {
            b'a' | b'e' | b'i' | b'o' | b'u' => false,
            b'y' if i > 0 => !self.is_cons(i - 1),
            _ => true,
        }
    }

    /// Whether the word ends in `suffix`; sets `j` before it (and to `k` on a miss of a
    /// long suffix, as Lucene's array version does).
    fn ends_in(&mut self, suffix: &[u8]) -> bool {
        let n = suffix.len() as isize;
        if suffix.len() > 4 {
            if n > self.k {
                return false;
            }
            let r = self.len as isize - n;
            self.j = self.k;
            if (0..n).any(|i| suffix[i as usize] != self.at(r + i)) {
                return false;
            }
            self.j = r - 1;
            return true;
        }
        if n > self.k {
            return false;
        }
        if (0..n).all(|i| self.at(self.k - n + 1 + i) == suffix[i as usize]) {
            self.j = self.k - n;
            return true;
        }
        false
    }

    fn lookup(&mut self) -> bool {
        self.matched = self.dict.get(&self.buf[..self.len]).copied();
        self.matched.is_some()
    }

    /// `wordInDict`: the entry of the word (a found non-exception is kept as the match).
    fn word_in_dict(&mut self) -> Option<Entry> {
        if self.matched.is_some() {
            return self.matched;
        }
        let e = self.dict.get(&self.buf[..self.len]).copied();
        if e.is_some_and(|e| !e.exception) {
            self.matched = e;
        }
        e
    }

    fn double_c(&self, i: isize) -> bool {
        i >= 1 && self.at(i) == self.at(i - 1) && self.is_cons(i)
    }

    fn vowel_in_stem(&self) -> bool {
        (0..=self.j).any(|i| !self.is_cons(i))
    }

    /// Replaces what follows the stem with `s`.
    fn set_suffix(&mut self, s: &str) {
        self.set_len(self.j + 1);
        self.append(s);
        self.k = self.j + s.len() as isize;
    }

    fn run(&mut self) {
        let steps: [fn(&mut KStem); 9] = [
            KStem::plural,
            KStem::past_tense,
            KStem::aspect,
            KStem::ity_endings,
            KStem::ness_endings,
            KStem::ion_endings,
            KStem::er_and_or_endings,
            KStem::ly_endings,
            KStem::al_endings,
        ];
        for step in steps {
            step(self);
            if self.matched.is_some() {
                return;
            }
        }
        self.word_in_dict();
        let steps: [fn(&mut KStem); 8] = [
            KStem::ive_endings,
            KStem::ize_endings,
            KStem::ment_endings,
            KStem::ble_endings,
            KStem::ism_endings,
            KStem::ic_endings,
            KStem::ncy_endings,
            KStem::nce_endings,
        ];
        for step in steps {
            step(self);
            if self.matched.is_some() {
                return;
            }
        }
    }

    /// Plurals to singular, `-ies` to `-y`.
    fn plural(&mut self) {
        if self.at(self.k) != b's' {
            return;
        }
        if self.ends_in(b"ies") {
            self.set_len(self.j + 3);
            self.k -= 1;
            if self.lookup() {
                return;
            }
            self.k += 1;
            self.push(b's');
            self.set_suffix("y");
            self.lookup();
        } else if self.ends_in(b"es") {
            self.set_len(self.j + 2);
            self.k -= 1;
            // Not `-ses` from a double s (crosses is not crosse).
            let try_e = self.j > 0 && !(self.at(self.j) == b's' && self.at(self.j - 1) == b's');
            if try_e && self.lookup() {
                return;
            }
            self.set_len(self.j + 1);
            self.k -= 1;
            if self.lookup() {
                return;
            }
            self.push(b'e');
            self.k += 1;
            if !try_e {
                self.lookup();
            }
        } else if self.len > 3 && self.at(self.k - 1) != b's' && !self.ends_in(b"ous") {
            self.set_len(self.k);
            self.k -= 1;
            self.lookup();
        }
    }

    /// `-ed` to the present, `-ied` to `-y`.
    fn past_tense(&mut self) {
        if self.len <= 4 {
            return;
        }
        if self.ends_in(b"ied") {
            self.set_len(self.j + 3);
            self.k -= 1;
            if self.lookup() {
                return;
            }
            self.k += 1;
            self.push(b'd');
            self.set_suffix("y");
            self.lookup();
            return;
        }
        if self.ends_in(b"ed") && self.vowel_in_stem() {
            self.set_len(self.j + 2);
            self.k = self.j + 1;
            if self.word_in_dict().is_some_and(|e| !e.exception) {
                return;
            }
            self.set_len(self.j + 1);
            self.k = self.j;
            if self.lookup() {
                return;
            }
            if self.double_c(self.k) {
                self.set_len(self.k);
                self.k -= 1;
                if self.lookup() {
                    return;
                }
                let c = self.at(self.k);
                self.push(c);
                self.k += 1;
                self.lookup();
                return;
            }
            if self.at(0) == b'u' && self.at(1) == b'n' {
                self.push(b'e');
                self.push(b'd');
                self.k += 2;
                return;
            }
            self.set_len(self.j + 1);
            self.push(b'e');
            self.k = self.j + 1;
        }
    }

    /// `-ing`.
    fn aspect(&mut self) {
        if self.len <= 5 {
            return;
        }
        if self.ends_in(b"ing") && self.vowel_in_stem() {
            self.set_at(self.j + 1, b'e');
            self.set_len(self.j + 2);
            self.k = self.j + 1;
            if self.word_in_dict().is_some_and(|e| !e.exception) {
                return;
            }
            self.set_len(self.k);
            self.k -= 1;
            if self.lookup() {
                return;
            }
            if self.double_c(self.k) {
                self.k -= 1;
                self.set_len(self.k + 1);
                if self.lookup() {
                    return;
                }
                let c = self.at(self.k);
                self.push(c);
                self.k += 1;
                self.lookup();
                return;
            }
            if self.j > 0 && self.is_cons(self.j) && self.is_cons(self.j - 1) {
                self.k = self.j;
                self.set_len(self.k + 1);
                return;
            }
            self.set_len(self.j + 1);
            self.push(b'e');
            self.k = self.j + 1;
        }
    }

    /// `-ity`; `-ability`, `-ibility`, `-ivity` and `-ality` accepted without the dictionary.
    fn ity_endings(&mut self) {
        let old_k = self.k;
        if !self.ends_in(b"ity") {
            return;
        }
        self.set_len(self.j + 1);
        self.k = self.j;
        if self.lookup() {
            return;
        }
        self.push(b'e');
        self.k = self.j + 1;
        if self.lookup() {
            return;
        }
        self.set_at(self.j + 1, b'i');
        self.append("ty");
        self.k = old_k;
        let j = self.j;
        if j > 0 && self.at(j - 1) == b'i' && self.at(j) == b'l' {
            self.set_len(j - 1);
            self.append("le");
            self.k = j;
            self.lookup();
            return;
        }
        if j > 0 && self.at(j - 1) == b'i' && self.at(j) == b'v' {
            self.set_len(j + 1);
            self.push(b'e');
            self.k = j + 1;
            self.lookup();
            return;
        }
        if j > 0 && self.at(j - 1) == b'a' && self.at(j) == b'l' {
            self.set_len(j + 1);
            self.k = j;
            self.lookup();
            return;
        }
        if self.lookup() {
            return;
        }
        self.set_len(j + 1);
        self.k = j;
    }

    /// `-ence` and `-ance`.
    fn nce_endings(&mut self) {
        let old_k = self.k;
        if !self.ends_in(b"nce") {
            return;
        }
        let c = self.at(self.j);
        if !(c == b'e' || c == b'a') {
            return;
        }
        self.set_len(self.j);
        self.push(b'e');
        self.k = self.j;
        if self.lookup() {
            return;
        }
        self.set_len(self.j);
        self.k = self.j - 1;
        if self.lookup() {
            return;
        }
        self.push(c);
        self.append("nce");
        self.k = old_k;
    }

    /// `-ness`, always removed (`-iness` to `-y`).
    fn ness_endings(&mut self) {
        if self.ends_in(b"ness") {
            self.set_len(self.j + 1);
            self.k = self.j;
            if self.at(self.j) == b'i' {
                self.set_at(self.j, b'y');
            }
            self.lookup();
        }
    }

    /// `-ism`, always removed.
    fn ism_endings(&mut self) {
        if self.ends_in(b"ism") {
            self.set_len(self.j + 1);
            self.k = self.j;
            self.lookup();
        }
    }

    /// `-ment`.
    fn ment_endings(&mut self) {
        let old_k = self.k;
        if self.ends_in(b"ment") {
            self.set_len(self.j + 1);
            self.k = self.j;
            if self.lookup() {
                return;
            }
            self.append("ment");
            self.k = old_k;
        }
    }

    /// `-ize`.
    fn ize_endings(&mut self) {
        let old_k = self.k;
        if !self.ends_in(b"ize") {
            return;
        }
        let j = self.j;
        self.set_len(j + 1);
        self.k = j;
        if self.lookup() {
            return;
        }
        self.push(b'i');
        if self.double_c(j) {
            self.set_len(j);
            self.k = j - 1;
            if self.lookup() {
                return;
            }
            let c = self.at(j - 1);
            self.push(c);
        }
        self.set_len(j + 1);
        self.push(b'e');
        self.k = j + 1;
        if self.lookup() {
            return;
        }
        self.set_len(j + 1);
        self.append("ize");
        self.k = old_k;
    }

    /// `-ency` and `-ancy`.
    fn ncy_endings(&mut self) {
        if !self.ends_in(b"ncy") {
            return;
        }
        let j = self.j;
        if !(self.at(j) == b'e' || self.at(j) == b'a') {
            return;
        }
        self.set_at(j + 2, b't');
        self.set_len(j + 3);
        self.k = j + 2;
        if self.lookup() {
            return;
        }
        self.set_at(j + 2, b'c');
        self.push(b'e');
        self.k = j + 3;
        self.lookup();
    }

    /// `-able` and `-ible`.
    fn ble_endings(&mut self) {
        let old_k = self.k;
        if !self.ends_in(b"ble") {
            return;
        }
        let j = self.j;
        let c = self.at(j);
        if !(c == b'a' || c == b'i') {
            return;
        }
        self.set_len(j);
        self.k = j - 1;
        if self.lookup() {
            return;
        }
        if self.double_c(self.k) {
            self.set_len(self.k);
            self.k -= 1;
            if self.lookup() {
                return;
            }
            self.k += 1;
            let d = self.at(self.k - 1);
            self.push(d);
        }
        self.set_len(j);
        self.push(b'e');
        self.k = j;
        if self.lookup() {
            return;
        }
        self.set_len(j);
        self.append("ate");
        self.k = j + 2;
        if self.lookup() {
            return;
        }
        self.set_len(j);
        self.push(c);
        self.append("ble");
        self.k = old_k;
    }

    /// `-ic`, tried as `-ical`, `-y`, `-e`, and removed.
    fn ic_endings(&mut self) {
        if !self.ends_in(b"ic") {
            return;
        }
        let j = self.j;
        self.set_len(j + 3);
        self.append("al");
        self.k = j + 4;
        if self.lookup() {
            return;
        }
        self.set_at(j + 1, b'y');
        self.set_len(j + 2);
        self.k = j + 1;
        if self.lookup() {
            return;
        }
        self.set_at(j + 1, b'e');
        if self.lookup() {
            return;
        }
        self.set_len(j + 1);
        self.k = j;
        if self.lookup() {
            return;
        }
        self.append("ic");
        self.k = j + 2;
    }

    /// `-ion`, `-ition`, `-ation`, `-ization` (always `-ize`) and `-ication`.
    fn ion_endings(&mut self) {
        let old_k = self.k;
        if !self.ends_in(b"ion") {
            return;
        }
        if self.ends_in(b"ization") {
            self.set_len(self.j + 3);
            self.push(b'e');
            self.k = self.j + 3;
            self.lookup();
            return;
        }
        if self.ends_in(b"ition") {
            self.set_len(self.j + 1);
            self.push(b'e');
            self.k = self.j + 1;
            if self.lookup() {
                return;
            }
            self.set_len(self.j + 1);
            self.append("ition");
            self.k = old_k;
        } else if self.ends_in(b"ation") {
            self.set_len(self.j + 3);
            self.push(b'e');
            self.k = self.j + 3;
            if self.lookup() {
                return;
            }
            self.set_len(self.j + 1);
            self.push(b'e');
            self.k = self.j + 1;
            if self.lookup() {
                return;
            }
            self.set_len(self.j + 1);
            self.k = self.j;
            if self.lookup() {
                return;
            }
            self.set_len(self.j + 1);
            self.append("ation");
            self.k = old_k;
        }
        if self.ends_in(b"ication") {
            self.set_len(self.j + 1);
            self.push(b'y');
            self.k = self.j + 1;
            if self.lookup() {
                return;
            }
            self.set_len(self.j + 1);
            self.append("ication");
            self.k = old_k;
        }
        self.j = self.k - 3;
        self.set_len(self.j + 1);
        self.push(b'e');
        self.k = self.j + 1;
        if self.lookup() {
            return;
        }
        self.set_len(self.j + 1);
        self.k = self.j;
        if self.lookup() {
            return;
        }
        self.set_len(self.j + 1);
        self.append("ion");
        self.k = old_k;
    }

    /// `-er`, `-or`, `-ier`, `-eer`; `-izer` always to `-ize`.
    fn er_and_or_endings(&mut self) {
        let old_k = self.k;
        if self.at(self.k) != b'r' {
            return;
        }
        if self.ends_in(b"izer") {
            self.set_len(self.j + 4);
            self.k = self.j + 3;
            self.lookup();
            return;
        }
        if !(self.ends_in(b"er") || self.ends_in(b"or")) {
            return;
        }
        let j = self.j;
        let c = self.at(j + 1);
        if self.double_c(j) {
            self.set_len(j);
            self.k = j - 1;
            if self.lookup() {
                return;
            }
            let d = self.at(j - 1);
            self.push(d);
        }
        if self.at(j) == b'i' {
            self.set_at(j, b'y');
            self.set_len(j + 1);
            self.k = j;
            if self.lookup() {
                return;
            }
            self.set_at(j, b'i');
            self.push(b'e');
        }
        if self.at(j) == b'e' {
            self.set_len(j);
            self.k = j - 1;
            if self.lookup() {
                return;
            }
            self.push(b'e');
        }
        self.set_len(j + 2);
        self.k = j + 1;
        if self.lookup() {
            return;
        }
        self.set_len(j + 1);
        self.k = j;
        if self.lookup() {
            return;
        }
        self.push(b'e');
        self.k = j + 1;
        if self.lookup() {
            return;
        }
        self.set_len(j + 1);
        self.push(c);
        self.push(b'r');
        self.k = old_k;
    }

    /// `-ly`; `-ally` always to `-al`, `-ably` to `-able`.
    fn ly_endings(&mut self) {
        let old_k = self.k;
        if !self.ends_in(b"ly") {
            return;
        }
        let j = self.j;
        self.set_at(j + 2, b'e');
        if self.lookup() {
            return;
        }
        self.set_at(j + 2, b'y');
        self.set_len(j + 1);
        self.k = j;
        if self.lookup() {
            return;
        }
        if j > 0 && self.at(j - 1) == b'a' && self.at(j) == b'l' {
            return;
        }
        self.append("ly");
        self.k = old_k;
        if j > 0 && self.at(j - 1) == b'a' && self.at(j) == b'b' {
            self.set_at(j + 2, b'e');
            self.k = j + 2;
            return;
        }
        if self.at(j) == b'i' {
            self.set_len(j);
            self.push(b'y');
            self.k = j;
            if self.lookup() {
                return;
            }
            self.set_len(j);
            self.append("ily");
            self.k = old_k;
        }
        self.set_len(j + 1);
        self.k = j;
    }

    /// `-al`, and the `-ical` and `-ial` the `-ly` step leaves.
    fn al_endings(&mut self) {
        let old_k = self.k;
        if self.len < 4 || !self.ends_in(b"al") {
            return;
        }
        let j = self.j;
        self.set_len(j + 1);
        self.k = j;
        if self.lookup() {
            return;
        }
        if self.double_c(j) {
            self.set_len(j);
            self.k = j - 1;
            if self.lookup() {
                return;
            }
            let c = self.at(j - 1);
            self.push(c);
        }
        self.set_len(j + 1);
        self.push(b'e');
        self.k = j + 1;
        if self.lookup() {
            return;
        }
        self.set_len(j + 1);
        self.append("um");
        self.k = j + 2;
        if self.lookup() {
            return;
        }
        self.set_len(j + 1);
        self.append("al");
        self.k = old_k;
        if j > 0 && self.at(j - 1) == b'i' && self.at(j) == b'c' {
            self.set_len(j - 1);
            self.k = j - 2;
            if self.lookup() {
                return;
            }
            self.set_len(j - 1);
            self.push(b'y');
            self.k = j - 1;
            if self.lookup() {
                return;
            }
            self.set_len(j - 1);
            self.append("ic");
            self.k = j;
            self.lookup();
            return;
        }
        if self.at(j) == b'i' {
            self.set_len(j);
            self.k = j - 1;
            if self.lookup() {
                return;
            }
            self.append("ial");
            self.k = old_k;
            self.lookup();
        }
    }

    /// `-ive`; `-ative` to `-e` or removed, `-ive` to `-ion`.
    fn ive_endings(&mut self) {
        let old_k = self.k;
        if !self.ends_in(b"ive") {
            return;
        }
        let j = self.j;
        self.set_len(j + 1);
        self.k = j;
        if self.lookup() {
            return;
        }
        self.push(b'e');
        self.k = j + 1;
        if self.lookup() {
            return;
        }
        self.set_len(j + 1);
        self.append("ive");
        if j > 0 && self.at(j - 1) == b'a' && self.at(j) == b't' {
            self.set_at(j - 1, b'e');
            self.set_len(j);
            self.k = j - 1;
            if self.lookup() {
                return;
            }
            self.set_len(j - 1);
            if self.lookup() {
                return;
            }
            self.append("ative");
            self.k = old_k;
        }
        self.set_at(j + 2, b'o');
        self.set_at(j + 3, b'n');
        if self.lookup() {
            return;
        }
        self.set_at(j + 2, b'v');
        self.set_at(j + 3, b'e');
        self.k = old_k;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_with_the_dictionary() {
        assert_eq!(stem("bricks").as_deref(), Some("brick"));
        assert_eq!(stem("italians").as_deref(), Some("italy"));
        assert_eq!(stem("aging").as_deref(), Some("age"));
        assert_eq!(stem("brick"), None);
        assert_eq!(stem("ab"), None);
        assert_eq!(stem("Bricks"), None);
    }
}
