//! Lucene 7 BM25 exactly as ES 6.8 uses it: k1 1.2, b 0.75, f32 arithmetic, one-byte norms.

pub use crate::index::norms::{avg_field_length, norm_cache, B, K1};

/// Lucene's `BM25Similarity.idf`: computed in f64, returned as f32.
pub fn idf(doc_freq: u64, doc_count: u64) -> f32 {
    (1.0 + (doc_count as f64 - doc_freq as f64 + 0.5) / (doc_freq as f64 + 0.5)).ln() as f32
}

/// A term (or phrase) weight: `boost * idf * (k1 + 1)`, scoring per frequency and norm.
#[derive(Debug, Clone)]
pub struct Bm25Weight {
    /// `boost * idf * (k1 + 1)`.
    weight_value: f32,
    cache: Option<Box<[f32; 256]>>,
}

impl Bm25Weight {
    /// A weight for a field with norms (`avgdl` given) or without (`None`).
    pub fn new(idf: f32, boost: f32, avgdl: Option<f32>) -> Bm25Weight {
        let weight = idf * boost;
        Bm25Weight { weight_value: weight * (K1 + 1.0), cache: avgdl.map(|a| Box::new(norm_cache(a))) }
    }

    /// `BM25DocScorer.score(doc, freq)`.
    #[inline]
    pub fn score(&self, freq: f32, norm_byte: u8) -> f32 {
        let norm = match &self.cache {
            Some(c) => c[norm_byte as usize],
            None => K1,
        };
        self.weight_value * freq / (freq + norm)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::norms::int_to_byte4;

    #[test]
    fn es_docs_example() {
        // ES 6.x explain example: docFreq 1, docCount 5, avgdl 5.4, fieldLength 3, freq 1.
        let idf = idf(1, 5);
        assert_eq!(idf, 1.3862944f32);
        let w = Bm25Weight::new(idf, 1.0, Some(5.4));
        let s = w.score(1.0, int_to_byte4(3));
        assert_eq!(s, 1.6943598f32);
    }

    #[test]
    fn no_norms_is_idf_for_freq_one() {
        let w = Bm25Weight::new(idf(2, 10), 1.0, None);
        assert_eq!(w.score(1.0, 0), idf(2, 10) * 2.2 / 2.2);
    }
}
