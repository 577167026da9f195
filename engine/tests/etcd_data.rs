//! etcd you can look inside (`sim etcdctl`, `sim etcd snapshot|wipe|disconnect`): the
//! keys the API server writes, revisions and size that grow with history and shrink
//! after compaction and defragmentation, a snapshot and what restoring it does, the
//! loss of every member's data, and a healthy etcd the API server cannot reach.

mod common;

use common::*;
use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::mvcc::{COMPACTION_INTERVAL, ERR_COMPACTED, RESTORE_BUMP};
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::client::writer;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

fn fails(c: &mut Cluster, line: &str) -> String {
    let o = run(c, line, None, &NoFiles);
    assert!(!o.ok, "{line} should fail: {}", o.output);
    o.output
}

fn keys(c: &mut Cluster, prefix: &str) -> Vec<String> {
    sh(c, &format!("sim etcdctl get {prefix} --prefix --keys-only"))
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

fn web_pods(c: &Cluster) -> Vec<String> {
    c.store
        .list::<Pod>()
        .filter(|p| p.metadata.name.starts_with("web-") && p.metadata.deletion_timestamp.is_none())
        .map(|p| p.metadata.name.clone())
        .collect()
}

#[test]
fn every_object_is_one_key_under_registry_with_upstreams_prefixes_in_key_order() {
    let mut c = web_cluster(1);
    let pods = keys(&mut c, "/registry/pods/default/");
    assert_eq!(pods.len(), 3);
    assert!(pods
        .iter()
        .all(|k| k.starts_with("/registry/pods/default/web-")));
    assert_eq!(
        keys(&mut c, "/registry/minions/"),
        [
            "/registry/minions/node-1",
            "/registry/minions/node-2",
            "/registry/minions/node-3"
        ]
    );
    assert_eq!(
        keys(&mut c, "/registry/services/"),
        [
            "/registry/services/endpoints/default/kubernetes",
            "/registry/services/specs/default/kubernetes",
        ]
    );
    let all = keys(&mut c, "/registry/");
    let mut sorted = all.clone();
    sorted.sort();
    assert_eq!(all, sorted, "etcd returns a range in key order");
    // One key, its value the object.
    let one = sh(&mut c, "sim etcdctl get /registry/deployments/default/web");
    let (key, value) = one.split_once('\n').unwrap();
    assert_eq!(key, "/registry/deployments/default/web");
    let v: serde_json::Value = serde_json::from_str(value).unwrap();
    assert_eq!(v["kind"], "Deployment");
    assert_eq!(v["spec"]["replicas"], 3);
}

#[test]
fn old_replicasets_cost_storage_until_the_history_limit_removes_them_and_a_defrag_gives_the_file_back(
) {
    let mut c = web_cluster(2);
    sh(
        &mut c,
        "kubectl patch deployment web -p '{\"spec\":{\"revisionHistoryLimit\":50}}'",
    );
    let now = c.now();
    let start = c.store.etcd_status(now);
    // A pipeline that rolls out on every commit: 20 rollouts.
    for i in 1..=20 {
        sh(&mut c, &format!("kubectl set env deployment/web BUILD={i}"));
        assert!(c.settle(600_000));
    }
    assert_eq!(keys(&mut c, "/registry/replicasets/default/").len(), 21);
    let piled = {
        let now = c.now();
        c.store.etcd_status(now)
    };
    assert!(piled.db_size_in_use > start.db_size_in_use, "{piled:?}");
    sh(
        &mut c,
        "kubectl patch deployment web -p '{\"spec\":{\"revisionHistoryLimit\":10}}'",
    );
    assert!(c.settle(600_000));
    assert_eq!(keys(&mut c, "/registry/replicasets/default/").len(), 11);
    // Deleted keys still take room until the compactor's second run from now.
    let deleted = {
        let now = c.now();
        c.store.etcd_status(now)
    };
    assert!(deleted.db_size_in_use >= piled.db_size_in_use);
    sh(&mut c, "sim advance 11m");
    let compacted = {
        let now = c.now();
        c.store.etcd_status(now)
    };
    assert!(
        compacted.db_size_in_use < deleted.db_size_in_use,
        "{compacted:?}"
    );
    assert!(
        compacted.db_size > compacted.db_size_in_use,
        "the file keeps its size"
    );
    assert_eq!(
        sh(&mut c, "sim etcdctl defrag"),
        "Finished defragmenting etcd member[127.0.0.1:2379]\n"
    );
    let defragged = {
        let now = c.now();
        c.store.etcd_status(now)
    };
    assert_eq!(defragged.db_size, defragged.db_size_in_use);
}

#[test]
fn the_api_servers_compactor_compacts_every_five_minutes_to_the_revision_of_the_run_before() {
    let mut c = web_cluster(3);
    let to_first_run = format!(
        "sim advance {}s",
        (COMPACTION_INTERVAL - c.now()).div_ceil(1000)
    );
    sh(&mut c, &to_first_run);
    let first = {
        let now = c.now();
        c.store.etcd_status(now)
    };
    assert_eq!(first.compacted, 0, "no compaction on bootstrap");
    let recorded = c.store.compactor_recorded().unwrap();
    sh(&mut c, "sim advance 5m");
    assert_eq!(
        {
            let now = c.now();
            c.store.etcd_status(now)
        }
        .compacted,
        recorded
    );
    assert_eq!(
        fails(&mut c, &format!("sim etcdctl compact {recorded}")),
        format!("Error: {ERR_COMPACTED}\n")
    );
    let rev = c.store.revision();
    assert_eq!(
        sh(&mut c, &format!("sim etcdctl compact {rev}")),
        format!("compacted revision {rev}\n")
    );
    assert!(keys(&mut c, "''").contains(&"compact_rev_key".to_string()));
}

#[test]
fn a_restore_brings_back_the_snapshot_and_loses_every_object_written_after_it() {
    let mut c = web_cluster(4);
    let before = web_pods(&c);
    let out = sh(&mut c, "sim etcd snapshot save before.db");
    assert!(out.starts_with("Snapshot saved at before.db\n"), "{out}");
    let snap_rev = c.etcd_snapshot("before.db").unwrap().revision;
    sh(
        &mut c,
        "kubectl create deployment api --image=nginx --replicas=2",
    );
    sh(
        &mut c,
        "kubectl create secret generic db --from-literal=password=s3cret",
    );
    sh(&mut c, "kubectl scale deployment web --replicas=5");
    assert!(c.settle(120_000));
    assert_eq!(web_pods(&c).len(), 5);
    let mark = c.store.log.len();
    let out = sh(&mut c, "sim etcd snapshot restore before.db");
    assert!(out.starts_with("etcd restored from before.db:"), "{out}");
    assert!(c.store.revision() > snap_rev + RESTORE_BUMP);
    assert_eq!(
        web(&c).spec.replicas,
        3,
        "the desired state is the snapshot's"
    );
    assert!(c
        .store
        .get::<Deployment>(&ObjKey::new("default", "api"))
        .is_none());
    assert!(c
        .store
        .get::<Secret>(&ObjKey::new("default", "db"))
        .is_none());
    let mut after = web_pods(&c);
    after.sort();
    let mut want = before.clone();
    want.sort();
    assert_eq!(after, want, "the two Pods made after the snapshot are gone");
    // What the informers saw: the objects made after the snapshot deleted, and the
    // ones changed since put back as the snapshot holds them.
    let gone: Vec<(Kind, String)> = c
        .store
        .log
        .since(mark)
        .filter(|e| e.writer == writer::ETCD_RESTORE && e.verb == "delete")
        .filter(|e| e.kind != Kind::Event)
        .map(|e| (e.kind, e.key.name.clone()))
        .filter(|(k, n)| *k != Kind::Pod || n.starts_with("web-"))
        .collect();
    let names = |k: Kind| gone.iter().filter(|(g, _)| *g == k).count();
    assert_eq!(
        (
            names(Kind::Deployment),
            names(Kind::ReplicaSet),
            names(Kind::Pod),
            names(Kind::Secret)
        ),
        (1, 1, 2, 1),
        "{gone:?}"
    );
    let put_back: Vec<(Kind, String)> = c
        .store
        .log
        .since(mark)
        .filter(|e| e.writer == writer::ETCD_RESTORE && e.verb == "restore")
        .filter(|e| matches!(e.kind, Kind::Deployment | Kind::ReplicaSet))
        .map(|e| (e.kind, e.key.name.clone()))
        .collect();
    assert_eq!(
        put_back.len(),
        2,
        "web and its ReplicaSet at 3: {put_back:?}"
    );
    assert!(c.settle(120_000));
    // The controllers reconciled from the restored state: three web Pods, the same.
    let mut settled = web_pods(&c);
    settled.sort();
    assert_eq!(settled, want);
    let creates_after: Vec<_> = c
        .store
        .log
        .since(mark)
        .filter(|e| {
            e.writer == "replicaset-controller" && e.verb == "create" && e.kind == Kind::Pod
        })
        .collect();
    assert!(creates_after.is_empty(), "{creates_after:?}");
}

#[test]
fn pods_deleted_after_the_snapshot_come_back_and_their_kubelet_starts_them_again() {
    let mut c = web_cluster(5);
    let mut before = web_pods(&c);
    before.sort();
    sh(&mut c, "sim etcd snapshot save s1");
    sh(&mut c, "kubectl scale deployment web --replicas=0");
    assert!(c.settle(120_000));
    assert!(web_pods(&c).is_empty());
    let mark = c.store.log.len();
    sh(&mut c, "sim etcd snapshot restore s1");
    let mut back = web_pods(&c);
    back.sort();
    assert_eq!(back, before, "the Pods are back, bound to their nodes");
    assert!(c.settle(120_000));
    for name in &before {
        let p = pod(&c, name).unwrap();
        assert_eq!(p.status.phase, "Running", "{name}");
    }
    // Their kubelets started containers again; the ReplicaSet controller made none.
    assert!(!c
        .store
        .log
        .since(mark)
        .any(|e| e.writer == "replicaset-controller" && e.verb == "create"));
    let started: Vec<String> = c
        .events()
        .into_iter()
        .filter(|e| before.contains(&e.involved_object.name) && e.reason == "Started")
        .map(|e| e.involved_object.name.clone())
        .collect();
    assert!(started.len() >= before.len(), "{started:?}");
}

#[test]
fn a_healthy_etcd_the_api_server_cannot_reach_times_out_differently_from_a_lost_quorum() {
    let mut c = web_cluster(6);
    sh(&mut c, "sim etcd members 3");
    sh(&mut c, "sim etcd disconnect");
    let cut = fails(&mut c, "kubectl get pods");
    assert_eq!(
        cut,
        "Error from server (Timeout): Timeout: request did not complete within requested timeout - context deadline exceeded\n"
    );
    let readyz = fails(&mut c, "kubectl get --raw /readyz");
    assert!(readyz.contains("etcd"), "{readyz}");
    // From the members' side: healthy, a leader, the data readable.
    assert_eq!(
        sh(&mut c, "sim etcdctl endpoint health --cluster"),
        [1, 2, 3]
            .map(|i| format!(
                "https://etcd-{i}:2379 is healthy: successfully committed proposal: took = 1.482ms"
            ))
            .join("\n")
            + "\n"
    );
    assert_eq!(
        keys(&mut c, "/registry/deployments/default/"),
        ["/registry/deployments/default/web"]
    );
    sh(&mut c, "sim etcd reconnect");
    sh(&mut c, "kubectl get pods");
    // A lost quorum: the API server gets etcd's own error, and the members say so.
    sh(&mut c, "sim etcd down etcd-2");
    sh(&mut c, "sim etcd down etcd-3");
    assert_eq!(
        fails(&mut c, "kubectl get pods"),
        "Error from server: etcdserver: request timed out\n"
    );
    let health = fails(&mut c, "sim etcdctl endpoint health");
    assert!(health.ends_with("Error: unhealthy cluster\n"), "{health}");
    assert_eq!(
        fails(
            &mut c,
            "sim etcdctl get /registry/pods --prefix --keys-only"
        ),
        "Error: context deadline exceeded\n"
    );
    // A serializable read answers from one member's copy.
    sh(
        &mut c,
        "sim etcdctl get /registry/pods --prefix --keys-only --consistency=s",
    );
}

#[test]
fn losing_every_members_data_loses_the_desired_state_and_the_api_server_writes_its_bootstrap_again()
{
    let mut c = web_cluster(7);
    sh(
        &mut c,
        "kubectl create secret generic db --from-literal=password=s3cret",
    );
    sh(&mut c, "kubectl expose deployment web --port 80");
    let out = sh(&mut c, "sim etcd wipe");
    assert!(out.starts_with("every etcd member lost its data"), "{out}");
    for kind in [
        "deployments",
        "secrets/default/db",
        "services/specs/default/web",
        "minions",
        "pods",
    ] {
        assert!(
            keys(&mut c, &format!("/registry/{kind}")).is_empty(),
            "{kind}"
        );
    }
    for ns in ["default", "kube-node-lease", "kube-public", "kube-system"] {
        assert!(
            c.store.get::<Namespace>(&ObjKey::new("", ns)).is_some(),
            "{ns}"
        );
    }
    assert!(c
        .store
        .get::<Service>(&ObjKey::new("default", "kubernetes"))
        .is_some());
    assert!(
        c.store
            .get::<Deployment>(&ObjKey::new("kube-system", "coredns"))
            .is_none(),
        "the add-on is gone"
    );
    sh(&mut c, "sim advance 2m");
    // Their Nodes gone, the kubelets are refused at every heartbeat from now on: the
    // refusals kept are bounded however long the world runs.
    assert!(!c.failed.is_empty());
    sh(&mut c, "sim advance 10h");
    assert_eq!(c.failed.len(), kubeplay_engine::cluster::MAX_FAILED);
    // Every kubelet stopped the containers of its Pods.
    for n in ["node-1", "node-2", "node-3"] {
        let ps = sh(&mut c, &format!("sim node ps {n}"));
        assert!(
            !ps.contains("Running") && !ps.contains("running"),
            "{n}: {ps}"
        );
    }
}

#[test]
fn snapshots_are_bounded_and_bad_input_changes_nothing() {
    let mut c = web_cluster(8);
    for i in 0..12 {
        sh(&mut c, &format!("sim etcd snapshot save s{i}"));
    }
    assert!(c.etcd_snapshot("s3").is_none(), "the oldest go");
    assert!(c.etcd_snapshot("s11").is_some());
    let rev = c.store.revision();
    for bad in [
        "sim etcd snapshot restore nope",
        "sim etcd snapshot",
        "sim etcdctl get",
        "sim etcdctl get /registry --limit x",
        "sim etcdctl get /registry --consistency=q",
        "sim etcdctl compact abc",
        "sim etcdctl endpoint status -w yaml",
        "sim etcdctl frobnicate",
        "sim etcdctl get /registry --nope",
        "sim etcd reconnect",
    ] {
        fails(&mut c, bad);
        assert_eq!(c.store.revision(), rev, "{bad}");
    }
}
