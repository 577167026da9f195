//! `imagePullPolicy` as the kubelet's image manager honours it
//! (`pkg/kubelet/images/image_manager.go` `EnsureImageExists`, `shouldPullImage`).

mod common;

use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

fn sh(c: &mut Cluster, cmd: &str, stdin: Option<&str>) -> String {
    let o = run(c, cmd, stdin, &NoFiles);
    assert!(o.ok, "{cmd}: {}", o.output);
    o.output
}

fn one_node() -> Cluster {
    let mut c = Cluster::new(9);
    c.add_node("only", Default::default()).unwrap();
    assert!(c.settle(60_000));
    c
}

fn pod(name: &str, image: &str, policy: &str) -> String {
    let policy = if policy.is_empty() {
        String::new()
    } else {
        format!(", imagePullPolicy: {policy}")
    };
    format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  containers: [{{name: c, image: '{image}'{policy}}}]\n")
}

fn events(c: &Cluster, name: &str) -> Vec<(String, String, String)> {
    c.events()
        .into_iter()
        .filter(|e| e.involved_object.name == name)
        .map(|e| (e.type_.clone(), e.reason.clone(), e.message.clone()))
        .collect()
}

#[test]
fn never_without_the_image_waits_with_err_image_never_pull_until_the_image_arrives() {
    let mut c = one_node();
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(&pod("offline", "redis:7", "Never")),
    );
    c.advance(30_000);
    let p = common::pod(&c, "offline").unwrap();
    let w = p.status.container_statuses[0]
        .state
        .waiting
        .clone()
        .unwrap();
    let msg = "Container image \"redis:7\" is not present with pull policy of Never";
    assert_eq!(
        (w.reason.as_str(), w.message.as_str()),
        ("ErrImageNeverPull", msg)
    );
    assert_eq!(p.status.phase, "Pending");
    let ev = events(&c, "offline");
    assert!(
        ev.contains(&("Warning".into(), "ErrImageNeverPull".into(), msg.into())),
        "{ev:?}"
    );
    assert!(ev.contains(&(
        "Warning".into(),
        "Failed".into(),
        "Error: ErrImageNeverPull".into()
    )));
    assert!(!ev.iter().any(|e| e.1 == "Pulling"), "Never never pulls");
    let table = sh(&mut c, "kubectl get pod offline", None);
    assert!(table.contains("ErrImageNeverPull"), "{table}");
    let count = c
        .events()
        .into_iter()
        .find(|e| e.reason == "ErrImageNeverPull")
        .unwrap()
        .count;
    assert!(count >= 3, "the worker retries every 10 s: {count}");
    // Another Pod brings the image to the node; the next retry starts the container.
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(&pod("puller", "redis:7", "IfNotPresent")),
    );
    c.advance(30_000);
    assert_eq!(common::pod(&c, "offline").unwrap().status.phase, "Running");
    assert!(events(&c, "offline").contains(&(
        "Normal".into(),
        "Pulled".into(),
        "Container image \"redis:7\" already present on machine".into()
    )));
}

#[test]
fn always_pulls_an_image_already_present_and_if_not_present_does_not() {
    let mut c = one_node();
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(&pod("first", "nginx:1.27", "")),
    );
    assert!(c.settle(60_000));
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(&pod("again", "nginx:1.27", "Always")),
    );
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(&pod("cached", "nginx:1.27", "")),
    );
    assert!(c.settle(60_000));
    let again = events(&c, "again");
    assert!(
        again.contains(&(
            "Normal".into(),
            "Pulling".into(),
            "Pulling image \"nginx:1.27\"".into()
        )),
        "{again:?}"
    );
    assert!(
        again.iter().any(|e| e.1 == "Pulled"
            && e.2
                .starts_with("Successfully pulled image \"nginx:1.27\" in ")
            && e.2.contains("Image size: ")),
        "{again:?}"
    );
    let cached = events(&c, "cached");
    assert!(!cached.iter().any(|e| e.1 == "Pulling"), "{cached:?}");
    assert!(cached.contains(&(
        "Normal".into(),
        "Pulled".into(),
        "Container image \"nginx:1.27\" already present on machine".into()
    )));
}

#[test]
fn an_untagged_image_defaults_to_always_and_is_pulled_again_when_its_container_restarts() {
    let mut c = one_node();
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(&pod("latest", "nginx", "")),
    );
    assert!(c.settle(60_000));
    let y = sh(
        &mut c,
        "kubectl get pod latest -o jsonpath={.spec.containers[0].imagePullPolicy}",
        None,
    );
    assert_eq!(y.trim(), "Always");
    sh(&mut c, "sim crash pod/latest", None);
    c.advance(60_000);
    // Identical events are one Event with a count.
    let pulls: i64 = c
        .events()
        .into_iter()
        .filter(|e| e.involved_object.name == "latest" && e.reason == "Pulling")
        .map(|e| e.count)
        .sum();
    assert!(
        pulls >= 2,
        "pulled at the start and at the restart: {pulls}"
    );
}
