//! `kubectl describe` (`k8s.io/kubectl/pkg/describe/describe.go`), written with
//! kubectl's tab placements and laid out by the [`crate::tabwriter`] port, so the
//! alignment is kubectl's. One file per family of kinds (`pod`, `workloads`, `node`,
//! `network`, `networking`, `storage`, `config`, `generic` for the kinds kubectl has
//! no describer for), what they share in `common`. What a describer
//! reads besides its object comes through a [`Reader`]: kubectl's requests, or the
//! store for the page's own views.

mod common;
mod config;
mod generic;
mod network;
mod networking;
mod node;
mod pod;
mod rbac;
mod storage;
mod workloads;

use crate::api::*;
use crate::apiserver::selectors::parse_field_selector;
use config::*;
use network::*;
use node::*;
use pod::*;
pub use pod::{pod_template, pod_template_raw};
use std::sync::Arc;
use storage::*;
pub use workloads::owned_replica_sets;
use workloads::*;

/// What a describer reads besides its object: the requests kubectl's describers send
/// (the object's Events, the Pods a controller owns, a node's Pods and Lease, a
/// namespace's quotas and ranges). A refused or failed read shows as nothing found, as
/// the describers go on without it.
pub trait Reader {
    /// Now, for ages.
    fn now(&self) -> crate::time::SimTime;
    /// LIST `kind` in `namespace` (None: every namespace), with a label selector and a
    /// field selector (`a=b,c!=d`; empty: none).
    fn list(
        &mut self,
        kind: Kind,
        namespace: Option<&str>,
        labels: Option<&LabelSelector>,
        fields: &str,
    ) -> Vec<Arc<Object>>;
    /// GET one object.
    fn get(&mut self, kind: Kind, namespace: &str, name: &str) -> Option<Arc<Object>>;
}

/// A describer's reads straight from the store, for the page's own views (the
/// inspector's Describe tab draws the simulation's state; it is not a client's request).
pub struct StoreReader<'a>(pub &'a crate::cluster::Cluster);

impl Reader for StoreReader<'_> {
    fn now(&self) -> crate::time::SimTime {
        self.0.now()
    }

    fn list(
        &mut self,
        kind: Kind,
        namespace: Option<&str>,
        labels: Option<&LabelSelector>,
        fields: &str,
    ) -> Vec<Arc<Object>> {
        // As a client's list would be refused: a selector that does not parse finds
        // nothing (never everything).
        let Ok(fields) = parse_field_selector(kind, fields) else {
            return Vec::new();
        };
        let mut items = self
            .0
            .store
            .list_shared(kind, namespace.filter(|_| kind.namespaced()));
        items.retain(|o| {
            labels.is_none_or(|s| s.matches(&o.meta().labels))
                && crate::apiserver::selectors::fields_match(o, &fields)
        });
        items
    }

    fn get(&mut self, kind: Kind, namespace: &str, name: &str) -> Option<Arc<Object>> {
        let ns = if kind.namespaced() { namespace } else { "" };
        self.0
            .store
            .get_shared(kind, &crate::apiserver::ObjKey::new(ns, name))
    }
}

/// `kubectl describe` text for one object, as the page's inspector shows it (its reads
/// straight from the store).
pub fn describe(c: &crate::cluster::Cluster, obj: &Object) -> String {
    describe_with(&mut StoreReader(c), obj)
}

/// `kubectl describe` text for one object, with what it reads besides from `rd`.
pub fn describe_with(rd: &mut dyn Reader, obj: &Object) -> String {
    let text = match obj {
        Object::Pod(p) => describe_pod(rd, p),
        Object::Deployment(d) => describe_deployment(rd, d),
        Object::ReplicaSet(r) => describe_replicaset(rd, r),
        Object::Node(n) => describe_node(rd, n),
        Object::PodDisruptionBudget(b) => describe_pdb(rd, b),
        Object::Namespace(n) => describe_namespace(rd, n),
        Object::PriorityClass(pc) => describe_priority_class(rd, pc),
        Object::Service(svc) => describe_service(rd, svc),
        Object::EndpointSlice(s) => describe_endpoint_slice(rd, s),
        Object::Endpoints(e) => describe_endpoints(rd, e),
        Object::ResourceQuota(q) => describe_quota(q),
        Object::LimitRange(lr) => describe_limit_range(lr),
        Object::Job(j) => describe_job(rd, j),
        Object::CronJob(cj) => describe_cron_job(rd, cj),
        Object::DaemonSet(ds) => describe_daemon_set(rd, ds),
        Object::StatefulSet(ss) => describe_stateful_set(rd, ss),
        Object::PersistentVolumeClaim(pvc) => describe_claim(rd, pvc),
        Object::PersistentVolume(pv) => describe_volume(rd, pv),
        Object::StorageClass(sc) => describe_storage_class(rd, sc),
        Object::ConfigMap(cm) => describe_config_map(rd, cm),
        Object::Secret(sec) => describe_secret(sec),
        Object::ServiceAccount(sa) => describe_service_account(rd, sa),
        Object::HorizontalPodAutoscaler(h) => describe_hpa(rd, h),
        Object::Ingress(i) => networking::describe_ingress(rd, i),
        Object::IngressClass(ic) => networking::describe_ingress_class(rd, ic),
        Object::ServiceCIDR(sc) => networking::describe_service_cidr(rd, sc),
        Object::IPAddress(ip) => networking::describe_ip_address(rd, ip),
        Object::NetworkPolicy(np) => networking::describe_network_policy(np),
        Object::Role(r) => rbac::describe_role(&r.metadata, r.rules.as_deref().unwrap_or_default()),
        Object::ClusterRole(r) => {
            rbac::describe_role(&r.metadata, r.rules.as_deref().unwrap_or_default())
        }
        Object::RoleBinding(b) => rbac::describe_binding(&b.metadata, &b.role_ref, &b.subjects),
        Object::ClusterRoleBinding(b) => {
            rbac::describe_binding(&b.metadata, &b.role_ref, &b.subjects)
        }
        other => generic::describe_generic(rd, other),
    };
    text.trim_end().to_string()
}
