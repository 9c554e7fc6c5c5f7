//! A map bounded by an approximate byte budget and an entry count, evicting the least
//! recently used entries: the in-process caches (scroll matches, filter sets) keep their
//! values in one.

use std::collections::HashMap;
use std::hash::Hash;

struct Slot<V> {
    value: V,
    bytes: usize,
    last_used: u64,
}

/// Values with their approximate sizes, at most `budget` bytes and `max_entries` of them.
pub(crate) struct Lru<K, V> {
    slots: HashMap<K, Slot<V>>,
    bytes: usize,
    tick: u64,
    budget: usize,
    max_entries: usize,
}

impl<K: Hash + Eq + Clone, V> Lru<K, V> {
    /// An empty map within `budget` bytes and `max_entries` entries.
    pub fn new(budget: usize, max_entries: usize) -> Lru<K, V> {
        Lru { slots: HashMap::new(), bytes: 0, tick: 0, budget, max_entries }
    }

    /// The value of `key`, marked as just used.
    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        self.tick += 1;
        let slot = self.slots.get_mut(key)?;
        slot.last_used = self.tick;
        Some(&mut slot.value)
    }

    /// Keeps `value` (about `bytes` large) under `key`, evicting the least recently used
    /// entries beyond the bounds. A value over a quarter of the budget is not kept: one
    /// huge entry must not flush everyone else's.
    pub fn insert(&mut self, key: K, value: V, bytes: usize) {
        self.insert_evicting(key, value, bytes);
    }

    /// [`Lru::insert`], returning whether the value was kept and the values evicted to
    /// make room for it (a value replaced under the same key is not among them).
    pub fn insert_evicting(&mut self, key: K, value: V, bytes: usize) -> (bool, Vec<V>) {
        self.remove(&key);
        let mut evicted = Vec::new();
        if bytes > self.budget / 4 {
            return (false, evicted);
        }
        while !self.slots.is_empty() && (self.bytes + bytes > self.budget || self.slots.len() >= self.max_entries) {
            let Some(oldest) = self.slots.iter().min_by_key(|(_, s)| s.last_used).map(|(k, _)| k.clone()) else {
                break;
            };
            if let Some(s) = self.slots.remove(&oldest) {
                self.bytes -= s.bytes;
                evicted.push(s.value);
            }
        }
        self.tick += 1;
        self.bytes += bytes;
        self.slots.insert(key, Slot { value, bytes, last_used: self.tick });
        (true, evicted)
    }

    /// Drops `key`.
    pub fn remove(&mut self, key: &K) {
        if let Some(s) = self.slots.remove(key) {
            self.bytes -= s.bytes;
        }
    }

    /// Keeps only the entries `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &V) -> bool) {
        let gone: Vec<K> = self.slots.iter().filter(|(k, s)| !keep(k, &s.value)).map(|(k, _)| k.clone()).collect();
        for k in gone {
            self.remove(&k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evicts_the_least_recently_used_within_budget() {
        let mut m: Lru<u32, &str> = Lru::new(100, 3);
        m.insert(1, "a", 20);
        m.insert(2, "b", 20);
        m.insert(3, "c", 20);
        assert!(m.get_mut(&1).is_some());
        m.insert(4, "d", 20); // the entry cap: 2 is the oldest
        assert!(m.get_mut(&2).is_none());
        m.insert(5, "e", 30); // over a quarter of the budget: not kept
        assert!(m.get_mut(&5).is_none());
        m.remove(&1);
        m.insert(6, "f", 25);
        m.insert(7, "g", 25); // over 100 bytes: the oldest (3) goes
        assert!(m.get_mut(&3).is_none());
        assert!(m.get_mut(&4).is_some() && m.get_mut(&6).is_some() && m.get_mut(&7).is_some());
        m.retain(|k, _| *k != 4);
        assert!(m.get_mut(&4).is_none());
        // 6 is the oldest now: the third entry fits, the fourth evicts 6 and only it.
        assert!(m.get_mut(&7).is_some());
        assert_eq!(m.insert_evicting(8, "h", 20), (true, vec![]));
        assert_eq!(m.insert_evicting(10, "j", 20), (true, vec!["f"]));
        assert_eq!(m.insert_evicting(9, "i", 26), (false, vec![]));
    }
}
