//! Painless numeric and string semantics against Java's: the same expressions are
//! evaluated by a Java program (Debian's JDK) and by the script interpreter, and their
//! `String.valueOf` texts compared.
//!
//! Known difference: JDKs before 19 (ES 6.8 ran on 8 to 12) print a few doubles and
//! floats with more digits than the shortest that reads back (`1.0E23` prints as
//! `9.999999999999999E22`, `Double.MIN_VALUE` as `4.9E-324`, `123456789.0f` as
//! `1.23456792E8`); the interpreter prints the shortest. Such values are not listed.

use std::process::Command;

/// (Painless source, the same expression in Java).
const CASES: &[(&str, &str)] = &[
    ("1 + 2 * 3", "1 + 2 * 3"),
    ("7 / 2", "7 / 2"),
    ("-7 / 2", "-7 / 2"),
    ("-7 % 3", "-7 % 3"),
    ("7 % -3", "7 % -3"),
    ("-7.5 % 2", "-7.5 % 2"),
    ("2147483647 + 1", "2147483647 + 1"),
    ("-2147483648 - 1", "-2147483648 - 1"),
    ("65536 * 65536", "65536 * 65536"),
    ("65536L * 65536", "65536L * 65536"),
    ("9223372036854775807L + 1", "9223372036854775807L + 1"),
    ("-2147483648 / -1", "-2147483648 / -1"),
    ("1 << 33", "1 << 33"),
    ("1L << 65", "1L << 65"),
    ("-1 >>> 28", "-1 >>> 28"),
    ("-16 >> 2", "-16 >> 2"),
    ("5 & 3 | 8 ^ 2", "5 & 3 | 8 ^ 2"),
    ("~5", "~5"),
    ("0x7fffffff + 010", "0x7fffffff + 010"),
    ("0xFFFFFFFF", "0xFFFFFFFF"),
    ("1.0 / 0", "1.0 / 0"),
    ("-1.0 / 0", "-1.0 / 0"),
    ("0.0 / 0", "0.0 / 0"),
    ("1.5f + 1", "1.5f + 1"),
    ("0.1f + 0.2", "0.1f + 0.2"),
    ("0.1 + 0.2", "0.1 + 0.2"),
    ("1.0f / 3", "1.0f / 3"),
    ("1.0 / 3", "1.0 / 3"),
    ("2.0 / 3 * 1e10", "2.0 / 3 * 1e10"),
    ("1e7", "1e7"),
    ("9999999.0", "9999999.0"),
    ("0.001", "0.001"),
    ("0.0009999", "0.0009999"),
    ("1e-5f", "1e-5f"),
    ("-0.0", "-0.0"),
    ("1e300 * 1e10", "1e300 * 1e10"),
    ("1.7976931348623157e308", "1.7976931348623157e308"),
    ("100.0", "100.0"),
    ("1.0e22", "1.0e22"),
    ("2e-3", "2e-3"),
    ("(float) 0.1", "(float) 0.1"),
    ("(double) 0.1f", "(double) 0.1f"),
    ("(int) 3.99", "(int) 3.99"),
    ("(int) -3.99", "(int) -3.99"),
    ("(int) 1e20", "(int) 1e20"),
    ("(long) -1e30", "(long) -1e30"),
    ("(int) (0.0 / 0)", "(int) (0.0 / 0)"),
    ("(int) 4294967297L", "(int) 4294967297L"),
    ("(byte) 300", "(byte) 300"),
    ("(short) 70000", "(short) 70000"),
    ("(char) 66", "(char) 66"),
    ("(float) 16777217", "(float) 16777217"),
    ("'a' + 1 + 2", "\"a\" + 1 + 2"),
    ("1 + 2 + 'a'", "1 + 2 + \"a\""),
    ("'x' + 1.0", "\"x\" + 1.0"),
    ("'x' + 1.0f / 3", "\"x\" + 1.0f / 3"),
    ("'x' + 12345678.9", "\"x\" + 12345678.9"),
    ("'x' + 0.00012", "\"x\" + 0.00012"),
    ("'x' + 10000000L", "\"x\" + 10000000L"),
    ("'x' + null", "\"x\" + null"),
    ("'x' + true", "\"x\" + true"),
    ("'abc'.charAt(1) + 1", "\"abc\".charAt(1) + 1"),
    ("'' + 'abc'.charAt(1)", "\"\" + \"abc\".charAt(1)"),
    ("'Hello'.substring(1, 3)", "\"Hello\".substring(1, 3)"),
    ("'Hello'.indexOf('l')", "\"Hello\".indexOf(\"l\")"),
    ("'Hello'.lastIndexOf('l')", "\"Hello\".lastIndexOf(\"l\")"),
    ("'Hello'.compareTo('Help')", "\"Hello\".compareTo(\"Help\")"),
    ("'abc'.compareTo('ab')", "\"abc\".compareTo(\"ab\")"),
    // Painless strings know only the quote and backslash escapes: these blanks are real.
    ("' \t x y \n'.trim()", "\" \\t x y \\n\".trim()"),
    ("'aXbXc'.replace('X', '--')", "\"aXbXc\".replace(\"X\", \"--\")"),
    ("'abc'.replace('', '-')", "\"abc\".replace(\"\", \"-\")"),
    ("'MiXeD'.toLowerCase() + 'MiXeD'.toUpperCase()", "\"MiXeD\".toLowerCase() + \"MiXeD\".toUpperCase()"),
    ("'héllo wörld'.length()", "\"héllo wörld\".length()"),
    ("'hello'.hashCode()", "\"hello\".hashCode()"),
    ("Integer.parseInt('-123') + 1", "Integer.parseInt(\"-123\") + 1"),
    ("Integer.parseInt('+7')", "Integer.parseInt(\"+7\")"),
    ("Integer.parseInt('ff', 16)", "Integer.parseInt(\"ff\", 16)"),
    ("Long.parseLong('9223372036854775807')", "Long.parseLong(\"9223372036854775807\")"),
    ("Double.parseDouble(' 1.5e3 ')", "Double.parseDouble(\" 1.5e3 \")"),
    ("Double.parseDouble('2d')", "Double.parseDouble(\"2d\")"),
    ("Integer.valueOf('12') + Long.valueOf(3)", "Integer.valueOf(\"12\") + Long.valueOf(3)"),
    ("Double.valueOf('0.1') * 3", "Double.valueOf(\"0.1\") * 3"),
    ("Integer.toString(255) + Long.toString(-1L)", "Integer.toString(255) + Long.toString(-1L)"),
    ("Integer.toHexString(-1)", "Integer.toHexString(-1)"),
    ("Double.toString(1e-7)", "Double.toString(1e-7)"),
    ("String.valueOf(3.0f)", "String.valueOf(3.0f)"),
    ("Integer.MAX_VALUE + Integer.MIN_VALUE", "Integer.MAX_VALUE + Integer.MIN_VALUE"),
    ("Long.MIN_VALUE", "Long.MIN_VALUE"),
    ("Double.MAX_VALUE", "Double.MAX_VALUE"),
    ("Math.abs(-2147483648)", "Math.abs(-2147483648)"),
    ("Math.max(1, 2L)", "Math.max(1, 2L)"),
    ("Math.min(-0.0, 0.0)", "Math.min(-0.0, 0.0)"),
    ("Math.max(1.5f, 2)", "Math.max(1.5f, 2)"),
    ("Math.round(2.5)", "Math.round(2.5)"),
    ("Math.round(-2.5)", "Math.round(-2.5)"),
    ("Math.round(0.49999999999999994)", "Math.round(0.49999999999999994)"),
    ("Math.round(2.5f)", "Math.round(2.5f)"),
    ("Math.round(1e20)", "Math.round(1e20)"),
    ("Math.floor(-1.5) + Math.ceil(-1.5)", "Math.floor(-1.5) + Math.ceil(-1.5)"),
    ("Math.rint(2.5) + Math.rint(3.5)", "Math.rint(2.5) + Math.rint(3.5)"),
    ("Math.sqrt(2)", "Math.sqrt(2)"),
    ("Math.log(10)", "Math.log(10)"),
    ("Math.log(1 + 41)", "Math.log(1 + 41)"),
    ("Math.log10(1000)", "Math.log10(1000)"),
    ("Math.exp(1)", "Math.exp(1)"),
    ("Math.pow(2, 10)", "Math.pow(2, 10)"),
    ("Math.pow(2, 0.5)", "Math.pow(2, 0.5)"),
    ("Math.signum(-3.2)", "Math.signum(-3.2)"),
    ("Math.floorMod(-7, 3) + Math.floorDiv(-7, 3)", "Math.floorMod(-7, 3) + Math.floorDiv(-7, 3)"),
    ("Math.PI", "Math.PI"),
    ("1 == 1L", "1 == 1L"),
    ("0.1f == 0.1", "0.1f == 0.1"),
];

/// Map orders: Painless map literals against Java `HashMap`s filled in the same order.
const MAPS: &[(&str, &[&str])] = &[
    ("['curie': 1, 'name': 2, 'matchingStatus': 3]", &["curie", "name", "matchingStatus"]),
    ("['b': 1, 'a': 2, 'z': 3, 'aa': 4, 'Z': 5]", &["b", "a", "z", "aa", "Z"]),
    (
        "['k1': 1, 'k2': 2, 'k3': 3, 'k4': 4, 'k5': 5, 'k6': 6, 'k7': 7, 'k8': 8, 'k9': 9, 'k10': 10, 'k11': 11, 'k12': 12, 'k13': 13]",
        &["k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "k10", "k11", "k12", "k13"],
    ),
];

/// Statements: a Painless script against a Java block that prints the same value
/// (lambdas and comparators in sorts, regex results).
const BLOCKS: &[(&str, &str)] = &[
    (
        "def l = [5, 3, 9, 1, 3]; l.sort((a, b) -> b - a); l",
        "java.util.List<Integer> l = new java.util.ArrayList<>(java.util.Arrays.asList(5, 3, 9, 1, 3)); l.sort((x, y) -> y - x); System.out.println(l);",
    ),
    (
        "def l = ['pear', 'fig', 'apple', 'kiwi']; l.sort(Comparator.comparing(String::length).thenComparing(x -> x)); l",
        "java.util.List<String> l = new java.util.ArrayList<>(java.util.Arrays.asList(\"pear\", \"fig\", \"apple\", \"kiwi\")); l.sort(java.util.Comparator.comparing(String::length).thenComparing(x -> x)); System.out.println(l);",
    ),
    (
        "def l = ['b', 'a', 'c']; l.sort(Comparator.reverseOrder()); l",
        "java.util.List<String> l = new java.util.ArrayList<>(java.util.Arrays.asList(\"b\", \"a\", \"c\")); l.sort(java.util.Comparator.reverseOrder()); System.out.println(l);",
    ),
    (
        "def l = [[2, 'x'], [1, 'y'], [2, 'a'], [1, 'b']]; l.sort((p, q) -> p[0] - q[0]); l",
        "java.util.List<java.util.List<Object>> l = new java.util.ArrayList<>(); l.add(java.util.Arrays.asList(2, \"x\")); l.add(java.util.Arrays.asList(1, \"y\")); l.add(java.util.Arrays.asList(2, \"a\")); l.add(java.util.Arrays.asList(1, \"b\")); l.sort((p, q) -> (Integer) p.get(0) - (Integer) q.get(0)); System.out.println(l);",
    ),
    (
        "def m = /(\\w+)@(\\w+)\\.com/.matcher('mail ann@foo.com, bob@bar.com'); def out = []; while (m.find()) { out.add(m.group(1) + ':' + m.start(2) + '-' + m.end()) } out",
        "java.util.regex.Matcher m = java.util.regex.Pattern.compile(\"(\\\\w+)@(\\\\w+)\\\\.com\").matcher(\"mail ann@foo.com, bob@bar.com\"); java.util.List<String> out = new java.util.ArrayList<>(); while (m.find()) { out.add(m.group(1) + \":\" + m.start(2) + \"-\" + m.end()); } System.out.println(out);",
    ),
    (
        "/a*/.matcher('baaac').replaceAll('<$0>')",
        "System.out.println(java.util.regex.Pattern.compile(\"a*\").matcher(\"baaac\").replaceAll(\"<$0>\"));",
    ),
    (
        "String.join('|', /\\s*,\\s*/.split(' a , b,,c ,'))",
        "System.out.println(String.join(\"|\", java.util.regex.Pattern.compile(\"\\\\s*,\\\\s*\").split(\" a , b,,c ,\")));",
    ),
    (
        "String.join('|', /x*/.split('axbxxc'))",
        "System.out.println(String.join(\"|\", java.util.regex.Pattern.compile(\"x*\").split(\"axbxxc\")));",
    ),
    (
        "[4, 8, 15, 16, 23, 42].stream().filter(x -> x % 2 == 0).map(x -> x / 2).collect(Collectors.toList())",
        "System.out.println(java.util.Arrays.asList(4, 8, 15, 16, 23, 42).stream().filter(x -> x % 2 == 0).map(x -> x / 2).collect(java.util.stream.Collectors.toList()));",
    ),
    (
        "['x', 'yy', 'zzz'].stream().mapToLong(s -> s.length() * 3000000000L).sum() + ' ' + [1.5, 2.25].stream().mapToDouble(d -> d / 3).sum()",
        "System.out.println(java.util.Arrays.asList(\"x\", \"yy\", \"zzz\").stream().mapToLong(s -> s.length() * 3000000000L).sum() + \" \" + java.util.Arrays.asList(1.5, 2.25).stream().mapToDouble(d -> d / 3).sum());",
    ),
    (
        "[0.1, 0.2, 0.3, 1e16, 1.0, -1e16, 0.7].stream().mapToDouble(x -> x).sum()",
        "System.out.println(java.util.Arrays.asList(0.1, 0.2, 0.3, 1e16, 1.0, -1e16, 0.7).stream().mapToDouble(x -> x).sum());",
    ),
    (
        "def s = ['kiwi', 'fig', 'plum', 'date']; s.stream().max(Comparator.comparing(String::length)).get() + ' ' + s.stream().min((a, b) -> a.length() - b.length()) + ' ' + [7, 2, 9].stream().mapToInt(x -> x).average() + ' ' + [].stream().findFirst() + ' ' + [1.5, 2.5, 4.0].stream().mapToDouble(x -> x).max()",
        "java.util.List<String> s = java.util.Arrays.asList(\"kiwi\", \"fig\", \"plum\", \"date\"); System.out.println(s.stream().max(java.util.Comparator.comparing(String::length)).get() + \" \" + s.stream().min((p, q) -> p.length() - q.length()) + \" \" + java.util.stream.IntStream.of(7, 2, 9).average() + \" \" + new java.util.ArrayList<Object>().stream().findFirst() + \" \" + java.util.stream.DoubleStream.of(1.5, 2.5, 4.0).max());",
    ),
    (
        "('Hello World' =~ /o W/) + ' ' + ('Hello' ==~ /h.*/i) + ' ' + ('Hello' ==~ /h.*/)",
        "System.out.println(java.util.regex.Pattern.compile(\"o W\").matcher(\"Hello World\").find() + \" \" + java.util.regex.Pattern.compile(\"h.*\", java.util.regex.Pattern.CASE_INSENSITIVE).matcher(\"Hello\").matches() + \" \" + java.util.regex.Pattern.compile(\"h.*\").matcher(\"Hello\").matches());",
    ),
];

fn java_program() -> String {
    let mut body = String::new();
    for (_, java) in CASES {
        body.push_str(&format!("        System.out.println(String.valueOf({java}));\n"));
    }
    for (_, java) in BLOCKS {
        body.push_str(&format!("        {{ {java} }}\n"));
    }
    for (_, keys) in MAPS {
        body.push_str("        { java.util.HashMap<Object, Object> m = new java.util.HashMap<>();\n");
        for (i, k) in keys.iter().enumerate() {
            body.push_str(&format!("          m.put(\"{k}\", {});\n", i + 1));
        }
        body.push_str("          System.out.println(m); }\n");
    }
    format!("public class ScriptOracle {{\n    public static void main(String[] a) {{\n{body}    }}\n}}\n")
}

#[test]
fn painless_matches_java_on_numbers_strings_and_map_order() {
    if Command::new("javac").arg("-version").output().is_err() {
        eprintln!("javac is not installed; the Java comparison cannot run");
        return;
    }
    let dir = std::env::temp_dir().join(format!("metagate-script-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("ScriptOracle.java");
    std::fs::write(&src, java_program()).unwrap();
    let out = Command::new("javac").arg("-encoding").arg("UTF-8").arg("-d").arg(&dir).arg(&src).output().unwrap();
    assert!(out.status.success(), "javac: {}", String::from_utf8_lossy(&out.stderr));
    let out = Command::new("java").arg("-cp").arg(&dir).arg("ScriptOracle").output().unwrap();
    assert!(out.status.success(), "java: {}", String::from_utf8_lossy(&out.stderr));
    let java = String::from_utf8(out.stdout).unwrap();
    let java: Vec<&str> = java.lines().collect();
    let ours: Vec<String> = CASES
        .iter()
        .map(|(p, _)| *p)
        .chain(BLOCKS.iter().map(|(p, _)| *p))
        .chain(MAPS.iter().map(|(p, _)| *p))
        .map(|p| metagate::script::eval_to_string(p).unwrap_or_else(|e| format!("error {e}")))
        .collect();
    assert_eq!(java.len(), ours.len());
    let mut mismatches = Vec::new();
    let exprs = CASES.iter().map(|c| c.0).chain(BLOCKS.iter().map(|b| b.0)).chain(MAPS.iter().map(|m| m.0));
    for ((expr, j), o) in exprs.zip(&java).zip(&ours) {
        if j != o {
            mismatches.push(format!("{expr}: java {j} / painless {o}"));
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
