//! Discovery: what the API server says it serves (`/api`, `/apis`, `/api/v1`,
//! `/apis/GROUP/VERSION`, aggregated discovery and `/version`).
//!
//! kubectl v1.32 asks `/api` and `/apis` for aggregated discovery first
//! (`application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`) and reads
//! every resource of every group from those two answers; an older client reads the
//! legacy `APIVersions`/`APIGroupList` and then one `APIResourceList` per group version.
//! Both are built here from one table of what kubeplay models.
//!
//! Upstream: `staging/src/k8s.io/api/apidiscovery/v2/types.go`,
//! `staging/src/k8s.io/apiserver/pkg/endpoints/discovery/aggregated/handler.go`,
//! `staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go` (`APIResourceList`).

use crate::api::Kind;
use serde_json::{json, Value};

/// The API server's warning with every answer about the deprecated v1 Endpoints
/// (`deprecation.WarningMessage`); kubectl prints it as `Warning: …`.
pub const ENDPOINTS_DEPRECATED: &str =
    "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice";

/// The Kubernetes version the server reports (`/version`).
pub const GIT_VERSION: &str = "v1.33.0";

/// One served resource: its kind and how clients may name and use it.
pub struct Served {
    /// The kind.
    pub kind: Kind,
    /// Short names (`po`, `deploy`…).
    pub short_names: &'static [&'static str],
    /// Categories (`all`).
    pub categories: &'static [&'static str],
    /// Subresources with the kind each answers with (group/version, kind) and verbs.
    pub subresources: &'static [(
        &'static str,
        &'static str,
        &'static str,
        &'static [&'static str],
    )],
}

/// The verbs of every stored kind kubeplay serves.
pub const RW: &[&str] = &[
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "update",
    "watch",
];
const STATUS: (&str, &str, &str, &[&str]) = ("status", "", "", &["get", "patch", "update"]);
const SCALE: (&str, &str, &str, &[&str]) = (
    "scale",
    "autoscaling/v1",
    "Scale",
    &["get", "patch", "update"],
);

/// Every resource kubeplay serves, in discovery order within each group.
pub const SERVED: &[Served] = &[
    Served {
        kind: Kind::Pod,
        short_names: &["po"],
        categories: &["all"],
        subresources: &[
            ("binding", "v1", "Binding", &["create"]),
            ("eviction", "policy/v1", "Eviction", &["create"]),
            ("log", "v1", "Pod", &["get"]),
            STATUS,
        ],
    },
    Served {
        kind: Kind::Node,
        short_names: &["no"],
        categories: &[],
        subresources: &[STATUS],
    },
    Served {
        kind: Kind::Namespace,
        short_names: &["ns"],
        categories: &[],
        subresources: &[STATUS],
    },
    Served {
        kind: Kind::Event,
        short_names: &["ev"],
        categories: &[],
        subresources: &[],
    },
    Served {
        kind: Kind::Service,
        short_names: &["svc"],
        categories: &["all"],
        subresources: &[STATUS],
    },
    Served {
        kind: Kind::Endpoints,
        short_names: &["ep"],
        categories: &[],
        subresources: &[],
    },
    Served {
        kind: Kind::ConfigMap,
        short_names: &["cm"],
        categories: &[],
        subresources: &[],
    },
    Served {
        kind: Kind::Secret,
        short_names: &[],
        categories: &[],
        subresources: &[],
    },
    Served {
        kind: Kind::ServiceAccount,
        short_names: &["sa"],
        categories: &[],
        subresources: &[(
            "token",
            "authentication.k8s.io/v1",
            "TokenRequest",
            &["create"],
        )],
    },
    Served {
        kind: Kind::ResourceQuota,
        short_names: &["quota"],
        categories: &[],
        subresources: &[STATUS],
    },
    Served {
        kind: Kind::LimitRange,
        short_names: &["limits"],
        categories: &[],
        subresources: &[],
    },
    Served {
        kind: Kind::PersistentVolumeClaim,
        short_names: &["pvc"],
        categories: &[],
        subresources: &[STATUS],
    },
    Served {
        kind: Kind::PersistentVolume,
        short_names: &["pv"],
        categories: &[],
        subresources: &[STATUS],
    },
    Served {
        kind: Kind::Deployment,
        short_names: &["deploy"],
        categories: &["all"],
        subresources: &[SCALE, STATUS],
    },
    Served {
        kind: Kind::ReplicaSet,
        short_names: &["rs"],
        categories: &["all"],
        subresources: &[SCALE, STATUS],
    },
    Served {
        kind: Kind::StatefulSet,
        short_names: &["sts"],
        categories: &["all"],
        subresources: &[SCALE, STATUS],
    },
    Served {
        kind: Kind::DaemonSet,
        short_names: &["ds"],
        categories: &["all"],
        subresources: &[STATUS],
    },
    Served {
        kind: Kind::ControllerRevision,
        short_names: &[],
        categories: &[],
        subresources: &[],
    },
    Served {
        kind: Kind::Job,
        short_names: &[],
        categories: &["all"],
        subresources: &[STATUS],
    },
    Served {
        kind: Kind::CronJob,
        short_names: &["cj"],
        categories: &["all"],
        subresources: &[STATUS],
    },
    Served {
        kind: Kind::HorizontalPodAutoscaler,
        short_names: &["hpa"],
        categories: &["all"],
        subresources: &[STATUS],
    },
    Served {
        kind: Kind::PodDisruptionBudget,
        short_names: &["pdb"],
        categories: &[],
        subresources: &[STATUS],
    },
    Served {
        kind: Kind::PriorityClass,
        short_names: &["pc"],
        categories: &[],
        subresources: &[],
    },
    Served {
        kind: Kind::Lease,
        short_names: &[],
        categories: &[],
        subresources: &[],
    },
    Served {
        kind: Kind::EndpointSlice,
        short_names: &[],
        categories: &[],
        subresources: &[],
    },
    Served {
        kind: Kind::Ingress,
        short_names: &["ing"],
        categories: &[],
        subresources: &[STATUS],
    },
    Served {
        kind: Kind::CustomResourceDefinition,
        short_names: &["crd", "crds"],
        categories: &["api-extensions"],
        subresources: &[STATUS],
    },
    Served {
        kind: Kind::ValidatingAdmissionPolicy,
        short_names: &[],
        categories: &["api-extensions"],
        subresources: &[STATUS],
    },
    Served {
        kind: Kind::ValidatingAdmissionPolicyBinding,
        short_names: &[],
        categories: &["api-extensions"],
        subresources: &[],
    },
    Served {
        kind: Kind::ValidatingWebhookConfiguration,
        short_names: &[],
        categories: &["api-extensions"],
        subresources: &[],
    },
    Served {
        kind: Kind::IngressClass,
        short_names: &[],
        categories: &[],
        subresources: &[],
    },
    Served {
        kind: Kind::NetworkPolicy,
        short_names: &["netpol"],
        categories: &[],
        subresources: &[],
    },
    Served {
        kind: Kind::ServiceCIDR,
        short_names: &[],
        categories: &[],
        subresources: &[STATUS],
    },
    Served {
        kind: Kind::IPAddress,
        short_names: &["ip"],
        categories: &[],
        subresources: &[],
    },
    Served {
        kind: Kind::StorageClass,
        short_names: &["sc"],
        categories: &[],
        subresources: &[],
    },
    Served {
        kind: Kind::Role,
        short_names: &[],
        categories: &[],
        subresources: &[],
    },
    Served {
        kind: Kind::ClusterRole,
        short_names: &[],
        categories: &[],
        subresources: &[],
    },
    Served {
        kind: Kind::RoleBinding,
        short_names: &[],
        categories: &[],
        subresources: &[],
    },
    Served {
        kind: Kind::ClusterRoleBinding,
        short_names: &[],
        categories: &[],
        subresources: &[],
    },
];

/// Resources that are not stored objects but questions to the API server, answered
/// on `create`: (group, version, resource, kind).
/// A served resource that is not a stored kind: the self-reviews (create only) and the
/// resource metrics API (`metrics.k8s.io`, read only, as metrics-server serves it).
#[derive(Debug, PartialEq, Eq)]
pub struct Virtual {
    /// The group.
    pub group: &'static str,
    /// The version.
    pub version: &'static str,
    /// The resource.
    pub resource: &'static str,
    /// The kind it answers with.
    pub kind: &'static str,
    /// Whether it lives in a namespace.
    pub namespaced: bool,
    /// Its verbs.
    pub verbs: &'static [&'static str],
    /// Its short names.
    pub short_names: &'static [&'static str],
}

const fn review(group: &'static str, resource: &'static str, kind: &'static str) -> Virtual {
    Virtual {
        group,
        version: "v1",
        resource,
        kind,
        namespaced: false,
        verbs: &["create"],
        short_names: &[],
    }
}

/// Every [`Virtual`] resource, in discovery order within each group.
pub const REVIEWS: &[Virtual] = &[
    review(
        "authentication.k8s.io",
        "selfsubjectreviews",
        "SelfSubjectReview",
    ),
    review("authentication.k8s.io", "tokenreviews", "TokenReview"),
    review(
        "authorization.k8s.io",
        "selfsubjectaccessreviews",
        "SelfSubjectAccessReview",
    ),
    review(
        "authorization.k8s.io",
        "selfsubjectrulesreviews",
        "SelfSubjectRulesReview",
    ),
    Virtual {
        group: "metrics.k8s.io",
        version: "v1beta1",
        resource: "nodes",
        kind: "NodeMetrics",
        namespaced: false,
        verbs: &["get", "list"],
        short_names: &[],
    },
    Virtual {
        group: "metrics.k8s.io",
        version: "v1beta1",
        resource: "pods",
        kind: "PodMetrics",
        namespaced: true,
        verbs: &["get", "list"],
        short_names: &[],
    },
    // The Events of core v1, served again in events.k8s.io/v1 and converted at the
    // endpoint (`apiserver::events_v1`).
    Virtual {
        group: "events.k8s.io",
        version: "v1",
        resource: "events",
        kind: "Event",
        namespaced: true,
        verbs: RW,
        short_names: &["ev"],
    },
];

/// A stored kind served again in an older group version, converted at the endpoint
/// (`apiserver::autoscaling_v1`): (kind, group, version). Discovery lists it after the
/// kind's preferred version, with the same names, categories and subresources.
pub const ALSO_SERVED: &[(Kind, &str, &str)] =
    &[(Kind::HorizontalPodAutoscaler, "autoscaling", "v1")];

/// Every served resource with the (group, version) it is served in: each kind's own,
/// then [`ALSO_SERVED`].
pub fn served_versions() -> impl Iterator<Item = (&'static Served, &'static str, &'static str)> {
    let own = SERVED.iter().map(|s| {
        let (g, v) = group_version(s.kind);
        (s, g, v)
    });
    let also = ALSO_SERVED
        .iter()
        .filter_map(|(kind, g, v)| SERVED.iter().find(|s| s.kind == *kind).map(|s| (s, *g, *v)));
    own.chain(also)
}

/// (group, version) of a kind: `("", "v1")` for the core group.
pub fn group_version(kind: Kind) -> (&'static str, &'static str) {
    match kind.api_version().split_once('/') {
        Some((g, v)) => (g, v),
        None => ("", kind.api_version()),
    }
}

/// The kind served at `resource` in group/version.
pub fn kind_of(group: &str, version: &str, resource: &str) -> Option<Kind> {
    if (group, version, resource) == ("events.k8s.io", "v1", "events") {
        return Some(Kind::Event);
    }
    served_versions()
        .find(|(s, g, v)| s.kind.resource() == resource && (*g, *v) == (group, version))
        .map(|(s, _, _)| s.kind)
        .or_else(|| super::custom::discovery::kind_of(group, version, resource))
}

/// An API group's priority among the others (`apiVersionPriorities` in
/// `pkg/controlplane/apiserver/aggregator.go` and its generic defaults, v1.33): discovery
/// lists groups from the highest, ties by name. metrics-server registers its group at 100.
fn group_priority(group: &str) -> u32 {
    match group {
        "" => 18000,
        "apps" => 17800,
        "events.k8s.io" => 17750,
        "authentication.k8s.io" => 17700,
        "authorization.k8s.io" => 17600,
        "autoscaling" => 17500,
        "batch" => 17400,
        "certificates.k8s.io" => 17300,
        "networking.k8s.io" => 17200,
        "policy" => 17100,
        "rbac.authorization.k8s.io" => 17000,
        "storage.k8s.io" => 16800,
        "admissionregistration.k8s.io" | "apiextensions.k8s.io" => 16700,
        "scheduling.k8s.io" => 16600,
        "coordination.k8s.io" => 16500,
        "node.k8s.io" => 16300,
        "discovery.k8s.io" => 16200,
        "flowcontrol.apiserver.k8s.io" => 16100,
        _ => 100,
    }
}

/// The groups in the order `/apis` lists them (the core group is `/api`'s).
fn groups() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for s in SERVED {
        let (g, _) = group_version(s.kind);
        if !g.is_empty() && !out.contains(&g) {
            out.push(g);
        }
    }
    for r in REVIEWS {
        if !out.contains(&r.group) {
            out.push(r.group);
        }
    }
    crate::sorting::sort_by(&mut out, |a, b| {
        group_priority(b).cmp(&group_priority(a)).then(a.cmp(b))
    });
    out
}

/// The kinds of a category (`all`) in the order kubectl expands it: discovery's order,
/// groups by priority and resources by name (`pods`, `services`, `daemonsets`,
/// `deployments`, `replicasets`, `statefulsets`, `horizontalpodautoscalers`, `cronjobs`,
/// `jobs`).
pub fn category(name: &str) -> Vec<Kind> {
    std::iter::once("")
        .chain(groups())
        .flat_map(|g| {
            let mut kinds: Vec<Kind> = SERVED
                .iter()
                .filter(|s| group_version(s.kind).0 == g && s.categories.contains(&name))
                .map(|s| s.kind)
                .collect();
            crate::sorting::sort_by_key(&mut kinds, |k| k.resource());
            kinds
        })
        .collect()
}

fn review_discovery(r: &Virtual) -> Value {
    let mut d = json!({
        "resource": r.resource,
        "responseKind": {"group": r.group, "version": r.version, "kind": r.kind},
        "scope": if r.namespaced { "Namespaced" } else { "Cluster" },
        "singularResource": r.kind.to_ascii_lowercase(),
        "verbs": r.verbs,
    });
    if !r.short_names.is_empty() {
        d["shortNames"] = json!(r.short_names);
    }
    d
}

fn singular(kind: Kind) -> String {
    kind.name().to_ascii_lowercase()
}

fn verbs(_kind: Kind) -> Vec<&'static str> {
    RW.to_vec()
}

fn split_gv(gv: &str) -> (&str, &str) {
    gv.split_once('/').unwrap_or(("", gv))
}

/// `apidiscovery.k8s.io/v2` `APIResourceDiscovery` of one resource.
fn resource_discovery(s: &Served, g: &str, v: &str) -> Value {
    let subs: Vec<Value> = s
        .subresources
        .iter()
        .map(|(name, gv, kind, verbs)| {
            let (sg, sv) = if gv.is_empty() { (g, v) } else { split_gv(gv) };
            let kind = if kind.is_empty() { s.kind.name() } else { kind };
            json!({
                "subresource": name,
                "responseKind": {"group": sg, "version": sv, "kind": kind},
                "verbs": verbs,
            })
        })
        .collect();
    let mut r = json!({
        "resource": s.kind.resource(),
        "responseKind": {"group": g, "version": v, "kind": s.kind.name()},
        "scope": if s.kind.namespaced() { "Namespaced" } else { "Cluster" },
        "singularResource": singular(s.kind),
        "verbs": verbs(s.kind),
    });
    if !s.short_names.is_empty() {
        r["shortNames"] = json!(s.short_names);
    }
    if !s.categories.is_empty() {
        r["categories"] = json!(s.categories);
    }
    if !subs.is_empty() {
        r["subresources"] = Value::Array(subs);
    }
    r
}

fn group_discovery(group: &str) -> Value {
    let mut versions: Vec<&str> = Vec::new();
    for (_, g, v) in served_versions() {
        if g == group && !versions.contains(&v) {
            versions.push(v);
        }
    }
    for r in REVIEWS {
        if r.group == group && !versions.contains(&r.version) {
            versions.push(r.version);
        }
    }
    let versions: Vec<Value> = versions
        .iter()
        .map(|v| {
            let mut resources: Vec<Value> = served_versions()
                .filter(|(_, g, sv)| (*g, *sv) == (group, *v))
                .map(|(s, g, v)| resource_discovery(s, g, v))
                .collect();
            resources.extend(
                REVIEWS
                    .iter()
                    .filter(|r| r.group == group && r.version == *v)
                    .map(review_discovery),
            );
            // The API server lists a version's resources by name.
            crate::sorting::sort_by(&mut resources, |a, b| {
                a["resource"].as_str().cmp(&b["resource"].as_str())
            });
            json!({"version": v, "resources": resources, "freshness": "Current"})
        })
        .collect();
    let mut meta = json!({"creationTimestamp": null});
    if !group.is_empty() {
        meta["name"] = json!(group);
    }
    json!({"metadata": meta, "versions": versions})
}

/// The aggregated discovery document of `/api` (`core`) or `/apis`.
pub fn aggregated(core: bool) -> Value {
    let items: Vec<Value> = if core {
        vec![group_discovery("")]
    } else {
        let mut items: Vec<Value> = groups().into_iter().map(group_discovery).collect();
        items.extend(super::custom::discovery::aggregated());
        items
    };
    json!({
        "kind": "APIGroupDiscoveryList",
        "apiVersion": "apidiscovery.k8s.io/v2",
        "metadata": {},
        "items": items,
    })
}

/// `/api` without aggregated discovery: `APIVersions`.
pub fn api_versions() -> Value {
    json!({
        "kind": "APIVersions",
        "versions": ["v1"],
        "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1:6443"}],
    })
}

/// `/apis` without aggregated discovery: `APIGroupList`.
pub fn api_group_list() -> Value {
    let groups: Vec<Value> = groups()
        .into_iter()
        .map(|g| {
            // Every version, the preferred (the first served) first.
            let mut versions: Vec<&str> = Vec::new();
            for (sg, v) in served_versions()
                .map(|(_, g, v)| (g, v))
                .chain(REVIEWS.iter().map(|r| (r.group, r.version)))
            {
                if sg == g && !versions.contains(&v) {
                    versions.push(v);
                }
            }
            let gvs: Vec<Value> = versions
                .iter()
                .map(|v| json!({"groupVersion": format!("{g}/{v}"), "version": v}))
                .collect();
            let preferred = gvs.first().cloned().unwrap_or(Value::Null);
            json!({"name": g, "versions": gvs, "preferredVersion": preferred})
        })
        .collect();
    let mut groups = groups;
    groups.extend(super::custom::discovery::api_groups());
    json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
}

/// `/api/v1` or `/apis/GROUP/VERSION`: `APIResourceList`, or None when not served.
pub fn resource_list(group: &str, version: &str) -> Option<Value> {
    let mut resources = Vec::new();
    for (s, _, _) in served_versions().filter(|(_, g, v)| (*g, *v) == (group, version)) {
        let mut r = json!({
            "name": s.kind.resource(),
            "singularName": singular(s.kind),
            "namespaced": s.kind.namespaced(),
            "kind": s.kind.name(),
            "verbs": verbs(s.kind),
        });
        if !s.short_names.is_empty() {
            r["shortNames"] = json!(s.short_names);
        }
        if !s.categories.is_empty() {
            r["categories"] = json!(s.categories);
        }
        resources.push(r);
        for (name, gv, kind, verbs) in s.subresources {
            let mut sr = json!({
                "name": format!("{}/{name}", s.kind.resource()),
                "singularName": "",
                "namespaced": s.kind.namespaced(),
                "kind": if kind.is_empty() { s.kind.name() } else { kind },
                "verbs": verbs,
            });
            if !gv.is_empty() {
                let (g, v) = split_gv(gv);
                if !g.is_empty() {
                    sr["group"] = json!(g);
                }
                sr["version"] = json!(v);
            }
            resources.push(sr);
        }
    }
    for r in REVIEWS
        .iter()
        .filter(|r| r.group == group && r.version == version)
    {
        let mut d = json!({
            "name": r.resource, "singularName": r.kind.to_ascii_lowercase(), "namespaced": r.namespaced,
            "kind": r.kind, "verbs": r.verbs,
        });
        if !r.short_names.is_empty() {
            d["shortNames"] = json!(r.short_names);
        }
        resources.push(d);
    }
    if resources.is_empty() {
        return super::custom::discovery::resource_list(group, version);
    }
    // By name, each subresource after its resource (`deployments`, `deployments/scale`).
    crate::sorting::sort_by(&mut resources, |a, b| {
        a["name"].as_str().cmp(&b["name"].as_str())
    });
    let gv = if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    };
    Some(json!({
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": gv,
        "resources": resources,
    }))
}

/// `/version`.
pub fn version() -> Value {
    json!({
        "major": "1",
        "minor": "33",
        // The compatibility version (KEP-4330), which v1.33 reports.
        "emulationMajor": "1",
        "emulationMinor": "33",
        "minCompatibilityMajor": "1",
        "minCompatibilityMinor": "32",
        "gitVersion": GIT_VERSION,
        "gitCommit": "kubeplay",
        "gitTreeState": "clean",
        "buildDate": "2025-04-23T00:00:00Z",
        "goVersion": "go1.24.2",
        "compiler": "gc",
        "platform": "linux/amd64",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_served_kind_is_found_by_its_group_version_and_resource() {
        for s in SERVED {
            let (g, v) = group_version(s.kind);
            assert_eq!(kind_of(g, v, s.kind.resource()), Some(s.kind));
        }
        assert_eq!(kind_of("apps", "v1", "pods"), None);
        assert_eq!(kind_of("", "v1", "deployments"), None);
    }

    #[test]
    fn groups_are_listed_by_priority_and_the_all_category_follows_them() {
        let g = groups();
        let at = |name: &str| g.iter().position(|x| *x == name).unwrap();
        assert_eq!(g[0], "apps");
        assert!(at("autoscaling") < at("batch"));
        assert!(at("batch") < at("policy"));
        assert_eq!(g.last(), Some(&"metrics.k8s.io"));
        assert_eq!(
            category("all")
                .iter()
                .map(|k| k.resource())
                .collect::<Vec<_>>(),
            [
                "pods",
                "services",
                "daemonsets",
                "deployments",
                "replicasets",
                "statefulsets",
                "horizontalpodautoscalers",
                "cronjobs",
                "jobs"
            ]
        );
    }

    #[test]
    fn aggregated_discovery_lists_apps_deployments_with_scale_and_the_core_pods_with_eviction() {
        let apis = aggregated(false);
        let apps = apis["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["metadata"]["name"] == "apps")
            .unwrap();
        let deploy = apps["versions"][0]["resources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["resource"] == "deployments")
            .unwrap();
        assert_eq!(deploy["shortNames"], json!(["deploy"]));
        assert_eq!(deploy["scope"], "Namespaced");
        assert!(deploy["subresources"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["subresource"] == "scale" && s["responseKind"]["kind"] == "Scale"));
        let core = aggregated(true);
        let core_resources = core["items"][0]["versions"][0]["resources"]
            .as_array()
            .unwrap();
        let names: Vec<&str> = core_resources
            .iter()
            .filter_map(|r| r["resource"].as_str())
            .collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted, "a version's resources are listed by name");
        let pods = core_resources
            .iter()
            .find(|r| r["resource"] == "pods")
            .unwrap();
        assert!(pods["subresources"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["subresource"] == "eviction" && s["responseKind"]["group"] == "policy"));
        assert!(api_group_list()["groups"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["name"] != ""));
    }
}
