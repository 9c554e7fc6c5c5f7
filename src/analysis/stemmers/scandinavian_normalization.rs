//! Lucene's ScandinavianNormalizationFilter: the interchangeable Danish, Norwegian and
//! Swedish spellings made one (`ä` to `æ`, `ö` to `ø`, `aa`/`ao` to `å`, `ae` to `æ`,
//! `oe`/`oo` to `ø`, keeping the first letter's case).

/// The normalized form of `term`.
pub fn normalize(term: &str) -> String {
    let chars: Vec<char> = term.chars().collect();
    let mut out = String::with_capacity(term.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let single = match c {
            'ä' => Some('æ'),
            'Ä' => Some('Æ'),
            'ö' => Some('ø'),
            'Ö' => Some('Ø'),
            _ => None,
        };
        if let Some(to) = single {
            out.push(to);
            i += 1;
            continue;
        }
        let next = chars.get(i + 1).map(|n| n.to_ascii_lowercase());
        let merged = match (c, next) {
            ('a', Some('a' | 'o')) => Some('å'),
            ('A', Some('a' | 'o')) => Some('Å'),
            ('a', Some('e')) => Some('æ'),
            ('A', Some('e')) => Some('Æ'),
            ('o', Some('e' | 'o')) => Some('ø'),
            ('O', Some('e' | 'o')) => Some('Ø'),
            _ => None,
        };
        match merged {
            Some(to) => {
                out.push(to);
                i += 2;
            }
            None => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn normalizes() {
        assert_eq!(super::normalize("räksmörgaos"), "ræksmørgås");
        assert_eq!(super::normalize("blaabaarsyltetoej"), "blåbårsyltetøj");
        assert_eq!(super::normalize("AAo"), "Åo");
    }
}
