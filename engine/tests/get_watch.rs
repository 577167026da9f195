//! `kubectl get --watch` in the console: it waits as `rollout status` does, printing
//! each write as the clock plays; Ctrl+C ends it (and the store stops keeping writes
//! for it); without `--request-timeout` the API server ends it after 30 minutes; a
//! watch left running keeps only the last part of its output. The printed texts are in
//! `golden/watch.sh` and the real-kubectl differential suite.

use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::wait::{keep_tail, KEPT_OUTPUT, WATCH_TIMEOUT};
use kubeplay_engine::command::{self, NoFiles};
use kubeplay_engine::session::Machine;
use kubeplay_engine::time::SECOND;

fn run(c: &mut Cluster, line: &str) -> command::Outcome {
    command::run(c, line, None, &NoFiles)
}

#[test]
fn a_watch_in_the_console_prints_writes_as_the_clock_plays_until_ctrl_c() {
    let mut m = Machine::new(Cluster::with_default_nodes(1));
    m.run_text_unrecorded("kubectl create deployment web --image=nginx --replicas=2");
    let t = m.cluster.now() + SECOND;
    m.cluster.run_until(t);
    m.run_text_unrecorded("kubectl get pods -w");
    assert!(m.pending.is_some(), "the watch waits");
    let first = m
        .console
        .last()
        .map(|e| e.output.clone())
        .unwrap_or_default();
    assert!(first.starts_with("NAME "), "{first}");
    let t = m.cluster.now() + 10 * SECOND;
    m.cluster.run_until(t);
    m.poll_pending();
    let later = m
        .console
        .last()
        .map(|e| e.output.clone())
        .unwrap_or_default();
    assert!(later.len() > first.len(), "{later}");
    assert!(later.contains("Running"), "{later}");
    // Headers once: the rows after the list come without one.
    assert_eq!(later.matches("NAME ").count(), 1, "{later}");
    m.stop_pending();
    let entry = m.console.last().cloned().expect("the entry");
    assert!(entry.output.ends_with("^C\n"), "{}", entry.output);
    assert!(!entry.ok);
    // Nothing is kept for a watch that ended.
    m.run_text_unrecorded("kubectl scale deployment web --replicas=3");
    let t = m.cluster.now() + 10 * SECOND;
    m.cluster.run_until(t);
    assert!(m.cluster.store.take_followed().is_empty());
}

#[test]
fn a_watch_without_a_timeout_ends_quietly_when_the_api_server_closes_it() {
    let mut c = Cluster::with_default_nodes(1);
    let start = c.now();
    let o = run(&mut c, "kubectl get namespaces -w");
    assert!(o.ok, "{}", o.output);
    assert_eq!(c.now() - start, WATCH_TIMEOUT);
    assert!(o.output.starts_with("NAME "), "{}", o.output);
}

#[test]
fn a_request_timeout_bounds_the_watch_in_simulated_time() {
    let mut c = Cluster::with_default_nodes(1);
    let start = c.now();
    let o = run(&mut c, "kubectl get pods -w --request-timeout=90s");
    assert!(o.ok);
    // Nothing to list: no header, no "No resources found".
    assert_eq!(o.output, "");
    assert_eq!(c.now() - start, 90 * SECOND);
    let bad = run(&mut c, "kubectl get pods -w --request-timeout=1d");
    assert!(!bad.ok);
    assert!(bad.output.starts_with("error: Invalid timeout value."));
}

#[test]
fn a_watch_that_ends_runs_its_last_instant_to_the_end_as_sim_advance_does() {
    // The same script with the watch and with `sim advance` of its length leaves the
    // same world: the next Pod's name is drawn at the same point of the seeded stream.
    let script = |wait: &str| {
        let mut c = Cluster::with_default_nodes(1);
        for l in [
            "kubectl create deployment web --image=nginx --replicas=3",
            wait,
            "kubectl scale deployment web --replicas=1",
            "sim advance 12s",
            "kubectl scale deployment web --replicas=2",
            "sim advance 5s",
        ] {
            run(&mut c, l);
        }
        run(&mut c, "kubectl get pods -o name").output
    };
    assert_eq!(
        script("kubectl get pods -w --request-timeout=5s"),
        script("sim advance 5s")
    );
}

#[test]
fn output_kept_for_a_long_watch_is_its_last_part_from_a_line_start() {
    let mut s: String = (0..100_000).map(|i| format!("line {i}\n")).collect();
    keep_tail(&mut s, KEPT_OUTPUT);
    assert!(s.len() <= KEPT_OUTPUT + 64);
    assert!(
        s.starts_with("… (earlier output dropped)\nline "),
        "{}",
        &s[..60]
    );
    assert!(s.ends_with("line 99999\n"));
    let mut short = "a\nb\n".to_string();
    keep_tail(&mut short, KEPT_OUTPUT);
    assert_eq!(short, "a\nb\n");
}

#[test]
fn a_branch_forked_while_a_watch_waits_keeps_no_writes_for_it() {
    let mut m = Machine::new(Cluster::with_default_nodes(1));
    m.run_text_unrecorded("kubectl create deployment web --image=nginx --replicas=2");
    m.run_text_unrecorded("kubectl get pods -w");
    assert!(m.pending.is_some());
    let mut f = kubeplay_engine::fork::Fork::start(&m, "kubectl scale deployment web --replicas=4")
        .expect("the change runs");
    let t = f.m.cluster.now() + 10 * SECOND;
    f.m.cluster.run_until(t);
    assert!(f.m.cluster.store.take_followed().is_empty());
}

#[test]
fn a_filtered_watch_hears_an_object_that_starts_to_match_as_added_and_one_that_stops_as_deleted() {
    let mut c = Cluster::with_default_nodes(1);
    let o = run(
        &mut c,
        "kubectl create deployment web --image=nginx:1.27 --replicas=2",
    );
    assert!(o.ok, "{}", o.output);
    // The Pods are not Running yet: none is listed; each is ADDED when it starts.
    let o = run(
        &mut c,
        "kubectl get pods --field-selector status.phase=Running -w --output-watch-events --request-timeout=20s",
    );
    assert!(o.ok, "{}", o.output);
    let events: Vec<&str> = o
        .output
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(events.first(), Some(&"ADDED"), "{}", o.output);
    assert_eq!(
        events.iter().filter(|e| **e == "ADDED").count(),
        2,
        "{}",
        o.output
    );
    // A label taken off moves a Pod out of a label selector's watch: DELETED, as it was.
    let pod = c
        .store
        .list::<kubeplay_engine::api::Pod>()
        .next()
        .map(|p| p.metadata.name.clone())
        .expect("a Pod");
    let o = run(&mut c, &format!("kubectl label pod {pod} tier=web"));
    assert!(o.ok, "{}", o.output);
    let mut m = Machine::new(c);
    m.run_text_unrecorded("kubectl get pods -l tier=web -w --output-watch-events");
    assert!(m.pending.is_some(), "the watch waits");
    // Another client takes the label off while the watch waits.
    let o = run(&mut m.cluster, &format!("kubectl label pod {pod} tier-"));
    assert!(o.ok, "{}", o.output);
    let t = m.cluster.now() + SECOND;
    m.cluster.run_until(t);
    m.poll_pending();
    let out = m
        .console
        .iter()
        .map(|e| e.output.clone())
        .collect::<String>();
    assert!(out.contains("DELETED"), "{out}");
}
