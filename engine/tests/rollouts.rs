//! Deployment rollouts as `rolling.go`, `recreate.go`, `sync.go` and `progress.go` run
//! them, observed from outside through the command language.

mod common;
use common::*;
use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};
use kubeplay_engine::controllers::deployment::util::{max_surge, max_unavailable, revision};

fn deployment_yaml(name: &str, replicas: i64, image: &str, strategy: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: {name}}}\nspec:\n  replicas: {replicas}\n  selector: {{matchLabels: {{app: {name}}}}}\n  strategy: {strategy}\n  template:\n    metadata: {{labels: {{app: {name}}}}}\n    spec:\n      containers: [{{name: app, image: \"{image}\"}}]\n"
    )
}

fn dep(c: &Cluster, name: &str) -> Deployment {
    c.store
        .get::<Deployment>(&ObjKey::new("default", name))
        .unwrap()
        .clone()
}

fn rss(c: &Cluster, name: &str) -> Vec<ReplicaSet> {
    let d = dep(c, name);
    kubeplay_engine::controllers::deployment::owned_replica_sets(&c.store, &d)
}

/// Active, Ready Pods of the Deployment's ReplicaSets (what "available" means here:
/// minReadySeconds is 0).
fn available_pods(c: &Cluster, name: &str) -> i64 {
    let uids: Vec<String> = rss(c, name)
        .iter()
        .map(|r| r.metadata.uid.clone())
        .collect();
    c.store
        .list::<Pod>()
        .filter(|p| {
            p.metadata
                .controller_ref()
                .is_some_and(|r| uids.contains(&r.uid))
        })
        .filter(|p| p.is_active() && p.is_ready())
        .count() as i64
}

#[test]
fn rolling_updates_stay_within_max_surge_and_max_unavailable_at_every_moment() {
    let budgets = [
        "{}",
        "{rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}",
        "{rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}",
        "{rollingUpdate: {maxSurge: '50%', maxUnavailable: '50%'}}",
        "{rollingUpdate: {maxSurge: 2, maxUnavailable: 2}}",
    ];
    for replicas in [1, 3, 4, 10] {
        for strategy in budgets {
            let mut c = Cluster::with_default_nodes(1);
            sh(&mut c, "sim reset --nodes 4 --cpu 8 --memory 16Gi");
            apply(&mut c, &deployment_yaml("web", replicas, "web:1", strategy));
            assert!(c.settle(300_000));
            let d = dep(&c, "web");
            let (surge, unavailable) = (max_surge(&d), max_unavailable(&d));
            sh(&mut c, "kubectl set image deployment/web app=web:2");
            let mut steps = 0;
            loop {
                let specs: i64 = rss(&c, "web").iter().map(|r| r.spec.replicas).sum();
                assert!(
                    specs <= replicas + surge,
                    "replicas {replicas} {strategy}: Σ spec {specs} > {replicas}+{surge}"
                );
                let avail = available_pods(&c, "web");
                assert!(avail >= replicas - unavailable, "replicas {replicas} {strategy}: available {avail} < {replicas}-{unavailable} at {}", c.now());
                let d = dep(&c, "web");
                if d.status.observed_generation >= d.metadata.generation
                    && d.status.updated_replicas == replicas
                    && d.status.available_replicas == replicas
                    && d.status.replicas == replicas
                {
                    break;
                }
                assert!(c.step().is_some());
                steps += 1;
                assert!(
                    steps < 20_000,
                    "replicas {replicas} {strategy}: rollout did not finish"
                );
            }
            let images: Vec<String> = c
                .store
                .list_ns::<Pod>("default")
                .filter(|p| p.is_active())
                .map(|p| p.spec.containers[0].image.clone())
                .collect();
            assert!(images.iter().all(|i| i == "web:2"), "{images:?}");
        }
    }
}

#[test]
fn three_replicas_with_default_budgets_roll_one_pod_at_a_time_in_upstreams_order() {
    let mut c = Cluster::with_default_nodes(1);
    apply(&mut c, &deployment_yaml("web", 3, "web:1", "{}"));
    assert!(c.settle(300_000));
    let old = rss(&c, "web")[0].metadata.name.clone();
    sh(&mut c, "kubectl set image deployment/web app=web:2");
    assert!(c.settle(300_000));
    let new = rss(&c, "web")
        .into_iter()
        .find(|r| r.metadata.name != old)
        .unwrap()
        .metadata
        .name;
    let msgs: Vec<String> = c
        .events()
        .iter()
        .filter(|e| e.reason == "ScalingReplicaSet")
        .skip(1)
        .map(|e| e.message.clone())
        .collect();
    assert_eq!(
        msgs,
        [
            format!("Scaled up replica set {new} from 0 to 1"),
            format!("Scaled down replica set {old} from 3 to 2"),
            format!("Scaled up replica set {new} from 1 to 2"),
            format!("Scaled down replica set {old} from 2 to 1"),
            format!("Scaled up replica set {new} from 2 to 3"),
            format!("Scaled down replica set {old} from 1 to 0"),
        ]
    );
}

#[test]
fn recreate_never_runs_old_and_new_pods_together() {
    let mut c = Cluster::with_default_nodes(1);
    apply(
        &mut c,
        &deployment_yaml("db", 3, "db:1", "{type: Recreate}"),
    );
    assert!(c.settle(300_000));
    sh(&mut c, "kubectl set image deployment/db app=db:2");
    for _ in 0..5_000 {
        let images: std::collections::BTreeSet<String> = c
            .store
            .list::<Pod>()
            .filter(|p| !p.is_terminal())
            .map(|p| p.spec.containers[0].image.clone())
            .collect();
        assert!(
            images.len() <= 1,
            "old and new together: {images:?} at {}",
            c.now()
        );
        if c.step().is_none() {
            break;
        }
    }
    assert_eq!(dep(&c, "db").status.available_replicas, 3);
}

#[test]
fn scaling_mid_rollout_spreads_replicas_proportionally_as_in_the_kubernetes_docs() {
    // docs: "Proportional scaling" — 10 replicas, maxSurge 3, maxUnavailable 2, a new
    // image that cannot be pulled, then a scale to 15.
    let mut c = Cluster::with_default_nodes(1);
    sh(&mut c, "sim reset --nodes 5 --cpu 8 --memory 16Gi");
    apply(
        &mut c,
        &deployment_yaml(
            "nginx",
            10,
            "nginx:1.14.2",
            "{rollingUpdate: {maxSurge: 3, maxUnavailable: 2}}",
        ),
    );
    assert!(c.settle(300_000));
    sh(&mut c, "sim image-fail nginx:sometag");
    sh(
        &mut c,
        "kubectl set image deployment/nginx app=nginx:sometag",
    );
    c.advance(60_000);
    let sizes = |c: &Cluster| -> Vec<(i64, String)> {
        let mut v: Vec<(i64, String)> = rss(c, "nginx")
            .iter()
            .map(|r| {
                (
                    r.spec.replicas,
                    r.spec.template.spec.containers[0].image.clone(),
                )
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        sizes(&c),
        [
            (5, "nginx:sometag".to_string()),
            (8, "nginx:1.14.2".to_string())
        ]
    );
    sh(&mut c, "kubectl scale deployment/nginx --replicas=15");
    c.advance(5_000);
    assert_eq!(
        sizes(&c),
        [
            (7, "nginx:sometag".to_string()),
            (11, "nginx:1.14.2".to_string())
        ]
    );
}

#[test]
fn a_rollback_gives_the_old_template_the_next_revision_and_remembers_its_old_number() {
    let mut c = Cluster::with_default_nodes(1);
    apply(&mut c, &deployment_yaml("web", 2, "web:1", "{}"));
    c.settle(300_000);
    sh(&mut c, "kubectl set image deployment/web app=web:2");
    c.settle(300_000);
    assert_eq!(
        sh(&mut c, "kubectl rollout undo deployment/web").trim(),
        "deployment.apps/web rolled back"
    );
    c.settle(300_000);
    let mut revs: Vec<(i64, String, Option<String>)> = rss(&c, "web")
        .iter()
        .map(|r| {
            (
                revision(&r.metadata),
                r.spec.template.spec.containers[0].image.clone(),
                r.metadata
                    .annotations
                    .get("deployment.kubernetes.io/revision-history")
                    .cloned(),
            )
        })
        .collect();
    revs.sort();
    assert_eq!(
        revs,
        [
            (2, "web:2".to_string(), None),
            (3, "web:1".to_string(), Some("1".to_string()))
        ]
    );
    assert_eq!(
        dep(&c, "web")
            .metadata
            .annotations
            .get("deployment.kubernetes.io/revision")
            .map(String::as_str),
        Some("3")
    );
    assert_eq!(
        sh(
            &mut c,
            "kubectl rollout undo deployment/web --to-revision=3"
        )
        .trim(),
        "deployment.apps/web skipped rollback (current template already matches revision 3)"
    );
}

#[test]
fn the_revision_history_limit_keeps_that_many_old_replicasets_and_zero_leaves_nothing_to_undo() {
    for (limit, want) in [(2usize, 3usize), (0, 1)] {
        let mut c = Cluster::with_default_nodes(1);
        let y = deployment_yaml("web", 1, "web:1", "{}").replace(
            "spec:\n  replicas",
            &format!("spec:\n  revisionHistoryLimit: {limit}\n  replicas"),
        );
        apply(&mut c, &y);
        c.settle(300_000);
        for v in 2..=6 {
            sh(
                &mut c,
                &format!("kubectl set image deployment/web app=web:{v}"),
            );
            c.settle(300_000);
        }
        assert_eq!(rss(&c, "web").len(), want, "limit {limit}");
        if limit == 0 {
            let o = run(
                &mut c,
                "kubectl rollout undo deployment/web",
                None,
                &NoFiles,
            );
            assert_eq!(
                o.output.trim(),
                "error: no rollout history found for deployment \"web\""
            );
        }
    }
}

#[test]
fn a_stuck_rollout_reports_progress_deadline_exceeded_one_deadline_after_its_last_progress() {
    let mut c = Cluster::with_default_nodes(1);
    let y = deployment_yaml("web", 2, "web:1", "{}").replace(
        "spec:\n  replicas",
        "spec:\n  progressDeadlineSeconds: 60\n  replicas",
    );
    apply(&mut c, &y);
    c.settle(300_000);
    sh(&mut c, "sim image-fail web:broken");
    sh(&mut c, "kubectl set image deployment/web app=web:broken");
    // Step until it times out, remembering when progress was last reported.
    let mut last_progress = 0;
    loop {
        let d = dep(&c, "web");
        let p = get_condition(&d.status.conditions, "Progressing")
            .unwrap()
            .clone();
        if p.reason == "ProgressDeadlineExceeded" {
            // Strictly after the deadline; at the latest when the +1 s requeue fires
            // (any earlier sync past the deadline notices it first, as upstream).
            let after = p.transition_ms - last_progress;
            assert!(
                after > 60_000 && after <= 61_000,
                "timed out {after} ms after the last progress"
            );
            break;
        }
        last_progress = p.update_ms;
        assert!(c.step().is_some());
    }
    let o = run(
        &mut c,
        "kubectl rollout status deployment/web",
        None,
        &NoFiles,
    );
    assert!(!o.ok);
    assert_eq!(
        o.output.lines().last(),
        Some("error: deployment \"web\" exceeded its progress deadline")
    );
    let d = dep(&c, "web");
    let p = get_condition(&d.status.conditions, "Progressing").unwrap();
    assert_eq!(
        (p.status.as_str(), p.reason.as_str()),
        ("False", "ProgressDeadlineExceeded")
    );
    assert!(
        p.message.ends_with("has timed out progressing."),
        "{}",
        p.message
    );
    // The old Pods keep serving: timing out neither stops nor rolls back.
    assert_eq!(d.status.available_replicas, 2);
}

#[test]
fn delete_with_cascade_orphan_keeps_the_replicaset_and_foreground_deletes_children_first() {
    let mut c = Cluster::with_default_nodes(1);
    apply(&mut c, &deployment_yaml("web", 2, "web:1", "{}"));
    c.settle(300_000);
    sh(&mut c, "kubectl delete deployment web --cascade=orphan");
    c.settle(60_000);
    let rs = c
        .store
        .list::<ReplicaSet>()
        .next()
        .expect("the ReplicaSet stays")
        .clone();
    assert!(rs.metadata.owner_references.is_empty(), "orphaned");
    assert_eq!(c.store.count(Kind::Pod), 2);
    // Foreground: the owner waits (foregroundDeletion) until its dependents are gone.
    apply(&mut c, &deployment_yaml("api", 2, "api:1", "{}"));
    c.settle(300_000);
    sh(
        &mut c,
        "kubectl delete deployment api --cascade=foreground --wait=false",
    );
    let d = dep(&c, "api");
    assert!(
        d.metadata.is_deleting()
            && d.metadata
                .finalizers
                .contains(&"foregroundDeletion".to_string())
    );
    c.settle(120_000);
    assert!(c
        .store
        .get::<Deployment>(&ObjKey::new("default", "api"))
        .is_none());
    assert_eq!(
        c.store.list::<ReplicaSet>().count(),
        1,
        "only the orphaned one is left"
    );
    assert!(c
        .store
        .list::<Pod>()
        .all(|p| p.metadata.labels.get("app").map(String::as_str) == Some("web")));
}

#[test]
fn a_manual_scale_of_a_deployment_owned_replicaset_is_reverted_and_the_log_shows_who() {
    let mut c = Cluster::with_default_nodes(1);
    apply(&mut c, &deployment_yaml("web", 3, "web:1", "{}"));
    c.settle(300_000);
    let rs = rss(&c, "web")[0].metadata.name.clone();
    let start = c.store.log.len();
    assert_eq!(
        sh(&mut c, &format!("kubectl scale rs {rs} --replicas=5")).trim(),
        format!("replicaset.apps/{rs} scaled")
    );
    c.settle(120_000);
    assert_eq!(rss(&c, "web")[0].spec.replicas, 3);
    let writes: Vec<&str> = c
        .store
        .log
        .since(start)
        .filter(|e| e.kind == Kind::ReplicaSet && e.verb == "update")
        .map(|e| e.writer.as_str())
        .collect();
    assert_eq!(writes, ["kubectl", "deployment-controller"]);
    assert_eq!(c.store.list::<Pod>().filter(|p| p.is_active()).count(), 3);
}

#[test]
fn the_gitops_sync_undoes_a_manual_deployment_scale_under_its_own_name() {
    let mut c = Cluster::with_default_nodes(1);
    apply(&mut c, &deployment_yaml("notes-api", 2, "notes:1", "{}"));
    c.settle(300_000);
    sh(&mut c, "sim gitops on deployment/notes-api --every 30s");
    sh(&mut c, "kubectl scale deployment notes-api --replicas=5");
    c.advance(10_000);
    assert_eq!(
        dep(&c, "notes-api").status.ready_replicas,
        5,
        "the manual scale took effect first"
    );
    c.advance(40_000);
    c.settle(120_000);
    assert_eq!(dep(&c, "notes-api").spec.replicas, 2);
    assert_eq!(dep(&c, "notes-api").status.ready_replicas, 2);
    assert!(c
        .store
        .log
        .iter()
        .any(|e| e.writer == "gitops-sync" && e.kind == Kind::Deployment));
}

#[test]
fn pods_that_cannot_be_created_surface_as_replica_failure_on_the_replicaset_and_deployment() {
    let mut c = Cluster::with_default_nodes(1);
    // The Deployment is valid; the Pods it stamps out are not (a blank-edged image).
    apply(&mut c, &deployment_yaml("web", 2, " web:1", "{}"));
    c.advance(5_000);
    let rs = rss(&c, "web")[0].clone();
    let f = get_condition(&rs.status.conditions, "ReplicaFailure")
        .expect("ReplicaFailure on the ReplicaSet");
    assert_eq!(
        (f.status.as_str(), f.reason.as_str()),
        ("True", "FailedCreate")
    );
    assert!(
        f.message
            .ends_with("is invalid: spec.containers[0].image: Invalid value: \" web:1\": must not have leading or trailing whitespace"),
        "{}",
        f.message
    );
    let d = dep(&c, "web");
    let df =
        get_condition(&d.status.conditions, "ReplicaFailure").expect("copied to the Deployment");
    assert_eq!(df.reason, "FailedCreate");
    assert!(c
        .events()
        .iter()
        .any(|e| e.reason == "FailedCreate" && e.type_ == "Warning"));
    // Fixing the template clears it.
    sh(&mut c, "kubectl set image deployment/web app=web:1");
    c.settle(300_000);
    assert!(get_condition(&dep(&c, "web").status.conditions, "ReplicaFailure").is_none());
}

#[test]
fn two_deployments_with_overlapping_selectors_do_not_fight_over_pods() {
    let mut c = Cluster::with_default_nodes(1);
    let a = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web, track: stable}}\n    spec: {containers: [{name: c, image: web:1}]}\n";
    let b = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: b}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web, track: canary}}\n    spec: {containers: [{name: c, image: web:2}]}\n";
    apply(&mut c, a);
    apply(&mut c, b);
    assert!(c.settle(300_000));
    let writes = c.store.log.len();
    c.advance(300_000);
    // Quiet: nobody keeps rewriting anybody's ReplicaSets or Pods.
    let later = c
        .store
        .log
        .since(writes)
        .filter(|e| matches!(e.kind, Kind::Pod | Kind::ReplicaSet | Kind::Deployment))
        .count();
    assert_eq!(later, 0);
    assert_eq!(
        (
            dep(&c, "a").status.ready_replicas,
            dep(&c, "b").status.ready_replicas
        ),
        (2, 1)
    );
    // Each ReplicaSet's selector carries its pod-template-hash, and each Pod has exactly
    // one controller: the ownerReferences decide, not the overlapping selectors.
    for p in c.store.list::<Pod>() {
        let owner = p.metadata.controller_ref().unwrap();
        let rs = c
            .store
            .get::<ReplicaSet>(&ObjKey::new("default", &owner.name))
            .unwrap();
        assert!(rs.spec.selector.matches(&p.metadata.labels));
    }
}

#[test]
fn min_ready_seconds_delays_availability_but_not_readiness() {
    let mut c = Cluster::with_default_nodes(1);
    let y = deployment_yaml("web", 1, "web:1", "{}").replace(
        "spec:\n  replicas",
        "spec:\n  minReadySeconds: 20\n  replicas",
    );
    apply(&mut c, &y);
    c.advance(10_000);
    let d = dep(&c, "web");
    assert_eq!(
        (d.status.ready_replicas, d.status.available_replicas),
        (1, 0)
    );
    c.advance(20_000);
    assert_eq!(dep(&c, "web").status.available_replicas, 1);
}

#[test]
fn a_rollout_reads_new_replica_set_created_then_replica_set_updated_and_loses_no_write() {
    let mut c = common::web_cluster(1);
    sh(&mut c, "kubectl set image deployment/web nginx=nginx:1.28");
    let mut seen: Vec<String> = Vec::new();
    for _ in 0..40 {
        c.advance(100);
        let p = dep(&c, "web")
            .status
            .conditions
            .iter()
            .find(|c| c.type_ == "Progressing")
            .map(|c| c.reason.clone())
            .unwrap_or_default();
        if seen.last() != Some(&p) {
            seen.push(p);
        }
    }
    assert_eq!(
        seen[..3],
        [
            "NewReplicaSetAvailable",
            "NewReplicaSetCreated",
            "ReplicaSetUpdated"
        ],
        "{seen:?}"
    );
    // The revision annotation and the status are written in one pass: the second write
    // goes on from the first's resourceVersion instead of conflicting with it.
    let conflicts: Vec<_> = c
        .failed
        .iter()
        .filter(|f| f.writer == "deployment-controller")
        .collect();
    assert!(conflicts.is_empty(), "{conflicts:?}");
}

#[test]
fn a_deployment_recreated_after_an_orphaning_delete_adopts_its_replica_set_and_its_pods() {
    let mut c = Cluster::with_default_nodes(1);
    apply(&mut c, &deployment_yaml("web", 2, "nginx:1.27", "{}"));
    assert!(c.settle(120_000));
    let rs_before: Vec<String> = c
        .store
        .list::<ReplicaSet>()
        .map(|r| r.metadata.uid.clone())
        .collect();
    sh(&mut c, "kubectl delete deployment web --cascade=orphan");
    assert!(c.settle(60_000));
    assert_eq!(
        c.store.count(Kind::ReplicaSet),
        1,
        "the ReplicaSet is orphaned, not deleted"
    );
    apply(&mut c, &deployment_yaml("web", 2, "nginx:1.27", "{}"));
    assert!(c.settle(120_000), "no controller loops");
    let d = dep(&c, "web");
    assert_eq!(d.status.ready_replicas, 2);
    let rss: Vec<&ReplicaSet> = c.store.list::<ReplicaSet>().collect();
    assert_eq!(rss.len(), 1, "adopted, not duplicated");
    assert_eq!(vec![rss[0].metadata.uid.clone()], rs_before);
    assert_eq!(
        rss[0].metadata.controller_ref().map(|r| r.uid.clone()),
        Some(d.metadata.uid.clone())
    );
    assert!(
        c.failed.iter().all(|f| f.writer != "deployment-controller"),
        "{:?}",
        c.failed
    );
}

#[test]
fn a_stray_replica_set_that_a_deployment_selects_is_adopted_and_scaled_down() {
    let mut c = Cluster::with_default_nodes(1);
    let stray = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: stray, labels: {app: web}}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: app, image: \"old:1\"}]\n";
    apply(&mut c, stray);
    assert!(c.settle(120_000));
    apply(&mut c, &deployment_yaml("web", 2, "nginx:1.27", "{}"));
    assert!(c.settle(180_000));
    let d = dep(&c, "web");
    let stray = c
        .store
        .get::<ReplicaSet>(&ObjKey::new("default", "stray"))
        .expect("the stray stays as an old revision");
    assert_eq!(
        stray.metadata.controller_ref().map(|r| r.uid.clone()),
        Some(d.metadata.uid.clone())
    );
    assert_eq!(stray.spec.replicas, 0, "scaled down as an old ReplicaSet");
    assert_eq!((d.status.ready_replicas, d.status.updated_replicas), (2, 2));
}

#[test]
fn a_replica_set_name_taken_by_another_template_bumps_the_collision_count() {
    let mut c = Cluster::with_default_nodes(1);
    // The name `kubectl create deployment web --image=nginx:1.27` hashes its ReplicaSet to.
    let squatter = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web-6cbfd65d46, labels: {app: other}}\nspec:\n  replicas: 0\n  selector: {matchLabels: {app: other}}\n  template:\n    metadata: {labels: {app: other}}\n    spec:\n      containers: [{name: app, image: \"other:1\"}]\n";
    apply(&mut c, squatter);
    sh(
        &mut c,
        "kubectl create deployment web --image=nginx:1.27 --replicas=2",
    );
    assert!(c.settle(120_000));
    let d = dep(&c, "web");
    assert_eq!(d.status.collision_count, Some(1));
    assert_eq!(d.status.ready_replicas, 2);
    let names: Vec<String> = c
        .store
        .list::<ReplicaSet>()
        .map(|r| r.metadata.name.clone())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(
        names
            .iter()
            .any(|n| n.starts_with("web-") && n != "web-6cbfd65d46"),
        "{names:?}"
    );
}

#[test]
fn switching_to_recreate_mid_rollout_with_a_new_replica_count_stalls_as_upstreams_controller_does()
{
    let mut c = Cluster::with_default_nodes(3);
    sh(
        &mut c,
        "kubectl create deployment web --image=nginx:1.27 --replicas=4",
    );
    assert!(c.settle(120_000));
    sh(&mut c, "sim image-fail nginx:1.28");
    sh(&mut c, "kubectl set image deployment/web nginx=nginx:1.28");
    c.advance(20_000);
    sh(
        &mut c,
        r#"kubectl patch deployment web -p '{"spec":{"strategy":{"type":"Recreate","rollingUpdate":null},"replicas":6}}'"#,
    );
    sh(&mut c, "sim image-ok nginx:1.28");
    // It settles — nothing is left to do, no controller loops — with two active
    // ReplicaSets: upstream's `scale` spreads a new count only for RollingUpdate.
    assert!(c.settle(1_200_000), "settles, without a hot loop");
    let active = |c: &Cluster| {
        rss(c, "web")
            .iter()
            .filter(|rs| rs.spec.replicas > 0)
            .count()
    };
    assert_eq!(active(&c), 2);
    assert_eq!(
        dep(&c, "web").status.replicas,
        5,
        "3 old + 2 new, of 6 wanted"
    );
    // Back to the count the ReplicaSets were last scaled for, and Recreate goes on.
    sh(&mut c, "kubectl scale deployment web --replicas=4");
    assert!(c.settle(1_200_000));
    assert_eq!(active(&c), 1);
    let d = dep(&c, "web");
    assert_eq!((d.status.updated_replicas, d.status.ready_replicas), (4, 4));
}
