//! Validation (422) of the fields the simulation relies on, with the API server's text,
//! one file per API group as upstream keeps `pkg/apis/<group>/validation`: [`core`],
//! [`apps`], [`batch`], [`autoscaling`], [`networking`], [`policy`], [`rbac`], [`scheduling`],
//! [`storage`]; the name and metadata rules of apimachinery in [`names`] and [`meta`];
//! what the decoder refuses before validation (400) in [`decoding`].
//!
//! The full set (strategy fenceposts, percentages, immutability of the selector…)
//! grows with the workload-fidelity work; each message here is upstream's.

mod admissionregistration;
mod apiextensions;
mod apps;
mod autoscaling;
mod batch;
mod core;
mod decoding;
mod meta;
pub(super) mod names;
pub(super) mod networking;
mod pod_spec;
mod policy;
mod rbac;
mod scheduling;
mod service_cidr;
mod storage;
mod webhooks;

pub use names::{
    dns1123_subdomain_error, label_value_errors, port_name_errors, qualified_name_errors,
};
pub use networking::{cidr_contains, parse_cidr_sloppy};
pub use scheduling::HIGHEST_USER_DEFINABLE_PRIORITY;

use super::ApiError;
use crate::api::Object;

/// Validate a status update's object (the strategies' `ValidateUpdate` of the status
/// subresource): an Ingress's load-balancer points.
pub fn validate_status(obj: &Object) -> Result<(), ApiError> {
    let mut causes = Vec::new();
    if let Object::Ingress(i) = obj {
        networking::validate_ingress_status(&mut causes, i);
    }
    if causes.is_empty() {
        Ok(())
    } else {
        Err(ApiError::invalid(obj.kind(), &obj.meta().name, &causes))
    }
}

/// Validate `obj` (against `old` on update). Returns a 422 listing every cause: the
/// name and metadata first (`ValidateObjectMeta`), then the kind's own rules
/// (`rest.BeforeCreate` / `BeforeUpdate` calling the strategy's `Validate`).
pub fn validate(obj: &Object, old: Option<&Object>) -> Result<(), ApiError> {
    decoding::check_quantities(obj)?;
    decoding::check_int32(obj)?;
    let mut causes = Vec::new();
    meta::validate_name(&mut causes, obj);
    meta::validate_meta_maps(&mut causes, obj.meta());
    let c = &mut causes;
    match obj {
        Object::Deployment(d) => apps::validate_deployment(c, d, old),
        Object::ReplicaSet(rs) => apps::validate_replica_set(c, rs),
        Object::PriorityClass(pc) => scheduling::validate_priority_class(c, pc),
        Object::Pod(p) => self::core::validate_pod(c, p),
        Object::PodDisruptionBudget(pdb) => policy::validate_pdb(c, pdb),
        Object::DaemonSet(ds) => apps::validate_daemon_set(c, ds, old),
        Object::StatefulSet(ss) => apps::validate_stateful_set(c, ss, old),
        Object::HorizontalPodAutoscaler(h) => autoscaling::validate_hpa(c, h),
        Object::PersistentVolumeClaim(pvc) => self::core::validate_claim(c, pvc, old),
        Object::PersistentVolume(v) => self::core::validate_persistent_volume(c, v),
        Object::StorageClass(sc) => storage::validate_storage_class(c, sc, old),
        Object::Job(j) => batch::validate_job(c, j, old),
        Object::CronJob(cj) => batch::validate_cron_job(c, cj, old),
        Object::ResourceQuota(q) => self::core::validate_resource_quota(c, q),
        Object::LimitRange(lr) => c.extend(super::limit_ranger::validate_limit_range(lr)),
        Object::Role(r) => rbac::validate_role(c, r),
        Object::ClusterRole(r) => rbac::validate_cluster_role(c, r),
        Object::RoleBinding(b) => rbac::validate_role_binding(c, b, old),
        Object::ClusterRoleBinding(b) => rbac::validate_cluster_role_binding(c, b, old),
        Object::Service(svc) => self::core::validate_service_object(c, svc, old),
        Object::Ingress(i) => networking::validate_ingress(c, i, old.is_none()),
        Object::IngressClass(ic) => networking::validate_ingress_class(c, ic, old),
        Object::NetworkPolicy(np) => networking::validate_network_policy(c, np),
        Object::ServiceCIDR(sc) => service_cidr::validate_service_cidr(c, sc, old),
        Object::IPAddress(ip) => service_cidr::validate_ip_address(c, ip, old),
        Object::ValidatingAdmissionPolicy(p) => admissionregistration::validate_policy(c, p),
        Object::ValidatingAdmissionPolicyBinding(b) => {
            admissionregistration::validate_binding(c, b)
        }
        Object::ValidatingWebhookConfiguration(w) => webhooks::validate_webhook_configuration(c, w),
        Object::CustomResourceDefinition(d) => {
            let old = match old {
                Some(Object::CustomResourceDefinition(o)) => Some(&**o),
                _ => None,
            };
            apiextensions::validate_crd(c, d, old)
        }
        _ => {}
    }
    if causes.is_empty() {
        Ok(())
    } else {
        Err(ApiError::invalid(obj.kind(), &obj.meta().name, &causes))
    }
}

/// Whether `s` is a qualified name (`IsQualifiedName`: `[prefix/]name`), as an
/// audit annotation's key must be.
pub(in crate::apiserver) fn qualified_name_ok(s: &str) -> bool {
    names::qualified_name_errors(s).is_empty()
}
