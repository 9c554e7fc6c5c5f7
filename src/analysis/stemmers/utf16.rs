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

/// Whether `s[..len]` ends with `suffix` (compared as UTF-16 units, as Lucene's
/// `StemmerUtil.endsWith`).
pub fn ends_with(s: &[u16], len: usize, suffix: &str) -> bool {
    let n = suffix.encode_utf16().count();
    len >= n && s[len - n..len].iter().copied().eq(suffix.encode_utf16())
}

/// Whether `s[..len]` starts with `prefix` (UTF-16 units, `StemmerUtil.startsWith`).
pub fn starts_with(s: &[u16], len: usize, prefix: &str) -> bool {
    let n = prefix.encode_utf16().count();
    len >= n && s[..n].iter().copied().eq(prefix.encode_utf16())
}

/// Removes `n` units at `pos` of `s[..len]` and returns the new length
/// (`StemmerUtil.deleteN`).
pub fn delete_n(s: &mut [u16], pos: usize, len: usize, n: usize) -> usize {
    s.copy_within(pos + n..len, pos);
    len - n
}

/// The length of `s[..len]` less the first ending of `groups` it has: each group is
/// `(word longer than, endings)`, tried in order, as Savoy's light stemmers list their
/// rules; `None` when no rule applies.
pub fn cut_first_ending(s: &[u16], len: usize, groups: &[(usize, &[&str])]) -> Option<usize> {
    groups
        .iter()
        .filter(|(longer_than, _)| len > *longer_than)
        .find_map(|(_, endings)| endings.iter().find(|e| ends_with(s, len, e)).map(|e| len - e.encode_utf16().count()))
}
