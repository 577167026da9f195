//! What a learner's click does, as a domain verb. Each verb is the command a learner
//! could have typed — it runs through the same command language, shows in the console
//! and is journaled like typed text, so the learner sees what to type and a share link
//! replays it — but components name the intent, not the command text.

use super::SimHandle;

/// A learner's action on the cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verb {
    /// Delete a Pod without waiting, so its termination can be watched.
    DeletePod(String),
    /// Kill a Pod's container (exit 1): the kubelet restarts it.
    CrashPod(String),
    /// The Pod's application fails (true) or passes (false) its readiness probe.
    SetUnready(String, bool),
    /// The Pod's application hangs (liveness and readiness fail).
    HangPod(String),
    /// The Pod's container exceeds its memory limit.
    OomPod(String),
    /// Scale a Deployment.
    Scale(String, i64),
    /// Roll a Deployment's container out to an image.
    SetImage {
        /// The Deployment.
        deployment: String,
        /// Its container.
        container: String,
        /// The image.
        image: String,
    },
    /// Roll out an image the registry refuses: the rollout gets stuck.
    RollOutBrokenImage {
        /// The Deployment.
        deployment: String,
        /// Its container.
        container: String,
        /// The image to refuse and roll out.
        image: String,
    },
    /// Roll a Deployment back (to the previous revision, or to this one).
    Undo(String, Option<String>),
    /// Pause (true) or resume (false) a Deployment's rollout.
    SetPaused(String, bool),
    /// Restart a Deployment's Pods (`rollout restart`).
    Restart(String),
    /// Cordon (true) or uncordon (false) a node.
    Cordon(String, bool),
    /// Drain a node.
    Drain(String),
    /// Power a node on (true) or off (false); on also reconnects a partitioned node.
    Power(String, bool),
    /// Cut a node off from the API server.
    Partition(String),
    /// Register a new node.
    AddNode(String),
    /// Put a Service in front of a Deployment's Pods.
    Expose(String),
    /// Send a Service requests (per second) for ten minutes.
    Traffic(String, u32),
    /// Stop a flow of requests (`service/NAME`, or `ingress/NAME` through an Ingress).
    StopTraffic(String),
    /// Run the message API behind a Service, its state in memory (None) or in the
    /// database behind another Service.
    App(String, Option<String>),
    /// Connect this many devices to a Service's Pods (0: take them away).
    Devices(String, u32),
    /// Start (true) or stop (false) the API server.
    ApiServer(bool),
    /// Start (true) or stop (false) an etcd member.
    Etcd(String, bool),
    /// Replace etcd by this many members.
    EtcdMembers(usize),
    /// Mend (true) or break (false) the path from the API server to etcd.
    EtcdPath(bool),
    /// Kill the leading replica of kube-controller-manager or kube-scheduler.
    KillLeader(String),
    /// Run this many replicas of kube-controller-manager and kube-scheduler.
    LeaderReplicas(usize),
    /// Start (true) or stop (false) one API server replica.
    ApiServerReplica(String, bool),
    /// Run this many API server replicas behind the load balancer.
    ApiServerReplicas(usize),
}

impl Verb {
    /// The command it stands for.
    pub fn command(&self) -> String {
        match self {
            Verb::DeletePod(p) => format!("kubectl delete pod {p} --wait=false"),
            Verb::CrashPod(p) => format!("sim crash pod/{p}"),
            Verb::SetUnready(p, true) => format!("sim unready pod/{p}"),
            Verb::SetUnready(p, false) => format!("sim ready pod/{p}"),
            Verb::HangPod(p) => format!("sim hang pod/{p}"),
            Verb::OomPod(p) => format!("sim oom pod/{p}"),
            Verb::Scale(d, n) => format!("kubectl scale deployment {d} --replicas={n}"),
            Verb::SetImage {
                deployment,
                container,
                image,
            } => format!("kubectl set image deployment/{deployment} {container}={image}"),
            Verb::RollOutBrokenImage {
                deployment,
                container,
                image,
            } => format!(
                "sim image-fail {image}\nkubectl set image deployment/{deployment} {container}={image}"
            ),
            Verb::Undo(d, None) => format!("kubectl rollout undo deployment/{d}"),
            Verb::Undo(d, Some(rev)) => {
                format!("kubectl rollout undo deployment/{d} --to-revision={rev}")
            }
            Verb::SetPaused(d, true) => format!("kubectl rollout pause deployment/{d}"),
            Verb::SetPaused(d, false) => format!("kubectl rollout resume deployment/{d}"),
            Verb::Restart(d) => format!("kubectl rollout restart deployment/{d}"),
            Verb::Cordon(n, true) => format!("kubectl cordon {n}"),
            Verb::Cordon(n, false) => format!("kubectl uncordon {n}"),
            Verb::Drain(n) => format!("kubectl drain {n} --ignore-daemonsets"),
            Verb::Power(n, true) => format!("sim node up {n}"),
            Verb::Power(n, false) => format!("sim node down {n}"),
            Verb::Partition(n) => format!("sim node partition {n}"),
            Verb::AddNode(n) => format!("sim node add {n}"),
            Verb::Expose(d) => format!("kubectl expose deployment {d} --port=80"),
            Verb::Traffic(svc, rps) => {
                format!("sim traffic service/{svc} --rps {rps} --retries 1 --for 10m")
            }
            Verb::StopTraffic(flow) => format!("sim traffic {flow} --stop"),
            Verb::App(svc, None) => format!("sim app service/{svc}"),
            Verb::App(svc, Some(db)) => format!("sim app service/{svc} --store service/{db}"),
            Verb::Devices(svc, 0) => format!("sim devices service/{svc} --stop"),
            Verb::Devices(svc, n) => format!("sim devices {n} service/{svc}"),
            Verb::ApiServer(true) => "sim apiserver up".to_string(),
            Verb::ApiServer(false) => "sim apiserver down".to_string(),
            Verb::Etcd(m, true) => format!("sim etcd up {m}"),
            Verb::Etcd(m, false) => format!("sim etcd down {m}"),
            Verb::EtcdMembers(n) => format!("sim etcd members {n}"),
            Verb::EtcdPath(true) => "sim etcd reconnect".into(),
            Verb::EtcdPath(false) => "sim etcd disconnect".into(),
            Verb::KillLeader(c) => format!("sim leader kill {c}"),
            Verb::LeaderReplicas(n) => format!("sim leader replicas {n}"),
            Verb::ApiServerReplica(r, true) => format!("sim apiserver up {r}"),
            Verb::ApiServerReplica(r, false) => format!("sim apiserver down {r}"),
            Verb::ApiServerReplicas(n) => format!("sim apiserver replicas {n}"),
        }
    }
}

impl SimHandle {
    /// Do `verb` as a click: its command runs, shows in the console and is journaled.
    pub fn act(&self, verb: Verb) {
        self.click(verb.command());
    }

    /// The first `node-N` name no node has.
    pub fn free_node_name(&self) -> String {
        let st = self.state.borrow();
        (1..)
            .map(|i| format!("node-{i}"))
            .find(|n| {
                st.cluster
                    .store
                    .get::<kubeplay_engine::api::Node>(&kubeplay_engine::apiserver::ObjKey::new(
                        "", n,
                    ))
                    .is_none()
            })
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_verb_is_the_command_a_learner_would_type() {
        let cases = [
            (Verb::DeletePod("web-1".into()), "kubectl delete pod web-1 --wait=false"),
            (Verb::SetUnready("web-1".into(), false), "sim ready pod/web-1"),
            (Verb::Scale("web".into(), 5), "kubectl scale deployment web --replicas=5"),
            (
                Verb::RollOutBrokenImage {
                    deployment: "web".into(),
                    container: "nginx".into(),
                    image: "nginx:1.27-broken".into(),
                },
                "sim image-fail nginx:1.27-broken\nkubectl set image deployment/web nginx=nginx:1.27-broken",
            ),
            (Verb::Undo("web".into(), Some("2".into())), "kubectl rollout undo deployment/web --to-revision=2"),
            (Verb::SetPaused("web".into(), false), "kubectl rollout resume deployment/web"),
            (Verb::Cordon("node-2".into(), false), "kubectl uncordon node-2"),
            (Verb::Power("node-2".into(), false), "sim node down node-2"),
            (Verb::Expose("web".into()), "kubectl expose deployment web --port=80"),
            (
                Verb::Traffic("web".into(), 20),
                "sim traffic service/web --rps 20 --retries 1 --for 10m",
            ),
            (Verb::App("web".into(), None), "sim app service/web"),
            (Verb::Devices("web".into(), 100), "sim devices 100 service/web"),
            (Verb::Devices("web".into(), 0), "sim devices service/web --stop"),
            (Verb::ApiServer(false), "sim apiserver down"),
            (Verb::ApiServer(true), "sim apiserver up"),
            (Verb::Etcd("etcd-2".into(), false), "sim etcd down etcd-2"),
            (Verb::Etcd("etcd-2".into(), true), "sim etcd up etcd-2"),
            (Verb::EtcdMembers(3), "sim etcd members 3"),
            (Verb::EtcdPath(true), "sim etcd reconnect"),
            (
                Verb::KillLeader("kube-scheduler".into()),
                "sim leader kill kube-scheduler",
            ),
            (Verb::LeaderReplicas(3), "sim leader replicas 3"),
            (
                Verb::ApiServerReplica("kube-apiserver-control-plane-2".into(), false),
                "sim apiserver down kube-apiserver-control-plane-2",
            ),
            (Verb::ApiServerReplicas(3), "sim apiserver replicas 3"),
        ];
        for (verb, command) in cases {
            assert_eq!(verb.command(), command);
        }
    }
}
