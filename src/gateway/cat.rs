//! `_cat/aliases` as ES 6.8 renders it: a padded text table (`v`, `h`, `s`, `help`) or
//! `format=json`.

use crate::error::{Error, Result};
use crate::mapping::simple_match;
use serde_json::{Map, Value};

/// Columns: name, short aliases, description.
const COLUMNS: [(&str, &[&str], &str); 5] = [
    ("alias", &["a"], "alias name"),
    ("index", &["i", "idx"], "index alias points to"),
    ("filter", &["f", "fi"], "filter"),
    ("routing.index", &["ri", "routingIndex"], "index routing"),
    ("routing.search", &["rs", "routingSearch"], "search routing"),
];

fn column_of(name: &str) -> Option<usize> {
    COLUMNS.iter().position(|(n, aliases, _)| *n == name || aliases.contains(&name))
}

/// Options of the cat request.
#[derive(Debug, Default, Clone)]
pub struct CatParams {
    /// `v`: header row.
    pub v: bool,
    /// `help`: describe the columns.
    pub help: bool,
    /// `h`: columns to show.
    pub h: Option<String>,
    /// `s`: sort columns (`col`, `col:desc`).
    pub s: Option<String>,
    /// `format`: `json` (text otherwise).
    pub format: Option<String>,
}

/// Renders rows of (alias, index); returns the body and its content type.
pub fn render_aliases(rows: &[(String, String)], p: &CatParams) -> Result<(String, &'static str)> {
    if p.help {
        let mut out = String::new();
        for (name, aliases, desc) in COLUMNS {
            out.push_str(&format!("{:<14} | {:<19} | {}\n", name, aliases.join(","), desc));
        }
        return Ok((out, "text/plain; charset=UTF-8"));
    }
    let cols: Vec<usize> = match &p.h {
        None => (0..COLUMNS.len()).collect(),
        Some(h) => {
            let mut v = Vec::new();
            for part in h.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                if part.contains('*') {
                    v.extend((0..COLUMNS.len()).filter(|i| simple_match(part, COLUMNS[*i].0)));
                } else if let Some(i) = column_of(part) {
                    v.push(i);
                }
            }
            v
        }
    };
    let mut table: Vec<[String; 5]> =
        rows.iter().map(|(a, i)| [a.clone(), i.clone(), "-".into(), "-".into(), "-".into()]).collect();
    if let Some(s) = &p.s {
        let mut keys = Vec::new();
        for part in s.split(',').map(str::trim).filter(|x| !x.is_empty()) {
            let (name, desc) = match part.rsplit_once(':') {
                Some((n, "desc")) => (n, true),
                Some((n, "asc")) => (n, false),
                _ => (part, false),
            };
            let col = column_of(name)
                .ok_or_else(|| Error::illegal_argument(format!("Unable to sort by unknown sort key `{name}`")))?;
            keys.push((col, desc));
        }
        table.sort_by(|x, y| {
            for (c, desc) in &keys {
                let o = x[*c].cmp(&y[*c]);
                if o != std::cmp::Ordering::Equal {
                    return if *desc { o.reverse() } else { o };
                }
            }
            std::cmp::Ordering::Equal
        });
    }
    if p.format.as_deref() == Some("json") {
        let arr: Vec<Value> = table
            .iter()
            .map(|r| {
                let mut m = Map::new();
                for &c in &cols {
                    m.insert(COLUMNS[c].0.to_string(), Value::String(r[c].clone()));
                }
                Value::Object(m)
            })
            .collect();
        return Ok((Value::Array(arr).to_string(), "application/json; charset=UTF-8"));
    }
    let mut lines: Vec<Vec<String>> = Vec::new();
    if p.v {
        lines.push(cols.iter().map(|&c| COLUMNS[c].0.to_string()).collect());
    }
    for r in &table {
        lines.push(cols.iter().map(|&c| r[c].clone()).collect());
    }
    let widths: Vec<usize> =
        (0..cols.len()).map(|i| lines.iter().map(|l| l[i].chars().count()).max().unwrap_or(0)).collect();
    let mut out = String::new();
    for l in lines {
        let cells: Vec<String> = l
            .iter()
            .enumerate()
            .map(|(i, cell)| if i + 1 == cols.len() { cell.clone() } else { format!("{cell:<w$}", w = widths[i]) })
            .collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    Ok((out, "text/plain; charset=UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_json_and_sort() {
        let rows = vec![("test_alias".to_string(), "test".to_string())];
        let (t, _) = render_aliases(&rows, &CatParams { v: true, ..Default::default() }).unwrap();
        assert_eq!(
            t,
            "alias      index filter routing.index routing.search\ntest_alias test  -      -             -\n"
        );
        let (j, ct) = render_aliases(&rows, &CatParams { format: Some("json".into()), ..Default::default() }).unwrap();
        assert_eq!(
            j,
            r#"[{"alias":"test_alias","index":"test","filter":"-","routing.index":"-","routing.search":"-"}]"#
        );
        assert!(ct.starts_with("application/json"));
        let (h, _) = render_aliases(&rows, &CatParams { h: Some("a,i".into()), ..Default::default() }).unwrap();
        assert_eq!(h, "test_alias test\n");
        assert!(render_aliases(&rows, &CatParams { s: Some("nope".into()), ..Default::default() }).is_err());
        let (empty, _) = render_aliases(&[], &CatParams::default()).unwrap();
        assert_eq!(empty, "");
    }
}
