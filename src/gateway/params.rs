//! URL parameters: query-string parsing, percent-decoding, and ES 6.8's
//! "unrecognized parameter" error with its `did you mean` suggestions.

/// Decodes `%XX` escapes (and `+` as space when `plus_is_space`); an escape that is not
/// two hex digits stays as written, and bytes that are not UTF-8 become U+FFFD.
pub fn percent_decode(s: &str, plus_is_space: bool) -> String {
    let spaced;
    let s = if plus_is_space && s.contains('+') {
        spaced = s.replace('+', " ");
        spaced.as_str()
    } else {
        s
    };
    percent_encoding::percent_decode_str(s).decode_utf8_lossy().into_owned()
}

/// What a path segment or a query-string value keeps unescaped: RFC 3986's unreserved
/// characters. Everything else (`/`, `,`, `*`, `<`, `{`, ...) is escaped, so an index
/// expression or a document id travels as one segment and decodes to itself.
const UNRESERVED: &percent_encoding::AsciiSet =
    &percent_encoding::NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

/// Percent-encodes one path segment or query-string value for a gateway request.
pub fn percent_encode(s: &str) -> String {
    percent_encoding::utf8_percent_encode(s, UNRESERVED).to_string()
}

/// Splits `a=1&b=x%20y` into decoded pairs (a bare `a` has the value "").
pub fn parse_query_string(qs: &str) -> Vec<(String, String)> {
    qs.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (percent_decode(k, true), percent_decode(v, true))
        })
        .collect()
}

/// Lucene's `LevenshteinDistance.getDistance`: `1 - editDistance / max(len)`.
fn similarity(a: &str, b: &str) -> f32 {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.is_empty() || b.is_empty() {
        return if a == b { 1.0 } else { 0.0 };
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    1.0 - prev[b.len()] as f32 / a.len().max(b.len()) as f32
}

/// ES 6.8 `BaseRestHandler.unrecognized`: `None` when every parameter is known.
pub fn unrecognized_params_message(path: &str, unconsumed: &[&str], candidates: &[&str]) -> Option<String> {
    let mut invalid: Vec<&str> = unconsumed.to_vec();
    invalid.sort_unstable();
    invalid.dedup();
    if invalid.is_empty() {
        return None;
    }
    let mut msg =
        format!("request [{path}] contains unrecognized parameter{}: ", if invalid.len() > 1 { "s" } else { "" });
    for (i, bad) in invalid.iter().enumerate() {
        if i > 0 {
            msg.push_str(", ");
        }
        msg.push_str(&format!("[{bad}]"));
        let mut keys: Vec<(f32, &str)> =
            candidates.iter().map(|c| (similarity(bad, c), *c)).filter(|(d, _)| *d > 0.5).collect();
        keys.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
        keys.dedup_by(|a, b| a.1 == b.1);
        if !keys.is_empty() {
            msg.push_str(" -> did you mean ");
            if keys.len() == 1 {
                msg.push_str(&format!("[{}]", keys[0].1));
            } else {
                let names: Vec<&str> = keys.iter().map(|k| k.1).collect();
                msg.push_str(&format!("any of [{}]", names.join(", ")));
            }
            msg.push('?');
        }
    }
    Some(msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn es_examples() {
        let cands = ["size", "from", "q", "sort"];
        assert_eq!(
            unrecognized_params_message("/x/_search", &["api_key"], &cands).unwrap(),
            "request [/x/_search] contains unrecognized parameter: [api_key]"
        );
        assert_eq!(
            unrecognized_params_message("/x/_search", &["sze"], &cands).unwrap(),
            "request [/x/_search] contains unrecognized parameter: [sze] -> did you mean [size]?"
        );
        assert!(unrecognized_params_message("/x", &["a", "b"], &cands).unwrap().contains("parameters: [a], [b]"));
        assert_eq!(unrecognized_params_message("/x", &[], &cands), None);
    }

    #[test]
    fn decoding() {
        assert_eq!(
            parse_query_string("q=a%3Ab+c&size=3&x"),
            vec![("q".into(), "a:b c".into()), ("size".into(), "3".into()), ("x".into(), "".into())]
        );
        assert_eq!(percent_decode("RIN_Tool_pr%2CLexicon_pr", false), "RIN_Tool_pr,Lexicon_pr");
        assert_eq!(percent_decode("%zz%", false), "%zz%");
    }
}
