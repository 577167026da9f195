//! A count a user writes is a number, never an allocation or a walk of that size: a
//! StatefulSet of 2,147,483,647 replicas, an Indexed Job of as many completions, or a
//! forged `completedIndexes` interval cost what exists (Pods, intervals), and the
//! cluster-wide Pod limit stops the creates. Each of these used to abort (an
//! allocation of gigabytes) or walk two billion indexes.

mod common;

use kubeplay_engine::api::{Job, Kind, Pod, StatefulSet};
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};
use kubeplay_engine::time::SECOND;

fn stateful_set(policy: &str, replicas: i64) -> String {
    format!(
        "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {{name: db}}\nspec:\n  replicas: {replicas}\n  serviceName: db\n  podManagementPolicy: {policy}\n  selector: {{matchLabels: {{app: db}}}}\n  template:\n    metadata: {{labels: {{app: db}}}}\n    spec:\n      containers: [{{name: pg, image: postgres:16}}]\n"
    )
}

/// The default 3 nodes: the Pod limit is 330 (110 a node, over a floor set low).
fn small_cluster() -> Cluster {
    let mut c = Cluster::with_default_nodes(1);
    c.store.pod_limit_floor = Some(40);
    c
}

const LIMIT: usize = 330;

fn pods_named(c: &Cluster, prefix: &str) -> Vec<String> {
    c.store
        .list::<Pod>()
        .map(|p| p.metadata.name.clone())
        .filter(|n| n.starts_with(prefix))
        .collect()
}

#[test]
fn scaling_an_ordered_stateful_set_to_int32_max_creates_one_pod_at_a_time() {
    let mut c = small_cluster();
    common::apply(&mut c, &stateful_set("OrderedReady", 2));
    assert!(c.settle(120 * SECOND));
    common::sh(&mut c, "kubectl scale statefulset db --replicas=2147483647");
    c.advance(60 * SECOND);
    let set = c
        .store
        .get::<StatefulSet>(&ObjKey::new("default", "db"))
        .unwrap();
    assert_eq!(set.spec.replicas, 2_147_483_647);
    // In order, each waiting for the one before to be Ready: a handful in a minute.
    let pods = pods_named(&c, "db-");
    assert!((3..=LIMIT).contains(&pods.len()), "{pods:?}");
    for i in 0..pods.len() {
        assert!(pods.contains(&format!("db-{i}")), "{pods:?}");
    }
    let o = run(&mut c, "kubectl get statefulset db", None, &NoFiles);
    assert!(o.ok && o.output.contains("/2147483647"), "{}", o.output);
}

#[test]
fn a_parallel_stateful_set_of_int32_max_stops_at_the_pod_limit() {
    let mut c = small_cluster();
    common::apply(&mut c, &stateful_set("Parallel", 2_147_483_647));
    c.advance(60 * SECOND);
    // Every Pod up to the limit, by the lowest ordinals; the rest refused.
    assert_eq!(c.store.count(Kind::Pod), LIMIT);
    let pods = pods_named(&c, "db-");
    for i in 0..LIMIT {
        assert!(pods.contains(&format!("db-{i}")), "{pods:?}");
    }
    assert!(c.failed.iter().any(|f| f.writer == "statefulset-controller"
        && f.error.contains("exceeded quota: kubeplay-pod-limit")));
    // Scaled back down, the condemned go from the highest ordinal.
    common::sh(&mut c, "kubectl scale statefulset db --replicas=3");
    c.advance(120 * SECOND);
    let mut pods = pods_named(&c, "db-");
    pods.sort();
    assert_eq!(pods, vec!["db-0", "db-1", "db-2"]);
}

#[test]
fn a_parallel_stateful_set_creates_its_pods_a_burst_at_a_time() {
    // Past the burst, the rest come on the syncs the creates' own events bring.
    let mut c = Cluster::with_default_nodes(1);
    common::apply(&mut c, &stateful_set("Parallel", 1_200));
    c.advance(30 * SECOND);
    assert_eq!(pods_named(&c, "db-").len(), 1_200);
}

#[test]
fn an_indexed_job_of_int32_max_completions_costs_its_pods_not_its_indexes() {
    let mut c = small_cluster();
    common::apply(
        &mut c,
        "apiVersion: batch/v1\nkind: Job\nmetadata: {name: big}\nspec:\n  completionMode: Indexed\n  completions: 2147483647\n  parallelism: 100000\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: busybox, command: [sh, -c, 'exit 0']}]\n",
    );
    c.advance(120 * SECOND);
    let job = c.store.get::<Job>(&ObjKey::new("default", "big")).unwrap();
    assert!(c.store.count(Kind::Pod) <= LIMIT);
    // Some finished: their indexes are intervals from 0.
    assert!(job.status.succeeded > 0, "{:?}", job.status);
    assert!(
        job.status.completed_indexes.starts_with('0'),
        "{}",
        job.status.completed_indexes
    );
    let o = run(&mut c, "kubectl get job big", None, &NoFiles);
    assert!(o.ok && o.output.contains("/2147483647"), "{}", o.output);
}

#[test]
fn a_forged_completed_indexes_interval_of_two_billion_is_read_as_one_interval() {
    let mut c = small_cluster();
    common::apply(
        &mut c,
        "apiVersion: batch/v1\nkind: Job\nmetadata: {name: big}\nspec:\n  completionMode: Indexed\n  completions: 2147483647\n  parallelism: 3\n  suspend: true\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: busybox, command: [sh, -c, 'exit 0']}]\n",
    );
    c.advance(5 * SECOND);
    // Every index but the last already done, as a forged status says.
    let o = run(
        &mut c,
        r#"kubectl patch job big --subresource=status --type=merge -p '{"status":{"completedIndexes":"0-2147483645"}}'"#,
        None,
        &NoFiles,
    );
    assert!(o.ok, "{}", o.output);
    common::sh(
        &mut c,
        r#"kubectl patch job big --type=merge -p '{"spec":{"suspend":false}}'"#,
    );
    c.advance(120 * SECOND);
    let job = c.store.get::<Job>(&ObjKey::new("default", "big")).unwrap();
    // The one index left ran, and the Job is complete.
    assert_eq!(job.status.completed_indexes, "0-2147483646");
    assert_eq!(job.status.succeeded, 2_147_483_647);
    assert!(
        job.status.conditions.iter().any(|c| c.type_ == "Complete"),
        "{:?}",
        job.status.conditions
    );
}
