//! The closed sets of Kubernetes' vocabulary — Pod phases, condition types and statuses,
//! each workload's condition types and reasons, taint effects, Event types, well-known
//! taint keys — as upstream's typed constants (`v1.PodRunning`, `v1.ConditionTrue`,
//! `batchv1.JobComplete`, `appsv1.DeploymentProgressing`, `v1.TaintEffectNoExecute`,
//! `v1.EventTypeWarning`, `v1.TaintNodeUnreachable`…).
//!
//! The object model keeps these fields as strings, exactly as the API's JSON has them
//! (a manifest may say anything; validation decides). Code compares and assigns through
//! these enums instead of spelling the strings: `p.status.phase == PodPhase::Running`,
//! `p.status.phase = PodPhase::Failed.into()`. A misspelled value is then a compile
//! error, and every use of a value can be found.

macro_rules! closed_set {
    ($(#[$doc:meta])* $name:ident { $( $(#[$vdoc:meta])* $variant:ident = $text:literal ),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum $name {
            $( $(#[$vdoc])* $variant ),+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The API's spelling.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $text ),+
                }
            }

            /// The value the API spells `s`, if any.
            pub fn parse(s: &str) -> Option<$name> {
                match s {
                    $( $text => Some($name::$variant), )+
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                self.as_str()
            }
        }

        impl From<$name> for String {
            fn from(v: $name) -> String {
                v.as_str().to_string()
            }
        }

        impl PartialEq<$name> for String {
            fn eq(&self, v: &$name) -> bool {
                self == v.as_str()
            }
        }

        impl PartialEq<$name> for str {
            fn eq(&self, v: &$name) -> bool {
                self == v.as_str()
            }
        }

        impl PartialEq<$name> for &str {
            fn eq(&self, v: &$name) -> bool {
                *self == v.as_str()
            }
        }
    };
}

closed_set! {
    /// `v1.PodPhase`.
    PodPhase {
        /// Accepted, not all containers running yet.
        Pending = "Pending",
        /// Bound, every container created, at least one running.
        Running = "Running",
        /// Every container terminated with success, not to be restarted.
        Succeeded = "Succeeded",
        /// Every container terminated, at least one in failure.
        Failed = "Failed",
        /// The state could not be obtained.
        Unknown = "Unknown",
    }
}

closed_set! {
    /// `v1.ConditionStatus`.
    ConditionStatus {
        /// The condition holds.
        True = "True",
        /// It does not.
        False = "False",
        /// Nobody can tell (a node's kubelet stopped reporting).
        Unknown = "Unknown",
    }
}

closed_set! {
    /// `v1.PodConditionType`.
    PodConditionType {
        /// Bound to a node (`PodScheduled`).
        PodScheduled = "PodScheduled",
        /// The sandbox is up (`PodReadyToStartContainers`).
        PodReadyToStartContainers = "PodReadyToStartContainers",
        /// Every init container completed.
        Initialized = "Initialized",
        /// Every container is ready.
        ContainersReady = "ContainersReady",
        /// Ready to serve: counted by controllers and (later) endpoints.
        Ready = "Ready",
        /// About to be disrupted (preemption, taint eviction, PodGC).
        DisruptionTarget = "DisruptionTarget",
    }
}

closed_set! {
    /// `v1.NodeConditionType`.
    NodeConditionType {
        /// The kubelet is healthy and ready to accept Pods.
        Ready = "Ready",
        /// Memory is short.
        MemoryPressure = "MemoryPressure",
        /// Disk is short.
        DiskPressure = "DiskPressure",
        /// Process ids are short.
        PIDPressure = "PIDPressure",
        /// The node's network is not configured.
        NetworkUnavailable = "NetworkUnavailable",
    }
}

closed_set! {
    /// `batchv1.JobConditionType`.
    JobConditionType {
        /// `JobComplete`: the Job completed.
        Complete = "Complete",
        /// `JobFailed`: the Job failed.
        Failed = "Failed",
        /// `JobSuspended`: the Job is suspended (False once resumed).
        Suspended = "Suspended",
        /// `JobFailureTarget`: the Job will be Failed once none of its Pods terminates.
        FailureTarget = "FailureTarget",
        /// `JobSuccessCriteriaMet`: the Job will be Complete once none of its Pods
        /// terminates.
        SuccessCriteriaMet = "SuccessCriteriaMet",
    }
}

closed_set! {
    /// The reasons of a Job's conditions: `batchv1.JobReason*`, and the Job
    /// controller's own for `Suspended`.
    JobConditionReason {
        /// `JobReasonPodFailurePolicy`: a FailJob rule of the podFailurePolicy matched.
        PodFailurePolicy = "PodFailurePolicy",
        /// `JobReasonBackoffLimitExceeded`.
        BackoffLimitExceeded = "BackoffLimitExceeded",
        /// `JobReasonDeadlineExceeded`: activeDeadlineSeconds passed.
        DeadlineExceeded = "DeadlineExceeded",
        /// `JobReasonSuccessPolicy`: a rule of the successPolicy was met.
        SuccessPolicy = "SuccessPolicy",
        /// `JobReasonCompletionsReached`.
        CompletionsReached = "CompletionsReached",
        /// The Job was suspended.
        JobSuspended = "JobSuspended",
        /// The Job was resumed.
        JobResumed = "JobResumed",
    }
}

closed_set! {
    /// `appsv1.DeploymentConditionType`.
    DeploymentConditionType {
        /// `DeploymentAvailable`: at least the minimum of replicas is available.
        Available = "Available",
        /// `DeploymentProgressing`: the rollout progresses, completed, or timed out.
        Progressing = "Progressing",
        /// `DeploymentReplicaFailure`: a ReplicaSet of the Deployment fails to create or
        /// delete Pods.
        ReplicaFailure = "ReplicaFailure",
    }
}

closed_set! {
    /// The reasons of a Deployment's conditions (`deploymentutil`'s `…Reason`
    /// constants; a ReplicaFailure condition carries its ReplicaSet's reason).
    DeploymentConditionReason {
        /// `NewReplicaSetReason`.
        NewReplicaSetCreated = "NewReplicaSetCreated",
        /// `FoundNewRSReason`.
        FoundNewReplicaSet = "FoundNewReplicaSet",
        /// `NewRSAvailableReason`: the rollout completed.
        NewReplicaSetAvailable = "NewReplicaSetAvailable",
        /// `ReplicaSetUpdatedReason`: the rollout progresses.
        ReplicaSetUpdated = "ReplicaSetUpdated",
        /// `TimedOutReason`: no progress within progressDeadlineSeconds.
        ProgressDeadlineExceeded = "ProgressDeadlineExceeded",
        /// `PausedDeployReason`.
        DeploymentPaused = "DeploymentPaused",
        /// `ResumedDeployReason`.
        DeploymentResumed = "DeploymentResumed",
        /// `MinimumReplicasAvailable`.
        MinimumReplicasAvailable = "MinimumReplicasAvailable",
        /// `MinimumReplicasUnavailable`.
        MinimumReplicasUnavailable = "MinimumReplicasUnavailable",
    }
}

closed_set! {
    /// `appsv1.ReplicaSetConditionType`.
    ReplicaSetConditionType {
        /// `ReplicaSetReplicaFailure`: a Pod could not be created or deleted.
        ReplicaFailure = "ReplicaFailure",
    }
}

closed_set! {
    /// The reasons of a ReplicaSet's ReplicaFailure condition (`replica_set.go`).
    ReplicaSetConditionReason {
        /// Creating a Pod failed.
        FailedCreate = "FailedCreate",
        /// Deleting a Pod failed.
        FailedDelete = "FailedDelete",
    }
}

closed_set! {
    /// `autoscalingv2.HorizontalPodAutoscalerConditionType`.
    HpaConditionType {
        /// `ScalingActive`: the autoscaler can compute a replica count.
        ScalingActive = "ScalingActive",
        /// `AbleToScale`: the autoscaler can read and update the target's scale.
        AbleToScale = "AbleToScale",
        /// `ScalingLimited`: the desired count was held by the bounds or the rate.
        ScalingLimited = "ScalingLimited",
    }
}

closed_set! {
    /// The reasons of an autoscaler's conditions (`horizontal.go`; the metric ones are
    /// also its Events' reasons).
    HpaConditionReason {
        /// The target's scale was read.
        SucceededGetScale = "SucceededGetScale",
        /// The target's scale could not be read.
        FailedGetScale = "FailedGetScale",
        /// The target's scale was updated.
        SucceededRescale = "SucceededRescale",
        /// The target has zero replicas.
        ScalingDisabled = "ScalingDisabled",
        /// A metric gave a replica count.
        ValidMetricFound = "ValidMetricFound",
        /// A metric's source type is not served.
        InvalidMetricSourceType = "InvalidMetricSourceType",
        /// A resource metric could not be read.
        FailedGetResourceMetric = "FailedGetResourceMetric",
        /// A scale-up held by the scale-up stabilization window.
        ScaleUpStabilized = "ScaleUpStabilized",
        /// A scale-down held by the scale-down stabilization window.
        ScaleDownStabilized = "ScaleDownStabilized",
        /// The recommendation is the desired count.
        ReadyForNewScale = "ReadyForNewScale",
        /// The desired count is within the bounds and the rate.
        DesiredWithinRange = "DesiredWithinRange",
        /// A scale-up held by the rate.
        ScaleUpLimit = "ScaleUpLimit",
        /// A scale-down held by the rate.
        ScaleDownLimit = "ScaleDownLimit",
        /// Held at maxReplicas.
        TooManyReplicas = "TooManyReplicas",
        /// Held at minReplicas.
        TooFewReplicas = "TooFewReplicas",
    }
}

closed_set! {
    /// `policyv1.DisruptionAllowedCondition`, a PodDisruptionBudget's one condition type.
    PdbConditionType {
        /// Whether a Pod may be disrupted now.
        DisruptionAllowed = "DisruptionAllowed",
    }
}

closed_set! {
    /// The reasons of a PodDisruptionBudget's DisruptionAllowed condition
    /// (`policyv1.SufficientPodsReason`, `InsufficientPodsReason`).
    PdbConditionReason {
        /// Enough healthy Pods: disruptions are allowed.
        SufficientPods = "SufficientPods",
        /// Not enough: none is allowed.
        InsufficientPods = "InsufficientPods",
    }
}

closed_set! {
    /// `v1.TaintEffect`.
    TaintEffect {
        /// New Pods that do not tolerate it are not scheduled there.
        NoSchedule = "NoSchedule",
        /// The scheduler avoids the node when it can.
        PreferNoSchedule = "PreferNoSchedule",
        /// Running Pods that do not tolerate it are evicted.
        NoExecute = "NoExecute",
    }
}

closed_set! {
    /// `v1.EventTypeNormal` / `v1.EventTypeWarning`.
    EventType {
        /// Something expected happened.
        Normal = "Normal",
        /// Something may need attention.
        Warning = "Warning",
    }
}

/// `v1.TaintNodeNotReady`: the node's Ready condition is False.
pub const TAINT_NODE_NOT_READY: &str = "node.kubernetes.io/not-ready";
/// `v1.TaintNodeUnreachable`: the node's Ready condition is Unknown.
pub const TAINT_NODE_UNREACHABLE: &str = "node.kubernetes.io/unreachable";
/// `v1.TaintNodeUnschedulable`: the node is cordoned.
pub const TAINT_NODE_UNSCHEDULABLE: &str = "node.kubernetes.io/unschedulable";
/// `v1.TaintNodeMemoryPressure`.
pub const TAINT_NODE_MEMORY_PRESSURE: &str = "node.kubernetes.io/memory-pressure";
/// `v1.TaintNodeDiskPressure`.
pub const TAINT_NODE_DISK_PRESSURE: &str = "node.kubernetes.io/disk-pressure";
/// `v1.TaintNodePIDPressure`.
pub const TAINT_NODE_PID_PRESSURE: &str = "node.kubernetes.io/pid-pressure";
/// `v1.TaintNodeNetworkUnavailable`.
pub const TAINT_NODE_NETWORK_UNAVAILABLE: &str = "node.kubernetes.io/network-unavailable";
/// `v1.DefaultSchedulerName`: the profile a Pod without `schedulerName` is scheduled
/// by (kube-scheduler also writes under this name).
pub const DEFAULT_SCHEDULER_NAME: &str = "default-scheduler";
/// `topology.kubernetes.io/zone`.
pub const LABEL_TOPOLOGY_ZONE: &str = "topology.kubernetes.io/zone";
/// `kubernetes.io/hostname`.
pub const LABEL_HOSTNAME: &str = "kubernetes.io/hostname";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_value_spells_and_parses_as_the_api_does_and_compares_with_strings() {
        for p in PodPhase::ALL {
            assert_eq!(PodPhase::parse(p.as_str()), Some(*p));
        }
        assert_eq!(PodPhase::parse("running"), None);
        let phase: String = PodPhase::Failed.into();
        assert_eq!(phase, "Failed");
        assert!(phase == PodPhase::Failed && phase != PodPhase::Succeeded);
        assert!("NoExecute" == TaintEffect::NoExecute);
        assert_eq!(ConditionStatus::Unknown.to_string(), "Unknown");
        assert_eq!(EventType::Warning.as_ref(), "Warning");
    }
}
