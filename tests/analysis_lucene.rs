//! Every tokenizer, char filter, token filter and built-in analyzer metagate runs, over
//! demo-corpus texts and tricky ones, against Lucene itself (Debian's liblucene8-java via
//! tests/lucene/LuceneAnalysis.java): terms, positions, offsets, position lengths and
//! types must all be equal, through metagate's `_analyze`.

mod common;

use base64::Engine as _;
use common::lucene_analysis::{lucene_tokens, oracle_line};
use serde_json::{json, Value};
use std::io::BufRead;

/// The component specs, each an `_analyze` body without its text.
fn specs() -> Vec<Value> {
    let mut s = vec![
        json!({"analyzer": "standard"}),
        json!({"analyzer": {"type": "standard", "stopwords": "_english_", "max_token_length": 5}}),
        json!({"analyzer": "simple"}),
        json!({"analyzer": "whitespace"}),
        json!({"analyzer": "stop"}),
        json!({"analyzer": "keyword"}),
        json!({"analyzer": "pattern"}),
        json!({"analyzer": "english"}),
        json!({"analyzer": {"type": "english", "stem_exclusion": ["running", "antibodies"], "stopwords": ["data"]}}),
        json!({"analyzer": "fingerprint"}),
        json!({"analyzer": "standard_html_strip"}),
        json!({"analyzer": {"type": "standard_html_strip", "stopwords": ["the", "a"]}}),
        json!({"analyzer": {"type": "fingerprint", "separator": "+", "max_output_size": 30, "stopwords": "_english_"}}),
        json!({"analyzer": {"type": "pattern", "pattern": "[,;]+", "lowercase": false}}),
        json!({"tokenizer": "standard"}),
        json!({"tokenizer": {"type": "standard", "max_token_length": 4}}),
        json!({"tokenizer": {"type": "standard", "max_token_length": 1}}),
        json!({"tokenizer": "whitespace"}),
        json!({"tokenizer": {"type": "whitespace", "max_token_length": 3}}),
        json!({"tokenizer": "letter"}),
        json!({"tokenizer": "lowercase"}),
        json!({"tokenizer": "keyword"}),
        json!({"tokenizer": {"type": "char_group", "tokenize_on_chars": ["whitespace", "-", "punctuation"]}}),
        json!({"tokenizer": "ngram"}),
        json!({"tokenizer": {"type": "ngram", "min_gram": 2, "max_gram": 3, "token_chars": ["letter", "digit"]}}),
        json!({"tokenizer": {"type": "edge_ngram", "min_gram": 1, "max_gram": 4, "token_chars": ["letter"]}}),
        json!({"tokenizer": "edge_ngram"}),
        json!({"tokenizer": "pattern"}),
        json!({"tokenizer": {"type": "pattern", "pattern": "([a-z]+)-(\\d+)", "group": 2}}),
        json!({"tokenizer": {"type": "pattern", "pattern": "\\s*[,.;]\\s*"}}),
        json!({"tokenizer": {"type": "simple_pattern", "pattern": "[0-9]+|[a-z]+"}}),
        json!({"tokenizer": {"type": "simple_pattern_split", "pattern": "[ ,.]+"}}),
        json!({"tokenizer": "path_hierarchy"}),
        json!({"tokenizer": {"type": "path_hierarchy", "delimiter": " ", "replacement": "|", "skip": 1}}),
        json!({"tokenizer": "keyword", "char_filter": [{"type": "mapping", "mappings": ["a => 4", "ph => f", "x => ks", "é => e"]}]}),
        json!({"tokenizer": "standard", "char_filter": [{"type": "mapping", "mappings": ["- => ", "' => _quote_"]}]}),
        json!({"tokenizer": "whitespace", "char_filter": [{"type": "pattern_replace", "pattern": "(\\d+)-(\\d+)", "replacement": "$1$2"}]}),
        json!({"tokenizer": "standard", "char_filter": [{"type": "pattern_replace", "pattern": "[aeiou]", "replacement": "<$0>"},
                                                        {"type": "mapping", "mappings": ["< => ", "> => "]}]}),
        json!({"tokenizer": "classic"}),
        json!({"tokenizer": {"type": "classic", "max_token_length": 5}}),
        json!({"tokenizer": "classic", "filter": ["classic"]}),
        json!({"tokenizer": "standard", "char_filter": ["html_strip"]}),
        json!({"tokenizer": "keyword", "char_filter": ["html_strip"]}),
        json!({"tokenizer": "whitespace", "char_filter": [{"type": "html_strip", "escaped_tags": ["b", "BR", "script"]}]}),
        json!({"tokenizer": "keyword", "char_filter": [{"type": "html_strip", "escaped_tags": ["style", "p"]}]}),
        json!({"tokenizer": "standard", "char_filter": ["html_strip", {"type": "mapping", "mappings": ["& => and"]}]}),
    ];
    let filters = [
        json!("lowercase"),
        json!("uppercase"),
        json!("asciifolding"),
        json!({"type": "asciifolding", "preserve_original": true}),
        json!("stop"),
        json!({"type": "stop", "stopwords": ["_english_", "Data"], "ignore_case": true}),
        json!("trim"),
        json!({"type": "truncate", "length": 3}),
        json!({"type": "length", "min": 2, "max": 5}),
        json!({"type": "limit", "max_token_count": 3}),
        json!("unique"),
        json!("reverse"),
        json!("keyword_repeat"),
        json!("remove_duplicates"),
        json!({"type": "elision", "articles": ["l", "d"], "articles_case": true}),
        json!("apostrophe"),
        json!("edge_ngram"),
        json!({"type": "edge_ngram", "min_gram": 2, "max_gram": 4, "side": "back"}),
        json!("ngram"),
        json!({"type": "ngram", "min_gram": 3, "max_gram": 3}),
        json!({"type": "keyword_marker", "keywords": ["data"]}),
        json!({"type": "pattern_replace", "pattern": "([aeiou])", "replacement": "_$1"}),
        json!({"type": "pattern_replace", "pattern": "a", "replacement": "", "all": false}),
        json!("decimal_digit"),
        json!("cjk_width"),
        json!("porter_stem"),
        json!({"type": "stemmer", "language": "english"}),
        json!({"type": "stemmer", "language": "minimal_english"}),
        json!({"type": "stemmer", "name": "possessive_english"}),
        json!("shingle"),
        json!({"type": "shingle", "min_shingle_size": 2, "max_shingle_size": 4, "output_unigrams": false}),
        json!({"type": "shingle", "min_shingle_size": 3, "max_shingle_size": 3, "output_unigrams": false,
               "output_unigrams_if_no_shingles": true, "token_separator": "", "filler_token": "-"}),
        json!("fingerprint"),
        json!({"type": "pattern_capture", "patterns": ["(\\p{Ll}+|\\p{Lu}\\p{Ll}+|\\p{Lu}+)", "(\\d+)"]}),
        json!({"type": "pattern_capture", "preserve_original": false, "patterns": ["([a-z]{2})([a-z]?)", "(a)|(e)|(o)", "x*"]}),
        json!({"type": "pattern_capture", "patterns": ["(([a-z]+)(\\d*))"]}),
        json!({"type": "common_grams", "common_words": ["the", "of", "a", "and", "data"]}),
        json!("cjk_bigram"),
        json!({"type": "cjk_bigram", "output_unigrams": true}),
        json!({"type": "cjk_bigram", "ignored_scripts": ["hiragana", "hangul"], "output_unigrams": true}),
        json!({"type": "common_grams", "common_words": "_english_", "ignore_case": true, "query_mode": true}),
        json!({"type": "common_grams", "common_words": ["the", "of", "Data"], "query_mode": true}),
        json!({"type": "fingerprint", "max_output_size": 12, "separator": "_"}),
    ];
    // The stacked stems ES's docs pair keyword_repeat with.
    s.push(
        json!({"tokenizer": "standard", "filter": ["lowercase", "keyword_repeat", "porter_stem", "remove_duplicates"]}),
    );
    s.push(json!({"tokenizer": "standard", "filter": ["keyword_repeat", "kstem", {"type": "unique", "only_on_same_position": true}]}));
    for f in filters {
        s.push(json!({"tokenizer": "standard", "filter": [f]}));
        s.push(json!({"tokenizer": "standard", "filter": [{"type": "keyword_marker", "keywords": ["running", "Data"]}, f]}));
        s.push(json!({"tokenizer": "whitespace", "filter": ["lowercase", {"type": "stop", "stopwords": ["the", "of"]}, f]}));
    }
    s
}

fn tricky_texts() -> Vec<String> {
    [
        "",
        " ",
        "The 2 QUICK Brown-Foxes jumped over the lazy dog's bone.",
        "x² CO₂ H₂O ½ 3.14 1,000.5 e-mail don't O'Neil l'avion d’eau",
        "☕ 👍🏽 👨‍👩‍👧 🇫🇷 #️⃣ 1️⃣ ©",
        "日本語のテキスト カタカナ ひらがな 한국어 ภาษาไทย",
        "ｶﾀｶﾅ ｶﾞｷﾞｸﾞ ﾊﾟﾋﾟ ﾞｳﾞ ｱﾟ ＡＢＣ１２３！ ｬｭｮ･ｰ",
        "Ünïcödé ÀÉÎÕÜ ß ﬁ Œuvre straße ٣٤٥ १२३",
        "<p>Some <b>bold</b> &amp; html</p>",
        "https://example.org/a/b?c=d#e user@example.org /usr/local/bin",
        "tab\tnew\nline\r\nnbsp\u{a0}end\u{2003}em",
        "abc-123 def-45, ghi;jkl . mno",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "data DATA Data the of phone x-ray 𝒳𝓎",
        "<html><head><title>T&eacute;st</title><style type=\"text/css\">p { x: '<b>' }</style></head>",
        "<body onload=\"if (a > b) go('x')\"><p class=a>One<br>two<br/>three< br >four</br ></p>",
        "<script language='js'><!-- if (a<b) { c = \"</script>\" } --></script>after",
        "<!-- comment <b>x</b> -->z<!DOCTYPE html><?xml version=\"1.0\"?><![CDATA[ raw <b> ]]>y",
        "&amp &amp; &AMP; &Amp; &#65; &#x41; &#x1F600; &#55357;&#56832; &#xD83D;&#xDE00; &#99999999; &#xD800; &notit; &nbsp;x",
        "a < b > c <b <i>x</i> </ b> <b\ta=1>y</b\n> <:x>z</:x> <_y/> <1> <3 &",
        "<p unclosed <a href=\"x>y\">link</a> <!--#include file=\"x-->y\" --> tail <!-- open",
        "<![CDATA[never closed",
        "<SCRIPT>x</SCRIPT >y<Style>z</  style>w <scripts>v</scripts>",
        "<span>Ünï</span><img src=x alt='a>b'/>q &lt;b&gt; <ｂ>日本</ｂ>",
        "<b",
        "&#x",
        "&eacute",
        "一 二三 四五六七 a八 九十x 日本語のテキストです 東京タワー ひらがなカタカナ 한국어 문장 中 文",
        "中a国 🀄 𠀀𠀁 日本 𠀀 ｶﾀｶﾅ 漢字漢字漢字",
        "O'Reilly's you're I.B.M. U.S.A. AT&T Excite@Home bob.smith-x@mail.example.co.uk www.apache.org 1.2.3.4",
        "3.14 1,000 x-1 ab-12-cd-34 a1/b2 2005-01-02 R2D2 wi-fi a.b.c. 1.2.3. 12_ab ,x, 'a' a'b'c a@b a@b.c",
        "日本語テキスト 한국어 ไทย๑๒ ١٢٣ Ⅻ 𝒳𝓎 ﬁ \r\n x.y.z@q.r",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The first distinct strings of each demo corpus file.
fn corpus_texts(per_file: usize) -> Vec<String> {
    let mut out = Vec::new();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/demo");
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).collect();
    files.sort();
    for path in files.iter().filter(|p| p.to_string_lossy().ends_with(".ndjson.gz")) {
        let reader = std::io::BufReader::new(flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap()));
        let mut taken = std::collections::BTreeSet::new();
        for line in reader.lines() {
            let doc: Value = serde_json::from_str(&line.unwrap()).unwrap();
            let mut stack = vec![doc];
            while let Some(v) = stack.pop() {
                match v {
                    Value::String(s) if s.len() < 2000 => {
                        taken.insert(s);
                    }
                    Value::Array(a) => stack.extend(a),
                    Value::Object(o) => stack.extend(o.into_iter().map(|(_, v)| v)),
                    _ => {}
                }
            }
            if taken.len() >= per_file {
                break;
            }
        }
        out.extend(taken);
    }
    out
}

/// An `_analyze` request of a body built here (always well formed).
fn request(body: &Value) -> metagate::AnalyzeRequest {
    metagate::AnalyzeRequest::parse(&body.to_string()).unwrap_or_else(|e| panic!("{body}: {}", e.reason()))
}

/// metagate's tokens in the oracle's line format.
fn metagate(spec: &Value, text: &str) -> String {
    let mut body = spec.clone();
    body["text"] = json!(text);
    // A configured analyzer is an index's: defined in its settings, named in the request.
    let answer = match &spec["analyzer"] {
        Value::Object(def) => {
            body["analyzer"] = json!("configured");
            metagate::analyze_request_with_analysis(&json!({"analyzer": {"configured": def}}), &request(&body))
        }
        _ => metagate::analyze_request(&request(&body)),
    }
    .map(|r| r.to_json())
    .unwrap_or_else(|e| panic!("{spec}: {}", e.reason()));
    oracle_line(&answer)
}

/// Markup pieces that [`generated_markup`] strings together.
const MARKUP: &[&str] = &[
    "<", ">", "/", "!", "-", "--", "&", "#", ";", "x", "'", "\"", "\\", " ", "\n", "=", "?", "[CDATA[", "]]>", "b",
    "br", "script", "style", "span", "p", "div", "onclick", "on", "Click", "amp", "eacute", "lt", "#x41", "#65",
    "#55357", "#56832", "#xD83D", "#xDE00", "<!--#", "-->", "é", "😀", "日", "text", "BR", "SCRIPT", "a1",
];

/// Pieces of joined words, numbers, hosts and addresses that [`generated`] strings together.
const WORDISH: &[&str] = &[
    "a",
    "Ab",
    "x1",
    "42",
    "3",
    ".",
    "-",
    "_",
    "/",
    ",",
    "'",
    "&",
    "@",
    " ",
    "s",
    "S",
    "ไทย",
    "๑",
    "中",
    "한",
    "é",
    "\u{E31}",
    "\u{663}",
    "ﬁ",
    "😀",
    "\n",
    "www",
    "com",
    "I",
    "B",
    "M",
];

/// Deterministic pseudo-random strings of markup pieces (a fixed linear congruential
/// sequence), for the scanners that must agree with Lucene on every odd input.
fn generated_markup(count: usize) -> Vec<String> {
    generated(MARKUP, count)
}

/// Deterministic pseudo-random strings of `pieces`.
fn generated(pieces_of: &[&str], count: usize) -> Vec<String> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    (0..count)
        .map(|_| {
            let pieces = 1 + next() % 24;
            (0..pieces).map(|_| pieces_of[next() % pieces_of.len()]).collect()
        })
        .collect()
}

/// Compares metagate with Lucene for every spec over every text; returns the differences.
fn differences(specs: &[Value], texts: &[String]) -> Vec<String> {
    let lines: Vec<(String, String)> =
        specs.iter().flat_map(|s| texts.iter().map(move |t| (s.to_string(), t.clone()))).collect();
    let theirs = lucene_tokens(&lines);
    assert_eq!(theirs.len(), lines.len());
    let mut differ = Vec::new();
    for ((spec, text), lucene) in lines.iter().zip(&theirs) {
        assert_ne!(lucene, "ERR", "Lucene refused {spec}");
        let ours = metagate(&serde_json::from_str(spec).unwrap(), text);
        if ours != *lucene {
            differ.push(format!("{spec} {text:?}\n  metagate {ours}\n  lucene   {lucene}"));
        }
    }
    differ
}

#[test]
fn html_strip_agrees_on_generated_markup() {
    let specs = [
        json!({"tokenizer": "keyword", "char_filter": ["html_strip"]}),
        json!({"tokenizer": "whitespace", "char_filter": [{"type": "html_strip", "escaped_tags": ["b", "br", "script", "style", "span"]}]}),
    ];
    let differ = differences(&specs, &generated_markup(3000));
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.iter().take(8).cloned().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn classic_agrees_on_generated_words() {
    let specs = [
        json!({"tokenizer": "classic", "filter": ["classic"]}),
        json!({"tokenizer": {"type": "classic", "max_token_length": 4}}),
    ];
    let differ = differences(&specs, &generated(WORDISH, 3000));
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.iter().take(8).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Pieces of URLs, hosts and addresses that [`generated`] strings together for
/// `uax_url_email`, with the words, CJK and emoji around them.
const URLISH: &[&str] = &[
    "http://",
    "https://",
    "HTTP://",
    "ftp://",
    "file://",
    "mailto:",
    "www.",
    "example",
    "Example",
    "com",
    "co",
    "COM",
    "uk",
    "org",
    "xn--p1ai",
    "museum",
    "localhost",
    "test",
    ".",
    ".",
    "..",
    ":",
    "8080",
    "65536",
    "/",
    "//",
    "path",
    "?",
    "q=1",
    "&",
    "#",
    "frag",
    "@",
    "@",
    "user",
    "+tag",
    "-",
    "_",
    "~",
    "%20",
    "%zz",
    "[",
    "]",
    "::1",
    "2001:db8::",
    "ffff:",
    "192.168.0.1",
    "256.1.1.1",
    "10.0.0",
    "\"",
    "quoted str",
    "\\",
    ",",
    ";",
    "(",
    ")",
    "'",
    "!",
    "=",
    "*",
    " ",
    " ",
    "\n",
    "é",
    "中文",
    "日本",
    "カタカナ",
    "😀",
    "1️⃣",
    "ß",
    "a\u{301}",
    "\u{200D}",
    "²",
    "٣",
    ";type=a",
    "s",
    "x",
];

/// Texts of URLs and addresses in their many shapes, and next to other words.
fn url_email_texts() -> Vec<String> {
    let mut texts: Vec<String> = [
        "Visit https://www.example.com/path/to?q=1&r=2#frag now, or http://user:pw@host:8080/x.",
        "mail john.doe+tag@example.co.uk, \"quoted name\"@example.org or a@[192.168.0.1] a@[IPv6:2001:db8::1]",
        "mailto:test@example.org MAILTO:x@y.com mailto:nobody mailto:a@b",
        "example.com example.comx example.com- example.com_ example.com. example.co example.co.uk-x foo.bar",
        "www.apache.org/foo?x=y ftp://ftp.example.org/pub/file.txt;type=i file:///etc/passwd file://host/p#f",
        "http://[::1]:80/ http://[2001:db8::ff00:42:8329]/x [::1] 192.168.0.1:8080/x 1.2.3.4 999.1.1.1/x",
        "https://例え.jp/パス 中文https://example.com/中文 😀user@example.com😀 user@example.com。",
        "trailing punctuation: (http://example.com/a), <user@example.org>; 'example.org'! \"http://x.org\"",
        "a,b@x.com .foo@example.com foo..bar@example.com @example.com user@ user@localhost user@example",
        "HTTP://EXAMPLE.COM/A%20B EXAMPLE.ORG ExAmPlE.CoM:8080 http://example.com:123456/ http://a.b",
        "xn--p1ai.xn--p1ai example.museum example.london.uk a.b.c.d.e.f.g.com 1.com 1-2.net -a.com a-.com",
        "http://example.com/very/long/path/that/goes/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/and/on/x",
        "someone.with.a.really.long.local.part.that.keeps.going.and.going.and.going.and.going.and.going.and.going.and.going.and.going.and.going.and.going.and.going.and.going.and.going.and.going.and.going.and.going.and.going.and.going.and.going.and.going.and.going@example.com",
        "1️⃣ #️⃣ 👍🏽 🇫🇷 日本語のテキスト 한국어 ภาษาไทย example.com ไทย.com",
        ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,@example.com",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    texts.push(
        "old.statoil.no shop.doha a.iwc b.xperia:80 example.ca example.cat example.cats example.co example.com. x.comx"
            .to_string(),
    );
    // Every top-level domain of metagate's table, in hosts, URLs and addresses, some
    // uppercased, each followed by a character that keeps or breaks the bare host.
    let table = include_str!("../src/analysis/url_tlds.rs");
    let tlds: Vec<&str> = table.split('"').skip(1).step_by(2).collect();
    assert!(tlds.len() > 1500);
    for (n, chunk) in tlds.chunks(40).enumerate() {
        let followers = [" ", "x", "-", ".", "/p", "é", "@", ":8"];
        let text: Vec<String> = chunk
            .iter()
            .enumerate()
            .map(|(i, tld)| {
                let tld = if (i + n) % 3 == 0 { tld.to_uppercase() } else { tld.to_string() };
                match i % 3 {
                    0 => format!("host.{tld}{}", followers[(i + n) % followers.len()]),
                    1 => format!("http://a.b.{tld}/x?y "),
                    _ => format!("user@mail.{tld}{}", followers[(i + 2 * n) % followers.len()]),
                }
            })
            .collect();
        texts.push(text.join(" "));
    }
    texts.push("a.".repeat(300) + "com");
    texts.push("x".repeat(300) + "@example.com " + &"y".repeat(250) + ".com");
    texts
}

#[test]
fn uax_url_email_agrees_on_urls_and_addresses() {
    let specs = [
        json!({"tokenizer": "uax_url_email"}),
        json!({"tokenizer": {"type": "uax_url_email", "max_token_length": 12}}),
        json!({"tokenizer": {"type": "uax_url_email", "max_token_length": 1}}),
        json!({"tokenizer": "uax_url_email", "filter": ["lowercase", {"type": "stop", "stopwords": ["the", "and"]}]}),
    ];
    let mut texts = tricky_texts();
    texts.extend(url_email_texts());
    texts.extend(corpus_texts(40));
    texts.extend(generated(URLISH, 4000));
    let differ = differences(&specs, &texts);
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.iter().take(12).cloned().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn every_component_gives_lucenes_tokens() {
    let mut texts = tricky_texts();
    texts.extend(corpus_texts(40));
    compare(&specs(), &texts);
}

/// `word_delimiter`, `word_delimiter_graph` (each option, and both after filters that
/// change offsets or positions) and `flatten_graph`.
fn word_delimiter_specs() -> Vec<Value> {
    let options = [
        json!({}),
        json!({"catenate_words": true, "catenate_numbers": true}),
        json!({"catenate_all": true, "preserve_original": true}),
        json!({"catenate_words": true, "catenate_numbers": true, "catenate_all": true, "preserve_original": true}),
        json!({"generate_word_parts": false, "catenate_all": true}),
        json!({"generate_number_parts": false, "catenate_words": true, "preserve_original": true}),
        json!({"generate_word_parts": false, "generate_number_parts": false, "catenate_numbers": true}),
        json!({"split_on_case_change": false, "split_on_numerics": false, "stem_english_possessive": false}),
        json!({"protected_words": ["wi-fi", "R2D2", "e-mail"], "catenate_words": true}),
        json!({"protected_words": ["WI-FI", "r2d2"], "protected_words_case": true}),
        json!({"type_table": ["$ => DIGIT", "% => DIGIT", ". => DIGIT", "\\u002C => DIGIT", "' => ALPHA", "- => ALPHANUM", "_ => SUBWORD_DELIM", "x => UPPER", "a => LOWER"], "catenate_all": true}),
    ];
    let mut s = Vec::new();
    for ty in ["word_delimiter_graph", "word_delimiter"] {
        for o in &options {
            let mut f = o.clone();
            f["type"] = json!(ty);
            s.push(json!({"tokenizer": "whitespace", "filter": [f]}));
        }
        s.push(json!({"tokenizer": "standard", "filter": [ty]}));
        s.push(
            json!({"tokenizer": "keyword", "filter": [{"type": ty, "catenate_all": true, "preserve_original": true}]}),
        );
        // Offsets that no longer match the term (a char filter, a stemmer before).
        s.push(
            json!({"tokenizer": "whitespace", "char_filter": [{"type": "mapping", "mappings": ["- => --", "ph => f"]}],
                      "filter": [{"type": ty, "catenate_words": true}]}),
        );
        s.push(json!({"tokenizer": "whitespace", "filter": ["porter_stem", {"type": ty, "catenate_all": true, "preserve_original": true}]}));
        // Holes before, stacked tokens before, and a stemmer after.
        s.push(json!({"tokenizer": "whitespace", "filter": [{"type": "stop", "stopwords": ["the", "of", "-", "a"]}, {"type": ty, "catenate_words": true}]}));
        s.push(json!({"tokenizer": "whitespace", "filter": [{"type": "asciifolding", "preserve_original": true}, {"type": ty, "catenate_all": true}, "lowercase", "porter_stem"]}));
        s.push(json!({"tokenizer": "whitespace", "filter": [{"type": "keyword_marker", "keywords": ["Wi-Fi"]}, ty, "porter_stem"]}));
    }
    s.push(json!({"tokenizer": "whitespace", "filter": [{"type": "word_delimiter_graph", "adjust_offsets": false, "catenate_all": true, "preserve_original": true}]}));
    for wdg in [
        json!("word_delimiter_graph"),
        json!({"type": "word_delimiter_graph", "catenate_words": true, "catenate_numbers": true, "catenate_all": true, "preserve_original": true}),
        json!({"type": "word_delimiter_graph", "generate_word_parts": false, "catenate_all": true}),
    ] {
        s.push(json!({"tokenizer": "whitespace", "filter": [wdg.clone(), "flatten_graph"]}));
        s.push(json!({"tokenizer": "whitespace", "filter": [{"type": "stop", "stopwords": ["the", "of", "-"]}, wdg, "flatten_graph"]}));
    }
    s.push(json!({"tokenizer": "standard", "filter": ["flatten_graph"]}));
    s.push(json!({"tokenizer": "standard", "filter": [{"type": "shingle", "max_shingle_size": 3}, "flatten_graph"]}));
    s.push(json!({"tokenizer": "standard", "filter": [{"type": "shingle", "min_shingle_size": 2, "max_shingle_size": 4, "output_unigrams": false}, "flatten_graph"]}));
    s.push(
        json!({"tokenizer": "standard", "filter": [{"type": "cjk_bigram", "output_unigrams": true}, "flatten_graph"]}),
    );
    s
}

#[test]
fn word_delimiters_give_lucenes_tokens() {
    let mut texts = tricky_texts();
    texts.extend(
        [
            "PowerShot SD500 wi-fi Wi-Fi O'Neil's j2se 500-42 -hello---there 'dude' A's+B's&C's Super-Duper-XL500-42-AutoCoder!",
            "R2D2 r2d2 WI-FI e-mail $42 33% 1,000.5 x-ray ax ab_cd a__b _ -- ' 's 's-s foo's bar'S 4's a's-b",
            "ªº µß Ünï-Çödé ΑΒγδ ǅemal 𝒳𝓎-z 日本-語 ٣٤-٥ Ⅻ-x ½-1 a\u{301}b a\u{200D}b",
            "the wi-fi of - a B-52 THE-END",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    texts.extend(corpus_texts(20));
    let generated = generated(WORDISH, 1500);
    // The generated texts go through the whitespace tokenizer only: they hold Thai signs
    // whose standard-tokenizer types, and astral characters whose Porter stems, metagate
    // does not yet give as Lucene does (those components' own gaps, not the filters').
    let (standard, whitespace): (Vec<Value>, Vec<Value>) =
        word_delimiter_specs().into_iter().partition(|s| s["tokenizer"] == "standard");
    let (porter, plain): (Vec<Value>, Vec<Value>) =
        whitespace.into_iter().partition(|s| s.to_string().contains("porter_stem"));
    let all: Vec<String> = texts.iter().chain(&generated).cloned().collect();
    compare(&plain, &all);
    let bmp = |t: &&String| t.chars().all(|c| c.len_utf16() == 1);
    compare(&porter, &all.iter().filter(bmp).cloned().collect::<Vec<_>>());
    compare(&standard, &texts);
}

/// The stemming components and language analyzers, over each language's sample text
/// (tests/analysis_texts/, each line a text) and the demo corpus.
fn language_specs() -> Vec<Value> {
    let mut s = vec![
        json!({"analyzer": "snowball"}),
        json!({"analyzer": {"type": "snowball", "language": "Dutch"}}),
        json!({"analyzer": {"type": "snowball", "language": "German"}}),
        json!({"analyzer": {"type": "snowball", "language": "German2", "stopwords": ["und"]}}),
        json!({"analyzer": {"type": "snowball", "language": "Portuguese"}}),
        json!({"analyzer": {"type": "snowball", "language": "Russian", "stopwords": ["и", "в"]}}),
        json!({"analyzer": {"type": "dutch", "stem_exclusion": ["fietsten"]}}),
        json!({"tokenizer": "standard", "filter": ["lowercase", {"type": "stemmer_override", "rules": ["kinderen => kind", "fietsen=>fiets"]}, "snowball"]}),
    ];
    for analyzer in [
        "danish",
        "dutch",
        "norwegian",
        "romanian",
        "russian",
        "swedish",
        "german",
        "italian",
        "spanish",
        "french",
        "portuguese",
    ] {
        s.push(json!({"analyzer": analyzer}));
        s.push(json!({"analyzer": {"type": analyzer, "stopwords": "_none_", "stem_exclusion": ["the"]}}));
    }
    for analyzer in [
        "arabic",
        "armenian",
        "basque",
        "bengali",
        "bulgarian",
        "catalan",
        "czech",
        "finnish",
        "hindi",
        "indonesian",
        "irish",
        "latvian",
        "sorani",
        "turkish",
        "hungarian",
        "estonian",
        "lithuanian",
        "galician",
        "brazilian",
    ] {
        s.push(json!({"analyzer": analyzer}));
        s.push(json!({"analyzer": {"type": analyzer, "stopwords": "_none_", "stem_exclusion": ["the"]}}));
    }
    s.push(json!({"analyzer": "persian"}));
    s.push(json!({"analyzer": {"type": "persian", "stopwords": ["و"]}}));
    s.push(json!({"analyzer": "greek"}));
    s.push(json!({"analyzer": {"type": "greek", "stopwords": "_none_"}}));
    s.push(json!({"tokenizer": "standard", "filter": [{"type": "lowercase", "language": "greek"}, {"type": "stemmer", "language": "greek"}]}));
    s.push(json!({"analyzer": "cjk"}));
    s.push(json!({"analyzer": {"type": "cjk", "stopwords": "_none_"}}));
    for filter in [
        "arabic_normalization",
        "persian_normalization",
        "sorani_normalization",
        "indic_normalization",
        "hindi_normalization",
        "bengali_normalization",
        "arabic_stem",
        "czech_stem",
    ] {
        s.push(json!({"tokenizer": "standard", "filter": [filter]}));
    }
    s.push(json!({"tokenizer": "standard", "filter": [{"type": "lowercase", "language": "turkish"}]}));
    s.push(json!({"tokenizer": "standard", "filter": [{"type": "lowercase", "language": "irish"}]}));
    s.push(json!({"tokenizer": "standard", "filter": [{"type": "lowercase", "language": "greek"}]}));
    s.push(json!({"tokenizer": "standard", "filter": ["lowercase", "kstem"]}));
    s.push(json!({"tokenizer": "standard", "filter": ["kstem"]}));
    s.push(json!({"tokenizer": "standard", "filter": ["lowercase", {"type": "keyword_marker", "keywords": ["running"]}, "kstem"]}));
    s.push(
        json!({"tokenizer": "whitespace", "filter": ["lowercase", {"type": "stemmer", "language": "light_english"}]}),
    );
    s.push(json!({"tokenizer": "standard", "filter": ["lowercase", {"type": "stemmer", "language": "lightEnglish"}]}));
    s.push(json!({"tokenizer": "standard", "filter": ["lowercase", {"type": "stemmer", "name": "KStem"}]}));
    s.push(json!({"tokenizer": "standard", "filter": ["german_normalization"]}));
    s.push(json!({"tokenizer": "standard", "filter": ["scandinavian_normalization"]}));
    for language in [
        "light_french",
        "light_german",
        "light_italian",
        "light_portuguese",
        "light_spanish",
        "minimal_french",
        "minimal_german",
        "light_swedish",
        "light_russian",
        "light_finnish",
        "light_hungarian",
        "light_norwegian",
        "light_nynorsk",
        "minimal_norwegian",
        "minimal_nynorsk",
        "arabic",
        "bulgarian",
        "czech",
        "indonesian",
        "latvian",
        "sorani",
        "hindi",
        "bengali",
        "galician",
        "minimal_galician",
        "portuguese_rslp",
        "brazilian",
    ] {
        s.push(json!({"tokenizer": "standard", "filter": ["lowercase", {"type": "stemmer", "language": language}]}));
        s.push(json!({"tokenizer": "standard", "filter": [{"type": "keyword_marker", "keywords": ["Data"]}, {"type": "stemmer", "language": language}]}));
    }
    for language in [
        "porter2",
        "Danish",
        "dutch",
        "finnish",
        "french",
        "italian",
        "norwegian",
        "romanian",
        "russian",
        "spanish",
        "swedish",
        "turkish",
        "armenian",
        "basque",
        "catalan",
        "irish",
        "porter",
        "german",
        "German2",
        "portuguese",
        "hungarian",
        "estonian",
        "lithuanian",
    ] {
        s.push(json!({"tokenizer": "standard", "filter": ["lowercase", {"type": "stemmer", "language": language}]}));
        s.push(json!({"tokenizer": "standard", "filter": ["lowercase", {"type": "keyword_marker", "keywords": ["data"]}, {"type": "snowball", "language": language.replace("porter2", "English")}]}));
    }
    s
}

fn language_texts() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/analysis_texts");
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).collect();
    files.sort();
    let mut texts: Vec<String> = files
        .iter()
        .flat_map(|p| std::fs::read_to_string(p).unwrap().lines().map(str::to_string).collect::<Vec<_>>())
        .collect();
    texts.extend(tricky_texts());
    texts.extend(corpus_texts(10));
    texts
}

#[test]
fn stemmers_and_language_analyzers_give_lucenes_tokens() {
    compare(&language_specs(), &language_texts());
}

/// Every spec over every text, through Lucene and metagate: all tokens must be equal.
fn compare(specs: &[Value], texts: &[String]) {
    let lines: Vec<(String, String)> =
        specs.iter().flat_map(|s| texts.iter().map(move |t| (s.to_string(), t.clone()))).collect();
    let theirs = lucene_tokens(&lines);
    assert_eq!(theirs.len(), lines.len());
    let decode = |line: &str| -> Vec<String> {
        line.split(' ')
            .filter(|t| !t.is_empty())
            .map(|t| {
                let mut f: Vec<String> = t.split(',').map(str::to_string).collect();
                for i in [0, 5] {
                    f[i] = String::from_utf8(base64::engine::general_purpose::STANDARD.decode(&f[i]).unwrap()).unwrap();
                }
                f.join(",")
            })
            .collect()
    };
    let mut differ = Vec::new();
    for ((spec, text), lucene) in lines.iter().zip(&theirs) {
        assert_ne!(lucene, "ERR", "Lucene refused {spec}");
        if spec.contains("truncate") && text.chars().any(|c| c.len_utf16() == 2) {
            // Lucene may cut a surrogate pair in half, which no UTF-8 term can hold:
            // metagate keeps the pair whole (documented in token_filters.rs).
            continue;
        }
        let ours = metagate(&serde_json::from_str(spec).unwrap(), text);
        if ours != *lucene {
            differ.push(format!("{spec} {text:?}\n  metagate {:?}\n  lucene   {:?}", decode(&ours), decode(lucene)));
        }
    }
    println!("{} specs x {} texts, {} differ", specs.len(), texts.len(), differ.len());
    if std::env::var("ANALYSIS_DIFFS").is_ok() {
        for d in &differ {
            println!("DIFF {d}");
        }
    }
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.iter().take(12).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Words that the synonym rules of [`synonym_specs`] name, for generated texts.
const SYNONYM_WORDS: &[&str] = &[
    "a ", "b ", "c ", "d ", "x ", "y ", "The ", "quick ", "fast ", "fox ", "ny ", "New ", "york ", "city ", "of ",
    "usa ", "wi-fi ", "running ", "runs ", "big ", "apple ", "a",
];

/// `synonym` and `synonym_graph` over rules that overlap, nest and run past the input,
/// in both formats, with the chain before the filter analysing the rules.
fn synonym_specs() -> Vec<Value> {
    let solr = json!([
        "# a comment",
        "a, b",
        "quick, fast, speedy",
        "ny, new york",
        "new york city => nyc, big apple, gotham",
        "a b c => x",
        "b c d, bcd",
        "fox => foxy, fox",
        "x y => z y x w",
        "c => c d e f",
        "wi-fi, wifi, wireless fidelity",
        "run, sprint",
        "apple\\, inc, apple"
    ]);
    let mut s = Vec::new();
    for ty in ["synonym", "synonym_graph"] {
        s.push(json!({"tokenizer": "whitespace", "filter": ["lowercase", {"type": ty, "synonyms": solr}]}));
        s.push(
            json!({"tokenizer": "standard", "filter": ["lowercase", {"type": ty, "synonyms": solr, "expand": false}]}),
        );
        s.push(json!({"tokenizer": "standard", "filter": [{"type": "stop", "stopwords": ["of", "the"]},
            {"type": ty, "lenient": true, "synonyms": ["the fox, the dog", "usa, united states of america", "A, B", "york => new york"]}]}));
        s.push(json!({"tokenizer": "standard", "filter": ["lowercase", "porter_stem", {"type": ty, "synonyms": ["running, sprinting", "fast => quick"]}]}));
        s.push(json!({"tokenizer": "standard", "filter": ["lowercase",
            {"type": ty, "synonyms": ["a, b", "b c => d"]}, {"type": ty, "synonyms": ["d, x y", "quick => fast"]}]}));
        s.push(json!({"tokenizer": "standard", "filter": ["lowercase", {"type": ty, "format": "wordnet", "synonyms": [
            "s(100000001,1,'quick',a,1,0).", "s(100000001,2,'fast',a,1,0).", "s(100000001,3,'speedy',a,1,0).",
            "s(100000002,1,'new york',n,1,0).", "s(100000002,2,'ny',n,1,0).", "s(100000003,1,'o''fox',n,1,0).",
            "s(100000004,1,'a',n,1,0).", "s(100000004,2,'b c',n,1,0)."]}]}));
        s.push(json!({"tokenizer": "standard", "filter": ["lowercase", {"type": ty, "format": "wordnet", "expand": false, "synonyms": [
            "s(100000001,1,'quick',a,1,0).", "s(100000001,2,'fast',a,1,0).", "s(100000002,1,'new york',n,1,0).", "s(100000002,2,'ny',n,1,0)."]}]}));
        s.push(json!({"tokenizer": "standard", "filter": ["lowercase", {"type": ty, "synonyms": []}]}));
    }
    s
}

#[test]
fn synonyms_give_lucenes_tokens() {
    let mut texts = generated(SYNONYM_WORDS, 1500);
    texts.extend(tricky_texts());
    texts.extend(corpus_texts(5));
    compare(&synonym_specs(), &texts);
}

/// KStem over the demo corpus's words, each also with the endings its steps handle, and
/// the English sample text: every path through its dictionary lookups.
#[test]
fn kstem_agrees_on_inflected_words() {
    let mut words = std::collections::BTreeSet::new();
    let sample = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/analysis_texts/en.txt")).unwrap();
    for text in corpus_texts(60).iter().chain(std::iter::once(&sample)) {
        for w in text.split(|c: char| !c.is_ascii_alphabetic()).filter(|w| w.len() > 2) {
            words.insert(w.to_ascii_lowercase());
        }
    }
    let endings = [
        "", "s", "es", "ies", "ed", "ied", "ing", "ity", "ness", "ion", "ation", "ition", "ization", "ication", "er",
        "or", "ier", "izer", "ly", "ally", "ably", "ily", "al", "ial", "ical", "ive", "ative", "ize", "ment", "able",
        "ible", "ism", "ic", "ency", "ancy", "ence", "ance", "ted", "ting", "led", "ling",
    ];
    let inflected: Vec<String> = words.iter().flat_map(|w| endings.iter().map(move |e| format!("{w}{e}"))).collect();
    let texts: Vec<String> = inflected.chunks(300).map(|c| c.join(" ")).collect();
    let specs = [
        json!({"tokenizer": "whitespace", "filter": ["kstem"]}),
        json!({"tokenizer": "whitespace", "filter": [{"type": "stemmer", "language": "light_english"}]}),
    ];
    compare(&specs, &texts);
}
