//! Lucene's stemmers work on a term's UTF-16 units (`char[]`, a length); these run them
//! the same way so that lengths count as Lucene counts them.

/// Runs `f` (which edits the units and returns the new length) over `term`'s UTF-16 units.
pub fn with_units(term: &str, f: impl FnOnce(&mut Vec<u16>, usize) -> usize) -> String {
    let mut units: Vec<u16> = term.encode_utf16().collect();
    let len = units.len();
    let len = f(&mut units, len);
    units.truncate(len);
    String::from_utf16_lossy(&units)
}

/// A BMP character as one UTF-16 unit.
pub const fn u(c: char) -> u16 {
    c as u32 as u16
}

/// Replaces the accented vowels of `s[..len]` by their base letter, by the table
/// `(base, accented)` each light stemmer gives.
pub fn fold_vowels(s: &mut [u16], len: usize, table: &[(char, &str)]) {
    for unit in s.iter_mut().take(len) {
        if let Some((base, _)) = table.iter().find(|(_, accented)| accented.encode_utf16().any(|a| a == *unit)) {
            *unit = u(*base);
        }
    }
}
