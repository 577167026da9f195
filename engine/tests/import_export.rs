//! From a real cluster and back: a snapshot imports as the same world (bound Pods stay
//! on their nodes with their status, owner chains hold), what kubeplay does not model
//! is reported, a refusal names the file, the object and the field and changes
//! nothing, and the exported manifests apply to a fresh cluster.

mod common;

use common::*;
use kubeplay_engine::api::*;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, Files};
use kubeplay_engine::import::{import, manifests, snapshot};
use serde_json::Value;

/// A world of three zones with a Deployment, a StatefulSet, a DaemonSet and a Job,
/// one node cordoned and one tainted, settled.
fn world() -> Cluster {
    let mut c = Cluster::new(11);
    sh(&mut c, "sim reset --nodes 6 --zones 3");
    sh(
        &mut c,
        "kubectl create deployment web --image=nginx:1.27 --replicas=5",
    );
    apply(
        &mut c,
        r#"
apiVersion: apps/v1
kind: StatefulSet
metadata: { name: db }
spec:
  serviceName: db
  replicas: 2
  selector: { matchLabels: { app: db } }
  template:
    metadata: { labels: { app: db } }
    spec:
      containers:
        - name: postgres
          image: postgres:16
          resources: { requests: { cpu: 250m, memory: 256Mi } }
---
apiVersion: apps/v1
kind: DaemonSet
metadata: { name: agent }
spec:
  selector: { matchLabels: { app: agent } }
  template:
    metadata: { labels: { app: agent } }
    spec:
      containers:
        - name: agent
          image: fluent-bit:3.0
---
apiVersion: v1
kind: Service
metadata: { name: web }
spec:
  selector: { app: web }
  ports: [ { port: 80 } ]
"#,
    );
    sh(&mut c, "kubectl cordon node-6");
    sh(
        &mut c,
        "kubectl taint node node-5 dedicated=batch:PreferNoSchedule",
    );
    sh(&mut c, "sim settle");
    c
}

/// An object's JSON without what a store of its own sets (resourceVersion, the
/// creation time, managedFields).
fn comparable(mut v: Value) -> Value {
    if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        for f in ["resourceVersion", "creationTimestamp", "managedFields"] {
            m.remove(f);
        }
    }
    v
}

/// Every restored kind's objects (not Nodes: their kubelets register them anew).
fn objects(c: &Cluster) -> Vec<Value> {
    let snap = snapshot(c);
    snap["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["kind"] != "Node")
        .cloned()
        .map(comparable)
        .collect()
}

fn import_text(seed: u64, name: &str, text: &str) -> Result<Cluster, String> {
    import(seed, None, &[(name.to_string(), text.to_string())]).map(|(c, _)| c)
}

#[test]
fn a_snapshot_imports_back_as_the_same_world_and_nothing_is_recreated() {
    let a = world();
    let text = serde_json::to_string(&snapshot(&a)).unwrap();
    let (mut b, report) = import(11, None, &[("cluster.json".into(), text)]).unwrap();
    assert_eq!(objects(&a), objects(&b), "every object as it was");
    assert_eq!(report.loaded.get("Node"), Some(&6));
    // A DaemonSet tolerates the cordon: six agents; and CoreDNS's two (the snapshot
    // holds the DNS add-on, which a cluster without it would not have).
    assert_eq!(
        report.loaded.get("Pod"),
        Some(&(5 + 2 + 6 + 2)),
        "{report:?}"
    );
    assert_eq!(report.pods_kept_running, 15);
    // Nodes keep capacity, allocatable, labels, taints and the cordon.
    for (na, nb) in a.store.list::<Node>().zip(b.store.list::<Node>()) {
        assert_eq!(na.metadata.name, nb.metadata.name);
        assert_eq!(na.metadata.labels, nb.metadata.labels);
        let json = |t: &Vec<Taint>| serde_json::to_value(t).unwrap();
        assert_eq!(json(&na.spec.taints), json(&nb.spec.taints));
        assert_eq!(na.spec.unschedulable, nb.spec.unschedulable);
        assert_eq!(na.status.capacity, nb.status.capacity);
        assert_eq!(na.status.allocatable, nb.status.allocatable);
    }
    // Played on, nothing is created, restarted or moved: the controllers and kubelets
    // find the world as they left it.
    let before: Vec<(String, String, i64)> = pods(&b);
    let events = b.store.count(Kind::Event);
    b.advance(120_000);
    assert_eq!(pods(&b), before);
    let created = b
        .store
        .list::<Event>()
        .skip(events)
        .filter(|e| {
            matches!(
                e.reason.as_str(),
                "SuccessfulCreate" | "Scheduled" | "Pulling" | "Started" | "Killing"
            )
        })
        .count();
    assert_eq!(created, 0, "nothing made anew");
    let ready = |c: &Cluster| {
        c.store
            .list::<Deployment>()
            .find(|d| d.metadata.name == "web")
            .map_or(0, |d| d.status.ready_replicas)
    };
    assert_eq!(ready(&b), 5);
    // And a learner's act plays out as in the original.
    sh(&mut b, "kubectl scale deployment web --replicas=7");
    sh(&mut b, "sim settle");
    // The new Pods' sandboxes get addresses no kept Pod holds.
    let ips: Vec<String> = b
        .store
        .list::<Pod>()
        .map(|p| p.status.pod_ip.clone())
        .collect();
    let distinct: std::collections::BTreeSet<&String> = ips.iter().collect();
    assert_eq!(distinct.len(), ips.len(), "{ips:?}");
    assert_eq!(ready(&b), 7);
}

/// (name, node, restarts) of every Pod.
fn pods(c: &Cluster) -> Vec<(String, String, i64)> {
    c.store
        .list::<Pod>()
        .map(|p| {
            (
                p.metadata.name.clone(),
                p.spec.node_name.clone(),
                p.status
                    .container_statuses
                    .iter()
                    .map(|s| s.restart_count)
                    .sum(),
            )
        })
        .collect()
}

#[test]
fn owner_chains_hold_through_their_owner_references() {
    let a = world();
    let b = import_text(3, "c.json", &serde_json::to_string(&snapshot(&a)).unwrap()).unwrap();
    let d = b.store.list::<Deployment>().next().unwrap();
    let rs: Vec<&ReplicaSet> = b
        .store
        .list::<ReplicaSet>()
        .filter(|r| {
            r.metadata
                .owner_references
                .iter()
                .any(|o| o.uid == d.metadata.uid)
        })
        .collect();
    assert_eq!(rs.len(), 1);
    let owned = b
        .store
        .list::<Pod>()
        .filter(|p| {
            p.metadata
                .owner_references
                .iter()
                .any(|o| o.uid == rs[0].metadata.uid)
        })
        .count();
    assert_eq!(owned, 5);
}

#[test]
fn what_kubeplay_does_not_model_is_reported_once_and_the_rest_loads() {
    let yaml = r#"
apiVersion: v1
kind: List
items:
  - apiVersion: apiextensions.k8s.io/v1
    kind: CustomResourceDefinition
    metadata: { name: widgets.example.com }
  - apiVersion: example.com/v1
    kind: Widget
    metadata: { name: w1, namespace: default }
  - apiVersion: example.com/v1
    kind: Widget
    metadata: { name: w2, namespace: default }
  - apiVersion: v1
    kind: Event
    metadata: { name: e1, namespace: default }
  - apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: web
      managedFields: [ { manager: kubectl } ]
      resourceVersion: "12345"
    spec:
      replicas: 2
      selector: { matchLabels: { app: web } }
      template:
        metadata: { labels: { app: web } }
        spec:
          containers: [ { name: web, image: nginx:1.27, futureField: on } ]
"#;
    let (mut c, report) = import(1, None, &[("dump.yaml".into(), yaml.into())]).unwrap();
    let s = report.summary();
    assert!(s.contains("1 CustomResourceDefinition (apiextensions.k8s.io/v1: custom resources are not imported)"), "{s}");
    assert!(
        s.contains("2 Widget (example.com/v1: a custom resource, not imported)"),
        "{s}"
    );
    assert!(s.contains("1 Event (Events are written anew"), "{s}");
    assert!(
        s.contains("spec.template.spec.containers[].futureField (1)"),
        "{s}"
    );
    assert!(
        !report
            .ignored_fields
            .keys()
            .any(|f| f.contains("managedFields") || f.contains("resourceVersion")),
        "a restore's own business: {s}"
    );
    assert!(
        s.starts_with("imported 1 object from 1 file: 1 Deployment\n"),
        "{s}"
    );
    // No nodes in the snapshot: the Pods wait for some.
    sh(&mut c, "sim node add node-1");
    sh(&mut c, "sim settle");
    assert_eq!(
        c.store
            .list::<Deployment>()
            .next()
            .unwrap()
            .status
            .ready_replicas,
        2
    );
}

#[test]
fn a_refusal_names_the_file_the_object_and_the_field_and_changes_nothing() {
    let cases = [
        (
            r#"{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"},"spec":{"replicas":"three"}}]}"#,
            "error: error importing STDIN: Deployment shop/web: spec.replicas: invalid type",
        ),
        (
            "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec: { containers: 7 }\n",
            "error: error importing STDIN: Pod p: spec.containers: invalid type",
        ),
        (
            "{\"kind\": \"List\", \"items\": [",
            "error: error parsing STDIN: EOF while parsing",
        ),
        (
            "kind: Pod\nmetadata: { name: p }\n",
            "error: error importing STDIN: Pod p: apiVersion and kind are required",
        ),
        (
            "42",
            "error: error importing STDIN: expected an object or a List, found a number",
        ),
    ];
    for (text, want) in cases {
        let mut c = web_cluster(1);
        let before = c.store.revision();
        let o = run(&mut c, "sim import -f -", Some(text), &NoFilesHere);
        assert!(!o.ok, "{text}");
        assert!(o.output.starts_with(want), "{text}\n{}", o.output);
        assert_eq!(c.store.revision(), before, "nothing changed");
    }
}

struct NoFilesHere;
impl Files for NoFilesHere {
    fn read(&self, path: &str) -> Result<String, String> {
        Err(format!("the path \"{path}\" does not exist"))
    }
}

#[test]
fn no_input_panics_the_importer() {
    // Cut and bent versions of a real snapshot: every prefix at a few hundred points,
    // and each byte class swapped in, must be refused or loaded, never panic.
    let text = serde_json::to_string(&snapshot(&world())).unwrap();
    let yaml = manifests(&world());
    for src in [&text, &yaml] {
        let step = (src.len() / 300).max(1);
        for cut in (0..src.len()).step_by(step) {
            if !src.is_char_boundary(cut) {
                continue;
            }
            let _ = import_text(1, "f", &src[..cut]);
        }
        for (i, ch) in src.char_indices().step_by(step * 3) {
            for bad in ['"', '{', ']', '-', ':', '9', '\n'] {
                let mut s = String::with_capacity(src.len());
                s.push_str(&src[..i]);
                s.push(bad);
                s.push_str(&src[i + ch.len_utf8()..]);
                let _ = import_text(1, "f", &s);
            }
        }
    }
}

#[test]
fn exported_manifests_apply_to_a_fresh_cluster_as_the_same_workloads() {
    let a = world();
    let yaml = manifests(&a);
    for stripped in [
        "uid:",
        "resourceVersion:",
        "status:",
        "managedFields",
        "clusterIP:",
        "nodeName:",
        "ownerReferences",
    ] {
        assert!(!yaml.contains(stripped), "{stripped} in\n{yaml}");
    }
    assert!(!yaml.contains("kind: ReplicaSet"), "the Deployment's own");
    assert!(!yaml.contains("kind: Pod\n"), "every Pod has an owner here");
    let mut b = Cluster::new(5);
    sh(&mut b, "sim reset --nodes 6 --zones 3");
    apply(&mut b, &yaml);
    sh(&mut b, "sim settle");
    let names = |c: &Cluster| {
        let mut v: Vec<String> = c
            .store
            .list_objects(Kind::Deployment)
            .chain(c.store.list_objects(Kind::StatefulSet))
            .chain(c.store.list_objects(Kind::DaemonSet))
            .chain(c.store.list_objects(Kind::Service))
            .map(|o| format!("{:?}/{}", o.kind(), o.meta().name))
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(&a), names(&b));
    assert_eq!(b.store.count(Kind::Pod), a.store.count(Kind::Pod));
}

#[test]
fn the_sample_snapshot_in_the_docs_loads_with_its_zones_and_workloads() {
    let text = include_str!("../../docs/sample-cluster.json");
    let (mut c, report) = import(1, None, &[("sample-cluster.json".into(), text.into())]).unwrap();
    assert_eq!(report.loaded.get("Node"), Some(&12));
    let zones: std::collections::BTreeSet<String> = c
        .store
        .list::<Node>()
        .filter_map(|n| {
            n.metadata
                .labels
                .get("topology.kubernetes.io/zone")
                .cloned()
        })
        .collect();
    assert_eq!(zones.len(), 3);
    for k in ["Deployment", "StatefulSet", "DaemonSet", "Service"] {
        assert!(
            report.loaded.get(k).is_some_and(|n| *n >= 1),
            "{k}: {report:?}"
        );
    }
    assert!(report.pods_kept_running > 12, "{report:?}");
    assert!(
        !report.left_out.is_empty(),
        "the sample has kinds kubeplay leaves out"
    );
    let before = pods(&c);
    c.advance(60_000);
    assert_eq!(pods(&c), before, "the sample is a settled cluster");
}

#[test]
fn a_session_script_plays_again_from_its_starting_world_to_the_same_objects() {
    use kubeplay_engine::command::script;
    use kubeplay_engine::session::{Act, Machine};
    let start = world();
    let mut m = Machine::new(start.clone());
    m.advance(2_000);
    m.act_and_journal(Act::Run("kubectl scale deployment web --replicas=8".into()));
    m.advance(30_000);
    m.act_and_journal(Act::Run("kubectl cordon node-1".into()));
    m.advance(5_000);
    let text = kubeplay_engine::author::write_script(&start, &m.journal, m.cluster.now());
    assert!(text.contains("\nsim advance 2s\nkubectl scale deployment web --replicas=8\nsim advance 30s\nkubectl cordon node-1\nsim advance 5s\n"), "{text}");
    let lines = script::parse(&text, "session.txt").unwrap();
    let mut c = Cluster::new(11);
    let run = script::run_lines(&mut c, &lines, &NoFilesHere);
    assert!(run.passed(), "every line did what it says");
    let names = |c: &Cluster| -> Vec<(String, bool)> {
        c.store
            .list::<Node>()
            .map(|n| (n.metadata.name.clone(), n.spec.unschedulable))
            .collect()
    };
    assert_eq!(names(&c), names(&m.cluster));
    let web = |c: &Cluster| {
        c.store
            .list::<Deployment>()
            .find(|d| d.metadata.name == "web")
            .unwrap()
            .status
            .ready_replicas
    };
    assert_eq!(web(&c), 8);
    assert_eq!(web(&m.cluster), 8);
}

#[test]
fn an_imported_world_forks_for_what_if_like_any_other() {
    use kubeplay_engine::fork::Fork;
    use kubeplay_engine::session::Machine;
    let text = include_str!("../../docs/sample-cluster.json");
    let (c, _) = import(1, None, &[("sample-cluster.json".into(), text.into())]).unwrap();
    let mut main = Machine::new(c);
    let mut f = Fork::start(&main, "sim node down node-1").unwrap();
    for _ in 0..900 {
        main.advance(100);
        assert!(f.follow(&main.cluster, &mut || false));
    }
    let d = f.first_difference.expect("a node down shows");
    assert!(d.fork.starts_with("node/node-1: NotReady"), "{d:?}");
}
