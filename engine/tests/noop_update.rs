//! An update that changes nothing writes nothing: the resourceVersion stays and no
//! watcher hears of it (etcd3's `GuaranteedUpdate` compares the new bytes with the
//! stored ones), whoever sends it.

use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

fn sh(c: &mut Cluster, cmd: &str, stdin: Option<&str>) -> String {
    let o = run(c, cmd, stdin, &NoFiles);
    assert!(o.ok, "{cmd}: {}", o.output);
    o.output
}

fn rv(c: &Cluster) -> String {
    c.store
        .get::<Deployment>(&ObjKey::new("default", "web"))
        .unwrap()
        .metadata
        .resource_version
        .clone()
}

#[test]
fn replacing_a_deployment_with_itself_keeps_its_resource_version_and_logs_no_write() {
    let mut c = Cluster::with_default_nodes(1);
    sh(
        &mut c,
        "kubectl create deployment web --image=nginx:1.27",
        None,
    );
    assert!(c.settle(60_000));
    let yaml = sh(&mut c, "kubectl get deployment web -o yaml", None);
    let (before, writes) = (rv(&c), c.store.log.len());
    let out = sh(&mut c, "kubectl replace -f -", Some(&yaml));
    assert_eq!(out.trim(), "deployment.apps/web replaced");
    assert_eq!(rv(&c), before);
    assert_eq!(c.store.log.len(), writes, "nothing was written");
    // The same without the resourceVersion: still nothing to write.
    let bare: String = yaml
        .lines()
        .filter(|l| !l.trim_start().starts_with("resourceVersion:"))
        .map(|l| format!("{l}\n"))
        .collect();
    sh(&mut c, "kubectl replace -f -", Some(&bare));
    assert_eq!(rv(&c), before);
    // A real change is written.
    let changed = yaml.replace("nginx:1.27", "nginx:1.28");
    sh(&mut c, "kubectl replace -f -", Some(&changed));
    assert_ne!(rv(&c), before);
    assert!(c.store.log.len() > writes);
}
