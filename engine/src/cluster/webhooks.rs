//! The network as the API server's webhook calls meet it: for each Service a
//! ValidatingWebhookConfiguration names, its cluster IP and how each endpoint
//! kube-proxy would send a connection to answers one from the API server
//! (`apiserver::webhook::WebhookNet`). Worked out for each request only while a
//! configuration exists.

use super::connections::World;
use super::*;
use crate::apiserver::webhook::{Dial, Reach, WebhookNet};
use std::sync::Arc;

impl Cluster {
    /// How each webhook's Service answers now (None without configurations).
    pub(super) fn webhook_net(&self) -> Option<Arc<WebhookNet>> {
        if self.store.count(Kind::ValidatingWebhookConfiguration) == 0 {
            return None;
        }
        let w = World {
            store: &self.store,
            faults: &self.faults,
            kubelets: &self.kubelets,
            now: self.now,
        };
        let mut net = WebhookNet::default();
        for c in self.store.list::<ValidatingWebhookConfiguration>() {
            for hook in &c.webhooks {
                let Some(s) = &hook.client_config.service else {
                    continue;
                };
                let key = ObjKey::new(&s.namespace, &s.name);
                let port = s.port.filter(|p| *p != 0).unwrap_or(443);
                if net.services.contains_key(&(key.clone(), port)) {
                    continue;
                }
                let dial = dial(&w, &key, port);
                net.services.insert((key, port), dial);
            }
        }
        Some(Arc::new(net))
    }
}

/// `ResolveCluster`, then kube-proxy's choice and the endpoint's answer.
fn dial(w: &World<'_>, key: &ObjKey, port: i32) -> Dial {
    let Some(svc) = w.store.get::<Service>(key) else {
        return Dial::NoService;
    };
    if svc.spec.type_ == "ExternalName" {
        let name = svc.spec.extra.get("externalName").and_then(|v| v.as_str());
        return Dial::External(name.unwrap_or_default().to_string());
    }
    if svc.is_headless() || svc.spec.cluster_ip.is_empty() {
        return Dial::Headless;
    }
    if !svc.spec.ports.iter().any(|p| p.port == i64::from(port)) {
        return Dial::NoPort;
    }
    let ip = svc.spec.cluster_ip.clone();
    let Some(rules) = crate::proxy::rules_for(w.store, key) else {
        return Dial::Headless;
    };
    // The API server is on no worker node: its connections enter from outside any
    // zone, and `internalTrafficPolicy: Local` finds no local endpoint.
    let endpoints = match crate::proxy::internal_endpoints(&rules, "", "") {
        crate::proxy::Reachable::Rejected => Vec::new(),
        crate::proxy::Reachable::Dropped => {
            return Dial::Endpoints {
                ip,
                endpoints: Vec::new(),
                dropped: true,
            }
        }
        crate::proxy::Reachable::To(eps) => eps
            .into_iter()
            .map(|e| {
                let from = crate::proxy::Client {
                    node: "",
                    pod: None,
                };
                let reach = match w.answer(e, from) {
                    crate::proxy::Answer::Accept => Reach::Answers,
                    crate::proxy::Answer::Refuse => Reach::Refused,
                    crate::proxy::Answer::Reset => Reach::Reset,
                    crate::proxy::Answer::Silent => Reach::Silent,
                };
                (e.pod.clone(), reach)
            })
            .collect(),
    };
    Dial::Endpoints {
        ip,
        endpoints,
        dropped: false,
    }
}
