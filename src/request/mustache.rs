//! Mustache as ES 6.8's `lang-mustache` runs search templates: mustache.java's tags
//! (variables, `{{{triple}}}` and `{{&name}}` unescaped, sections, inverted sections,
//! comments, `{{=<% %>=}}` delimiters; no partials) over the request's `params`, with
//! ES's additions: variables are escaped as JSON string content (Jackson's
//! `quoteAsString`), values print as Java prints them (`1.0`, `[a, b]`, `{k=v}`), lists
//! and arrays take an index (`{{list.0}}`), and the functions `{{#toJson}}name{{/toJson}}`,
//! `{{#join}}name{{/join}}` (`{{#join delimiter='||'}}`) and `{{#url}}…{{/url}}`.
//!
//! A template is compiled once ([`Template::compile`]) and rendered against a JSON value
//! ([`Template::render`]); the output is bounded ([`MAX_OUTPUT`]) since sections over
//! lists multiply it.

use serde_json::Value;
use std::fmt::Write as _;

/// The name ES compiles search templates under (in mustache.java's error messages).
const TEMPLATE_NAME: &str = "query-template";
/// The most bytes a rendering may produce.
pub const MAX_OUTPUT: usize = 16 * 1024 * 1024;
/// The deepest nesting of sections a template may have.
const MAX_DEPTH: usize = 64;

/// A compile or render failure: mustache.java's `MustacheException` message.
#[derive(Debug, Clone, PartialEq)]
pub struct MustacheError(pub String);

/// A compiled template.
#[derive(Debug, Clone)]
pub struct Template {
    nodes: Vec<Node>,
}

#[derive(Debug, Clone)]
enum Node {
    Text(String),
    Var { name: String, escaped: bool },
    Section { name: String, inverted: bool, children: Vec<Node> },
    ToJson(String),
    Join { name: String, delimiter: String },
    Url(Vec<Node>),
}

/// One open section while compiling: its tag, its kind, and the nodes before it.
struct Open {
    tag: String,
    inverted: bool,
    outer: Vec<Node>,
}

impl Template {
    /// Compiles `source`.
    pub fn compile(source: &str) -> Result<Template, MustacheError> {
        let (mut open_delim, mut close_delim) = ("{{".to_string(), "}}".to_string());
        let mut stack: Vec<Open> = Vec::new();
        let mut nodes: Vec<Node> = Vec::new();
        let mut rest = source;
        let line_of = |rest: &str| source[..source.len() - rest.len()].matches('\n').count() + 1;
        while !rest.is_empty() {
            let Some(at) = rest.find(open_delim.as_str()) else {
                nodes.push(Node::Text(rest.to_string()));
                break;
            };
            if at > 0 {
                nodes.push(Node::Text(rest[..at].to_string()));
            }
            let after = &rest[at + open_delim.len()..];
            let improper =
                || MustacheError(format!("Improperly closed variable in {TEMPLATE_NAME}:{}", line_of(after)));
            // `{{{name}}}`: only with the default delimiters, as in mustache.java.
            if open_delim == "{{" && after.starts_with('{') {
                let end = after.find(close_delim.as_str()).ok_or_else(improper)?;
                if !after[end + close_delim.len()..].starts_with('}') {
                    return Err(improper());
                }
                nodes.push(Node::Var { name: after[1..end].trim().to_string(), escaped: false });
                rest = &after[end + close_delim.len() + 1..];
                continue;
            }
            let end = after.find(close_delim.as_str()).ok_or_else(improper)?;
            let tag = &after[..end];
            rest = &after[end + close_delim.len()..];
            let (kind, body) = match tag.chars().next() {
                Some(c @ ('#' | '^' | '/' | '&' | '!' | '=' | '>')) => (Some(c), tag[1..].trim()),
                _ => (None, tag.trim()),
            };
            match kind {
                Some('!') => {}
                Some('=') => {
                    let inner = body.strip_suffix('=').unwrap_or(body).trim();
                    let mut parts = inner.split_whitespace();
                    match (parts.next(), parts.next(), parts.next()) {
                        (Some(o), Some(c), None) => {
                            open_delim = o.to_string();
                            close_delim = c.to_string();
                        }
                        _ => {
                            return Err(MustacheError(format!(
                                "Invalid delimiter string in {TEMPLATE_NAME}:{}",
                                line_of(rest)
                            )))
                        }
                    }
                }
                Some('>') => {
                    return Err(MustacheError(format!("Template {body} not found")));
                }
                Some('&') => nodes.push(Node::Var { name: body.to_string(), escaped: false }),
                Some(c @ ('#' | '^')) => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(MustacheError(format!(
                            "Sections nested deeper than {MAX_DEPTH} in {TEMPLATE_NAME}"
                        )));
                    }
                    stack.push(Open { tag: body.to_string(), inverted: c == '^', outer: std::mem::take(&mut nodes) });
                }
                Some('/') => {
                    let Some(open) = stack.pop() else {
                        return Err(MustacheError(format!(
                            "Mismatched start/end tags: null != {body} in {TEMPLATE_NAME}:{}",
                            line_of(rest)
                        )));
                    };
                    if open.tag != body {
                        return Err(MustacheError(format!(
                            "Mismatched start/end tags: {} != {body} in {TEMPLATE_NAME}:{}",
                            open.tag,
                            line_of(rest)
                        )));
                    }
                    let children = std::mem::replace(&mut nodes, open.outer);
                    nodes.push(section(open.tag, open.inverted, children)?);
                }
                _ => nodes.push(Node::Var { name: body.to_string(), escaped: true }),
            }
        }
        if let Some(open) = stack.pop() {
            return Err(MustacheError(format!("Failed to close '{}' tag at line {}", open.tag, line_of(""))));
        }
        Ok(Template { nodes })
    }

    /// Renders the template with `params` as its context.
    pub fn render(&self, params: &Value) -> Result<String, MustacheError> {
        let mut out = String::new();
        let mut scopes = vec![params];
        render_nodes(&self.nodes, &mut scopes, &mut out)?;
        Ok(out)
    }
}

/// A closed section: one of ES's functions, or a plain (inverted) section.
fn section(tag: String, inverted: bool, children: Vec<Node>) -> Result<Node, MustacheError> {
    if inverted {
        return Ok(Node::Section { name: tag, inverted, children });
    }
    // toJson and join name the variable in their body, which must be that one text.
    let variable = |fn_name: &str, children: &[Node]| match children {
        [Node::Text(t)] => Ok(t.clone()),
        _ => Err(MustacheError(format!("Mustache function [{fn_name}] must contain one and only one identifier"))),
    };
    if tag.eq_ignore_ascii_case("toJson") {
        return Ok(Node::ToJson(variable("toJson", &children)?));
    }
    if tag.eq_ignore_ascii_case("join") {
        return Ok(Node::Join { name: variable("join", &children)?, delimiter: ",".into() });
    }
    if let Some(delimiter) = tag.strip_prefix("join delimiter='").and_then(|d| d.strip_suffix('\'')) {
        return Ok(Node::Join { name: variable("join", &children)?, delimiter: delimiter.to_string() });
    }
    if tag.eq_ignore_ascii_case("url") {
        return Ok(Node::Url(children));
    }
    Ok(Node::Section { name: tag, inverted, children })
}

fn render_nodes(nodes: &[Node], scopes: &mut Vec<&Value>, out: &mut String) -> Result<(), MustacheError> {
    for node in nodes {
        match node {
            Node::Text(t) => out.push_str(t),
            Node::Var { name, escaped } => {
                if let Some(v) = lookup(scopes, name) {
                    let s = stringify(v);
                    if *escaped {
                        json_escape(&s, out);
                    } else {
                        out.push_str(&s);
                    }
                }
            }
            Node::Section { name, inverted: true, children } => {
                if lookup(scopes, name).is_none_or(falsey) {
                    render_nodes(children, scopes, out)?;
                }
            }
            Node::Section { name, children, .. } => match lookup(scopes, name) {
                None | Some(Value::Null) | Some(Value::Bool(false)) => {}
                Some(Value::Array(items)) => {
                    for item in items {
                        scopes.push(item);
                        let r = render_nodes(children, scopes, out);
                        scopes.pop();
                        r?;
                    }
                }
                Some(v) => {
                    scopes.push(v);
                    let r = render_nodes(children, scopes, out);
                    scopes.pop();
                    r?;
                }
            },
            Node::ToJson(name) => match lookup(scopes, name) {
                None | Some(Value::Null) => {}
                Some(v @ (Value::Array(_) | Value::Object(_))) => out.push_str(&v.to_string()),
                Some(v) => out.push_str(&stringify(v)),
            },
            Node::Join { name, delimiter } => match lookup(scopes, name) {
                Some(Value::Array(items)) => {
                    let parts: Vec<String> = items.iter().map(stringify).collect();
                    out.push_str(&parts.join(delimiter));
                }
                // Not a list: the function gives back its body, the variable's name.
                _ => out.push_str(name),
            },
            Node::Url(children) => {
                let mut inner = String::new();
                render_nodes(children, scopes, &mut inner)?;
                url_encode(&inner, out);
            }
        }
        if out.len() > MAX_OUTPUT {
            return Err(MustacheError(format!("template output is larger than [{MAX_OUTPUT}] bytes")));
        }
    }
    Ok(())
}

/// mustache.java's falsey values: `null`, `false`, `""`, an empty list.
fn falsey(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(false) => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

/// The value a (dotted) name names: `.` is the innermost scope; the first part is looked
/// for from the innermost scope out, the others inside it (a list's parts are indices).
fn lookup<'v>(scopes: &[&'v Value], name: &str) -> Option<&'v Value> {
    if name == "." {
        return scopes.last().copied();
    }
    let mut parts = name.split('.');
    let first = parts.next()?;
    let mut cur = scopes.iter().rev().find_map(|s| child(s, first))?;
    for part in parts {
        cur = child(cur, part)?;
    }
    Some(cur)
}

fn child<'v>(v: &'v Value, key: &str) -> Option<&'v Value> {
    match v {
        Value::Object(o) => o.get(key),
        Value::Array(a) => key.parse::<usize>().ok().and_then(|i| a.get(i)),
        _ => None,
    }
}

/// A value as Java's `toString` prints what ES parsed it into (`Integer`, `Double`,
/// `ArrayList`, `HashMap`-like maps in their order).
fn stringify(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (None, Some(u), _) => u.to_string(),
            (_, _, Some(f)) => crate::json_value::java_double(f),
            _ => n.to_string(),
        },
        Value::String(s) => s.clone(),
        Value::Array(a) => format!("[{}]", a.iter().map(stringify).collect::<Vec<_>>().join(", ")),
        Value::Object(o) => {
            format!("{{{}}}", o.iter().map(|(k, v)| format!("{k}={}", stringify(v))).collect::<Vec<_>>().join(", "))
        }
    }
}

/// Jackson's `quoteAsString`: JSON string content, without the quotes.
fn json_escape(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
}

/// Java's `URLEncoder.encode(s, UTF-8)`: letters, digits and `.-*_` kept, space as `+`,
/// every other byte as `%XX`.
fn url_encode(s: &str, out: &mut String) {
    for b in s.bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' | b'-' | b'*' | b'_' => out.push(b as char),
            b' ' => out.push('+'),
            b => {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn render(t: &str, params: Value) -> String {
        Template::compile(t).unwrap().render(&params).unwrap()
    }

    #[test]
    fn variables_are_json_escaped_and_printed_as_java_prints_them() {
        assert_eq!(render(r#"{"a":"{{x}}"}"#, json!({"x": "say \"hi\"\n"})), r#"{"a":"say \"hi\"\n"}"#);
        assert_eq!(render("{{{x}}}|{{&x}}", json!({"x": "a\"b"})), "a\"b|a\"b");
        assert_eq!(
            render("{{n}} {{f}} {{b}} {{l}} {{m}}", json!({"n": 3, "f": 1.0, "b": true, "l": [1, "a"], "m": {"k": 2}})),
            "3 1.0 true [1, a] {k=2}"
        );
        assert_eq!(render("[{{missing}}]", json!({})), "[]");
        assert_eq!(render("{{a.b.0}}-{{a.c}}", json!({"a": {"b": ["x", "y"], "c": 1}})), "x-1");
    }

    #[test]
    fn sections_iterate_and_inverted_sections_test_falseness() {
        let t = "{{#list}}<{{name}}{{^last}},{{/last}}>{{/list}}";
        assert_eq!(render(t, json!({"list": [{"name": "a"}, {"name": "b", "last": true}]})), "<a,><b>");
        assert_eq!(render("{{#flag}}yes{{/flag}}{{^flag}}no{{/flag}}", json!({"flag": false})), "no");
        assert_eq!(render("{{#flag}}yes{{/flag}}{{^flag}}no{{/flag}}", json!({"flag": true})), "yes");
        assert_eq!(render("{{^s}}empty{{/s}}", json!({"s": ""})), "empty");
        assert_eq!(render("{{#l}}{{.}};{{/l}}", json!({"l": [1, 2]})), "1;2;");
        assert_eq!(render("{{operator}}{{^operator}}or{{/operator}}", json!({})), "or");
    }

    #[test]
    fn es_functions() {
        assert_eq!(render("{{#toJson}}ids{{/toJson}}", json!({"ids": ["a", 1]})), r#"["a",1]"#);
        assert_eq!(render("{{#toJson}}m{{/toJson}}", json!({"m": {"k": "v"}})), r#"{"k":"v"}"#);
        assert_eq!(render("{{#join}}l{{/join}}", json!({"l": ["a", "b"]})), "a,b");
        assert_eq!(render("{{#join delimiter='||'}}l{{/join delimiter='||'}}", json!({"l": [1, 2]})), "1||2");
        // 25_custom_functions.yml.
        assert_eq!(
            render(
                "/{{#url}}{{index}}{{/url}}/{{#url}}{{type}}{{/url}}/",
                json!({"index": "<logstash-{now/d-2d}>", "type": "métriques"})
            ),
            "/%3Clogstash-%7Bnow%2Fd-2d%7D%3E/m%C3%A9triques/"
        );
        assert_eq!(
            render(
                "{{#url}}https://localhost:9200/{{#join}}indices{{/join}}/_stats{{/url}}",
                json!({"indices": ["<a>", "<b>"]})
            ),
            "https%3A%2F%2Flocalhost%3A9200%2F%3Ca%3E%2C%3Cb%3E%2F_stats"
        );
    }

    #[test]
    fn delimiters_comments_and_errors() {
        assert_eq!(render("{{! note }}{{=<% %>=}}<%x%>{{x}}", json!({"x": 1})), "1{{x}}");
        let err = |t: &str| Template::compile(t).err().map(|e| e.0);
        assert_eq!(err(r#"{"a": "{{{my_value}}"}"#), Some("Improperly closed variable in query-template:1".into()));
        assert!(err("{{#a}}x").unwrap().starts_with("Failed to close 'a' tag"));
        assert!(err("{{#a}}x{{/b}}").unwrap().starts_with("Mismatched start/end tags: a != b"));
        assert!(err("{{#toJson}}a{{b}}{{/toJson}}").is_some());
        assert!(err("{{> partial}}").is_some());
        // Output that sections multiply is bounded.
        let t = Template::compile("{{#l}}{{#l}}{{#l}}{{#l}}{{x}}{{/l}}{{/l}}{{/l}}{{/l}}").unwrap();
        let big = json!({"l": vec![1; 200], "x": "0123456789"});
        assert!(t.render(&big).is_err());
    }
}
