//! What each running API server keeps about itself in the API, every 10 s:
//!
//! - **its identity Lease** in `kube-system`, `apiserver-<hash>` (the hash of its
//!   hostname and `kube-apiserver`), labelled `apiserver.kubernetes.io/identity:
//!   kube-apiserver` and `kubernetes.io/hostname: <host>`, held by `<lease name>_<uuid>`
//!   (a new uuid each time the process starts), lasting an hour and renewed every 10 s.
//!   Every hour each API server deletes the identity Leases that have expired (a replica
//!   removed for good).
//! - **its address in the `kubernetes` Service's endpoints**: the lease endpoint
//!   reconciler writes the Endpoints (and, through its adapter, the EndpointSlice) with
//!   the addresses of every API server that runs, sorted, and writes only when that set
//!   changed. A replica that stops (`sim apiserver down NAME`) takes its address out
//!   as its shutdown does; the last one stopping is the API server down, which writes
//!   nothing (`cluster::outage`).
//!
//! Upstream: `pkg/controlplane/apiserver/server.go` (the
//! `start-kube-apiserver-identity-lease-controller` and `…-garbage-collector` hooks,
//! `IdentityLeaseRenewIntervalPeriod`, `IdentityLeaseDurationSeconds`,
//! `IdentityLeaseGCPeriod`, `labelAPIServerHeartbeatFunc`),
//! `staging/src/k8s.io/apiserver/pkg/server/config.go` (the id: `"apiserver-" +
//! base32(sha256(len-prefixed hostname, "kube-apiserver"))[:16 bytes]`, lowercased),
//! `staging/src/k8s.io/component-helpers/apimachinery/lease/controller.go`,
//! `pkg/controlplane/apiserver/apiserverleasegc`, `pkg/controlplane/reconcilers/lease.go`
//! (`doReconcile`: sorted master IPs, written only when they changed).

use super::apiservers::MAX_APISERVERS;
use super::*;
use crate::api::{Endpoint, EndpointAddress, EndpointConditions, EndpointSlice, Endpoints};
use crate::time::SECOND;

/// `IdentityLeaseRenewIntervalPeriod`: 10 s.
pub const IDENTITY_LEASE_RENEW_INTERVAL: SimTime = 10 * SECOND;
/// `IdentityLeaseDurationSeconds`: an hour.
pub const IDENTITY_LEASE_DURATION_SECONDS: i64 = 3600;
/// `IdentityLeaseGCPeriod`: an hour.
pub const IDENTITY_LEASE_GC_PERIOD: SimTime = 3600 * SECOND;
/// The identity label's key (`IdentityLeaseComponentLabelKey`).
pub const IDENTITY_LABEL: &str = "apiserver.kubernetes.io/identity";

/// Each control-plane host's API server id, as `config.go` derives it from the
/// hostname: `python3 -c 'import hashlib,base64,struct; h=b"control-plane-1";
/// d=struct.pack(">H",len(h))+h+struct.pack(">H",14)+b"kube-apiserver";
/// print(base64.b32encode(hashlib.sha256(d).digest()[:16]).decode().rstrip("=").lower())'`.
const IDS: [&str; MAX_APISERVERS] = [
    "apiserver-ktnciuvxljjqohol43g65rthde",
    "apiserver-i4xffy4akgtjq4cbary7c3zksu",
    "apiserver-fanvma7glyv2e3akjpior4syre",
    "apiserver-j4kxz4j4232qlo7fe4nwbco63m",
    "apiserver-m2nr7h5i73hmyt6fz6vzkmxvdu",
];

/// The RNG salt of the holders' uuids (so the cluster's seeded stream stays as it was).
const RNG_SALT: u64 = 0x6170_6964;

/// Replica `i`'s API server id, its identity Lease's name.
pub fn apiserver_id(i: usize) -> &'static str {
    IDS[i.min(MAX_APISERVERS - 1)]
}

/// Replica `i`'s advertised address: the control plane's for the first, then
/// `10.0.255.N` (above any node's address).
pub fn replica_address(i: usize) -> String {
    if i == 0 {
        API_SERVER_ADDRESS.to_string()
    } else {
        format!("10.0.255.{}", i + 1)
    }
}

/// Each replica's process: its holder identity and an epoch that retires the timers
/// of a stopped process.
#[derive(Clone, Debug, Default)]
pub struct Identities {
    holders: Vec<String>,
    epochs: Vec<u64>,
    next_gc: SimTime,
    rng: Option<Rng>,
}

impl Identities {
    /// Replica `i`'s holder identity, once it has started.
    pub fn holder(&self, i: usize) -> Option<&str> {
        self.holders
            .get(i)
            .map(String::as_str)
            .filter(|h| !h.is_empty())
    }
}

impl Cluster {
    /// Replica `i`'s process starts (at the cluster's start, or `sim apiserver up`):
    /// a new holder identity; its heartbeat runs now and every 10 s.
    pub(super) fn start_apiserver_identity(&mut self, i: usize) {
        let seed = self.seed ^ RNG_SALT;
        let ids = &mut self.apiserver_ids;
        let uuid = ids.rng.get_or_insert_with(|| Rng::new(seed)).uuid_v4();
        if ids.holders.len() <= i {
            ids.holders.resize(i + 1, String::new());
            ids.epochs.resize(i + 1, 0);
        }
        ids.holders[i] = format!("{}_{uuid}", apiserver_id(i));
        ids.epochs[i] += 1;
        if ids.next_gc == 0 {
            ids.next_gc = self.now + IDENTITY_LEASE_GC_PERIOD;
        }
        let epoch = ids.epochs[i];
        self.apiserver_heartbeat(i, epoch);
    }

    /// Replica `i`'s process stops: its timers retire, and, while another serves, its
    /// shutdown takes its address out of the `kubernetes` endpoints.
    pub(super) fn stop_apiserver_identity(&mut self, i: usize) {
        if let Some(e) = self.apiserver_ids.epochs.get_mut(i) {
            *e += 1;
        }
        if self.apiservers.up() > 0 && self.unavailable().is_none() {
            self.reconcile_kubernetes_endpoints();
        }
    }

    /// Replica `i`'s 10 s heartbeat: renew (or create) its identity Lease, reconcile
    /// the `kubernetes` endpoints, collect expired identity Leases once an hour.
    pub(super) fn apiserver_heartbeat(&mut self, i: usize, epoch: u64) {
        if self.apiserver_ids.epochs.get(i) != Some(&epoch) {
            return;
        }
        if self.unavailable().is_none() {
            self.renew_identity_lease(i);
            self.reconcile_kubernetes_endpoints();
            if self.now >= self.apiserver_ids.next_gc {
                self.apiserver_ids.next_gc = self.now + IDENTITY_LEASE_GC_PERIOD;
                self.collect_expired_identity_leases();
            }
        }
        self.push_timer(
            self.now + IDENTITY_LEASE_RENEW_INTERVAL,
            Timer::ApiServer(i, epoch),
        );
    }

    /// The lease controller's `sync`: renew the Lease it holds, or create it.
    fn renew_identity_lease(&mut self, i: usize) {
        let holder = self.apiserver_ids.holders[i].clone();
        let key = ObjKey::new("kube-system", apiserver_id(i));
        let mut lease = self.store.get::<Lease>(&key).cloned().unwrap_or_default();
        let create = lease.metadata.name.is_empty();
        lease.metadata.name = key.name.clone();
        lease.metadata.namespace = key.namespace.clone();
        // `labelAPIServerHeartbeatFunc`.
        lease
            .metadata
            .labels
            .insert(IDENTITY_LABEL.into(), "kube-apiserver".into());
        lease.metadata.labels.insert(
            "kubernetes.io/hostname".into(),
            format!("control-plane-{}", i + 1),
        );
        lease.spec.holder_identity = holder;
        lease.spec.lease_duration_seconds = IDENTITY_LEASE_DURATION_SECONDS;
        lease.spec.renew_time = Some(crate::time::rfc3339_micro(self.now));
        lease.spec.renew_ms = self.now;
        let who = Component::named(writer::KUBE_APISERVER);
        if !create {
            let _ = self.submit(&who, Request::Update(Object::Lease(lease)));
            return;
        }
        // Its uid from the identities' own RNG, as the holders' uuids.
        let seed = self.seed ^ RNG_SALT;
        let mut own = self
            .apiserver_ids
            .rng
            .take()
            .unwrap_or_else(|| Rng::new(seed));
        std::mem::swap(&mut self.rng, &mut own);
        let _ = self.submit(
            &who,
            Request::Create {
                object: Object::Lease(lease),
                event: None,
            },
        );
        std::mem::swap(&mut self.rng, &mut own);
        self.apiserver_ids.rng = Some(own);
    }

    /// `apiserverleasegc`: delete the identity Leases whose renewal is older than their
    /// duration.
    fn collect_expired_identity_leases(&mut self) {
        let now = self.now;
        let expired: Vec<ObjKey> = self
            .store
            .list_ns::<Lease>("kube-system")
            .filter(|l| {
                l.metadata.labels.get(IDENTITY_LABEL).map(String::as_str) == Some("kube-apiserver")
            })
            .filter(|l| {
                let d = (l.spec.lease_duration_seconds.max(0) as SimTime).saturating_mul(SECOND);
                l.spec.renew_ms.saturating_add(d) < now
            })
            .map(|l| ObjKey::of(&l.metadata))
            .collect();
        for key in expired {
            let _ = self.submit(
                &Component::named(writer::KUBE_APISERVER),
                Request::Delete {
                    kind: Kind::Lease,
                    key,
                    options: Default::default(),
                    event: None,
                },
            );
        }
    }

    /// The lease endpoint reconciler's `doReconcile`: the `kubernetes` Endpoints and
    /// EndpointSlice list every running API server's address, sorted; written only
    /// when that differs from what they list.
    fn reconcile_kubernetes_endpoints(&mut self) {
        let mut ips: Vec<String> = (0..self.apiservers.replicas)
            .filter(|i| !self.apiservers.down.contains(i))
            .map(replica_address)
            .collect();
        ips.sort();
        let key = ObjKey::new("default", "kubernetes");
        let who = Component::named(writer::KUBE_APISERVER);
        if let Some(mut ep) = self.store.get::<Endpoints>(&key).cloned() {
            let listed: Vec<&str> = ep
                .subsets
                .iter()
                .flat_map(|s| s.addresses.iter().map(|a| a.ip.as_str()))
                .collect();
            if listed != ips.iter().map(String::as_str).collect::<Vec<_>>() {
                if let Some(subset) = ep.subsets.first_mut() {
                    subset.addresses = ips
                        .iter()
                        .map(|ip| EndpointAddress {
                            ip: ip.clone(),
                            ..Default::default()
                        })
                        .collect();
                }
                let _ = self.submit(&who, Request::Update(ep.into()));
            }
        }
        if let Some(mut slice) = self.store.get::<EndpointSlice>(&key).cloned() {
            let listed: Vec<&str> = slice
                .endpoints
                .iter()
                .flatten()
                .flat_map(|e| e.addresses.iter().map(String::as_str))
                .collect();
            if listed != ips.iter().map(String::as_str).collect::<Vec<_>>() {
                slice.endpoints = Some(
                    ips.iter()
                        .map(|ip| Endpoint {
                            addresses: vec![ip.clone()],
                            conditions: EndpointConditions {
                                ready: Some(true),
                                ..Default::default()
                            },
                            ..Default::default()
                        })
                        .collect(),
                );
                let _ = self.submit(&who, Request::Update(slice.into()));
            }
        }
    }
}
