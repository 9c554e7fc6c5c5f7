//! ES 6.8's stemming components by language: the `stemmer` filter's language names, the
//! `snowball` filter and analyzer, and the language analyzers (`dutch`, `danish`, ...) as
//! Lucene's analyzers build them. Languages metagate does not run exactly answer ES-shaped
//! `not supported by metagate` errors, never an approximation.

use super::settings::Options;
use super::stemmers::norwegian::Form;
use super::stemmers::snowball::{Snowball, LUCENE_CLASSES};
use super::stemmers::{LightStemmer, Normalization};
use super::stopwords::WordSet;
use super::token_filters::{KeywordMatcher, TokenFilter};
use crate::error::{Error, Result};
use std::collections::HashMap;

fn unsupported(what: &str, name: &str) -> Error {
    Error::illegal_argument(format!("the {what} [{name}] is not supported by metagate"))
}

/// The `language` names ES 6.8's StemmerTokenFilterFactory knows besides the Snowball
/// classes, lowercased (it compares ignoring case).
const ES_STEMMER_NAMES: &[&str] = &[
    "arabic",
    "bengali",
    "brazilian",
    "bulgarian",
    "czech",
    "dutch_kp",
    "dutchkp",
    "light_english",
    "lightenglish",
    "kstem",
    "porter2",
    "minimal_english",
    "minimalenglish",
    "possessive_english",
    "possessiveenglish",
    "light_finish",
    "lightfinish",
    "light_finnish",
    "lightfinnish",
    "light_french",
    "lightfrench",
    "minimal_french",
    "minimalfrench",
    "galician",
    "minimal_galician",
    "light_german",
    "lightgerman",
    "minimal_german",
    "minimalgerman",
    "greek",
    "hindi",
    "light_hungarian",
    "lighthungarian",
    "indonesian",
    "light_italian",
    "lightitalian",
    "latvian",
    "light_norwegian",
    "lightnorwegian",
    "minimal_norwegian",
    "minimalnorwegian",
    "light_nynorsk",
    "lightnynorsk",
    "minimal_nynorsk",
    "minimalnynorsk",
    "light_portuguese",
    "lightportuguese",
    "minimal_portuguese",
    "minimalportuguese",
    "portuguese_rslp",
    "light_russian",
    "lightrussian",
    "light_spanish",
    "lightspanish",
    "sorani",
    "light_swedish",
    "lightswedish",
];

/// ES's `Strings.capitalize`: the first character uppercased.
pub fn capitalize(s: &str) -> String {
    let mut it = s.chars();
    match it.next() {
        Some(c) => c.to_uppercase().chain(it).collect(),
        None => String::new(),
    }
}

/// A Snowball filter for Lucene class `class`, as `SnowballFilter(input, class)` makes it.
pub fn snowball_filter(class: &str) -> Result<TokenFilter> {
    if let Some(s) = Snowball::named(class) {
        return Ok(TokenFilter::Snowball(s));
    }
    if LUCENE_CLASSES.contains(&class) {
        return Err(unsupported("snowball language", class));
    }
    Err(Error::illegal_argument(format!("Invalid stemmer class specified: {class}")))
}

/// The `stemmer` filter of `language` (its `language` or `name` option, `porter` by
/// default), resolved as ES 6.8's StemmerTokenFilterFactory resolves it.
pub fn stemmer_filter(language: &str) -> Result<TokenFilter> {
    let language = capitalize(language);
    let lower = language.to_lowercase();
    Ok(match lower.as_str() {
        "english" | "porter" => TokenFilter::PorterStem,
        "light_english" | "lightenglish" | "kstem" => TokenFilter::KStem,
        "minimal_english" | "minimalenglish" => TokenFilter::MinimalEnglishStem,
        "possessive_english" | "possessiveenglish" => TokenFilter::PossessiveEnglish,
        "porter2" => snowball_filter("English")?,
        "dutch_kp" | "dutchkp" | "kp" => snowball_filter("Kp")?,
        "light_french" | "lightfrench" => TokenFilter::LightStem(LightStemmer::French),
        "light_portuguese" | "lightportuguese" => TokenFilter::LightStem(LightStemmer::Portuguese),
        "minimal_french" | "minimalfrench" => TokenFilter::LightStem(LightStemmer::MinimalFrench),
        "minimal_german" | "minimalgerman" => TokenFilter::LightStem(LightStemmer::MinimalGerman),
        "light_swedish" | "lightswedish" => TokenFilter::LightStem(LightStemmer::Swedish),
        "light_german" | "lightgerman" => TokenFilter::LightStem(LightStemmer::German),
        "light_italian" | "lightitalian" => TokenFilter::LightStem(LightStemmer::Italian),
        "light_spanish" | "lightspanish" => TokenFilter::LightStem(LightStemmer::Spanish),
        "light_russian" | "lightrussian" => TokenFilter::LightStem(LightStemmer::Russian),
        "light_finish" | "lightfinish" | "light_finnish" | "lightfinnish" => {
            TokenFilter::LightStem(LightStemmer::Finnish)
        }
        "light_hungarian" | "lighthungarian" => TokenFilter::LightStem(LightStemmer::Hungarian),
        "light_norwegian" | "lightnorwegian" => TokenFilter::LightStem(LightStemmer::Norwegian(Form::Bokmaal)),
        "light_nynorsk" | "lightnynorsk" => TokenFilter::LightStem(LightStemmer::Norwegian(Form::Nynorsk)),
        "minimal_norwegian" | "minimalnorwegian" => {
            TokenFilter::LightStem(LightStemmer::MinimalNorwegian(Form::Bokmaal))
        }
        "minimal_nynorsk" | "minimalnynorsk" => TokenFilter::LightStem(LightStemmer::MinimalNorwegian(Form::Nynorsk)),
        "arabic" => TokenFilter::LightStem(LightStemmer::Arabic),
        "bulgarian" => TokenFilter::LightStem(LightStemmer::Bulgarian),
        "czech" => TokenFilter::LightStem(LightStemmer::Czech),
        "indonesian" => TokenFilter::LightStem(LightStemmer::Indonesian),
        "latvian" => TokenFilter::LightStem(LightStemmer::Latvian),
        "sorani" => TokenFilter::LightStem(LightStemmer::Sorani),
        "hindi" => TokenFilter::LightStem(LightStemmer::Hindi),
        "bengali" => TokenFilter::LightStem(LightStemmer::Bengali),
        "greek" => TokenFilter::LightStem(LightStemmer::Greek),
        "galician" => TokenFilter::LightStem(LightStemmer::Galician),
        "minimal_galician" => TokenFilter::LightStem(LightStemmer::MinimalGalician),
        "portuguese_rslp" => TokenFilter::LightStem(LightStemmer::PortugueseRslp),
        "brazilian" => TokenFilter::LightStem(LightStemmer::Brazilian),
        _ => {
            if let Some(class) = LUCENE_CLASSES.iter().find(|c| c.eq_ignore_ascii_case(&lower)) {
                return snowball_filter(class).map_err(|e| {
                    if e.reason().contains("not supported") {
                        unsupported("stemmer language", &lower)
                    } else {
                        e
                    }
                });
            }
            if ES_STEMMER_NAMES.contains(&lower.as_str()) {
                return Err(unsupported("stemmer language", &lower));
            }
            // ES hands any other name to SnowballFilter as a class name.
            return snowball_filter(&language);
        }
    })
}

/// A `stemmer_override` filter from its `rules` (`a, b => c`).
pub fn stemmer_override(rules: Option<Vec<String>>, has_path: bool) -> Result<TokenFilter> {
    if has_path {
        return Err(unsupported("option", "rules_path"));
    }
    let Some(rules) = rules else {
        return Err(Error::illegal_argument(
            "stemmer override filter requires either `rules` or `rules_path` to be configured",
        ));
    };
    let mut map = HashMap::new();
    for rule in rules {
        // ES 6.8 takes the whole left side as one key (commas are not separators yet).
        let invalid = || Error::illegal_argument(format!("Invalid Keyword override Rule:{rule}"));
        let parts: Vec<&str> = rule.split("=>").collect();
        let [key, to] = parts[..] else {
            return Err(invalid());
        };
        let (key, to) = (key.trim(), to.trim());
        if key.is_empty() || to.is_empty() {
            return Err(invalid());
        }
        // Lucene's builder keeps the first output of a repeated input.
        map.entry(key.to_string()).or_insert_with(|| to.to_string());
    }
    Ok(TokenFilter::StemmerOverride(map))
}

/// `stem_exclusion` as ES's `Analysis.parseStemExclusion` reads it: words as given.
fn stem_exclusion(o: &Options) -> Option<TokenFilter> {
    let list = o.list("stem_exclusion")?;
    if list.is_empty() || (list.len() == 1 && list[0] == "_none_") {
        return None;
    }
    Some(TokenFilter::KeywordMarker(KeywordMatcher::Words(WordSet::literal(&list, false))))
}

/// The language analyzers built on a Snowball stemmer metagate runs, with their class.
pub const SNOWBALL_LANGUAGE_ANALYZERS: &[(&str, &str)] = &[
    ("danish", "Danish"),
    ("dutch", "Dutch"),
    ("norwegian", "Norwegian"),
    ("romanian", "Romanian"),
    ("russian", "Russian"),
    ("swedish", "Swedish"),
];

/// The token filters (after the standard tokenizer) of a language analyzer built on a
/// Snowball stemmer, as Lucene's DanishAnalyzer, DutchAnalyzer, ... chain them; `None`
/// for an analyzer type this file does not build. `stop` is the analyzer's stop set,
/// read from `stopwords` with the language's list as default.
pub fn snowball_language_analyzer(
    ty: &str,
    o: &Options,
    stop: impl FnOnce(&str) -> Result<WordSet>,
) -> Option<Result<Vec<(&'static str, TokenFilter)>>> {
    let class = SNOWBALL_LANGUAGE_ANALYZERS.iter().find(|(t, _)| *t == ty)?.1;
    Some((|| {
        let mut filters =
            vec![("lowercase", TokenFilter::Lowercase), ("stop", TokenFilter::Stop(stop(&format!("_{ty}_"))?))];
        if let Some(marker) = stem_exclusion(o) {
            filters.push(("keyword_marker", marker));
        }
        if ty == "dutch" {
            // DutchAnalyzer's default stem dictionary.
            let map = [("fiets", "fiets"), ("bromfiets", "bromfiets"), ("ei", "eier"), ("kind", "kinder")];
            let map = map.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            filters.push(("stemmer_override", TokenFilter::StemmerOverride(map)));
        }
        filters.push(("snowball", snowball_filter(class)?));
        Ok(filters)
    })())
}

/// Lucene's ItalianAnalyzer elision articles.
const ITALIAN_ARTICLES: &[&str] = &[
    "c", "l", "all", "dall", "dell", "nell", "sull", "coll", "pell", "gl", "agl", "dagl", "degl", "negl", "sugl", "un",
    "m", "t", "s", "v", "d",
];

/// The language analyzers built on a light stemmer metagate runs.
pub const LIGHT_LANGUAGE_ANALYZERS: &[&str] = &["french", "german", "italian", "portuguese", "spanish"];

/// Lucene's FrenchAnalyzer elision articles.
const FRENCH_ARTICLES: &[&str] = &["l", "m", "t", "qu", "n", "s", "j", "d", "c", "jusqu", "quoiqu", "lorsqu", "puisqu"];

/// The token filters (after the standard tokenizer) of a language analyzer built on a
/// light stemmer, as Lucene's FrenchAnalyzer, GermanAnalyzer, ItalianAnalyzer,
/// PortugueseAnalyzer and SpanishAnalyzer chain them; `None` for another type.
pub fn light_language_analyzer(
    ty: &str,
    o: &Options,
    stop: impl FnOnce(&str) -> Result<WordSet>,
) -> Option<Result<Vec<(&'static str, TokenFilter)>>> {
    let stemmer = match ty {
        "french" => LightStemmer::French,
        "german" => LightStemmer::German,
        "italian" => LightStemmer::Italian,
        "portuguese" => LightStemmer::Portuguese,
        "spanish" => LightStemmer::Spanish,
        _ => return None,
    };
    Some((|| {
        let mut filters = Vec::new();
        match ty {
            "french" => filters.push(("elision", TokenFilter::Elision(WordSet::literal(FRENCH_ARTICLES, true)))),
            "italian" => filters.push(("elision", TokenFilter::Elision(WordSet::literal(ITALIAN_ARTICLES, true)))),
            _ => {}
        }
        filters.push(("lowercase", TokenFilter::Lowercase));
        filters.push(("stop", TokenFilter::Stop(stop(&format!("_{ty}_"))?)));
        if let Some(marker) = stem_exclusion(o) {
            filters.push(("keyword_marker", marker));
        }
        if ty == "german" {
            filters.push(("german_normalization", TokenFilter::Normalization(Normalization::German)));
        }
        filters.push(("light_stemmer", TokenFilter::LightStem(stemmer)));
        Ok(filters)
    })())
}

/// Lucene's CatalanAnalyzer elision articles.
const CATALAN_ARTICLES: &[&str] = &["d", "l", "m", "n", "s", "t"];

/// The language analyzers built on the other stemmers metagate runs.
pub const OTHER_LANGUAGE_ANALYZERS: &[&str] = &[
    "arabic",
    "armenian",
    "basque",
    "bengali",
    "brazilian",
    "bulgarian",
    "catalan",
    "cjk",
    "czech",
    "estonian",
    "finnish",
    "galician",
    "greek",
    "hindi",
    "hungarian",
    "indonesian",
    "irish",
    "latvian",
    "lithuanian",
    "persian",
    "sorani",
    "turkish",
];

/// The token filters (after the standard tokenizer) of the other language analyzers, as
/// Lucene's ArabicAnalyzer, BulgarianAnalyzer, CJKAnalyzer, ... chain them (Persian's
/// char filter, which turns the zero-width non-joiner into a space, is added by the
/// caller); `None` for another type.
pub fn other_language_analyzer(
    ty: &str,
    o: &Options,
    stop: impl FnOnce(&str) -> Result<WordSet>,
) -> Option<Result<Vec<(&'static str, TokenFilter)>>> {
    if !OTHER_LANGUAGE_ANALYZERS.contains(&ty) {
        return None;
    }
    Some((|| {
        let stop = ("stop", TokenFilter::Stop(stop(&format!("_{ty}_"))?));
        let lowercase = ("lowercase", TokenFilter::Lowercase);
        let digits = ("decimal_digit", TokenFilter::DecimalDigit);
        let normalize = |n| ("normalization", TokenFilter::Normalization(n));
        let mut filters = match ty {
            "cjk" => {
                let scripts = super::cjk_bigram::Scripts { han: true, hiragana: true, katakana: true, hangul: true };
                let bigrams = TokenFilter::CjkBigram { scripts, output_unigrams: false };
                return Ok(vec![("cjk_width", TokenFilter::CjkWidth), lowercase, ("cjk_bigram", bigrams), stop]);
            }
            "persian" => {
                return Ok(vec![
                    lowercase,
                    digits,
                    normalize(Normalization::Arabic),
                    normalize(Normalization::Persian),
                    stop,
                ])
            }
            "hindi" | "bengali" => {
                // Keyword marking comes before the normalizers here, as in HindiAnalyzer
                // and BengaliAnalyzer.
                let (language, stemmer) = match ty {
                    "hindi" => (Normalization::Hindi, LightStemmer::Hindi),
                    _ => (Normalization::Bengali, LightStemmer::Bengali),
                };
                let mut filters = vec![lowercase, digits];
                filters.extend(stem_exclusion(o).map(|marker| ("keyword_marker", marker)));
                filters.extend([normalize(Normalization::Indic), normalize(language), stop]);
                filters.push(("stemmer", TokenFilter::LightStem(stemmer)));
                return Ok(filters);
            }
            "greek" => {
                // Lucene's GreekAnalyzer takes no stem exclusion (nor does ES's provider).
                let stemmer = ("stemmer", TokenFilter::LightStem(LightStemmer::Greek));
                return Ok(vec![("lowercase", TokenFilter::GreekLowercase), stop, stemmer]);
            }
            "arabic" => vec![lowercase, digits, stop, normalize(Normalization::Arabic)],
            "sorani" => vec![normalize(Normalization::Sorani), lowercase, digits, stop],
            "turkish" => {
                vec![("apostrophe", TokenFilter::Apostrophe), ("lowercase", TokenFilter::TurkishLowercase), stop]
            }
            "catalan" => {
                vec![("elision", TokenFilter::Elision(WordSet::literal(CATALAN_ARTICLES, true))), lowercase, stop]
            }
            "irish" => vec![
                // The hyphenated prefixes h-, n-, t- as tokens of their own, then elided articles.
                ("stop", TokenFilter::Stop(WordSet::literal(&["h", "n", "t"], true))),
                ("elision", TokenFilter::Elision(WordSet::literal(&["d", "m", "b"], true))),
                ("lowercase", TokenFilter::IrishLowercase),
                stop,
            ],
            _ => vec![lowercase, stop],
        };
        if let Some(marker) = stem_exclusion(o) {
            filters.push(("keyword_marker", marker));
        }
        let stemmer = match ty {
            "arabic" => TokenFilter::LightStem(LightStemmer::Arabic),
            "bulgarian" => TokenFilter::LightStem(LightStemmer::Bulgarian),
            "czech" => TokenFilter::LightStem(LightStemmer::Czech),
            "indonesian" => TokenFilter::LightStem(LightStemmer::Indonesian),
            "latvian" => TokenFilter::LightStem(LightStemmer::Latvian),
            "sorani" => TokenFilter::LightStem(LightStemmer::Sorani),
            "galician" => TokenFilter::LightStem(LightStemmer::Galician),
            "brazilian" => TokenFilter::LightStem(LightStemmer::Brazilian),
            _ => snowball_filter(&capitalize(ty))?,
        };
        filters.push(("stemmer", stemmer));
        Ok(filters)
    })())
}

/// The token filters (after the standard tokenizer) of ES's `snowball` analyzer for
/// `language` (a Lucene class name, as ES passes it unchanged): the possessive filter for
/// English, lowercase, the stop set (`stop` with the language's default list), the stemmer.
pub fn snowball_analyzer(
    language: &str,
    stop: impl FnOnce(&[&str]) -> Result<WordSet>,
) -> Result<Vec<(&'static str, TokenFilter)>> {
    let stemmer = snowball_filter(language)?;
    let default: &[&str] = match language {
        "English" => &["_english_"],
        "Dutch" => &["_dutch_"],
        "German" | "German2" => &["_german_"],
        _ => &["_none_"],
    };
    let mut filters = Vec::new();
    if matches!(language, "English" | "Porter" | "Lovins") {
        filters.push(("possessive", TokenFilter::PossessiveEnglish));
    }
    filters.push(("lowercase", TokenFilter::Lowercase));
    filters.push(("stop", TokenFilter::Stop(stop(default)?)));
    filters.push(("snowball", stemmer));
    Ok(filters)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stemmer_names() {
        assert!(matches!(stemmer_filter("Porter2").unwrap(), TokenFilter::Snowball(_)));
        assert!(matches!(stemmer_filter("DUTCH").unwrap(), TokenFilter::Snowball(_)));
        assert!(matches!(stemmer_filter("german2").unwrap(), TokenFilter::Snowball(Snowball::German2)));
        assert!(matches!(
            stemmer_filter("minimal_galician").unwrap(),
            TokenFilter::LightStem(LightStemmer::MinimalGalician)
        ));
        assert!(matches!(stemmer_filter("brazilian").unwrap(), TokenFilter::LightStem(LightStemmer::Brazilian)));
        assert_eq!(stemmer_filter("klingon").unwrap_err().reason(), "Invalid stemmer class specified: Klingon");
        assert_eq!(snowball_filter("english").unwrap_err().reason(), "Invalid stemmer class specified: english");
    }

    #[test]
    fn override_rules() {
        let TokenFilter::StemmerOverride(m) =
            stemmer_override(Some(vec!["a => c".into(), "a => d".into(), "b => c".into()]), false).unwrap()
        else {
            panic!()
        };
        assert_eq!(m.get("a").map(String::as_str), Some("c"));
        assert_eq!(m.get("b").map(String::as_str), Some("c"));
        assert!(stemmer_override(Some(vec!["a => b => c".into()]), false)
            .unwrap_err()
            .reason()
            .starts_with("Invalid Keyword"));
    }
}
