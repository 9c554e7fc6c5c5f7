//! Index settings as `GET {index}` and `GET {index}/_settings` print them.
//!
//! Flat (`flat_settings=true`), ES prints its sorted map of keys. Nested, ES 6.8 builds
//! the tree in `HashMap`s created with capacity 2 and prints them in their iteration
//! order, which follows Java's `String.hashCode`; so does this, to print the same bytes.

use super::{IndexSettings, SettingValue};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// What a node adds to the settings it was given when it creates an index.
pub struct Created<'a> {
    /// The index name.
    pub name: &'a str,
    /// Its `index.uuid`.
    pub uuid: &'a str,
    /// Creation time, epoch millis.
    pub created_ms: i64,
}

/// The `index.version.created` of ES 6.8.23.
const VERSION_CREATED: &str = "6082399";

impl IndexSettings {
    /// Every setting the index reports: the given ones, plus what creation adds.
    fn reported(&self, created: &Created<'_>) -> BTreeMap<String, SettingValue> {
        let mut all = self.given.clone();
        let mut default = |k: &str, v: String| {
            all.entry(k.to_string()).or_insert(SettingValue::One(v));
        };
        default("index.creation_date", created.created_ms.to_string());
        // One shard, no replicas: what one file is.
        default("index.number_of_shards", "1".into());
        default("index.number_of_replicas", "0".into());
        default("index.uuid", created.uuid.to_string());
        default("index.version.created", VERSION_CREATED.into());
        default("index.provided_name", created.name.to_string());
        all
    }

    /// The `settings` object of one index in `GET {index}` and `GET {index}/_settings`:
    /// only the settings whose flat key matches one of `patterns` (ES's simple wildcards,
    /// `*` anywhere), all of them when there are none.
    pub fn render(&self, created: &Created<'_>, flat: bool, patterns: &[&str]) -> Value {
        let mut all = self.reported(created);
        if !patterns.is_empty() {
            all.retain(|k, _| patterns.iter().any(|p| crate::mapping::simple_match(p, k)));
        }
        print_settings(&all, flat)
    }

    /// The `defaults` object of one index in `GET _settings?include_defaults`: the
    /// settings metagate applies to the index without their being given, at the values
    /// it applies, filtered by `patterns` as [`IndexSettings::render`] filters.
    pub fn render_defaults(&self, created: &Created<'_>, flat: bool, patterns: &[&str]) -> Value {
        let limits = &self.limits;
        let applied: [(&str, String); 13] = [
            // Searches see what the file holds as soon as it is opened: ES's default
            // interval, which nothing here lengthens.
            ("index.refresh_interval", "1s".into()),
            ("index.max_result_window", limits.max_result_window.to_string()),
            ("index.max_inner_result_window", limits.max_inner_result_window.to_string()),
            ("index.max_rescore_window", limits.max_rescore_window.to_string()),
            ("index.max_docvalue_fields_search", limits.max_docvalue_fields_search.to_string()),
            ("index.max_script_fields", limits.max_script_fields.to_string()),
            ("index.max_terms_count", limits.max_terms_count.to_string()),
            ("index.max_regex_length", limits.max_regex_length.to_string()),
            ("index.max_ngram_diff", limits.max_ngram_diff.to_string()),
            ("index.max_shingle_diff", limits.max_shingle_diff.to_string()),
            ("index.max_adjacency_matrix_filters", limits.max_adjacency_matrix_filters.to_string()),
            ("index.max_slices_per_scroll", limits.max_slices_per_scroll.to_string()),
            // ES 6.8's `-1`: no bound, only a warning past 1,000,000 characters.
            ("index.highlight.max_analyzed_offset", "-1".into()),
        ];
        let given = self.reported(created);
        let mut defaults: BTreeMap<String, SettingValue> = applied
            .into_iter()
            .filter(|(k, _)| !given.contains_key(*k))
            .map(|(k, v)| (k.to_string(), SettingValue::One(v)))
            .collect();
        if !patterns.is_empty() {
            defaults.retain(|k, _| patterns.iter().any(|p| crate::mapping::simple_match(p, k)));
        }
        print_settings(&defaults, flat)
    }
}

/// Settings as ES prints them: its sorted flat map, or the tree of its dotted keys.
fn print_settings(all: &BTreeMap<String, SettingValue>, flat: bool) -> Value {
    if flat {
        return Value::Object(all.iter().map(|(k, v)| (k.clone(), v.to_json())).collect());
    }
    let mut root = Node::default();
    for (k, v) in all {
        root.insert(k, v.to_json());
    }
    root.into_json()
}

/// One map of the settings tree, its keys in the order they were first put.
#[derive(Default)]
struct Node {
    keys: Vec<String>,
    values: Vec<Entry>,
}

enum Entry {
    Value(Value),
    Map(Node),
}

impl Node {
    fn get(&mut self, key: &str) -> Option<&mut Entry> {
        let i = self.keys.iter().position(|k| k == key)?;
        Some(&mut self.values[i])
    }

    fn put(&mut self, key: String, entry: Entry) {
        match self.keys.iter().position(|k| *k == key) {
            Some(i) => self.values[i] = entry,
            None => {
                self.keys.push(key);
                self.values.push(entry);
            }
        }
    }

    /// ES's `processSetting`: a dotted key becomes nested maps, except below a name that
    /// already holds a value, where the rest of the key stays dotted.
    fn insert(&mut self, key: &str, value: Value) {
        self.insert_prefixed("", key, value);
    }

    fn insert_prefixed(&mut self, prefix: &str, key: &str, value: Value) {
        let Some((head, rest)) = key.split_once('.') else {
            let name = format!("{prefix}{key}");
            if let Some(Entry::Map(inner)) = self.get(&name) {
                let moved: Vec<(String, Entry)> =
                    std::mem::take(&mut inner.keys).into_iter().zip(std::mem::take(&mut inner.values)).collect();
                for (k, e) in moved {
                    self.put(format!("{name}.{k}"), e);
                }
            }
            self.put(name, Entry::Value(value));
            return;
        };
        let name = format!("{prefix}{head}");
        match self.get(&name) {
            None => {
                let mut inner = Node::default();
                inner.insert_prefixed("", rest, value);
                self.put(name, Entry::Map(inner));
            }
            Some(Entry::Map(inner)) => inner.insert_prefixed("", rest, value),
            Some(Entry::Value(_)) => self.insert_prefixed(&format!("{name}."), rest, value),
        }
    }

    fn into_json(self) -> Value {
        let order = java_hash_map_order(&self.keys);
        let mut slots: Vec<Option<(String, Entry)>> = self.keys.into_iter().zip(self.values).map(Some).collect();
        let mut out = Map::new();
        for i in order {
            if let Some((k, e)) = slots[i].take() {
                let v = match e {
                    Entry::Value(v) => v,
                    Entry::Map(m) => m.into_json(),
                };
                out.insert(k, v);
            }
        }
        Value::Object(out)
    }
}

/// Java's `String.hashCode` (UTF-16 units, wrapping).
fn java_string_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, u| h.wrapping_mul(31).wrapping_add(i32::from(u)))
}

/// The order a `new HashMap<>(2)` iterates `keys` put in this order: by bucket of the
/// final table, then by insertion (resizes keep a bucket's order).
fn java_hash_map_order(keys: &[String]) -> Vec<usize> {
    // The table doubles whenever its size passes three quarters of its capacity.
    let mut capacity = 2usize;
    while keys.len() > capacity * 3 / 4 {
        capacity *= 2;
    }
    let bucket = |k: &str| {
        let h = java_string_hash(k) as u32;
        ((h ^ (h >> 16)) as usize) & (capacity - 1)
    };
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by_key(|&i| (bucket(&keys[i]), i));
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn java_string_hashes() {
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_string_hash("index"), 100_346_066);
        assert_eq!(java_string_hash("number_of_shards"), -1_900_823_993);
    }

    /// Orders printed by `new HashMap<>(2)` after putting these keys in this order, on
    /// OpenJDK 17 (`String.join(",", map.keySet())`).
    #[test]
    fn hash_map_orders_are_javas() {
        let check = |keys: &str, java: &str| {
            let keys: Vec<String> = keys.split(',').map(str::to_string).collect();
            let got: Vec<&str> = java_hash_map_order(&keys).into_iter().map(|i| keys[i].as_str()).collect();
            assert_eq!(got.join(","), java);
        };
        check(
            "creation_date,number_of_replicas,number_of_shards,provided_name,uuid,version",
            "creation_date,number_of_shards,number_of_replicas,uuid,version,provided_name",
        );
        check(
            "analysis,creation_date,max_result_window,number_of_replicas,number_of_shards,provided_name,refresh_interval,similarity,sort,uuid,version",
            "refresh_interval,number_of_shards,provided_name,similarity,max_result_window,creation_date,sort,analysis,number_of_replicas,uuid,version",
        );
    }

    #[test]
    fn a_fresh_index_prints_as_es_does() {
        let s = IndexSettings::default();
        let created = Created { name: "twitter", uuid: "n6gzFZTgS664GUfx0Xrpjw", created_ms: 1474389951325 };
        // The order of a real ES 6.8 node's answer for these six settings.
        assert_eq!(
            serde_json::to_string(&s.render(&created, false, &[])).unwrap(),
            serde_json::to_string(&json!({"index": {
                "creation_date": "1474389951325", "number_of_shards": "1", "number_of_replicas": "0",
                "uuid": "n6gzFZTgS664GUfx0Xrpjw", "version": {"created": "6082399"}, "provided_name": "twitter"}}))
            .unwrap()
        );
        let flat = s.render(&created, true, &[]);
        let keys: Vec<&String> = flat.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "index.creation_date",
                "index.number_of_replicas",
                "index.number_of_shards",
                "index.provided_name",
                "index.uuid",
                "index.version.created"
            ]
        );
    }
}
