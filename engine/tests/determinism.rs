//! Same seed + same commands ⇒ byte-identical transcript.

mod common;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::time::SECOND;

fn run(seed: u64) -> String {
    let mut c = Cluster::with_default_nodes(seed);
    c.create_deployment("web", "nginx:1.27", 5, "100m", "128Mi")
        .unwrap();
    c.advance(10 * SECOND);
    let first = c
        .store
        .list::<kubeplay_engine::api::Pod>()
        .next()
        .unwrap()
        .metadata
        .name
        .clone();
    c.delete_pod(&first).unwrap();
    c.advance(5 * SECOND);
    c.power_off("node-3").unwrap();
    c.advance(400 * SECOND);
    c.scale_deployment("web", 2).unwrap();
    c.power_on("node-3").unwrap();
    c.settle(120 * SECOND);
    c.transcript()
}

#[test]
fn the_same_seed_and_commands_give_a_byte_identical_transcript() {
    let a = run(7);
    let b = run(7);
    assert!(a.lines().count() > 100);
    assert_eq!(a, b);
}

#[test]
fn another_seed_gives_other_uids() {
    assert_ne!(run(7), run(8));
}
