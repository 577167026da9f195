//! The data plane as the traffic, the devices and `sim message` meet it: which nodes
//! are up, how a Pod answers a connection, which run of its application a Pod holds;
//! and the commands that start devices and send one message.

use super::*;
use crate::kubelet::Kubelet;

/// What a connection meets, read from the cluster at one moment.
pub(crate) struct World<'a> {
    /// The objects.
    pub store: &'a Store,
    /// The world's faults (hung applications, slow starts).
    pub faults: &'a crate::faults::Faults,
    /// Every node's kubelet.
    pub kubelets: &'a BTreeMap<String, Kubelet>,
    /// Now.
    pub now: SimTime,
}

impl World<'_> {
    /// Whether node `n` is powered on.
    pub fn node_up(&self, n: &str) -> bool {
        self.kubelets.get(n).is_some_and(|k| k.up)
    }

    /// How endpoint `e` answers a connection from `from`.
    pub fn answer(
        &self,
        e: &crate::proxy::RuleEndpoint,
        from: crate::proxy::Client<'_>,
    ) -> crate::proxy::Answer {
        // The network plugin drops what a NetworkPolicy does not allow, before the Pod
        // sees it.
        if !policy_allows(self.store, e, from) {
            return crate::proxy::Answer::Silent;
        }
        match self.kubelets.get(&e.node) {
            Some(k) => k.answer(self.store, self.faults, &e.uid, self.now),
            // A node that is gone: nothing answers at that address.
            None => crate::proxy::Answer::Silent,
        }
    }

    /// The run of the application in Pod `uid` (its container's start; empty when
    /// none runs), or None when the Pod is gone.
    pub fn instance(&self, uid: &str) -> Option<String> {
        let (_, key) = self.store.by_uid(uid)?;
        let pod = self.store.get::<Pod>(key)?;
        let run = pod
            .status
            .container_statuses
            .first()
            .and_then(|s| s.state.running.as_ref())
            .map(|r| r.started_at.clone())
            .unwrap_or_default();
        Some(run)
    }
}

impl Cluster {
    /// `sim devices N service/NAME`: the Service has `n` devices (0: none).
    pub fn set_devices(&mut self, key: &ObjKey, n: u32) {
        if n > 0 && !self.proxies.apps.contains_key(key) {
            self.proxies
                .apps
                .insert(key.clone(), crate::app::App::new(crate::app::Store::Memory));
        }
        if let Some((at, t)) = self.proxies.set_devices(key, n, self.now, &mut self.rng) {
            self.push_timer(at, Timer::Proxy(t));
        }
    }

    /// `sim message`: send `m` to Service `key` now, entering at the first node up (or
    /// `from`).
    pub fn send_message(
        &mut self,
        key: &ObjKey,
        m: &crate::proxy::Message,
        from: Option<&str>,
    ) -> Result<String, String> {
        let w = World {
            store: &self.store,
            faults: &self.faults,
            kubelets: &self.kubelets,
            now: self.now,
        };
        let entry = match from {
            Some(n) => n.to_string(),
            None => self
                .kubelets
                .iter()
                .find(|(_, k)| k.up)
                .map(|(n, _)| n.clone())
                .unwrap_or_default(),
        };
        let node_up = |n: &str| w.node_up(n);
        let answer =
            |e: &crate::proxy::RuleEndpoint, from: crate::proxy::Client<'_>| w.answer(e, from);
        let out =
            self.proxies
                .send_message(key, m, &entry, self.now, &mut self.rng, &node_up, &answer);
        // Its device's delivery and acknowledgement happen at the traffic's ticks.
        if let Some((at, t)) = self.proxies.arm_tick_now(self.now) {
            self.push_timer(at, Timer::Proxy(t));
        }
        out
    }
}

/// Whether the NetworkPolicies let a connection from `from` reach endpoint `e` (its
/// first port): from the sending Pod, or else from the entry node's host network.
fn policy_allows(
    store: &Store,
    e: &crate::proxy::RuleEndpoint,
    from: crate::proxy::Client<'_>,
) -> bool {
    if store.count(Kind::NetworkPolicy) == 0 {
        return true;
    }
    let Some(to) = store.get::<Pod>(&e.pod) else {
        return true;
    };
    let port = e.ports.first().map_or(0, |p| p.1);
    let src = from.pod.and_then(|k| store.get::<Pod>(k));
    let node_ip = store
        .get::<Node>(&ObjKey::new("", from.node))
        .and_then(|n| n.status.addresses.iter().find(|a| a.type_ == "InternalIP"))
        .map(|a| a.address.clone())
        .unwrap_or_default();
    let peer = match src {
        Some(p) => crate::proxy::Peer::Pod(p),
        None => crate::proxy::Peer::Host(from.node, &node_ip),
    };
    crate::proxy::allows(store, peer, to, port)
}
