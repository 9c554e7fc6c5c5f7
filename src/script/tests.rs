//! The language end to end: source in, Java's `String.valueOf` of the result out.

use super::*;

fn ok(src: &str) -> String {
    match eval_to_string(src) {
        Ok(s) => s,
        Err(e) => panic!("{src}: {e}"),
    }
}

fn fails(src: &str) -> String {
    eval_to_string(src).expect_err(src)
}

#[test]
fn arithmetic_follows_java() {
    assert_eq!(ok("1 + 2 * 3"), "7");
    assert_eq!(ok("7 / 2"), "3");
    assert_eq!(ok("-7 / 2"), "-3");
    assert_eq!(ok("-7 % 3"), "-1");
    assert_eq!(ok("7.0 / 2"), "3.5");
    assert_eq!(ok("2147483647 + 1"), "-2147483648");
    assert_eq!(ok("9223372036854775807L + 1"), "-9223372036854775808");
    assert_eq!(ok("-2147483648 / -1"), "-2147483648");
    assert_eq!(ok("1 / 0.0"), "Infinity");
    assert_eq!(ok("1 << 33"), "2");
    assert_eq!(ok("1L << 33"), "8589934592");
    assert_eq!(ok("-1 >>> 28"), "15");
    assert_eq!(ok("0x10 + 010"), "24");
    assert_eq!(ok("1.5f + 1"), "2.5");
    assert_eq!(ok("0.1f + 0.2"), "0.30000000149011613");
    assert_eq!(ok("(int) 3.99"), "3");
    assert_eq!(ok("(int) -3.99"), "-3");
    assert_eq!(ok("(long) 1e30"), "9223372036854775807");
    assert_eq!(ok("(byte) 300"), "44");
    assert_eq!(ok("(char) 65"), "A");
    assert_eq!(ok("(int) 'A'.charAt(0) + 1"), "66");
    assert_eq!(fails("1 / 0"), "arithmetic_exception: / by zero");
    assert_eq!(fails("5L % 0L"), "arithmetic_exception: / by zero");
}

#[test]
fn strings_concatenate_with_java_number_formatting() {
    assert_eq!(ok("'a' + 1 + 2"), "a12");
    assert_eq!(ok("1 + 2 + 'a'"), "3a");
    assert_eq!(ok("'x' + 1.0"), "x1.0");
    assert_eq!(ok("'x' + 1e7"), "x1.0E7");
    assert_eq!(ok("'x' + 1.0f/3"), "x0.33333334");
    assert_eq!(ok("'x' + null"), "xnull");
    assert_eq!(ok("\"it's\" + 'a\\'b'"), "it'sa'b");
    assert_eq!(ok("'abc'.substring(1) + 'abc'.indexOf('c') + 'ABC'.toLowerCase()"), "bc2abc");
    assert_eq!(ok("'  a b '.trim().replace(' ', '_')"), "a_b");
    assert_eq!(ok("'a,b,,c'.splitOnToken(',').length"), "4");
    assert_eq!(ok("'b'.compareTo('a')"), "1");
    assert_eq!(fails("'abc'.substring(5)"), "string_index_out_of_bounds_exception: begin 5, end 3, length 3");
}

#[test]
fn equality_is_equals_and_identity_is_triple() {
    assert_eq!(ok("def a = 1; def b = 1L; a == b"), "true");
    assert_eq!(ok("def a = 'x' + 'y'; a == 'xy'"), "true");
    assert_eq!(ok("def a = [1, 2]; def b = [1, 2]; (a == b) + ' ' + (a === b)"), "true false");
    assert_eq!(ok("def m = ['a': 1]; m == ['a': 1]"), "true");
    assert_eq!(ok("1 instanceof Integer"), "true");
    assert_eq!(ok("def x = 1L; x instanceof Integer"), "false");
}

#[test]
fn statements_and_loops() {
    assert_eq!(ok("int s = 0; for (int i = 0; i < 10; i++) { if (i % 2 == 0) continue; s += i; } return s;"), "25");
    assert_eq!(ok("def l = [1, 2, 3]; int s = 0; for (def x : l) { s += x } s"), "6");
    assert_eq!(ok("def l = [1, 2, 3]; int s = 0; for (x in l) { s += x; if (x == 2) break; } s"), "3");
    assert_eq!(ok("int i = 0; while (i < 5) { i++ } i"), "5");
    assert_eq!(ok("int i = 0; do { i += 2 } while (i < 5); i"), "6");
    assert_eq!(ok("def a = null; a ?: 'dflt'"), "dflt");
    assert_eq!(ok("def a = null; a?.length()"), "null");
    assert_eq!(ok("true ? 1 : 2"), "1");
    assert_eq!(ok("int x = 5; x += 2.7; x"), "7");
    assert_eq!(
        fails("int i = 0; while (true) { i++ }"),
        "painless_error: The maximum number of statements that can be executed in a loop has been reached."
    );
}

#[test]
fn collections_and_boxing() {
    assert_eq!(ok("def l = new ArrayList(); l.add(3); l.add(1); Collections.sort(l); l"), "[1, 3]");
    assert_eq!(ok("def m = [:]; m.put('k', 1); m.k + m['k'] + m.size()"), "3");
    assert_eq!(ok("def m = new HashMap(); m['a'] = 1; m.containsKey('a') && !m.isEmpty()"), "true");
    assert_eq!(ok("List l = [1, 2, 3]; l[-1] + l.get(0) + l.size()"), "7");
    assert_eq!(ok("Integer.parseInt('42') + Long.parseLong('-1') + Double.parseDouble('1.5')"), "42.5");
    assert_eq!(ok("Objects.equals(null, null) && Objects.isNull(null)"), "true");
    assert_eq!(ok("Math.max(1, 2L) + Math.abs(-3)"), "5");
    assert_eq!(ok("Math.round(2.5) + Math.round(-2.5)"), "1");
    assert_eq!(ok("def s = new HashSet(); s.add('a'); s.add('a'); s.size()"), "1");
    assert_eq!(ok("def sb = new StringBuilder(); sb.append('a').append(1); sb.toString()"), "a1");
    assert_eq!(fails("Integer.parseInt('x1')"), "number_format_exception: For input string: \"x1\"");
    assert_eq!(fails("[1].get(3)"), "index_out_of_bounds_exception: Index 3 out of bounds for length 1");
    assert_eq!(fails("def x = null; x.length()"), "null_pointer_exception: null");
    assert_eq!(
        fails("'a'.foo()"),
        "illegal_argument_exception: Unable to find dynamic method [foo] with [0] arguments for class [java.lang.String]."
    );
}

#[test]
fn declarations_convert_as_java_assigns() {
    assert_eq!(ok("long x = 1; x"), "1");
    assert_eq!(ok("double d = 1; d"), "1.0");
    assert_eq!(ok("float f = 1L; f"), "1.0");
    assert!(fails("int x = 1L; x").starts_with("class_cast_exception"));
    assert!(fails("String s = 1; s").starts_with("class_cast_exception"));
}

#[test]
fn heaps_are_bounded() {
    let e = fails("def l = []; for (int i = 0; i < 900000; i++) { l.add(i); l.add(i); } l.size()");
    assert!(e.starts_with("circuit_breaking_exception"), "{e}");
    let e = fails("String s = 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'; while (true) { s = s + s; } s");
    assert!(e.starts_with("circuit_breaking_exception"), "{e}");
    // A list that holds itself prints as Java prints it, and nothing recurses forever.
    assert_eq!(ok("def l = []; l.add(l); l"), "[(this Collection)]");
    assert_eq!(ok("def a = []; def b = [a]; a.add(b); a.size()"), "1");
}

#[test]
fn errors_render_as_es_script_exceptions() {
    let s = Script::compile("int a = 1;\nint b = a / 0; return b;", serde_json::json!({}));
    let halt = s.run(&mut Heap::default(), &mut NoDocument).unwrap_err();
    let v = s.failure(Some("idx"), &halt).to_json();
    let reason = &v["error"]["failed_shards"][0]["reason"];
    assert_eq!(reason["type"], "script_exception");
    assert_eq!(reason["reason"], "runtime error");
    assert_eq!(reason["script_stack"], serde_json::json!(["int b = a / 0; ", "        ^---- HERE"]));
    assert_eq!(reason["caused_by"]["type"], "arithmetic_exception");
    assert_eq!(reason["lang"], "painless");
    assert_eq!(v["status"], 400);
    let bad = Script::compile("while (true) {}", serde_json::json!({}));
    let v = bad.check(Some("idx")).unwrap_err().to_json();
    assert_eq!(v["error"]["root_cause"][0]["reason"], "compile error");
    assert_eq!(v["error"]["failed_shards"][0]["reason"]["caused_by"]["reason"], "While loop has no escape.");
    let npe = Script::compile("def x = null; x.foo", serde_json::json!({}));
    let halt = npe.run(&mut Heap::default(), &mut NoDocument).unwrap_err();
    let v = npe.failure(None, &halt).to_json();
    assert_eq!(
        v["error"]["failed_shards"][0]["reason"]["caused_by"],
        serde_json::json!({"type": "null_pointer_exception", "reason": null})
    );
}

#[test]
fn request_scripts_parse_as_es_parses_them() {
    assert!(Script::parse(&serde_json::json!("1 + 1")).is_ok());
    let e = Script::parse(&serde_json::json!({"source": "1", "lang": "groovy"})).unwrap_err();
    assert_eq!(e.reason(), "script_lang not supported [groovy]");
    let e = Script::parse(&serde_json::json!({"id": "my_script"})).unwrap_err();
    assert_eq!((e.status, e.kind()), (404, "resource_not_found_exception"));
    let s = Script::parse(&serde_json::json!({"inline": "params.x * 2", "params": {"x": 21}})).unwrap();
    let mut heap = Heap::default();
    let v = s.run(&mut heap, &mut NoDocument).unwrap();
    assert_eq!(v, Value::Int(42));
}

#[test]
fn nothing_panics_on_hostile_input() {
    for src in [
        "",
        "(",
        ")",
        "[",
        "[:",
        "'",
        "\"",
        "/*",
        "1 +",
        "def",
        "for (",
        "for (;;",
        "x ->",
        "new",
        "new int[",
        "new int[-1]",
        "(int)",
        "a.b.c",
        "doc[",
        "params[",
        "1..2",
        "0x",
        "99999999999",
        "1e",
        "-",
        "!",
        "~'a'",
        "[1,2][5]",
        "'abc'.charAt(-1)",
        "Math.max()",
        "((((((((((",
        "def x = [:]; x[x] = x; x.toString()",
        "int x = 2147483648",
        "return",
        "break",
        "continue",
        "if (1) {}",
        "for (def x : 5) {}",
    ] {
        let _ = eval_to_string(src);
    }
}

#[test]
fn random_token_soup_never_panics() {
    use rand::{Rng, SeedableRng};
    const WORDS: &[&str] = &[
        "def",
        "int",
        "long",
        "double",
        "String",
        "List",
        "Map",
        "x",
        "y",
        "l",
        "m",
        "=",
        "==",
        "===",
        "+",
        "-",
        "*",
        "/",
        "%",
        "<<",
        ">>>",
        "&",
        "|",
        "^",
        "!",
        "~",
        "?",
        ":",
        "?:",
        "?.",
        ".",
        ",",
        ";",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "[:]",
        "0",
        "1",
        "-1",
        "2147483647",
        "9223372036854775807L",
        "1.5",
        "0.1f",
        "'a'",
        "\"b\"",
        "null",
        "true",
        "false",
        "if",
        "else",
        "for",
        "while",
        "do",
        "break",
        "continue",
        "return",
        "new",
        "ArrayList",
        "HashMap",
        "instanceof",
        "in",
        "length()",
        "size()",
        "add",
        "get",
        "put",
        "substring",
        "Math",
        "max",
        "Integer",
        "parseInt",
        "params",
        "doc",
        "_score",
        "++",
        "--",
        "+=",
        "(int)",
        "(char)",
        "/a/",
    ];
    let mut rng = rand::rngs::StdRng::seed_from_u64(34);
    for _ in 0..20_000 {
        let n = rng.gen_range(1..24);
        let src: Vec<&str> = (0..n).map(|_| WORDS[rng.gen_range(0..WORDS.len())]).collect();
        let _ = eval_to_string(&src.join(" "));
    }
}

#[test]
fn walks_over_shared_collections_stay_bounded() {
    // Two lists holding each other twice: printing or comparing them must not take 2^100 steps.
    let src = "def a = []; def b = [a, a]; a.add(b); a.add(b); String s = a.toString(); a == b";
    let started = std::time::Instant::now();
    let _ = eval_to_string(src);
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    assert_eq!(ok("Math.floorMod(-9223372036854775807L - 1, -1L) + Math.floorDiv(-7, 2)"), "-4");
    assert!(fails("def l = [1, 'a']; Collections.sort(l); l").starts_with("class_cast_exception"));
    assert_eq!(ok("def l = ['b', 'a', 'c']; Collections.sort(l); l"), "[a, b, c]");
}
