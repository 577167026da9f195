//! `v1.Pod` and what it is made of: its spec (containers, ports, probes, volumes and
//! their mounts, resources) and its status (phase, container states, addresses).

use super::{is_false, is_zero};
use crate::api::extra::{self, Extra};
use crate::api::{
    Affinity, Condition, ConditionStatus, ObjectMeta, PodConditionType, PodPhase, StringMap,
    Toleration, TopologySpreadConstraint,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `v1.ResourceRequirements`: requests (what the scheduler reserves) and limits.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ResourceRequirements {
    /// e.g. `{cpu: 100m, memory: 128Mi}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub requests: StringMap,
    /// e.g. `{memory: 256Mi}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub limits: StringMap,
    /// Unmodelled fields (`claims`), kept as written.
    #[serde(flatten, deserialize_with = "extra::resources")]
    pub extra: Extra,
}

/// `v1.ContainerPort`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContainerPort {
    /// Port the container listens on.
    #[serde(default)]
    pub container_port: i64,
    /// Port reserved on the node (NodePorts filter).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub host_port: i64,
    /// TCP (default), UDP or SCTP.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub protocol: String,
    /// Optional port name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Unmodelled fields (`hostIP`), kept as written.
    #[serde(flatten, deserialize_with = "extra::container_port")]
    pub extra: Extra,
}

/// `v1.HTTPGetAction`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct HttpGetAction {
    /// Request path (defaulted to `/`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub path: String,
    /// Port number or name.
    #[serde(default)]
    pub port: crate::api::IntOrString,
    /// `HTTP` (the default) or `HTTPS`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub scheme: String,
    /// Unmodelled fields (`host`, `httpHeaders`), kept as written.
    #[serde(flatten, deserialize_with = "extra::http_get")]
    pub extra: Extra,
}

/// `v1.TCPSocketAction`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TcpSocketAction {
    /// Port number or name.
    #[serde(default)]
    pub port: crate::api::IntOrString,
    /// Unmodelled fields (`host`), kept as written.
    #[serde(flatten, deserialize_with = "extra::tcp_socket")]
    pub extra: Extra,
}

/// `v1.ExecAction`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ExecAction {
    /// Command run in the container.
    #[serde(default)]
    pub command: Vec<String>,
}

fn is_zero_seconds(v: &i64) -> bool {
    *v == 0
}

fn default_period() -> i64 {
    10
}
fn default_one_i64() -> i64 {
    1
}
fn default_three() -> i64 {
    3
}

/// `v1.Probe` with upstream defaults (period 10 s, timeout 1 s, success 1, failure 3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Probe {
    /// HTTP GET probe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_get: Option<HttpGetAction>,
    /// TCP probe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tcp_socket: Option<TcpSocketAction>,
    /// Exec probe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exec: Option<ExecAction>,
    /// Seconds after the container starts before the first probe (default 0).
    // `omitempty` upstream: 0 is not written.
    #[serde(default, skip_serializing_if = "is_zero_seconds")]
    pub initial_delay_seconds: i64,
    /// Seconds between probes.
    #[serde(default = "default_period")]
    pub period_seconds: i64,
    /// Probe timeout.
    #[serde(default = "default_one_i64")]
    pub timeout_seconds: i64,
    /// Consecutive successes to count as passing.
    #[serde(default = "default_one_i64")]
    pub success_threshold: i64,
    /// Consecutive failures to count as failing.
    #[serde(default = "default_three")]
    pub failure_threshold: i64,
    /// Unmodelled fields (`grpc`, `terminationGracePeriodSeconds`), kept as written.
    #[serde(flatten, deserialize_with = "extra::probe")]
    pub extra: Extra,
}

impl Probe {
    /// The message after `Readiness probe failed: ` when the application is unhealthy,
    /// as the kubelet's prober words it for each probe type.
    pub fn failure_message(&self, pod_ip: &str) -> String {
        if self.http_get.is_some() {
            "HTTP probe failed with statuscode: 503".to_string()
        } else if let Some(t) = &self.tcp_socket {
            format!("dial tcp {pod_ip}:{}: connect: connection refused", t.port)
        } else {
            String::new()
        }
    }
}

/// `v1.Container` (the fields the simulation uses).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Container {
    /// Container name, unique in the Pod.
    #[serde(default)]
    pub name: String,
    /// Image reference, e.g. `nginx:1.27`.
    #[serde(default)]
    pub image: String,
    /// `Always`, `IfNotPresent` or `Never`. When unset: `Always` for the `:latest`
    /// tag or no tag, `IfNotPresent` otherwise.
    // Defaulted on create (`SetDefaults_Container`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub image_pull_policy: String,
    /// Entrypoint (the image's ENTRYPOINT when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    /// Arguments (the image's CMD when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// Working directory.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub working_dir: String,
    /// Environment variables, kept as written (`value` or `valueFrom`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<serde_json::Value>,
    /// Where the Pod's volumes are mounted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub volume_mounts: Vec<VolumeMount>,
    /// On an init container, `Always` makes it a sidecar (native sidecars, GA in 1.33):
    /// started in order, then kept running beside the app containers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<String>,
    /// Where the container writes its termination message (`/dev/termination-log`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub termination_message_path: String,
    /// `File` (default) or `FallbackToLogsOnError`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub termination_message_policy: String,
    /// Ports.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<ContainerPort>,
    /// Requests (what the scheduler reserves on a node) and limits (what the
    /// container may use).
    // Written as `resources: {}` when empty, as the API does: the Go struct is not a
    // pointer, so `omitempty` never drops it.
    #[serde(default)]
    pub resources: ResourceRequirements,
    /// Readiness probe: only Ready changes with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readiness_probe: Option<Probe>,
    /// Liveness probe: a failing one restarts the container.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub liveness_probe: Option<Probe>,
    /// Startup probe: until it passes the container is not `started` and the other
    /// probes wait; failing it restarts the container.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_probe: Option<Probe>,
    /// Unmodelled fields (`securityContext`, `lifecycle`, `envFrom`, `stdin`…), kept as
    /// written.
    #[serde(flatten, deserialize_with = "extra::container")]
    pub extra: Extra,
}

impl Container {
    /// A sidecar: an init container with `restartPolicy: Always`.
    pub fn is_sidecar(&self) -> bool {
        self.restart_policy.as_deref() == Some("Always")
    }
}

/// `v1.VolumeMount`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct VolumeMount {
    /// The volume's name in `spec.volumes`.
    #[serde(default)]
    pub name: String,
    /// Path in the container.
    #[serde(default)]
    pub mount_path: String,
    /// Mounted read-only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only: Option<bool>,
    /// Unmodelled fields (`subPath`, `mountPropagation`…), kept as written.
    #[serde(flatten, deserialize_with = "extra::volume_mount")]
    pub extra: Extra,
}

/// `v1.Volume`: a name and one volume source (`emptyDir`, `configMap`, `secret`,
/// `hostPath`, `persistentVolumeClaim`, `projected`, `downwardAPI`…), the source kept
/// as written.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
pub struct Volume {
    /// Name the containers' volumeMounts refer to.
    #[serde(default)]
    pub name: String,
    /// The source, keyed by its type, e.g. `{"emptyDir": {}}`. Shared: every Pod a
    /// template makes, every stored version of a Pod and every Pod's ServiceAccount
    /// token volume point at one copy (cloned only when written, `Arc::make_mut`).
    #[serde(flatten, deserialize_with = "shared_volume_source")]
    pub source: std::sync::Arc<Extra>,
}

fn shared_volume_source<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<std::sync::Arc<Extra>, D::Error> {
    extra::volume(d).map(std::sync::Arc::new)
}

impl Volume {
    /// The source's type, e.g. `emptyDir`, if one is set.
    pub fn source_type(&self) -> Option<&str> {
        self.source.keys().next().map(String::as_str)
    }
}

/// `v1.PodSpec` (the fields the simulation uses).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PodSpec {
    /// Application containers.
    #[serde(default)]
    pub containers: Vec<Container>,
    /// Volumes the containers may mount.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub volumes: Vec<Volume>,
    /// `ClusterFirst` by default.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub dns_policy: String,
    /// The ServiceAccount the Pod runs as.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub service_account_name: String,
    /// The deprecated alias of `serviceAccountName`, which v1 still writes beside it
    /// (the v1 conversion copies one into the other).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub service_account: String,
    /// Use the node's network namespace (container ports become host ports).
    #[serde(default, skip_serializing_if = "is_false")]
    pub host_network: bool,
    /// Pod-level security settings, kept as written (`{}` by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub security_context: Option<serde_json::Value>,
    /// Inject Service environment variables (true by default on Pods).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enable_service_links: Option<bool>,
    /// Set by the scheduler's Bind (or by the user to skip scheduling).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub node_name: String,
    /// Node labels the Pod requires.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub node_selector: StringMap,
    /// Node affinity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affinity: Option<Affinity>,
    /// Init containers: run to completion before the app containers (their requests
    /// count as the maximum with the app containers' sum).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub init_containers: Vec<Container>,
    /// Spread constraints (PodTopologySpread).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub topology_spread_constraints: Vec<TopologySpreadConstraint>,
    /// Tolerations (DefaultTolerationSeconds admission adds two).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tolerations: Vec<Toleration>,
    /// `Always` (default), `OnFailure`, `Never`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub restart_policy: String,
    /// Seconds between TERM and KILL (default 30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub termination_grace_period_seconds: Option<i64>,
    /// Scheduler profile (default `default-scheduler`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub scheduler_name: String,
    /// Resolved priority (0 by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<i64>,
    /// The PriorityClass the priority comes from.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub priority_class_name: String,
    /// `PreemptLowerPriority` or `Never` (from the PriorityClass).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preemption_policy: Option<String>,
    /// Unmodelled fields (`dnsConfig`, `hostname`, `imagePullSecrets`, `os`…), kept as
    /// written.
    #[serde(flatten, deserialize_with = "extra::pod_spec")]
    pub extra: Extra,
}

impl PodSpec {
    /// terminationGracePeriodSeconds with its default of 30.
    pub fn grace_seconds(&self) -> i64 {
        self.termination_grace_period_seconds.unwrap_or(30)
    }
}

/// Container state `waiting`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContainerStateWaiting {
    /// e.g. `ContainerCreating`, `ImagePullBackOff`, `CrashLoopBackOff`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// Detail.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
}

/// Container state `running`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContainerStateRunning {
    /// When the container started.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub started_at: String,
}

/// Container state `terminated`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContainerStateTerminated {
    /// Process exit code.
    #[serde(default)]
    pub exit_code: i64,
    /// `Completed`, `Error`, `OOMKilled`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// When it started.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub started_at: String,
    /// When it ended.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub finished_at: String,
}

/// `v1.ContainerState`: exactly one member is set.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContainerState {
    /// Not running yet (or backing off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting: Option<ContainerStateWaiting>,
    /// Running.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub running: Option<ContainerStateRunning>,
    /// Exited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminated: Option<ContainerStateTerminated>,
}

/// `v1.ContainerStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContainerStatus {
    /// Container name.
    #[serde(default)]
    pub name: String,
    /// Current state.
    #[serde(default)]
    pub state: ContainerState,
    /// The previous run's termination, after a restart.
    #[serde(default, skip_serializing_if = "is_default_state")]
    pub last_state: ContainerState,
    /// Readiness (probe result; true once started when there is no readiness probe).
    #[serde(default)]
    pub ready: bool,
    /// Restarts in this Pod (same UID).
    #[serde(default)]
    pub restart_count: i64,
    /// Image reference.
    #[serde(default)]
    pub image: String,
    /// Resolved image, e.g. `docker.io/library/nginx@sha256:…`.
    #[serde(rename = "imageID", default)]
    pub image_id: String,
    /// Runtime id, e.g. `containerd://…` (empty until the container exists).
    #[serde(
        rename = "containerID",
        default,
        skip_serializing_if = "String::is_empty"
    )]
    pub container_id: String,
    /// Whether the container has started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<bool>,
}

fn is_default_state(s: &ContainerState) -> bool {
    *s == ContainerState::default()
}

/// `v1.PodIP`: one address of a Pod.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
pub struct PodIp {
    /// The address.
    #[serde(default)]
    pub ip: String,
}

/// `v1.HostIP`: one address of the Pod's node.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
pub struct HostIp {
    /// The address.
    #[serde(default)]
    pub ip: String,
}

/// `v1.PodStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PodStatus {
    /// Pending, Running, Succeeded, Failed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub phase: String,
    /// PodScheduled, PodReadyToStartContainers, Initialized, ContainersReady, Ready, DisruptionTarget.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// e.g. `Evicted`, `NodeLost`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// Detail for `reason`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// The IP of the node the Pod is bound to.
    // Named `hostIP` on the wire: serde's camelCase would spell it `hostIp`, which the
    // API does not know.
    #[serde(rename = "hostIP", default, skip_serializing_if = "String::is_empty")]
    pub host_ip: String,
    /// Every IP of the node (`hostIPs[0].ip == hostIP`).
    #[serde(rename = "hostIPs", default, skip_serializing_if = "Vec::is_empty")]
    pub host_ips: Vec<HostIp>,
    /// The Pod's IP (a new Pod gets a new one), `podIP` on the wire.
    #[serde(rename = "podIP", default, skip_serializing_if = "String::is_empty")]
    pub pod_ip: String,
    /// Every IP of the Pod (`podIPs[0].ip == podIP`).
    #[serde(rename = "podIPs", default, skip_serializing_if = "Vec::is_empty")]
    pub pod_ips: Vec<PodIp>,
    /// When the kubelet accepted the Pod.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_time: Option<String>,
    /// Per-init-container status.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub init_container_statuses: Vec<ContainerStatus>,
    /// Per-container status.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub container_statuses: Vec<ContainerStatus>,
    /// Node chosen by preemption, waiting for victims to leave.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub nominated_node_name: String,
}

/// `v1.Pod`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Pod {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What is wanted.
    #[serde(default)]
    pub spec: PodSpec,
    /// What is seen.
    #[serde(default)]
    pub status: PodStatus,
}

impl Pod {
    /// `podutil.IsPodReady`: the Ready condition is True.
    pub fn is_ready(&self) -> bool {
        crate::api::get_condition(&self.status.conditions, PodConditionType::Ready)
            .is_some_and(|c| c.status == ConditionStatus::True)
    }

    /// When the Ready condition last became True (ms), if it is True.
    pub fn ready_since(&self) -> Option<u64> {
        crate::api::get_condition(&self.status.conditions, PodConditionType::Ready)
            .filter(|c| c.status == ConditionStatus::True)
            .map(|c| c.transition_ms)
    }

    /// `ComputePodQOS` (`pkg/apis/core/helper/qos`): only cpu and memory count, over
    /// the containers and the init containers; a zero quantity counts as none. No
    /// request or limit: `BestEffort`; every container limiting both cpu and memory,
    /// and every request equal to the summed limit: `Guaranteed`; else `Burstable`.
    pub fn qos_class(&self) -> &'static str {
        use crate::api::quantity::parse_cpu_milli_wide as parse_cpu_milli;
        let mut requests: BTreeMap<&str, u128> = BTreeMap::new();
        let mut limits: BTreeMap<&str, u128> = BTreeMap::new();
        let mut guaranteed = true;
        for c in self
            .spec
            .containers
            .iter()
            .chain(&self.spec.init_containers)
        {
            for (into, from) in [
                (&mut requests, &c.resources.requests),
                (&mut limits, &c.resources.limits),
            ] {
                for r in ["cpu", "memory"] {
                    // Millis of either unit: only the comparison with zero and equality
                    // matter here.
                    if let Some(q) = from
                        .get(r)
                        .and_then(|q| parse_cpu_milli(q))
                        .filter(|q| *q > 0)
                    {
                        let sum = into.entry(r).or_insert(0);
                        *sum = sum.saturating_add(q);
                    }
                }
            }
            let limited = |r: &str| {
                c.resources
                    .limits
                    .get(r)
                    .and_then(|q| parse_cpu_milli(q))
                    .is_some_and(|q| q > 0)
            };
            if !(limited("cpu") && limited("memory")) {
                guaranteed = false;
            }
        }
        if requests.is_empty() && limits.is_empty() {
            return "BestEffort";
        }
        if guaranteed
            && requests.iter().all(|(r, q)| limits.get(r) == Some(q))
            && requests.len() == limits.len()
        {
            return "Guaranteed";
        }
        "Burstable"
    }

    /// Succeeded or Failed.
    pub fn is_terminal(&self) -> bool {
        self.status.phase == PodPhase::Succeeded || self.status.phase == PodPhase::Failed
    }

    /// `controller.IsPodActive`: not terminal and not being deleted.
    pub fn is_active(&self) -> bool {
        !self.is_terminal() && !self.metadata.is_deleting()
    }

    /// `podutil.IsPodAvailable`: Ready for at least `min_ready_seconds` at `now`.
    pub fn is_available(&self, min_ready_seconds: i64, now: u64) -> bool {
        match self.ready_since() {
            Some(since) => {
                min_ready_seconds <= 0
                    || crate::time::after_seconds(since, min_ready_seconds) <= now
            }
            None => false,
        }
    }

    /// Σ restartCount over containers.
    pub fn restarts(&self) -> i64 {
        self.status
            .container_statuses
            .iter()
            .map(|c| c.restart_count)
            .sum()
    }
}

#[cfg(test)]
mod qos_tests {
    use super::*;

    type Quantities<'a> = &'a [(&'a str, &'a str)];

    fn pod(containers: &[(Quantities, Quantities)]) -> Pod {
        let mut p = Pod::default();
        for (requests, limits) in containers {
            let mut c = Container::default();
            for (k, v) in *requests {
                c.resources.requests.insert(k.to_string(), v.to_string());
            }
            for (k, v) in *limits {
                c.resources.limits.insert(k.to_string(), v.to_string());
            }
            p.spec.containers.push(c);
        }
        p
    }

    #[test]
    fn the_qos_class_counts_cpu_and_memory_only_as_compute_pod_qos_does() {
        assert_eq!(pod(&[(&[], &[])]).qos_class(), "BestEffort");
        // ephemeral-storage is no QoS resource; a zero request is none.
        let storage: &[(&str, &str)] = &[("ephemeral-storage", "200Gi"), ("memory", "0")];
        assert_eq!(pod(&[(storage, &[])]).qos_class(), "BestEffort");
        assert_eq!(
            pod(&[(&[("memory", "64Mi")], &[])]).qos_class(),
            "Burstable"
        );
        let both: &[(&str, &str)] = &[("cpu", "500m"), ("memory", "1Gi")];
        let same: &[(&str, &str)] = &[("cpu", "0.5"), ("memory", "1024Mi")];
        assert_eq!(pod(&[(both, same)]).qos_class(), "Guaranteed");
        // Limits alone: requests default to them upstream; here they are absent, and
        // the summed requests must still equal the limits.
        assert_eq!(pod(&[(&[], both)]).qos_class(), "Burstable");
        assert_eq!(pod(&[(both, both), (&[], &[])]).qos_class(), "Burstable");
    }
}
