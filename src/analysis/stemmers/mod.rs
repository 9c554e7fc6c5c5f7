//! Stemmers as Lucene runs them, one algorithm a file: Porter, KStem, the small English filters,
//! the light and minimal stemmers (French, German, Italian, Portuguese, Spanish, Swedish),
//! German and Scandinavian normalization, Snowball Dutch, and the other Snowball languages whose stems are
//! Lucene 8's.

pub mod dutch;
pub mod english;
pub mod french_light;
pub mod german_light;
pub mod german_normalization;
pub mod italian_light;
pub mod kstem;
#[rustfmt::skip]
mod kstem_tables;
pub mod minimal;
pub mod porter;
pub mod portuguese_light;
pub mod scandinavian_normalization;
pub mod snowball;
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
        }
    }
}
