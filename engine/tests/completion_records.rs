//! Completion records: a genuine one is confirmed goal by goal, and each kind of
//! forgery — a goal claimed but not met, a goal's time moved, an act edited or moved,
//! another version, another seed, a damaged file — is refused with what disagreed.

use kubeplay_engine::record::{verify, GoalCheck, Record, VERSION};
use kubeplay_engine::scenario::expand;
use kubeplay_engine::session::{open_lesson, Act, ScenarioSource};

/// A learner who deletes one gateway Pod and watches its replacement come up.
fn genuine() -> Record {
    let (mut m, _) = open_lesson(ScenarioSource::Id("gateway-delete-pod".into())).unwrap();
    m.advance(900);
    let pod = expand(&m.cluster, "{pod:app=gateway}").unwrap();
    m.act_and_journal(Act::Run(format!("kubectl delete pod {pod} --wait=false")));
    m.advance(30_000);
    Record::of(&m).unwrap()
}

fn json(r: &Record) -> String {
    serde_json::to_string(r).unwrap()
}

#[test]
fn a_genuine_record_is_confirmed_goal_by_goal() {
    let r = genuine();
    assert!(r.complete(), "{:?}", r.goals);
    let v = verify(&json(&r));
    assert!(v.passed(), "{}", v.report());
    for ((_, g), claimed) in v.goals.iter().zip(&r.goals) {
        assert_eq!(*g, GoalCheck::Confirmed(claimed.unwrap()));
    }
    assert!(v.report().ends_with("PASSED\n"), "{}", v.report());
}

#[test]
fn a_goal_whose_time_was_moved_is_refuted() {
    let mut r = genuine();
    let last = r.goals.len() - 1;
    r.goals[last] = r.goals[last].map(|t| t - 100);
    let v = verify(&json(&r));
    assert!(!v.passed() && !v.genuine());
    assert!(matches!(v.goals[last].1, GoalCheck::Refuted { .. }));
    assert!(v.report().contains("[!] "), "{}", v.report());
}

#[test]
fn a_goal_claimed_without_the_acts_that_meet_it_is_refuted() {
    let mut r = genuine();
    r.acts.clear();
    let v = verify(&json(&r));
    assert!(!v.passed());
    assert!(
        v.goals
            .iter()
            .any(|(_, g)| matches!(g, GoalCheck::Refuted { replayed: None, .. })),
        "{}",
        v.report()
    );
}

#[test]
fn an_edited_or_moved_act_is_refuted() {
    let r = genuine();
    let mut edited = r.clone();
    edited.acts[0].1 = Act::Run("kubectl get pods".into());
    assert!(!verify(&json(&edited)).passed());
    let mut moved = r.clone();
    moved.acts[0].0 += 500;
    let v = verify(&json(&moved));
    assert!(!v.passed() && !v.genuine(), "{}", v.report());
}

#[test]
fn another_version_another_seed_or_another_lesson_is_refused_with_the_reason() {
    let r = genuine();
    let mut other = r.clone();
    other.kubeplay = "0.0.1".into();
    let v = verify(&json(&other));
    assert!(
        v.refused.as_deref().unwrap().contains(&format!(
            "made by kubeplay 0.0.1, verified by kubeplay {VERSION}"
        )),
        "{v:?}"
    );
    let mut seed = r.clone();
    seed.seed += 1;
    assert!(verify(&json(&seed)).refused.unwrap().contains("seed"));
    let mut lesson = r.clone();
    lesson.lesson = ScenarioSource::Id("no-such-lesson".into());
    assert!(verify(&json(&lesson))
        .refused
        .unwrap()
        .contains("no-such-lesson"));
    let mut goals = r;
    goals.goals.pop();
    assert!(verify(&json(&goals)).refused.unwrap().contains("goals"));
}

#[test]
fn a_damaged_or_unbounded_record_is_refused_and_never_panics() {
    for text in [
        "",
        "{",
        "null",
        "[]",
        "{\"format\":\"kubeplay-completion\"}",
        &json(&genuine()).replace("\"now\"", "\"extra\":1,\"now\""),
    ] {
        let v = verify(text);
        assert!(v.refused.is_some(), "{text}: {v:?}");
    }
    let mut r = genuine();
    r.acts = vec![(0, Act::Poll); 10_001];
    assert!(verify(&json(&r)).refused.unwrap().contains("10001 acts"));
    let mut r = genuine();
    r.acts.push((0, Act::Poll));
    assert!(verify(&json(&r)).refused.unwrap().contains("times"));
    let mut r = genuine();
    r.acts.push((r.now, Act::Run("sim advance 7h".into())));
    assert!(verify(&json(&r)).refused.unwrap().contains("in one piece"));
}
