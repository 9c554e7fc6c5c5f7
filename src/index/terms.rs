//! A field's terms while a segment is built: an open-addressing table of term numbers
//! over slots that hold each term's posting state, and its bytes too when they are short;
//! longer terms and every posting live in the segment's [`Arena`]. So a term costs a
//! slot of one cache line, never a heap object of its own, and finding a short term
//! touches the table and that one line.
//!
//! Posting encoding in a term's byte list (all varints; documents are load ordinals):
//! keyword-like fields: each document as a delta from the previous (the first from 0);
//! text fields: each document as such a delta, then its positions each as
//! `1 + delta` from the previous position in the document, then `0` before the next
//! document.

use super::arena::{Arena, ByteList};
use std::hash::BuildHasher;

type Hasher = std::hash::BuildHasherDefault<rustc_hash::FxHasher>;

/// The hash the table files `term` under (the caller may compute it ahead, to
/// [`TermTable::prefetch`] with it).
pub fn term_hash(term: &[u8]) -> u64 {
    Hasher::default().hash_one(term)
}

/// Term bytes kept inside the slot (most text tokens and short keywords).
const INLINE: usize = 24;

/// One term of the table: a cache line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct TermSlot {
    hash: u64,
    len: u32,
    /// The term's posting bytes.
    pub posting: ByteList,
    last_doc: u32,
    last_pos: u32,
    /// Documents holding the term.
    pub df: u32,
    /// The term when it is at most [`INLINE`] bytes (zero-padded); else its arena
    /// address in the first four bytes.
    key: [u8; INLINE],
}

/// `term` zero-padded to [`INLINE`] bytes, when it fits.
fn inline_key(term: &[u8]) -> Option<[u8; INLINE]> {
    let mut key = [0u8; INLINE];
    key.get_mut(..term.len())?.copy_from_slice(term);
    Some(key)
}

/// The terms of one field in the segment being built.
///
/// The index is open addressing with linear probing over `u64` entries: a term number
/// (plus one; 0 is empty) under the top half of its hash, so most probes that miss are
/// told apart without touching a slot. It is ours rather than a general map's so that
/// the writer can prefetch the entry and the slot of a term a few terms ahead: the
/// table and the slots of a large field are far bigger than the caches, and those two
/// misses are most of a term's cost.
#[derive(Default)]
pub struct TermTable {
    /// A power of two of entries (or none before the first term).
    entries: Vec<u64>,
    slots: Vec<TermSlot>,
}

/// Entries are grown before more than this share of them is used.
const MAX_LOAD: (usize, usize) = (7, 10);

/// An entry's tag: the top half of the hash.
fn tag(hash: u64) -> u64 {
    hash & !0xFFFF_FFFF
}

impl TermTable {
    /// Heap bytes of the table itself (the arena is counted apart).
    pub fn memory(&self) -> usize {
        self.entries.capacity() * size_of::<u64>() + self.slots.capacity() * size_of::<TermSlot>()
    }

    /// Where the probe for `hash` starts.
    fn home(&self, hash: u64) -> usize {
        // The multiply spreads the hash's bits up; the top bits pick the entry.
        let bits = self.entries.len().trailing_zeros();
        (hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }

    /// Asks the processor to bring in the entry a lookup of `hash` reads first, and the
    /// slot it names when that entry is already cached.
    pub fn prefetch(&self, hash: u64, slot_too: bool) {
        if self.entries.is_empty() {
            return;
        }
        let at = self.home(hash);
        prefetch(self.entries.as_ptr().wrapping_add(at));
        if slot_too {
            let e = self.entries[at];
            if e != 0 && tag(e) == tag(hash) {
                prefetch(self.slots.as_ptr().wrapping_add((e as u32 - 1) as usize));
            }
        }
    }

    /// The number of `term` (whose [`term_hash`] is `hash`), adding it when new.
    pub fn intern(&mut self, arena: &mut Arena, term: &[u8], hash: u64) -> u32 {
        if (self.slots.len() + 1) * MAX_LOAD.1 > self.entries.len() * MAX_LOAD.0 {
            self.grow();
        }
        let len = term.len() as u32;
        let inline = inline_key(term);
        let mask = self.entries.len() - 1;
        let mut at = self.home(hash);
        loop {
            let e = self.entries[at];
            if e == 0 {
                break;
            }
            if tag(e) == tag(hash) {
                let id = e as u32 - 1;
                let s = &self.slots[id as usize];
                let same = s.hash == hash
                    && s.len == len
                    && match &inline {
                        Some(key) => s.key == *key,
                        None => arena.slice(s.arena_addr(), term.len()) == term,
                    };
                if same {
                    return id;
                }
            }
            at = (at + 1) & mask;
        }
        let id = self.slots.len() as u32;
        let key = inline.unwrap_or_else(|| {
            let mut key = [0u8; INLINE];
            key[..4].copy_from_slice(&arena.store(term).to_le_bytes());
            key
        });
        self.slots.push(TermSlot {
            hash,
            len,
            posting: ByteList::default(),
            last_doc: u32::MAX,
            last_pos: 0,
            df: 0,
            key,
        });
        self.entries[at] = tag(hash) | (id as u64 + 1);
        id
    }

    /// Doubles the entries (from 1,024) and files every term again.
    fn grow(&mut self) {
        let len = (self.entries.len() * 2).max(1024);
        self.entries = vec![0; len];
        let mask = len - 1;
        for (id, s) in self.slots.iter().enumerate() {
            let mut at = self.home(s.hash);
            while self.entries[at] != 0 {
                at = (at + 1) & mask;
            }
            self.entries[at] = tag(s.hash) | (id as u64 + 1);
        }
    }

    /// Records `doc` for a keyword-like term (once per document).
    pub fn add_doc(&mut self, arena: &mut Arena, id: u32, doc: u32) {
        let s = &mut self.slots[id as usize];
        if s.last_doc == doc {
            return;
        }
        let prev = if s.last_doc == u32::MAX { 0 } else { s.last_doc };
        s.posting.push_varint(arena, doc - prev);
        s.last_doc = doc;
        s.df += 1;
    }

    /// Records one occurrence of a text term at `pos` in `doc`.
    pub fn add_position(&mut self, arena: &mut Arena, id: u32, doc: u32, pos: u32) {
        let s = &mut self.slots[id as usize];
        if s.last_doc != doc {
            if s.last_doc != u32::MAX {
                s.posting.push(arena, 0);
            }
            let prev = if s.last_doc == u32::MAX { 0 } else { s.last_doc };
            s.posting.push_varint(arena, doc - prev);
            s.last_doc = doc;
            s.last_pos = 0;
            s.df += 1;
        }
        s.posting.push_varint(arena, 1 + pos.saturating_sub(s.last_pos));
        s.last_pos = pos;
    }

    /// The term bytes of `id`.
    pub fn term<'a>(&'a self, arena: &'a Arena, id: u32) -> &'a [u8] {
        let s = &self.slots[id as usize];
        let len = s.len as usize;
        if len <= INLINE {
            &s.key[..len]
        } else {
            arena.slice(s.arena_addr(), len)
        }
    }

    /// The slot of `id`.
    pub fn slot(&self, id: u32) -> &TermSlot {
        &self.slots[id as usize]
    }

    /// Term numbers in term byte order.
    pub fn sorted(&self, arena: &Arena) -> Vec<u32> {
        let mut ids: Vec<u32> = (0..self.slots.len() as u32).collect();
        ids.sort_unstable_by(|&a, &b| self.term(arena, a).cmp(self.term(arena, b)));
        ids
    }
}

/// A hint to load the cache line at `p`; never a fault, whatever `p` is.
#[inline(always)]
fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it reads nothing the program sees and does not
    // fault on any address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

impl TermSlot {
    /// Where a long term's bytes are in the arena.
    fn arena_addr(&self) -> u32 {
        u32::from_le_bytes([self.key[0], self.key[1], self.key[2], self.key[3]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_terms_intern_to_one_number_each_and_read_back() {
        let mut arena = Arena::default();
        let mut table = TermTable::default();
        let terms: Vec<Vec<u8>> = (0..3000u32)
            .map(|i| {
                // Lengths around the inline limit, and terms that differ only past it.
                let len = (i as usize * 7) % 40;
                let mut t = vec![b'a' + (i % 26) as u8; len];
                t.extend_from_slice(&i.to_le_bytes());
                t
            })
            .chain([Vec::new(), vec![0u8; INLINE], vec![0u8; INLINE + 1]])
            .collect();
        let ids: Vec<u32> = terms.iter().map(|t| table.intern(&mut arena, t, term_hash(t))).collect();
        for (t, &id) in terms.iter().zip(&ids) {
            assert_eq!(table.intern(&mut arena, t, term_hash(t)), id);
            assert_eq!(table.term(&arena, id), &t[..]);
        }
        let mut distinct = ids.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), terms.len());
    }
}
