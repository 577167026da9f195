//! Fields of the API the simulation does not model are kept, not lost: each struct that
//! users write carries the rest of its upstream fields as opaque JSON (`extra`), so a
//! manifest round-trips through `-o yaml` as the API server would store it.
//!
//! Only names the upstream definition has are kept (the lists below are its OpenAPI
//! properties, v1.33): anything else is a typo that the API server drops and kubectl
//! warns about, and so do we.

use serde::{Deserialize, Deserializer};
use std::collections::BTreeMap;

/// Unmodelled upstream fields of one object, by JSON name (sorted: output never
/// depends on hashing).
pub type Extra = BTreeMap<String, serde_json::Value>;

macro_rules! keep {
    ($(#[$doc:meta] $name:ident => [$($k:literal),* $(,)?];)*) => {
        $(
            #[$doc]
            /// Deserializes the remaining keys, keeping those the definition has.
            pub fn $name<'de, D: Deserializer<'de>>(d: D) -> Result<Extra, D::Error> {
                const KNOWN: &[&str] = &[$($k),*];
                let mut all = Extra::deserialize(d)?;
                // `retain`, not a filtered `collect()`: a collect into a B-tree map
                // sorts, and compiled its own sort for each of these functions.
                all.retain(|k, _| KNOWN.contains(&k.as_str()));
                Ok(all)
            }
        )*
    };
}

keep! {
    /// `v1.Container`.
    container => ["args", "command", "env", "envFrom", "image", "imagePullPolicy", "lifecycle", "livenessProbe", "name", "ports", "readinessProbe", "resizePolicy", "resources", "restartPolicy", "securityContext", "startupProbe", "stdin", "stdinOnce", "terminationMessagePath", "terminationMessagePolicy", "tty", "volumeDevices", "volumeMounts", "workingDir"];
    /// `v1.PodSpec`.
    pod_spec => ["activeDeadlineSeconds", "affinity", "automountServiceAccountToken", "containers", "dnsConfig", "dnsPolicy", "enableServiceLinks", "ephemeralContainers", "hostAliases", "hostIPC", "hostNetwork", "hostPID", "hostUsers", "hostname", "imagePullSecrets", "initContainers", "nodeName", "nodeSelector", "os", "overhead", "preemptionPolicy", "priority", "priorityClassName", "readinessGates", "resourceClaims", "resources", "restartPolicy", "runtimeClassName", "schedulerName", "schedulingGates", "securityContext", "serviceAccount", "serviceAccountName", "setHostnameAsFQDN", "shareProcessNamespace", "subdomain", "terminationGracePeriodSeconds", "tolerations", "topologySpreadConstraints", "volumes"];
    /// `v1.ContainerPort`.
    container_port => ["containerPort", "hostIP", "hostPort", "name", "protocol"];
    /// `v1.Probe`.
    probe => ["exec", "failureThreshold", "grpc", "httpGet", "initialDelaySeconds", "periodSeconds", "successThreshold", "tcpSocket", "terminationGracePeriodSeconds", "timeoutSeconds"];
    /// `v1.HTTPGetAction`.
    http_get => ["host", "httpHeaders", "path", "port", "scheme"];
    /// `v1.TCPSocketAction`.
    tcp_socket => ["host", "port"];
    /// `v1.ResourceRequirements`.
    resources => ["claims", "limits", "requests"];
    /// `v1.NodeSpec`.
    node_spec => ["configSource", "externalID", "podCIDR", "podCIDRs", "providerID", "taints", "unschedulable"];
    /// `v1.NodeSystemInfo`.
    node_system_info => ["swap"];
    /// `v1.NodeSelectorTerm`.
    node_selector_term => ["matchExpressions", "matchFields"];
    /// `v1.PodAffinityTerm`.
    pod_affinity_term => ["labelSelector", "matchLabelKeys", "mismatchLabelKeys", "namespaceSelector", "namespaces", "topologyKey"];
    /// `v1.TopologySpreadConstraint`.
    topology_spread => ["labelSelector", "matchLabelKeys", "maxSkew", "minDomains", "nodeAffinityPolicy", "nodeTaintsPolicy", "topologyKey", "whenUnsatisfiable"];
    /// `discovery/v1.EndpointHints`.
    endpoint_hints => ["forNodes", "forZones"];
    /// `v1.ServicePort`.
    service_port => ["appProtocol", "name", "nodePort", "port", "protocol", "targetPort"];
    /// `v1.ServiceSpec`.
    service_spec => ["allocateLoadBalancerNodePorts", "clusterIP", "clusterIPs", "externalIPs", "externalName", "externalTrafficPolicy", "healthCheckNodePort", "internalTrafficPolicy", "ipFamilies", "ipFamilyPolicy", "loadBalancerClass", "loadBalancerIP", "loadBalancerSourceRanges", "ports", "publishNotReadyAddresses", "selector", "sessionAffinity", "sessionAffinityConfig", "trafficDistribution", "type"];
    /// `v1.PodDisruptionBudgetSpec`.
    pdb_spec => ["maxUnavailable", "minAvailable", "selector", "unhealthyPodEvictionPolicy"];
    /// `v1.LeaseSpec`.
    lease_spec => ["acquireTime", "holderIdentity", "leaseDurationSeconds", "leaseTransitions", "preferredHolder", "renewTime", "strategy"];
    /// `v1.NodeStatus`.
    node_status => ["addresses", "allocatable", "capacity", "conditions", "config", "daemonEndpoints", "features", "images", "nodeInfo", "phase", "runtimeHandlers"];
    /// `v1.Volume`'s sources (every property but `name`).
    volume => ["awsElasticBlockStore", "azureDisk", "azureFile", "cephfs", "cinder", "configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "fc", "flexVolume", "flocker", "gcePersistentDisk", "gitRepo", "glusterfs", "hostPath", "image", "iscsi", "nfs", "persistentVolumeClaim", "photonPersistentDisk", "portworxVolume", "projected", "quobyte", "rbd", "scaleIO", "secret", "storageos", "vsphereVolume"];
    /// `v1.VolumeMount`.
    volume_mount => ["mountPath", "mountPropagation", "name", "readOnly", "recursiveReadOnly", "subPath", "subPathExpr"];
}
