//! Lucene's wildcard and regexp syntaxes translated into regex-automata patterns. Parsing
//! (aggregation include/exclude regexps) and execution (multi-term queries, highlighting)
//! read the same syntax, so the translation is shared.

/// Converts a Lucene wildcard pattern into an anchored regex; returns the literal prefix.
pub fn wildcard_to_regex(p: &str) -> (String, String) {
    let mut re = String::from("(?s)^");
    let mut literal_prefix = String::new();
    let mut in_prefix = true;
    let mut chars = p.chars();
    while let Some(c) = chars.next() {
        match c {
            '*' => {
                in_prefix = false;
                re.push_str(".*");
            }
            '?' => {
                in_prefix = false;
                re.push('.');
            }
            '\\' => {
                if let Some(n) = chars.next() {
                    if in_prefix {
                        literal_prefix.push(n);
                    }
                    re.push_str(&regex_syntax_escape(n));
                }
            }
            c => {
                if in_prefix {
                    literal_prefix.push(c);
                }
                re.push_str(&regex_syntax_escape(c));
            }
        }
    }
    re.push('$');
    (re, literal_prefix)
}

/// Lucene regexps treat `.` as any char, have no anchors, and use `<`, `>`, `&`, `~`, `#`, `@`
/// as operators only with optional flags; escape the characters Rust would read differently.
pub fn translate_lucene_regex(p: &str) -> String {
    let mut out = String::new();
    let mut chars = p.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(n) = chars.next() {
                    out.push_str(&regex_syntax_escape(n));
                }
            }
            '^' | '$' => out.push_str(&regex_syntax_escape(c)),
            '"' => {
                // A quoted literal string.
                for n in chars.by_ref() {
                    if n == '"' {
                        break;
                    }
                    out.push_str(&regex_syntax_escape(n));
                }
            }
            '@' => out.push_str(".*"),
            c => out.push(c),
        }
    }
    out
}

fn regex_syntax_escape(c: char) -> String {
    let mut s = String::new();
    if "\\.+*?()|[]{}^$#&-~".contains(c) {
        s.push('\\');
    }
    s.push(c);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcard_translation() {
        assert_eq!(wildcard_to_regex("ab*c?").1, "ab");
        assert_eq!(wildcard_to_regex("a\\*b").1, "a*b");
    }
}
