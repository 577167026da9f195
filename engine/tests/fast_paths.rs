//! The store's incremental shortcuts ([`FastPaths`]) are for speed only: with every one
//! of them off (the plain computations) the same scenarios produce byte-identical
//! output — the learner's transcript, every write in the watch log with what it changed,
//! and the scheduler's verdicts.

use kubeplay_engine::apiserver::FastPaths;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::kubelet::NodeConfig;
use kubeplay_engine::scenario::{self, BUILTIN};
use kubeplay_engine::time::SECOND;

use kubeplay_engine::fault_runs::visible;

#[test]
fn every_built_in_scenario_plays_the_same_with_the_shortcuts_off() {
    assert_eq!(BUILTIN.len(), 50);
    // The lessons with the learner's controller run it in the sandbox the CLI links.
    kubeplay_engine::controllers::script::runner::install_global(kubeplay_sandbox::run_json);
    for (id, _) in BUILTIN {
        let s = scenario::builtin(id).unwrap().unwrap();
        let (fast_report, fast) = scenario::play_with(&s, "en", FastPaths::ALL).unwrap();
        let (plain_report, plain) = scenario::play_with(&s, "en", FastPaths::NONE).unwrap();
        assert!(fast_report.passed(), "{id}: {}", fast_report.transcript);
        assert_eq!(fast_report, plain_report, "{id}: the transcripts differ");
        assert!(fast.store.log.len() > 50, "{id}: too small to tell");
        let (a, b) = (visible(&fast), visible(&plain));
        if a != b {
            let at = a
                .lines()
                .zip(b.lines())
                .position(|(x, y)| x != y)
                .unwrap_or(0);
            panic!(
                "{id}: first difference at line {at}:\n fast:  {}\n plain: {}",
                a.lines().nth(at).unwrap_or(""),
                b.lines().nth(at).unwrap_or("")
            );
        }
    }
}

/// A small envelope: 30 nodes in 3 zones, 20 Deployments × 10 replicas, then 3 nodes
/// powered off until their Pods are evicted and replaced.
fn small_envelope(fast: FastPaths) -> Cluster {
    let mut c = Cluster::new(3);
    c.store.fast = fast;
    for i in 0..30 {
        let mut cfg = NodeConfig {
            cpu: "4".into(),
            memory: "16Gi".into(),
            pods: 20,
            ..NodeConfig::default()
        };
        cfg.labels.insert(
            "topology.kubernetes.io/zone".into(),
            format!("zone-{}", ["a", "b", "c"][i % 3]),
        );
        c.add_node(&format!("node-{i:02}"), cfg).unwrap();
    }
    for d in 0..20 {
        c.create_deployment(
            &format!("app-{d:02}"),
            "registry.local/app:1.0",
            10,
            "300m",
            "512Mi",
        )
        .unwrap();
    }
    c.advance(60 * SECOND);
    for i in 0..3 {
        c.power_off(&format!("node-{:02}", i * 10)).unwrap();
    }
    c.advance(420 * SECOND);
    c
}

#[test]
fn a_small_envelope_with_a_failover_is_identical_with_the_shortcuts_off() {
    let fast = small_envelope(FastPaths::ALL);
    let plain = small_envelope(FastPaths::NONE);
    // Busy enough to matter: every Pod placed, nodes full enough to filter some out,
    // and the powered-off nodes' Pods evicted and rescheduled.
    let evicted = fast
        .store
        .log
        .iter()
        .filter(|e| e.reason == "TaintManagerEviction")
        .count();
    assert!(evicted > 0, "no eviction happened");
    assert!(fast.store.log.len() > 2_000);
    assert_eq!(visible(&fast), visible(&plain));
}
