//! Lucene's Snowball stemmers (`org.tartarus.snowball.ext.*`) by class name. Where the
//! oracle (tests/analysis_lucene.rs, and the Debian word lists and random words it was
//! checked on) shows a crate's algorithm version gives Lucene 8's stems, the
//! rust-stemmers or snowball_stemmers_rs crate runs the language (they compile different
//! Snowball revisions, so each language comes from the one that agrees). Dutch, German,
//! German2, Portuguese, Hungarian, Estonian and Lithuanian, which both crates take from
//! later revisions (`-nis`, `-ução`, Hungarian's `ő ű`, Estonian's `š ž`, ...), run on
//! metagate's own ports of Lucene's revisions. Arabic and Kp are known by name only, so that ES's
//! errors stay apart from metagate's refusal.

use rust_stemmers::{Algorithm, Stemmer};
use snowball_stemmers_rs as revised;

/// The Snowball classes Lucene 8 ships, by the name `SnowballFilter` takes.
pub const LUCENE_CLASSES: &[&str] = &[
    "Arabic",
    "Armenian",
    "Basque",
    "Catalan",
    "Danish",
    "Dutch",
    "English",
    "Estonian",
    "Finnish",
    "French",
    "German",
    "German2",
    "Hungarian",
    "Irish",
    "Italian",
    "Kp",
    "Lithuanian",
    "Lovins",
    "Norwegian",
    "Porter",
    "Portuguese",
    "Romanian",
    "Russian",
    "Spanish",
    "Swedish",
    "Turkish",
];

/// A Snowball language whose stems are Lucene 8's, by the crate that runs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Snowball {
    /// Armenian (snowball_stemmers_rs).
    Armenian,
    /// Basque (snowball_stemmers_rs).
    Basque,
    /// Catalan (snowball_stemmers_rs).
    Catalan,
    /// Irish (snowball_stemmers_rs).
    Irish,
    /// Lovins (snowball_stemmers_rs).
    Lovins,
    /// Porter (snowball_stemmers_rs).
    Porter,
    /// Danish (rust-stemmers).
    Danish,
    /// English, Porter2 (rust-stemmers).
    English,
    /// Finnish (rust-stemmers).
    Finnish,
    /// French (rust-stemmers).
    French,
    /// Italian (rust-stemmers).
    Italian,
    /// Norwegian (rust-stemmers).
    Norwegian,
    /// Romanian (rust-stemmers).
    Romanian,
    /// Russian (rust-stemmers).
    Russian,
    /// Spanish (rust-stemmers).
    Spanish,
    /// Swedish (rust-stemmers).
    Swedish,
    /// Turkish (rust-stemmers).
    Turkish,
    /// Dutch, run by [`super::dutch`]: the crate's `hop 3` counts UTF-8 bytes where
    /// Lucene counts UTF-16 units.
    Dutch,
    /// German, run by [`super::snowball_german`] (the crates follow a later revision).
    German,
    /// German2 (German reading `ae oe ue` as umlauts), run by [`super::snowball_german`].
    German2,
    /// Portuguese, run by [`super::snowball_portuguese`].
    Portuguese,
    /// Hungarian, run by [`super::snowball_hungarian`].
    Hungarian,
    /// Estonian, run by [`super::snowball_estonian`].
    Estonian,
    /// Lithuanian, run by [`super::snowball_lithuanian`].
    Lithuanian,
}

impl Snowball {
    /// The stemmer of a Lucene class name (`English`, `Dutch`, ...), if metagate runs it
    /// exactly (all of Lucene's but Arabic and Kp).
    pub fn named(class: &str) -> Option<Snowball> {
        Some(match class {
            "Armenian" => Snowball::Armenian,
            "Basque" => Snowball::Basque,
            "Catalan" => Snowball::Catalan,
            "Irish" => Snowball::Irish,
            "Lovins" => Snowball::Lovins,
            "Porter" => Snowball::Porter,
            "Danish" => Snowball::Danish,
            "English" => Snowball::English,
            "Finnish" => Snowball::Finnish,
            "French" => Snowball::French,
            "Italian" => Snowball::Italian,
            "Norwegian" => Snowball::Norwegian,
            "Romanian" => Snowball::Romanian,
            "Russian" => Snowball::Russian,
            "Spanish" => Snowball::Spanish,
            "Swedish" => Snowball::Swedish,
            "Turkish" => Snowball::Turkish,
            "Dutch" => Snowball::Dutch,
            "German" => Snowball::German,
            "German2" => Snowball::German2,
            "Portuguese" => Snowball::Portuguese,
            "Hungarian" => Snowball::Hungarian,
            "Estonian" => Snowball::Estonian,
            "Lithuanian" => Snowball::Lithuanian,
            _ => return None,
        })
    }

    /// The stem of `term`.
    pub fn stem(&self, term: &str) -> String {
        // Each arm names its algorithm as a constant: the crates' `create` matches over
        // every algorithm they have, and constant arguments let the build keep only the
        // algorithms metagate runs (the browser module's size).
        let crate_stem = |stemmer: Stemmer| stemmer.stem(term).into_owned();
        let revised_stem = |stemmer: revised::Stemmer| stemmer.stem(term).into_owned();
        match self {
            Snowball::Armenian => revised_stem(revised::Stemmer::create(revised::Algorithm::Armenian)),
            Snowball::Basque => revised_stem(revised::Stemmer::create(revised::Algorithm::Basque)),
            Snowball::Catalan => revised_stem(revised::Stemmer::create(revised::Algorithm::Catalan)),
            Snowball::Irish => revised_stem(revised::Stemmer::create(revised::Algorithm::Irish)),
            Snowball::Lovins => revised_stem(revised::Stemmer::create(revised::Algorithm::Lovins)),
            Snowball::Porter => revised_stem(revised::Stemmer::create(revised::Algorithm::Porter)),
            Snowball::Danish => crate_stem(Stemmer::create(Algorithm::Danish)),
            Snowball::English => crate_stem(Stemmer::create(Algorithm::English)),
            Snowball::Finnish => crate_stem(Stemmer::create(Algorithm::Finnish)),
            Snowball::French => crate_stem(Stemmer::create(Algorithm::French)),
            Snowball::Italian => crate_stem(Stemmer::create(Algorithm::Italian)),
            Snowball::Norwegian => crate_stem(Stemmer::create(Algorithm::Norwegian)),
            Snowball::Romanian => crate_stem(Stemmer::create(Algorithm::Romanian)),
            Snowball::Russian => crate_stem(Stemmer::create(Algorithm::Russian)),
            Snowball::Spanish => crate_stem(Stemmer::create(Algorithm::Spanish)),
            Snowball::Swedish => crate_stem(Stemmer::create(Algorithm::Swedish)),
            Snowball::Turkish => crate_stem(Stemmer::create(Algorithm::Turkish)),
            Snowball::Dutch => super::dutch::stem(term),
            Snowball::German => super::snowball_german::stem(term, false),
            Snowball::German2 => super::snowball_german::stem(term, true),
            Snowball::Portuguese => super::snowball_portuguese::stem(term),
            Snowball::Hungarian => super::snowball_hungarian::stem(term),
            Snowball::Estonian => super::snowball_estonian::stem(term),
            Snowball::Lithuanian => super::snowball_lithuanian::stem(term),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_classes() {
        assert_eq!(Snowball::named("English").unwrap().stem("generously"), "generous");
        assert_eq!(Snowball::named("Dutch").unwrap().stem("lichamelijke"), "licham");
        assert!(Snowball::named("Klingon").is_none());
        assert_eq!(Snowball::named("Dutch").unwrap().stem("aßen"), "aßen");
        assert_eq!(Snowball::named("Dutch").unwrap().stem("kaçheden"), "kaçheid");
        assert!(LUCENE_CLASSES.contains(&"German2"));
    }

    #[test]
    fn own_snowball_languages() {
        // Lucene 8.7's stems (tests/lucene/StemWords.java).
        let stem = |class: &str, word: &str| Snowball::named(class).unwrap().stem(word);
        assert_eq!(stem("Portuguese", "constituição"), "constituiçã");
        assert_eq!(stem("Portuguese", "nacionalidades"), "nacional");
        assert_eq!(stem("Hungarian", "házakban"), "ház");
        assert_eq!(stem("Hungarian", "őszinteség"), "őszinteség");
        assert_eq!(stem("Estonian", "saab"), "saa");
        assert_eq!(stem("Estonian", "teinekordki"), "teinekord");
        assert_eq!(stem("Lithuanian", "aukštaičių"), "aukštait");
        assert_eq!(stem("Lithuanian", "medžiai"), "med");
    }
}

/// The word-list comparison with Lucene, run by hand (`cargo test --lib
/// lucene_word_lists -- --ignored`) over the file named by `METAGATE_STEM_WORDS`: lines
/// `name<TAB>word<TAB>Lucene's stem` as tests/lucene/StemWords.java prints them.
///
/// Recorded run (word lists from tests/lucene/stem_word_lists.py: Debian word lists and
/// hunspell stems, lowercased, plus a sample of their words with every suffix of the
/// stemmer's tables appended, `SAMPLE` 2,500 for Portuguese and Hungarian, 800 for the
/// others; German without suffixes), every stem equal to Lucene 8.7's:
/// German and German2 (wngerman) 356,006 words each; Portuguese (wportuguese +
/// wbrazilian) 928,393; Hungarian (hunspell-hu) 527,705; Estonian (myspell-et) 571,158;
/// Lithuanian (hunspell-lt) 292,417; galician and minimal_galician (wgalician-minimos +
/// hunspell-gl) 814,823 each; portuguese_rslp 664,219 and brazilian 664,232
/// (wportuguese + wbrazilian, brazilian with 13 odd forms: capitals, punctuation,
/// short, long, non-BMP) — 0 differ.
#[cfg(test)]
mod word_lists {
    #[test]
    #[ignore]
    fn lucene_word_lists() {
        let path = std::env::var("METAGATE_STEM_WORDS").expect("METAGATE_STEM_WORDS");
        let text = std::fs::read_to_string(path).unwrap();
        let mut counts = std::collections::BTreeMap::<&str, (usize, usize)>::new();
        for line in text.lines() {
            let mut f = line.split('\t');
            let (Some(name), Some(word), Some(lucene)) = (f.next(), f.next(), f.next()) else { continue };
            let ours = super::super::stem_by_name(name, word).unwrap_or_else(|| panic!("no stemmer {name}"));
            let count = counts.entry(name).or_default();
            count.0 += 1;
            if ours != lucene {
                count.1 += 1;
                if count.1 <= 20 {
                    println!("DIFF {name} {word}: ours {ours}, lucene {lucene}");
                }
            }
        }
        for (name, (words, differ)) in &counts {
            println!("{name}: {words} words, {differ} differ");
        }
        assert!(counts.values().all(|(_, differ)| *differ == 0));
    }
}
