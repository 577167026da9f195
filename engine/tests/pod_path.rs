//! Where a Pod is stuck: the path read model (`explain::pod_path`) on real runs.

use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};
use kubeplay_engine::explain::pod_path::{pod_path, PodPath, StageState};

fn default_cluster() -> Cluster {
    let mut c = Cluster::with_default_nodes(1);
    c.create_deployment("web", "nginx:1.27", 3, "100m", "128Mi")
        .unwrap();
    assert!(c.settle(120_000));
    c
}

fn path_of(c: &Cluster, name: &str) -> Option<PodPath> {
    pod_path(c, &ObjKey::new("default", name))
}

#[test]
fn a_crash_looping_init_container_is_where_the_pod_is_stuck() {
    let mut c = default_cluster();
    run(
        &mut c,
        "sim image-crash migrate:1 --after 1s",
        None,
        &NoFiles,
    );
    let o = run(
        &mut c,
        "kubectl apply -f -",
        Some("apiVersion: v1\nkind: Pod\nmetadata: {name: db}\nspec:\n  initContainers: [{name: migrate, image: 'migrate:1'}]\n  containers: [{name: app, image: 'nginx:1.27'}]\n"),
        &NoFiles,
    );
    assert!(o.ok, "{}", o.output);
    c.advance(60_000);
    let path = path_of(&c, "db").unwrap();
    let image = path.stages.iter().find(|s| s.id == "image").unwrap();
    assert_eq!(image.state, StageState::Stuck);
    assert_eq!(
        image.evidence[0].text(),
        "init containers first: Init:CrashLoopBackOff"
    );
    assert!(
        image.evidence[1].text().starts_with(
            "init container migrate (migrate:1): waiting: CrashLoopBackOff: back-off "
        ),
        "{:?}",
        image.evidence
    );
}

#[test]
fn a_pending_pod_is_stuck_at_scheduled_with_the_failed_scheduling_message() {
    let mut c = default_cluster();
    run(
        &mut c,
        "kubectl create deployment big --image=big:1 --replicas=1",
        None,
        &NoFiles,
    );
    let mut d = c
        .store
        .get::<Deployment>(&kubeplay_engine::apiserver::ObjKey::new("default", "big"))
        .unwrap()
        .clone();
    d.spec.template.spec.containers[0]
        .resources
        .requests
        .insert("cpu".into(), "10".into());
    c.submit(
        &kubeplay_engine::cluster::kubectl(),
        kubeplay_engine::client::Request::Update(Object::Deployment(Box::new(d))),
    )
    .unwrap();
    c.advance(20_000);
    let pending = c
        .store
        .list::<Pod>()
        .find(|p| p.spec.node_name.is_empty())
        .unwrap()
        .metadata
        .name
        .clone();
    let path = path_of(&c, &pending).unwrap();
    assert_eq!(path.stages[1].state, StageState::Stuck);
    assert!(
        path.stages[1].evidence[0]
            .text()
            .contains("Insufficient cpu"),
        "{:?}",
        path.stages[1]
    );
    assert_eq!(path.verdicts.len(), 3);
    assert!(path
        .verdicts
        .iter()
        .all(|v| v.verdict.starts_with("NodeResourcesFit: Insufficient cpu")));
}

#[test]
fn an_image_pull_failure_is_stuck_at_the_image_stage_and_a_ready_pod_is_done() {
    let mut c = default_cluster();
    let ready = c.store.list::<Pod>().next().unwrap().metadata.name.clone();
    let path = path_of(&c, &ready).unwrap();
    assert!(
        path.stages.iter().all(|s| s.state == StageState::Done),
        "{:?}",
        path.stages
    );
    assert!(path.verdicts.iter().any(|v| v.chosen));
    run(&mut c, "sim image-fail bad:1", None, &NoFiles);
    run(
        &mut c,
        "kubectl create deployment bad --image=bad:1",
        None,
        &NoFiles,
    );
    c.advance(10_000);
    let bad = c
        .store
        .list::<Pod>()
        .find(|p| p.metadata.name.starts_with("bad-"))
        .unwrap()
        .metadata
        .name
        .clone();
    let path = path_of(&c, &bad).unwrap();
    assert_eq!(path.stages[2].state, StageState::Stuck);
    assert!(
        path.stages[2].evidence[0]
            .text()
            .starts_with("ImagePullBackOff: Back-off pulling image \"bad:1\""),
        "{:?}",
        path.stages[2]
    );
}
