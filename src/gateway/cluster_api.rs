//! The cluster-level read endpoints of ES 6.8 as one node serving one file answers them:
//! `_search_shards`, `_cluster/health`, `_cat/health` and `_cat/shards` (`_stats` is
//! `index_stats.rs`). Every
//! index is one primary shard, started on this node, and the replicas an index's settings
//! ask for stay unassigned (yellow, as on a one-node ES cluster), else the cluster is
//! green; nothing relocates, initializes or waits, and a `wait_for_*` condition is met at
//! once or never (answered at once as timed out, 408).

use super::cat::{Cell, Column};
use super::read::{byte_size, cat_table};
use super::{json_response, param, Response};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::node::NODE_ID;
use crate::read::shards::ShardIndex;
use crate::request::indices_options::{indices_options, IndicesOptions};
use serde_json::{json, Map, Value};

/// The cluster name `GET /` reports too.
const CLUSTER_NAME: &str = "metagate";

/// `[{index}[/{type}]]/_search_shards`: the node, the indices and their one shard each.
pub(super) fn search_shards(engine: &Engine, index: &str, params: &[(String, String)]) -> Result<Response> {
    let metas = engine.shard_indices(index, indices_options(params)?)?;
    let mut nodes = Map::new();
    nodes.insert(
        NODE_ID.into(),
        json!({"name": NODE_ID, "ephemeral_id": NODE_ID, "transport_address": "127.0.0.1:9300", "attributes": {}}),
    );
    // Each index lists the filtering aliases the expression reaches it through (sorted)
    // and their filter, as ES's ClusterSearchShardsResponse does; else it is empty.
    let filters = engine.alias_filters_of(index)?;
    let mut indices = Map::new();
    for m in &metas {
        let mut entry = Map::new();
        if let Some(f) = filters.iter().find(|f| f.index == m.name) {
            entry.insert("aliases".into(), json!(f.aliases));
            entry.insert("filter".into(), super::filter_json::printed_any(&f.filters)?);
        }
        indices.insert(m.name.clone(), Value::Object(entry));
    }
    let shards: Vec<Value> = metas.iter().map(|m| json!([shard_routing(m)])).collect();
    Ok(json_response(200, &json!({"nodes": nodes, "indices": indices, "shards": shards}), params))
}

/// ES's ShardRouting of an index's one started primary.
fn shard_routing(m: &ShardIndex) -> Value {
    json!({"state": "STARTED", "primary": true, "node": NODE_ID, "relocating_node": null, "shard": 0,
           "index": m.name, "allocation_id": {"id": m.uuid}})
}

/// The health statuses, worst first.
const STATUSES: [&str; 3] = ["red", "yellow", "green"];

/// `_cluster/health[/{index}]`: ES's ClusterHealthResponse; `level` adds the indices (and
/// their shards).
pub(super) fn cluster_health(engine: &Engine, index: Option<&str>, params: &[(String, String)]) -> Result<Response> {
    let level = param(params, "level").unwrap_or("cluster").to_ascii_uppercase();
    if !matches!(level.as_str(), "CLUSTER" | "INDICES" | "SHARDS") {
        return Err(Error::illegal_argument(format!(
            "No enum constant org.elasticsearch.action.admin.cluster.health.ClusterHealthRequest.Level.{level}"
        )));
    }
    let wanted = match param(params, "wait_for_status") {
        None => None,
        Some(s) => Some(
            STATUSES
                .iter()
                .position(|x| x.eq_ignore_ascii_case(s))
                .ok_or_else(|| Error::illegal_argument(format!("unknown cluster health status [{s}]")))?,
        ),
    };
    // A name that is not there makes the health red (ES's TransportClusterHealthAction);
    // replicas one node cannot hold make it yellow.
    let (metas, status) = match engine.shard_indices(index.unwrap_or("_all"), indices_options(params)?) {
        Ok(m) => {
            let status = if m.iter().any(|i| i.replicas > 0) { 1 } else { 2 };
            (m, status)
        }
        Err(e) if e.kind() == "index_not_found_exception" => (Vec::new(), 0),
        Err(e) => return Err(e),
    };
    let nodes_met = match param(params, "wait_for_nodes") {
        Some(expr) => nodes_condition(expr)?,
        None => true,
    };
    let timed_out = wanted.is_some_and(|w| status < w) || !nodes_met;
    let n = metas.len();
    let unassigned: u64 = metas.iter().map(|m| m.replicas).sum();
    let percent = active_percent(n as u64, unassigned);
    let human = super::param_true(params, "human");
    let mut out = Map::new();
    out.insert("cluster_name".into(), json!(CLUSTER_NAME));
    out.insert("status".into(), json!(STATUSES[status]));
    out.insert("timed_out".into(), json!(timed_out));
    for (k, v) in [
        ("number_of_nodes", 1),
        ("number_of_data_nodes", 1),
        ("active_primary_shards", n),
        ("active_shards", n),
        ("relocating_shards", 0),
        ("initializing_shards", 0),
        ("unassigned_shards", unassigned as usize),
        ("delayed_unassigned_shards", 0),
        ("number_of_pending_tasks", 0),
        ("number_of_in_flight_fetch", 0),
    ] {
        out.insert(k.into(), json!(v));
    }
    if human {
        out.insert("task_max_waiting_in_queue".into(), json!("0s"));
    }
    out.insert("task_max_waiting_in_queue_millis".into(), json!(0));
    if human {
        out.insert("active_shards_percent".into(), json!(format!("{percent:.1}%")));
    }
    out.insert("active_shards_percent_as_number".into(), json!(percent));
    if level != "CLUSTER" {
        let indices: Map<String, Value> = metas
            .iter()
            .map(|m| {
                let (health, r) = (m.health(), m.replicas);
                let mut h = json!({"status": health, "number_of_shards": 1, "number_of_replicas": r,
                                   "active_primary_shards": 1, "active_shards": 1, "relocating_shards": 0,
                                   "initializing_shards": 0, "unassigned_shards": r});
                if level == "SHARDS" {
                    h["shards"] = json!({"0": {"status": health, "primary_active": true, "active_shards": 1,
                                               "relocating_shards": 0, "initializing_shards": 0, "unassigned_shards": r}});
                }
                (m.name.clone(), h)
            })
            .collect();
        out.insert("indices".into(), Value::Object(indices));
    }
    Ok(json_response(if timed_out { 408 } else { 200 }, &Value::Object(out), params))
}

/// ES's `active_shards_percent`: the active shards' share of all, 100 when there are none.
fn active_percent(active: u64, unassigned: u64) -> f64 {
    let total = active + unassigned;
    if total == 0 {
        100.0
    } else {
        active as f64 * 100.0 / total as f64
    }
}

/// Whether this one node meets `wait_for_nodes` (`N`, `>=N`, `<=N`, `>N`, `<N`, also
/// written `ge(N)`, `le(N)`, `gt(N)`, `lt(N)`).
fn nodes_condition(expr: &str) -> Result<bool> {
    let e = expr.trim();
    let (op, num) = if let Some(r) = e.strip_prefix(">=") {
        (">=", r)
    } else if let Some(r) = e.strip_prefix("<=") {
        ("<=", r)
    } else if let Some(r) = e.strip_prefix('>') {
        (">", r)
    } else if let Some(r) = e.strip_prefix('<') {
        ("<", r)
    } else if let Some(r) = ["ge(", "le(", "gt(", "lt("].iter().find(|p| e.starts_with(*p)) {
        let inner = e[3..].strip_suffix(')').unwrap_or(&e[3..]);
        (&r[..2], inner)
    } else {
        ("==", e)
    };
    let n: i64 = num
        .trim()
        .parse()
        .map_err(|_| Error::illegal_argument(format!("failed to parse [wait_for_nodes] value [{expr}]")))?;
    Ok(match op {
        ">=" | "ge" => 1 >= n,
        "<=" | "le" => 1 <= n,
        ">" | "gt" => 1 > n,
        "<" | "lt" => 1 < n,
        _ => 1 == n,
    })
}

/// The columns of `_cat/health`.
const HEALTH_COLUMNS: [Column; 14] = [
    Column { name: "epoch", aliases: &["t", "time"], desc: "seconds since 1970-01-01 00:00:00", right: false },
    Column { name: "timestamp", aliases: &["ts", "hms", "hhmmss"], desc: "time in HH:MM:SS", right: false },
    Column { name: "cluster", aliases: &["cl"], desc: "cluster name", right: false },
    Column { name: "status", aliases: &["st"], desc: "health status", right: false },
    Column { name: "node.total", aliases: &["nt", "nodeTotal"], desc: "total number of nodes", right: true },
    Column {
        name: "node.data",
        aliases: &["nd", "nodeData"],
        desc: "number of nodes that can store data",
        right: true,
    },
    Column {
        name: "shards",
        aliases: &["t", "sh", "shards.total", "shardsTotal"],
        desc: "total number of shards",
        right: true,
    },
    Column {
        name: "pri",
        aliases: &["p", "shards.primary", "shardsPrimary"],
        desc: "number of primary shards",
        right: true,
    },
    Column {
        name: "relo",
        aliases: &["r", "shards.relocating", "shardsRelocating"],
        desc: "number of relocating nodes",
        right: true,
    },
    Column {
        name: "init",
        aliases: &["i", "shards.initializing", "shardsInitializing"],
        desc: "number of initializing nodes",
        right: true,
    },
    Column {
        name: "unassign",
        aliases: &["u", "shards.unassigned", "shardsUnassigned"],
        desc: "number of unassigned shards",
        right: true,
    },
    Column { name: "pending_tasks", aliases: &["pt", "pendingTasks"], desc: "number of pending tasks", right: true },
    Column {
        name: "max_task_wait_time",
        aliases: &["mtwt", "maxTaskWaitTime"],
        desc: "wait time of longest task pending",
        right: true,
    },
    Column {
        name: "active_shards_percent",
        aliases: &["asp", "activeShardsPercent"],
        desc: "active number of shards in percent",
        right: true,
    },
];

/// `_cat/health`: one row (the time columns left out with `ts=false`).
pub(super) fn cat_health(engine: &Engine, params: &[(String, String)], accept: Option<&str>) -> Result<Response> {
    let indices = engine.shard_indices("_all", IndicesOptions::default())?;
    let n = indices.len();
    let unassigned: u64 = indices.iter().map(|m| m.replicas).sum();
    let percent = active_percent(n as u64, unassigned);
    let now_ms = crate::node::now_ms();
    let at = chrono::DateTime::from_timestamp_millis(now_ms).unwrap_or_default();
    let secs = now_ms.div_euclid(1000);
    let count = |v: usize| Cell::number(v as f64, v.to_string());
    let row = vec![
        Cell::number(secs as f64, secs.to_string()),
        Cell::text(at.format("%H:%M:%S").to_string()),
        Cell::text(CLUSTER_NAME),
        Cell::text(if unassigned > 0 { "yellow" } else { "green" }),
        count(1),
        count(1),
        count(n),
        count(n),
        count(0),
        count(0),
        count(unassigned as usize),
        count(0),
        Cell::text("-"),
        Cell::number(percent, format!("{percent:.1}%")),
    ];
    if param(params, "ts") == Some("false") {
        return cat_table(&HEALTH_COLUMNS[2..], &[row[2..].to_vec()], params, accept);
    }
    cat_table(&HEALTH_COLUMNS, &[row], params, accept)
}

/// The columns of `_cat/shards` ES shows by default.
const SHARD_COLUMNS: [Column; 8] = [
    Column { name: "index", aliases: &["i", "idx"], desc: "index name", right: false },
    Column { name: "shard", aliases: &["s", "sh"], desc: "shard name", right: true },
    Column { name: "prirep", aliases: &["p", "pr", "primaryOrReplica"], desc: "primary or replica", right: false },
    Column { name: "state", aliases: &["st"], desc: "shard state", right: false },
    Column { name: "docs", aliases: &["d", "dc"], desc: "number of docs in shard", right: true },
    Column { name: "store", aliases: &["sto"], desc: "store size of shard (how much disk it uses)", right: true },
    Column { name: "ip", aliases: &[], desc: "ip of node where it lives", right: false },
    Column { name: "node", aliases: &["n"], desc: "name of node where it lives", right: false },
];

/// `_cat/shards[/{index}]`: each index's started primary, then the replicas its settings
/// ask for, unassigned on this one node (no documents, store, ip or node), as ES lists a
/// shard's copies.
pub(super) fn cat_shards(
    engine: &Engine,
    index: Option<&str>,
    params: &[(String, String)],
    accept: Option<&str>,
) -> Result<Response> {
    let unit = param(params, "bytes");
    let mut rows: Vec<Vec<Cell>> = Vec::new();
    for m in engine.shard_indices(index.unwrap_or("_all"), IndicesOptions::default())? {
        rows.push(vec![
            Cell::text(&m.name),
            Cell::number(0.0, "0"),
            Cell::text("p"),
            Cell::text("STARTED"),
            Cell::number(m.doc_count as f64, m.doc_count.to_string()),
            Cell::number(m.size_bytes as f64, byte_size(m.size_bytes, unit)),
            Cell::text("127.0.0.1"),
            Cell::text(NODE_ID),
        ]);
        for _ in 0..m.replicas {
            rows.push(vec![
                Cell::text(&m.name),
                Cell::number(0.0, "0"),
                Cell::text("r"),
                Cell::text("UNASSIGNED"),
                Cell::null(),
                Cell::null(),
                Cell::null(),
                Cell::null(),
            ]);
        }
    }
    cat_table(&SHARD_COLUMNS, &rows, params, accept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_node_meets_node_conditions() {
        assert!(nodes_condition("1").unwrap());
        assert!(nodes_condition(">=1").unwrap());
        assert!(nodes_condition("ge(1)").unwrap());
        assert!(!nodes_condition(">1").unwrap());
        assert!(!nodes_condition("2").unwrap());
        assert!(nodes_condition("lt(2)").unwrap());
        assert!(nodes_condition("x").is_err());
    }
}
