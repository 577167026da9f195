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
//! Not part of Kubernetes' objects: nothing here writes the API server.

use crate::api::*;
use crate::apiserver::{ObjKey, Store};
use crate::rng::Rng;
use crate::time::{SimTime, SECOND};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// How long after a change a kube-proxy has programmed it (`minSyncPeriod`).
pub const PROPAGATION: SimTime = SECOND;

/// Request lines kept per Pod.
pub const LOG_LINES: usize = 200;

/// Seconds `sim expect traffic/NAME {.recent…}` looks back over.
pub const RECENT_SECONDS: u64 = 10;

/// How often the traffic generator sends a batch of requests.
pub const TRAFFIC_TICK: SimTime = 100;

/// One endpoint as a proxy's rules hold it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleEndpoint {
    /// The Pod's IP.
    pub ip: String,
    /// The Pod.
    pub pod: ObjKey,
    /// The Pod's uid.
    pub uid: String,
    /// The Pod's node.
    pub node: String,
    /// The port per Service port name.
    pub ports: Vec<(String, i64)>,
    /// Conditions as the slice said.
    pub ready: bool,
    /// Serving.
    pub serving: bool,
    /// Terminating.
    pub terminating: bool,
}

/// A Service as a proxy's rules hold it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceRules {
    /// The cluster IP (`None` for headless: no rules).
    pub cluster_ip: String,
    /// (name, port, nodePort) per Service port.
    pub ports: Vec<(String, i64, i64)>,
    /// Every endpoint of every slice.
    pub endpoints: Vec<RuleEndpoint>,
    /// `sessionAffinity: ClientIP`: how long (s) a client stays with the endpoint it
    /// was sent to (`sessionAffinityConfig.clientIP.timeoutSeconds`, 10800 by default).
    pub affinity_seconds: Option<u64>,
}

/// The simulated clients a flow's requests come from, in turn (their source IPs are
/// what `sessionAffinity: ClientIP` keys on).
pub const CLIENTS: u64 = 16;

/// Where `sessionAffinity: ClientIP` keeps a client: per Service, client and node (each
/// node's rules keep their own affinity table, as iptables' `recent` lists do).
type AffinityKey = (ObjKey, u64, String);

/// The outcome of one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// Answered.
    Ok,
    /// The Service had no endpoints in the entry node's rules: rejected.
    NoEndpoints,
    /// The Pod's container was not running: connection refused.
    Refused,
    /// No answer within the client's timeout (node off or cut off, application hung).
    Timeout,
    /// The application was stopping (TERM sent) and reset the connection.
    Reset,
}

impl Outcome {
    /// Every outcome, in report order.
    pub const ALL: [Outcome; 5] = [
        Outcome::Ok,
        Outcome::NoEndpoints,
        Outcome::Refused,
        Outcome::Timeout,
        Outcome::Reset,
    ];

    /// The report's column name.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Ok => "OK",
            Outcome::NoEndpoints => "NO-ENDPOINTS",
            Outcome::Refused => "REFUSED",
            Outcome::Timeout => "TIMEOUT",
            Outcome::Reset => "RESET",
        }
    }
}

/// How a Pod answers a connection, as its node's runtime sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Accepted.
    Accept,
    /// Nothing listens: refused.
    Refuse,
    /// Stopping: reset.
    Reset,
    /// No answer.
    Silent,
}

/// One running request generator (`sim traffic service/NAME --rps N`).
#[derive(Clone, Debug, PartialEq)]
pub struct Flow {
    /// The Service.
    pub service: ObjKey,
    /// Requests per second.
    pub rps: u32,
    /// The node whose kube-proxy the requests enter through; None: every node in turn.
    pub from: Option<String>,
    /// When it stops.
    pub until: SimTime,
    /// The client's timeout per attempt.
    pub timeout: SimTime,
    /// Retries after a failed attempt.
    pub retries: u32,
    /// How long the client waits before each retry (`--retry-after`; 0: at once, on a
    /// new connection, as a plain retry loop does). A delayed retry goes through the
    /// rules as they are then: an endpoint removed meanwhile is not chosen again.
    pub retry_after: SimTime,
    /// Requests waiting to be tried again, oldest first.
    later: std::collections::VecDeque<Pending>,
    /// The CPU time an answered request costs its Pod, in microseconds
    /// ([`crate::metrics::Served`]).
    pub cpu_per_request_us: u64,
    /// Requests owed from earlier ticks (thousandths).
    carry: u64,
    /// The next entry node in turn.
    turn: usize,
    /// Requests sent so far (the client of the next one is `sent % CLIENTS`).
    sent: u64,
}

impl Flow {
    /// A flow of `rps` requests per second to `service` for `duration` (from now,
    /// set when started).
    pub fn new(
        service: ObjKey,
        rps: u32,
        from: Option<String>,
        duration: SimTime,
        timeout: SimTime,
        retries: u32,
    ) -> Self {
        Flow {
            service,
            rps,
            from,
            until: duration,
            timeout,
            retries,
            retry_after: 0,
            later: Default::default(),
            cpu_per_request_us: DEFAULT_CPU_PER_REQUEST_US,
            carry: 0,
            turn: 0,
            sent: 0,
        }
    }
}

/// A request of a flow: where it enters, which client sends it, what it asks the
/// application (a POST of a new message or a GET of an earlier one, by id), how many
/// retries it has had, and when it is (re)tried.
#[derive(Clone, Debug, PartialEq)]
struct Pending {
    due: SimTime,
    entry: String,
    client: u64,
    op: Option<(bool, u64)>,
    tries: u32,
}

/// What an answered request costs its Pod's CPU unless `--cpu-per-request` says: 2 ms,
/// a small web handler's work, so 50 requests per second keep a Pod at 100m.
pub const DEFAULT_CPU_PER_REQUEST_US: u64 = 2_000;

/// Counts of one second of one Service's traffic.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bucket {
    /// Final outcomes, indexed as [`Outcome::ALL`].
    pub outcomes: [u64; 5],
    /// Retries made.
    pub retries: u64,
}

impl Bucket {
    /// Requests that ended.
    pub fn total(&self) -> u64 {
        self.outcomes.iter().sum()
    }

    /// Requests that failed.
    pub fn errors(&self) -> u64 {
        self.total() - self.outcomes[0]
    }
}

/// What one Pod met as an endpoint of one Service: each attempt's outcome, indexed as
/// [`Outcome::ALL`], in the current second and the one before (the chain draws traffic
/// flowing to a Pod, or failing at it, from these).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PodHits {
    /// The second `now` counts.
    pub second: u64,
    /// Attempts in `second`.
    pub now: [u64; 5],
    /// Attempts in the second before.
    pub prev: [u64; 5],
}

impl PodHits {
    fn add(&mut self, second: u64, outcome: usize) {
        if second != self.second {
            self.prev = if second == self.second + 1 {
                self.now
            } else {
                [0; 5]
            };
            self.now = [0; 5];
            self.second = second;
        }
        self.now[outcome] += 1;
    }

    /// Attempts in the last two whole seconds before `now_s` and in `now_s` so far.
    pub fn recent(&self, now_s: u64) -> [u64; 5] {
        let mut out = [0; 5];
        if self.second + 2 >= now_s {
            for (i, o) in out.iter_mut().enumerate() {
                *o = self.now[i]
                    + if self.second + 1 >= now_s {
                        self.prev[i]
                    } else {
                        0
                    };
            }
        }
        out
    }
}

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
}

/// What the proxies ask of the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProxyTimer {
    /// Every connected kube-proxy programs the changes it has seen.
    Sync,
    /// Send the next batch of requests.
    Traffic,
}

impl Proxies {
    /// A Service or EndpointSlice changed: the proxies will see it after
    /// [`PROPAGATION`]. Returns the timer to arm, if one is not already.
    pub fn on_change(
        &mut self,
        kind: Kind,
        old: Option<&Object>,
        new: Option<&Object>,
        key: &ObjKey,
        now: SimTime,
    ) -> Option<(SimTime, ProxyTimer)> {
        let service_of = |o: &Object| {
            o.meta()
                .labels
                .get("kubernetes.io/service-name")
                .map(|n| ObjKey::new(&key.namespace, n))
        };
        let svc = match kind {
            Kind::Service => key.clone(),
            Kind::EndpointSlice => {
                // The informer's index of slices by Service (their label).
                let (before, after) = (old.and_then(service_of), new.and_then(service_of));
                if let Some(b) = &before {
                    if let Some(set) = self.slices.get_mut(b) {
                        set.remove(&key.name);
                    }
                }
                if let Some(a) = &after {
                    self.slices
                        .entry(a.clone())
                        .or_default()
                        .insert(key.name.clone());
                }
                if let Some(b) = before.clone().filter(|b| Some(b) != after.as_ref()) {
                    self.dirty.insert(b);
                }
                after.or(before)?
            }
            _ => return None,
        };
        self.dirty.insert(svc);
        if self.sync_armed {
            return None;
        }
        self.sync_armed = true;
        Some((now + PROPAGATION, ProxyTimer::Sync))
    }

    /// Program the changes seen: a new version of each changed Service's rules, which
    /// every node that can hear the API server follows; the others keep theirs.
    /// `connected(node)`: Some(true) when its kube-proxy hears the API server, Some(false)
    /// when it runs cut off (partitioned), None when it does not run (powered off).
    pub fn sync(
        &mut self,
        store: &Store,
        connected: impl Fn(&str) -> Option<bool>,
        nodes: &[String],
    ) {
        self.sync_armed = false;
        let previous = self.version;
        self.version += 1;
        for key in std::mem::take(&mut self.dirty) {
            let rules = rules_from(store, &key, self.slices.get(&key)).map(Arc::new);
            let h = self.history.entry(key).or_default();
            if h.last().map(|(_, r)| r) != Some(&rules) {
                h.push((self.version, rules));
            }
        }
        for n in nodes {
            match connected(n) {
                // Live, or powered off (no kube-proxy runs; it starts afresh at power
                // on), it follows the newest.
                Some(true) | None => {
                    self.frozen.remove(n);
                }
                // Alive but cut off: it keeps what it had.
                Some(false) => {
                    self.frozen.entry(n.clone()).or_insert(previous);
                }
            }
        }
        self.prune();
    }

    /// Drop rule versions no node can read any more.
    fn prune(&mut self) {
        let oldest = self.frozen.values().min().copied().unwrap_or(self.version);
        for h in self.history.values_mut() {
            // Keep the newest version at or below `oldest`, and everything after it.
            let keep_from = h.iter().rposition(|(v, _)| *v <= oldest).unwrap_or(0);
            h.drain(..keep_from);
        }
        self.history
            .retain(|_, h| !(h.len() == 1 && h[0].1.is_none() && h[0].0 <= oldest));
    }

    /// A node forgets its rules (a new kube-proxy starts on a re-added node): it reads
    /// the newest.
    pub fn node_restarted(&mut self, node: &str) {
        self.frozen.remove(node);
    }

    /// The rules node `node`'s kube-proxy has for Service `key`.
    pub fn rules(&self, node: &str, key: &ObjKey) -> Option<&ServiceRules> {
        let v = self.frozen.get(node).copied().unwrap_or(self.version);
        let h = self.history.get(key)?;
        h.iter()
            .rev()
            .find(|(at, _)| *at <= v)
            .and_then(|(_, r)| r.as_deref())
    }

    /// The endpoint (Pod uid) `sessionAffinity: ClientIP` keeps `client` on when it
    /// enters Service `svc` through `node` (None: no affinity, or none yet).
    pub fn affinity_of(&self, svc: &ObjKey, client: u64, node: &str) -> Option<&str> {
        self.affinity
            .get(&(svc.clone(), client, node.to_string()))
            .map(|(uid, _)| uid.as_str())
    }

    /// Start (or replace) a flow; returns the tick timer to arm, if one is not already.
    pub fn start(&mut self, mut flow: Flow, now: SimTime) -> Option<(SimTime, ProxyTimer)> {
        // `until` arrives as the flow's duration.
        flow.until = now.saturating_add(flow.until);
        self.flows.insert(flow.service.clone(), flow);
        self.arm_tick(now)
    }

    /// Stop a Service's flow.
    pub fn stop(&mut self, key: &ObjKey) -> bool {
        self.flows.remove(key).is_some()
    }

    fn arm_tick(&mut self, now: SimTime) -> Option<(SimTime, ProxyTimer)> {
        if self.tick_armed || self.flows.is_empty() {
            return None;
        }
        self.tick_armed = true;
        Some((now + TRAFFIC_TICK, ProxyTimer::Traffic))
    }

    /// Whether a traffic tick is due: a flow runs.
    pub fn busy(&self) -> bool {
        !self.flows.is_empty()
    }

    /// One tick of every flow: this tick's requests, each through its entry node's
    /// rules to an endpoint, answered as `answer` says. `instance` names a Pod's
    /// running application (its start time; None: the Pod is gone). Returns the next
    /// tick.
    #[allow(clippy::too_many_arguments)]
    pub fn tick(
        &mut self,
        now: SimTime,
        rng: &mut Rng,
        nodes: &[String],
        node_up: impl Fn(&str) -> bool,
        answer: impl Fn(&RuleEndpoint) -> Answer,
        instance: impl Fn(&str) -> Option<String>,
        served: &mut crate::metrics::Served,
    ) -> Option<(SimTime, ProxyTimer)> {
        self.tick_armed = false;
        // Pods gone take their logs with them; Pods gone or whose application
        // restarted, their memory.
        self.logs.retain(|uid, _| instance(uid).is_some());
        served.retain(|uid, s| s.live(now) && instance(uid).is_some());
        for app in self.apps.values_mut() {
            for uid in app.pods() {
                app.observe_instance(&uid, instance(&uid));
            }
        }
        // A tick covers the 100 ms before it: the one at `until` is the last to send
        // new requests; retries still waiting are still made.
        self.flows
            .retain(|_, f| f.until >= now || !f.later.is_empty());
        let this_second = now / SECOND;
        if this_second != self.hits_pruned {
            self.hits_pruned = this_second;
            self.hits.retain(|_, h| h.second + 3 >= this_second);
        }
        let keys: Vec<ObjKey> = self.flows.keys().cloned().collect();
        for key in keys {
            let Some(mut flow) = self.flows.get(&key).cloned() else {
                continue;
            };
            // Retries due first (the client sends them when their wait is over), then
            // this tick's new requests.
            while flow.later.front().is_some_and(|r| r.due <= now) {
                if let Some(r) = flow.later.pop_front() {
                    self.request(&mut flow, &key, r, now, rng, &node_up, &answer, served);
                }
            }
            if now > flow.until {
                self.flows.insert(key, flow);
                continue;
            }
            // rps × 100 ms, in thousandths so that 1 request per second is one in ten ticks.
            flow.carry += u64::from(flow.rps) * TRAFFIC_TICK;
            let n = flow.carry / 1000;
            flow.carry %= 1000;
            for _ in 0..n {
                let entry = match &flow.from {
                    Some(n) => n.clone(),
                    None => {
                        let up: Vec<&String> = nodes.iter().filter(|n| node_up(n)).collect();
                        if up.is_empty() {
                            String::new()
                        } else {
                            flow.turn = (flow.turn + 1) % up.len();
                            up[flow.turn].clone()
                        }
                    }
                };
                // With an application, a new message or (three times in ten, once
                // there are some) an earlier one read back.
                let op = match self.apps.get(&key) {
                    Some(app) if !app.sent.is_empty() && rng.below(10) < 3 => {
                        let ids: Vec<u64> = app.sent.iter().copied().collect();
                        Some((false, ids[rng.below(ids.len() as u64) as usize]))
                    }
                    Some(app) => Some((true, app.next_id)),
                    None => None,
                };
                if let (Some((true, _)), Some(app)) = (op, self.apps.get_mut(&key)) {
                    app.next_id += 1;
                }
                let client = flow.sent % CLIENTS;
                flow.sent += 1;
                let r = Pending {
                    due: now,
                    entry,
                    client,
                    op,
                    tries: 0,
                };
                self.request(&mut flow, &key, r, now, rng, &node_up, &answer, served);
            }
            self.flows.insert(key, flow);
        }
        self.arm_tick(now)
    }

    /// Send request `r` of `flow` now: attempts until one is answered or no retry is
    /// left; with `--retry-after`, a failed attempt waits in the flow for its retry.
    /// The request's final outcome and retries are counted in the second it ends.
    #[allow(clippy::too_many_arguments)]
    fn request(
        &mut self,
        flow: &mut Flow,
        key: &ObjKey,
        r: Pending,
        now: SimTime,
        rng: &mut Rng,
        node_up: &impl Fn(&str) -> bool,
        answer: &impl Fn(&RuleEndpoint) -> Answer,
        served: &mut crate::metrics::Served,
    ) {
        let second = now / SECOND;
        let (entry, client, op) = (&r.entry, r.client, r.op);
        let key = key.clone();
        let mut retries = r.tries;
        let outcome = loop {
            let (o, pick) = self.attempt(entry, &key, client, now, rng, node_up, answer);
            if let Some(p) = &pick {
                let i = Outcome::ALL.iter().position(|x| *x == o).unwrap_or(0);
                self.hits
                    .entry((key.clone(), p.pod.name.clone()))
                    .or_default()
                    .add(second, i);
            }
            let pick_seen = pick.clone();
            let mut reply = None;
            if let (Some((post, id)), Some(pick)) = (op, pick) {
                // The application processed it if it answered, and a POST also
                // if it was stopping: then only the answer was lost.
                if o == Outcome::Ok || (post && o == Outcome::Reset) {
                    let db = match self.apps.get(&key).map(|a| a.store.clone()) {
                        Some(crate::app::Store::Database(db)) => {
                            self.db_up(&db, &pick.node, rng, answer)
                        }
                        _ => true,
                    };
                    if let Some(app) = self.apps.get_mut(&key) {
                        reply = Some(if post {
                            app.post(id, &pick.uid, db)
                        } else {
                            app.get(id, &pick.uid, db)
                        });
                        if o == Outcome::Reset {
                            app.business.lost_answers += 1;
                        }
                    }
                }
            }
            if o == Outcome::Ok {
                if let Some(pick) = &pick_seen {
                    served
                        .entry(pick.uid.clone())
                        .or_default()
                        .add(now, flow.cpu_per_request_us);
                    let line = match (op, &reply) {
                        (Some((post, id)), Some(r)) => format!(
                            "{} /messages/{id} {}",
                            if post { "POST" } else { "GET" },
                            r.status()
                        ),
                        _ => "GET / 200".to_string(),
                    };
                    let log = self.logs.entry(pick.uid.clone()).or_default();
                    log.push_back((now, line));
                    if log.len() > LOG_LINES {
                        log.pop_front();
                    }
                }
            }
            if o == Outcome::Ok || retries >= flow.retries {
                break o;
            }
            retries += 1;
            if flow.retry_after > 0 {
                flow.later.push_back(Pending {
                    due: now + flow.retry_after,
                    tries: retries,
                    ..r
                });
                return;
            }
        };
        let b = self
            .series
            .entry(key.clone())
            .or_default()
            .entry(second)
            .or_default();
        b.outcomes[Outcome::ALL.iter().position(|o| *o == outcome).unwrap_or(0)] += 1;
        b.retries += u64::from(retries);
    }

    /// One attempt of one request entering at `entry`: its outcome and the endpoint
    /// the rules chose (if any).
    #[allow(clippy::too_many_arguments)]
    fn attempt(
        &mut self,
        entry: &str,
        key: &ObjKey,
        client: u64,
        now: SimTime,
        rng: &mut Rng,
        node_up: &impl Fn(&str) -> bool,
        answer: &impl Fn(&RuleEndpoint) -> Answer,
    ) -> (Outcome, Option<RuleEndpoint>) {
        if entry.is_empty() || !node_up(entry) {
            return (Outcome::Timeout, None);
        }
        let Some(rules) = self.rules(entry, key) else {
            return (Outcome::NoEndpoints, None);
        };
        let candidates = categorize_endpoints(&rules.endpoints);
        if candidates.is_empty() {
            return (Outcome::NoEndpoints, None);
        }
        // ClientIP affinity: the endpoint this client went to last, while it is still
        // among the candidates and the affinity has not timed out; else a random pick
        // that the client then sticks to.
        let sticky = rules
            .affinity_seconds
            .map(|t| ((key.clone(), client, entry.to_string()), t));
        let remembered = sticky.as_ref().and_then(|(k, t)| {
            self.affinity
                .get(k)
                .filter(|(_, last)| now.saturating_sub(*last) <= t * SECOND)
                .and_then(|(uid, _)| candidates.iter().find(|e| e.uid == *uid))
        });
        let pick: RuleEndpoint = match remembered {
            Some(e) => (*e).clone(),
            None => candidates[rng.below(candidates.len() as u64) as usize].clone(),
        };
        if let Some((k, _)) = sticky {
            self.affinity.insert(k, (pick.uid.clone(), now));
        }
        let pick = &pick;
        let o = match answer(pick) {
            Answer::Accept => Outcome::Ok,
            Answer::Refuse => Outcome::Refused,
            Answer::Reset => Outcome::Reset,
            Answer::Silent => Outcome::Timeout,
        };
        (o, Some(pick.clone()))
    }

    /// Whether the application's database answers from `node` (its Service's rules on
    /// that node's kube-proxy lead to a Pod that accepts).
    fn db_up(
        &self,
        db: &ObjKey,
        node: &str,
        rng: &mut Rng,
        answer: &impl Fn(&RuleEndpoint) -> Answer,
    ) -> bool {
        let Some(rules) = self.rules(node, db) else {
            return false;
        };
        let candidates = categorize_endpoints(&rules.endpoints);
        if candidates.is_empty() {
            return false;
        }
        let pick = candidates[rng.below(candidates.len() as u64) as usize];
        answer(pick) == Answer::Accept
    }

    /// A Service's traffic and business numbers so far, as `sim expect traffic/NAME`
    /// reads them (None: no request was ever sent to it).
    pub fn summary(&self, key: &ObjKey) -> Option<serde_json::Value> {
        let series = self.series.get(key)?;
        let mut t = Bucket::default();
        for b in series.values() {
            for (i, n) in b.outcomes.iter().enumerate() {
                t.outcomes[i] += n;
            }
            t.retries += b.retries;
        }
        let mut v = serde_json::json!({
            "requests": t.total(),
            "ok": t.outcomes[0],
            "errors": t.errors(),
            "noEndpoints": t.outcomes[1],
            "refused": t.outcomes[2],
            "timeout": t.outcomes[3],
            "reset": t.outcomes[4],
            "retries": t.retries,
        });
        // The last RECENT_SECONDS of the series (ending at its last second with
        // requests): whether users still meet errors, not whether they ever did.
        if let Some(last) = series.keys().next_back().copied() {
            let mut r = Bucket::default();
            for (_, b) in series.range(last.saturating_sub(RECENT_SECONDS - 1)..=last) {
                for (i, n) in b.outcomes.iter().enumerate() {
                    r.outcomes[i] += n;
                }
            }
            v["recent"] = serde_json::json!({
                "requests": r.total(),
                "ok": r.outcomes[0],
                "errors": r.errors(),
            });
        }
        if let Some(app) = self.apps.get(key) {
            let b = &app.business;
            v["accepted"] = b.accepted.into();
            v["duplicates"] = b.duplicates.into();
            v["lost"] = app.lost().into();
            v["conflicts"] = b.conflicts.into();
            v["found"] = b.found.into();
            v["notFound"] = b.not_found.into();
            v["unavailable"] = b.unavailable.into();
            v["lostAnswers"] = b.lost_answers.into();
        }
        Some(v)
    }

    /// `sim traffic --report`: totals per Service, then its errors per ten seconds.
    pub fn report(&self, only: Option<&ObjKey>) -> String {
        let mut out = String::new();
        let mut rows = vec![vec![
            "SERVICE".to_string(),
            "REQUESTS".into(),
            "OK".into(),
            "NO-ENDPOINTS".into(),
            "REFUSED".into(),
            "TIMEOUT".into(),
            "RESET".into(),
            "RETRIES".into(),
        ]];
        for (key, series) in &self.series {
            if only.is_some_and(|o| o != key) {
                continue;
            }
            let mut total = Bucket::default();
            for b in series.values() {
                for (i, n) in b.outcomes.iter().enumerate() {
                    total.outcomes[i] += n;
                }
                total.retries += b.retries;
            }
            let mut r = vec![key.name.clone(), total.total().to_string()];
            r.extend(total.outcomes.iter().map(|n| n.to_string()));
            r.push(total.retries.to_string());
            rows.push(r);
        }
        if rows.len() == 1 {
            return "No traffic has been sent.".into();
        }
        out.push_str(&table(&rows));
        let mut biz = vec![vec![
            "APPLICATION".to_string(),
            "STORE".into(),
            "ACCEPTED".into(),
            "DUPLICATES".into(),
            "LOST".into(),
            // Which request each code answers: a POST of a message (409: an id this
            // process already holds), a GET of one (200 found, 404 not here).
            "POST 409".into(),
            "GET 200".into(),
            "GET 404".into(),
            "503".into(),
            "LOST ANSWERS".into(),
        ]];
        for (key, app) in &self.apps {
            if only.is_some_and(|o| o != key) {
                continue;
            }
            let b = &app.business;
            biz.push(vec![
                key.name.clone(),
                match &app.store {
                    crate::app::Store::Memory => "memory".to_string(),
                    crate::app::Store::Database(db) => format!("service/{}", db.name),
                },
                b.accepted.to_string(),
                b.duplicates.to_string(),
                app.lost().to_string(),
                b.conflicts.to_string(),
                b.found.to_string(),
                b.not_found.to_string(),
                b.unavailable.to_string(),
                b.lost_answers.to_string(),
            ]);
        }
        if biz.len() > 1 {
            out.push('\n');
            out.push_str(&table(&biz));
        }
        for (key, series) in &self.series {
            if only.is_some_and(|o| o != key) {
                continue;
            }
            let mut windows: BTreeMap<u64, Bucket> = BTreeMap::new();
            for (s, b) in series {
                let w = windows.entry(s / 10 * 10).or_default();
                for (i, n) in b.outcomes.iter().enumerate() {
                    w.outcomes[i] += n;
                }
                w.retries += b.retries;
            }
            out.push_str(&format!("\nservice/{} every 10s:\n", key.name));
            let mut rows = vec![vec![
                "FROM".to_string(),
                "REQUESTS".into(),
                "OK".into(),
                "ERRORS".into(),
                "".into(),
            ]];
            for (start, b) in windows {
                let bar = "#".repeat(((b.errors() * 20).div_ceil(b.total().max(1))) as usize);
                rows.push(vec![
                    crate::time::clock_label(start * SECOND),
                    b.total().to_string(),
                    b.outcomes[0].to_string(),
                    b.errors().to_string(),
                    bar,
                ]);
            }
            out.push_str(&table(&rows));
        }
        out.trim_end().to_string()
    }
}

/// Rows as a kubectl-style table (three spaces between columns).
fn table(rows: &[Vec<String>]) -> String {
    let text: String = rows.iter().map(|r| r.join("\t") + "\n").collect();
    crate::tabwriter::format(&text, 0, 3)
}

/// `CategorizeEndpoints` for cluster traffic: the ready endpoints, else the serving
/// and terminating ones.
pub fn categorize_endpoints(eps: &[RuleEndpoint]) -> Vec<&RuleEndpoint> {
    let ready: Vec<&RuleEndpoint> = eps.iter().filter(|e| e.ready).collect();
    if !ready.is_empty() {
        return ready;
    }
    eps.iter().filter(|e| e.serving && e.terminating).collect()
}

/// What a kube-proxy programs for Service `key`: its ports and every endpoint of its
/// slices (any manager's: the `kubernetes` Service's slice is the API server's). None:
/// no Service, or a headless one (no cluster IP, no rules).
pub fn rules_for(store: &Store, key: &ObjKey) -> Option<ServiceRules> {
    let names: BTreeSet<String> = store
        .list_ns::<EndpointSlice>(&key.namespace)
        .filter(|s| s.metadata.labels.get("kubernetes.io/service-name") == Some(&key.name))
        .map(|s| s.metadata.name.clone())
        .collect();
    rules_from(store, key, Some(&names))
}

/// [`rules_for`] from the slices named (the proxies' index of slices by Service).
fn rules_from(
    store: &Store,
    key: &ObjKey,
    slices: Option<&BTreeSet<String>>,
) -> Option<ServiceRules> {
    let svc = store.get::<Service>(key)?;
    if svc.is_headless() || svc.spec.cluster_ip.is_empty() {
        return None;
    }
    let mut endpoints = Vec::new();
    let slices = slices
        .into_iter()
        .flatten()
        .filter_map(|n| store.get::<EndpointSlice>(&ObjKey::new(&key.namespace, n)));
    for s in slices {
        if s.metadata.labels.get("kubernetes.io/service-name") != Some(&key.name) {
            continue;
        }
        let ports: Vec<(String, i64)> = s
            .ports
            .iter()
            .flatten()
            .map(|p| {
                (
                    p.name.clone().unwrap_or_default(),
                    p.port.unwrap_or_default(),
                )
            })
            .collect();
        for e in s.endpoints.iter().flatten() {
            let Some(ip) = e.addresses.first() else {
                continue;
            };
            let (pod, uid) = e
                .target_ref
                .as_ref()
                .map(|r| (ObjKey::new(&r.namespace, &r.name), r.uid.clone()))
                .unwrap_or_default();
            endpoints.push(RuleEndpoint {
                ip: ip.clone(),
                pod,
                uid,
                node: e.node_name.clone(),
                ports: ports.clone(),
                // A nil condition counts as true for ready and serving.
                ready: e.conditions.ready.unwrap_or(true),
                serving: e.conditions.serving.unwrap_or(true),
                terminating: e.conditions.terminating.unwrap_or(false),
            });
        }
    }
    endpoints.sort_by(|a, b| a.ip.cmp(&b.ip).then_with(|| a.pod.cmp(&b.pod)));
    Some(ServiceRules {
        cluster_ip: svc.spec.cluster_ip.clone(),
        ports: svc
            .spec
            .ports
            .iter()
            .map(|p| (p.name.clone(), p.port, p.node_port))
            .collect(),
        endpoints,
        affinity_seconds: (svc.spec.session_affinity == "ClientIP").then(|| {
            svc.spec
                .extra
                .get("sessionAffinityConfig")
                .and_then(|c| c.pointer("/clientIP/timeoutSeconds"))
                .and_then(serde_json::Value::as_u64)
                .unwrap_or(crate::apiserver::admission::DEFAULT_CLIENT_IP_AFFINITY_SECONDS)
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ep(ip: &str, ready: bool, serving: bool, terminating: bool) -> RuleEndpoint {
        RuleEndpoint {
            ip: ip.into(),
            pod: ObjKey::new("default", ip),
            uid: ip.into(),
            node: "node-1".into(),
            ports: vec![],
            ready,
            serving,
            terminating,
        }
    }

    #[test]
    fn ready_endpoints_win_then_serving_terminating_ones_then_none() {
        let eps = [
            ep("a", true, true, false),
            ep("b", false, true, true),
            ep("c", false, false, false),
        ];
        let ips = |v: Vec<&RuleEndpoint>| v.iter().map(|e| e.ip.clone()).collect::<Vec<_>>();
        assert_eq!(ips(categorize_endpoints(&eps)), ["a"]);
        assert_eq!(ips(categorize_endpoints(&eps[1..])), ["b"]);
        assert!(categorize_endpoints(&eps[2..]).is_empty());
    }
}
