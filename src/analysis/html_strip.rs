//! The `html_strip` char filter: Lucene's HTMLStripCharFilter, a JFlex scanner, as a
//! hand-written state machine over UTF-16 code units (Lucene's unit, so every length and
//! offset correction is the one Lucene records).
//!
//! What it does: character references (`&amp;`, `&#233;`, `&#x1F600;`, surrogate pairs
//! written as two references) become their characters; comments, `<!...>`
//! declarations, `<?...?>` processing instructions, CDATA markers and the tags of inline
//! elements (`b`, `span`, ...) disappear; other tags and `<br>` become a newline; `script`
//! and `style` elements become one newline; tags named in `escaped_tags` stay. Anything
//! that does not complete one of these constructs is kept as written.
//!
//! Each state below is one of the JFlex scanner's lexical states, and each state's rules
//! take the longest match, the earlier rule on a tie, as JFlex does. A construct that can
//! only be told apart by scanning far ahead (an event attribute's quoted value, a
//! server-side include) is scanned with a bounded amount of work in all: past it the
//! filter answers an error rather than run quadratically.

use super::char_filters::OffsetMap;
use crate::error::{Error, Result};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The lexical states of Lucene's scanner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Initial,
    Ampersand,
    NumericCharacter,
    CharacterReferenceTail,
    LeftAngleBracket,
    Bang,
    Comment,
    Script,
    ScriptComment,
    LeftAngleBracketSlash,
    LeftAngleBracketSpace,
    Cdata,
    ServerSideInclude,
    SingleQuotedString,
    DoubleQuotedString,
    EndTagTailInclude,
    EndTagTailExclude,
    EndTagTailSubstitute,
    StartTagTailInclude,
    StartTagTailExclude,
    StartTagTailSubstitute,
    Style,
    StyleComment,
}

/// The filter's configuration: the tags `escaped_tags` keeps.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HtmlStrip {
    /// Escaped tag names other than `br`, `script` and `style`, lowercased.
    escaped: Vec<String>,
    escape_br: bool,
    escape_script: bool,
    escape_style: bool,
}

impl HtmlStrip {
    /// A filter keeping the tags named in `escaped_tags` (compared ignoring case).
    pub fn new<S: AsRef<str>>(escaped_tags: &[S]) -> Self {
        let mut f = HtmlStrip::default();
        for tag in escaped_tags {
            let lower: String = tag.as_ref().chars().map(super::chars::to_lower).collect();
            match lower.as_str() {
                "br" => f.escape_br = true,
                "script" => f.escape_script = true,
                "style" => f.escape_style = true,
                _ => f.escaped.push(lower),
            }
        }
        f
    }

    /// The stripped text and its offset corrections.
    pub fn apply(&self, text: &str) -> Result<(String, OffsetMap)> {
        let input: Vec<u16> = text.encode_utf16().collect();
        let mut s = Scanner {
            f: self,
            budget: 64 * input.len() + (16 << 20),
            input: &input,
            pos: 0,
            state: State::Initial,
            start: 0,
            cum: 0,
            out: Vec::with_capacity(input.len()),
            map: OffsetMap::default(),
            restore: State::Initial,
            previous_restore: State::Initial,
            entity: Vec::new(),
            next_gt: None,
        };
        s.run()?;
        Ok((String::from_utf16_lossy(&s.out), s.map))
    }

    fn is_escaped(&self, name: &[u16]) -> bool {
        !self.escaped.is_empty() && {
            let lower: String = char::decode_utf16(name.iter().copied())
                .map(|c| super::chars::to_lower(c.unwrap_or('\u{FFFD}')))
                .collect();
            self.escaped.contains(&lower)
        }
    }
}

/// The HTML 4 character entities Lucene knows, with the upper-case variants it accepts
/// (`&nbsp;` is a plain space in Lucene's table).
#[rustfmt::skip]
const ENTITIES: &[(&str, u16)] = &[
    ("AElig", 0xC6), ("Aacute", 0xC1), ("Acirc", 0xC2), ("Agrave", 0xC0), ("Alpha", 0x391),
    ("Aring", 0xC5), ("Atilde", 0xC3), ("Auml", 0xC4), ("Beta", 0x392), ("Ccedil", 0xC7),
    ("Chi", 0x3A7), ("Dagger", 0x2021), ("Delta", 0x394), ("ETH", 0xD0), ("Eacute", 0xC9),
    ("Ecirc", 0xCA), ("Egrave", 0xC8), ("Epsilon", 0x395), ("Eta", 0x397), ("Euml", 0xCB),
    ("Gamma", 0x393), ("Iacute", 0xCD), ("Icirc", 0xCE), ("Igrave", 0xCC), ("Iota", 0x399),
    ("Iuml", 0xCF), ("Kappa", 0x39A), ("Lambda", 0x39B), ("Mu", 0x39C), ("Ntilde", 0xD1),
    ("Nu", 0x39D), ("OElig", 0x152), ("Oacute", 0xD3), ("Ocirc", 0xD4), ("Ograve", 0xD2),
    ("Omega", 0x3A9), ("Omicron", 0x39F), ("Oslash", 0xD8), ("Otilde", 0xD5), ("Ouml", 0xD6),
    ("Phi", 0x3A6), ("Pi", 0x3A0), ("Prime", 0x2033), ("Psi", 0x3A8), ("Rho", 0x3A1),
    ("Scaron", 0x160), ("Sigma", 0x3A3), ("THORN", 0xDE), ("Tau", 0x3A4), ("Theta", 0x398),
    ("Uacute", 0xDA), ("Ucirc", 0xDB), ("Ugrave", 0xD9), ("Upsilon", 0x3A5), ("Uuml", 0xDC),
    ("Xi", 0x39E), ("Yacute", 0xDD), ("Yuml", 0x178), ("Zeta", 0x396), ("aacute", 0xE1),
    ("acirc", 0xE2), ("acute", 0xB4), ("aelig", 0xE6), ("agrave", 0xE0), ("alefsym", 0x2135),
    ("alpha", 0x3B1), ("amp", 0x26), ("AMP", 0x26), ("and", 0x2227), ("ang", 0x2220),
    ("apos", 0x27), ("aring", 0xE5), ("asymp", 0x2248), ("atilde", 0xE3), ("auml", 0xE4),
    ("bdquo", 0x201E), ("beta", 0x3B2), ("brvbar", 0xA6), ("bull", 0x2022), ("cap", 0x2229),
    ("ccedil", 0xE7), ("cedil", 0xB8), ("cent", 0xA2), ("chi", 0x3C7), ("circ", 0x2C6),
    ("clubs", 0x2663), ("cong", 0x2245), ("copy", 0xA9), ("COPY", 0xA9), ("crarr", 0x21B5),
    ("cup", 0x222A), ("curren", 0xA4), ("dArr", 0x21D3), ("dagger", 0x2020), ("darr", 0x2193),
    ("deg", 0xB0), ("delta", 0x3B4), ("diams", 0x2666), ("divide", 0xF7), ("eacute", 0xE9),
    ("ecirc", 0xEA), ("egrave", 0xE8), ("empty", 0x2205), ("emsp", 0x2003), ("ensp", 0x2002),
    ("epsilon", 0x3B5), ("equiv", 0x2261), ("eta", 0x3B7), ("eth", 0xF0), ("euml", 0xEB),
    ("euro", 0x20AC), ("exist", 0x2203), ("fnof", 0x192), ("forall", 0x2200), ("frac12", 0xBD),
    ("frac14", 0xBC), ("frac34", 0xBE), ("frasl", 0x2044), ("gamma", 0x3B3), ("ge", 0x2265),
    ("gt", 0x3E), ("GT", 0x3E), ("hArr", 0x21D4), ("harr", 0x2194), ("hearts", 0x2665),
    ("hellip", 0x2026), ("iacute", 0xED), ("icirc", 0xEE), ("iexcl", 0xA1), ("igrave", 0xEC),
    ("image", 0x2111), ("infin", 0x221E), ("int", 0x222B), ("iota", 0x3B9), ("iquest", 0xBF),
    ("isin", 0x2208), ("iuml", 0xEF), ("kappa", 0x3BA), ("lArr", 0x21D0), ("lambda", 0x3BB),
    ("lang", 0x2329), ("laquo", 0xAB), ("larr", 0x2190), ("lceil", 0x2308), ("ldquo", 0x201C),
    ("le", 0x2264), ("lfloor", 0x230A), ("lowast", 0x2217), ("loz", 0x25CA), ("lrm", 0x200E),
    ("lsaquo", 0x2039), ("lsquo", 0x2018), ("lt", 0x3C), ("LT", 0x3C), ("macr", 0xAF),
    ("mdash", 0x2014), ("micro", 0xB5), ("middot", 0xB7), ("minus", 0x2212), ("mu", 0x3BC),
    ("nabla", 0x2207), ("nbsp", 0x20), ("ndash", 0x2013), ("ne", 0x2260), ("ni", 0x220B),
    ("not", 0xAC), ("notin", 0x2209), ("nsub", 0x2284), ("ntilde", 0xF1), ("nu", 0x3BD),
    ("oacute", 0xF3), ("ocirc", 0xF4), ("oelig", 0x153), ("ograve", 0xF2), ("oline", 0x203E),
    ("omega", 0x3C9), ("omicron", 0x3BF), ("oplus", 0x2295), ("or", 0x2228), ("ordf", 0xAA),
    ("ordm", 0xBA), ("oslash", 0xF8), ("otilde", 0xF5), ("otimes", 0x2297), ("ouml", 0xF6),
    ("para", 0xB6), ("part", 0x2202), ("permil", 0x2030), ("perp", 0x22A5), ("phi", 0x3C6),
    ("pi", 0x3C0), ("piv", 0x3D6), ("plusmn", 0xB1), ("pound", 0xA3), ("prime", 0x2032),
    ("prod", 0x220F), ("prop", 0x221D), ("psi", 0x3C8), ("quot", 0x22), ("QUOT", 0x22),
    ("rArr", 0x21D2), ("radic", 0x221A), ("rang", 0x232A), ("raquo", 0xBB), ("rarr", 0x2192),
    ("rceil", 0x2309), ("rdquo", 0x201D), ("real", 0x211C), ("reg", 0xAE), ("REG", 0xAE),
    ("rfloor", 0x230B), ("rho", 0x3C1), ("rlm", 0x200F), ("rsaquo", 0x203A), ("rsquo", 0x2019),
    ("sbquo", 0x201A), ("scaron", 0x161), ("sdot", 0x22C5), ("sect", 0xA7), ("shy", 0xAD),
    ("sigma", 0x3C3), ("sigmaf", 0x3C2), ("sim", 0x223C), ("spades", 0x2660), ("sub", 0x2282),
    ("sube", 0x2286), ("sum", 0x2211), ("sup", 0x2283), ("sup1", 0xB9), ("sup2", 0xB2),
    ("sup3", 0xB3), ("supe", 0x2287), ("szlig", 0xDF), ("tau", 0x3C4), ("there4", 0x2234),
    ("theta", 0x3B8), ("thetasym", 0x3D1), ("thinsp", 0x2009), ("thorn", 0xFE), ("tilde", 0x2DC),
    ("times", 0xD7), ("trade", 0x2122), ("uArr", 0x21D1), ("uacute", 0xFA), ("uarr", 0x2191),
    ("ucirc", 0xFB), ("ugrave", 0xF9), ("uml", 0xA8), ("upsih", 0x3D2), ("upsilon", 0x3C5),
    ("uuml", 0xFC), ("weierp", 0x2118), ("xi", 0x3BE), ("yacute", 0xFD), ("yen", 0xA5),
    ("yuml", 0xFF), ("zeta", 0x3B6), ("zwj", 0x200D), ("zwnj", 0x200C),
];

/// The inline elements, whose tags are removed rather than replaced by a newline.
#[rustfmt::skip]
const INLINE_ELEMENTS: &[&str] = &[
    "a", "b", "i", "q", "s", "u", "abbr", "acronym", "basefont", "bdo", "big", "cite", "code",
    "dfn", "em", "font", "img", "input", "kbd", "label", "samp", "select", "small", "span",
    "strike", "strong", "sub", "sup", "textarea", "tt", "var",
];

/// The event attribute names after `on`, whose quoted values may hold `<` and `>`.
#[rustfmt::skip]
const EVENT_SUFFIXES: &[&str] = &[
    "abort", "blur", "change", "click", "dblclick", "error", "focus", "keydown", "keypress",
    "keyup", "load", "mousedown", "mousemove", "mouseout", "mouseover", "mouseup", "reset",
    "select", "submit", "unload",
];

/// Unicode White_Space as of Unicode 6.1 (JFlex's `\s` in Lucene's grammar).
fn is_space(u: u16) -> bool {
    matches!(u, 0x09..=0x0D | 0x20 | 0x85 | 0xA0 | 0x1680 | 0x180E | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000)
}

/// The code point at `i` and its length in units (a lone surrogate stands for itself).
fn code_point(input: &[u16], i: usize) -> (u32, usize) {
    let u = input[i];
    if (0xD800..0xDC00).contains(&u) && i + 1 < input.len() && (0xDC00..0xE000).contains(&input[i + 1]) {
        let c = 0x10000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(input[i + 1]) - 0xDC00);
        return (c, 2);
    }
    (u32::from(u), 1)
}

/// Other_ID_Start: characters kept in identifiers for stability.
fn other_id_start(c: u32) -> bool {
    matches!(c, 0x2118 | 0x212E | 0x309B | 0x309C)
}

/// UAX#31 ID_Start (letters and letter numbers), by Java's general categories.
fn is_id_start(c: u32) -> bool {
    let Some(ch) = char::from_u32(c) else { return false };
    if ch.is_ascii() {
        return ch.is_ascii_alphabetic();
    }
    matches!(super::chars::java_type(ch), 1..=5 | 10) || other_id_start(c)
}

/// UAX#31 ID_Continue: ID_Start, marks, decimal digits and connector punctuation.
fn is_id_continue(c: u32) -> bool {
    let Some(ch) = char::from_u32(c) else { return false };
    if ch.is_ascii() {
        return ch.is_ascii_alphanumeric() || ch == '_';
    }
    matches!(super::chars::java_type(ch), 1..=6 | 8..=10 | 23)
        || other_id_start(c)
        || matches!(c, 0xB7 | 0x387 | 0x1369..=0x1371 | 0x19DA)
}

/// Whether `input[at..]` starts with the ASCII `word`, ignoring ASCII case.
fn starts_with_ignore_case(input: &[u16], at: usize, word: &str) -> bool {
    let w = word.as_bytes();
    at + w.len() <= input.len()
        && input[at..at + w.len()].iter().zip(w).all(|(&u, &b)| u < 0x80 && (u as u8).eq_ignore_ascii_case(&b))
}

/// Whether `input[at..]` starts with the ASCII `lit` exactly.
fn starts_with(input: &[u16], at: usize, lit: &str) -> bool {
    let l = lit.as_bytes();
    at + l.len() <= input.len() && input[at..at + l.len()].iter().zip(l).all(|(&u, &b)| u == u16::from(b))
}

struct Scanner<'a> {
    f: &'a HtmlStrip,
    /// Units of look-ahead work left.
    budget: usize,
    input: &'a [u16],
    pos: usize,
    state: State,
    /// Where the construct being scanned began (Lucene's `inputStart`); the input from
    /// there to `pos` is Lucene's `inputSegment`.
    start: usize,
    /// Lucene's `cumulativeDiff`.
    cum: i64,
    out: Vec<u16>,
    map: OffsetMap,
    restore: State,
    previous_restore: State,
    /// The character a reference stands for, until its `;` is seen.
    entity: Vec<u16>,
    /// The position of the next `>` at or after some position (a cache).
    next_gt: Option<(usize, Option<usize>)>,
}

impl Scanner<'_> {
    fn spend(&mut self, units: usize) -> Result<()> {
        if units > self.budget {
            return Err(Error::illegal_argument(
                "[html_strip] the text's markup needs too much look-ahead to scan; metagate stops there",
            ));
        }
        self.budget -= units;
        Ok(())
    }

    fn at(&self, i: usize) -> Option<u16> {
        self.input.get(i).copied()
    }

    fn skip_space(&mut self, mut i: usize) -> Result<usize> {
        let from = i;
        while self.at(i).is_some_and(is_space) {
            i += 1;
        }
        self.spend(i - from)?;
        Ok(i)
    }

    /// Removes `input[start..end]` (nothing output for it).
    fn remove(&mut self, end: usize) {
        self.cum += (end - self.start) as i64;
        self.map.add(self.out.len(), self.cum);
        self.state = State::Initial;
        self.pos = end;
    }

    /// Replaces `input[start..end]` by one newline.
    fn newline(&mut self, end: usize) {
        self.cum += (end - self.start) as i64 - 1;
        self.map.add(self.out.len() + 1, self.cum);
        self.out.push(u16::from(b'\n'));
        self.state = State::Initial;
        self.pos = end;
    }

    /// Keeps `input[start..end]` as written.
    fn keep(&mut self, end: usize) {
        self.out.extend_from_slice(&self.input[self.start..end]);
        self.state = State::Initial;
        self.pos = end;
    }

    /// No rule of the state matches at `pos`: what was read of the construct is kept and
    /// scanning resumes at `pos` (JFlex's one-character push-back).
    fn fall_back(&mut self) {
        let end = self.pos;
        self.keep(end);
    }

    /// Replaces `input[start..end]` by the pending entity characters.
    fn substitute(&mut self, end: usize) {
        let len = self.entity.len();
        self.cum += (end - self.start) as i64 - len as i64;
        self.map.add(self.out.len() + len, self.cum);
        self.out.extend_from_slice(&self.entity);
        self.state = State::Initial;
        self.pos = end;
    }

    fn run(&mut self) -> Result<()> {
        while self.pos < self.input.len() {
            self.step()?;
        }
        self.end_of_input();
        Ok(())
    }

    fn end_of_input(&mut self) {
        use State::*;
        let n = self.input.len();
        match self.state {
            Script
            | Comment
            | ScriptComment
            | Style
            | StyleComment
            | SingleQuotedString
            | DoubleQuotedString
            | EndTagTailExclude
            | EndTagTailSubstitute
            | StartTagTailExclude
            | ServerSideInclude
            | StartTagTailSubstitute => {
                self.cum += (n - self.start) as i64;
                self.map.add(self.out.len(), self.cum);
            }
            CharacterReferenceTail => self.substitute(n),
            // An unclosed CDATA section's text was output as it came.
            Cdata => {}
            Bang
            | Ampersand
            | NumericCharacter
            | EndTagTailInclude
            | StartTagTailInclude
            | LeftAngleBracket
            | LeftAngleBracketSlash
            | LeftAngleBracketSpace => self.keep(n),
            Initial => {}
        }
    }

    fn step(&mut self) -> Result<()> {
        use State::*;
        let p = self.pos;
        let u = self.input[p];
        match self.state {
            Initial => {
                if u == u16::from(b'&') || u == u16::from(b'<') {
                    self.start = p;
                    self.state = if u == u16::from(b'&') { Ampersand } else { LeftAngleBracket };
                } else {
                    self.out.push(u);
                }
                self.pos = p + 1;
            }
            Ampersand => self.ampersand(p)?,
            NumericCharacter => self.numeric(p),
            CharacterReferenceTail => {
                if u == u16::from(b';') {
                    self.substitute(p + 1);
                } else {
                    self.fall_back();
                }
            }
            LeftAngleBracket => self.left_angle_bracket(p)?,
            LeftAngleBracketSpace => match self.name(p)? {
                Some(end) => self.tag_name(p, end, true),
                None => self.fall_back(),
            },
            LeftAngleBracketSlash => {
                if is_space(u) {
                    self.pos = self.skip_space(p)?;
                } else if starts_with_ignore_case(self.input, p, "br") && {
                    let q = self.skip_space(p + 2)?;
                    self.at(q) == Some(u16::from(b'>'))
                } {
                    let end = self.skip_space(p + 2)? + 1;
                    if self.f.escape_br {
                        self.keep(end);
                    } else {
                        self.newline(end);
                    }
                } else {
                    match self.name(p)? {
                        Some(end) => self.tag_name(p, end, false),
                        None => self.fall_back(),
                    }
                }
            }
            EndTagTailInclude | EndTagTailExclude | EndTagTailSubstitute => {
                let q = self.skip_space(p)?;
                if self.at(q) == Some(u16::from(b'>')) {
                    match self.state {
                        EndTagTailInclude => self.keep(q + 1),
                        EndTagTailExclude => self.remove(q + 1),
                        _ => self.newline(q + 1),
                    }
                } else {
                    self.fall_back();
                }
            }
            StartTagTailInclude | StartTagTailExclude | StartTagTailSubstitute => match self.tag_tail(p, true)? {
                Some(end) => match self.state {
                    StartTagTailInclude => self.keep(end),
                    StartTagTailExclude => self.remove(end),
                    _ => self.newline(end),
                },
                None => self.fall_back(),
            },
            Bang => {
                // `--` and `[CDATA[` open a comment or CDATA section right after `<!` only.
                let opening = p == self.start + 2;
                if starts_with(self.input, p, "--") {
                    if opening {
                        self.state = Comment;
                    }
                    self.pos = p + 2;
                } else if u == u16::from(b'>') {
                    self.remove(p + 1);
                } else if starts_with(self.input, p, "[CDATA[") {
                    if opening {
                        self.remove(p + 7);
                        self.state = Cdata;
                    } else {
                        self.pos = p + 7;
                    }
                } else {
                    self.pos = p + 1;
                }
            }
            Cdata => {
                if starts_with(self.input, p, "]]>") {
                    self.cum += 3;
                    self.map.add(self.out.len(), self.cum);
                    self.state = Initial;
                    self.pos = p + 3;
                } else {
                    self.out.push(u);
                    self.pos = p + 1;
                }
            }
            Comment => {
                if starts_with(self.input, p, "<!--#") {
                    self.restore = Comment;
                    self.state = ServerSideInclude;
                    self.pos = p + 5;
                } else if starts_with(self.input, p, "-->") {
                    self.remove(p + 3);
                } else {
                    self.pos = p + 1;
                }
            }
            ServerSideInclude => {
                if starts_with(self.input, p, "-->") {
                    self.state = self.restore;
                    self.pos = p + 3;
                } else if u == u16::from(b'\'') || u == u16::from(b'"') {
                    self.previous_restore = self.restore;
                    self.restore = ServerSideInclude;
                    self.state = if u == u16::from(b'\'') { SingleQuotedString } else { DoubleQuotedString };
                    self.pos = p + 1;
                } else {
                    self.pos = p + 1;
                }
            }
            ScriptComment | StyleComment => {
                let me = self.state;
                if starts_with(self.input, p, "<!--#") {
                    self.restore = me;
                    self.state = ServerSideInclude;
                    self.pos = p + 5;
                } else if u == u16::from(b'\'') || u == u16::from(b'"') {
                    self.restore = me;
                    self.state = if u == u16::from(b'\'') { SingleQuotedString } else { DoubleQuotedString };
                    self.pos = p + 1;
                } else if starts_with(self.input, p, "-->") {
                    self.state = if me == ScriptComment { Script } else { Style };
                    self.pos = p + 3;
                } else {
                    self.pos = p + 1;
                }
            }
            SingleQuotedString | DoubleQuotedString => {
                let quote = if self.state == SingleQuotedString { b'\'' } else { b'"' };
                if u == u16::from(b'\\') && p + 1 < self.input.len() {
                    self.pos = p + 2;
                } else if u == u16::from(quote) {
                    self.state = self.restore;
                    self.restore = self.previous_restore;
                    self.pos = p + 1;
                } else {
                    self.pos = p + 1;
                }
            }
            Script | Style => {
                let (word, comment) =
                    if self.state == Script { ("script", ScriptComment) } else { ("style", StyleComment) };
                if starts_with(self.input, p, "<!--") {
                    self.state = comment;
                    self.pos = p + 4;
                } else if let Some(end) = self.closing_tag(p, word)? {
                    let escaped = if word == "script" { self.f.escape_script } else { self.f.escape_style };
                    self.cum += (p - self.start) as i64;
                    if escaped {
                        self.map.add(self.out.len(), self.cum);
                        self.out.extend_from_slice(&self.input[p..end]);
                    } else {
                        self.cum += (end - p) as i64 - 1;
                        self.map.add(self.out.len() + 1, self.cum);
                        self.out.push(u16::from(b'\n'));
                    }
                    self.state = Initial;
                    self.pos = end;
                } else {
                    self.pos = p + 1;
                }
            }
        }
        Ok(())
    }

    /// `"</" \s* word \s* ">"` at `p`: its end.
    fn closing_tag(&mut self, p: usize, word: &str) -> Result<Option<usize>> {
        if !starts_with(self.input, p, "</") {
            return Ok(None);
        }
        let q = self.skip_space(p + 2)?;
        if !starts_with_ignore_case(self.input, q, word) {
            return Ok(None);
        }
        let r = self.skip_space(q + word.len())?;
        Ok((self.at(r) == Some(u16::from(b'>'))).then_some(r + 1))
    }

    fn ampersand(&mut self, p: usize) -> Result<()> {
        if self.input[p] == u16::from(b'#') {
            if let Some((high, low)) = self.surrogate_pair(p) {
                self.cum += (p + 15 - self.start) as i64 - 2;
                self.map.add(self.out.len() + 2, self.cum);
                self.out.extend_from_slice(&[high, low]);
                self.state = State::Initial;
                self.pos = p + 15;
            } else {
                self.state = State::NumericCharacter;
                self.pos = p + 1;
            }
            return Ok(());
        }
        // The longest entity name here.
        let mut best: Option<(usize, u16)> = None;
        for &(name, value) in ENTITIES {
            if starts_with(self.input, p, name) && best.is_none_or(|(len, _)| name.len() > len) {
                best = Some((name.len(), value));
            }
        }
        match best {
            Some((len, value)) => {
                self.entity = vec![value];
                self.state = State::CharacterReferenceTail;
                self.pos = p + len;
            }
            None => self.fall_back(),
        }
        Ok(())
    }

    /// The four rules for a surrogate pair written as two references (`&#xD83D;&#xDE00;`,
    /// or decimal), fifteen units from the `#`: the pair, when both halves are right.
    fn surrogate_pair(&self, p: usize) -> Option<(u16, u16)> {
        if p + 15 > self.input.len() {
            return None;
        }
        let s: Vec<u16> = self.input[p..p + 15].to_vec();
        let is = |i: usize, set: &str| set.bytes().any(|b| s[i] == u16::from(b));
        let hex = |i: usize| char::from_u32(u32::from(s[i])).and_then(|c| c.to_digit(16));
        let dec = |i: usize| char::from_u32(u32::from(s[i])).and_then(super::chars::decimal_value);
        let hex4 = |i: usize| -> Option<u16> {
            let mut v = 0u32;
            for k in i..i + 4 {
                v = v * 16 + hex(k)?;
            }
            Some(v as u16)
        };
        let dec5 = |i: usize| -> Option<u32> {
            let mut v = 0u32;
            for k in i..i + 5 {
                v = v * 10 + dec(k)?;
            }
            Some(v)
        };
        // Positions: '#' 0, then the high half at 1..6, ";&#" 6..9, the low half 9..14, ';' 14.
        if !(is(6, ";") && is(7, "&") && is(8, "#") && is(14, ";")) {
            return None;
        }
        let high = if is(1, "xX") {
            if !(is(2, "dD") && is(3, "89aAbB")) {
                return None;
            }
            hex4(2)?
        } else if is(1, "5") && is(2, "56") {
            let v = dec5(1)?;
            if !(0xD800..=0xDBFF).contains(&v) {
                return None;
            }
            v as u16
        } else {
            return None;
        };
        let low = if is(9, "xX") {
            if !(is(10, "dD") && is(11, "cdefCDEF")) {
                return None;
            }
            hex4(10)?
        } else if is(9, "5") && is(10, "67") {
            let v = dec5(9)?;
            if !(0xDC00..=0xDFFF).contains(&v) {
                return None;
            }
            v as u16
        } else {
            return None;
        };
        Some((high, low))
    }

    fn numeric(&mut self, p: usize) {
        let u = self.input[p];
        let (digits_from, radix, max_len) = if u == u16::from(b'x') || u == u16::from(b'X') {
            (p + 1, 16, 6)
        } else if (u16::from(b'0')..=u16::from(b'9')).contains(&u) {
            (p, 10, 7)
        } else {
            return self.fall_back();
        };
        let mut end = digits_from;
        while self.at(end).and_then(|d| char::from_u32(u32::from(d))).is_some_and(|c| c.is_digit(radix) && c.is_ascii())
        {
            end += 1;
        }
        if end == digits_from {
            return self.fall_back();
        }
        let value = if end - p <= max_len {
            let digits = String::from_utf16_lossy(&self.input[digits_from..end]);
            u32::from_str_radix(&digits, radix).ok().filter(|&v| v <= 0x10FFFF)
        } else {
            None
        };
        match value {
            Some(v) => {
                self.entity.clear();
                if (0xD800..=0xDFFF).contains(&v) {
                    self.entity.push(0xFFFD);
                } else if let Some(c) = char::from_u32(v) {
                    let mut buf = [0u16; 2];
                    self.entity.extend_from_slice(c.encode_utf16(&mut buf));
                }
                self.state = State::CharacterReferenceTail;
                self.pos = end;
            }
            None => self.keep(end),
        }
    }

    fn left_angle_bracket(&mut self, p: usize) -> Result<()> {
        let u = self.input[p];
        if u == u16::from(b'!') {
            self.state = State::Bang;
            self.pos = p + 1;
            return Ok(());
        }
        if u == u16::from(b'/') {
            self.state = State::LeftAngleBracketSlash;
            self.pos = p + 1;
            return Ok(());
        }
        if u == u16::from(b'?') {
            match self.processing_instruction(p)? {
                Some(end) => self.remove(end),
                None => self.fall_back(),
            }
            return Ok(());
        }
        // `<br ...>`, `<script ...>` and `<style ...>`, after optional white space, win
        // over white space alone and over a tag name.
        let q = self.skip_space(p)?;
        if starts_with_ignore_case(self.input, q, "br") {
            if let Some(end) = self.tag_tail(q + 2, true)? {
                if self.f.escape_br {
                    self.keep(end);
                } else {
                    self.newline(end);
                }
                return Ok(());
            }
        }
        for (word, state, escaped) in
            [("script", State::Script, self.f.escape_script), ("style", State::Style, self.f.escape_style)]
        {
            if starts_with_ignore_case(self.input, q, word) {
                if let Some(end) = self.tag_tail(q + word.len(), false)? {
                    if escaped {
                        self.out.extend_from_slice(&self.input[self.start..end]);
                        self.start = end;
                    }
                    self.state = state;
                    self.pos = end;
                    return Ok(());
                }
            }
        }
        if q > p {
            self.state = State::LeftAngleBracketSpace;
            self.pos = q;
            return Ok(());
        }
        match self.name(p)? {
            Some(end) => self.tag_name(p, end, true),
            None => self.fall_back(),
        }
        Ok(())
    }

    /// `"?" [^>]* [/?] ">"` at `p`.
    fn processing_instruction(&mut self, p: usize) -> Result<Option<usize>> {
        let gt = match self.next_gt {
            Some((from, found)) if from <= p + 1 && found.is_none_or(|g| g > p) => found,
            _ => {
                let found = self.input[p + 1..].iter().position(|&u| u == u16::from(b'>')).map(|i| p + 1 + i);
                self.spend(found.map_or(self.input.len(), |g| g) - p)?;
                self.next_gt = Some((p + 1, found));
                found
            }
        };
        Ok(gt.filter(|&g| g >= p + 2 && matches!(self.input[g - 1], 0x2F | 0x3F)).map(|g| g + 1))
    }

    /// A tag name at `p`: the end of `Name`, if one starts there.
    fn name(&mut self, p: usize) -> Result<Option<usize>> {
        let (c, len) = code_point(self.input, p);
        if !(c == u32::from(b':') || c == u32::from(b'_') || is_id_start(c)) {
            return Ok(None);
        }
        let mut end = p + len;
        while end < self.input.len() {
            let (c, len) = code_point(self.input, end);
            if !(matches!(c, 0x2D | 0x2E | 0x3A | 0x5F) || is_id_continue(c)) {
                break;
            }
            end += len;
        }
        self.spend(end - p)?;
        Ok(Some(end))
    }

    /// A start (`start_tag`) or end tag's name read: where its tail is scanned next.
    fn tag_name(&mut self, p: usize, end: usize, start_tag: bool) {
        let name = &self.input[p..end];
        let inline = INLINE_ELEMENTS.iter().any(|w| w.len() == name.len() && starts_with_ignore_case(name, 0, w));
        self.state = match (self.f.is_escaped(name), inline, start_tag) {
            (true, _, true) => State::StartTagTailInclude,
            (false, true, true) => State::StartTagTailExclude,
            (false, false, true) => State::StartTagTailSubstitute,
            (true, _, false) => State::EndTagTailInclude,
            (false, true, false) => State::EndTagTailExclude,
            (false, false, false) => State::EndTagTailSubstitute,
        };
        self.pos = end;
    }

    /// A start tag's tail at `p`: `( ( "=" \s* | \s+ ) OpenTagContent )? \s* "/"? ">"`
    /// (`with_equals`), or `( \s+ OpenTagContent )? \s* ">"` for `script` and `style`:
    /// the end of the longest match.
    fn tag_tail(&mut self, p: usize, with_equals: bool) -> Result<Option<usize>> {
        let Some(u) = self.at(p) else { return Ok(None) };
        if is_space(u) || (with_equals && u == u16::from(b'=')) {
            // White space and `/` are content too, so the content's reach covers the rest.
            return self.content_reach(p + 1);
        }
        if u == u16::from(b'>') {
            return Ok(Some(p + 1));
        }
        if with_equals && u == u16::from(b'/') && self.at(p + 1) == Some(u16::from(b'>')) {
            return Ok(Some(p + 2));
        }
        Ok(None)
    }

    /// `OpenTagContent` from `from` followed by `>`: the last position after a `>` that
    /// the content reaches. The content is any characters but `<` and `>`, event
    /// attributes with quoted values, and server-side includes.
    fn content_reach(&mut self, from: usize) -> Result<Option<usize>> {
        let n = self.input.len();
        let mut pending = BinaryHeap::new();
        pending.push(Reverse(from));
        let mut last = None;
        let mut best = None;
        while let Some(Reverse(r)) = pending.pop() {
            if last.is_some_and(|l| r <= l) || r >= n {
                continue;
            }
            last = Some(r);
            self.spend(1)?;
            let u = self.input[r];
            if u == u16::from(b'>') {
                best = Some(r + 1);
            } else if u == u16::from(b'<') {
                for e in self.server_side_include(r)? {
                    pending.push(Reverse(e));
                }
            } else {
                pending.push(Reverse(r + 1));
                for e in self.event_attribute(r)? {
                    pending.push(Reverse(e));
                }
            }
        }
        Ok(best)
    }

    /// `on<event> \s* = \s* <quoted>` at `r`: the ends it may have.
    fn event_attribute(&mut self, r: usize) -> Result<Vec<usize>> {
        if !starts_with_ignore_case(self.input, r, "on") {
            return Ok(Vec::new());
        }
        let Some(suffix) = EVENT_SUFFIXES.iter().find(|s| starts_with_ignore_case(self.input, r + 2, s)) else {
            return Ok(Vec::new());
        };
        let q = self.skip_space(r + 2 + suffix.len())?;
        if self.at(q) != Some(u16::from(b'=')) {
            return Ok(Vec::new());
        }
        let q = self.skip_space(q + 1)?;
        self.quoted_ends(q)
    }

    /// `'...'` or `"..."` at `q`, where a quote after a backslash may end the string or
    /// belong to it: every end the string may have.
    fn quoted_ends(&mut self, q: usize) -> Result<Vec<usize>> {
        let Some(quote) = self.at(q).filter(|&u| u == u16::from(b'\'') || u == u16::from(b'"')) else {
            return Ok(Vec::new());
        };
        let mut ends = Vec::new();
        let mut i = q + 1;
        while i < self.input.len() {
            if self.input[i] == quote {
                ends.push(i + 1);
                if !(i > q + 1 && self.input[i - 1] == u16::from(b'\\')) {
                    break;
                }
            }
            i += 1;
        }
        self.spend(i - q)?;
        Ok(ends)
    }

    /// `"<!--#" ( [^'"] | <quoted> )* "-->"` at `r`: the ends it may have.
    fn server_side_include(&mut self, r: usize) -> Result<Vec<usize>> {
        if !starts_with(self.input, r, "<!--#") {
            return Ok(Vec::new());
        }
        let n = self.input.len();
        let mut pending = BinaryHeap::new();
        pending.push(Reverse(r + 5));
        let mut last = None;
        let mut ends = Vec::new();
        while let Some(Reverse(c)) = pending.pop() {
            if last.is_some_and(|l| c <= l) || c >= n {
                continue;
            }
            last = Some(c);
            self.spend(1)?;
            if starts_with(self.input, c, "-->") {
                ends.push(c + 3);
            }
            let u = self.input[c];
            if u == u16::from(b'\'') || u == u16::from(b'"') {
                for e in self.quoted_ends(c)? {
                    pending.push(Reverse(e));
                }
            } else {
                pending.push(Reverse(c + 1));
            }
        }
        Ok(ends)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(text: &str) -> String {
        HtmlStrip::new::<&str>(&[]).apply(text).unwrap().0
    }

    #[test]
    fn tags_entities_and_comments() {
        assert_eq!(strip("<p>Some <b>bold</b> &amp; html</p>"), "\nSome bold & html\n");
        assert_eq!(strip("a<!-- x -->b<br/>c"), "ab\nc");
        assert_eq!(strip("&#233;&#xE9;&eacute &lt;"), "éé&eacute <");
        assert_eq!(strip("x<script>if (a<b) {}</script>y"), "x\ny");
        assert_eq!(strip("1 < 2 and 3 > 2"), "1 < 2 and 3 > 2");
        assert_eq!(strip("&#55357;&#56832;"), "😀");
    }

    #[test]
    fn offsets_map_back() {
        let (out, map) = HtmlStrip::new::<&str>(&[]).apply("<b>bold</b> &amp; x").unwrap();
        assert_eq!(out, "bold & x");
        assert_eq!(map.correct(0), 3);
        assert_eq!(map.correct(5), 12);
        assert_eq!(map.correct(7), 18);
    }

    #[test]
    fn escaped_tags_stay() {
        let f = HtmlStrip::new(&["B", "br"]);
        assert_eq!(f.apply("<b>x</b><br><i>y</i>").unwrap().0, "<b>x</b><br>y");
    }
}
