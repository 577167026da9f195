//! The control plane's own components are authorized as upstream authorizes them:
//! each controller as its ServiceAccount, the scheduler as `system:kube-scheduler`,
//! each kubelet as `system:node:<node>` through the Node authorizer and
//! NodeRestriction. Take a component's binding away and it stops, Forbidden.

mod common;

use common::*;
use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::rbac::{authorize, Attributes, Decision, UserInfo};
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

fn pending(c: &Cluster) -> usize {
    c.store
        .list::<Pod>()
        .filter(|p| p.spec.node_name.is_empty())
        .count()
}

#[test]
fn every_component_is_allowed_what_it_does_by_its_bootstrap_role() {
    let c = web_cluster(5);
    let sa = |name: &str| kubeplay_engine::client::Component::named(name).user();
    let cases: [(UserInfo, Attributes); 6] = [
        (
            sa("replicaset-controller"),
            Attributes::on("create", Kind::Pod, "default", ""),
        ),
        (
            sa("replicaset-controller"),
            Attributes::on("update", Kind::ReplicaSet, "default", "x").subresource("status"),
        ),
        (
            sa("default-scheduler"),
            Attributes::on("create", Kind::Pod, "default", "p").subresource("binding"),
        ),
        (
            sa("node-lifecycle-controller"),
            Attributes::on("update", Kind::Node, "", "node-1"),
        ),
        (
            sa("kube-controller-manager"),
            Attributes::on(
                "update",
                Kind::Lease,
                "kube-system",
                "kube-controller-manager",
            ),
        ),
        (
            UserInfo::new("system:node:node-1", &["system:nodes"]),
            Attributes::on("update", Kind::Lease, "kube-node-lease", "node-1"),
        ),
    ];
    for (user, a) in cases {
        assert!(
            matches!(authorize(&c.store, &user, &a), Decision::Allow(_)),
            "{} {a:?}",
            user.name
        );
    }
    // …and not more: the ReplicaSet controller may not delete Nodes, the scheduler
    // may not renew the controller manager's Lease.
    for (user, a) in [
        (
            sa("replicaset-controller"),
            Attributes::on("delete", Kind::Node, "", "node-1"),
        ),
        (
            sa("default-scheduler"),
            Attributes::on(
                "update",
                Kind::Lease,
                "kube-system",
                "kube-controller-manager",
            ),
        ),
    ] {
        assert!(matches!(authorize(&c.store, &user, &a), Decision::Deny(_)));
    }
}

#[test]
fn the_workload_controllers_do_their_work_as_their_service_accounts_and_are_refused_nothing() {
    let mut c = web_cluster(3);
    let sts = "apiVersion: v1\nkind: Service\nmetadata: {name: db}\nspec:\n  clusterIP: None\n  selector: {app: db}\n  ports: [{port: 5432}]\n---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n  replicas: 2\n  selector: {matchLabels: {app: db}}\n  persistentVolumeClaimRetentionPolicy: {whenScaled: Delete}\n  template:\n    metadata: {labels: {app: db}}\n    spec:\n      containers: [{name: pg, image: 'postgres:16', volumeMounts: [{name: data, mountPath: /data}]}]\n  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n";
    let ds = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers: [{name: a, image: 'fluent-bit:3.0'}]\n";
    let job = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: once}\nspec:\n  ttlSecondsAfterFinished: 5\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: 'busybox:1.36', command: [sleep, '2']}]\n";
    for y in [sts, ds, job] {
        let o = run(&mut c, "kubectl apply -f -", Some(y), &NoFiles);
        assert!(o.ok, "{}", o.output);
    }
    sh(
        &mut c,
        "kubectl create cronjob tick --image=busybox:1.36 --schedule=\"*/1 * * * *\"",
    );
    sh(
        &mut c,
        "kubectl autoscale deployment web --min=1 --max=6 --cpu-percent=50",
    );
    c.advance(60_000);
    sh(&mut c, "sim load deployment/web --cpu 200%");
    sh(&mut c, "kubectl set image daemonset/agent a=fluent-bit:3.1");
    sh(&mut c, "kubectl scale statefulset db --replicas=1");
    c.advance(5 * 60_000);
    assert_eq!(c.component_refusals(), Vec::<String>::new());
    // The work was done: claims bound and one deleted with its scaled-away Pod, the
    // autoscaler's rescale, the finished Job gone after its TTL, the CronJob's Jobs.
    assert_eq!(c.store.list::<PersistentVolumeClaim>().count(), 1);
    assert!(c.events().iter().any(|e| e.reason == "SuccessfulRescale"));
    assert!(!c.store.list::<Job>().any(|j| j.metadata.name == "once"));
    assert!(c
        .store
        .list::<Job>()
        .any(|j| j.metadata.name.starts_with("tick-")));
    assert_eq!(
        c.store
            .list::<ControllerRevision>()
            .filter(|r| r.metadata.name.starts_with("agent-"))
            .count(),
        2
    );
}

#[test]
fn a_scheduler_without_its_binding_cannot_bind_and_resumes_when_it_is_back() {
    let mut c = web_cluster(5);
    sh(
        &mut c,
        "kubectl delete clusterrolebinding system:kube-scheduler",
    );
    sh(&mut c, "kubectl scale deployment web --replicas=4");
    c.advance(8_000);
    assert_eq!(pending(&c), 1, "the new Pod waits");
    // Its Bind was refused as upstream refuses it (and its FailedScheduling event
    // too: it may not create Events either).
    assert!(!c.events().iter().any(|e| e.reason == "FailedScheduling"));
    sh(
        &mut c,
        "kubectl create clusterrolebinding system:kube-scheduler --clusterrole=system:kube-scheduler --user=system:kube-scheduler",
    );
    c.advance(11_000);
    assert_eq!(pending(&c), 0);
    assert_eq!(web(&c).status.ready_replicas, 4);
}

#[test]
fn a_replica_set_controller_without_its_binding_creates_nothing() {
    let mut c = web_cluster(5);
    sh(
        &mut c,
        "kubectl delete clusterrolebinding system:controller:replicaset-controller",
    );
    sh(&mut c, "kubectl scale deployment web --replicas=5");
    c.advance(10_000);
    assert_eq!(c.store.list::<Pod>().count(), 3);
    // Its FailedCreate event is refused with the rest.
    assert!(!c.events().iter().any(|e| e.reason == "FailedCreate"));
    sh(
        &mut c,
        "kubectl create clusterrolebinding system:controller:replicaset-controller --clusterrole=system:controller:replicaset-controller --serviceaccount=kube-system:replicaset-controller",
    );
    c.advance(20_000);
    assert_eq!(c.store.list::<Pod>().count(), 5);
}

#[test]
fn a_node_reads_only_its_own_node_in_the_node_authorizers_words() {
    let mut c = web_cluster(5);
    let as_node = "--as=system:node:node-1 --as-group=system:nodes";
    sh(&mut c, &format!("kubectl get node node-1 {as_node}"));
    let o = run(
        &mut c,
        &format!("kubectl get nodes {as_node}"),
        None,
        &NoFiles,
    );
    assert_eq!(
        o.output.trim_end(),
        "Error from server (Forbidden): nodes is forbidden: User \"system:node:node-1\" cannot list resource \"nodes\" in API group \"\" at the cluster scope: node 'node-1' cannot read all nodes, only its own Node object"
    );
    let o = run(
        &mut c,
        &format!("kubectl get node node-2 {as_node}"),
        None,
        &NoFiles,
    );
    assert!(
        o.output
            .ends_with("node 'node-1' cannot read 'node-2', only its own Node object\n"),
        "{}",
        o.output
    );
    // Without the group, the name alone is nobody in particular.
    let o = run(
        &mut c,
        "kubectl get node node-1 --as=system:node:node-1",
        None,
        &NoFiles,
    );
    assert_eq!(
        o.output.trim_end(),
        "Error from server (Forbidden): nodes \"node-1\" is forbidden: User \"system:node:node-1\" cannot get resource \"nodes\" in API group \"\" at the cluster scope"
    );
}

#[test]
fn node_restriction_keeps_a_node_to_the_pods_bound_to_it() {
    let mut c = web_cluster(5);
    let elsewhere = c
        .store
        .list::<Pod>()
        .find(|p| p.spec.node_name != "node-1")
        .map(|p| p.metadata.name.clone())
        .expect("a pod on another node");
    let o = run(
        &mut c,
        &format!("kubectl delete pod {elsewhere} --as=system:node:node-1 --as-group=system:nodes"),
        None,
        &NoFiles,
    );
    assert_eq!(
        o.output.trim_end(),
        format!("Error from server (Forbidden): pods \"{elsewhere}\" is forbidden: node \"node-1\" can only delete pods with spec.nodeName set to itself")
    );
    assert!(pod(&c, &elsewhere).is_some_and(|p| !p.metadata.is_deleting()));
}

/// How many requests of this verb on this kind the API server answered with `code`.
fn answered(c: &Cluster, verb: &str, kind: Kind, code: u16) -> u64 {
    c.request_counts()
        .iter()
        .filter(|(s, _)| s.verb == verb && s.kind == kind && s.code == code)
        .map(|(_, n)| n)
        .sum()
}

#[test]
fn informers_list_and_watch_through_the_door_as_the_manager_the_scheduler_and_each_kubelet() {
    let c = web_cluster(3);
    // The controller manager's shared informers list each kind once, the scheduler's
    // own, and each of three kubelets its Pods: five LISTs of Pods, five WATCHes.
    assert_eq!(answered(&c, "LIST", Kind::Pod, 200), 5);
    assert_eq!(answered(&c, "WATCH", Kind::Pod, 200), 5);
    assert_eq!(answered(&c, "LIST", Kind::Deployment, 200), 1);
    assert_eq!(answered(&c, "LIST", Kind::Lease, 200), 1);
    assert_eq!(c.component_refusals(), Vec::<String>::new());
}

#[test]
fn a_relist_the_authorizer_refuses_leaves_the_watch_broken_until_the_role_is_back() {
    let mut c = web_cluster(2);
    let role = sh(
        &mut c,
        "kubectl get clusterrole system:kube-controller-manager -o yaml",
    );
    sh(
        &mut c,
        "kubectl delete clusterrole system:kube-controller-manager",
    );
    sh(
        &mut c,
        "sim watch break replicaset-controller --for 5s --gone",
    );
    sh(&mut c, "kubectl delete pod -l app=web");
    c.advance(10_000);
    let q = sh(&mut c, "sim queues");
    assert!(
        q.contains("failed to list *v1.ReplicaSet: replicasets.apps is forbidden: User \"system:kube-controller-manager\" cannot list resource \"replicasets\" in API group \"apps\" at the cluster scope"),
        "{q}"
    );
    assert!(c
        .component_refusals()
        .iter()
        .any(|r| r.starts_with("kube-controller-manager|list|apps|replicasets")));
    // Its role back, the next retry relists and the ReplicaSet is whole again.
    let o = run(&mut c, "kubectl apply -f -", Some(&role), &NoFiles);
    assert!(o.ok, "{}", o.output);
    c.advance(30_000);
    let q = sh(&mut c, "sim queues");
    assert!(q.contains("410 Gone"), "{q}");
    let web = c
        .store
        .list::<Pod>()
        .filter(|p| p.metadata.labels.get("app").map(String::as_str) == Some("web"))
        .filter(|p| !p.metadata.is_deleting())
        .count();
    assert_eq!(web, 3);
}

#[test]
fn each_kube_proxy_lists_and_watches_as_system_kube_proxy_and_is_refused_without_its_binding() {
    let mut c = web_cluster(3);
    // Three kube-proxies, each a LIST and a WATCH of EndpointSlices beside the
    // EndpointSlice controller's one.
    assert_eq!(answered(&c, "LIST", Kind::EndpointSlice, 200), 4);
    assert_eq!(answered(&c, "WATCH", Kind::EndpointSlice, 200), 4);
    assert_eq!(c.component_refusals(), Vec::<String>::new());
    sh(
        &mut c,
        "kubectl delete clusterrolebinding system:node-proxier",
    );
    sh(&mut c, "sim node down node-2");
    sh(&mut c, "sim node up node-2");
    let refused = c.component_refusals();
    assert!(
        refused
            .iter()
            .any(|r| r.starts_with("kube-proxy/node-2|list||services")),
        "{refused:?}"
    );
    assert!(
        refused.iter().all(|r| r.starts_with("kube-proxy/node-2|")),
        "{refused:?}"
    );
}
