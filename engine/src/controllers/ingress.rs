//! The ingress controller (not part of Kubernetes: an add-on every real cluster that
//! serves Ingresses installs). kubeplay's behaves as ingress-nginx does with its
//! defaults: it implements the IngressClasses whose `spec.controller` is
//! `k8s.io/ingress-nginx`, ignores Ingresses of other classes and those without a
//! class (`--watch-ingress-without-class=false`), records a `Sync` Event when it takes
//! an Ingress's configuration, and publishes the address it is reached at in the
//! Ingress's `status.loadBalancer` (the first node's InternalIP: a bare-metal install
//! reached through the nodes). The routing it then does is the traffic model's
//! (`crate::proxy::ingress`).
//!
//! Upstream: kubernetes/ingress-nginx `internal/ingress/controller/store` (class
//! filtering) and `internal/ingress/status` (the status sync).

use super::{Controller, Ctx, NoTimer, Reconcile};
use crate::api::*;
use crate::apiserver::{Change, ObjKey, Store};
use crate::client::{event_ref, writer, Component, Request};
use std::collections::BTreeMap;

/// The `spec.controller` of the classes it implements.
pub const INGRESS_NGINX_CONTROLLER: &str = "k8s.io/ingress-nginx";

/// Whether kubeplay's ingress controller implements `ing`: its class (field, or the
/// deprecated annotation) is an IngressClass of [`INGRESS_NGINX_CONTROLLER`].
pub fn implements(store: &Store, ing: &Ingress) -> bool {
    let Some(class) = ing.class_name() else {
        return false;
    };
    store
        .get::<IngressClass>(&ObjKey::new("", class))
        .is_some_and(|ic| ic.spec.controller == INGRESS_NGINX_CONTROLLER)
}

/// The address it publishes: the first node's InternalIP.
fn published_address(store: &Store) -> Option<String> {
    let node = store.node_at(0)?;
    node.status
        .addresses
        .iter()
        .find(|a| a.type_ == "InternalIP")
        .map(|a| a.address.clone())
}

/// The ingress controller: the generation of each Ingress (by uid) it has configured.
#[derive(Clone, Debug, Default)]
pub struct IngressController {
    synced: BTreeMap<String, i64>,
}

impl Controller for IngressController {
    type Key = ObjKey;
    type Timer = NoTimer;
    const WATCHES: &'static [Kind] = &[Kind::Ingress, Kind::IngressClass];

    fn identity() -> Component {
        Component::named(writer::INGRESS_NGINX)
    }

    /// An Ingress added or changed, or a class changed (every Ingress may have
    /// joined or left it).
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, NoTimer>) {
        match ch.kind {
            Kind::Ingress => match (&ch.new, &ch.old) {
                (Some(_), _) => ctx.enqueue(ch.key.clone()),
                (None, Some(old)) => {
                    self.synced.remove(&old.meta().uid);
                }
                (None, None) => {}
            },
            Kind::IngressClass => {
                let keys: Vec<ObjKey> = ctx
                    .store
                    .list::<Ingress>()
                    .map(|i| ObjKey::of(&i.metadata))
                    .collect();
                for k in keys {
                    ctx.enqueue(k);
                }
            }
            _ => {}
        }
    }

    /// Take the Ingress's configuration (a `Sync` Event when its spec is new to it)
    /// and publish the address, or withdraw it from an Ingress no longer its own.
    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, NoTimer>) -> Reconcile {
        let Some(ing) = ctx.store.get::<Ingress>(key) else {
            return Reconcile::default();
        };
        let ours = implements(ctx.store, ing) && !ing.metadata.is_deleting();
        let address = published_address(ctx.store);
        let want: Vec<IngressLoadBalancerIngress> = match (&address, ours) {
            (Some(ip), true) => vec![IngressLoadBalancerIngress {
                ip: ip.clone(),
                ..Default::default()
            }],
            _ => Vec::new(),
        };
        let mut requests = Vec::new();
        // A spec it has not configured yet (new, or changed since) is announced as
        // ingress-nginx announces a configuration it takes.
        let generation = ing.metadata.generation;
        if ours && self.synced.get(&ing.metadata.uid) != Some(&generation) {
            self.synced.insert(ing.metadata.uid.clone(), generation);
            requests.push(Request::Event {
                involved: event_ref(Kind::Ingress, &ing.metadata),
                type_: EventType::Normal,
                reason: "Sync".into(),
                message: "Scheduled for sync".into(),
            });
        }
        if ing.status.load_balancer.ingress != want {
            let mut updated = ing.clone();
            updated.status.load_balancer.ingress = want;
            requests.push(Request::UpdateStatus(Object::Ingress(Box::new(updated))));
        }
        Reconcile {
            requests,
            requeue_after: None,
        }
    }
}
