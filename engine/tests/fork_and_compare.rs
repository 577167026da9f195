//! Fork and compare: a branch with one change, played on the same clock with the same
//! acts, differs from the first only by that change's doing, and the first moment the
//! two differ is found.

use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::fork::{differing, outline, outline_phrase, outline_phrases, Fork};
use kubeplay_engine::session::{Act, Machine};

fn playground() -> Machine {
    let mut c = Cluster::with_default_nodes(1);
    let _ = c.create_deployment("web", "nginx:1.27", 3, "100m", "128Mi");
    c.settle(120_000);
    Machine::new(c)
}

/// Play both branches `ms` on one clock, in ticks of `tick`.
fn play(main: &mut Machine, f: &mut Fork, ms: u64, tick: u64) {
    for _ in 0..ms / tick {
        main.advance(tick);
        assert!(f.follow(&main.cluster, &mut || false));
        assert_eq!(f.m.cluster.now(), main.cluster.now(), "one clock");
    }
}

#[test]
fn a_change_invisible_at_first_differs_once_the_same_act_plays_out_differently() {
    let mut main = playground();
    main.advance(1_000);
    let mut f = Fork::start(&main, "kubectl cordon node-1\nkubectl cordon node-2").unwrap();
    play(&mut main, &mut f, 5_000, 100);
    assert_eq!(
        f.first_difference, None,
        "a cordon changes nothing a learner sees yet"
    );
    // The learner scales: both branches do it.
    main.act_and_journal(Act::Run("kubectl scale deployment web --replicas=6".into()));
    f.also(&main.cluster, "kubectl scale deployment web --replicas=6");
    play(&mut main, &mut f, 20_000, 100);
    let d = f
        .first_difference
        .clone()
        .expect("the new Pods land differently");
    assert!(
        d.main.starts_with("node/node-") && d.fork.starts_with("node/node-"),
        "{d:?}"
    );
    assert!(d.at > 6_000, "{d:?}");
    // In the branch with the cordons, every new Pod is on node-3.
    let line = outline(&f.m.cluster)
        .into_iter()
        .find(|l| l.starts_with("node/node-3"))
        .unwrap();
    assert!(
        line.contains(" 6 Pods") || line.contains(" 4 Pods") || line.contains("Pods ("),
        "{line}"
    );
    let (a, b) = (outline(&main.cluster), outline(&f.m.cluster));
    assert_eq!(a[0], b[0], "both have web 6/6: {a:?} {b:?}");
    assert_ne!(a, b);
}

#[test]
fn a_change_that_fails_is_refused_and_makes_no_branch() {
    let main = playground();
    let e = Fork::start(&main, "kubectl scale deployment nope --replicas=2").unwrap_err();
    assert!(e.contains("not found"), "{e}");
}

#[test]
fn a_visible_change_is_the_first_difference_at_once() {
    let mut main = playground();
    let mut f = Fork::start(&main, "kubectl scale deployment web --replicas=5").unwrap();
    play(&mut main, &mut f, 200, 100);
    let d = f.first_difference.expect("spec differs at once");
    assert_eq!(d.at, f.at);
    assert!(
        d.main.starts_with("deployment/web: 3 wanted")
            && d.fork.starts_with("deployment/web: 5 wanted"),
        "{d:?}"
    );
}

#[test]
fn what_differs_is_named_by_the_thing_each_outline_line_is_about() {
    let mut main = playground();
    let mut f = Fork::start(&main, "kubectl scale deployment web --replicas=5").unwrap();
    assert_eq!(
        differing(&main.cluster, &f.m.cluster),
        ["deployment/web".to_string()].into_iter().collect(),
        "only the spec differs at once"
    );
    play(&mut main, &mut f, 30_000, 100);
    let d = differing(&main.cluster, &f.m.cluster);
    assert!(d.contains("deployment/web"), "{d:?}");
    assert!(
        d.iter().any(|k| k.starts_with("replicaset/web-")),
        "the ReplicaSet's counts differ too: {d:?}"
    );
    assert!(
        d.iter().any(|k| k.starts_with("node/")),
        "two more Pods run somewhere: {d:?}"
    );
    let new_pods: Vec<&String> = d.iter().filter(|k| k.starts_with("pod/")).collect();
    assert_eq!(new_pods.len(), 2, "the two Pods only the branch has: {d:?}");
    assert!(differing(&main.cluster, &main.cluster).is_empty());
}

#[test]
fn an_outline_line_reads_back_as_the_sentence_it_was_filled_from() {
    let mut main = playground();
    main.act_and_journal(Act::Run("kubectl cordon node-1".into()));
    main.act_and_journal(Act::Run(
        "kubectl scale deployment web --replicas=100".into(),
    ));
    main.advance(10_000);
    let phrases = outline_phrases(&main.cluster);
    assert!(phrases.len() >= 6, "{phrases:?}");
    for (p, line) in phrases.iter().zip(outline(&main.cluster)) {
        assert_eq!(&outline_phrase(&line), p, "{line}");
    }
    assert!(
        outline(&main.cluster)
            .iter()
            .any(|l| l.starts_with("Pods on no node: ") && l != "Pods on no node: 0"),
        "100 Pods of 100m do not fit on two 4-CPU nodes: some wait"
    );
    assert_eq!(outline_phrase("").template, "{}");
    assert_eq!(outline_phrase("node/x: odd").args, vec!["node/x: odd"]);
}
