//! The protobuf field numbers of the API messages kubectl's typed clients send.
//!
//! client-go's generated clientsets send built-in objects as protobuf
//! (`application/vnd.kubernetes.protobuf`): `kubectl create deployment|job|…`, the
//! Eviction of `kubectl drain`, `kubectl auth can-i`'s SelfSubjectAccessReview. There is
//! no fallback to JSON on a 415, so the server reads them ([`super::protobuf`]).
//!
//! Each entry is (message, [(field number, JSON name, type, repeated)]), from the
//! upstream `generated.proto` files of release 1.33 (`staging/src/k8s.io/api/<group>/
//! <version>/generated.proto`, `staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/
//! generated.proto`, `pkg/util/intstr`, `pkg/api/resource`, `pkg/runtime`), checked
//! against the `protobuf:"…"` and `json:"…"` tags of the Go types. Types:
//! `string`, `int` (a varint), `bool`, `bytes` (base64 in JSON), `map`
//! (map<string,string>), `mapbytes` (map<string,bytes>), `quantities` (map<string,
//! Quantity>), `intorstr`, `quantity`, `time`, `duration`, or `msg:Name`. A JSON name
//! `""` is a Go struct embedded inline (`Probe`'s handler, `Volume`'s source): its
//! fields belong to the parent in JSON. A `msg:` not listed here is skipped. Names
//! shared by two packages carry the package (`autoscalingv2.MetricSpec`).
//!
//! Wire notes: a non-pointer Go field is written even when empty; `Time` is
//! {1 seconds, 2 nanos}; `IntOrString` {1 type (0 int, 1 string), 2 intVal, 3 strVal};
//! `Quantity` {1 string}; maps are repeated entries {1 key, 2 value}. The serializer
//! frames an object as the four bytes `k8s\0` then a `runtime.Unknown` {1 typeMeta
//! {1 apiVersion, 2 kind}, 2 raw (the object's message), 3 contentEncoding,
//! 4 contentType} (`staging/src/k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go`).

/// One field: (number, JSON name, type, repeated).
pub type Field = (u32, &'static str, &'static str, bool);

/// The messages kubeplay reads, by name.
#[rustfmt::skip]
pub const MESSAGES: &[(&str, &[Field])] = &[
    // kubernetes/apimachinery pkg/apis/meta/v1/generated.proto:710 (message ObjectMeta)
    ("ObjectMeta", &[
        (1, "name", "string", false),
        (2, "generateName", "string", false),
        (3, "namespace", "string", false),
        (4, "selfLink", "string", false),
        (5, "uid", "string", false),
        (6, "resourceVersion", "string", false),
        (7, "generation", "int", false),
        (8, "creationTimestamp", "time", false),
        (9, "deletionTimestamp", "time", false),
        (10, "deletionGracePeriodSeconds", "int", false),
        (11, "labels", "map", false),
        (12, "annotations", "map", false),
        (13, "ownerReferences", "msg:OwnerReference", true),
        (14, "finalizers", "string", true),
        (17, "managedFields", "msg:ManagedFieldsEntry", true),
    ]),
    // kubernetes/apimachinery pkg/apis/meta/v1/generated.proto:457 (message LabelSelector)
    ("LabelSelector", &[(1, "matchLabels", "map", false), (2, "matchExpressions", "msg:LabelSelectorRequirement", true)]),
    // kubernetes/apimachinery pkg/apis/meta/v1/generated.proto:472 (message LabelSelectorRequirement)
    ("LabelSelectorRequirement", &[(1, "key", "string", false), (2, "operator", "string", false), (3, "values", "string", true)]),
    // kubernetes/apimachinery pkg/apis/meta/v1/generated.proto:877 (message OwnerReference)
    ("OwnerReference", &[
        (1, "kind", "string", false),
        (3, "name", "string", false),
        (4, "uid", "string", false),
        (5, "apiVersion", "string", false),
        (6, "controller", "bool", false),
        (7, "blockOwnerDeletion", "bool", false),
    ]),
    // kubernetes/apimachinery pkg/apis/meta/v1/generated.proto:650 (message ManagedFieldsEntry)
    ("ManagedFieldsEntry", &[
        (1, "manager", "string", false),
        (2, "operation", "string", false),
        (3, "apiVersion", "string", false),
        (4, "time", "time", false),
        (6, "fieldsType", "string", false),
        (7, "fieldsV1", "msg:FieldsV1", false),
        (8, "subresource", "string", false),
    ]),
    // kubernetes/apimachinery pkg/apis/meta/v1/generated.proto:373 (message FieldsV1)
    ("FieldsV1", &[(1, "Raw", "bytes", false)]),
    // kubernetes/apimachinery pkg/apis/meta/v1/generated.proto:278 (message DeleteOptions)
    ("DeleteOptions", &[
        (1, "gracePeriodSeconds", "int", false),
        (2, "preconditions", "msg:metav1.Preconditions", false),
        (3, "orphanDependents", "bool", false),
        (4, "propagationPolicy", "string", false),
        (5, "dryRun", "string", true),
        (6, "ignoreStoreReadErrorWithClusterBreakingPotential", "bool", false),
    ]),
    // kubernetes/apimachinery pkg/apis/meta/v1/generated.proto:984 (message Preconditions)
    ("metav1.Preconditions", &[(1, "uid", "string", false), (2, "resourceVersion", "string", false)]),
    // kubernetes/apimachinery pkg/apis/meta/v1/generated.proto:1133 (message Time)
    ("Time", &[(1, "seconds", "int", false), (2, "nanos", "int", false)]),
    // kubernetes/apimachinery pkg/apis/meta/v1/generated.proto:695 (message MicroTime)
    ("MicroTime", &[(1, "seconds", "int", false), (2, "nanos", "int", false)]),
    // kubernetes/apimachinery pkg/apis/meta/v1/generated.proto:338 (message Duration)
    ("Duration", &[(1, "duration", "int", false)]),
    // kubernetes/apimachinery pkg/apis/meta/v1/generated.proto:1167 (message TypeMeta)
    ("metav1.TypeMeta", &[(1, "kind", "string", false), (2, "apiVersion", "string", false)]),
    // kubernetes/apimachinery pkg/util/intstr/generated.proto:36 (message IntOrString)
    ("IntOrString", &[(1, "type", "int", false), (2, "intVal", "int", false), (3, "strVal", "string", false)]),
    // kubernetes/apimachinery pkg/api/resource/generated.proto:96 (message Quantity)
    ("Quantity", &[(1, "string", "string", false)]),
    // kubernetes/apimachinery pkg/runtime/generated.proto:118 (message Unknown)
    //   These names are the proto names. The Go tags are typeMeta `json:",inline"`, raw `json:"-"`, and no json tag
    //   on the other two. Unknown is protobuf-only: its JSON form is raw itself. See the header.
    ("runtime.Unknown", &[(1, "typeMeta", "msg:runtime.TypeMeta", false), (2, "raw", "bytes", false), (3, "contentEncoding", "string", false), (4, "contentType", "string", false)]),
    // kubernetes/apimachinery pkg/runtime/generated.proto:100 (message TypeMeta)
    ("runtime.TypeMeta", &[(1, "apiVersion", "string", false), (2, "kind", "string", false)]),
    // kubernetes/api apps/v1/generated.proto:224 (message Deployment)
    ("Deployment", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:DeploymentSpec", false), (3, "status", "msg:DeploymentStatus", false)]),
    // kubernetes/api apps/v1/generated.proto:271 (message DeploymentSpec)
    ("DeploymentSpec", &[
        (1, "replicas", "int", false),
        (2, "selector", "msg:LabelSelector", false),
        (3, "template", "msg:PodTemplateSpec", false),
        (4, "strategy", "msg:DeploymentStrategy", false),
        (5, "minReadySeconds", "int", false),
        (6, "revisionHistoryLimit", "int", false),
        (7, "paused", "bool", false),
        (9, "progressDeadlineSeconds", "int", false),
    ]),
    // kubernetes/api apps/v1/generated.proto:365 (message DeploymentStrategy)
    ("DeploymentStrategy", &[(1, "type", "string", false), (2, "rollingUpdate", "msg:RollingUpdateDeployment", false)]),
    // kubernetes/api apps/v1/generated.proto:543 (message RollingUpdateDeployment)
    ("RollingUpdateDeployment", &[(1, "maxUnavailable", "intorstr", false), (2, "maxSurge", "intorstr", false)]),
    // kubernetes/api apps/v1/generated.proto:380 (message ReplicaSet)
    ("ReplicaSet", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:ReplicaSetSpec", false), (3, "status", "msg:ReplicaSetStatus", false)]),
    // kubernetes/api apps/v1/generated.proto:436 (message ReplicaSetSpec)
    ("ReplicaSetSpec", &[(1, "replicas", "int", false), (2, "selector", "msg:LabelSelector", false), (3, "template", "msg:PodTemplateSpec", false), (4, "minReadySeconds", "int", false)]),
    // kubernetes/api apps/v1/generated.proto:66 (message DaemonSet)
    ("DaemonSet", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:DaemonSetSpec", false), (3, "status", "msg:DaemonSetStatus", false)]),
    // kubernetes/api apps/v1/generated.proto:119 (message DaemonSetSpec)
    ("DaemonSetSpec", &[
        (1, "selector", "msg:LabelSelector", false),
        (2, "template", "msg:PodTemplateSpec", false),
        (3, "updateStrategy", "msg:DaemonSetUpdateStrategy", false),
        (4, "minReadySeconds", "int", false),
        (6, "revisionHistoryLimit", "int", false),
    ]),
    // kubernetes/api apps/v1/generated.proto:209 (message DaemonSetUpdateStrategy)
    ("DaemonSetUpdateStrategy", &[(1, "type", "string", false), (2, "rollingUpdate", "msg:RollingUpdateDaemonSet", false)]),
    // kubernetes/api apps/v1/generated.proto:502 (message RollingUpdateDaemonSet)
    ("RollingUpdateDaemonSet", &[(1, "maxUnavailable", "intorstr", false), (2, "maxSurge", "intorstr", false)]),
    // kubernetes/api apps/v1/generated.proto:599 (message StatefulSet)
    ("StatefulSet", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:StatefulSetSpec", false), (3, "status", "msg:StatefulSetStatus", false)]),
    // kubernetes/api apps/v1/generated.proto:680 (message StatefulSetSpec)
    ("StatefulSetSpec", &[
        (1, "replicas", "int", false),
        (2, "selector", "msg:LabelSelector", false),
        (3, "template", "msg:PodTemplateSpec", false),
        (4, "volumeClaimTemplates", "msg:PersistentVolumeClaim", true),
        (5, "serviceName", "string", false),
        (6, "podManagementPolicy", "string", false),
        (7, "updateStrategy", "msg:StatefulSetUpdateStrategy", false),
        (8, "revisionHistoryLimit", "int", false),
        (9, "minReadySeconds", "int", false),
        (10, "persistentVolumeClaimRetentionPolicy", "msg:StatefulSetPersistentVolumeClaimRetentionPolicy", false),
        (11, "ordinals", "msg:StatefulSetOrdinals", false),
    ]),
    // kubernetes/api core/v1/generated.proto:3559 (message Pod)
    ("Pod", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:PodSpec", false), (3, "status", "msg:PodStatus", false)]),
    // kubernetes/api core/v1/generated.proto:4158 (message PodSpec)
    ("PodSpec", &[
        (1, "volumes", "msg:Volume", true),
        (2, "containers", "msg:Container", true),
        (3, "restartPolicy", "string", false),
        (4, "terminationGracePeriodSeconds", "int", false),
        (5, "activeDeadlineSeconds", "int", false),
        (6, "dnsPolicy", "string", false),
        (7, "nodeSelector", "map", false),
        (8, "serviceAccountName", "string", false),
        (9, "serviceAccount", "string", false),
        (10, "nodeName", "string", false),
        (11, "hostNetwork", "bool", false),
        (12, "hostPID", "bool", false),
        (13, "hostIPC", "bool", false),
        (14, "securityContext", "msg:PodSecurityContext", false),
        (15, "imagePullSecrets", "msg:LocalObjectReference", true),
        (16, "hostname", "string", false),
        (17, "subdomain", "string", false),
        (18, "affinity", "msg:Affinity", false),
        (19, "schedulerName", "string", false),
        (20, "initContainers", "msg:Container", true),
        (21, "automountServiceAccountToken", "bool", false),
        (22, "tolerations", "msg:Toleration", true),
        (23, "hostAliases", "msg:HostAlias", true),
        (24, "priorityClassName", "string", false),
        (25, "priority", "int", false),
        (26, "dnsConfig", "msg:PodDNSConfig", false),
        (27, "shareProcessNamespace", "bool", false),
        (28, "readinessGates", "msg:PodReadinessGate", true),
        (29, "runtimeClassName", "string", false),
        (30, "enableServiceLinks", "bool", false),
        (31, "preemptionPolicy", "string", false),
        (32, "overhead", "quantities", false),
        (33, "topologySpreadConstraints", "msg:TopologySpreadConstraint", true),
        (34, "ephemeralContainers", "msg:EphemeralContainer", true),
        (35, "setHostnameAsFQDN", "bool", false),
        (36, "os", "msg:PodOS", false),
        (37, "hostUsers", "bool", false),
        (38, "schedulingGates", "msg:PodSchedulingGate", true),
        (39, "resourceClaims", "msg:PodResourceClaim", true),
        (40, "resources", "msg:ResourceRequirements", false),
    ]),
    // kubernetes/api core/v1/generated.proto:4720 (message PodTemplateSpec)
    ("PodTemplateSpec", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:PodSpec", false)]),
    // kubernetes/api core/v1/generated.proto:680 (message Container)
    ("Container", &[
        (1, "name", "string", false),
        (2, "image", "string", false),
        (3, "command", "string", true),
        (4, "args", "string", true),
        (5, "workingDir", "string", false),
        (6, "ports", "msg:ContainerPort", true),
        (7, "env", "msg:EnvVar", true),
        (8, "resources", "msg:ResourceRequirements", false),
        (9, "volumeMounts", "msg:VolumeMount", true),
        (10, "livenessProbe", "msg:Probe", false),
        (11, "readinessProbe", "msg:Probe", false),
        (12, "lifecycle", "msg:Lifecycle", false),
        (13, "terminationMessagePath", "string", false),
        (14, "imagePullPolicy", "string", false),
        (15, "securityContext", "msg:SecurityContext", false),
        (16, "stdin", "bool", false),
        (17, "stdinOnce", "bool", false),
        (18, "tty", "bool", false),
        (19, "envFrom", "msg:EnvFromSource", true),
        (20, "terminationMessagePolicy", "string", false),
        (21, "volumeDevices", "msg:VolumeDevice", true),
        (22, "startupProbe", "msg:Probe", false),
        (23, "resizePolicy", "msg:ContainerResizePolicy", true),
        (24, "restartPolicy", "string", false),
    ]),
    // kubernetes/api core/v1/generated.proto:905 (message ContainerPort)
    ("ContainerPort", &[
        (1, "name", "string", false),
        (2, "hostPort", "int", false),
        (3, "containerPort", "int", false),
        (4, "protocol", "string", false),
        (5, "hostIP", "string", false),
    ]),
    // kubernetes/api core/v1/generated.proto:1361 (message EnvVar)
    ("EnvVar", &[(1, "name", "string", false), (2, "value", "string", false), (3, "valueFrom", "msg:EnvVarSource", false)]),
    // kubernetes/api core/v1/generated.proto:1383 (message EnvVarSource)
    ("EnvVarSource", &[(1, "fieldRef", "msg:ObjectFieldSelector", false), (2, "resourceFieldRef", "msg:ResourceFieldSelector", false), (3, "configMapKeyRef", "msg:ConfigMapKeySelector", false), (4, "secretKeyRef", "msg:SecretKeySelector", false)]),
    // kubernetes/api core/v1/generated.proto:5285 (message ResourceRequirements)
    ("ResourceRequirements", &[(1, "limits", "quantities", false), (2, "requests", "quantities", false), (3, "claims", "msg:ResourceClaim", true)]),
    // kubernetes/api core/v1/generated.proto:4810 (message Probe)
    //   field 1 handler: Go embedded struct, json:",inline" -> its fields appear directly in the parent JSON object (json name "")
    ("Probe", &[
        (1, "", "msg:ProbeHandler", false),
        (2, "initialDelaySeconds", "int", false),
        (3, "timeoutSeconds", "int", false),
        (4, "periodSeconds", "int", false),
        (5, "successThreshold", "int", false),
        (6, "failureThreshold", "int", false),
        (7, "terminationGracePeriodSeconds", "int", false),
    ]),
    // kubernetes/api core/v1/generated.proto:4856 (message ProbeHandler)
    ("ProbeHandler", &[(1, "exec", "msg:ExecAction", false), (2, "httpGet", "msg:HTTPGetAction", false), (3, "tcpSocket", "msg:TCPSocketAction", false), (4, "grpc", "msg:GRPCAction", false)]),
    // kubernetes/api core/v1/generated.proto:1967 (message HTTPGetAction)
    ("HTTPGetAction", &[
        (1, "path", "string", false),
        (2, "port", "intorstr", false),
        (3, "host", "string", false),
        (4, "scheme", "string", false),
        (5, "httpHeaders", "msg:HTTPHeader", true),
    ]),
    // kubernetes/api core/v1/generated.proto:6277 (message TCPSocketAction)
    ("TCPSocketAction", &[(1, "port", "intorstr", false), (2, "host", "string", false)]),
    // kubernetes/api core/v1/generated.proto:1736 (message ExecAction)
    ("ExecAction", &[(1, "command", "string", true)]),
    // kubernetes/api core/v1/generated.proto:6545 (message Volume)
    //   field 2 volumeSource: Go embedded struct, json:",inline" -> its fields appear directly in the parent JSON object (json name "")
    ("Volume", &[(1, "name", "string", false), (2, "", "msg:VolumeSource", false)]),
    // kubernetes/api core/v1/generated.proto:6704 (message VolumeSource)
    ("VolumeSource", &[
        (1, "hostPath", "msg:HostPathVolumeSource", false),
        (2, "emptyDir", "msg:EmptyDirVolumeSource", false),
        (3, "gcePersistentDisk", "msg:GCEPersistentDiskVolumeSource", false),
        (4, "awsElasticBlockStore", "msg:AWSElasticBlockStoreVolumeSource", false),
        (5, "gitRepo", "msg:GitRepoVolumeSource", false),
        (6, "secret", "msg:SecretVolumeSource", false),
        (7, "nfs", "msg:NFSVolumeSource", false),
        (8, "iscsi", "msg:ISCSIVolumeSource", false),
        (9, "glusterfs", "msg:GlusterfsVolumeSource", false),
        (10, "persistentVolumeClaim", "msg:PersistentVolumeClaimVolumeSource", false),
        (11, "rbd", "msg:RBDVolumeSource", false),
        (12, "flexVolume", "msg:FlexVolumeSource", false),
        (13, "cinder", "msg:CinderVolumeSource", false),
        (14, "cephfs", "msg:CephFSVolumeSource", false),
        (15, "flocker", "msg:FlockerVolumeSource", false),
        (16, "downwardAPI", "msg:DownwardAPIVolumeSource", false),
        (17, "fc", "msg:FCVolumeSource", false),
        (18, "azureFile", "msg:AzureFileVolumeSource", false),
        (19, "configMap", "msg:ConfigMapVolumeSource", false),
        (20, "vsphereVolume", "msg:VsphereVirtualDiskVolumeSource", false),
        (21, "quobyte", "msg:QuobyteVolumeSource", false),
        (22, "azureDisk", "msg:AzureDiskVolumeSource", false),
        (23, "photonPersistentDisk", "msg:PhotonPersistentDiskVolumeSource", false),
        (24, "portworxVolume", "msg:PortworxVolumeSource", false),
        (25, "scaleIO", "msg:ScaleIOVolumeSource", false),
        (26, "projected", "msg:ProjectedVolumeSource", false),
        (27, "storageos", "msg:StorageOSVolumeSource", false),
        (28, "csi", "msg:CSIVolumeSource", false),
        (29, "ephemeral", "msg:EphemeralVolumeSource", false),
        (30, "image", "msg:ImageVolumeSource", false),
    ]),
    // kubernetes/api core/v1/generated.proto:1183 (message EmptyDirVolumeSource)
    ("EmptyDirVolumeSource", &[(1, "medium", "string", false), (2, "sizeLimit", "quantity", false)]),
    // kubernetes/api core/v1/generated.proto:650 (message ConfigMapVolumeSource)
    //   field 1 localObjectReference: Go embedded struct, json:",inline" -> its fields appear directly in the parent JSON object (json name "")
    ("ConfigMapVolumeSource", &[(1, "", "msg:LocalObjectReference", false), (2, "items", "msg:KeyToPath", true), (3, "defaultMode", "int", false), (4, "optional", "bool", false)]),
    // kubernetes/api core/v1/generated.proto:5614 (message SecretVolumeSource)
    ("SecretVolumeSource", &[(1, "secretName", "string", false), (2, "items", "msg:KeyToPath", true), (3, "defaultMode", "int", false), (4, "optional", "bool", false)]),
    // kubernetes/api core/v1/generated.proto:3304 (message PersistentVolumeClaimVolumeSource)
    ("PersistentVolumeClaimVolumeSource", &[(1, "claimName", "string", false), (2, "readOnly", "bool", false)]),
    // kubernetes/api core/v1/generated.proto:6567 (message VolumeMount)
    ("VolumeMount", &[
        (1, "name", "string", false),
        (2, "readOnly", "bool", false),
        (3, "mountPath", "string", false),
        (4, "subPath", "string", false),
        (5, "mountPropagation", "string", false),
        (6, "subPathExpr", "string", false),
        (7, "recursiveReadOnly", "string", false),
    ]),
    // kubernetes/api core/v1/generated.proto:6311 (message Toleration)
    ("Toleration", &[
        (1, "key", "string", false),
        (2, "operator", "string", false),
        (3, "value", "string", false),
        (4, "effect", "string", false),
        (5, "tolerationSeconds", "int", false),
    ]),
    // kubernetes/api core/v1/generated.proto:2447 (message Namespace)
    ("Namespace", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:NamespaceSpec", false), (3, "status", "msg:NamespaceStatus", false)]),
    // kubernetes/api core/v1/generated.proto:2498 (message NamespaceSpec)
    ("NamespaceSpec", &[(1, "finalizers", "string", true)]),
    // kubernetes/api core/v1/generated.proto:522 (message ConfigMap)
    ("ConfigMap", &[(1, "metadata", "msg:ObjectMeta", false), (2, "data", "map", false), (3, "binaryData", "mapbytes", false), (4, "immutable", "bool", false)]),
    // kubernetes/api core/v1/generated.proto:5497 (message Secret)
    ("Secret", &[
        (1, "metadata", "msg:ObjectMeta", false),
        (2, "data", "mapbytes", false),
        (3, "type", "string", false),
        (4, "stringData", "map", false),
        (5, "immutable", "bool", false),
    ]),
    // kubernetes/api core/v1/generated.proto:5751 (message Service)
    ("Service", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:ServiceSpec", false), (3, "status", "msg:ServiceStatus", false)]),
    // kubernetes/api core/v1/generated.proto:5930 (message ServiceSpec)
    ("ServiceSpec", &[
        (1, "ports", "msg:ServicePort", true),
        (2, "selector", "map", false),
        (3, "clusterIP", "string", false),
        (4, "type", "string", false),
        (5, "externalIPs", "string", true),
        (7, "sessionAffinity", "string", false),
        (8, "loadBalancerIP", "string", false),
        (9, "loadBalancerSourceRanges", "string", true),
        (10, "externalName", "string", false),
        (11, "externalTrafficPolicy", "string", false),
        (12, "healthCheckNodePort", "int", false),
        (13, "publishNotReadyAddresses", "bool", false),
        (14, "sessionAffinityConfig", "msg:SessionAffinityConfig", false),
        (17, "ipFamilyPolicy", "string", false),
        (18, "clusterIPs", "string", true),
        (19, "ipFamilies", "string", true),
        (20, "allocateLoadBalancerNodePorts", "bool", false),
        (21, "loadBalancerClass", "string", false),
        (22, "internalTrafficPolicy", "string", false),
        (23, "trafficDistribution", "string", false),
    ]),
    // kubernetes/api core/v1/generated.proto:5858 (message ServicePort)
    ("ServicePort", &[
        (1, "name", "string", false),
        (2, "protocol", "string", false),
        (3, "port", "int", false),
        (4, "targetPort", "intorstr", false),
        (5, "nodePort", "int", false),
        (6, "appProtocol", "string", false),
    ]),
    // kubernetes/api core/v1/generated.proto:5223 (message ResourceQuota)
    ("ResourceQuota", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:ResourceQuotaSpec", false), (3, "status", "msg:ResourceQuotaStatus", false)]),
    // kubernetes/api core/v1/generated.proto:5253 (message ResourceQuotaSpec)
    ("ResourceQuotaSpec", &[(1, "hard", "quantities", false), (2, "scopes", "string", true), (3, "scopeSelector", "msg:ScopeSelector", false)]),
    // kubernetes/api core/v1/generated.proto:5774 (message ServiceAccount)
    ("ServiceAccount", &[(1, "metadata", "msg:ObjectMeta", false), (2, "secrets", "msg:ObjectReference", true), (3, "imagePullSecrets", "msg:LocalObjectReference", true), (4, "automountServiceAccountToken", "bool", false)]),
    // kubernetes/api core/v1/generated.proto:2382 (message LocalObjectReference)
    ("LocalObjectReference", &[(1, "name", "string", false)]),
    // kubernetes/api core/v1/generated.proto:184 (message Binding)
    ("Binding", &[(1, "metadata", "msg:ObjectMeta", false), (2, "target", "msg:ObjectReference", false)]),
    // kubernetes/api core/v1/generated.proto:2962 (message ObjectReference)
    ("ObjectReference", &[
        (1, "kind", "string", false),
        (2, "namespace", "string", false),
        (3, "name", "string", false),
        (4, "uid", "string", false),
        (5, "apiVersion", "string", false),
        (6, "resourceVersion", "string", false),
        (7, "fieldPath", "string", false),
    ]),
    // kubernetes/api core/v1/generated.proto:2524 (message Node)
    ("Node", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:NodeSpec", false), (3, "status", "msg:NodeStatus", false)]),
    // kubernetes/api core/v1/generated.proto:2764 (message NodeSpec)
    ("NodeSpec", &[
        (1, "podCIDR", "string", false),
        (2, "externalID", "string", false),
        (3, "providerID", "string", false),
        (4, "unschedulable", "bool", false),
        (5, "taints", "msg:Taint", true),
        (6, "configSource", "msg:NodeConfigSource", false),
        (7, "podCIDRs", "string", true),
    ]),
    // kubernetes/api core/v1/generated.proto:6290 (message Taint)
    ("Taint", &[(1, "key", "string", false), (2, "value", "string", false), (3, "effect", "string", false), (4, "timeAdded", "time", false)]),
    // kubernetes/api batch/v1/generated.proto:128 (message Job)
    ("Job", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:JobSpec", false), (3, "status", "msg:JobStatus", false)]),
    // kubernetes/api batch/v1/generated.proto:182 (message JobSpec)
    ("JobSpec", &[
        (1, "parallelism", "int", false),
        (2, "completions", "int", false),
        (3, "activeDeadlineSeconds", "int", false),
        (4, "selector", "msg:LabelSelector", false),
        (5, "manualSelector", "bool", false),
        (6, "template", "msg:PodTemplateSpec", false),
        (7, "backoffLimit", "int", false),
        (8, "ttlSecondsAfterFinished", "int", false),
        (9, "completionMode", "string", false),
        (10, "suspend", "bool", false),
        (11, "podFailurePolicy", "msg:PodFailurePolicy", false),
        (12, "backoffLimitPerIndex", "int", false),
        (13, "maxFailedIndexes", "int", false),
        (14, "podReplacementPolicy", "string", false),
        (15, "managedBy", "string", false),
        (16, "successPolicy", "msg:SuccessPolicy", false),
    ]),
    // kubernetes/api batch/v1/generated.proto:33 (message CronJob)
    ("CronJob", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:CronJobSpec", false), (3, "status", "msg:CronJobStatus", false)]),
    // kubernetes/api batch/v1/generated.proto:62 (message CronJobSpec)
    ("CronJobSpec", &[
        (1, "schedule", "string", false),
        (2, "startingDeadlineSeconds", "int", false),
        (3, "concurrencyPolicy", "string", false),
        (4, "suspend", "bool", false),
        (5, "jobTemplate", "msg:JobTemplateSpec", false),
        (6, "successfulJobsHistoryLimit", "int", false),
        (7, "failedJobsHistoryLimit", "int", false),
        (8, "timeZone", "string", false),
    ]),
    // kubernetes/api batch/v1/generated.proto:466 (message JobTemplateSpec)
    ("JobTemplateSpec", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:JobSpec", false)]),
    // kubernetes/api authentication/v1/generated.proto (message TokenRequest,
    // TokenRequestSpec, BoundObjectReference)
    ("TokenRequest", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:TokenRequestSpec", false)]),
    ("TokenRequestSpec", &[(1, "audiences", "string", true), (3, "boundObjectRef", "msg:BoundObjectReference", false), (4, "expirationSeconds", "int", false)]),
    ("BoundObjectReference", &[(1, "kind", "string", false), (2, "apiVersion", "string", false), (3, "name", "string", false), (4, "uid", "string", false)]),
    // kubernetes/api policy/v1/generated.proto:35 (message Eviction)
    ("Eviction", &[(1, "metadata", "msg:ObjectMeta", false), (2, "deleteOptions", "msg:DeleteOptions", false)]),
    // kubernetes/api policy/v1/generated.proto:46 (message PodDisruptionBudget)
    ("PodDisruptionBudget", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:PodDisruptionBudgetSpec", false), (3, "status", "msg:PodDisruptionBudgetStatus", false)]),
    // kubernetes/api policy/v1/generated.proto:73 (message PodDisruptionBudgetSpec)
    ("PodDisruptionBudgetSpec", &[(1, "minAvailable", "intorstr", false), (2, "selector", "msg:LabelSelector", false), (3, "maxUnavailable", "intorstr", false), (4, "unhealthyPodEvictionPolicy", "string", false)]),
    // kubernetes/api scheduling/v1/generated.proto:34 (message PriorityClass)
    ("PriorityClass", &[
        (1, "metadata", "msg:ObjectMeta", false),
        (2, "value", "int", false),
        (3, "globalDefault", "bool", false),
        (4, "description", "string", false),
        (5, "preemptionPolicy", "string", false),
    ]),
    // kubernetes/api rbac/v1/generated.proto:128 (message Role)
    ("Role", &[(1, "metadata", "msg:ObjectMeta", false), (2, "rules", "msg:PolicyRule", true)]),
    // kubernetes/api rbac/v1/generated.proto:41 (message ClusterRole)
    ("ClusterRole", &[(1, "metadata", "msg:ObjectMeta", false), (2, "rules", "msg:PolicyRule", true), (3, "aggregationRule", "msg:AggregationRule", false)]),
    // kubernetes/api rbac/v1/generated.proto:32 (message AggregationRule)
    ("AggregationRule", &[(1, "clusterRoleSelectors", "msg:LabelSelector", true)]),
    // kubernetes/api rbac/v1/generated.proto:98 (message PolicyRule)
    ("PolicyRule", &[
        (1, "verbs", "string", true),
        (2, "apiGroups", "string", true),
        (3, "resources", "string", true),
        (4, "resourceNames", "string", true),
        (5, "nonResourceURLs", "string", true),
    ]),
    // kubernetes/api rbac/v1/generated.proto:142 (message RoleBinding)
    ("RoleBinding", &[(1, "metadata", "msg:ObjectMeta", false), (2, "subjects", "msg:Subject", true), (3, "roleRef", "msg:RoleRef", false)]),
    // kubernetes/api rbac/v1/generated.proto:60 (message ClusterRoleBinding)
    ("ClusterRoleBinding", &[(1, "metadata", "msg:ObjectMeta", false), (2, "subjects", "msg:Subject", true), (3, "roleRef", "msg:RoleRef", false)]),
    // kubernetes/api rbac/v1/generated.proto:194 (message Subject)
    ("Subject", &[(1, "kind", "string", false), (2, "apiGroup", "string", false), (3, "name", "string", false), (4, "namespace", "string", false)]),
    // kubernetes/api rbac/v1/generated.proto:180 (message RoleRef)
    ("RoleRef", &[(1, "apiGroup", "string", false), (2, "kind", "string", false), (3, "name", "string", false)]),
    // kubernetes/api authorization/v1/generated.proto:212 (message SelfSubjectAccessReview)
    ("SelfSubjectAccessReview", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:SelfSubjectAccessReviewSpec", false), (3, "status", "msg:SubjectAccessReviewStatus", false)]),
    // kubernetes/api authorization/v1/generated.proto:228 (message SelfSubjectAccessReviewSpec)
    ("SelfSubjectAccessReviewSpec", &[(1, "resourceAttributes", "msg:ResourceAttributes", false), (2, "nonResourceAttributes", "msg:NonResourceAttributes", false)]),
    // kubernetes/api authorization/v1/generated.proto:137 (message ResourceAttributes)
    ("ResourceAttributes", &[
        (1, "namespace", "string", false),
        (2, "verb", "string", false),
        (3, "group", "string", false),
        (4, "version", "string", false),
        (5, "resource", "string", false),
        (6, "subresource", "string", false),
        (7, "name", "string", false),
        (8, "fieldSelector", "msg:FieldSelectorAttributes", false),
        (9, "labelSelector", "msg:LabelSelectorAttributes", false),
    ]),
    // kubernetes/api authorization/v1/generated.proto:113 (message NonResourceAttributes)
    ("NonResourceAttributes", &[(1, "path", "string", false), (2, "verb", "string", false)]),
    // kubernetes/api authorization/v1/generated.proto:50 (message FieldSelectorAttributes)
    ("FieldSelectorAttributes", &[(1, "rawSelector", "string", false), (2, "requirements", "msg:FieldSelectorRequirement", true)]),
    // kubernetes/api authorization/v1/generated.proto:77 (message LabelSelectorAttributes)
    ("LabelSelectorAttributes", &[(1, "rawSelector", "string", false), (2, "requirements", "msg:LabelSelectorRequirement", true)]),
    // kubernetes/api autoscaling/v1/generated.proto:145 (message HorizontalPodAutoscaler)
    ("autoscalingv1.HorizontalPodAutoscaler", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:autoscalingv1.HorizontalPodAutoscalerSpec", false), (3, "status", "msg:autoscalingv1.HorizontalPodAutoscalerStatus", false)]),
    // kubernetes/api autoscaling/v1/generated.proto:194 (message HorizontalPodAutoscalerSpec)
    ("autoscalingv1.HorizontalPodAutoscalerSpec", &[(1, "scaleTargetRef", "msg:autoscalingv1.CrossVersionObjectReference", false), (2, "minReplicas", "int", false), (3, "maxReplicas", "int", false), (4, "targetCPUUtilizationPercentage", "int", false)]),
    // kubernetes/api autoscaling/v1/generated.proto:89 (message CrossVersionObjectReference)
    ("autoscalingv1.CrossVersionObjectReference", &[(1, "kind", "string", false), (2, "name", "string", false), (3, "apiVersion", "string", false)]),
    // kubernetes/api autoscaling/v2/generated.proto:170 (message HorizontalPodAutoscaler)
    ("autoscalingv2.HorizontalPodAutoscaler", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:autoscalingv2.HorizontalPodAutoscalerSpec", false), (3, "status", "msg:autoscalingv2.HorizontalPodAutoscalerStatus", false)]),
    // kubernetes/api autoscaling/v2/generated.proto:240 (message HorizontalPodAutoscalerSpec)
    ("autoscalingv2.HorizontalPodAutoscalerSpec", &[
        (1, "scaleTargetRef", "msg:autoscalingv2.CrossVersionObjectReference", false),
        (2, "minReplicas", "int", false),
        (3, "maxReplicas", "int", false),
        (4, "metrics", "msg:autoscalingv2.MetricSpec", true),
        (5, "behavior", "msg:HorizontalPodAutoscalerBehavior", false),
    ]),
    // kubernetes/api autoscaling/v2/generated.proto:325 (message MetricSpec)
    ("autoscalingv2.MetricSpec", &[
        (1, "type", "string", false),
        (2, "object", "msg:autoscalingv2.ObjectMetricSource", false),
        (3, "pods", "msg:autoscalingv2.PodsMetricSource", false),
        (4, "resource", "msg:autoscalingv2.ResourceMetricSource", false),
        (5, "external", "msg:autoscalingv2.ExternalMetricSource", false),
        (7, "containerResource", "msg:autoscalingv2.ContainerResourceMetricSource", false),
    ]),
    // kubernetes/api autoscaling/v2/generated.proto:503 (message ResourceMetricSource)
    ("autoscalingv2.ResourceMetricSource", &[(1, "name", "string", false), (2, "target", "msg:MetricTarget", false)]),
    // kubernetes/api autoscaling/v2/generated.proto:409 (message MetricTarget)
    ("MetricTarget", &[(1, "type", "string", false), (2, "value", "quantity", false), (3, "averageValue", "quantity", false), (4, "averageUtilization", "int", false)]),
    // kubernetes/api autoscaling/v2/generated.proto:68 (message CrossVersionObjectReference)
    ("autoscalingv2.CrossVersionObjectReference", &[(1, "kind", "string", false), (2, "name", "string", false), (3, "apiVersion", "string", false)]),
    // kubernetes/api authorization/v1/generated.proto (message SelfSubjectRulesReview)
    ("SelfSubjectRulesReview", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:SelfSubjectRulesReviewSpec", false)]),
    // kubernetes/api authorization/v1/generated.proto (message SelfSubjectRulesReviewSpec)
    ("SelfSubjectRulesReviewSpec", &[(1, "namespace", "string", false)]),
    // kubernetes/api networking/v1/generated.proto:133 (message Ingress)
    ("Ingress", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:IngressSpec", false), (3, "status", "msg:IngressStatus", false)]),
    // kubernetes/api networking/v1/generated.proto:354 (message IngressSpec)
    ("IngressSpec", &[
        (1, "defaultBackend", "msg:IngressBackend", false),
        (2, "tls", "msg:IngressTLS", true),
        (3, "rules", "msg:IngressRule", true),
        (4, "ingressClassName", "string", false),
    ]),
    // kubernetes/api networking/v1/generated.proto:151 (message IngressBackend)
    ("IngressBackend", &[(3, "resource", "msg:TypedLocalObjectReference", false), (4, "service", "msg:IngressServiceBackend", false)]),
    // kubernetes/api networking/v1/generated.proto:343 (message IngressServiceBackend)
    ("IngressServiceBackend", &[(1, "name", "string", false), (2, "port", "msg:ServiceBackendPort", false)]),
    // kubernetes/api networking/v1/generated.proto:602 (message ServiceBackendPort)
    ("ServiceBackendPort", &[(1, "name", "string", false), (2, "number", "int", false)]),
    // kubernetes/api networking/v1/generated.proto:399 (message IngressTLS)
    ("IngressTLS", &[(1, "hosts", "string", true), (2, "secretName", "string", false)]),
    // kubernetes/api networking/v1/generated.proto:298 (message IngressRule)
    ("IngressRule", &[(1, "host", "string", false), (2, "", "msg:IngressRuleValue", false)]),
    // kubernetes/api networking/v1/generated.proto:337 (message IngressRuleValue)
    ("IngressRuleValue", &[(1, "http", "msg:HTTPIngressRuleValue", false)]),
    // kubernetes/api networking/v1/generated.proto:69 (message HTTPIngressRuleValue)
    ("HTTPIngressRuleValue", &[(1, "paths", "msg:HTTPIngressPath", true)]),
    // kubernetes/api networking/v1/generated.proto:35 (message HTTPIngressPath)
    ("HTTPIngressPath", &[(1, "path", "string", false), (2, "backend", "msg:IngressBackend", false), (3, "pathType", "string", false)]),
    // kubernetes/api networking/v1/generated.proto:392 (message IngressStatus)
    ("IngressStatus", &[(1, "loadBalancer", "msg:IngressLoadBalancerStatus", false)]),
    // kubernetes/api networking/v1/generated.proto:264 (message IngressLoadBalancerStatus)
    ("IngressLoadBalancerStatus", &[(1, "ingress", "msg:IngressLoadBalancerIngress", true)]),
    // kubernetes/api networking/v1/generated.proto:248 (message IngressLoadBalancerIngress)
    ("IngressLoadBalancerIngress", &[(1, "ip", "string", false), (2, "hostname", "string", false), (4, "ports", "msg:IngressPortStatus", true)]),
    // kubernetes/api networking/v1/generated.proto:272 (message IngressPortStatus)
    ("IngressPortStatus", &[(1, "port", "int", false), (2, "protocol", "string", false), (3, "error", "string", false)]),
    // kubernetes/api networking/v1/generated.proto:170 (message IngressClass)
    ("IngressClass", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:IngressClassSpec", false)]),
    // kubernetes/api networking/v1/generated.proto:220 (message IngressClassSpec)
    ("IngressClassSpec", &[(1, "controller", "string", false), (2, "parameters", "msg:IngressClassParametersReference", false)]),
    // kubernetes/api networking/v1/generated.proto:194 (message IngressClassParametersReference)
    ("IngressClassParametersReference", &[
        (1, "apiGroup", "string", false),
        (2, "kind", "string", false),
        (3, "name", "string", false),
        (4, "scope", "string", false),
        (5, "namespace", "string", false),
    ]),
    // kubernetes/api networking/v1/generated.proto:418 (message NetworkPolicy)
    ("NetworkPolicy", &[(1, "metadata", "msg:ObjectMeta", false), (2, "spec", "msg:NetworkPolicySpec", false)]),
    // kubernetes/api networking/v1/generated.proto:535 (message NetworkPolicySpec)
    ("NetworkPolicySpec", &[
        (1, "podSelector", "msg:LabelSelector", false),
        (2, "ingress", "msg:NetworkPolicyIngressRule", true),
        (3, "egress", "msg:NetworkPolicyEgressRule", true),
        (4, "policyTypes", "string", true),
    ]),
    // kubernetes/api networking/v1/generated.proto:454 (message NetworkPolicyIngressRule)
    ("NetworkPolicyIngressRule", &[(1, "ports", "msg:NetworkPolicyPort", true), (2, "from", "msg:NetworkPolicyPeer", true)]),
    // kubernetes/api networking/v1/generated.proto:432 (message NetworkPolicyEgressRule)
    ("NetworkPolicyEgressRule", &[(1, "ports", "msg:NetworkPolicyPort", true), (2, "to", "msg:NetworkPolicyPeer", true)]),
    // kubernetes/api networking/v1/generated.proto:487 (message NetworkPolicyPeer)
    ("NetworkPolicyPeer", &[(1, "podSelector", "msg:LabelSelector", false), (2, "namespaceSelector", "msg:LabelSelector", false), (3, "ipBlock", "msg:IPBlock", false)]),
    // kubernetes/api networking/v1/generated.proto:513 (message NetworkPolicyPort)
    ("NetworkPolicyPort", &[(1, "protocol", "string", false), (2, "port", "intorstr", false), (3, "endPort", "int", false)]),
    // kubernetes/api networking/v1/generated.proto:116 (message IPBlock)
    ("IPBlock", &[(1, "cidr", "string", false), (2, "except", "string", true)]),
    // kubernetes/api core/v1/generated.proto:6508 (message TypedLocalObjectReference)
    ("TypedLocalObjectReference", &[(1, "apiGroup", "string", false), (2, "kind", "string", false), (3, "name", "string", false)]),
];
