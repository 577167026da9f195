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

#[test]
fn a_run_cut_into_slices_between_instants_is_identical_to_an_uninterrupted_one() {
    let script = |c: &mut Cluster, play: &mut dyn FnMut(&mut Cluster, u64)| {
        c.create_deployment("web", "nginx:1.27", 8, "100m", "128Mi")
            .unwrap();
        play(c, 20 * SECOND);
        c.power_off("node-2").unwrap();
        play(c, 400 * SECOND);
    };
    let mut whole = Cluster::with_default_nodes(5);
    script(&mut whole, &mut |c, ms| c.advance(ms));
    let mut sliced = Cluster::with_default_nodes(5);
    let mut stops = 0;
    script(&mut sliced, &mut |c, ms| {
        let end = c.now() + ms;
        // Out of time at every third instant: the page's frame budget, made regular.
        let mut n = 0u32;
        while !c.run_until_within(end, &mut || {
            n += 1;
            n % 3 == 0
        }) {
            stops += 1;
        }
    });
    assert!(stops > 20, "only {stops} stops");
    assert_eq!(whole.now(), sliced.now());
    assert_eq!(whole.transcript(), sliced.transcript());
}
