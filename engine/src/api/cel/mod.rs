//! Common Expression Language, the subset CustomResourceDefinition validation rules
//! (`x-kubernetes-validations`) use, evaluated as the API server does
//! (`apiextensions-apiserver/pkg/apiserver/schema/cel`): a rule is a boolean
//! expression over `self` (the value at the rule's place in the object) and, in a
//! transition rule, `oldSelf` (the value before an update).
//!
//! What is here: literals; `self`, `oldSelf`; field selection (a missing field is
//! `no such key: f`), indexing; `+ - * / %` on ints (overflow is an error), doubles,
//! strings and lists; comparisons; `&& || !` with CEL's commutative error handling;
//! `in`; `? :`; `has()`, `size()`, `startsWith`, `endsWith`, `contains`, `lowerAscii`,
//! `upperAscii`, `int()`, `double()`, `string()`, and the macros `all`, `exists`,
//! `exists_one`, `map`, `filter`. What is not (`matches`, the Kubernetes libraries for
//! quantities, URLs, IPs, optional types) is refused when the rule is compiled, with
//! its name.
//!
//! Every evaluation is bounded: each step costs one unit, and a rule that runs past
//! [`COST_LIMIT`] stops as upstream's per-call limit stops it.

mod eval;
mod parse;
pub mod rules;

pub use eval::{
    evaluate, evaluate_string, evaluate_value, uses_old_self, Outcome, COST_LIMIT, OBJECT_BUDGET,
};
pub use parse::{parse, Expr, MAX_RULE_LEN};

/// Compile a rule: parse it and check that every function it calls is one this
/// evaluator has (cel-go's `compilation failed: …` otherwise).
pub fn compile(rule: &str) -> Result<Expr, String> {
    let e = parse(rule)?;
    eval::check_functions(&e)?;
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(rule: &str, self_: serde_json::Value) -> Outcome {
        evaluate(
            &compile(rule).unwrap(),
            &self_,
            None,
            &mut OBJECT_BUDGET.clone(),
        )
    }

    #[test]
    fn rules_evaluate_as_cel_does() {
        let s = json!({"replicas": 3, "max": 5, "name": "web-1", "zones": ["a", "b"],
                       "labels": {"app": "web"}, "ratio": 0.5});
        for (rule, want) in [
            ("self.replicas <= self.max", Outcome::Holds),
            (
                "self.replicas * 2 > self.max && self.name.startsWith('web')",
                Outcome::Holds,
            ),
            (
                "size(self.zones) == 2 && self.zones.size() == 2",
                Outcome::Holds,
            ),
            ("'a' in self.zones && !('c' in self.zones)", Outcome::Holds),
            (
                "'app' in self.labels && self.labels['app'] == 'web'",
                Outcome::Holds,
            ),
            ("has(self.labels) && !has(self.missing)", Outcome::Holds),
            ("self.zones.all(z, z.size() == 1)", Outcome::Holds),
            ("self.zones.exists_one(z, z == 'a')", Outcome::Holds),
            (
                "self.zones.map(z, z + '-x') == ['a-x', 'b-x']",
                Outcome::Holds,
            ),
            ("self.zones.filter(z, z != 'a') == ['b']", Outcome::Holds),
            (
                "self.ratio < 1.0 && double(self.replicas) == 3.0",
                Outcome::Holds,
            ),
            (
                "self.replicas % 2 == 1 ? self.name.endsWith('1') : false",
                Outcome::Holds,
            ),
            ("int('7') + 1 == 8 && string(8) == '8'", Outcome::Holds),
            ("self.replicas > self.max", Outcome::Fails),
            // A decisive side wins over an error on the other, either way round.
            ("self.missing == 1 || true", Outcome::Holds),
            ("false && self.missing == 1", Outcome::Fails),
            (
                "self.missing == 1",
                Outcome::Error("no such key: missing".into()),
            ),
            (
                "9223372036854775807 + 1 > 0",
                Outcome::Error("return error for overflow".into()),
            ),
            (
                "self.replicas / 0 == 1",
                Outcome::Error("division by zero".into()),
            ),
            ("9007199254740993 == 9007199254740992", Outcome::Fails),
        ] {
            assert_eq!(run(rule, s.clone()), want, "{rule}");
        }
    }

    #[test]
    fn a_rule_that_would_run_too_long_stops_at_the_cost_limit() {
        let big: Vec<i64> = (0..200).collect();
        let rule = "self.all(a, self.all(b, self.all(c, a + b + c >= 0)))";
        assert_eq!(run(rule, json!(big)), Outcome::OverBudget);
        // Copies are charged for their size: a rule that copies a large self over
        // and over stops long before it holds gigabytes.
        let l: Vec<i64> = (0..300).collect();
        let rule = "self.l.map(a, self.l.map(b, self.l)).size() > 0";
        assert_eq!(run(rule, json!({ "l": l })), Outcome::OverBudget);
        // One object's rules share one budget.
        let mut left = 1_500_000;
        let e = compile("self.all(a, self.all(b, a + b >= 0))").unwrap();
        let v = json!((0..900).collect::<Vec<i64>>());
        assert_eq!(evaluate(&e, &v, None, &mut left), Outcome::OverBudget);
        assert_eq!(evaluate(&e, &v, None, &mut left), Outcome::OverBudget);
        assert_eq!(left, 0);
    }

    #[test]
    fn bad_rules_are_refused_when_compiled_and_nothing_panics() {
        for bad in [
            "self.replicas <=",
            "self.(",
            "'open",
            "self.x ? 1",
            "matches(self, 'a')",
            "#",
        ] {
            assert!(compile(bad).is_err(), "{bad}");
        }
        assert!(compile(&"(".repeat(10_000)).is_err());
        assert!(compile(&"!".repeat(10_000)).is_err());
        // Chains the parser builds in a loop are as bounded as nesting.
        for chain in [
            "1+".repeat(600) + "1",
            "self".to_string() + &".a".repeat(1000),
            "self".to_string() + &"[0]".repeat(1000),
        ] {
            assert!(compile(&chain).is_err(), "{}", &chain[..20]);
        }
        // An escape before a multi-byte character is one character.
        assert_eq!(run("'\\é' == 'é'", json!({})), Outcome::Holds);
        assert!(compile("'\\").is_err());
        // Every token soup parses or is refused, and evaluates within the limit.
        let words = [
            "self", ".", "a", "(", ")", "[", "]", "1", "'s'", "+", "==", "&&", "||", "!", "-", "?",
            ":", ",", "all", "x", "in", "size", "has", "2.5", "null",
        ];
        let mut rng = crate::rng::Rng::new(7);
        for _ in 0..20_000 {
            let n = 1 + rng.next_u64() % 12;
            let text: Vec<&str> = (0..n)
                .map(|_| words[(rng.next_u64() % words.len() as u64) as usize])
                .collect();
            if let Ok(e) = compile(&text.join(" ")) {
                let _ = evaluate(&e, &json!({"a": [1, 2]}), None, &mut OBJECT_BUDGET.clone());
            }
        }
    }
}
