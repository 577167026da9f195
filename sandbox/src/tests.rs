use super::*;

fn call(source: &str, input: &str) -> Call {
    Call {
        source: source.into(),
        library: "function __kubeplay_main(input) { return String(main(input)); }".into(),
        input: input.into(),
        now_ms: 1_700_000_000_000,
        seed: 42,
        budget_ticks: 20,
    }
}

#[test]
fn a_script_returns_its_string() {
    let o = run(&call("function main(x) { return x + '!'; }", "hi"));
    assert_eq!(o.result, Ok("hi!".into()));
}

#[test]
fn an_endless_loop_is_stopped_by_the_budget_at_the_same_tick_every_time() {
    let c = call("function main() { for (;;) {} }", "");
    let a = run(&c);
    let b = run(&c);
    assert_eq!(a.result.as_ref().unwrap_err().kind, FailureKind::Budget);
    assert_eq!(a, b);
    assert_eq!(a.ticks, 20);
}

#[test]
fn a_catch_block_cannot_swallow_the_budget() {
    let c = call(
        "function main() { for (;;) { try { for (;;) {} } catch (e) {} } }",
        "",
    );
    assert_eq!(run(&c).result.unwrap_err().kind, FailureKind::Budget);
}

#[test]
fn time_and_randomness_come_from_the_call() {
    let src = "function main() { return [Date.now(), new Date().getTime(), \
               new (Date.prototype.constructor)().getTime(), Math.random()].join(','); }";
    let a = run(&call(src, "")).result.unwrap();
    let b = run(&call(src, "")).result.unwrap();
    assert_eq!(a, b);
    assert!(
        a.starts_with("1700000000000,1700000000000,1700000000000,0."),
        "{a}"
    );
    let mut other = call(src, "");
    other.seed = 7;
    assert_ne!(run(&other).result.unwrap(), a);
}

#[test]
fn a_syntax_error_names_the_line_of_the_learners_file() {
    let o = run(&call("function main() {\n  return 1 +;\n}", ""));
    let f = o.result.unwrap_err();
    assert_eq!(f.kind, FailureKind::Syntax);
    assert!(f.message.starts_with("SyntaxError"), "{}", f.message);
    assert!(f.message.contains("controller.js:2"), "{}", f.message);
}

#[test]
fn a_thrown_error_keeps_its_stack_in_the_learners_file() {
    let o = run(&call(
        "function main(x) {\n  return x.spec.replicas;\n}",
        "",
    ));
    let f = o.result.unwrap_err();
    assert_eq!(f.kind, FailureKind::Thrown);
    assert!(f.message.starts_with("TypeError"), "{}", f.message);
    assert!(f.message.contains("controller.js:2"), "{}", f.message);
    assert!(!f.message.contains("kubeplay.js"), "{}", f.message);
}

#[test]
fn memory_and_recursion_are_capped() {
    let mut c = call(
        "function main() { let a = []; for (;;) a.push(new Array(100000).fill(1)); }",
        "",
    );
    c.budget_ticks = 100_000;
    assert_eq!(run(&c).result.unwrap_err().kind, FailureKind::Memory);
    let deep = call(
        "function f(n) { return f(n + 1) + 1; } function main() { return f(0); }",
        "",
    );
    let f = run(&deep).result.unwrap_err();
    assert!(
        f.message
            .starts_with("RangeError: Maximum call stack size exceeded"),
        "{}",
        f.message
    );
    assert!(
        f.message.lines().count() <= 6,
        "a short stack: {}",
        f.message
    );
}

#[test]
fn state_does_not_carry_from_one_call_to_the_next() {
    let src = "var n = (globalThis.n || 0) + 1; globalThis.n = n; function main() { return n; }";
    assert_eq!(run(&call(src, "")).result, Ok("1".into()));
    assert_eq!(run(&call(src, "")).result, Ok("1".into()));
}

#[test]
fn no_clock_but_the_simulated_one_and_local_time_is_utc() {
    let src =
        "function main() { const d = new Date(); return [typeof performance, typeof WeakRef, \
               d.getHours() === d.getUTCHours(), d.getTimezoneOffset(), String(d)].join(','); }";
    let got = run(&call(src, "")).result.unwrap();
    assert_eq!(
        got,
        "undefined,undefined,true,0,Tue, 14 Nov 2023 22:13:20 GMT"
    );
}
