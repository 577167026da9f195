//! "Record a lesson": a session written as a scenario file loads, its steps replay the
//! session, and the goals it suggests are reached by the steps and only by them.

use kubeplay_engine::author::{write_lesson, Base};
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::scenario::{self, expand, play};
use kubeplay_engine::session::{open_lesson, Act, Machine, ScenarioSource};

/// The playground as the page opens it: three nodes, `web` settled.
fn playground() -> Cluster {
    let mut c = Cluster::standard(1);
    let _ = c.create_deployment("web", "nginx:1.27", 3, "100m", "128Mi");
    c.settle(120_000);
    c
}

#[test]
fn a_playground_session_becomes_a_lesson_whose_steps_reach_its_suggested_goals() {
    let start = playground();
    let mut m = Machine::new(start.clone());
    m.advance(2_000);
    let pod = expand(&m.cluster, "{pod:app=web}").unwrap();
    m.act_and_journal(Act::Run(format!("kubectl delete pod {pod} --wait=false")));
    m.advance(20_000);
    m.act_and_journal(Act::Run("kubectl scale deployment web --replicas=5".into()));
    m.advance(20_000);
    let yaml = write_lesson(&Base::Playground, &start, &m.journal, &m.cluster);
    let s = scenario::parse(&yaml, "recorded.yaml").unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    assert_eq!(s.steps.len(), 2, "{yaml}");
    assert!(yaml.contains("    wait: 20s\n"), "{yaml}");
    assert!(
        yaml.contains("deployment/web {.status.readyReplicas} == 5"),
        "{yaml}"
    );
    assert!(
        yaml.contains("count events --field reason=Killing >= 1"),
        "{yaml}"
    );
    let r = play(&s, "en").unwrap();
    assert!(r.passed(), "{}", r.transcript);
    // Without its steps, none of its goals is reached.
    let mut bare = s.clone();
    bare.steps.clear();
    let r = play(&bare, "en").unwrap();
    assert!(r.reached.iter().all(Option::is_none), "{}", r.transcript);
}

#[test]
fn a_session_of_a_lesson_keeps_the_lessons_cluster_and_setup() {
    let (mut m, _) = open_lesson(ScenarioSource::Id("replacement-pending".into())).unwrap();
    let start = m.cluster.clone();
    let (s, text) = match scenario::BUILTIN
        .iter()
        .find(|(id, _)| *id == "replacement-pending")
    {
        Some((_, text)) => (scenario::parse(text, "x").unwrap(), *text),
        None => panic!("no lesson"),
    };
    m.act_and_journal(Act::Run(
        "kubectl scale deployment gateway --replicas=2".into(),
    ));
    m.advance(30_000);
    let yaml = write_lesson(&Base::Lesson(&s, text), &start, &m.journal, &m.cluster);
    let back = scenario::parse(&yaml, "recorded.yaml").unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    assert_eq!(back.cluster, s.cluster);
    assert_eq!(back.setup, s.setup);
    assert_eq!(back.steps.len(), 1);
}
