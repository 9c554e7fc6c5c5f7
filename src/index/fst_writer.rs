//! Writes the term dictionaries' maps in the `fst` crate's format (version 3), byte for
//! byte what `fst::MapBuilder` writes for the same keys, so `fst::Map` reads them.
//!
//! Why not `fst::MapBuilder` itself: building the dictionaries is a large part of a load
//! (a keyword field of long unique values, such as descriptions, compiles a node for
//! every byte of every value), and most of that time goes to looking each node up in the
//! builder's registry of compiled nodes. A node whose child was compiled just before it,
//! as a new node, cannot be in the registry (no node compiled earlier points to an
//! address that did not exist yet), so this writer skips that lookup and only records the
//! node. The registry is the same (10,000 two-way sets, FNV-1a hashed, most recent
//! first), so the same nodes are shared and the bytes are the same; its cells hold a
//! node's single transition inline and its full hash, so a lookup compares hashes before
//! transitions and allocates nothing. Pending nodes are reused, not allocated per byte.
//!
//! The format: a 16-byte header (version, type), nodes in the order they are compiled
//! (each read backwards from its address, the position of its last byte), then the key
//! count, the root's address and a masked CRC-32C of everything before it.

use std::io::{self, Write};

/// The fst format version written.
const VERSION: u64 = 3;
/// The address of the final node without transitions or output (never written).
const EMPTY_ADDRESS: u64 = 0;
/// No address.
const NONE_ADDRESS: u64 = 1;
/// Nodes with more transitions than this carry a 256-byte index of their inputs.
const TRANS_INDEX_THRESHOLD: usize = 32;
/// The registry's sets and their ways.
const REGISTRY_SETS: usize = 10_000;
/// Bytes gathered before they are written out.
const FLUSH_AT: usize = 1 << 16;

/// The 63 most common input bytes, most common first: an input among them is stored
/// in its node's state byte (as its place here plus one) instead of a byte of its own.
const COMMON_INPUTS: &[u8; 63] = b"te/oasripcnw.hlm-du012g=:bf3y5&_4v9678k%?xCDASFIBEjPTzRNM+LOqHG";

/// Each byte's state-byte code: its place among the common inputs plus one, or 0.
const COMMON_CODES: [u8; 256] = {
    let mut codes = [0u8; 256];
    let mut i = 0;
    while i < COMMON_INPUTS.len() {
        codes[COMMON_INPUTS[i] as usize] = i as u8 + 1;
        i += 1;
    }
    codes
};

/// Bytes needed to write `n` little-endian (at least one).
fn pack_size(n: u64) -> u8 {
    (8 - n.leading_zeros() as u8 / 8).max(1)
}

/// A transition of a node: its input byte, the output it adds, the node it leads to.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Trans {
    inp: u8,
    out: u64,
    addr: u64,
}

/// A node not yet compiled: its transitions so far, and the transition to the node
/// below it on the current key, whose address is not known yet.
#[derive(Default)]
struct Pending {
    is_final: bool,
    final_output: u64,
    trans: Vec<Trans>,
    /// The open transition's input and output, when there is one.
    last: Option<(u8, u64)>,
}

impl Pending {
    fn reset(&mut self, is_final: bool, last: Option<(u8, u64)>) {
        self.is_final = is_final;
        self.final_output = 0;
        self.trans.clear();
        self.last = last;
    }

    /// Closes the open transition onto the node compiled at `addr`.
    fn close_last(&mut self, addr: u64) {
        if let Some((inp, out)) = self.last.take() {
            self.trans.push(Trans { inp, out, addr });
        }
    }

    /// Moves `prefix` of output down into this node's outputs.
    fn add_output_prefix(&mut self, prefix: u64) {
        if self.is_final {
            self.final_output += prefix;
        }
        for t in &mut self.trans {
            t.out += prefix;
        }
        if let Some((_, out)) = &mut self.last {
            *out += prefix;
        }
    }

    /// The registry's FNV-1a hash of the node.
    fn hash(&self) -> u64 {
        const PRIME: u64 = 1_099_511_628_211;
        let mut h: u64 = 14_695_981_039_346_656_037;
        h = (h ^ self.is_final as u64).wrapping_mul(PRIME);
        h = (h ^ self.final_output).wrapping_mul(PRIME);
        for t in &self.trans {
            h = (h ^ t.inp as u64).wrapping_mul(PRIME);
            h = (h ^ t.out).wrapping_mul(PRIME);
            h = (h ^ t.addr).wrapping_mul(PRIME);
        }
        h
    }
}

/// A compiled node remembered by the registry.
#[derive(Clone, Default)]
struct Cell {
    /// Where it was written; `NONE_ADDRESS` for an empty cell.
    addr: u64,
    hash: u64,
    is_final: bool,
    final_output: u64,
    /// Its transition when it has exactly one (no allocation for the common case).
    one: Option<Trans>,
    /// Its transitions otherwise.
    many: Vec<Trans>,
}

impl Cell {
    fn holds(&self, node: &Pending, hash: u64) -> bool {
        self.addr != NONE_ADDRESS
            && self.hash == hash
            && self.is_final == node.is_final
            && self.final_output == node.final_output
            && match self.one {
                Some(t) => node.trans.len() == 1 && node.trans[0] == t,
                None => self.many == node.trans,
            }
    }

    fn set(&mut self, node: &Pending, hash: u64, addr: u64) {
        self.addr = addr;
        self.hash = hash;
        self.is_final = node.is_final;
        self.final_output = node.final_output;
        self.many.clear();
        if let [t] = node.trans[..] {
            self.one = Some(t);
        } else {
            self.one = None;
            self.many.extend_from_slice(&node.trans);
        }
    }
}

/// Compiled nodes by hash, so an equal node is written once: two cells a set, the more
/// recently used first.
struct Registry {
    cells: Vec<Cell>,
}

impl Registry {
    fn new() -> Registry {
        Registry { cells: vec![Cell { addr: NONE_ADDRESS, ..Cell::default() }; REGISTRY_SETS * 2] }
    }

    fn set_of(hash: u64) -> usize {
        (hash % REGISTRY_SETS as u64) as usize * 2
    }

    /// The address of a compiled node equal to `node`, made the more recent of its set.
    fn find(&mut self, node: &Pending, hash: u64) -> Option<u64> {
        let at = Registry::set_of(hash);
        if self.cells[at].holds(node, hash) {
            return Some(self.cells[at].addr);
        }
        if self.cells[at + 1].holds(node, hash) {
            self.cells.swap(at, at + 1);
            return Some(self.cells[at].addr);
        }
        None
    }

    /// Records `node`, compiled at `addr`, as the most recent of its set; the less
    /// recent cell is forgotten.
    fn insert(&mut self, node: &Pending, hash: u64, addr: u64) {
        let at = Registry::set_of(hash);
        self.cells.swap(at, at + 1);
        self.cells[at].set(node, hash, addr);
    }
}

/// The bytes written so far: a buffer in front of the writer, their count and checksum.
struct Sink<W> {
    out: W,
    buf: Vec<u8>,
    flushed: u64,
    crc: u32,
}

impl<W: Write> Sink<W> {
    /// Bytes written, counting the buffer: the next byte's address.
    fn count(&self) -> u64 {
        self.flushed + self.buf.len() as u64
    }

    fn flush_if_full(&mut self) -> io::Result<()> {
        if self.buf.len() >= FLUSH_AT {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.crc = crc32c::crc32c_append(self.crc, &self.buf);
        self.out.write_all(&self.buf)?;
        self.flushed += self.buf.len() as u64;
        self.buf.clear();
        Ok(())
    }

    /// `n` in `size` little-endian bytes.
    fn pack(&mut self, n: u64, size: u8) {
        self.buf.extend_from_slice(&n.to_le_bytes()[..size as usize]);
    }
}

/// The distance back from a node at `node` to the node at `target` (the empty final
/// node is 0 wherever it is).
fn delta(node: u64, target: u64) -> u64 {
    if target == EMPTY_ADDRESS {
        EMPTY_ADDRESS
    } else {
        node - target
    }
}

/// Writes a map from byte strings, added in strictly increasing order, to `u64`s.
pub struct FstWriter<W: Write> {
    sink: Sink<W>,
    /// Pending nodes from the root down the last key; entries past `depth` are spare.
    stack: Vec<Pending>,
    depth: usize,
    registry: Registry,
    /// The address of the node compiled last.
    last_addr: u64,
    last_key: Option<Vec<u8>>,
    len: u64,
}

impl<W: Write> FstWriter<W> {
    /// A writer into `out`.
    pub fn new(out: W) -> FstWriter<W> {
        let mut buf = Vec::with_capacity(FLUSH_AT + 1024);
        buf.extend_from_slice(&VERSION.to_le_bytes());
        buf.extend_from_slice(&0u64.to_le_bytes());
        FstWriter {
            sink: Sink { out, buf, flushed: 0, crc: 0 },
            stack: vec![Pending::default()],
            depth: 1,
            registry: Registry::new(),
            last_addr: NONE_ADDRESS,
            last_key: None,
            len: 0,
        }
    }

    /// Adds `key` with `value`; `key` must follow every key added before.
    pub fn insert(&mut self, key: &[u8], value: u64) -> io::Result<()> {
        match &mut self.last_key {
            Some(last) if key <= last.as_slice() => {
                let what = if key == last.as_slice() { "repeated" } else { "out of order" };
                return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("fst key {what}")));
            }
            Some(last) => {
                last.clear();
                last.extend_from_slice(key);
            }
            None => self.last_key = Some(key.to_vec()),
        }
        if key.is_empty() {
            // Only ever the first key: the root holds its value.
            self.len = 1;
            self.stack[0].is_final = true;
            self.stack[0].final_output = value;
            return Ok(());
        }
        let (prefix, value) = self.share_prefix(key, value);
        self.len += 1;
        self.compile_from(prefix)?;
        self.push_suffix(&key[prefix..], value);
        Ok(())
    }

    /// Ends the map: compiles what is pending and writes the footer; returns the writer.
    pub fn finish(mut self) -> io::Result<W> {
        let fresh = self.compile_from(0)?;
        let root_addr = self.compile(0, fresh)?.0;
        let mut footer = [0u8; 16];
        footer[..8].copy_from_slice(&self.len.to_le_bytes());
        footer[8..].copy_from_slice(&root_addr.to_le_bytes());
        self.sink.buf.extend_from_slice(&footer);
        self.sink.flush()?;
        let crc = self.sink.crc;
        let masked = crc.rotate_right(15).wrapping_add(0xA282_EAD8);
        let mut out = self.sink.out;
        out.write_all(&masked.to_le_bytes())?;
        out.flush()?;
        Ok(out)
    }

    /// The length of the prefix `key` shares with the pending path, moving outputs so
    /// that the shared transitions carry what the keys have in common; returns it with
    /// what is left of `value` for the rest of the key.
    fn share_prefix(&mut self, key: &[u8], mut value: u64) -> (usize, u64) {
        let mut i = 0;
        while i < key.len() && i < self.depth {
            let moved = match &mut self.stack[i].last {
                Some((inp, out)) if *inp == key[i] => {
                    let common = (*out).min(value);
                    let moved = *out - common;
                    value -= common;
                    *out = common;
                    moved
                }
                _ => break,
            };
            i += 1;
            if moved != 0 {
                self.stack[i].add_output_prefix(moved);
            }
        }
        (i, value)
    }

    /// Pushes the nodes of `suffix` below the node at the top, the last one final.
    fn push_suffix(&mut self, suffix: &[u8], value: u64) {
        let top = self.depth - 1;
        self.stack[top].last = Some((suffix[0], value));
        for &b in &suffix[1..] {
            self.push(false, Some((b, 0)));
        }
        self.push(true, None);
    }

    fn push(&mut self, is_final: bool, last: Option<(u8, u64)>) {
        if self.depth == self.stack.len() {
            self.stack.push(Pending::default());
        }
        self.stack[self.depth].reset(is_final, last);
        self.depth += 1;
    }

    /// Compiles the pending nodes below depth `keep`; returns whether the last node
    /// compiled was new.
    fn compile_from(&mut self, keep: usize) -> io::Result<bool> {
        let mut addr = NONE_ADDRESS;
        let mut fresh = false;
        while keep + 1 < self.depth {
            self.depth -= 1;
            let at = self.depth;
            if addr != NONE_ADDRESS {
                self.stack[at].close_last(addr);
            }
            (addr, fresh) = self.compile(at, fresh)?;
        }
        self.stack[self.depth - 1].close_last(addr);
        Ok(fresh)
    }

    /// Compiles the node at stack place `at`, unless an equal one was; returns its
    /// address and whether it was written now. `child_fresh` says its last transition
    /// leads to a node written just before it.
    fn compile(&mut self, at: usize, child_fresh: bool) -> io::Result<(u64, bool)> {
        let node = &self.stack[at];
        if node.is_final && node.trans.is_empty() && node.final_output == 0 {
            return Ok((EMPTY_ADDRESS, false));
        }
        let hash = node.hash();
        if !child_fresh {
            if let Some(addr) = self.registry.find(node, hash) {
                return Ok((addr, false));
            }
        }
        let start = self.sink.count();
        write_node(&mut self.sink, node, start, self.last_addr);
        self.last_addr = self.sink.count() - 1;
        self.registry.insert(node, hash, self.last_addr);
        self.sink.flush_if_full()?;
        Ok((self.last_addr, true))
    }
}

/// Appends `node`, starting at address `start`, in the smallest of the format's shapes.
fn write_node<W: Write>(sink: &mut Sink<W>, node: &Pending, start: u64, last_addr: u64) {
    match node.trans[..] {
        [t] if !node.is_final => {
            let code = COMMON_CODES[t.inp as usize];
            if t.addr == last_addr && t.out == 0 {
                // One transition to the node just before, without output.
                if code == 0 {
                    sink.buf.push(t.inp);
                }
                sink.buf.push(0b11_000000 | code);
            } else {
                let osize = if t.out == 0 { 0 } else { pack_size(t.out) };
                if osize > 0 {
                    sink.pack(t.out, osize);
                }
                let d = delta(start, t.addr);
                let tsize = pack_size(d);
                sink.pack(d, tsize);
                sink.buf.push((tsize << 4) | osize);
                if code == 0 {
                    sink.buf.push(t.inp);
                }
                sink.buf.push(0b10_000000 | code);
            }
        }
        _ => write_any_trans(sink, node, start),
    }
}

/// Appends a node of any number of transitions (or a final one).
fn write_any_trans<W: Write>(sink: &mut Sink<W>, node: &Pending, start: u64) {
    let mut tsize = 0;
    let mut osize = pack_size(node.final_output);
    let mut any_outs = node.final_output != 0;
    for t in &node.trans {
        tsize = tsize.max(pack_size(delta(start, t.addr)));
        osize = osize.max(pack_size(t.out));
        any_outs |= t.out != 0;
    }
    let osize = if any_outs { osize } else { 0 };
    if any_outs {
        if node.is_final {
            sink.pack(node.final_output, osize);
        }
        for t in node.trans.iter().rev() {
            sink.pack(t.out, osize);
        }
    }
    for t in node.trans.iter().rev() {
        sink.pack(delta(start, t.addr), tsize);
    }
    for t in node.trans.iter().rev() {
        sink.buf.push(t.inp);
    }
    let n = node.trans.len();
    if n > TRANS_INDEX_THRESHOLD {
        // Each input's transition number; 255 (or any number past the last) for none.
        let mut index = [255u8; 256];
        for (i, t) in node.trans.iter().enumerate() {
            index[t.inp as usize] = i as u8;
        }
        sink.buf.extend_from_slice(&index);
    }
    sink.buf.push((tsize << 4) | osize);
    let mut state = if node.is_final { 0b01_000000 } else { 0 };
    if (1..=0b11_1111).contains(&n) {
        state |= n as u8;
    } else {
        // 256 transitions are written as 1, a count no node of this shape has.
        sink.buf.push(if n == 256 { 1 } else { n as u8 });
    }
    sink.buf.push(state);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ours(keys: &[(Vec<u8>, u64)]) -> Vec<u8> {
        let mut w = FstWriter::new(Vec::new());
        for (k, v) in keys {
            w.insert(k, *v).unwrap();
        }
        w.finish().unwrap()
    }

    fn theirs(keys: &[(Vec<u8>, u64)]) -> Vec<u8> {
        let mut b = fst::MapBuilder::memory();
        for (k, v) in keys {
            b.insert(k, *v).unwrap();
        }
        b.into_inner().unwrap()
    }

    fn sorted(mut keys: Vec<Vec<u8>>, values: impl Fn(usize) -> u64) -> Vec<(Vec<u8>, u64)> {
        keys.sort();
        keys.dedup();
        keys.into_iter().enumerate().map(|(i, k)| (k, values(i))).collect()
    }

    #[test]
    fn pack_sizes() {
        for (n, size) in [(0u64, 1u8), (255, 1), (256, 2), (65_535, 2), (65_536, 3), (1 << 56, 8), (u64::MAX, 8)] {
            assert_eq!(pack_size(n), size, "{n}");
        }
    }

    #[test]
    fn empty_and_tiny_maps_are_the_fst_crates_bytes() {
        let cases: Vec<Vec<(Vec<u8>, u64)>> = vec![
            vec![],
            vec![(b"".to_vec(), 0)],
            vec![(b"".to_vec(), 7)],
            vec![(b"".to_vec(), 7), (b"a".to_vec(), 3)],
            vec![(b"a".to_vec(), 0)],
            vec![(b"a".to_vec(), 0), (b"ab".to_vec(), 0), (b"abc".to_vec(), 9)],
            vec![(b"mon".to_vec(), 5), (b"tues".to_vec(), 3), (b"wed".to_vec(), 2)],
        ];
        for keys in cases {
            assert_eq!(ours(&keys), theirs(&keys), "{keys:?}");
        }
    }

    #[test]
    fn wide_nodes_and_large_outputs_are_the_fst_crates_bytes() {
        // Nodes of 33 (an input index), 64, 255 and 256 transitions; outputs that fall.
        for width in [2usize, 33, 63, 64, 255, 256] {
            let keys = (0..width).flat_map(|b| [vec![b as u8], vec![b as u8, b'x', b as u8]]).collect();
            let keys = sorted(keys, |i| (1u64 << 40).wrapping_mul(i as u64 % 5) + 17 * i as u64);
            assert_eq!(ours(&keys), theirs(&keys), "width {width}");
        }
    }

    #[test]
    fn many_shared_suffixes_are_the_fst_crates_bytes() {
        // Enough keys to evict registry cells and to flush the buffer many times over.
        let keys = (0..60_000u64)
            .map(|i| format!("{:x}-{}-tail{}", i.wrapping_mul(2_654_435_761) % 100_003, i % 13, i % 7).into_bytes())
            .collect();
        let keys = sorted(keys, |i| i as u64 * 24);
        let bytes = ours(&keys);
        assert_eq!(bytes, theirs(&keys));
        let map = fst::Map::new(bytes).unwrap();
        assert_eq!(map.len(), keys.len());
        for (k, v) in keys.iter().step_by(97) {
            assert_eq!(map.get(k), Some(*v));
        }
    }

    #[test]
    fn keys_out_of_order_or_repeated_are_errors() {
        let mut w = FstWriter::new(Vec::new());
        w.insert(b"b", 1).unwrap();
        assert_eq!(w.insert(b"a", 2).unwrap_err().kind(), io::ErrorKind::InvalidInput);
        assert_eq!(w.insert(b"b", 2).unwrap_err().kind(), io::ErrorKind::InvalidInput);
        w.insert(b"c", 2).unwrap();
        let map = fst::Map::new(w.finish().unwrap()).unwrap();
        assert_eq!(map.get(b"c"), Some(2));
        assert_eq!(map.len(), 2);
    }

    proptest! {
        #[test]
        fn any_sorted_keys_are_the_fst_crates_bytes(
            keys in proptest::collection::vec(proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b'), Just(b'z'), any::<u8>()], 0..12), 0..300),
            step in prop_oneof![Just(0u64), 1u64..4, 1u64..100_000],
            shuffle in any::<u64>(),
        ) {
            // Values that rise with the keys (posting addresses), or that jump about.
            let keys = sorted(keys, |i| if shuffle % 2 == 0 { i as u64 * step } else { (i as u64 ^ shuffle) % 1_000_003 });
            prop_assert_eq!(ours(&keys), theirs(&keys));
        }
    }
}
