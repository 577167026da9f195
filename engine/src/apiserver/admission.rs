//! Admission on create: defaulting, `DefaultTolerationSeconds`, `Priority` and the
//! ServiceAccount plugin's default account name (its lookup and token volume are in
//! `service_account`).
//!
//! Upstream: `plugin/pkg/admission/serviceaccount/admission.go`,
//! `plugin/pkg/admission/defaulttolerationseconds/admission.go`,
//! `plugin/pkg/admission/priority/admission.go` and the defaulting in
//! `pkg/apis/core/v1/defaults.go`.

use crate::api::*;

/// Seconds a Pod tolerates `not-ready` / `unreachable` NoExecute taints by default.
pub const DEFAULT_TOLERATION_SECONDS: i64 = 300;

/// Apply create-time defaults and admission plugins to `obj`.
pub fn admit_create(obj: &mut Object) {
    match obj {
        Object::Pod(pod) => {
            // The ServiceAccount admission plugin: a Pod without one runs as its
            // namespace's `default` (the deprecated field read when the new is unset).
            let sa = &mut pod.spec;
            if sa.service_account_name.is_empty() {
                sa.service_account_name = if sa.service_account.is_empty() {
                    "default".into()
                } else {
                    sa.service_account.clone()
                };
            }
            sa.service_account = sa.service_account_name.clone();
            default_pod(&mut pod.spec);
            default_pod_spec(&mut pod.spec);
            add_default_tolerations(&mut pod.spec);
            if pod.status.phase.is_empty() {
                pod.status.phase = PodPhase::Pending.into();
            }
        }
        Object::Namespace(n) => {
            // The API server labels every namespace with its own name (GA in 1.22), so
            // selectors such as a pod affinity term's namespaceSelector can pick it.
            n.metadata.labels.insert(
                "kubernetes.io/metadata.name".into(),
                n.metadata.name.clone(),
            );
            if n.status.phase.is_empty() {
                n.status.phase = "Active".into();
            }
            if !n.metadata.is_deleting() && !n.spec.finalizers.iter().any(|f| f == "kubernetes") {
                n.spec.finalizers.push("kubernetes".into());
            }
        }
        Object::Deployment(d) => {
            default_pod_spec(&mut d.spec.template.spec);
            // `SetDefaults_Deployment`: an empty strategy (`strategy: {}`, as
            // `kubectl create deployment` sends it) is a RollingUpdate of 25%/25%.
            let s = &mut d.spec.strategy;
            if s.type_.is_empty() {
                s.type_ = "RollingUpdate".into();
            }
            if s.type_ == "RollingUpdate" {
                s.rolling_update.get_or_insert_with(Default::default);
            }
        }
        Object::ReplicaSet(rs) => default_pod_spec(&mut rs.spec.template.spec),
        Object::Service(svc) => default_service(svc),
        // SetDefaults_EndpointPort.
        Object::Endpoints(ep) => {
            for p in ep.subsets.iter_mut().flat_map(|s| s.ports.iter_mut()) {
                if p.protocol.is_empty() {
                    p.protocol = "TCP".into();
                }
            }
        }
        Object::LimitRange(lr) => super::limit_ranger::default_limit_range(lr),
        Object::Job(j) => {
            default_job_spec(&mut j.spec);
            // `SetDefaults_Job`: a Job without labels takes its template's.
            if j.metadata.labels.is_empty() {
                j.metadata.labels = j.spec.template.metadata.labels.clone();
            }
        }
        Object::CronJob(cj) => default_cron_job(cj),
        Object::DaemonSet(ds) => {
            default_pod_spec(&mut ds.spec.template.spec);
            // `SetDefaults_DaemonSet`: the same for an empty updateStrategy.
            let s = &mut ds.spec.update_strategy;
            if s.type_.is_empty() {
                s.type_ = "RollingUpdate".into();
            }
            if s.type_ == "RollingUpdate" {
                s.rolling_update.get_or_insert_with(Default::default);
            }
        }
        Object::StatefulSet(ss) => {
            // `SetDefaults_StatefulSet`: RollingUpdate gets partition 0; the claim
            // templates get the claim defaults.
            default_pod_spec(&mut ss.spec.template.spec);
            if ss.spec.update_strategy.type_ == "RollingUpdate" {
                ss.spec
                    .update_strategy
                    .rolling_update
                    .get_or_insert_with(Default::default);
            }
            for t in &mut ss.spec.volume_claim_templates {
                default_claim(t);
            }
        }
        Object::PersistentVolumeClaim(c) => default_claim(c),
        Object::HorizontalPodAutoscaler(h) => default_hpa(h),
        Object::PersistentVolume(v) => {
            // `SetDefaults_PersistentVolume`.
            if v.spec.persistent_volume_reclaim_policy.is_empty() {
                v.spec.persistent_volume_reclaim_policy = "Retain".into();
            }
            v.spec
                .volume_mode
                .get_or_insert_with(|| "Filesystem".into());
            if v.status.phase.is_empty() {
                v.status.phase = "Pending".into();
            }
        }
        Object::StorageClass(sc) => {
            // `SetDefaults_StorageClass`.
            if sc.reclaim_policy.is_empty() {
                sc.reclaim_policy = "Delete".into();
            }
            if sc.volume_binding_mode.is_empty() {
                sc.volume_binding_mode = "Immediate".into();
            }
        }
        Object::NetworkPolicy(np) => {
            // `SetDefaults_NetworkPolicyPort` and `SetDefaults_NetworkPolicy`
            // (`pkg/apis/networking/v1/defaults.go`): ports are TCP; a policy without
            // types isolates ingress, and egress too when it has egress rules.
            let ports = np
                .spec
                .ingress
                .iter_mut()
                .flat_map(|r| r.ports.iter_mut())
                .chain(np.spec.egress.iter_mut().flat_map(|r| r.ports.iter_mut()));
            for port in ports {
                port.protocol.get_or_insert_with(|| "TCP".into());
            }
            if np.spec.policy_types.is_empty() {
                np.spec.policy_types.push("Ingress".into());
                if !np.spec.egress.is_empty() {
                    np.spec.policy_types.push("Egress".into());
                }
            }
        }
        Object::ValidatingAdmissionPolicy(p) => {
            // `SetDefaults_ValidatingAdmissionPolicySpec`, `SetDefaults_MatchResources`,
            // `SetDefaults_Rule` (`pkg/apis/admissionregistration/v1/defaults.go`).
            p.spec.failure_policy.get_or_insert_with(|| "Fail".into());
            if let Some(m) = &mut p.spec.match_constraints {
                default_match_resources(m);
            }
        }
        Object::ValidatingAdmissionPolicyBinding(b) => {
            if let Some(m) = &mut b.spec.match_resources {
                default_match_resources(m);
            }
        }
        Object::ValidatingWebhookConfiguration(c) => {
            // `SetDefaults_ValidatingWebhook`, `SetDefaults_ServiceReference`,
            // `SetDefaults_Rule`: sideEffects and admissionReviewVersions have no
            // default in v1 (validation requires them).
            for w in &mut c.webhooks {
                w.failure_policy.get_or_insert_with(|| "Fail".into());
                w.match_policy.get_or_insert_with(|| "Equivalent".into());
                w.namespace_selector
                    .get_or_insert_with(LabelSelector::default);
                w.object_selector.get_or_insert_with(LabelSelector::default);
                w.timeout_seconds.get_or_insert(10);
                if let Some(s) = &mut w.client_config.service {
                    s.port.get_or_insert(443);
                }
                for r in &mut w.rules {
                    r.scope.get_or_insert_with(|| "*".into());
                }
            }
        }
        Object::IngressClass(ic) => {
            // `SetDefaults_IngressClass`: parameters are cluster-scoped by default.
            if let Some(p) = &mut ic.spec.parameters {
                p.scope.get_or_insert_with(|| "Cluster".into());
            }
        }
        Object::Secret(sec) => {
            // `SetDefaults_Secret` and the v1 conversion: stringData is written into
            // data (base64) and never stored.
            if sec.type_.is_empty() {
                sec.type_ = "Opaque".into();
            }
            for (k, v) in std::mem::take(&mut sec.string_data) {
                sec.data.insert(k, base64_encode(v.as_bytes()));
            }
        }
        _ => {}
    }
}

/// `SetDefaults_MatchResources` and `SetDefaults_Rule`: Equivalent, selectors that
/// match everything, rules of any scope.
fn default_match_resources(m: &mut MatchResources) {
    m.match_policy.get_or_insert_with(|| "Equivalent".into());
    m.namespace_selector
        .get_or_insert_with(LabelSelector::default);
    m.object_selector.get_or_insert_with(LabelSelector::default);
    for r in m
        .resource_rules
        .iter_mut()
        .chain(m.exclude_resource_rules.iter_mut())
    {
        r.scope.get_or_insert_with(|| "*".into());
    }
}

/// `SetDefaults_Job`'s spec part (`pkg/apis/batch/v1/defaults.go`): a Job that sets
/// neither completions nor parallelism runs one Pod to one success; backoffLimit 6
/// (MaxInt32 with a per-index limit); NonIndexed; not suspended; a pod-condition
/// pattern's status True; podReplacementPolicy Failed with a podFailurePolicy, else
/// TerminatingOrFailed. The template gets the Pod defaults.
pub fn default_job_spec(spec: &mut JobSpec) {
    if spec.completions.is_none() && spec.parallelism.is_none() {
        spec.completions = Some(1);
    }
    spec.parallelism.get_or_insert(1);
    if spec.backoff_limit.is_none() {
        spec.backoff_limit = Some(if spec.backoff_limit_per_index.is_some() {
            i64::from(i32::MAX)
        } else {
            6
        });
    }
    spec.completion_mode
        .get_or_insert_with(|| "NonIndexed".into());
    spec.suspend.get_or_insert(false);
    if spec.pod_replacement_policy.is_none() {
        spec.pod_replacement_policy = Some(if spec.pod_failure_policy.is_some() {
            "Failed".into()
        } else {
            "TerminatingOrFailed".into()
        });
    }
    default_pod_spec(&mut spec.template.spec);
}

/// `SetDefaults_CronJob`: Allow, not suspended, keep 3 successful and 1 failed Job.
/// The Job template's own fields stay as written (the Job defaults apply to each Job
/// when it is created); its Pod template gets the Pod defaults.
fn default_cron_job(cj: &mut CronJob) {
    let spec = &mut cj.spec;
    if spec.concurrency_policy.is_empty() {
        spec.concurrency_policy = "Allow".into();
    }
    spec.suspend.get_or_insert(false);
    spec.successful_jobs_history_limit.get_or_insert(3);
    spec.failed_jobs_history_limit.get_or_insert(1);
    default_pod_spec(&mut spec.job_template.spec.template.spec);
}

/// The Job strategy's `generateSelector` (`pkg/registry/batch/job/strategy.go`), run
/// once the uid is known: unless `manualSelector`, the template is labelled with the
/// Job's uid and name (the `batch.kubernetes.io/` labels and their legacy twins) and
/// the selector is the uid label.
pub fn generate_job_selector(job: &mut Job) {
    if job.spec.manual_selector == Some(true) {
        return;
    }
    let (uid, name) = (job.metadata.uid.clone(), job.metadata.name.clone());
    let labels = &mut job.spec.template.metadata.labels;
    for (k, v) in [
        ("batch.kubernetes.io/controller-uid", &uid),
        ("batch.kubernetes.io/job-name", &name),
        ("controller-uid", &uid),
        ("job-name", &name),
    ] {
        labels.entry(k.into()).or_insert_with(|| v.clone());
    }
    let sel = job.spec.selector.get_or_insert_with(LabelSelector::default);
    sel.match_labels
        .entry("batch.kubernetes.io/controller-uid".into())
        .or_insert(uid);
    // Defaulting runs again when the stored object is read back, so a Job created
    // without labels shows its template's, generated ones included.
    if job.metadata.labels.is_empty() {
        job.metadata.labels = job.spec.template.metadata.labels.clone();
    }
}

/// `v1.DefaultClientIPServiceAffinitySeconds`: three hours.
pub const DEFAULT_CLIENT_IP_AFFINITY_SECONDS: u64 = 10_800;

/// `SetDefaults_Service` (`pkg/apis/core/v1/defaults.go`), and the IP-family fields the
/// Service storage fills in (`initIPFamilyFields`) for a single-stack IPv4 cluster.
fn default_service(svc: &mut Service) {
    let spec = &mut svc.spec;
    if spec.session_affinity.is_empty() {
        spec.session_affinity = "None".into();
    }
    if spec.session_affinity == "None" {
        spec.extra.remove("sessionAffinityConfig");
    }
    // ClientIP without a timeout gets `DefaultClientIPServiceAffinitySeconds` (10800).
    if spec.session_affinity == "ClientIP"
        && spec
            .extra
            .get("sessionAffinityConfig")
            .and_then(|c| c.pointer("/clientIP/timeoutSeconds"))
            .is_none()
    {
        spec.extra.insert(
            "sessionAffinityConfig".into(),
            serde_json::json!({ "clientIP": { "timeoutSeconds": DEFAULT_CLIENT_IP_AFFINITY_SECONDS } }),
        );
    }
    if spec.type_.is_empty() {
        spec.type_ = "ClusterIP".into();
    }
    for p in &mut spec.ports {
        if p.protocol.is_empty() {
            p.protocol = "TCP".into();
        }
        let unset = match &p.target_port {
            None => true,
            Some(IntOrString::Int(0)) => true,
            Some(IntOrString::String(s)) => s.is_empty(),
            Some(_) => false,
        };
        if unset {
            p.target_port = Some(IntOrString::Int(p.port));
        }
    }
    let externally_accessible = spec.type_ == "LoadBalancer"
        || spec.type_ == "NodePort"
        || (spec.type_ == "ClusterIP" && !spec.external_ips.is_empty());
    if externally_accessible && spec.external_traffic_policy.is_empty() {
        spec.external_traffic_policy = "Cluster".into();
    }
    if spec.internal_traffic_policy.is_empty()
        && matches!(
            spec.type_.as_str(),
            "NodePort" | "LoadBalancer" | "ClusterIP"
        )
    {
        spec.internal_traffic_policy = "Cluster".into();
    }
    if spec.type_ == "LoadBalancer" && !spec.extra.contains_key("allocateLoadBalancerNodePorts") {
        spec.extra
            .insert("allocateLoadBalancerNodePorts".into(), true.into());
    }
    if spec.type_ != "ExternalName" {
        if spec.ip_family_policy.is_empty() {
            // A headless Service without a selector defaults to RequireDualStack.
            let headless = spec.cluster_ip == "None"
                || spec.cluster_ips.first().is_some_and(|ip| ip == "None");
            spec.ip_family_policy = if headless && spec.selector.is_none() {
                "RequireDualStack"
            } else {
                "SingleStack"
            }
            .into();
        }
        if spec.ip_families.is_empty() {
            spec.ip_families = vec!["IPv4".into()];
        }
    }
}

/// `SetDefaults_Pod`: what only a Pod gets (a Pod template keeps what was written).
fn default_pod(spec: &mut PodSpec) {
    // A container with limits and no request for a resource requests its limit: the
    // scheduler and the kubelet reserve what the container may use. Done on Pods only,
    // so templates round-trip unchanged.
    for c in spec
        .containers
        .iter_mut()
        .chain(spec.init_containers.iter_mut())
    {
        for (name, limit) in &c.resources.limits {
            c.resources
                .requests
                .entry(name.clone())
                .or_insert_with(|| limit.clone());
        }
    }
    if spec.enable_service_links.is_none() {
        spec.enable_service_links = Some(true);
    }
    if spec.host_network {
        // With the node's network, every container port is a host port.
        for c in spec
            .containers
            .iter_mut()
            .chain(spec.init_containers.iter_mut())
        {
            for p in &mut c.ports {
                if p.host_port == 0 {
                    p.host_port = p.container_port;
                }
            }
        }
    }
}

/// `SetDefaults_PodSpec` and the defaults of what a Pod spec holds (containers, ports,
/// probes, volumes), for Pods and Pod templates alike (`pkg/apis/core/v1/defaults.go`).
fn default_pod_spec(spec: &mut PodSpec) {
    if spec.dns_policy.is_empty() {
        spec.dns_policy = "ClusterFirst".into();
    }
    if spec.restart_policy.is_empty() {
        spec.restart_policy = "Always".into();
    }
    if spec.security_context.is_none() {
        spec.security_context = Some(serde_json::Value::Object(Default::default()));
    }
    if spec.scheduler_name.is_empty() {
        spec.scheduler_name = DEFAULT_SCHEDULER_NAME.into();
    }
    if spec.termination_grace_period_seconds.is_none() {
        spec.termination_grace_period_seconds = Some(30);
    }
    for c in spec
        .containers
        .iter_mut()
        .chain(spec.init_containers.iter_mut())
    {
        default_container(c);
    }
    for v in &mut spec.volumes {
        default_volume(v);
    }
    // The v1 conversion keeps the deprecated `serviceAccount` equal to
    // `serviceAccountName`, filling the new name from the old one when only it is given.
    if spec.service_account_name.is_empty() {
        if let Some(serde_json::Value::String(old)) = spec.extra.get("serviceAccount") {
            spec.service_account_name = old.clone();
        }
    }
    if !spec.service_account_name.is_empty() {
        spec.extra.insert(
            "serviceAccount".into(),
            spec.service_account_name.clone().into(),
        );
    }
}

/// `SetDefaults_Container` with its ports' and probes' defaults.
fn default_container(c: &mut Container) {
    if c.image_pull_policy.is_empty() {
        c.image_pull_policy = default_pull_policy(&c.image).into();
    }
    if c.termination_message_path.is_empty() {
        c.termination_message_path = "/dev/termination-log".into();
    }
    if c.termination_message_policy.is_empty() {
        c.termination_message_policy = "File".into();
    }
    for p in &mut c.ports {
        if p.protocol.is_empty() {
            p.protocol = "TCP".into();
        }
    }
    // `SetDefaults_ObjectFieldSelector`: an env var's fieldRef reads apiVersion v1.
    for e in &mut c.env {
        if let Some(f) = e
            .get_mut("valueFrom")
            .and_then(|v| v.get_mut("fieldRef"))
            .and_then(|f| f.as_object_mut())
        {
            f.entry("apiVersion").or_insert_with(|| "v1".into());
        }
    }
    for probe in [
        &mut c.readiness_probe,
        &mut c.liveness_probe,
        &mut c.startup_probe,
    ]
    .into_iter()
    .flatten()
    {
        // SetDefaults_Probe: an explicit 0 is the default too.
        for (v, d) in [
            (&mut probe.timeout_seconds, 1),
            (&mut probe.period_seconds, 10),
            (&mut probe.success_threshold, 1),
            (&mut probe.failure_threshold, 3),
        ] {
            if *v == 0 {
                *v = d;
            }
        }
        if let Some(h) = &mut probe.http_get {
            if h.path.is_empty() {
                h.path = "/".into();
            }
            if h.scheme.is_empty() {
                h.scheme = "HTTP".into();
            }
        }
    }
}

/// `Always` for an image tagged `latest` or not tagged at all (which means `latest`),
/// else `IfNotPresent` (`parsers.ParseImageName`: a digest without a tag has no tag).
pub fn default_pull_policy(image: &str) -> &'static str {
    let (name, digest) = match image.split_once('@') {
        Some((n, d)) => (n, Some(d)),
        None => (image, None),
    };
    // The tag follows the last ':' after the last '/' (a ':' before it is a registry port).
    let last = name.rsplit('/').next().unwrap_or(name);
    let tag = last.split_once(':').map(|(_, t)| t);
    match (tag, digest) {
        (Some("latest"), _) | (None, None) => "Always",
        _ => "IfNotPresent",
    }
}

/// `SetDefaults_Volume` and its sources' defaults: no source means `emptyDir: {}`;
/// configMap, secret, downwardAPI and projected files get mode 0644 (420); hostPath
/// gets type `""`.
fn default_volume(v: &mut Volume) {
    // Most sources are defaulted already (a template's, the token volume): a shared
    // source is copied only when a default is missing.
    let missing = v.source.is_empty()
        || v.source.iter().any(|(kind, src)| match kind.as_str() {
            "configMap" | "secret" | "downwardAPI" | "projected" => {
                src.get("defaultMode").is_none() && src.is_object()
            }
            "hostPath" => src.get("type").is_none() && src.is_object(),
            _ => false,
        });
    if !missing {
        return;
    }
    let source = std::sync::Arc::make_mut(&mut v.source);
    if source.is_empty() {
        source.insert(
            "emptyDir".into(),
            serde_json::Value::Object(Default::default()),
        );
    }
    for (kind, src) in source.iter_mut() {
        let Some(src) = src.as_object_mut() else {
            continue;
        };
        match kind.as_str() {
            "configMap" | "secret" | "downwardAPI" | "projected" => {
                src.entry("defaultMode").or_insert(420.into());
            }
            "hostPath" => {
                src.entry("type").or_insert("".into());
            }
            _ => {}
        }
    }
}

/// `DefaultTolerationSeconds`: tolerate the not-ready and unreachable taints
/// ([`TAINT_NODE_NOT_READY`], [`TAINT_NODE_UNREACHABLE`]; NoExecute) for 300 s unless
/// the Pod already tolerates them.
pub fn add_default_tolerations(spec: &mut PodSpec) {
    for key in [TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE] {
        let taint = Taint {
            key: key.into(),
            effect: TaintEffect::NoExecute.into(),
            ..Default::default()
        };
        if !spec.tolerations.iter().any(|t| t.tolerates(&taint)) {
            spec.tolerations.push(Toleration {
                key: key.into(),
                operator: "Exists".into(),
                effect: TaintEffect::NoExecute.into(),
                toleration_seconds: Some(DEFAULT_TOLERATION_SECONDS),
                ..Default::default()
            });
        }
    }
}

/// The two classes every API server creates at start (`scheduling.SystemPriorityClasses`).
pub fn system_priority_classes() -> Vec<PriorityClass> {
    [
        ("system-node-critical", 2_000_001_000, "Used for system critical pods that must not be moved from their current node."),
        ("system-cluster-critical", 2_000_000_000, "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."),
    ]
    .into_iter()
    .map(|(name, value, description)| PriorityClass {
        metadata: ObjectMeta {
            name: name.into(),
            ..Default::default()
        },
        value,
        description: description.into(),
        ..Default::default()
    })
    .collect()
}

/// The `Priority` admission plugin: resolve `priorityClassName` (or the global default
/// class) into `priority` and `preemptionPolicy`. `classes` are the PriorityClasses in
/// the store. Errors are the Forbidden messages the API server returns.
pub fn admit_priority(pod: &mut Pod, classes: &[&PriorityClass]) -> Result<(), String> {
    let class = if pod.spec.priority_class_name.is_empty() {
        classes.iter().find(|c| c.global_default).copied()
    } else {
        match classes
            .iter()
            .find(|c| c.metadata.name == pod.spec.priority_class_name)
        {
            Some(c) => Some(*c),
            None => {
                return Err(format!(
                    "no PriorityClass with name {} was found",
                    pod.spec.priority_class_name
                ))
            }
        }
    };
    let (value, policy) = match class {
        Some(c) => {
            if pod.spec.priority_class_name.is_empty() {
                pod.spec.priority_class_name = c.metadata.name.clone();
            }
            let policy = if c.preemption_policy.is_empty() {
                "PreemptLowerPriority".to_string()
            } else {
                c.preemption_policy.clone()
            };
            (c.value, policy)
        }
        // DefaultPriorityWhenNoDefaultClassExists.
        None => (0, "PreemptLowerPriority".to_string()),
    };
    if let Some(p) = pod.spec.priority {
        if p != value {
            return Err(format!(
                "the integer value of priority ({p}) must not be provided in pod spec; priority admission controller computed {value} from the given PriorityClass name"
            ));
        }
    }
    pod.spec.priority = Some(value);
    if let Some(p) = &pod.spec.preemption_policy {
        if *p != policy {
            return Err(format!(
                "the string value of PreemptionPolicy ({p}) must not be provided in pod spec; priority admission controller computed {policy} from the given PriorityClass name"
            ));
        }
    }
    pod.spec.preemption_policy = Some(policy);
    Ok(())
}
