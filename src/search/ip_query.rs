//! Queries on `ip` fields, as ES 6.8's `IpFieldType` builds them: `term` of an address
//! or a CIDR block, and `range` between addresses. An address is indexed as its
//! `mapping::ip::term`, whose byte order is the addresses' order, so a block or a
//! range is one span of the term dictionary.

use super::context::{query_shard_error, Executor};
use crate::error::Result;
use crate::index::DocSet;
use crate::mapping::ip::{self, Ip};
use crate::mapping::FieldMapping;
use crate::query::{RangeQuery, Scalar};

/// The documents of a `term` on an `ip` field: one address, or every address of an
/// `address/prefix` block. `None` when the value is not an address and `lenient`.
pub fn term_docs(ex: &Executor<'_>, fm: &FieldMapping, value: &Scalar, lenient: bool) -> Result<Option<DocSet>> {
    match ip::term_query_bounds(&value.text()) {
        Ok((lo, hi)) => span(ex, fm, &lo, &hi).map(Some),
        Err(_) if lenient => Ok(None),
        Err(e) => Err(query_shard_error(e)),
    }
}

/// The documents of a `range` on an `ip` field: exclusive bounds move to the next
/// address (`InetAddressPoint.nextUp` / `nextDown`), and one past the ends matches none.
pub fn range_docs(ex: &Executor<'_>, fm: &FieldMapping, r: &RangeQuery) -> Result<DocSet> {
    let address = |v: &Scalar| ip::parse(&v.text()).map(|a| a.bytes).map_err(query_shard_error);
    let lo = match &r.lower {
        None => ip::MIN,
        Some((v, true)) => address(v)?,
        Some((v, false)) => match ip::next_up(&address(v)?) {
            Some(a) => a,
            None => return Ok(DocSet::new()),
        },
    };
    let hi = match &r.upper {
        None => ip::MAX,
        Some((v, true)) => address(v)?,
        Some((v, false)) => match ip::next_down(&address(v)?) {
            Some(a) => a,
            None => return Ok(DocSet::new()),
        },
    };
    span(ex, fm, &lo, &hi)
}

/// Lucene's string of a `term` on an `ip` field: the address, or its block's range.
pub fn term_string(field: &str, value: &str) -> String {
    match ip::term_query_bounds(value) {
        Ok((lo, hi)) if lo == hi => format!("{field}:{}", ip::format(&lo)),
        Ok((lo, hi)) => format!("{field}:[{} TO {}]", ip::format(&lo), ip::format(&hi)),
        Err(_) => format!("{field}:{value}"),
    }
}

/// The documents with an address from `lo` to `hi`, both included.
fn span(ex: &Executor<'_>, fm: &FieldMapping, lo: &Ip, hi: &Ip) -> Result<DocSet> {
    if lo > hi {
        return Ok(DocSet::new());
    }
    if lo == hi {
        return ex.keyword_docs(&fm.path, &ip::term(lo));
    }
    super::terms::term_span(ex, &fm.path, ip::term(lo).as_bytes(), ip::term(hi).as_bytes())
}
