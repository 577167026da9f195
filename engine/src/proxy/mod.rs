//! kube-proxy, one per node, and the traffic a learner sends through it.
//!
//! **The rules.** Each node's kube-proxy programs what it last saw of the Services and
//! their EndpointSlices. It sees a change about a second later: upstream's proxier
//! syncs at most once per `minSyncPeriod` (1 s) after a change reaches its informers
//! (`pkg/proxy/iptables/proxier.go`, `pkg/proxy/endpointslicecache.go`). A node cut off
//! from the API server keeps the rules it had and routes by them. A powered-off node's
//! rules cannot be used (traffic through it times out) and its kube-proxy programs the
//! current ones when it starts again, so none are kept for it: a tenth of the envelope's
//! nodes off for ten minutes would otherwise hold every version of every Service's rules.
//!
//! Rules are not copied per node (that would be nodes × endpoints work per change).
//! Every sync appends a version of the changed Services' rules to one shared history;
//! a node that syncs follows the newest version, a cut-off node stays at the version
//! it had when it was cut off, and reads each Service's rules as of that version.
//!
//! **Choosing an endpoint** (`pkg/proxy/topology.go` `CategorizeEndpoints`): the ready
//! endpoints; when there are none, the serving and terminating ones; when there are
//! none of those either, the Service has no endpoints and the connection is rejected
//! at once (`REJECT`: connection refused). An endpoint is picked at random, as the
//! iptables rules' probabilities do.
//!
//! **What happens to a request** depends on the world, not the rules: a Pod whose node
//! is off or cut off does not answer (timeout); a Pod whose container is not running
//! refuses the connection; a Pod that was told to stop (TERM sent, after its preStop
//! hook) resets it; a hung application times out. Clients retry a failed request on
//! another pick (`--retries`, default 2). Simplification: a retry is decided against
//! the world as it is at the first attempt's time, its delay (the timeout or the
//! refusal) only counted in the latency.
//!
//! The files: [`rules`] is kube-proxy (the shared versioned rules, `CategorizeEndpoints`);
//! [`traffic`] the traffic generator and what a request meets; [`policy`] the
//! NetworkPolicies a network plugin enforces on each connection; [`ingress`] how an
//! ingress controller picks a request's backend; [`report`] the traffic's
//! per-second series as `sim traffic` prints it.
//!
//! Not part of Kubernetes' objects: nothing here writes the API server.

mod device_report;
pub mod devices;
pub mod ingress;
mod message;
mod policy;
mod report;
mod rules;
mod traffic;

pub use message::Message;
pub use policy::{allows, Peer};
pub use rules::{
    categorize_endpoints, internal_endpoints, rules_for, Reachable, RuleEndpoint, ServiceRules,
};
pub use traffic::{
    Answer, Bucket, Client, Flow, Outcome, PodHits, CLIENTS, DEFAULT_CPU_PER_REQUEST_US,
};

use crate::apiserver::ObjKey;
use crate::time::{SimTime, SECOND};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use traffic::AffinityKey;

/// How long after a change a kube-proxy has programmed it (`minSyncPeriod`).
pub const PROPAGATION: SimTime = SECOND;

/// Request lines kept per Pod.
pub const LOG_LINES: usize = 200;

/// Seconds `sim expect traffic/NAME {.recent…}` looks back over.
pub const RECENT_SECONDS: u64 = 10;

/// How often the traffic generator sends a batch of requests.
pub const TRAFFIC_TICK: SimTime = 100;

/// A Service's rules as of one sync (None: the Service was gone).
type RulesVersion = (u64, Option<Arc<ServiceRules>>);

/// Every node's kube-proxy, the traffic flows, and what the traffic met.
#[derive(Clone, Debug, Default)]
pub struct Proxies {
    history: BTreeMap<ObjKey, Vec<RulesVersion>>,
    /// EndpointSlice names by their Service.
    slices: BTreeMap<ObjKey, BTreeSet<String>>,
    version: u64,
    dirty: BTreeSet<ObjKey>,
    sync_armed: bool,
    /// Nodes holding on to an older version (powered off or cut off at a sync).
    frozen: BTreeMap<String, u64>,
    /// Running flows by Service.
    pub flows: BTreeMap<ObjKey, Flow>,
    /// Per Service, per simulated second: what its requests met.
    pub series: BTreeMap<ObjKey, BTreeMap<u64, Bucket>>,
    /// The application behind a Service, when one is modelled (`sim app`).
    pub apps: BTreeMap<ObjKey, crate::app::App>,
    /// The devices holding connections to a Service's Pods (`sim devices`).
    pub devices: BTreeMap<ObjKey, devices::Devices>,
    /// Request lines each Pod's application logged (by Pod uid; the last
    /// [`LOG_LINES`] of each), read by `kubectl logs`.
    pub logs: BTreeMap<String, std::collections::VecDeque<(SimTime, String)>>,
    /// Per Service and Pod name: what its attempts met lately (entries older than
    /// three seconds are dropped once a second).
    pub hits: BTreeMap<(ObjKey, String), PodHits>,
    hits_pruned: u64,
    /// `sessionAffinity: ClientIP`: each client's endpoint (uid) and when it last went.
    affinity: BTreeMap<AffinityKey, (String, SimTime)>,
    tick_armed: bool,
    /// Each node's `topology.kubernetes.io/zone`, as its kube-proxy reads it.
    zones: BTreeMap<String, String>,
}

/// What the proxies ask of the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProxyTimer {
    /// Every connected kube-proxy programs the changes it has seen.
    Sync,
    /// Send the next batch of requests.
    Traffic,
}
