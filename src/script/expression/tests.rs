use super::*;

fn eval(src: &str) -> f64 {
    Expression::compile(src).unwrap().evaluate(&[])
}

fn error(src: &str) -> (usize, String) {
    let e = Expression::compile(src).unwrap_err();
    (e.offset, e.message)
}

#[test]
fn operators_as_lucene_compiles_them() {
    assert_eq!(eval("1 + 2 * 3"), 7.0);
    assert_eq!(eval("0x10 + 010"), 24.0);
    assert_eq!(eval("0.5 && 1"), 0.0);
    assert_eq!(eval("-1 >>> 60"), 15.0);
    assert_eq!(eval("1 << 65"), 2.0);
    assert_eq!(eval("~0"), -1.0);
    assert_eq!(eval("1 ? 2 : 3 ? 4 : 5"), 2.0);
    assert_eq!(eval("(1 ? 2.5 : 3) | 0"), 2.0);
    assert_eq!(eval("!0 + !5"), 1.0);
    assert_eq!(eval("5 % -3"), 2.0);
    assert_eq!(eval("max(-0.0, 0.0)").to_bits(), 0f64.to_bits());
    assert!(eval("min(1, sqrt(-1))").is_nan());
}

#[test]
fn variables_are_numbered_and_normalized() {
    let e = Expression::compile("doc[\"f\"].value + doc['f'].value + x + doc['g'].min() + x").unwrap();
    assert_eq!(e.variables, vec!["doc['f'].value", "x", "doc['g'].min()"]);
    assert_eq!(e.evaluate(&[1.0, 10.0, 100.0]), 122.0);
}

#[test]
fn parse_errors_have_lucenes_texts() {
    assert_eq!(error("1+"), (2, "unexpected end of expression".into()));
    assert_eq!(error("1 +* 2"), (3, "invalid sequence of tokens near '*' on line (1) position (3)".into()));
    assert_eq!(error("(1"), (2, "unexpected token '<EOF>' on line (1) position (2) was expecting one of RP".into()));
    assert_eq!(error("a..b"), (1, "unexpected character '..' on line (1) position (1)".into()));
    assert_eq!(error("=x"), (0, "unexpected character '=x' on line (1) position (0)".into()));
    assert_eq!(
        error("1 ? 2"),
        (5, "unexpected token '<EOF>' on line (1) position (5) was expecting one of COLON".into())
    );
    assert_eq!(error("foo(1)"), (0, "Invalid expression 'foo(1)': Unrecognized function call (foo).".into()));
    assert_eq!(
        error("max(1)"),
        (0, "Invalid expression 'max(1)': Expected (2) arguments for function call (max), but found (1).".into())
    );
    assert_eq!(error("1 2"), (2, "unexpected token '2' on line (1) position (2) was expecting one of <EOF>".into()));
    let deep = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
    assert!(Expression::compile(&deep).is_err());
    let deep_unary = format!("{}1", "-".repeat(10_000));
    assert!(Expression::compile(&deep_unary).is_err());
    // A long chain of one operator is a deep tree too.
    let chain = vec!["1"; 100_000].join("+");
    assert_eq!(error(&chain).1, "expression nests deeper than 256 levels");
    assert_eq!(eval(&vec!["1"; 200].join("+")), 200.0);
    // Each operand is evaluated once: 255 nested products are quick.
    assert_eq!(eval(&vec!["1"; 256].join("*")), 1.0);
}
