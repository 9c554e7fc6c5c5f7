//! A field's terms while a segment is built: an open-addressing table of term numbers
//! whose term bytes and postings live in the segment's [`Arena`], so a term costs a slot
//! and a small fixed record, never a heap object of its own.
//!
//! Posting encoding in a term's byte list (all varints; documents are load ordinals):
//! keyword-like fields: each document as a delta from the previous (the first from 0);
//! text fields: each document as such a delta, then its positions each as
//! `1 + delta` from the previous position in the document, then `0` before the next
//! document.

use super::arena::{Arena, ByteList};
use hashbrown::HashTable;
use std::hash::{BuildHasher, BuildHasherDefault};

type Hasher = BuildHasherDefault<rustc_hash::FxHasher>;

/// One term of the table.
#[derive(Clone, Copy)]
pub struct TermSlot {
    hash: u64,
    bytes: u32,
    bytes_len: u32,
    /// The term's posting bytes.
    pub posting: ByteList,
    last_doc: u32,
    last_pos: u32,
    /// Documents holding the term.
    pub df: u32,
}

/// The terms of one field in the segment being built.
#[derive(Default)]
pub struct TermTable {
    table: HashTable<u32>,
    slots: Vec<TermSlot>,
}

impl TermTable {
    /// Heap bytes of the table itself (the arena is counted apart).
    pub fn memory(&self) -> usize {
        self.table.capacity() * (std::mem::size_of::<u32>() + 1) + self.slots.capacity() * size_of::<TermSlot>()
    }

    /// The number of `term`, adding it when new.
    pub fn intern(&mut self, arena: &mut Arena, term: &[u8]) -> u32 {
        let hash = Hasher::default().hash_one(term);
        let slots = &self.slots;
        if let Some(&id) = self.table.find(hash, |&id| {
            let s = &slots[id as usize];
            s.hash == hash && arena.slice(s.bytes, s.bytes_len as usize) == term
        }) {
            return id;
        }
        let id = self.slots.len() as u32;
        let bytes = arena.store(term);
        self.slots.push(TermSlot {
            hash,
            bytes,
            bytes_len: term.len() as u32,
            posting: ByteList::default(),
            last_doc: u32::MAX,
            last_pos: 0,
            df: 0,
        });
        let slots = &self.slots;
        self.table.insert_unique(hash, id, |&i| slots[i as usize].hash);
        id
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
    pub fn term<'a>(&self, arena: &'a Arena, id: u32) -> &'a [u8] {
        let s = &self.slots[id as usize];
        arena.slice(s.bytes, s.bytes_len as usize)
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
