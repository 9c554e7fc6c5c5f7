//! The `_cat` APIs as ES 6.8 renders them: a padded text table (`v`, `h`, `s`, `help`),
//! or JSON or YAML rows when `format` (else the `Accept` header) asks for them.

use crate::error::{Error, Result};
use crate::mapping::simple_match;
use serde_json::{Map, Value};

/// One column of a cat table.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    /// Its name (the header, the JSON key).
    pub name: &'static str,
    /// Short names `h` and `s` accept too.
    pub aliases: &'static [&'static str],
    /// What `help` says of it.
    pub desc: &'static str,
    /// Right-aligned in text (numbers and sizes, as ES aligns them).
    pub right: bool,
}

/// A cell: its text, and for numbers and sizes the value `s` sorts by.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// What is shown.
    pub text: String,
    /// The numeric value, when the column sorts numerically.
    pub number: Option<f64>,
    /// No value (ES's null cell: empty in text, `null` in JSON and YAML).
    pub null: bool,
}

impl Cell {
    /// A text cell.
    pub fn text(s: impl Into<String>) -> Cell {
        Cell { text: s.into(), number: None, null: false }
    }

    /// A number shown as `text`, sorted by `number`.
    pub fn number(number: f64, text: impl Into<String>) -> Cell {
        Cell { text: text.into(), number: Some(number), null: false }
    }

    /// A cell without a value.
    pub fn null() -> Cell {
        Cell { text: String::new(), number: None, null: true }
    }
}

/// The columns of `_cat/aliases`.
pub const ALIAS_COLUMNS: [Column; 5] = [
    Column { name: "alias", aliases: &["a"], desc: "alias name", right: false },
    Column { name: "index", aliases: &["i", "idx"], desc: "index alias points to", right: false },
    Column { name: "filter", aliases: &["f", "fi"], desc: "filter", right: false },
    Column { name: "routing.index", aliases: &["ri", "routingIndex"], desc: "index routing", right: false },
    Column { name: "routing.search", aliases: &["rs", "routingSearch"], desc: "search routing", right: false },
];

/// Options of a cat request.
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
    /// `format`: `json`, `yaml` or `text`; when absent the `Accept` header decides.
    pub format: Option<String>,
    /// The request's `Accept` header.
    pub accept: Option<String>,
}

/// How the rows are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Json,
    Yaml,
}

impl CatParams {
    /// ES's choice: `format` if given, else `Accept`; a media type or short name it does
    /// not know (`*/*`, `text`, `xml`) means the text table.
    fn output(&self) -> Format {
        let asked = self.format.as_deref().or(self.accept.as_deref()).unwrap_or("");
        let media = asked.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
        match media.as_str() {
            "json" | "application/json" | "application/x-ndjson" => Format::Json,
            "yaml" | "application/yaml" => Format::Yaml,
            m if m.starts_with("application/*") => Format::Json,
            _ => Format::Text,
        }
    }
}

fn column_of(columns: &[Column], name: &str) -> Option<usize> {
    columns.iter().position(|c| c.name == name || c.aliases.contains(&name))
}

/// Renders `rows` of a table with `columns`; returns the body and its content type.
pub fn render(columns: &[Column], rows: &[Vec<Cell>], p: &CatParams) -> Result<(String, &'static str)> {
    if p.help {
        return Ok((help(columns), "text/plain; charset=UTF-8"));
    }
    let cols: Vec<usize> = match &p.h {
        None => (0..columns.len()).collect(),
        Some(h) => {
            let mut v = Vec::new();
            for part in h.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                if part.contains('*') {
                    v.extend((0..columns.len()).filter(|i| simple_match(part, columns[*i].name)));
                } else if let Some(i) = column_of(columns, part) {
                    v.push(i);
                }
            }
            v
        }
    };
    let mut table: Vec<&Vec<Cell>> = rows.iter().collect();
    if let Some(s) = &p.s {
        let mut keys = Vec::new();
        for part in s.split(',').map(str::trim).filter(|x| !x.is_empty()) {
            let (name, desc) = match part.rsplit_once(':') {
                Some((n, "desc")) => (n, true),
                Some((n, "asc")) => (n, false),
                _ => (part, false),
            };
            let col = column_of(columns, name)
                .ok_or_else(|| Error::illegal_argument(format!("Unable to sort by unknown sort key `{name}`")))?;
            keys.push((col, desc));
        }
        table.sort_by(|x, y| {
            for (c, desc) in &keys {
                let o = match (x[*c].null, y[*c].null, x[*c].number, y[*c].number) {
                    // A cell without a value sorts after those with one.
                    (true, true, ..) => std::cmp::Ordering::Equal,
                    (true, false, ..) => std::cmp::Ordering::Greater,
                    (false, true, ..) => std::cmp::Ordering::Less,
                    (_, _, Some(a), Some(b)) => a.total_cmp(&b),
                    _ => x[*c].text.cmp(&y[*c].text),
                };
                if o != std::cmp::Ordering::Equal {
                    return if *desc { o.reverse() } else { o };
                }
            }
            std::cmp::Ordering::Equal
        });
    }
    match p.output() {
        Format::Json => {
            let arr: Vec<Value> = table.iter().map(|r| Value::Object(row_object(columns, &cols, r))).collect();
            Ok((Value::Array(arr).to_string(), "application/json; charset=UTF-8"))
        }
        Format::Yaml => Ok((yaml(columns, &cols, &table), "application/yaml")),
        Format::Text => Ok((text(columns, &cols, &table, p.v), "text/plain; charset=UTF-8")),
    }
}

fn row_object(columns: &[Column], cols: &[usize], row: &[Cell]) -> Map<String, Value> {
    cols.iter()
        .map(|&c| {
            let cell = &row[c];
            (columns[c].name.to_string(), if cell.null { Value::Null } else { Value::String(cell.text.clone()) })
        })
        .collect()
}

/// The `help` table: name, short names, description, each padded to its widest entry
/// (the description too: ES pads every help cell).
fn help(columns: &[Column]) -> String {
    let aliases: Vec<String> = columns.iter().map(|c| c.aliases.join(",")).collect();
    let w0 = columns.iter().map(|c| c.name.len()).max().unwrap_or(0);
    let w1 = aliases.iter().map(String::len).max().unwrap_or(0);
    let w2 = columns.iter().map(|c| c.desc.len()).max().unwrap_or(0);
    let mut out = String::new();
    for (c, a) in columns.iter().zip(&aliases) {
        out.push_str(&format!("{:<w0$} | {:<w1$} | {:<w2$}\n", c.name, a, c.desc));
    }
    out
}

/// Jackson's YAML of the rows: a document marker, then one block mapping per row with
/// every value a double-quoted string.
fn yaml(columns: &[Column], cols: &[usize], table: &[&Vec<Cell>]) -> String {
    if table.is_empty() {
        return "--- []\n".to_string();
    }
    let mut out = String::from("---\n");
    for row in table {
        for (i, &c) in cols.iter().enumerate() {
            let quoted = if row[c].null { "null".into() } else { Value::String(row[c].text.clone()).to_string() };
            out.push_str(if i == 0 { "- " } else { "  " });
            out.push_str(&format!("{}: {quoted}\n", columns[c].name));
        }
        if cols.is_empty() {
            out.push_str("- {}\n");
        }
    }
    out
}

/// The padded text table; the last column is not padded on the right.
fn text(columns: &[Column], cols: &[usize], table: &[&Vec<Cell>], header: bool) -> String {
    let mut lines: Vec<Vec<String>> = Vec::new();
    if header {
        lines.push(cols.iter().map(|&c| columns[c].name.to_string()).collect());
    }
    for r in table {
        lines.push(cols.iter().map(|&c| r[c].text.clone()).collect());
    }
    let widths: Vec<usize> =
        (0..cols.len()).map(|i| lines.iter().map(|l| l[i].chars().count()).max().unwrap_or(0)).collect();
    let mut out = String::new();
    for l in lines {
        let cells: Vec<String> = l
            .iter()
            .enumerate()
            .map(|(i, cell)| {
                let w = widths[i];
                if columns[cols[i]].right {
                    format!("{cell:>w$}")
                } else if i + 1 == cols.len() {
                    cell.clone()
                } else {
                    format!("{cell:<w$}")
                }
            })
            .collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    out
}

/// `_cat/aliases` rows with the aliases' options: `*` for a filter, the routing values,
/// `-` for what is not set (RestAliasAction).
pub fn alias_option_rows(rows: &[(String, crate::settings::alias::AliasTarget)]) -> Vec<Vec<Cell>> {
    rows.iter()
        .map(|(a, t)| {
            let o = &t.options;
            vec![
                Cell::text(a),
                Cell::text(&t.index),
                Cell::text(if o.filter.is_some() { "*" } else { "-" }),
                Cell::text(o.index_routing.as_deref().unwrap_or("-")),
                Cell::text(o.search_routing.as_deref().unwrap_or("-")),
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(index: &str) -> crate::settings::alias::AliasTarget {
        crate::settings::alias::AliasTarget { index: index.into(), ..Default::default() }
    }

    fn aliases(p: &CatParams) -> Result<(String, &'static str)> {
        render(&ALIAS_COLUMNS, &alias_option_rows(&[("test_alias".to_string(), plain("test"))]), p)
    }

    #[test]
    fn text_json_and_sort() {
        let (t, _) = aliases(&CatParams { v: true, ..Default::default() }).unwrap();
        assert_eq!(
            t,
            "alias      index filter routing.index routing.search\ntest_alias test  -      -             -\n"
        );
        let (j, ct) = aliases(&CatParams { format: Some("json".into()), ..Default::default() }).unwrap();
        assert_eq!(
            j,
            r#"[{"alias":"test_alias","index":"test","filter":"-","routing.index":"-","routing.search":"-"}]"#
        );
        assert!(ct.starts_with("application/json"));
        let (h, _) = aliases(&CatParams { h: Some("a,i".into()), ..Default::default() }).unwrap();
        assert_eq!(h, "test_alias test\n");
        assert!(aliases(&CatParams { s: Some("nope".into()), ..Default::default() }).is_err());
        let (empty, _) = render(&ALIAS_COLUMNS, &[], &CatParams::default()).unwrap();
        assert_eq!(empty, "");
    }

    #[test]
    fn help_pads_every_cell_as_es_does() {
        let (h, ct) = aliases(&CatParams { help: true, ..Default::default() }).unwrap();
        assert_eq!(ct, "text/plain; charset=UTF-8");
        assert_eq!(
            h,
            "alias          | a                | alias name           \n\
             index          | i,idx            | index alias points to\n\
             filter         | f,fi             | filter               \n\
             routing.index  | ri,routingIndex  | index routing        \n\
             routing.search | rs,routingSearch | search routing       \n"
        );
    }

    #[test]
    fn yaml_and_the_accept_header() {
        let yaml = "---\n- alias: \"test_alias\"\n  index: \"test\"\n  filter: \"-\"\n  routing.index: \"-\"\n  routing.search: \"-\"\n";
        assert_eq!(
            aliases(&CatParams { format: Some("yaml".into()), ..Default::default() }).unwrap(),
            (yaml.to_string(), "application/yaml")
        );
        let accept = |a: &str| aliases(&CatParams { accept: Some(a.into()), ..Default::default() }).unwrap().1;
        assert_eq!(accept("application/json"), "application/json; charset=UTF-8");
        assert_eq!(accept("application/yaml"), "application/yaml");
        assert_eq!(accept("application/*"), "application/json; charset=UTF-8");
        assert_eq!(accept("*/*"), "text/plain; charset=UTF-8");
        assert_eq!(accept("text/plain"), "text/plain; charset=UTF-8");
        // `format` wins over `Accept`.
        let p =
            CatParams { format: Some("text".into()), accept: Some("application/json".into()), ..Default::default() };
        assert_eq!(aliases(&p).unwrap().1, "text/plain; charset=UTF-8");
        assert_eq!(
            render(&ALIAS_COLUMNS, &[], &CatParams { format: Some("yaml".into()), ..Default::default() }).unwrap().0,
            "--- []\n"
        );
    }

    #[test]
    fn numbers_align_right_and_sort_by_value() {
        const COLS: [Column; 2] = [
            Column { name: "index", aliases: &["i"], desc: "index name", right: false },
            Column { name: "docs.count", aliases: &["dc"], desc: "available docs", right: true },
        ];
        let rows =
            vec![vec![Cell::text("a"), Cell::number(100.0, "100")], vec![Cell::text("bb"), Cell::number(9.0, "9")]];
        let p = CatParams { v: true, s: Some("dc".into()), ..Default::default() };
        assert_eq!(render(&COLS, &rows, &p).unwrap().0, "index docs.count\nbb             9\na            100\n");
        assert_eq!(help(&COLS), "index      | i  | index name    \ndocs.count | dc | available docs\n");
    }
}
