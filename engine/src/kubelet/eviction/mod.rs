//! The kubelet's eviction manager (`pkg/kubelet/eviction`, `eviction_manager.go`
//! `synchronize`, `helpers.go`).
//!
//! Every 10 s (`evictionMonitoringPeriod`; kubeplay runs it at the heartbeat, which
//! has the same period) the kubelet observes its signals (`signals`): memory, the
//! disk's bytes and inodes (`nodefs`, and `imagefs` on the same disk), and process
//! ids. A hard threshold met — by default `memory.available<100Mi`,
//! `nodefs.available<10%`, `nodefs.inodesFree<5%`, `imagefs.available<15%`,
//! `imagefs.inodesFree<5%`; no `pid.available` unless the node sets one — and:
//!
//! - the node reports the signal's condition: MemoryPressure
//!   (`KubeletHasInsufficientMemory`), DiskPressure (`KubeletHasDiskPressure`) or
//!   PIDPressure (`KubeletHasInsufficientPID`), with a Normal `NodeHas…` Event, and the
//!   node lifecycle controller taints it `memory-pressure`, `disk-pressure` or
//!   `pid-pressure`, NoSchedule;
//! - it records a Warning `EvictionThresholdMet` "Attempting to reclaim <resource>" on
//!   the node, memory before the rest (`byEvictionPriority`);
//! - for the disk it first reclaims what belongs to no Pod: the dead containers, then
//!   every image no container uses and that it has known for 2 minutes
//!   (`DeleteUnusedImages`). If that brings every signal back above its threshold, no
//!   Pod is evicted;
//! - else it evicts **one** Pod per cycle, ranked for the signal (`rank`): for memory
//!   and the disk, Pods using more than they requested first, then the lower
//!   priority, then the larger usage above the request; for process ids, the lower
//!   priority, then the most processes;
//! - the evicted Pod is killed with a 1 s grace period (hard eviction,
//!   `immediateEvictionGracePeriodSeconds`) and ends `Failed` with reason `Evicted`, the
//!   message `evictionMessage` writes, and a `DisruptionTarget` condition
//!   (`TerminationByKubelet`); a Warning `Evicted` Event says the same. It stays: its
//!   controller creates a replacement, which the taint keeps off this node.
//!
//! A condition stays True until 5 minutes after the last cycle in which one of its
//! thresholds was met (`evictionPressureTransitionPeriod`), then goes back to False.
//! Under any condition but MemoryPressure alone the kubelet admits no new Pod except
//! critical ones (`Admit`).
//!
//! Before any of that, whatever the pressure, a Pod whose local ephemeral storage
//! outgrows its limits is evicted (`localStorageEviction`): "Pod ephemeral local
//! storage usage exceeds the total limit of containers 1Gi. ".
//!
//! The image garbage collector's own periodic run (85% → 80%) is `kubelet::image_gc`.
//!
//! Simplifications: a Pod's usage is split evenly over its containers; no soft
//! thresholds; an emptyDir's use is not told apart from its Pod's.

mod rank;
mod signals;

pub use rank::*;
pub use signals::*;

use super::*;
use crate::api::quantity::parse_bytes;

/// `evictionPressureTransitionPeriod`'s default.
pub const PRESSURE_TRANSITION_PERIOD: SimTime = 5 * 60_000;
/// `immediateEvictionGracePeriodSeconds`: a hard eviction's grace period.
pub const HARD_EVICTION_GRACE_SECONDS: i64 = 1;
/// `ImageGCPolicy.MinAge`'s default (`imageMinimumGCAge`): younger images are kept.
pub const IMAGE_MINIMUM_GC_AGE: SimTime = 2 * 60_000;

/// The conditions the eviction manager reports, in the order kubeplay names them.
pub const PRESSURE_CONDITIONS: [NodeConditionType; 3] = [
    NodeConditionType::MemoryPressure,
    NodeConditionType::DiskPressure,
    NodeConditionType::PIDPressure,
];

fn condition_index(c: NodeConditionType) -> usize {
    PRESSURE_CONDITIONS
        .iter()
        .position(|x| *x == c)
        .unwrap_or(0)
}

/// What the eviction manager keeps between cycles.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pressure {
    /// Memory used by processes outside the Pods beyond the kubelet and the runtime
    /// (`sim node pressure memory`).
    pub other_memory: i64,
    /// Disk bytes taken by files outside the Pods and images (`sim node pressure disk`).
    pub other_disk: i64,
    /// Inodes taken by files outside the Pods and images (`--inodes`).
    pub other_inodes: i64,
    /// Process ids taken outside the Pods (`sim node pressure pid`).
    pub other_pids: i64,
    /// When each condition's threshold was last met ([`PRESSURE_CONDITIONS`]' order).
    pub met_at: [Option<SimTime>; 3],
    /// Which conditions the node reports.
    pub conditions: [bool; 3],
    /// When the image manager first knew each image on the node: one younger than
    /// [`IMAGE_MINIMUM_GC_AGE`] is not collected.
    pub image_detected: BTreeMap<String, SimTime>,
    /// The 5-minute period in which the image garbage collector last ran.
    pub image_gc_window: Option<SimTime>,
    /// How many of its runs in a row could not free enough.
    pub image_gc_failures: u32,
}

impl Pressure {
    /// Whether a cycle could change anything: something presses, or a condition waits
    /// to clear.
    pub fn active(&self) -> bool {
        self.other_memory > 0
            || self.other_disk > 0
            || self.other_inodes > 0
            || self.other_pids > 0
            || self.conditions.iter().any(|c| *c)
    }

    /// Whether the node reports `c`.
    pub fn has(&self, c: NodeConditionType) -> bool {
        self.conditions[condition_index(c)]
    }

    /// The conditions the node reports, in [`PRESSURE_CONDITIONS`]' order.
    pub fn reported(&self) -> Vec<NodeConditionType> {
        PRESSURE_CONDITIONS
            .into_iter()
            .filter(|c| self.has(*c))
            .collect()
    }
}

/// A pressure condition as the node status setters write it (`MemoryPressureCondition`,
/// `DiskPressureCondition`, `PIDPressureCondition`), and the Event its change records.
pub fn pressure_condition(
    type_: NodeConditionType,
    on: bool,
    now: SimTime,
) -> (Condition, &'static str) {
    let (reason, message, event) = match (type_, on) {
        (NodeConditionType::MemoryPressure, true) => (
            "KubeletHasInsufficientMemory",
            "kubelet has insufficient memory available",
            "NodeHasInsufficientMemory",
        ),
        (NodeConditionType::MemoryPressure, false) => (
            "KubeletHasSufficientMemory",
            "kubelet has sufficient memory available",
            "NodeHasSufficientMemory",
        ),
        (NodeConditionType::DiskPressure, true) => (
            "KubeletHasDiskPressure",
            "kubelet has disk pressure",
            "NodeHasDiskPressure",
        ),
        (NodeConditionType::DiskPressure, false) => (
            "KubeletHasNoDiskPressure",
            "kubelet has no disk pressure",
            "NodeHasNoDiskPressure",
        ),
        (_, true) => (
            "KubeletHasInsufficientPID",
            "kubelet has insufficient PID available",
            "NodeHasInsufficientPID",
        ),
        (_, false) => (
            "KubeletHasSufficientPID",
            "kubelet has sufficient PID available",
            "NodeHasSufficientPID",
        ),
    };
    let status = if on {
        ConditionStatus::True
    } else {
        ConditionStatus::False
    };
    let mut c = cond(type_, status, reason, message, now);
    c.last_heartbeat_time = Some(rfc3339(now));
    (c, event)
}

impl Kubelet {
    /// The hard eviction thresholds this kubelet runs with.
    pub fn thresholds(&self) -> Vec<Threshold> {
        self.config
            .eviction_hard
            .clone()
            .unwrap_or_else(default_eviction_hard)
    }

    /// `makeSignalObservations`: what is left of each resource, given `pods` (not
    /// terminal) and what each uses.
    pub fn observe(&self, pods: &[&Pod], stats: &dyn Fn(&Pod) -> PodStats) -> Observations {
        let mut used = PodStats::default();
        for p in pods {
            let s = stats(p);
            used.memory = used.memory.saturating_add(s.memory);
            used.disk = used.disk.saturating_add(s.disk);
            used.inodes = used.inodes.saturating_add(s.inodes);
            used.pids = used.pids.saturating_add(s.pids);
        }
        let images = self.images_bytes();
        let memory = parse_bytes(&self.config.memory).unwrap_or(0);
        let disk = parse_bytes(&self.config.ephemeral_storage).unwrap_or(0);
        let p = &self.pressure;
        let mut o = Observations::default();
        o.set(
            Signal::MemoryAvailable,
            memory
                .saturating_sub(crate::metrics::NODE_DAEMONS.memory_bytes)
                .saturating_sub(used.memory)
                .saturating_sub(p.other_memory),
            memory,
        );
        let disk_free = disk
            .saturating_sub(SYSTEM_DISK_BYTES + images)
            .saturating_sub(used.disk)
            .saturating_sub(p.other_disk);
        let inodes_free = inodes_of(disk)
            .saturating_sub(inodes_of(SYSTEM_DISK_BYTES + images))
            .saturating_sub(used.inodes)
            .saturating_sub(p.other_inodes);
        for s in [Signal::NodeFsAvailable, Signal::ImageFsAvailable] {
            o.set(s, disk_free, disk);
        }
        for s in [Signal::NodeFsInodesFree, Signal::ImageFsInodesFree] {
            o.set(s, inodes_free, inodes_of(disk));
        }
        o.set(
            Signal::PidAvailable,
            PID_MAX
                .saturating_sub(SYSTEM_PIDS)
                .saturating_sub(used.pids)
                .saturating_sub(p.other_pids),
            PID_MAX,
        );
        o
    }

    /// One cycle of the eviction manager (see the module's words), given what each Pod
    /// uses. Returns what the kubelet writes.
    pub fn synchronize(
        &mut self,
        store: &Store,
        stats: &dyn Fn(&Pod) -> PodStats,
        now: SimTime,
    ) -> KubeletOutput {
        // The Node is cloned only when a condition changes (`update_conditions`).
        let Some(node_ref) = self
            .node_object(store)
            .map(|n| event_ref(Kind::Node, &n.metadata))
        else {
            return (vec![], vec![]);
        };
        let pods: Vec<&Pod> = store
            .pods_on_node(&self.node)
            .filter(|p| !p.is_terminal())
            .collect();
        let thresholds = self.thresholds();
        let observations = self.observe(&pods, stats);
        let met = observations.met(&thresholds);
        let mut requests = self.update_conditions(store, &node_ref, &met, now);
        let live: Vec<&Pod> = pods
            .iter()
            .copied()
            .filter(|p| !p.metadata.is_deleting())
            .filter(|p| {
                self.workers
                    .get(&p.metadata.uid)
                    .is_none_or(|w| w.killed_at.is_none())
            })
            .collect();
        let (r, timers) = self.local_storage_eviction(store, &live, stats, now);
        if !r.is_empty() {
            requests.extend(r);
            return (requests, timers);
        }
        // byEvictionPriority: memory first, then the others as configured.
        let Some(first) = met
            .iter()
            .find(|t| t.signal == Signal::MemoryAvailable)
            .or(met.first())
        else {
            return (requests, vec![]);
        };
        let resource = first.signal.resource();
        requests.push(Request::Event {
            involved: node_ref,
            type_: EventType::Warning,
            reason: "EvictionThresholdMet".into(),
            message: format!("Attempting to reclaim {resource}"),
        });
        if first.signal.is_disk()
            && self.reclaim_node_level_resources(&pods, stats, &thresholds, now)
        {
            return (requests, vec![]);
        }
        // evictPod refuses a critical Pod, and the next in rank goes instead.
        let Some(victim) = rank(first.signal, &live, stats)
            .into_iter()
            .find(|p| !is_critical(p))
        else {
            return (requests, vec![]);
        };
        let info = threshold_met_info(resource, &met, &observations);
        let message = eviction_message(resource, victim, &stats(victim), info);
        let (r, timers) = self.evict(store, victim, message, true, now);
        requests.extend(r);
        (requests, timers)
    }

    /// The pressure conditions after this cycle's thresholds `met`: each set True when
    /// met, False once [`PRESSURE_TRANSITION_PERIOD`] has passed since it last was; a
    /// change is written with its Event.
    fn update_conditions(
        &mut self,
        store: &Store,
        node_ref: &ObjectReference,
        met: &[&Threshold],
        now: SimTime,
    ) -> Vec<Request> {
        let mut changed = Vec::new();
        for (i, c) in PRESSURE_CONDITIONS.into_iter().enumerate() {
            if met.iter().any(|t| t.signal.condition() == c) {
                self.pressure.met_at[i] = Some(now);
            }
            let on = self.pressure.met_at[i]
                .is_some_and(|t| now.saturating_sub(t) < PRESSURE_TRANSITION_PERIOD);
            if on != self.pressure.conditions[i] {
                self.pressure.conditions[i] = on;
                changed.push(pressure_condition(c, on, now));
            }
        }
        let Some(mut n) = (!changed.is_empty())
            .then(|| self.node_object(store).cloned())
            .flatten()
        else {
            return vec![];
        };
        for (c, _) in &changed {
            set_condition(&mut n.status.conditions, c.clone());
        }
        let mut requests = vec![Request::blind_update_status(n)];
        for (_, event) in changed {
            requests.push(Request::Event {
                involved: node_ref.clone(),
                type_: EventType::Normal,
                reason: event.into(),
                message: format!("Node {} status is now: {event}", self.node),
            });
        }
        requests
    }

    /// `reclaimNodeLevelResources` for the disk: the dead containers go (kubeplay does
    /// not count their layers), then every image that no container of `pods` uses and
    /// that the kubelet has known for [`IMAGE_MINIMUM_GC_AGE`]. True when that leaves
    /// no threshold met.
    fn reclaim_node_level_resources(
        &mut self,
        pods: &[&Pod],
        stats: &dyn Fn(&Pod) -> PodStats,
        thresholds: &[Threshold],
        now: SimTime,
    ) -> bool {
        for image in self.collectable_images(pods, now) {
            self.remove_image(&image);
        }
        self.observe(pods, stats).met(thresholds).is_empty()
    }

    /// `localStorageEviction`: every Pod whose local ephemeral storage outgrows its
    /// limits is evicted, whatever the node's pressure, and the cycle ends there. The
    /// Pod's limit — the sum of the limits its containers set
    /// (`podEphemeralStorageLimitEviction`) — is checked before each container's own
    /// (`containerEphemeralStorageLimitEviction`). Upstream also checks each emptyDir's
    /// `sizeLimit`; kubeplay does not count a volume's use apart from its Pod's.
    fn local_storage_eviction(
        &mut self,
        store: &Store,
        pods: &[&Pod],
        stats: &dyn Fn(&Pod) -> PodStats,
        now: SimTime,
    ) -> KubeletOutput {
        let mut out: KubeletOutput = (vec![], vec![]);
        // evictPod refuses a critical Pod here too.
        for pod in pods.iter().filter(|p| !is_critical(p)) {
            let Some(message) = local_storage_exceeded(pod, stats(pod).disk) else {
                continue;
            };
            let (r, t) = self.evict(store, pod, message, false, now);
            out.0.extend(r);
            out.1.extend(t);
        }
        out
    }

    /// `evictPod`: the Pod's final status (with a `DisruptionTarget` condition when
    /// `disruption`, as a pressure eviction writes it) and Event, then its containers
    /// killed with the hard eviction's grace period.
    fn evict(
        &mut self,
        store: &Store,
        pod: &Pod,
        message: String,
        disruption: bool,
        now: SimTime,
    ) -> KubeletOutput {
        let mut p = pod.clone();
        p.status.phase = PodPhase::Failed.into();
        p.status.reason = "Evicted".into();
        p.status.message = message.clone();
        if disruption {
            set_condition(
                &mut p.status.conditions,
                cond(
                    PodConditionType::DisruptionTarget,
                    ConditionStatus::True,
                    "TerminationByKubelet",
                    &message,
                    now,
                ),
            );
        }
        let mut requests = vec![
            Request::blind_update_status(p),
            self.event(&pod.metadata, EventType::Warning, "Evicted", message),
        ];
        let (r, t) = self.kill_pod_with_grace(
            store,
            &pod.metadata.uid,
            now,
            Some(HARD_EVICTION_GRACE_SECONDS),
        );
        requests.extend(r);
        (requests, t)
    }
}

/// `IsCriticalPod` by priority: `system-cluster-critical` (2000000000) and above.
fn is_critical(p: &Pod) -> bool {
    p.spec.priority.unwrap_or(0) >= 2_000_000_000
}

/// Why a Pod using `disk` bytes outgrows its ephemeral-storage limits, if it does: the
/// Pod's limit as `PodLimits` sums it (its containers and sidecars, or an init
/// container's with the sidecars started before it if larger), then each container's
/// own against its share (the Pod's use split evenly over what reports it).
fn local_storage_exceeded(pod: &Pod, disk: i64) -> Option<String> {
    if let Some(total) = pod_ephemeral_storage_limit(pod) {
        if disk > total {
            return Some(format!(
                "Pod ephemeral local storage usage exceeds the total limit of containers {}. ",
                crate::api::quantity::format_bytes(total)
            ));
        }
    }
    // `containerEphemeralStorageLimitEviction` looks at the containers' own limits
    // only, not the sidecars', and skips a limit of 0.
    let reporting = reporting_containers(pod);
    let n = reporting.len();
    reporting.iter().enumerate().find_map(|(i, c)| {
        let share = container_share(disk, n, i);
        let (q, l) = ephemeral_storage_limit(c).filter(|(_, l)| !c.is_sidecar() && *l != 0)?;
        (share > l).then(|| {
            format!(
                "Container {} exceeded its local ephemeral storage limit \"{q}\". ",
                c.name
            )
        })
    })
}

/// A container's `limits.ephemeral-storage`, as written and in bytes (one that does not
/// parse counts as no bound).
fn ephemeral_storage_limit(c: &Container) -> Option<(&String, i64)> {
    c.resources
        .limits
        .get("ephemeral-storage")
        .map(|q| (q, parse_bytes(q).unwrap_or(i64::MAX)))
}

/// `PodLimits` of ephemeral-storage (`AggregateContainerLimits`): the containers' sum
/// plus the sidecars', or an init container's with the sidecars started before it
/// when that is larger. None when no container sets one.
fn pod_ephemeral_storage_limit(pod: &Pod) -> Option<i64> {
    let of = |c: &Container| ephemeral_storage_limit(c).map(|(_, l)| l);
    let add = |a: Option<i64>, b: Option<i64>| match (a, b) {
        (Some(a), Some(b)) => Some(a.saturating_add(b)),
        (a, b) => a.or(b),
    };
    let mut total = pod.spec.containers.iter().map(of).fold(None, add);
    let (mut sidecars, mut init) = (None, None);
    for c in &pod.spec.init_containers {
        let this = if c.is_sidecar() {
            total = add(total, of(c));
            sidecars = add(sidecars, of(c));
            sidecars
        } else {
            add(of(c), sidecars)
        };
        init = init.max(this);
    }
    total.max(init)
}

/// The eviction manager's `Admit`: with no pressure, or for a critical Pod (priority
/// 2000000000 and up), admitted. Under MemoryPressure alone, a Pod that is not
/// BestEffort, or tolerates the `memory-pressure` taint, is admitted too. Anything else
/// is refused: reason `Evicted`, "The node had condition: [DiskPressure]. ".
pub fn admit(pod: &Pod, pressure: &Pressure) -> Option<super::admission::Rejection> {
    let conditions = pressure.reported();
    if conditions.is_empty() || is_critical(pod) {
        return None;
    }
    if conditions == [NodeConditionType::MemoryPressure] {
        let best_effort = pod.qos_class() == "BestEffort";
        let taint = Taint {
            key: TAINT_NODE_MEMORY_PRESSURE.into(),
            effect: TaintEffect::NoSchedule.into(),
            ..Default::default()
        };
        if !best_effort || pod.spec.tolerations.iter().any(|t| t.tolerates(&taint)) {
            return None;
        }
    }
    let names: Vec<&str> = conditions.iter().map(|c| c.as_str()).collect();
    Some(super::admission::Rejection {
        reason: "Evicted".into(),
        message: format!("The node had condition: [{}]. ", names.join(" ")),
    })
}

#[cfg(test)]
mod sidecar_tests {
    use super::*;

    fn container(name: &str, request: &str, limit: &str, sidecar: bool) -> Container {
        let mut c = Container {
            name: name.into(),
            restart_policy: sidecar.then(|| "Always".to_string()),
            ..Default::default()
        };
        for (map, q) in [
            (&mut c.resources.requests, request),
            (&mut c.resources.limits, limit),
        ] {
            if !q.is_empty() {
                map.insert("ephemeral-storage".into(), q.into());
            }
        }
        c
    }

    /// A Pod with a log-shipping sidecar, a one-off init container and its app.
    fn pod_with_sidecar() -> Pod {
        let mut p = Pod::default();
        p.metadata.name = "web".into();
        p.spec.init_containers = vec![
            container("shipper", "1Gi", "2Gi", true),
            container("migrate", "", "5Gi", false),
        ];
        p.spec.containers = vec![container("app", "1Gi", "1Gi", false)];
        p
    }

    #[test]
    fn a_running_sidecar_shares_its_pods_use_and_is_named_in_the_eviction_message() {
        let p = pod_with_sidecar();
        let stats = PodStats {
            disk: 6 << 30,
            ..Default::default()
        };
        assert_eq!(
            eviction_message("ephemeral-storage", &p, &stats, None),
            "The node was low on resource: ephemeral-storage. \
             Container shipper was using 3Gi, request is 1Gi, has larger consumption of ephemeral-storage. \
             Container app was using 3Gi, request is 1Gi, has larger consumption of ephemeral-storage. "
        );
    }

    #[test]
    fn the_pods_ephemeral_storage_limit_counts_sidecars_as_pod_limits_does() {
        let p = pod_with_sidecar();
        // Containers 1Gi + sidecar 2Gi = 3Gi, below migrate's 5Gi + the sidecar's 2Gi.
        assert_eq!(pod_ephemeral_storage_limit(&p), Some(7 << 30));
        assert_eq!(
            local_storage_exceeded(&p, 8 << 30).as_deref(),
            Some("Pod ephemeral local storage usage exceeds the total limit of containers 7Gi. ")
        );
        // Under it, the app's own 1Gi is checked against its half of the use; the
        // sidecar's limit is not a container limit here.
        assert_eq!(
            local_storage_exceeded(&p, 3 << 30).as_deref(),
            Some("Container app exceeded its local ephemeral storage limit \"1Gi\". ")
        );
        assert_eq!(local_storage_exceeded(&p, 2 << 30), None);
        let mut plain = pod_with_sidecar();
        plain.spec.init_containers.clear();
        plain.spec.containers[0].resources.limits.clear();
        assert_eq!(pod_ephemeral_storage_limit(&plain), None);
        // A container's limit of 0 is no container limit, but it is the Pod's.
        plain
            .spec
            .containers
            .push(container("zero", "", "0", false));
        assert_eq!(pod_ephemeral_storage_limit(&plain), Some(0));
        plain.spec.init_containers = vec![container("big", "", "1Gi", false)];
        assert_eq!(local_storage_exceeded(&plain, 1 << 20), None);
    }
}
