//! A paged byte arena and the growing byte lists a segment keeps its postings in.
//!
//! Every term's posting is a chain of blocks inside the arena (the first small, later
//! ones larger, each ending with the address of the next), so a segment holds millions
//! of postings in a few large pages instead of one heap vector each, and its memory is
//! simply the number of pages.

/// Bits of an address that select the byte within a page.
const PAGE_BITS: u32 = 20;
/// Bytes per page.
const PAGE: usize = 1 << PAGE_BITS;
/// Smallest and largest block of a byte list.
const MIN_BLOCK: u32 = 16;
const MAX_BLOCK: u32 = 1 << 15;
/// Bytes of the next-block address ending each block.
const LINK: usize = 4;

/// Pages of bytes addressed by `u32` (page number, offset); nothing is freed until the
/// arena is cleared.
#[derive(Default)]
pub struct Arena {
    pages: Vec<Box<[u8]>>,
    used: usize,
}

impl Arena {
    /// Bytes the arena holds (whole pages).
    pub fn memory(&self) -> usize {
        self.pages.len() * PAGE
    }

    /// Drops every page, ready for the next segment.
    pub fn clear(&mut self) {
        self.pages.clear();
        self.used = 0;
    }

    /// Reserves `len` contiguous bytes (at most a page) and returns their address.
    pub fn alloc(&mut self, len: usize) -> u32 {
        debug_assert!(len <= PAGE);
        if self.pages.is_empty() || self.used + len > PAGE {
            self.pages.push(vec![0u8; PAGE].into_boxed_slice());
            self.used = 0;
        }
        let addr = (((self.pages.len() - 1) as u32) << PAGE_BITS) | self.used as u32;
        self.used += len;
        addr
    }

    /// The `len` bytes at `addr`.
    pub fn slice(&self, addr: u32, len: usize) -> &[u8] {
        let (p, o) = split(addr);
        &self.pages[p][o..o + len]
    }

    fn slice_mut(&mut self, addr: u32, len: usize) -> &mut [u8] {
        let (p, o) = split(addr);
        &mut self.pages[p][o..o + len]
    }

    /// Copies `bytes` into the arena and returns their address.
    pub fn store(&mut self, bytes: &[u8]) -> u32 {
        let addr = self.alloc(bytes.len());
        self.slice_mut(addr, bytes.len()).copy_from_slice(bytes);
        addr
    }
}

fn split(addr: u32) -> (usize, usize) {
    ((addr >> PAGE_BITS) as usize, (addr as usize) & (PAGE - 1))
}

/// Block size for a list that already holds `written` bytes: lists grow by doubling up
/// to [`MAX_BLOCK`], so short postings waste little and long ones take few links.
fn block_size(written: u32) -> u32 {
    written.clamp(MIN_BLOCK, MAX_BLOCK)
}

/// A byte list in an [`Arena`]: where it starts, where the next byte goes and how many it
/// holds. Plain data, kept by value in the term table.
#[derive(Clone, Copy)]
pub struct ByteList {
    head: u32,
    tail: u32,
    block_end: u32,
    len: u32,
}

impl Default for ByteList {
    fn default() -> ByteList {
        ByteList { head: u32::MAX, tail: 0, block_end: 0, len: 0 }
    }
}

impl ByteList {
    /// Appends one byte.
    pub fn push(&mut self, arena: &mut Arena, b: u8) {
        if self.head == u32::MAX || self.tail == self.block_end {
            let size = block_size(self.len);
            let addr = arena.alloc(size as usize + LINK);
            if self.head == u32::MAX {
                self.head = addr;
            } else {
                arena.slice_mut(self.block_end, LINK).copy_from_slice(&addr.to_le_bytes());
            }
            self.tail = addr;
            self.block_end = addr + size;
        }
        arena.slice_mut(self.tail, 1)[0] = b;
        self.tail += 1;
        self.len += 1;
    }

    /// Appends a LEB128 varint.
    pub fn push_varint(&mut self, arena: &mut Arena, mut v: u32) {
        while v >= 0x80 {
            self.push(arena, (v as u8) | 0x80);
            v >>= 7;
        }
        self.push(arena, v as u8);
    }

    /// Appends the whole list to `out`.
    pub fn copy_to(&self, arena: &Arena, out: &mut Vec<u8>) {
        let mut addr = self.head;
        let mut left = self.len;
        let mut written = 0u32;
        while left > 0 {
            let size = block_size(written);
            let take = size.min(left);
            out.extend_from_slice(arena.slice(addr, take as usize));
            left -= take;
            written += take;
            if left > 0 {
                let link = arena.slice(addr + size, LINK);
                addr = u32::from_le_bytes([link[0], link[1], link[2], link[3]]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleaved_lists_read_back_their_own_bytes() {
        let mut arena = Arena::default();
        let mut lists = [ByteList::default(); 7];
        let mut expect: Vec<Vec<u8>> = vec![Vec::new(); 7];
        for i in 0..200_000u32 {
            let k = (i.wrapping_mul(2_654_435_761) >> 7) as usize % 7;
            let b = (i % 251) as u8;
            lists[k].push(&mut arena, b);
            expect[k].push(b);
        }
        for (l, e) in lists.iter().zip(&expect) {
            let mut out = Vec::new();
            l.copy_to(&arena, &mut out);
            assert_eq!(&out, e);
        }
    }
}
