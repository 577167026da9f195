//! The cards' models: one struct per kind of card (Deployment, ReplicaSet, Job,
//! DaemonSet, StatefulSet, CronJob, Pod, Node, Service), each with its place (`y`).

use super::*;

/// A Deployment: spec beside status.
#[derive(Clone, Debug, PartialEq)]
pub struct DeploymentView {
    /// Name.
    pub name: String,
    /// spec.replicas.
    pub desired: i64,
    /// status.readyReplicas.
    pub ready: i64,
    /// status.availableReplicas.
    pub available: i64,
    /// status.updatedReplicas.
    pub updated: i64,
    /// The HorizontalPodAutoscaler that sizes it: its TARGETS (`cpu: 40%/50%`) and
    /// bounds.
    pub hpa: Option<(String, i64, i64)>,
    /// metadata.resourceVersion (what changed since the last frame pulses).
    pub rv: u64,
    /// metadata.creationTimestamp in ms (what appeared since the last frame fades in).
    pub created_ms: SimTime,
    /// Card top (px).
    pub y: f64,
}

/// A ReplicaSet.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplicaSetView {
    /// Name.
    pub name: String,
    /// Revision annotation.
    pub revision: i64,
    /// spec.replicas.
    pub desired: i64,
    /// status.replicas.
    pub current: i64,
    /// status.readyReplicas.
    pub ready: i64,
    /// Owner Deployment name.
    pub owner: Option<String>,
    /// metadata.resourceVersion (what changed since the last frame pulses).
    pub rv: u64,
    /// metadata.creationTimestamp in ms (what appeared since the last frame fades in).
    pub created_ms: SimTime,
    /// Card top (px).
    pub y: f64,
}

/// A Job, in the ReplicaSet column: completions wanted beside succeeded, failed and
/// active, and its `kubectl get jobs` STATUS.
#[derive(Clone, Debug, PartialEq)]
pub struct JobView {
    /// Name.
    pub name: String,
    /// `kubectl get jobs` STATUS (Running, Complete, Failed, Suspended…).
    pub status: String,
    /// COMPLETIONS as `kubectl get jobs` prints it.
    pub completions: String,
    /// status.active.
    pub active: i64,
    /// status.failed.
    pub failed: i64,
    /// spec.backoffLimit.
    pub backoff_limit: i64,
    /// Owner CronJob name.
    pub owner: Option<String>,
    /// metadata.resourceVersion.
    pub rv: u64,
    /// metadata.creationTimestamp in ms.
    pub created_ms: SimTime,
    /// Card top (px).
    pub y: f64,
}

/// A DaemonSet, in the ReplicaSet column: nodes that should run its Pod beside those
/// that do.
#[derive(Clone, Debug, PartialEq)]
pub struct DaemonSetView {
    /// Name.
    pub name: String,
    /// status.desiredNumberScheduled.
    pub desired: i64,
    /// status.currentNumberScheduled.
    pub current: i64,
    /// status.numberReady.
    pub ready: i64,
    /// status.updatedNumberScheduled.
    pub updated: i64,
    /// status.numberMisscheduled.
    pub misscheduled: i64,
    /// metadata.resourceVersion.
    pub rv: u64,
    /// metadata.creationTimestamp in ms.
    pub created_ms: SimTime,
    /// Card top (px).
    pub y: f64,
}

/// A StatefulSet, in the ReplicaSet column: replicas wanted beside those that exist,
/// Ready and at the update revision, and its claims.
#[derive(Clone, Debug, PartialEq)]
pub struct StatefulSetView {
    /// Name.
    pub name: String,
    /// spec.replicas.
    pub replicas: i64,
    /// status.replicas.
    pub current: i64,
    /// status.readyReplicas.
    pub ready: i64,
    /// status.updatedReplicas.
    pub updated: i64,
    /// spec.podManagementPolicy.
    pub policy: String,
    /// Claims labelled for it (its volumeClaimTemplates' claims).
    pub claims: usize,
    /// metadata.resourceVersion.
    pub rv: u64,
    /// metadata.creationTimestamp in ms.
    pub created_ms: SimTime,
    /// Card top (px).
    pub y: f64,
}

/// A CronJob, in the Deployment column: its schedule, active Jobs and last run.
#[derive(Clone, Debug, PartialEq)]
pub struct CronJobView {
    /// Name.
    pub name: String,
    /// spec.schedule.
    pub schedule: String,
    /// spec.concurrencyPolicy.
    pub policy: String,
    /// spec.suspend.
    pub suspended: bool,
    /// status.active count.
    pub active: usize,
    /// LAST SCHEDULE as `kubectl get cronjobs` prints it.
    pub last: String,
    /// metadata.resourceVersion.
    pub rv: u64,
    /// metadata.creationTimestamp in ms.
    pub created_ms: SimTime,
    /// Card top (px).
    pub y: f64,
}

/// A Pod, as `kubectl get pods -o wide` would describe it.
#[derive(Clone, Debug, PartialEq)]
pub struct PodView {
    /// Name.
    pub name: String,
    /// First 8 characters of the uid.
    pub short_uid: String,
    /// READY column.
    pub ready_col: String,
    /// STATUS column.
    pub status: String,
    /// Ready condition.
    pub ready: bool,
    /// status.phase.
    pub phase: String,
    /// RESTARTS.
    pub restarts: i64,
    /// NODE (empty while unscheduled).
    pub node: String,
    /// Owner ReplicaSet name.
    pub owner: Option<String>,
    /// Being deleted.
    pub terminating: bool,
    /// For a terminating Pod: the Pod its ReplicaSet created in its place (name, short
    /// uid) — same name pattern, new uid, maybe another node.
    pub replaced_by: Option<(String, String)>,
    /// metadata.resourceVersion (what changed since the last frame pulses).
    pub rv: u64,
    /// metadata.creationTimestamp in ms (what appeared since the last frame fades in).
    pub created_ms: SimTime,
    /// As a Service's endpoint: requests answered here and attempts that failed here in
    /// the last seconds, with the commonest failure (None: no request came).
    pub traffic: Option<(u64, u64, &'static str)>,
    /// Devices holding a long-lived connection to it (`sim devices`; None: the Service
    /// has no devices).
    pub connections: Option<u64>,
    /// Card top (px).
    pub y: f64,
}

/// A Node with its requests against allocatable.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeView {
    /// Name.
    pub name: String,
    /// STATUS column (`Ready`, `NotReady`…).
    pub status: String,
    /// Ready condition is True.
    pub ready: bool,
    /// The kubelet (machine) is powered on.
    pub powered: bool,
    /// CPU requested (millicores).
    pub cpu_requested: i64,
    /// CPU allocatable (millicores).
    pub cpu_allocatable: i64,
    /// Memory requested (bytes).
    pub mem_requested: i64,
    /// Memory allocatable (bytes).
    pub mem_allocatable: i64,
    /// Pods bound.
    pub pods: i64,
    /// Of them, the add-ons' in `kube-system` (CoreDNS), which the chain does not draw.
    pub system_pods: i64,
    /// Taints as `key:Effect`.
    pub taints: Vec<String>,
    /// Its kubelet has gone silent: since when, and when it goes NotReady.
    pub silence: Option<kubeplay_engine::explain::Silence>,
    /// Card top (px).
    pub y: f64,
}

/// A Service, drawn at the top of the Pod column, in front of the Pods it routes to.
#[derive(Clone, Debug, PartialEq)]
pub struct ServiceCard {
    /// Namespace.
    pub namespace: String,
    /// Name.
    pub name: String,
    /// spec.type.
    pub type_: String,
    /// `10.96.x.y:80` (`None` for a headless Service).
    pub address: String,
    /// Its EndpointSlices' endpoints: ready, not ready (and not terminating), terminating.
    pub endpoints: (usize, usize, usize),
    /// A flow runs: its requests per second.
    pub rps: Option<u32>,
    /// The Ingress the flow comes through (`ingress/NAME`), when it does.
    pub through: Option<String>,
    /// Requests answered in the last two seconds (and this one so far).
    pub answered: u64,
    /// Requests that failed in the same window.
    pub failed: u64,
    /// Its lane (0: nearest the Pods) in the gap left of the Pod column.
    pub lane: usize,
    /// Card top (px).
    pub y: f64,
}
