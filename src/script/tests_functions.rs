//! Lambdas, method references, script functions, `try`/`catch` and regexes, end to end.

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
fn lambdas_sort_filter_and_capture() {
    assert_eq!(ok("def l = [3, 1, 2]; l.sort((a, b) -> a - b); l"), "[1, 2, 3]");
    assert_eq!(ok("def l = [3, 1, 2]; l.sort((a, b) -> b.compareTo(a)); l"), "[3, 2, 1]");
    assert_eq!(ok("def l = ['bb', 'a', 'ccc']; l.sort(Comparator.comparing(String::length)); l"), "[a, bb, ccc]");
    assert_eq!(ok("def l = [3, 1, 2]; Collections.sort(l, Integer::compare); l"), "[1, 2, 3]");
    assert_eq!(ok("def l = [3, 1, 2]; l.sort(null); l"), "[1, 2, 3]");
    assert_eq!(ok("def l = [1, 2, 3, 4]; l.removeIf(x -> x % 2 == 0); l"), "[1, 3]");
    assert_eq!(ok("int k = 2; def l = [1, 2, 3]; def out = []; l.forEach(x -> out.add(x * k)); out"), "[2, 4, 6]");
    assert_eq!(ok("def m = [:]; m.computeIfAbsent('a', k -> k + '!'); m.merge('n', 1, (a, b) -> a + b); m.merge('n', 1, Integer::sum); m"), "{a=a!, n=2}");
    assert_eq!(ok("def m = ['a': 1, 'b': 2]; int s = 0; def acc = [0]; m.forEach((k, v) -> acc[0] += v); acc[0]"), "3");
    assert_eq!(ok("def l = [1, 2, 3]; l.findAll(x -> x > 1).collect(x -> x * 10)"), "[20, 30]");
    assert_eq!(ok("def l = [1, 2, 3]; l.any(x -> x > 2) + ' ' + l.every((int x) -> x > 2)"), "true false");
    assert_eq!(ok("def l = ['a', 'b']; l.collect(x -> { String y = x.toUpperCase(); return y + y; })"), "[AA, BB]");
    assert_eq!(ok("def l = [1, 2, 3]; l.sort(Comparator.comparing(x -> -x).reversed()); l"), "[1, 2, 3]");
    assert_eq!(ok("def l = [[1, 'b'], [1, 'a'], [0, 'z']]; l.sort(Comparator.comparing(x -> x[0]).thenComparing(x -> x[1])); l"), "[[0, z], [1, a], [1, b]]");
    assert_eq!(fails("int k = 1; [1].forEach(x -> k = x)"), "illegal_argument_exception: Variable [k] is read-only.");
    assert_eq!(fails("def f = x -> x"), "illegal_argument_exception: invalid sequence of tokens near ['->'].");
}

#[test]
fn streams_run_their_pipelines() {
    assert_eq!(
        ok("[1, 2, 3, 4].stream().filter(x -> x % 2 == 0).map(x -> x * 10).collect(Collectors.toList())"),
        "[20, 40]"
    );
    assert_eq!(ok("['a', 'bb', 'ccc'].stream().mapToInt(String::length).sum()"), "6");
    assert_eq!(
        ok("[1, 2, 3].stream().anyMatch(x -> x > 2) + ' ' + [1, 2].stream().allMatch(x -> x > 1)"),
        "true false"
    );
    assert_eq!(
        ok("['b', 'a', 'b'].stream().distinct().sorted().collect(Collectors.joining(', ', '[', ']'))"),
        "[a, b]"
    );
    assert_eq!(ok("[5, 1, 4].stream().sorted((a, b) -> b - a).limit(2).count()"), "2");
    assert_eq!(ok("[1, 2, 3].stream().reduce(0, (a, b) -> a + b)"), "6");
    assert_eq!(
        ok("['ant', 'bee', 'cat', 'bat'].stream().collect(Collectors.groupingBy(w -> w.charAt(0)))"),
        "{a=[ant], b=[bee, bat], c=[cat]}"
    );
    assert_eq!(ok("[3, 9, 4].stream().max(Integer::compare).get()"), "9");
    assert_eq!(ok("[3, 9, 4].stream().mapToInt(x -> x).min()"), "OptionalInt[3]");
    assert_eq!(ok("[].stream().findFirst()"), "Optional.empty");
    assert_eq!(ok("[].stream().findFirst().orElse('none')"), "none");
    assert_eq!(ok("[1, 2].stream().mapToInt(x -> x).average().getAsDouble()"), "1.5");
    assert_eq!(fails("[].stream().findFirst().get()"), "no_such_element_exception: No value present");
}

#[test]
fn script_functions_and_recursion() {
    assert_eq!(ok("int f(int x) { return x * 2; } return f(3);"), "6");
    assert_eq!(ok("int fib(int n) { if (n < 2) { return n; } return fib(n - 1) + fib(n - 2); } fib(15)"), "610");
    assert_eq!(ok("boolean even(int n) { n == 0 ? true : odd(n - 1) } boolean odd(int n) { n == 0 ? false : even(n - 1) } even(10)"), "true");
    assert_eq!(ok("void add(List l, def x) { l.add(x); } def l = []; add(l, 1); l"), "[1]");
    assert_eq!(ok("int twice(int x) { 2 * x } def l = [1, 2]; l.collect(this::twice)"), "[2, 4]");
    assert_eq!(fails("int f(int x) { return f(x + 1); } f(0)"), "stack_overflow_error: null");
    assert_eq!(
        fails("int f(int x) { return params.a; } f(0)"),
        "illegal_argument_exception: Variable [params] is not defined."
    );
    assert_eq!(
        fails("int f(int x) { if (x > 0) { return 1; } } f(0)"),
        "illegal_argument_exception: Not all paths provide a return value for method [f]."
    );
    assert_eq!(fails("g(1)"), "illegal_argument_exception: Unknown call [g] with [1] arguments.");
}

#[test]
fn try_catch_and_throw() {
    assert_eq!(ok("try { 1 / 0 } catch (ArithmeticException e) { return e.getMessage(); }"), "/ by zero");
    assert_eq!(ok("try { Integer.parseInt('x') } catch (IllegalArgumentException e) { return 'bad' }"), "bad");
    assert_eq!(ok("try { [1].get(5) } catch (NullPointerException e) { return 'npe' } catch (Exception e) { return e.toString() }"), "java.lang.IndexOutOfBoundsException: Index 5 out of bounds for length 1");
    assert_eq!(
        ok("try { throw new IllegalArgumentException('no') } catch (Exception e) { return e.getMessage() }"),
        "no"
    );
    assert_eq!(fails("throw new IllegalStateException('stop')"), "illegal_state_exception: stop");
    assert_eq!(ok("try { null.x } catch (NullPointerException e) { e.message }"), "null");
    assert_eq!(ok("try { throw new Exception('m') } catch (Exception e) { e.message }"), "m");
    // An `if`'s or a block's last expression is the script's value, as Painless's last
    // statement is.
    assert_eq!(ok("int x = 2; if (x > 1) { 'big' } else { 'small' }"), "big");
    assert_eq!(ok("int x = 0; if (x > 1) { 'big' } else { x += 5; x }"), "5");
    assert_eq!(ok("int x = 0; if (x > 1) { 'big' }"), "null");
    assert_eq!(fails("try { 1 / 0 } catch (NullPointerException e) { 0 }"), "arithmetic_exception: / by zero");
    assert_eq!(
        fails("int i = 0; try { while (true) { i++ } } catch (Exception e) { 0 }"),
        "painless_error: The maximum number of statements that can be executed in a loop has been reached."
    );
}

#[test]
fn regexes_find_match_and_replace() {
    assert_eq!(ok("'foo' =~ /o/"), "true");
    assert_eq!(ok("'foo' ==~ /o/"), "false");
    assert_eq!(ok("'FOO' ==~ /fo+/i"), "true");
    assert_eq!(ok("def m = /(\\d+)-(\\d+)/.matcher('a 12-34 b'); m.find() ? m.group(2) + m.start(1) : 'none'"), "342");
    assert_eq!(ok("'a1b22c'.replaceAll(/\\d+/, m -> '<' + m.group() + '>')"), "a<1>b<22>c");
    assert_eq!(ok("/(a)(b)?/.matcher('xaxab').replaceAll('[$1$2]')"), "x[a]x[ab]");
    assert_eq!(ok("/,/.split('a,b,,c,,').length"), "4");
    assert_eq!(ok("/x/.matcher('ééx').find() ? 1 : 0"), "1");
    assert_eq!(ok("def m = /x/.matcher('ééx'); m.find(); m.start()"), "2");
    let e = Script::compile("'a' =~ /a/", serde_json::json!({}));
    let mut heap = Heap::default();
    match e.run(&mut heap, &mut NoDocument) {
        Err(Halt::Error(e)) => assert_eq!(e.message.as_deref(), Some(parser::REGEX_DISABLED)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn recursion_is_bounded_by_the_stack_it_takes() {
    assert_eq!(ok("int f(int x) { x == 0 ? 0 : 1 + f(x - 1) } f(25)"), "25");
    // Each call nested 56 levels deep: the bound stops it before the thread's stack ends.
    let nested = format!("{}f(x - 1){}", "(1 + ".repeat(28), ")".repeat(28));
    let src = format!("int f(int x) {{ if (x == 0) {{ return 0; }} return {nested}; }} f(100000)");
    assert_eq!(fails(&src), "stack_overflow_error: null");
}
