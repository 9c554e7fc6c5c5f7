//! The index settings Elasticsearch 6.8 (default distribution) knows, and how it parses
//! the values of the ones whose value it checks at index creation.

/// How a setting's value is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `Integer.parseInt` within bounds.
    Int { min: i64, max: i64 },
    /// Strictly `true` or `false`.
    Bool,
    /// A time value (`30s`, `1m`, `-1`).
    Time,
    /// Kept as given.
    Any,
}

const INT_MAX: i64 = i32::MAX as i64;

const fn int(min: i64) -> Kind {
    Kind::Int { min, max: INT_MAX }
}

/// Settings with a fixed key, as ES registers them (its `keySettings`, the candidates of
/// "did you mean").
const SIMPLE: &[(&str, Kind)] = &[
    ("index.number_of_shards", Kind::Int { min: 1, max: 1024 }),
    ("index.number_of_replicas", int(0)),
    ("index.auto_expand_replicas", Kind::Any),
    ("index.number_of_routing_shards", int(1)),
    ("index.routing_partition_size", int(1)),
    ("index.blocks.read_only", Kind::Bool),
    ("index.blocks.read", Kind::Bool),
    ("index.blocks.write", Kind::Bool),
    ("index.blocks.metadata", Kind::Bool),
    ("index.blocks.read_only_allow_delete", Kind::Bool),
    ("index.priority", int(0)),
    ("index.data_path", Kind::Any),
    ("index.format", int(0)),
    ("index.routing.allocation.total_shards_per_node", int(-1)),
    ("index.routing.allocation.enable", Kind::Any),
    ("index.routing.rebalance.enable", Kind::Any),
    ("index.allocation.max_retries", int(0)),
    ("index.search.slowlog.threshold.query.warn", Kind::Time),
    ("index.search.slowlog.threshold.query.info", Kind::Time),
    ("index.search.slowlog.threshold.query.debug", Kind::Time),
    ("index.search.slowlog.threshold.query.trace", Kind::Time),
    ("index.search.slowlog.threshold.fetch.warn", Kind::Time),
    ("index.search.slowlog.threshold.fetch.info", Kind::Time),
    ("index.search.slowlog.threshold.fetch.debug", Kind::Time),
    ("index.search.slowlog.threshold.fetch.trace", Kind::Time),
    ("index.search.slowlog.level", Kind::Any),
    ("index.indexing.slowlog.threshold.index.warn", Kind::Time),
    ("index.indexing.slowlog.threshold.index.info", Kind::Time),
    ("index.indexing.slowlog.threshold.index.debug", Kind::Time),
    ("index.indexing.slowlog.threshold.index.trace", Kind::Time),
    ("index.indexing.slowlog.level", Kind::Any),
    ("index.indexing.slowlog.reformat", Kind::Bool),
    ("index.indexing.slowlog.source", Kind::Any),
    ("index.compound_format", Kind::Any),
    ("index.merge.policy.expunge_deletes_allowed", Kind::Any),
    ("index.merge.policy.floor_segment", Kind::Any),
    ("index.merge.policy.max_merge_at_once", int(2)),
    ("index.merge.policy.max_merge_at_once_explicit", int(2)),
    ("index.merge.policy.max_merged_segment", Kind::Any),
    ("index.merge.policy.segments_per_tier", Kind::Any),
    ("index.merge.policy.reclaim_deletes_weight", Kind::Any),
    ("index.merge.scheduler.auto_throttle", Kind::Bool),
    ("index.merge.scheduler.max_merge_count", Kind::Any),
    ("index.merge.scheduler.max_thread_count", Kind::Any),
    ("index.sort.field", Kind::Any),
    ("index.sort.order", Kind::Any),
    ("index.sort.missing", Kind::Any),
    ("index.sort.mode", Kind::Any),
    ("index.translog.durability", Kind::Any),
    ("index.translog.sync_interval", Kind::Time),
    ("index.translog.flush_threshold_size", Kind::Any),
    ("index.translog.generation_threshold_size", Kind::Any),
    ("index.translog.retention.age", Kind::Time),
    ("index.translog.retention.size", Kind::Any),
    ("index.warmer.enabled", Kind::Bool),
    ("index.refresh_interval", Kind::Time),
    ("index.max_result_window", int(1)),
    ("index.max_inner_result_window", int(1)),
    ("index.max_docvalue_fields_search", int(0)),
    ("index.max_script_fields", int(0)),
    ("index.max_ngram_diff", int(0)),
    ("index.max_shingle_diff", int(0)),
    ("index.max_rescore_window", int(1)),
    ("index.max_adjacency_matrix_filters", int(2)),
    ("index.highlight.max_analyzed_offset", int(-1)),
    ("index.max_terms_count", int(1)),
    ("index.max_regex_length", int(1)),
    ("index.query.default_field", Kind::Any),
    ("index.query_string.lenient", Kind::Bool),
    ("index.query.parse.allow_unmapped_fields", Kind::Bool),
    ("index.shard.check_on_startup", Kind::Any),
    ("index.max_refresh_listeners", int(0)),
    ("index.max_slices_per_scroll", int(1)),
    ("index.gc_deletes", Kind::Time),
    ("index.requests.cache.enable", Kind::Bool),
    ("index.unassigned.node_left.delayed_timeout", Kind::Time),
    ("index.fielddata.cache", Kind::Any),
    ("index.mapping.ignore_malformed", Kind::Bool),
    ("index.mapping.coerce", Kind::Bool),
    ("index.store.stats_refresh_interval", Kind::Time),
    ("index.mapper.dynamic", Kind::Bool),
    ("index.mapping.nested_fields.limit", int(0)),
    ("index.mapping.nested_objects.limit", int(0)),
    ("index.mapping.total_fields.limit", int(0)),
    ("index.mapping.depth.limit", int(1)),
    ("index.load_fixed_bitset_filters_eagerly", Kind::Bool),
    ("index.store.type", Kind::Any),
    ("index.store.preload", Kind::Any),
    ("index.queries.cache.enabled", Kind::Bool),
    ("index.queries.cache.everything", Kind::Bool),
    ("index.store.fs.fs_lock", Kind::Any),
    ("index.codec", Kind::Any),
    ("index.optimize_auto_generated_id", Kind::Bool),
    ("index.write.wait_for_active_shards", Kind::Any),
    ("index.ttl.disable_purge", Kind::Bool),
    ("index.soft_deletes.enabled", Kind::Bool),
    ("index.soft_deletes.retention.operations", Kind::Any),
    ("index.soft_deletes.retention_lease.period", Kind::Time),
    ("index.flush_after_merge", Kind::Any),
    ("index.default_pipeline", Kind::Any),
    // The default distribution's X-Pack settings.
    ("index.lifecycle.name", Kind::Any),
    ("index.lifecycle.rollover_alias", Kind::Any),
    ("index.lifecycle.indexing_complete", Kind::Bool),
    ("index.frozen", Kind::Bool),
    ("index.search.throttled", Kind::Bool),
    ("index.xpack.version", Kind::Any),
    ("index.xpack.watcher.template.version", Kind::Any),
    ("index.xpack.ccr.following_index", Kind::Bool),
    // Private settings ES sets itself; a body taken from `GET {index}` carries them.
    ("index.creation_date", Kind::Any),
    ("index.uuid", Kind::Any),
    ("index.version.created", Kind::Any),
    ("index.version.upgraded", Kind::Any),
    ("index.provided_name", Kind::Any),
];

/// Groups of settings: any key below these prefixes is taken.
const GROUPS: &[&str] = &[
    "index.analysis.",
    "index.similarity.",
    "index.routing.allocation.require.",
    "index.routing.allocation.include.",
    "index.routing.allocation.exclude.",
    "index.routing.allocation.initial_recovery.",
];

/// How the value of `key` is checked, or `None` for a setting ES 6.8 does not know.
pub fn lookup(key: &str) -> Option<Kind> {
    if let Some((_, kind)) = SIMPLE.iter().find(|(k, _)| *k == key) {
        return Some(*kind);
    }
    GROUPS.iter().any(|g| key.starts_with(g)).then_some(Kind::Any)
}

/// ES 6.8's message for an unknown setting: the known keys that look like it
/// (Lucene's `LevensteinDistance` above 0.7, closest first), or where to look instead.
pub fn unknown_setting_message(key: &str) -> String {
    let mut scored: Vec<(f32, &str)> =
        SIMPLE.iter().map(|(k, _)| (levenshtein_similarity(key, k), *k)).filter(|(d, _)| *d > 0.7).collect();
    // Closest first; ES breaks ties in its settings map's order, this by name.
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    let mut msg = format!("unknown setting [{key}]");
    match scored.as_slice() {
        [] => msg.push_str(
            " please check that any required plugins are installed, or check the breaking changes documentation for removed settings",
        ),
        [(_, one)] => msg.push_str(&format!(" did you mean [{one}]?")),
        many => {
            let names: Vec<&str> = many.iter().map(|(_, k)| *k).collect();
            msg.push_str(&format!(" did you mean any of [{}]?", names.join(", ")));
        }
    }
    msg
}

/// Lucene's `LevensteinDistance.getDistance`: one minus the edit distance over the longer
/// length, in UTF-16 units and `float` arithmetic.
pub fn levenshtein_similarity(target: &str, other: &str) -> f32 {
    let s: Vec<u16> = target.encode_utf16().collect();
    let t: Vec<u16> = other.encode_utf16().collect();
    let (n, m) = (s.len(), t.len());
    if n == 0 || m == 0 {
        return if n == m { 1.0 } else { 0.0 };
    }
    let mut p: Vec<usize> = (0..=n).collect();
    let mut d = vec![0usize; n + 1];
    for (j, &tj) in t.iter().enumerate() {
        d[0] = j + 1;
        for i in 1..=n {
            let cost = usize::from(s[i - 1] != tj);
            d[i] = (d[i - 1] + 1).min(p[i] + 1).min(p[i - 1] + cost);
        }
        std::mem::swap(&mut p, &mut d);
    }
    1.0 - (p[n] as f32 / m.max(n) as f32)
}
