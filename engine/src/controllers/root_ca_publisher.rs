//! The root CA publisher: every namespace holds the `kube-root-ca.crt` ConfigMap with
//! the cluster's CA bundle, which the ServiceAccount token volume projects into Pods
//! as `ca.crt`. A ConfigMap changed or deleted by hand is put back.
//!
//! Upstream: `pkg/controller/certificates/rootcacertpublisher/publisher.go`
//! (`syncNamespace`: create the ConfigMap when missing; otherwise make its data and
//! its description annotation match). Upstream tries the create in a terminating
//! namespace and ignores the refusal; here the sync skips such a namespace, with the
//! same outcome.

use super::{Controller, Ctx, NoTimer, Reconcile};
use crate::api::*;
use crate::apiserver::{Change, ObjKey};
use crate::client::{writer, Component, Request};

/// Its annotation.
pub const DESCRIPTION_ANNOTATION: &str = "kubernetes.io/description";
/// Its annotation's text.
pub const DESCRIPTION: &str = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.";

/// The cluster's CA certificate (`CN=kubernetes`, as kubeadm names it). Its key was
/// never kept: nothing in the simulation signs with it.
pub const ROOT_CA_CERT: &str = include_str!("root_ca.crt");

/// The ConfigMap as the publisher creates it in `namespace`.
pub fn root_ca_config_map(namespace: &str) -> ConfigMap {
    let mut metadata = ObjectMeta {
        name: ROOT_CA_CONFIG_MAP.into(),
        namespace: namespace.into(),
        ..Default::default()
    };
    metadata
        .annotations
        .insert(DESCRIPTION_ANNOTATION.into(), DESCRIPTION.into());
    ConfigMap {
        metadata,
        data: root_ca_data(),
        ..Default::default()
    }
}

fn root_ca_data() -> StringMap {
    [("ca.crt".to_string(), ROOT_CA_CERT.to_string())].into()
}

/// The root CA publisher (stateless: its work queue is the cluster's).
#[derive(Clone, Debug, Default)]
pub struct RootCaPublisher;

impl Controller for RootCaPublisher {
    type Key = ObjKey;
    type Timer = NoTimer;
    const WATCHES: &'static [Kind] = &[Kind::ConfigMap, Kind::Namespace];

    fn identity() -> Component {
        Component::named(writer::ROOT_CA_CERT_PUBLISHER)
    }

    /// A namespace added or updated, or its `kube-root-ca.crt` updated or deleted.
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, NoTimer>) {
        match ch.kind {
            Kind::Namespace => {
                if let Some(n) = ch.new.as_deref() {
                    ctx.enqueue(ObjKey::new("", &n.meta().name));
                }
            }
            Kind::ConfigMap if ch.old.is_some() => {
                let m = ch.old.as_deref().map(|o| o.meta());
                if let Some(m) = m.filter(|m| m.name == ROOT_CA_CONFIG_MAP) {
                    ctx.enqueue(ObjKey::new("", &m.namespace));
                }
            }
            _ => {}
        }
    }

    /// `syncNamespace`.
    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, NoTimer>) -> Reconcile {
        let Some(ns) = ctx.store.get::<Namespace>(key) else {
            return Reconcile::default();
        };
        if ns.metadata.is_deleting() {
            return Reconcile::default();
        }
        let data = root_ca_data();
        let cm_key = ObjKey::new(&key.name, ROOT_CA_CONFIG_MAP);
        let request = match ctx.store.get::<ConfigMap>(&cm_key) {
            None => Request::Create {
                object: Object::ConfigMap(root_ca_config_map(&key.name)),
                event: None,
            },
            Some(cm)
                if cm.data == data
                    && cm
                        .metadata
                        .annotations
                        .get(DESCRIPTION_ANNOTATION)
                        .is_some_and(|d| !d.is_empty()) =>
            {
                return Reconcile::default();
            }
            Some(cm) => {
                let mut cm = cm.clone();
                cm.data = data;
                cm.metadata
                    .annotations
                    .insert(DESCRIPTION_ANNOTATION.into(), DESCRIPTION.into());
                Request::Update(Object::ConfigMap(cm))
            }
        };
        Reconcile {
            requests: vec![request],
            requeue_after: None,
        }
    }
}
