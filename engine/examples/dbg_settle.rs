use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, script, NoFiles};
fn main() {
    let text = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    let mut c = Cluster::with_default_nodes(54);
    for l in script::parse(&text, "x").unwrap() {
        let o = run(&mut c, &l.command, l.stdin.as_deref(), &NoFiles);
        println!("$ {}\n{}", l.command, o.output.lines().next().unwrap_or(""));
    }
    println!("busy {:?}", c.busy_work(5));
    println!("{:?}", c.controllers.deployment.awaiting_deadline);
    let key = kubeplay_engine::apiserver::ObjKey::new("default", "web");
    let r = c
        .controllers
        .deployment
        .sync_deployment(&c.store, &key, c.now());
    println!(
        "requeue {:?} requests {}",
        r.requeue_after,
        r.requests.len()
    );
    let d = c
        .store
        .get::<kubeplay_engine::api::Deployment>(&key)
        .unwrap();
    println!(
        "paused {} conds {:?}",
        d.spec.paused,
        d.status
            .conditions
            .iter()
            .map(|c| (&c.type_, &c.reason))
            .collect::<Vec<_>>()
    );
    for _ in 0..5 {
        let t = c.step();
        println!(
            "step {:?} busy {:?} log {}",
            t,
            c.busy_work(3),
            c.store.log.len()
        );
    }
}
#[allow(dead_code)]
fn unused() {}
