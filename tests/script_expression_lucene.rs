//! Lucene expressions against Lucene itself (tests/lucene/LuceneExpressions.java over
//! Debian's liblucene8-java, libantlr4-runtime-java and libasm-java): generated
//! expressions over generated variable values must evaluate to the same bits, and
//! malformed ones must fail with the same `ParseException` (offset and message).
//!
//! Java's `Math.sin`, `cos`, `tan`, `exp`, `log`, `log10` and `pow` are HotSpot
//! intrinsics whose last bit may differ from the platform libm's in rare cases: the
//! functions built on them are compared alone, within one ulp, and their exact
//! agreement is counted; every other result (operators, conversions, the fdlibm
//! functions, `haversin` over geographic coordinates) is compared bit for bit.

mod common;

use common::rng::Rng;
use metagate::script::expression::Expression;

/// The jars the oracle runs on, as Debian installs them.
const JARS: &str = "/usr/share/java/lucene-expressions-8.7.0.jar:/usr/share/java/lucene-core-8.7.0.jar:\
/usr/share/java/antlr4-runtime.jar:/usr/share/java/asm.jar:/usr/share/java/asm-commons.jar:\
/usr/share/java/asm-tree.jar:/usr/share/java/asm-analysis.jar";

const VARIABLES: [&str; 4] = ["x", "y", "z", "doc['f'].value"];

/// Functions whose Java results come from HotSpot intrinsics (`Math.log` included, which
/// Lucene's `MathUtil` functions call): compared within one ulp, alone.
const INTRINSICS: [&str; 11] = ["sin", "cos", "tan", "exp", "ln", "log10", "pow", "logn", "acosh", "asinh", "atanh"];

const FUNCTIONS: [(&str, usize); 25] = [
    ("abs", 1),
    ("acos", 1),
    ("acosh", 1),
    ("asin", 1),
    ("asinh", 1),
    ("atan", 1),
    ("atan2", 2),
    ("atanh", 1),
    ("ceil", 1),
    ("cos", 1),
    ("cosh", 1),
    ("exp", 1),
    ("floor", 1),
    ("haversin", 4),
    ("ln", 1),
    ("log10", 1),
    ("logn", 2),
    ("max", 2),
    ("min", 2),
    ("pow", 2),
    ("sin", 1),
    ("sinh", 1),
    ("sqrt", 1),
    ("tan", 1),
    ("tanh", 1),
];

fn literal(rng: &mut Rng) -> String {
    match rng.below(8) {
        0 => format!("0x{:x}", rng.next() >> rng.below(64)),
        1 => format!("0{:o}", rng.next() >> (rng.below(63) + 1)),
        2 => format!("{}", rng.below(100)),
        3 => format!("{}.{}", rng.below(1000), rng.below(1000)),
        4 => format!("{}e{}", rng.below(10) + 1, rng.below(40) as i64 - 20),
        5 => format!(".{}", rng.below(100_000)),
        6 => rng.pick(&["0", "1", "2", "0.5", "1e308", "4.9e-324", "3.141592653589793"]).to_string(),
        _ => format!("{}", rng.below(1 << 40)),
    }
}

/// A random expression of at most `depth` levels (no intrinsic function).
fn expression(rng: &mut Rng, depth: u32) -> String {
    if depth == 0 || rng.below(4) == 0 {
        return if rng.below(2) == 0 { literal(rng) } else { rng.pick(&VARIABLES).to_string() };
    }
    match rng.below(6) {
        0 => {
            let op = rng.pick(&["-", "!", "~", "+"]);
            format!("{op}{}", expression(rng, depth - 1))
        }
        1 | 2 => {
            let op = rng.pick(&[
                "+", "-", "*", "/", "%", "<<", ">>", ">>>", "&", "|", "^", "<", "<=", ">", ">=", "==", "!=", "&&", "||",
            ]);
            let a = expression(rng, depth - 1);
            let b = expression(rng, depth - 1);
            if rng.below(2) == 0 {
                format!("({a} {op} {b})")
            } else {
                format!("{a} {op} {b}")
            }
        }
        3 => {
            let c = expression(rng, depth - 1);
            let a = expression(rng, depth - 1);
            let b = expression(rng, depth - 1);
            format!("({c} ? {a} : {b})")
        }
        _ => {
            let (name, arity) = FUNCTIONS[rng.index(FUNCTIONS.len())];
            // Intrinsics' last-bit differences grow through the operators around them,
            // and `haversin` of any angle calls `Math.cos`: both are compared alone.
            if INTRINSICS.contains(&name) || name == "haversin" {
                return expression(rng, depth - 1);
            }
            let args: Vec<String> = (0..arity).map(|_| expression(rng, depth - 1)).collect();
            format!("{name}({})", args.join(", "))
        }
    }
}

fn value(rng: &mut Rng) -> f64 {
    match rng.below(10) {
        0 => {
            [0.0, -0.0, 1.0, -1.0, 0.5, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e300, -2.5][rng.below(10) as usize]
        }
        1 => f64::from_bits(rng.next()),
        2 => (rng.below(2000) as f64 - 1000.0) / 7.0,
        3 => rng.below(1 << 62) as f64,
        _ => (rng.below(1_000_000) as f64 / 1000.0 - 500.0) * if rng.below(2) == 0 { 1.0 } else { 0.001 },
    }
}

fn ulps_apart(a: f64, b: f64) -> u64 {
    if a.is_nan() && b.is_nan() {
        return 0;
    }
    if a.is_sign_negative() != b.is_sign_negative() {
        return if a == b { 0 } else { u64::MAX };
    }
    a.to_bits().abs_diff(b.to_bits())
}

#[test]
fn generated_expressions_evaluate_to_lucenes_bits() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut cases = Vec::new();
    let mut input = String::new();
    for _ in 0..4000 {
        let source = expression(&mut rng, 4);
        let values: Vec<(String, f64)> = VARIABLES.iter().map(|v| (v.to_string(), value(&mut rng))).collect();
        let bindings: Vec<String> = values.iter().map(|(n, v)| format!("{n}={:x}", v.to_bits())).collect();
        input.push_str(&format!("{source}\t{}\n", bindings.join(",")));
        cases.push((source, values));
    }
    let lines = common::lucene_analysis::java_oracle("LuceneExpressions", JARS, input);
    assert_eq!(lines.len(), cases.len(), "the oracle answers every line");
    let (mut exact, mut compiled) = (0, 0);
    for ((source, values), line) in cases.iter().zip(&lines) {
        let ours = Expression::compile(source);
        let Some(rest) = line.strip_prefix("OK ") else {
            let e = ours.expect_err(&format!("Lucene refuses {source}: {line}"));
            assert_eq!(format!("EXC java.lang.NumberFormatException\t{}", e.message), *line, "{source}");
            continue;
        };
        compiled += 1;
        let ours = ours.unwrap_or_else(|e| panic!("{source} compiles in Lucene, not here: {e:?}"));
        let (bits, names) = rest.split_once(' ').unwrap_or((rest, ""));
        let names: Vec<&str> = if names.is_empty() { Vec::new() } else { names.split('\u{1}').collect() };
        assert_eq!(ours.variables, names, "variables of {source}");
        let vals: Vec<f64> =
            ours.variables.iter().map(|n| values.iter().find(|(v, _)| v == n).map_or(0.0, |(_, x)| *x)).collect();
        let theirs = f64::from_bits(u64::from_str_radix(bits, 16).unwrap());
        let mine = ours.evaluate(&vals);
        if mine.to_bits() == theirs.to_bits() || (mine.is_nan() && theirs.is_nan()) {
            exact += 1;
        } else {
            panic!("{source} with {values:?}: {mine:e} here, {theirs:e} in Lucene");
        }
    }
    eprintln!("{compiled} compiled, {exact} bit-identical");
    assert!(compiled > 3000);
}

#[test]
fn each_function_over_many_arguments() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut cases = Vec::new();
    let mut input = String::new();
    for (name, arity) in FUNCTIONS {
        for _ in 0..400 {
            let args: Vec<f64> = match name {
                // Degrees: beyond SloppyMath's table range its cosine calls `Math.cos`.
                "haversin" => {
                    (0..arity).map(|i| (rng.below(360_001) as f64 / 1000.0 - 180.0) / (1 + i % 2) as f64).collect()
                }
                _ => (0..arity).map(|_| value(&mut rng)).collect(),
            };
            let vars: Vec<String> = (0..arity).map(|i| format!("v{i}")).collect();
            let bindings: Vec<String> = vars.iter().zip(&args).map(|(v, a)| format!("{v}={:x}", a.to_bits())).collect();
            input.push_str(&format!("{name}({})\t{}\n", vars.join(","), bindings.join(",")));
            cases.push((name, args));
        }
    }
    let lines = common::lucene_analysis::java_oracle("LuceneExpressions", JARS, input);
    assert_eq!(lines.len(), cases.len(), "the oracle answers every line");
    let mut differing = std::collections::BTreeMap::<&str, usize>::new();
    for ((name, args), line) in cases.iter().zip(&lines) {
        let vars: Vec<String> = (0..args.len()).map(|i| format!("v{i}")).collect();
        let e = Expression::compile(&format!("{name}({})", vars.join(","))).unwrap();
        let bits = line.strip_prefix("OK ").and_then(|r| r.split(' ').next()).expect(line);
        let theirs = f64::from_bits(u64::from_str_radix(bits, 16).unwrap());
        let mine = e.evaluate(args);
        if mine.to_bits() != theirs.to_bits() && !(mine.is_nan() && theirs.is_nan()) {
            assert!(
                INTRINSICS.contains(name) && ulps_apart(mine, theirs) <= 1,
                "{name}{args:?}: {mine:e} here, {theirs:e} in Lucene"
            );
            *differing.entry(name).or_default() += 1;
        }
    }
    eprintln!("last-ulp differences per 400 calls: {differing:?}");
}

/// Malformed expressions from a token soup.
#[test]
fn malformed_expressions_fail_as_lucene() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let pieces = [
        "1",
        "x",
        "(",
        ")",
        "+",
        "*",
        "?",
        ":",
        ",",
        "max",
        "sqrt",
        "=",
        "@",
        ".",
        "[",
        "'",
        "0x",
        "&&",
        "<<",
        " ",
        "0x1g",
        "doc['a']",
        "a.b",
        "!",
        "~",
        "0.5e",
        "09",
        "\t",
        "\"",
        "[1]",
        "doc[\"a\"]",
        "a(",
        "0",
        "-",
        ">>>",
        "%",
        "==",
        "!=",
        "<=",
        "a[",
        "'x'",
        "]",
        "1e+",
        "abs",
        ".5",
        "0x7fffffffffffffffff",
        "\u{e9}",
    ];
    // (The oracle reads lines: no line breaks.)
    let sources: Vec<String> = (0..6000)
        .map(|_| {
            let n = rng.below(7) + 1;
            (0..n).map(|_| rng.pick(&pieces)).collect()
        })
        .collect();
    let input: String = sources.iter().map(|s| format!("{s}\t\n")).collect();
    let lines = common::lucene_analysis::java_oracle("LuceneExpressions", JARS, input);
    assert_eq!(lines.len(), sources.len(), "the oracle answers every line");
    let mut failures = Vec::new();
    for (source, line) in sources.iter().zip(&lines) {
        let ours = match Expression::compile(source) {
            Ok(e) => format!("OK {}", e.variables.join("\u{1}")),
            Err(e) if e.java_kind.is_some() => format!("EXC java.lang.NumberFormatException\t{}", e.message),
            Err(e) => format!("ERR {}\t{}", e.offset, e.message),
        };
        let theirs = match line.strip_prefix("OK ") {
            Some(rest) => format!("OK {}", rest.split_once(' ').map_or("", |(_, v)| v)),
            None => line.clone(),
        };
        if ours != theirs {
            failures.push(format!("{source:?}\n  here:   {ours}\n  Lucene: {theirs}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} differ:\n{}", failures.len(), sources.len(), failures.join("\n"));
}
