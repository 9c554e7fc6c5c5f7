//! Stemmers as Lucene runs them, one algorithm a file: Porter, KStem, the small English filters,
//! the light and minimal stemmers (French, German, Italian, Portuguese, Spanish, Swedish,
//! Czech, Bulgarian, Latvian, Indonesian, Arabic, Sorani), the RSLP stemmers (Galician,
//! Portuguese), Brazilian, the languages' normalization filters (German, Scandinavian,
//! Arabic, Persian, Sorani), Snowball Dutch, the Snowball languages the crates do not give
//! as Lucene 8 does (German, German2, Portuguese, Hungarian, Estonian, Lithuanian) on a
//! Snowball machine of our own with suffix tables generated from Lucene's, and the other
//! Snowball languages through the crates.

pub mod arabic;
pub mod bengali;
pub mod brazilian;
pub mod bulgarian;
pub mod czech;
pub mod dutch;
pub mod english;
pub mod finnish_light;
pub mod french_light;
pub mod german_light;
pub mod german_normalization;
pub mod greek;
pub mod hindi;
pub mod hungarian_light;
pub mod indic_normalization;
pub mod indonesian;
pub mod italian_light;
pub mod kstem;
pub mod latvian;
pub mod lowercase;
#[rustfmt::skip]
mod kstem_tables;
pub mod minimal;
pub mod norwegian;
pub mod persian;
pub mod porter;
pub mod rslp;
#[rustfmt::skip]
mod rslp_tables;
pub mod portuguese_light;
pub mod russian_light;
pub mod scandinavian_normalization;
pub mod snowball;
mod snowball_estonian;
mod snowball_german;
mod snowball_hungarian;
mod snowball_lithuanian;
mod snowball_portuguese;
mod snowball_runtime;
#[rustfmt::skip]
mod snowball_tables;
pub mod sorani;
pub mod spanish_light;
pub mod swedish_light;
mod utf16;

pub use english::{minimal_english, possessive};
pub use porter::porter;

/// A light stemmer (Lucene's `*LightStemFilter`s).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LightStemmer {
    /// `light_french`: FrenchLightStemmer.
    French,
    /// `minimal_french`: FrenchMinimalStemmer.
    MinimalFrench,
    /// `minimal_german`: GermanMinimalStemmer.
    MinimalGerman,
    /// `light_german`: GermanLightStemmer.
    German,
    /// `light_italian`: ItalianLightStemmer.
    Italian,
    /// `light_portuguese`: PortugueseLightStemmer.
    Portuguese,
    /// `light_spanish`: SpanishLightStemmer.
    Spanish,
    /// `light_swedish`: SwedishLightStemmer.
    Swedish,
    /// `czech`: CzechStemmer.
    Czech,
    /// `bulgarian`: BulgarianStemmer.
    Bulgarian,
    /// `latvian`: LatvianStemmer.
    Latvian,
    /// `indonesian`: IndonesianStemmer with derivational stemming (ES's filter).
    Indonesian,
    /// `arabic`: ArabicStemmer.
    Arabic,
    /// `sorani`: SoraniStemmer.
    Sorani,
    /// `light_russian`: RussianLightStemmer.
    Russian,
    /// `hindi`: HindiStemmer.
    Hindi,
    /// `bengali`: BengaliStemmer.
    Bengali,
    /// `greek`: GreekStemmer.
    Greek,
    /// `light_finnish`: FinnishLightStemmer.
    Finnish,
    /// `light_hungarian`: HungarianLightStemmer.
    Hungarian,
    /// `light_norwegian` / `light_nynorsk`: NorwegianLightStemmer.
    Norwegian(norwegian::Form),
    /// `minimal_norwegian` / `minimal_nynorsk`: NorwegianMinimalStemmer.
    MinimalNorwegian(norwegian::Form),
    /// `galician`: GalicianStemmer (RSLP).
    Galician,
    /// `minimal_galician`: GalicianMinimalStemmer (RSLP's plural step).
    MinimalGalician,
    /// `portuguese_rslp`: PortugueseStemmer (RSLP).
    PortugueseRslp,
    /// `brazilian`: BrazilianStemmer.
    Brazilian,
}

impl LightStemmer {
    /// The stem of `term`.
    pub fn stem(self, term: &str) -> String {
        match self {
            LightStemmer::French => french_light::stem(term),
            LightStemmer::MinimalFrench => minimal::french(term),
            LightStemmer::MinimalGerman => minimal::german(term),
            LightStemmer::German => german_light::stem(term),
            LightStemmer::Italian => italian_light::stem(term),
            LightStemmer::Portuguese => portuguese_light::stem(term),
            LightStemmer::Spanish => spanish_light::stem(term),
            LightStemmer::Swedish => swedish_light::stem(term),
            LightStemmer::Czech => czech::stem(term),
            LightStemmer::Bulgarian => bulgarian::stem(term),
            LightStemmer::Latvian => latvian::stem(term),
            LightStemmer::Indonesian => indonesian::stem(term, true),
            LightStemmer::Arabic => arabic::stem(term),
            LightStemmer::Sorani => sorani::stem(term),
            LightStemmer::Russian => russian_light::stem(term),
            LightStemmer::Hindi => hindi::stem(term),
            LightStemmer::Bengali => bengali::stem(term),
            LightStemmer::Greek => greek::stem(term),
            LightStemmer::Finnish => finnish_light::stem(term),
            LightStemmer::Hungarian => hungarian_light::stem(term),
            LightStemmer::Norwegian(form) => norwegian::light(term, form),
            LightStemmer::MinimalNorwegian(form) => norwegian::minimal(term, form),
            LightStemmer::Galician => rslp::galician(term),
            LightStemmer::MinimalGalician => rslp::minimal_galician(term),
            LightStemmer::PortugueseRslp => rslp::portuguese(term),
            LightStemmer::Brazilian => brazilian::filter(term),
        }
    }
}

/// A language's normalization filter: characters folded, never a token split or dropped
/// (ES lets normalizers use them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Normalization {
    /// `german_normalization`: GermanNormalizationFilter.
    German,
    /// `scandinavian_normalization`: ScandinavianNormalizationFilter.
    Scandinavian,
    /// `arabic_normalization`: ArabicNormalizationFilter.
    Arabic,
    /// `persian_normalization`: PersianNormalizationFilter.
    Persian,
    /// `sorani_normalization`: SoraniNormalizationFilter.
    Sorani,
    /// `indic_normalization`: IndicNormalizationFilter.
    Indic,
    /// `hindi_normalization`: HindiNormalizationFilter.
    Hindi,
    /// `bengali_normalization`: BengaliNormalizationFilter.
    Bengali,
}

impl Normalization {
    /// The filter of an ES token filter type, if it is one of these.
    pub fn named(ty: &str) -> Option<Normalization> {
        Some(match ty {
            "german_normalization" => Normalization::German,
            "scandinavian_normalization" => Normalization::Scandinavian,
            "arabic_normalization" => Normalization::Arabic,
            "persian_normalization" => Normalization::Persian,
            "sorani_normalization" => Normalization::Sorani,
            "indic_normalization" => Normalization::Indic,
            "hindi_normalization" => Normalization::Hindi,
            "bengali_normalization" => Normalization::Bengali,
            _ => return None,
        })
    }

    /// The normalized form of `term`.
    pub fn normalize(self, term: &str) -> String {
        match self {
            Normalization::German => german_normalization::normalize(term),
            Normalization::Scandinavian => scandinavian_normalization::normalize(term),
            Normalization::Arabic => arabic::normalize(term),
            Normalization::Persian => persian::normalize(term),
            Normalization::Sorani => sorani::normalize(term),
            Normalization::Indic => indic_normalization::normalize(term),
            Normalization::Hindi => hindi::normalize(term),
            Normalization::Bengali => bengali::normalize(term),
        }
    }
}

/// The stem of `word` by the stemmer StemWords.java calls `name` (a Snowball class or
/// one of Lucene's stem filters), for the word-list comparison.
#[cfg(test)]
fn stem_by_name(name: &str, word: &str) -> Option<String> {
    match name {
        "galician" => Some(rslp::galician(word)),
        "minimal_galician" => Some(rslp::minimal_galician(word)),
        "portuguese_rslp" => Some(rslp::portuguese(word)),
        "brazilian" => Some(brazilian::filter(word)),
        _ => snowball::Snowball::named(name).map(|s| s.stem(word)),
    }
}
