//! What differs between the clusters an index can move to: Elasticsearch 6.8, 7.x and 8.x,
//! and OpenSearch 1.x and 2.x.
//!
//! Three differences matter to metagate's export and to the gateway in front of a cluster:
//!
//! | | ES 6.8 | ES 7.x | ES 8.x | OpenSearch 1.x | OpenSearch 2.x |
//! |---|---|---|---|---|---|
//! | mapping keyed by a type, `_type` in `_bulk` | yes | no (typeless API) | no | no | no |
//! | `hits.total` | a number | an object (`rest_total_hits_as_int=true` gives the number) | object | object | object |
//! | a type segment in `/{index}/{type}/_search` | yes | deprecated | removed | deprecated | removed |

use serde_json::Value;

/// Who made the cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Distribution {
    /// Elasticsearch.
    Elasticsearch,
    /// OpenSearch (forked from Elasticsearch 7.10).
    OpenSearch,
}

/// A cluster's product and version, as its `GET /` answers them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterVersion {
    /// Elasticsearch or OpenSearch.
    pub distribution: Distribution,
    /// `version.number`, e.g. `6.8.23`.
    pub number: String,
    /// The major version.
    pub major: u32,
}

impl ClusterVersion {
    /// Elasticsearch of the given version number.
    pub fn elasticsearch(number: &str) -> ClusterVersion {
        ClusterVersion::new(Distribution::Elasticsearch, number)
    }

    /// OpenSearch of the given version number.
    pub fn opensearch(number: &str) -> ClusterVersion {
        ClusterVersion::new(Distribution::OpenSearch, number)
    }

    fn new(distribution: Distribution, number: &str) -> ClusterVersion {
        let major = number.split('.').next().and_then(|m| m.parse().ok()).unwrap_or(0);
        ClusterVersion { distribution, number: number.to_string(), major }
    }

    /// Reads the cluster-information document of `GET /`: `version.number`, and
    /// `version.distribution` (`opensearch`) where OpenSearch names itself.
    pub fn from_info(info: &Value) -> Option<ClusterVersion> {
        let number = info.pointer("/version/number")?.as_str()?;
        let distribution = match info.pointer("/version/distribution").and_then(Value::as_str) {
            Some("opensearch") => Distribution::OpenSearch,
            _ => Distribution::Elasticsearch,
        };
        Some(ClusterVersion::new(distribution, number))
    }

    /// Whether mappings and `_bulk` actions carry no document type (ES 7+, OpenSearch).
    pub fn typeless(&self) -> bool {
        self.distribution == Distribution::OpenSearch || self.major >= 7
    }

    /// Whether `hits.total` is an object unless `rest_total_hits_as_int=true` is asked.
    pub fn total_is_object(&self) -> bool {
        self.typeless()
    }

    /// Whether a type segment in a search path is refused (ES 8+, OpenSearch 2+).
    pub fn rejects_type_segment(&self) -> bool {
        match self.distribution {
            Distribution::Elasticsearch => self.major >= 8,
            Distribution::OpenSearch => self.major >= 2,
        }
    }

    /// A short name for messages: `Elasticsearch 6.8.23`.
    pub fn describe(&self) -> String {
        let product = match self.distribution {
            Distribution::Elasticsearch => "Elasticsearch",
            Distribution::OpenSearch => "OpenSearch",
        };
        format!("{product} {}", self.number)
    }
}

/// The shape an export is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// ES 6.8: the mapping keyed by the index's document type, `_type` in every action.
    Typed,
    /// ES 7.x and 8.x, OpenSearch: no document types.
    Typeless,
}

impl Flavor {
    /// The flavor a cluster of `version` takes.
    pub fn for_cluster(version: &ClusterVersion) -> Flavor {
        if version.typeless() {
            Flavor::Typeless
        } else {
            Flavor::Typed
        }
    }

    /// Parses the CLI's `--target`: `es6`, `es7`, `es8` or `opensearch`.
    pub fn from_target(name: &str) -> Option<Flavor> {
        match name {
            "es6" => Some(Flavor::Typed),
            "es7" | "es8" | "opensearch" => Some(Flavor::Typeless),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn versions_from_cluster_info() {
        let es6 = ClusterVersion::from_info(&json!({"version": {"number": "6.8.23"}})).unwrap();
        assert_eq!(
            (es6.major, es6.typeless(), es6.total_is_object(), es6.rejects_type_segment()),
            (6, false, false, false)
        );
        let es7 =
            ClusterVersion::from_info(&json!({"version": {"number": "7.17.9", "build_flavor": "default"}})).unwrap();
        assert_eq!((es7.typeless(), es7.total_is_object(), es7.rejects_type_segment()), (true, true, false));
        let es8 = ClusterVersion::elasticsearch("8.11.0");
        assert!(es8.rejects_type_segment());
        let os1 =
            ClusterVersion::from_info(&json!({"version": {"distribution": "opensearch", "number": "1.3.2"}})).unwrap();
        assert_eq!(
            (os1.distribution, os1.typeless(), os1.rejects_type_segment()),
            (Distribution::OpenSearch, true, false)
        );
        let os2 = ClusterVersion::opensearch("2.11.1");
        assert!(os2.rejects_type_segment() && os2.total_is_object());
        assert_eq!(os2.describe(), "OpenSearch 2.11.1");
        assert!(ClusterVersion::from_info(&json!({"tagline": "x"})).is_none());
    }

    #[test]
    fn flavors() {
        assert_eq!(Flavor::for_cluster(&ClusterVersion::elasticsearch("6.8.0")), Flavor::Typed);
        assert_eq!(Flavor::for_cluster(&ClusterVersion::elasticsearch("7.10.2")), Flavor::Typeless);
        assert_eq!(Flavor::from_target("opensearch"), Some(Flavor::Typeless));
        assert_eq!(Flavor::from_target("es6"), Some(Flavor::Typed));
        assert_eq!(Flavor::from_target("es5"), None);
    }
}
