//! Lucene's GreekLowerCaseFilter (lowercase, accents and final sigma folded) and
//! GreekStemmer (Ntais' stemmer): the "short rules" 0-20 each remove an ending unless an
//! exception list or ending keeps part of it; only a word they leave whole goes through the
//! "long list" (rule 21); rule 22 removes comparative and superlative endings.

use super::utf16::with_units;
use crate::analysis::chars::to_lower;

/// GreekLowerCaseFilter's form of one character.
fn lower(c: char) -> char {
    match c {
        'ς' => 'σ',
        // An unassigned code point in the Greek block, mapped to final sigma by Lucene.
        '\u{3A2}' => 'ς',
        'Ά' | 'ά' => 'α',
        'Έ' | 'έ' => 'ε',
        'Ή' | 'ή' => 'η',
        'Ί' | 'ΐ' | 'Ϊ' | 'ί' | 'ϊ' => 'ι',
        'Ύ' | 'Ϋ' | 'ΰ' | 'ϋ' | 'ύ' => 'υ',
        'Ό' | 'ό' => 'ο',
        'Ώ' | 'ώ' => 'ω',
        c => to_lower(c),
    }
}

/// GreekLowerCaseFilter's form of `term`.
pub fn lowercase(term: &str) -> String {
    term.chars().map(lower).collect()
}

/// A word being stemmed: its UTF-16 units and current length.
struct Word<'a> {
    s: &'a mut [u16],
    len: usize,
}

impl Word<'_> {
    fn ends(&self, suffix: &str) -> bool {
        super::utf16::ends_with(self.s, self.len, suffix)
    }

    fn ends_any(&self, suffixes: &[&str]) -> bool {
        suffixes.iter().any(|x| self.ends(x))
    }

    /// Whether the whole word is one of `words`.
    fn is_one_of(&self, words: &[&str]) -> bool {
        words.iter().any(|w| self.s[..self.len].iter().copied().eq(w.encode_utf16()))
    }

    fn ends_with_vowel(&self) -> bool {
        self.len > 0 && "αεηιουω".encode_utf16().any(|v| v == self.s[self.len - 1])
    }

    fn ends_with_vowel_no_y(&self) -> bool {
        self.len > 0 && "αεηιοω".encode_utf16().any(|v| v == self.s[self.len - 1])
    }

    /// Grows the word by `text`'s units, written at its end.
    fn append(&mut self, text: &str) {
        for unit in text.encode_utf16() {
            self.s[self.len] = unit;
            self.len += 1;
        }
    }
}

/// The Greek stem of `term` (expected lowercased by [`lowercase`]).
pub fn stem(term: &str) -> String {
    with_units(term, |s, len| {
        if len < 4 {
            return len;
        }
        let mut w = Word { s, len };
        let original = len;
        let rules: [fn(&mut Word); 21] = [
            rule0, rule1, rule2, rule3, rule4, rule5, rule6, rule7, rule8, rule9, rule10, rule11, rule12, rule13,
            rule14, rule15, rule16, rule17, rule18, rule19, rule20,
        ];
        for rule in rules {
            rule(&mut w);
        }
        if w.len == original {
            rule21(&mut w);
        }
        rule22(&mut w);
        w.len
    })
}

/// `(word longer than, units cut, endings)` groups: the first group whose length and
/// ending match cuts.
fn cut_first(w: &mut Word, groups: &[(usize, usize, &[&str])]) -> bool {
    for (longer_than, cut, endings) in groups {
        if w.len > *longer_than && w.ends_any(endings) {
            w.len -= cut;
            return true;
        }
    }
    false
}

fn rule0(w: &mut Word) {
    cut_first(
        w,
        &[
            (9, 4, &["καθεστωτοσ", "καθεστωτων"]),
            (8, 4, &["γεγονοτοσ", "γεγονοτων"]),
            (8, 3, &["καθεστωτα"]),
            (7, 4, &["τατογιου", "τατογιων"]),
            (7, 3, &["γεγονοτα"]),
            (7, 2, &["καθεστωσ"]),
            (
                6,
                4,
                &[
                    "σκαγιου",
                    "σκαγιων",
                    "ολογιου",
                    "ολογιων",
                    "κρεατοσ",
                    "κρεατων",
                    "περατοσ",
                    "περατων",
                    "τερατοσ",
                    "τερατων",
                ],
            ),
            (6, 3, &["τατογια"]),
            (6, 2, &["γεγονοσ"]),
            (5, 4, &["φαγιου", "φαγιων", "σογιου", "σογιων"]),
            (5, 3, &["σκαγια", "ολογια", "κρεατα", "περατα", "τερατα"]),
            (4, 3, &["φαγια", "σογια", "φωτοσ", "φωτων"]),
            (4, 2, &["κρεασ", "περασ", "τερασ"]),
            (3, 2, &["φωτα"]),
            (2, 1, &["φωσ"]),
        ],
    );
}

fn rule1(w: &mut Word) {
    if w.len > 4 && w.ends_any(&["αδεσ", "αδων"]) {
        w.len -= 4;
        if !w.ends_any(&["οκ", "μαμ", "μαν", "μπαμπ", "πατερ", "γιαγι", "νταντ", "κυρ", "θει", "πεθερ"])
        {
            w.len += 2; // -αδ back
        }
    }
}

fn rule2(w: &mut Word) {
    if w.len > 4 && w.ends_any(&["εδεσ", "εδων"]) {
        w.len -= 4;
        if w.ends_any(&["οπ", "ιπ", "εμπ", "υπ", "γηπ", "δαπ", "κρασπ", "μιλ"]) {
            w.len += 2; // -εδ back
        }
    }
}

fn rule3(w: &mut Word) {
    if w.len > 5 && w.ends_any(&["ουδεσ", "ουδων"]) {
        w.len -= 5;
        let keep =
            ["αρκ", "καλιακ", "πεταλ", "λιχ", "πλεξ", "σκ", "σ", "φλ", "φρ", "βελ", "λουλ", "χν", "σπ", "τραγ", "φε"];
        if w.ends_any(&keep) {
            w.len += 3; // -ουδ back
        }
    }
}

fn rule4(w: &mut Word) {
    if w.len > 3 && w.ends_any(&["εωσ", "εων"]) {
        w.len -= 3;
        if w.is_one_of(&["θ", "δ", "ελ", "γαλ", "ν", "π", "ιδ", "παρ"]) {
            w.len += 1; // -ε back
        }
    }
}

fn rule5(w: &mut Word) {
    if w.len > 2 && w.ends("ια") {
        w.len -= 2;
        if w.ends_with_vowel() {
            w.len += 1; // -ι back
        }
    } else if w.len > 3 && w.ends_any(&["ιου", "ιων"]) {
        w.len -= 3;
        if w.ends_with_vowel() {
            w.len += 1;
        }
    }
}

const EXC6: &[&str] = &[
    "αλ",
    "αδ",
    "ενδ",
    "αμαν",
    "αμμοχαλ",
    "ηθ",
    "ανηθ",
    "αντιδ",
    "φυσ",
    "βρωμ",
    "γερ",
    "εξωδ",
    "καλπ",
    "καλλιν",
    "καταδ",
    "μουλ",
    "μπαν",
    "μπαγιατ",
    "μπολ",
    "μποσ",
    "νιτ",
    "ξικ",
    "συνομηλ",
    "πετσ",
    "πιτσ",
    "πικαντ",
    "πλιατσ",
    "ποστελν",
    "πρωτοδ",
    "σερτ",
    "συναδ",
    "τσαμ",
    "υποδ",
    "φιλον",
    "φυλοδ",
    "χασ",
];

fn rule6(w: &mut Word) {
    if cut_first(w, &[(3, 3, &["ικα", "ικο"]), (4, 4, &["ικου", "ικων"])]) && (w.ends_with_vowel() || w.is_one_of(EXC6))
    {
        w.len += 2; // -ικ back
    }
}

fn rule7(w: &mut Word) {
    if w.len == 5 && w.ends("αγαμε") {
        w.len -= 1;
        return;
    }
    cut_first(w, &[(7, 7, &["ηθηκαμε"]), (6, 6, &["ουσαμε"]), (5, 5, &["αγαμε", "ησαμε", "ηκαμε"])]);
    if w.len > 3 && w.ends("αμε") {
        w.len -= 3;
        if w.is_one_of(&["αναπ", "αποθ", "αποκ", "αποστ", "βουβ", "ξεθ", "ουλ", "πεθ", "πικρ", "ποτ", "σιχ", "χ"])
        {
            w.len += 2; // -αμ back
        }
    }
}

const EXC8B: &[&str] = &[
    "βετερ",
    "βουλκ",
    "βραχμ",
    "γ",
    "δραδουμ",
    "θ",
    "καλπουζ",
    "καστελ",
    "κορμορ",
    "λαοπλ",
    "μωαμεθ",
    "μ",
    "μουσουλμ",
    "ν",
    "ουλ",
    "π",
    "πελεκ",
    "πλ",
    "πολισ",
    "πορτολ",
    "σαρακατσ",
    "σουλτ",
    "τσαρλατ",
    "ορφ",
    "τσιγγ",
    "τσοπ",
    "φωτοστεφ",
    "χ",
    "ψυχοπλ",
    "αγ",
    "ορφ",
    "γαλ",
    "γερ",
    "δεκ",
    "διπλ",
    "αμερικαν",
    "ουρ",
    "πιθ",
    "πουριτ",
    "σ",
    "ζωντ",
    "ικ",
    "καστ",
    "κοπ",
    "λιχ",
    "λουθηρ",
    "μαιντ",
    "μελ",
    "σιγ",
    "σπ",
    "στεγ",
    "τραγ",
    "τσαγ",
    "φ",
    "ερ",
    "αδαπ",
    "αθιγγ",
    "αμηχ",
    "ανικ",
    "ανοργ",
    "απηγ",
    "απιθ",
    "ατσιγγ",
    "βασ",
    "βασκ",
    "βαθυγαλ",
    "βιομηχ",
    "βραχυκ",
    "διατ",
    "διαφ",
    "ενοργ",
    "θυσ",
    "καπνοβιομηχ",
    "καταγαλ",
    "κλιβ",
    "κοιλαρφ",
    "λιβ",
    "μεγλοβιομηχ",
    "μικροβιομηχ",
    "νταβ",
    "ξηροκλιβ",
    "ολιγοδαμ",
    "ολογαλ",
    "πενταρφ",
    "περηφ",
    "περιτρ",
    "πλατ",
    "πολυδαπ",
    "πολυμηχ",
    "στεφ",
    "ταβ",
    "τετ",
    "υπερηφ",
    "υποκοπ",
    "χαμηλοδαπ",
    "ψηλοταβ",
];

fn rule8(w: &mut Word) {
    // Lucene checks the length for the first ending of each group only (operator
    // precedence), so the others also match a word that is nothing but the ending.
    let removed = if w.len > 8 && w.ends("ιουντανε") {
        w.len -= 8;
        true
    } else if (w.len > 7 && w.ends("ιοντανε")) || w.ends("ουντανε") || w.ends("ηθηκανε") {
        w.len -= 7;
        true
    } else if (w.len > 6 && w.ends("ιοτανε")) || w.ends("οντανε") || w.ends("ουσανε") {
        w.len -= 6;
        true
    } else if (w.len > 5 && w.ends("αγανε")) || w.ends("ησανε") || w.ends("οτανε") || w.ends("ηκανε")
    {
        w.len -= 5;
        true
    } else {
        false
    };
    if removed && w.is_one_of(&["τρ", "τσ"]) {
        w.append("αγαν");
    }
    if w.len > 3 && w.ends("ανε") {
        w.len -= 3;
        if w.ends_with_vowel_no_y() || w.is_one_of(EXC8B) {
            w.len += 2; // -αν back
        }
    }
}

const EXC9: &[&str] = &[
    "αβαρ",
    "βεν",
    "εναρ",
    "αβρ",
    "αδ",
    "αθ",
    "αν",
    "απλ",
    "βαρον",
    "ντρ",
    "σκ",
    "κοπ",
    "μπορ",
    "νιφ",
    "παγ",
    "παρακαλ",
    "σερπ",
    "σκελ",
    "συρφ",
    "τοκ",
    "υ",
    "δ",
    "εμ",
    "θαρρ",
    "θ",
];

const ENDINGS9: &[&str] = &[
    "οδ",
    "αιρ",
    "φορ",
    "ταθ",
    "διαθ",
    "σχ",
    "ενδ",
    "ευρ",
    "τιθ",
    "υπερθ",
    "ραθ",
    "ενθ",
    "ροθ",
    "σθ",
    "πυρ",
    "αιν",
    "συνδ",
    "συν",
    "συνθ",
    "χωρ",
    "πον",
    "βρ",
    "καθ",
    "ευθ",
    "εκθ",
    "νετ",
    "ρον",
    "αρκ",
    "βαρ",
    "βολ",
    "ωφελ",
];

fn rule9(w: &mut Word) {
    if w.len > 5 && w.ends("ησετε") {
        w.len -= 5;
    }
    if w.len > 3 && w.ends("ετε") {
        w.len -= 3;
        if w.is_one_of(EXC9) || w.ends_with_vowel_no_y() || w.ends_any(ENDINGS9) {
            w.len += 2; // -ετ back
        }
    }
}

fn rule10(w: &mut Word) {
    if w.len > 5 && w.ends_any(&["οντασ", "ωντασ"]) {
        w.len -= 5;
        if w.len == 3 && w.ends("αρχ") {
            w.append("οντ");
        }
        if w.ends("κρε") {
            w.append("ωντ");
        }
    }
}

fn rule11(w: &mut Word) {
    if w.len > 6 && w.ends("ομαστε") {
        w.len -= 6;
        if w.len == 2 && w.ends("ον") {
            w.len += 5; // -ομαστ back
        }
    } else if w.len > 7 && w.ends("ιομαστε") {
        w.len -= 7;
        if w.len == 2 && w.ends("ον") {
            w.append("ομαστ");
        }
    }
}

fn rule12(w: &mut Word) {
    if w.len > 5 && w.ends("ιεστε") {
        w.len -= 5;
        if w.is_one_of(&["π", "απ", "συμπ", "ασυμπ", "ακαταπ", "αμεταμφ"]) {
            w.len += 4; // -ιεστ back
        }
    }
    if w.len > 4 && w.ends("εστε") {
        w.len -= 4;
        if w.is_one_of(&["αλ", "αρ", "εκτελ", "ζ", "μ", "ξ", "παρακαλ", "αρ", "προ", "νισ"])
        {
            w.len += 3; // -εστ back
        }
    }
}

fn rule13(w: &mut Word) {
    cut_first(w, &[(6, 6, &["ηθηκεσ"]), (5, 5, &["ηθηκα", "ηθηκε"])]);
    if cut_first(w, &[(4, 4, &["ηκεσ"]), (3, 3, &["ηκα", "ηκε"])])
        && (w.is_one_of(&["διαθ", "θ", "παρακαταθ", "προσθ", "συνθ"])
            || w.ends_any(&["σκωλ", "σκουλ", "ναρθ", "σφ", "οθ", "πιθ"]))
    {
        w.len += 2; // -ηκ back
    }
}

const EXC14: &[&str] = &[
    "φαρμακ",
    "χαδ",
    "αγκ",
    "αναρρ",
    "βρομ",
    "εκλιπ",
    "λαμπιδ",
    "λεχ",
    "μ",
    "πατ",
    "ρ",
    "λ",
    "μεδ",
    "μεσαζ",
    "υποτειν",
    "αμ",
    "αιθ",
    "ανηκ",
    "δεσποζ",
    "ενδιαφερ",
    "δε",
    "δευτερευ",
    "καθαρευ",
    "πλε",
    "τσα",
];

fn rule14(w: &mut Word) {
    let endings = ["ποδαρ", "βλεπ", "πανταχ", "φρυδ", "μαντιλ", "μαλλ", "κυματ", "λαχ", "ληγ", "φαγ", "ομ", "πρωτ"];
    if cut_first(w, &[(5, 5, &["ουσεσ"]), (4, 4, &["ουσα", "ουσε"])])
        && (w.is_one_of(EXC14) || w.ends_with_vowel() || w.ends_any(&endings))
    {
        w.len += 3; // -ουσ back
    }
}

const EXC15A: &[&str] = &[
    "αβαστ",
    "πολυφ",
    "αδηφ",
    "παμφ",
    "ρ",
    "ασπ",
    "αφ",
    "αμαλ",
    "αμαλλι",
    "ανυστ",
    "απερ",
    "ασπαρ",
    "αχαρ",
    "δερβεν",
    "δροσοπ",
    "ξεφ",
    "νεοπ",
    "νομοτ",
    "ολοπ",
    "ομοτ",
    "προστ",
    "προσωποπ",
    "συμπ",
    "συντ",
    "τ",
    "υποτ",
    "χαρ",
    "αειπ",
    "αιμοστ",
    "ανυπ",
    "αποτ",
    "αρτιπ",
    "διατ",
    "εν",
    "επιτ",
    "κροκαλοπ",
    "σιδηροπ",
    "λ",
    "ναυ",
    "ουλαμ",
    "ουρ",
    "π",
    "τρ",
    "μ",
];

fn rule15(w: &mut Word) {
    if cut_first(w, &[(4, 4, &["αγεσ"]), (3, 3, &["αγα", "αγε"])]) {
        let keep =
            w.is_one_of(EXC15A) || w.ends_any(&["οφ", "πελ", "χορτ", "λλ", "σφ", "ρπ", "φρ", "πρ", "λοχ", "σμην"]);
        let unless = w.is_one_of(&["ψοφ", "ναυλοχ"]) || w.ends("κολλ");
        if keep && !unless {
            w.len += 2; // -αγ back
        }
    }
}

fn rule16(w: &mut Word) {
    if cut_first(w, &[(4, 4, &["ησου"]), (3, 3, &["ησε", "ησα"])])
        && w.is_one_of(&["ν", "χερσον", "δωδεκαν", "ερημον", "μεγαλον", "επταν"])
    {
        w.len += 2; // -ησ back
    }
}

fn rule17(w: &mut Word) {
    if w.len > 4 && w.ends("ηστε") {
        w.len -= 4;
        if w.is_one_of(&["ασβ", "σβ", "αχρ", "χρ", "απλ", "αειμν", "δυσχρ", "ευχρ", "κοινοχρ", "παλιμψ"])
        {
            w.len += 3; // -ηστ back
        }
    }
}

fn rule18(w: &mut Word) {
    if cut_first(w, &[(6, 6, &["ησουνε", "ηθουνε"]), (4, 4, &["ουνε"])])
        && w.is_one_of(&["ν", "ρ", "σπι", "στραβομουτσ", "κακομουτσ", "εξων"])
    {
        w.append("ουν");
    }
}

fn rule19(w: &mut Word) {
    if cut_first(w, &[(6, 6, &["ησουμε", "ηθουμε"]), (4, 4, &["ουμε"])])
        && w.is_one_of(&["παρασουσ", "φ", "χ", "ωριοπλ", "αζ", "αλλοσουσ", "ασουσ"])
    {
        w.append("ουμ");
    }
}

fn rule20(w: &mut Word) {
    cut_first(w, &[(5, 3, &["ματων", "ματοσ"]), (4, 2, &["ματα"])]);
}

fn rule21(w: &mut Word) {
    let cut = cut_first(
        w,
        &[
            (9, 9, &["ιοντουσαν"]),
            (8, 8, &["ιομασταν", "ιοσασταν", "ιουμαστε", "οντουσαν"]),
            (
                7,
                7,
                &[
                    "ιεμαστε",
                    "ιεσαστε",
                    "ιομουνα",
                    "ιοσαστε",
                    "ιοσουνα",
                    "ιουνται",
                    "ιουνταν",
                    "ηθηκατε",
                    "ομασταν",
                    "οσασταν",
                    "ουμαστε",
                ],
            ),
            (
                6,
                6,
                &[
                    "ιομουν",
                    "ιονταν",
                    "ιοσουν",
                    "ηθειτε",
                    "ηθηκαν",
                    "ομουνα",
                    "οσαστε",
                    "οσουνα",
                    "ουνται",
                    "ουνταν",
                    "ουσατε",
                ],
            ),
            (
                5,
                5,
                &[
                    "αγατε",
                    "ιεμαι",
                    "ιεται",
                    "ιεσαι",
                    "ιοταν",
                    "ιουμα",
                    "ηθεισ",
                    "ηθουν",
                    "ηκατε",
                    "ησατε",
                    "ησουν",
                    "ομουν",
                    "ονται",
                    "ονταν",
                    "οσουν",
                    "ουμαι",
                    "ουσαν",
                ],
            ),
            (
                4,
                4,
                &[
                    "αγαν", "αμαι", "ασαι", "αται", "ειτε", "εσαι", "εται", "ηδεσ", "ηδων", "ηθει", "ηκαν", "ησαν",
                    "ησει", "ησεσ", "ομαι", "οταν",
                ],
            ),
            (3, 3, &["αει", "εισ", "ηθω", "ησω", "ουν", "ουσ"]),
            (2, 2, &["αν", "ασ", "αω", "ει", "εσ", "ησ", "οι", "οσ", "ου", "υσ", "ων"]),
        ],
    );
    if !cut && w.len > 1 && w.ends_with_vowel() {
        w.len -= 1;
    }
}

fn rule22(w: &mut Word) {
    cut_first(w, &[(0, 5, &["εστερ", "εστατ"]), (0, 4, &["οτερ", "οτατ", "υτερ", "υτατ", "ωτερ", "ωτατ"])]);
}

#[cfg(test)]
mod tests {
    #[test]
    fn lowercases_and_stems() {
        assert_eq!(super::lowercase("ΆΣΠΡΟΣ"), "ασπροσ");
        assert_eq!(super::stem("καθεστωτοσ"), "καθεστ");
    }
}
