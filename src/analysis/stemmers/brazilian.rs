//! Lucene 8's BrazilianStemmer (`brazilian`, the `brazilian` analyzer): the term
//! lowercased and stripped of accents and of one leading and one trailing punctuation
//! mark, then standard, verb and residual suffixes removed. Its regions (R1, R2, RV)
//! are taken once from the changed term and never moved, as Lucene's are; the quirks
//! of its rule list (`-logias` matched but kept, `-ira` in the verb step removing
//! `-ava`) are Lucene's too. Works on UTF-16 units as Lucene's strings count them.

use crate::analysis::chars;

type Units = Vec<u16>;

fn units(s: &str) -> Units {
    s.encode_utf16().collect()
}

fn is_vowel(c: u16) -> bool {
    matches!(c, 0x61 | 0x65 | 0x69 | 0x6F | 0x75)
}

/// `suffix(value, suffix)`: false for a missing region.
fn ends(value: Option<&Units>, suffix: &str) -> bool {
    let Some(v) = value else { return false };
    let s = units(suffix);
    s.len() <= v.len() && v[v.len() - s.len()..] == s[..]
}

/// `suffixPreceded(value, suffix, preceded)`.
fn preceded(value: Option<&Units>, suffix: &str, before: &str) -> bool {
    let Some(v) = value else { return false };
    if !ends(Some(v), suffix) {
        return false;
    }
    let rest = v[..v.len() - units(suffix).len()].to_vec();
    ends(Some(&rest), before)
}

/// `removeSuffix`: unchanged when `value` does not end with it.
fn remove(value: &mut Units, suffix: &str) {
    if ends(Some(value), suffix) {
        let n = value.len() - units(suffix).len();
        value.truncate(n);
    }
}

/// `replaceSuffix`.
fn replace(value: &mut Units, suffix: &str, to: &str) {
    if ends(Some(value), suffix) {
        remove(value, suffix);
        value.extend(units(to));
    }
}

/// `getR1`: after the first non-vowel that follows a vowel, the last unit not counted.
fn r1(value: Option<&Units>) -> Option<Units> {
    let v = value?;
    let last = v.len().checked_sub(1)?;
    let mut j = (0..last).find(|&j| is_vowel(v[j]))?;
    j = (j..last).find(|&j| !is_vowel(v[j]))?;
    Some(v[j + 1..].to_vec())
}

/// `getRV`.
fn rv(v: &Units) -> Option<Units> {
    let last = v.len() as isize - 1;
    if last > 0 && !is_vowel(v[1]) {
        if let Some(j) = (2..last.max(2) as usize).find(|&j| is_vowel(v[j])) {
            return Some(v[j + 1..].to_vec());
        }
    }
    if last > 1 && is_vowel(v[0]) && is_vowel(v[1]) {
        if let Some(j) = (2..last as usize).find(|&j| !is_vowel(v[j])) {
            return Some(v[j + 1..].to_vec());
        }
    }
    if last > 2 {
        return Some(v[3..].to_vec());
    }
    None
}

/// `toLowerCase(pt_BR)`: Java's one-to-one lowercase, but the whole-string rules (`İ`,
/// a final `Σ`) as Unicode gives them.
fn lowercase(term: &str) -> String {
    if term.contains(['\u{130}', 'Σ']) {
        return term.to_lowercase();
    }
    term.chars().map(chars::to_lower).collect()
}

/// `changeTerm` and `createCT`.
fn changed_term(term: &str) -> Units {
    let folded: String = lowercase(term)
        .chars()
        .map(|c| match c {
            'á' | 'â' | 'ã' => 'a',
            'é' | 'ê' => 'e',
            'í' => 'i',
            'ó' | 'ô' | 'õ' => 'o',
            'ú' | 'ü' => 'u',
            'ç' => 'c',
            'ñ' => 'n',
            c => c,
        })
        .collect();
    let mut ct = units(&folded);
    let strip = |c: u16, marks: &[u8]| c < 128 && marks.contains(&(c as u8));
    if ct.len() < 2 {
        return ct;
    }
    if strip(ct[0], b"\"'-,;.?!") {
        ct.remove(0);
    }
    if ct.len() < 2 {
        return ct;
    }
    if strip(ct[ct.len() - 1], b"-,;.?!'\"") {
        ct.pop();
    }
    ct
}

/// A step 1 rule: suffix, region (1 R1, 2 R2, 0 RV with a preceding `e`), replacement
/// (`None`: removed).
type StandardRule = (&'static str, u8, Option<&'static str>);

/// Step 1's rules by the length of the word they need.
const STANDARD: &[(usize, &[StandardRule])] = &[
    (0, &[("uciones", 2, Some("u"))]),
    (
        6,
        &[
            ("imentos", 2, None),
            ("amentos", 2, None),
            ("adores", 2, None),
            ("adoras", 2, None),
            ("logias", 2, Some("")),
            ("encias", 2, Some("ente")),
            ("amente", 1, None),
            ("idades", 2, None),
        ],
    ),
    (
        5,
        &[
            ("acoes", 2, None),
            ("imento", 2, None),
            ("amento", 2, None),
            ("adora", 2, None),
            ("ismos", 2, None),
            ("istas", 2, None),
            ("logia", 2, Some("log")),
            ("ucion", 2, Some("u")),
            ("encia", 2, Some("ente")),
            ("mente", 2, None),
            ("idade", 2, None),
        ],
    ),
    (
        4,
        &[
            ("acao", 2, None),
            ("ezas", 2, None),
            ("icos", 2, None),
            ("icas", 2, None),
            ("ismo", 2, None),
            ("avel", 2, None),
            ("ivel", 2, None),
            ("ista", 2, None),
            ("osos", 2, None),
            ("osas", 2, None),
            ("ador", 2, None),
            ("ivas", 2, None),
            ("ivos", 2, None),
            ("iras", 0, Some("ir")),
        ],
    ),
    (
        3,
        &[
            ("eza", 2, None),
            ("ico", 2, None),
            ("ica", 2, None),
            ("oso", 2, None),
            ("osa", 2, None),
            ("iva", 2, None),
            ("ivo", 2, None),
            ("ira", 0, Some("ir")),
        ],
    ),
];

/// Step 2's verb suffixes by the RV length they need, each with what it removes (Lucene's
/// `-ira` rule removes `-ava`).
const VERB: &[(usize, &[(&str, &str)])] = &[
    (
        7,
        &[
            ("issemos", "issemos"),
            ("essemos", "essemos"),
            ("assemos", "assemos"),
            ("ariamos", "ariamos"),
            ("eriamos", "eriamos"),
            ("iriamos", "iriamos"),
        ],
    ),
    (
        6,
        &[
            ("iremos", "iremos"),
            ("eremos", "eremos"),
            ("aremos", "aremos"),
            ("avamos", "avamos"),
            ("iramos", "iramos"),
            ("eramos", "eramos"),
            ("aramos", "aramos"),
            ("asseis", "asseis"),
            ("esseis", "esseis"),
            ("isseis", "isseis"),
            ("arieis", "arieis"),
            ("erieis", "erieis"),
            ("irieis", "irieis"),
        ],
    ),
    (
        5,
        &[
            ("irmos", "irmos"),
            ("iamos", "iamos"),
            ("armos", "armos"),
            ("ermos", "ermos"),
            ("areis", "areis"),
            ("ereis", "ereis"),
            ("ireis", "ireis"),
            ("asses", "asses"),
            ("esses", "esses"),
            ("isses", "isses"),
            ("astes", "astes"),
            ("assem", "assem"),
            ("essem", "essem"),
            ("issem", "issem"),
            ("ardes", "ardes"),
            ("erdes", "erdes"),
            ("irdes", "irdes"),
            ("ariam", "ariam"),
            ("eriam", "eriam"),
            ("iriam", "iriam"),
            ("arias", "arias"),
            ("erias", "erias"),
            ("irias", "irias"),
            ("estes", "estes"),
            ("istes", "istes"),
            ("aveis", "aveis"),
        ],
    ),
    (
        4,
        &[
            ("aria", "aria"),
            ("eria", "eria"),
            ("iria", "iria"),
            ("asse", "asse"),
            ("esse", "esse"),
            ("isse", "isse"),
            ("aste", "aste"),
            ("este", "este"),
            ("iste", "iste"),
            ("arei", "arei"),
            ("erei", "erei"),
            ("irei", "irei"),
            ("aram", "aram"),
            ("eram", "eram"),
            ("iram", "iram"),
            ("avam", "avam"),
            ("arem", "arem"),
            ("erem", "erem"),
            ("irem", "irem"),
            ("ando", "ando"),
            ("endo", "endo"),
            ("indo", "indo"),
            ("arao", "arao"),
            ("erao", "erao"),
            ("irao", "irao"),
            ("adas", "adas"),
            ("idas", "idas"),
            ("aras", "aras"),
            ("eras", "eras"),
            ("iras", "iras"),
            ("avas", "avas"),
            ("ares", "ares"),
            ("eres", "eres"),
            ("ires", "ires"),
            ("ados", "ados"),
            ("idos", "idos"),
            ("amos", "amos"),
            ("emos", "emos"),
            ("imos", "imos"),
            ("ieis", "ieis"),
        ],
    ),
    (
        3,
        &[
            ("ada", "ada"),
            ("ida", "ida"),
            ("ara", "ara"),
            ("era", "era"),
            ("ira", "ava"),
            ("iam", "iam"),
            ("ado", "ado"),
            ("ido", "ido"),
            ("ias", "ias"),
            ("ais", "ais"),
            ("eis", "eis"),
            ("ear", "ear"),
        ],
    ),
    (
        2,
        &[
            ("ia", "ia"),
            ("ei", "ei"),
            ("am", "am"),
            ("em", "em"),
            ("ar", "ar"),
            ("er", "er"),
            ("ir", "ir"),
            ("as", "as"),
            ("es", "es"),
            ("is", "is"),
            ("eu", "eu"),
            ("iu", "iu"),
            ("ou", "ou"),
        ],
    ),
];

struct Term {
    ct: Units,
    r1: Option<Units>,
    r2: Option<Units>,
    rv: Option<Units>,
}

impl Term {
    fn standard_suffix(&mut self) -> bool {
        for (min_len, rules) in STANDARD {
            if self.ct.len() < *min_len {
                continue;
            }
            for (suffix, region, to) in rules.iter() {
                if !ends(Some(&self.ct), suffix) {
                    continue;
                }
                let fits = match region {
                    1 => ends(self.r1.as_ref(), suffix),
                    2 => ends(self.r2.as_ref(), suffix),
                    _ => ends(self.rv.as_ref(), suffix) && preceded(Some(&self.ct), suffix, "e"),
                };
                if !fits {
                    continue;
                }
                match to {
                    // Lucene computes the `-logias` replacement and drops it.
                    Some("") => {}
                    Some(to) => replace(&mut self.ct, suffix, to),
                    None => remove(&mut self.ct, suffix),
                }
                return true;
            }
        }
        false
    }

    fn verb_suffix(&mut self) -> bool {
        let Some(rv) = self.rv.clone() else { return false };
        for (min_len, rules) in VERB {
            if rv.len() < *min_len {
                continue;
            }
            if let Some((_, removed)) = rules.iter().find(|(suffix, _)| ends(Some(&rv), suffix)) {
                remove(&mut self.ct, removed);
                return true;
            }
        }
        false
    }

    /// Step 3: a final `i` in RV after `c` removed.
    fn i_after_c(&mut self) {
        if ends(self.rv.as_ref(), "i") && preceded(self.rv.as_ref(), "i", "c") {
            remove(&mut self.ct, "i");
        }
    }

    /// Step 4: a residual `os a i o` in RV removed.
    fn residual_suffix(&mut self) {
        if let Some(suffix) = ["os", "a", "i", "o"].into_iter().find(|s| ends(self.rv.as_ref(), s)) {
            remove(&mut self.ct, suffix);
        }
    }

    /// Step 5: a final `e` in RV removed, with the `u` of `gue` or the `i` of `cie`.
    fn residual_form(&mut self) {
        if !ends(self.rv.as_ref(), "e") {
            return;
        }
        remove(&mut self.ct, "e");
        if preceded(self.rv.as_ref(), "e", "gu") {
            remove(&mut self.ct, "u");
        } else if preceded(self.rv.as_ref(), "e", "ci") {
            remove(&mut self.ct, "i");
        }
    }
}

/// Lucene's stem of `term`, `None` when its changed form is not 3 to 29 units long (the
/// filter then keeps the term).
pub fn stem(term: &str) -> Option<String> {
    let ct = changed_term(term);
    if ct.len() >= 30 || ct.len() <= 2 {
        return None;
    }
    // `isStemmable`: every unit a letter (a surrogate unit is none).
    let stemmable = String::from_utf16_lossy(&ct).chars().all(|c| (c as u32) < 0x10000 && chars::is_letter(c));
    if !stemmable {
        return Some(String::from_utf16_lossy(&ct));
    }
    let r1 = r1(Some(&ct));
    let r2 = self::r1(r1.as_ref());
    let rv = rv(&ct);
    let mut t = Term { ct, r1, r2, rv };
    if t.standard_suffix() || t.verb_suffix() {
        t.i_after_c();
    } else {
        t.residual_suffix();
    }
    t.residual_form();
    Some(String::from_utf16_lossy(&t.ct))
}

/// The token after BrazilianStemFilter: the stem, or the term as it was.
pub fn filter(term: &str) -> String {
    stem(term).unwrap_or_else(|| term.to_string())
}

#[cfg(test)]
mod tests {
    use super::filter;

    #[test]
    fn lucene_stems() {
        // Lucene 8.7's stems (tests/lucene/StemWords.java).
        assert_eq!(filter("constituições"), "constituico");
        assert_eq!(filter("rapidamente"), "rapid");
        assert_eq!(filter("Ação"), "aca");
        assert_eq!(filter("ab"), "ab");
    }
}
