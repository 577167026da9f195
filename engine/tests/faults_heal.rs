//! Every fault heals: whatever a node went through — cut off mid-pull, in back-off,
//! with faults injected while nobody could see it, powered off while cut off, removed
//! and added again — once the faults stop, its kubelet resumes everything it owns and
//! the cluster converges. `sim settle` never says "settled" while work is stranded.

mod common;
use common::*;
use kubeplay_engine::api::*;
use kubeplay_engine::cluster::Cluster;

/// A one-replica Deployment `name` pinned to `node`, with a readiness probe.
fn pinned(name: &str, image: &str, node: &str) -> String {
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata: {{name: {name}}}
spec:
  replicas: 1
  selector: {{matchLabels: {{app: {name}}}}}
  template:
    metadata: {{labels: {{app: {name}}}}}
    spec:
      nodeSelector: {{kubernetes.io/hostname: {node}}}
      containers:
      - name: app
        image: {image}
        readinessProbe: {{httpGet: {{path: /, port: 80}}, periodSeconds: 5}}
"
    )
}

fn deployment<'a>(c: &'a Cluster, name: &str) -> &'a Deployment {
    c.store
        .get::<Deployment>(&kubeplay_engine::apiserver::ObjKey::new("default", name))
        .expect("deployment exists")
}

fn pods_of<'a>(c: &'a Cluster, app: &str) -> Vec<&'a Pod> {
    c.store
        .list::<Pod>()
        .filter(|p| p.metadata.labels.get("app").map(String::as_str) == Some(app))
        .collect()
}

/// Every kubelet: nothing stranded, nothing housekeeping had to repair.
fn assert_no_stranded_work(c: &Cluster) {
    for (n, k) in &c.kubelets {
        assert_eq!(k.stalled_pods(&c.store), Vec::<String>::new(), "{n}");
        assert_eq!(k.repairs(), 0, "{n}: housekeeping had to resume a worker");
    }
}

/// Wait until the only Pod of `app` shows `reason` as its container's waiting reason.
fn until_waiting(c: &mut Cluster, app: &str, reason: &str) {
    let app = app.to_string();
    let reason = reason.to_string();
    step_until(c, 300_000, &format!("{app} {reason}"), move |c| {
        pods_of(c, &app).iter().any(|p| {
            p.status
                .container_statuses
                .iter()
                .any(|s| s.state.waiting.as_ref().is_some_and(|w| w.reason == reason))
        })
    });
}

#[test]
fn a_pod_cut_off_mid_image_pull_finishes_starting_and_reports_running_after_the_heal() {
    let mut c = web_cluster(1);
    apply(&mut c, &pinned("shop", "shop:2.0", "node-1"));
    step_until(&mut c, 60_000, "pulling", |c| {
        c.events()
            .iter()
            .any(|e| e.reason == "Pulling" && e.involved_object.name.starts_with("shop"))
    });
    sh(&mut c, "sim node partition node-1");
    c.advance(120_000);
    assert_eq!(
        c.node_ps("node-1")
            .unwrap()
            .iter()
            .filter(|r| r.0.starts_with("shop"))
            .count(),
        1,
        "the pull finished and the container runs on the cut-off node"
    );
    sh(&mut c, "sim node up node-1");
    assert!(c.settle(600_000), "settles");
    assert_eq!(deployment(&c, "shop").status.ready_replicas, 1);
    let p = pods_of(&c, "shop")[0];
    assert_eq!(p.status.phase, "Running");
    assert_no_stranded_work(&c);
}

#[test]
fn a_pod_in_image_pull_back_off_starts_once_the_registry_serves_it_even_across_a_partition() {
    let mut c = web_cluster(2);
    sh(&mut c, "sim image-fail shop:2.0");
    apply(&mut c, &pinned("shop", "shop:2.0", "node-2"));
    until_waiting(&mut c, "shop", "ImagePullBackOff");
    sh(&mut c, "sim node partition node-2");
    c.advance(30_000);
    sh(&mut c, "sim image-ok shop:2.0");
    c.advance(30_000);
    sh(&mut c, "sim node up node-2");
    assert!(c.settle(900_000), "settles");
    assert_eq!(deployment(&c, "shop").status.ready_replicas, 1);
    assert_no_stranded_work(&c);
}

#[test]
fn a_pod_made_unready_then_cut_off_becomes_ready_again_after_heal_and_sim_ready() {
    let mut c = web_cluster(3);
    apply(&mut c, &pinned("shop", "nginx:1.27", "node-3"));
    assert!(c.settle(300_000));
    let name = pods_of(&c, "shop")[0].metadata.name.clone();
    sh(&mut c, &format!("sim unready pod/{name}"));
    c.advance(30_000);
    assert_eq!(deployment(&c, "shop").status.ready_replicas, 0);
    sh(&mut c, "sim node partition node-3");
    c.advance(30_000);
    sh(&mut c, "sim node up node-3");
    c.advance(5_000);
    sh(&mut c, &format!("sim ready pod/{name}"));
    assert!(c.settle(300_000), "settles");
    assert_eq!(deployment(&c, "shop").status.ready_replicas, 1);
    assert_no_stranded_work(&c);
}

#[test]
fn a_pod_bound_and_deleted_while_its_node_is_cut_off_is_finished_off_at_the_heal() {
    let mut c = web_cluster(4);
    sh(&mut c, "sim node partition node-1");
    // Bound before the node controller notices (40 s), deleted while cut off.
    apply(&mut c, &pinned("shop", "nginx:1.27", "node-1"));
    step_until(&mut c, 30_000, "bound", |c| {
        pods_of(c, "shop")
            .iter()
            .any(|p| !p.spec.node_name.is_empty())
    });
    let name = pods_of(&c, "shop")[0].metadata.name.clone();
    sh(&mut c, &format!("kubectl delete pod {name} --wait=false"));
    sh(&mut c, "kubectl delete deployment shop");
    c.advance(60_000);
    assert!(pod(&c, &name).is_some_and(|p| p.metadata.is_deleting()));
    sh(&mut c, "sim node up node-1");
    assert!(c.settle(300_000), "settles");
    assert!(
        pod(&c, &name).is_none(),
        "the kubelet confirmed the deletion"
    );
    assert_no_stranded_work(&c);
}

#[test]
fn fault_verbs_on_a_cut_off_node_change_it_locally_and_are_reported_only_after_the_heal() {
    let mut c = web_cluster(5);
    let victim = c.store.pods_on_node("node-2").next().unwrap().clone();
    let name = victim.metadata.name.clone();
    sh(&mut c, "sim node partition node-2");
    let before = c.store.revision();
    sh(&mut c, &format!("sim crash pod/{name}"));
    c.advance(20_000);
    sh(&mut c, &format!("sim oom pod/{name}"));
    c.advance(30_000);
    let writes: Vec<String> = c
        .store
        .log
        .iter()
        .filter(|e| e.resource_version > before)
        .map(|e| e.writer.to_string())
        .filter(|w| w.contains("node-2"))
        .collect();
    assert_eq!(
        writes,
        Vec::<String>::new(),
        "nothing from the cut-off kubelet"
    );
    assert_eq!(pod(&c, &name).unwrap().restarts(), 0, "not reported yet");
    sh(&mut c, "sim node up node-2");
    assert!(c.settle(300_000));
    let p = pod(&c, &name).unwrap();
    assert_eq!(p.restarts(), 2, "both restarts, reported at the heal");
    assert!(p.is_ready());
    assert!(
        reasons_for(&c, "Pod", &name).contains(&"BackOff".to_string()),
        "the recorder's Events of the cut arrive at the heal"
    );
    assert_no_stranded_work(&c);
}

#[test]
fn node_up_on_a_node_both_cut_off_and_powered_off_powers_it_on_and_its_pods_run_again() {
    let mut c = web_cluster(6);
    sh(&mut c, "sim node partition node-3");
    c.advance(10_000);
    sh(&mut c, "sim node down node-3");
    assert!(
        !c.node_partitioned("node-3"),
        "a dead node is down, not cut off"
    );
    assert_eq!(
        sh(&mut c, "sim node up node-3").trim(),
        "node/node-3 powered on"
    );
    assert!(c.settle(600_000));
    assert_eq!(web(&c).status.ready_replicas, 3);
    assert_eq!(
        c.store.pods_on_node("node-3").count(),
        c.node_ps("node-3").unwrap().len(),
        "every Pod bound to node-3 runs there"
    );
    assert_no_stranded_work(&c);
}

#[test]
fn a_node_added_again_under_a_removed_nodes_name_runs_or_finishes_every_pod_bound_to_that_name() {
    let mut c = web_cluster(7);
    let on2: Vec<String> = c
        .store
        .pods_on_node("node-2")
        .map(|p| p.metadata.name.clone())
        .collect();
    assert!(!on2.is_empty());
    sh(&mut c, "sim node remove node-2");
    // A graceful delete nobody confirms: the kubelet is gone.
    sh(
        &mut c,
        &format!("kubectl delete pod {} --wait=false", on2[0]),
    );
    sh(&mut c, "sim node add node-2");
    assert!(c.settle(600_000));
    assert!(
        pod(&c, &on2[0]).is_none(),
        "the deleted Pod was finished off"
    );
    let bound = c.store.pods_on_node("node-2").count();
    assert_eq!(
        bound,
        c.node_ps("node-2").unwrap().len(),
        "no ghost: every Pod bound to node-2 runs there"
    );
    assert_eq!(web(&c).status.ready_replicas, 3);
    assert_eq!(web(&c).status.available_replicas, 3);
    assert_no_stranded_work(&c);
}

#[test]
fn a_node_removed_and_added_again_leaves_settle_an_exact_count_of_pending_work() {
    let mut c = Cluster::with_default_nodes(80);
    for s in [86, 88, 86, 68, 13, 68, 79] {
        sh(&mut c, &format!("sim advance {s}s"));
    }
    sh(&mut c, "sim node remove node-1");
    sh(&mut c, "sim advance 9s");
    sh(&mut c, "sim node add node-1");
    assert!(c.foreground_count_is_exact());
    assert!(c.settle(1_200_000), "{:?}", c.busy_work(5));
}

#[test]
fn re_creating_a_deployment_after_an_orphaning_delete_adopts_its_replicaset_and_settles() {
    let mut c = web_cluster(8);
    sh(&mut c, "kubectl delete deployment web --cascade=orphan");
    c.advance(5_000);
    sh(
        &mut c,
        "kubectl create deployment web --image=nginx:1.27 --replicas=3",
    );
    assert!(
        c.settle(120_000),
        "no controller loops: {:?}",
        c.busy_work(5)
    );
    let uid = web(&c).metadata.uid.clone();
    let rs = c.store.list::<ReplicaSet>().collect::<Vec<_>>();
    assert!(
        rs.iter()
            .all(|r| r.metadata.controller_ref().is_some_and(|o| o.uid == uid)),
        "the orphan was adopted"
    );
    assert_eq!(rs.iter().filter(|r| r.spec.replicas > 0).count(), 1);
    assert_eq!(web(&c).status.ready_replicas, 3);
    let start = c.store.log.len();
    c.advance(600_000);
    assert!(
        c.store
            .log
            .since(start)
            .all(|e| e.kind == Kind::Lease || e.kind == Kind::Node),
        "quiet once settled"
    );
}

#[test]
fn a_deployment_paused_mid_rollout_settles_instead_of_checking_its_deadline_every_second() {
    let mut c = web_cluster(9);
    sh(&mut c, "sim image-fail nginx:1.28");
    sh(&mut c, "kubectl set image deployment/web nginx=nginx:1.28");
    c.advance(20_000);
    sh(&mut c, "kubectl rollout pause deployment/web");
    sh(&mut c, "sim image-ok nginx:1.28");
    assert!(c.settle(1_800_000), "{:?}", c.busy_work(5));
    assert!(c.controllers.deployment.awaiting_deadline.is_empty());
}

#[test]
fn settle_waits_for_the_gitops_sync_that_will_undo_a_drift() {
    let mut c = web_cluster(10);
    sh(&mut c, "sim gitops on deployment/web --every 30s");
    assert!(c.settle(60_000));
    sh(&mut c, "kubectl scale deployment web --replicas=5");
    assert!(c.settle(600_000));
    assert_eq!(
        web(&c).spec.replicas,
        3,
        "settled only after the sync put it back"
    );
    assert_eq!(web(&c).status.ready_replicas, 3);
}

#[test]
fn declaring_a_drifted_deployment_again_with_gitops_on_settles_with_one_chain_of_syncs() {
    let mut c = web_cluster(11);
    sh(&mut c, "sim gitops on deployment/web --every 30s");
    c.advance(40_000);
    sh(&mut c, "kubectl scale deployment web --replicas=4");
    // Declared again before the sync undid the drift: the live spec is now Git's.
    sh(&mut c, "sim gitops on deployment/web --every 1s");
    assert!(c.settle(600_000), "{:?}", c.busy_work(5));
    assert_eq!(web(&c).spec.replicas, 4);
    let start = c.store.log.len();
    let syncs_before = c.controllers.gitops.syncs.len();
    c.advance(60_000);
    assert_eq!(syncs_before, 1);
    assert!(c.store.log.since(start).all(|e| e.writer != "gitops-sync"));
    sh(&mut c, "sim gitops off deployment/web");
    sh(&mut c, "sim gitops on deployment/web --every 5s");
    sh(&mut c, "kubectl scale deployment web --replicas=2");
    assert!(c.settle(600_000), "{:?}", c.busy_work(5));
    assert_eq!(web(&c).spec.replicas, 4, "the sync put it back");
    let gitops_writes = c
        .store
        .log
        .iter()
        .filter(|e| e.writer == "gitops-sync")
        .count();
    assert_eq!(
        gitops_writes, 1,
        "one sync undid the drift, not two chains of them"
    );
}

#[test]
fn a_pull_in_back_off_beside_a_crashing_container_is_retried_once_the_registry_serves_it() {
    // A Deployment created for nginx, then applied for shop:2.0 without the
    // last-applied annotation: containers merge by name, so its Pods run both, one
    // refused by the registry, the other crashing 3 s after each start.
    let mut c = Cluster::with_default_nodes(4272);
    sh(
        &mut c,
        "kubectl create deployment web --image=nginx:1.27 --replicas=3",
    );
    sh(&mut c, "sim image-fail nginx:1.27");
    sh(&mut c, "sim image-crash shop:2.0 --after 3s");
    apply(&mut c, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n      - name: app\n        image: shop:2.0\n        resources: {requests: {cpu: 200m, memory: 256Mi}}\n");
    sh(&mut c, "sim node add n8 --cpu 4 --memory 8Gi");
    sh(&mut c, "kubectl taint nodes node-3 dedicated=x:NoExecute");
    sh(&mut c, "sim advance 57s");
    sh(&mut c, "sim image-ok nginx:1.27");
    sh(&mut c, "sim image-ok shop:2.0");
    sh(&mut c, "kubectl taint nodes node-3 dedicated-");
    // The exit of the crashing container must not end the bring-up of the other: its
    // pull is retried after its back-off, and no worker is left without a timer.
    for _ in 0..300 {
        c.advance(1_000);
        assert_no_stranded_work(&c);
    }
}
