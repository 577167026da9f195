//! The kubelet's own admission: a Pod bound here is checked against what the Pods it
//! already runs use, even when no scheduler looked at it (`spec.nodeName` written by
//! the user). "nodeName skips the scheduler, not the kubelet."
//!
//! Upstream: `pkg/kubelet/lifecycle/predicate.go` (`Admit`, `generalFilter`),
//! `pkg/scheduler/framework/plugins/noderesources/fit.go` (`Fits`: pods, cpu,
//! memory, in that order) and `AdmissionCheck` (resources, NodeAffinity, NodeName,
//! NodePorts), then the NoExecute taints; the first failure is the reason.
//! `pkg/kubelet/kubelet.go` `rejectPod`: a Warning event with the reason and message,
//! and status `Failed` with message `Pod was rejected: <message>`.

use super::*;
use crate::api::node_affinity::node_affinity_matches;
use crate::apiserver::{allocatable, pod_requests, PodRequests};
use crate::scheduler::plugins::host_ports;

/// Why the kubelet refuses a Pod: the status reason (and event reason) and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// e.g. `OutOfcpu`, `NodeAffinity`, `TaintToleration`.
    pub reason: String,
    /// e.g. `Node didn't have enough resource: cpu, requested: 2000, used: 3900, capacity: 4000`.
    pub message: String,
}

fn insufficient(resource: &str, requested: i64, used: i64, capacity: i64) -> Rejection {
    Rejection {
        // OutOfCPU = "OutOfcpu", OutOfMemory = "OutOfmemory", OutOfPods = "OutOfpods":
        // the prefix and the resource name as it is.
        reason: format!("OutOf{resource}"),
        message: format!(
            "Node didn't have enough resource: {resource}, requested: {requested}, used: {used}, capacity: {capacity}"
        ),
    }
}

fn predicate(name: &str, desc: &str) -> Rejection {
    Rejection {
        reason: name.into(),
        message: format!("Predicate {name} failed: {desc}"),
    }
}

/// `predicateAdmitHandler.Admit` for `pod` on `node`, beside `others` (the Pods this
/// kubelet has admitted and that are not terminal, each with its requests). `None`:
/// admitted.
pub fn admit(pod: &Pod, node: &Node, others: &[(&Pod, PodRequests)]) -> Option<Rejection> {
    let alloc = allocatable(node);
    let req = pod_requests(pod);
    let (mut used_cpu, mut used_mem, mut used_storage) = (0, 0, 0);
    for (_, r) in others {
        // Saturating, as the scheduler's sums (`apiserver::usage`): a quantity may be
        // i64::MAX.
        used_cpu = i64::saturating_add(used_cpu, r.cpu_milli);
        used_mem = i64::saturating_add(used_mem, r.memory);
        used_storage = i64::saturating_add(used_storage, r.ephemeral_storage);
    }
    // noderesources.Fits: the pod count first, then cpu, memory, ephemeral-storage.
    let count = others.len() as i64;
    if count.saturating_add(1) > alloc.pods {
        return Some(insufficient("pods", 1, count, alloc.pods));
    }
    if req.cpu_milli > 0 && req.cpu_milli > alloc.cpu_milli.saturating_sub(used_cpu) {
        return Some(insufficient(
            "cpu",
            req.cpu_milli,
            used_cpu,
            alloc.cpu_milli,
        ));
    }
    if req.memory > 0 && req.memory > alloc.memory.saturating_sub(used_mem) {
        return Some(insufficient("memory", req.memory, used_mem, alloc.memory));
    }
    if req.ephemeral_storage > 0
        && req.ephemeral_storage > alloc.ephemeral_storage.saturating_sub(used_storage)
    {
        return Some(insufficient(
            "ephemeral-storage",
            req.ephemeral_storage,
            used_storage,
            alloc.ephemeral_storage,
        ));
    }
    if !node_affinity_matches(pod, node) {
        return Some(predicate(
            "NodeAffinity",
            "node(s) didn't match Pod's node affinity/selector",
        ));
    }
    // The others' ports only when this Pod asks for one (few Pods do).
    let wanted = host_ports(pod);
    let taken: Vec<(i64, String)> = if wanted.is_empty() {
        Vec::new()
    } else {
        others.iter().flat_map(|(o, _)| host_ports(o)).collect()
    };
    if wanted.iter().any(|p| taken.contains(p)) {
        return Some(predicate(
            "NodePorts",
            "node(s) didn't have free ports for the requested pod ports",
        ));
    }
    // The kubelet only cares about NoExecute taints (NoSchedule is the scheduler's).
    let untolerated = node.spec.taints.iter().any(|t| {
        t.effect == TaintEffect::NoExecute && !pod.spec.tolerations.iter().any(|x| x.tolerates(t))
    });
    if untolerated {
        return Some(predicate(
            "TaintToleration",
            "node(s) had taints that the pod didn't tolerate",
        ));
    }
    None
}

impl Kubelet {
    /// The Pods this kubelet has admitted and still runs (not `uid`, not terminal),
    /// each with its requests.
    pub(super) fn admitted_pods<'a>(
        &'a self,
        store: &'a Store,
        uid: &str,
    ) -> Vec<(&'a Pod, PodRequests)> {
        let admitted = |p: &Pod| {
            p.metadata.uid != uid
                && !p.is_terminal()
                && self
                    .workers
                    .get(&p.metadata.uid)
                    .is_some_and(|w| w.admitted)
        };
        match &self.cut {
            Some(cut) => cut
                .pods
                .values()
                .filter(|p| admitted(p))
                .map(|p| (p, pod_requests(p)))
                .collect(),
            // The store keeps each bound Pod's requests.
            None => store
                .pods_on_node_with_requests(&self.node)
                .filter(|(p, _)| admitted(p))
                .collect(),
        }
    }

    /// `rejectPod`: the Warning event and the Failed status; the worker goes away.
    pub(super) fn reject(&mut self, pod: &Pod, r: Rejection) -> KubeletOutput {
        let uid = pod.metadata.uid.clone();
        self.workers.remove(&uid);
        let mut p = pod.clone();
        p.status.phase = PodPhase::Failed.into();
        p.status.reason = r.reason.clone();
        p.status.message = format!("Pod was rejected: {}", r.message);
        (
            vec![
                self.event(&p.metadata, EventType::Warning, &r.reason, r.message),
                Request::blind_update_status(p),
            ],
            vec![],
        )
    }
}
