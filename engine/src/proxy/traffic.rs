//! The traffic generator (not part of Kubernetes): flows of requests into a Service,
//! each through its entry node's rules to an endpoint, answered as the world says, with
//! the per-second outcomes and each Pod's recent hits.

use super::rules::{internal_endpoints, Reachable, RuleEndpoint};
use super::{Proxies, ProxyTimer, LOG_LINES, TRAFFIC_TICK};
use crate::apiserver::ObjKey;
use crate::rng::Rng;
use crate::time::{SimTime, SECOND};

/// The simulated clients a flow's requests come from, in turn (their source IPs are
/// what `sessionAffinity: ClientIP` keys on).
pub const CLIENTS: u64 = 16;

/// Where `sessionAffinity: ClientIP` keeps a client: per Service, client and node (each
/// node's rules keep their own affinity table, as iptables' `recent` lists do).
pub(super) type AffinityKey = (ObjKey, u64, String);

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

/// Where a connection comes from: the node it enters the network at and, when a Pod
/// sends it, that Pod.
#[derive(Clone, Copy, Debug)]
pub struct Client<'a> {
    /// The node.
    pub node: &'a str,
    /// The Pod, if a Pod sends it.
    pub pod: Option<&'a ObjKey>,
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
    /// The Pod the requests come from (`--from pod/NAME`, on `from`'s node); None: a
    /// client on the entry node's host network. NetworkPolicies read it.
    pub source: Option<ObjKey>,
    /// The Ingress the requests go through (`sim traffic ingress/NAME`) with their host
    /// and path: the ingress controller picks the Service at each tick, as it is then.
    pub via: Option<(ObjKey, String, String)>,
    /// The Service a flow through an Ingress goes to now (None: nothing matches; the
    /// controller answers with an error, counted as no endpoints).
    target: Option<ObjKey>,
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
            source: None,
            via: None,
            target: None,
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

impl Flow {
    /// The Service a flow through an Ingress goes to now.
    pub fn target(&self) -> Option<&ObjKey> {
        self.via.as_ref().and(self.target.as_ref())
    }
}

impl Proxies {
    /// Node `node`'s zone as its kube-proxy knows it ("" without the label).
    fn zone_of(&self, node: &str) -> &str {
        self.zones.get(node).map_or("", String::as_str)
    }

    /// Where Service `svc`'s traffic is counted: under its own name when a flow goes
    /// to it, else under the flow through an Ingress that goes to it now (the page
    /// draws that traffic on the Service), else its own name.
    pub fn traffic_key(&self, svc: &ObjKey) -> ObjKey {
        if self.series.contains_key(svc) || self.flows.contains_key(svc) {
            return svc.clone();
        }
        self.flows
            .iter()
            .find(|(_, f)| f.target() == Some(svc))
            .map(|(k, _)| k.clone())
            .unwrap_or_else(|| svc.clone())
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

    /// The traffic tick to arm now, if none is and there is something to tick.
    pub fn arm_tick_now(&mut self, now: SimTime) -> Option<(SimTime, ProxyTimer)> {
        self.arm_tick(now)
    }

    pub(super) fn arm_tick(&mut self, now: SimTime) -> Option<(SimTime, ProxyTimer)> {
        if self.tick_armed || !self.busy() {
            return None;
        }
        self.tick_armed = true;
        Some((now + TRAFFIC_TICK, ProxyTimer::Traffic))
    }

    /// Whether a traffic tick is due: a flow runs.
    pub fn busy(&self) -> bool {
        !self.flows.is_empty() || self.devices.values().any(|d| !d.is_empty())
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
        answer: impl Fn(&RuleEndpoint, Client<'_>) -> Answer,
        instance: impl Fn(&str) -> Option<String>,
        route: impl Fn(&ObjKey, &str, &str) -> Option<ObjKey>,
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
            // Taken out and put back: a clone per tick would copy its waiting retries.
            let Some(mut flow) = self.flows.remove(&key) else {
                continue;
            };
            if let Some((ing, host, path)) = &flow.via {
                flow.target = route(ing, host, path);
            }
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
            // The nodes up, once a tick (no node changes within one): not once a request.
            let up: Vec<&String> = match flow.from {
                Some(_) => Vec::new(),
                None => nodes.iter().filter(|n| node_up(n)).collect(),
            };
            for _ in 0..n {
                let entry = match &flow.from {
                    Some(n) => n.clone(),
                    None => {
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
                // Through an Ingress, the application is the Service's it goes to.
                let app_key = match &flow.via {
                    Some(_) => flow.target.clone().unwrap_or_else(|| ObjKey::new("", "")),
                    None => key.clone(),
                };
                let op = match self.apps.get(&app_key) {
                    Some(app) if app.sent_count() > 0 && rng.below(10) < 3 => {
                        let i = rng.below(app.sent_count() as u64) as usize;
                        app.sent_nth(i).map(|id| (false, id))
                    }
                    Some(app) => Some((true, app.next_id)),
                    None => None,
                };
                if let (Some((true, _)), Some(app)) = (op, self.apps.get_mut(&app_key)) {
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
        self.tick_devices(now, rng, nodes, &node_up, &answer, &instance);
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
        answer: &impl Fn(&RuleEndpoint, Client<'_>) -> Answer,
        served: &mut crate::metrics::Served,
    ) {
        let second = now / SECOND;
        let (entry, client, op) = (&r.entry, r.client, r.op);
        let key = key.clone();
        // Through an Ingress, the Service its controller picked (none: an empty key,
        // which has no rules).
        let target = match &flow.via {
            Some(_) => flow.target.clone().unwrap_or_else(|| ObjKey::new("", "")),
            None => key.clone(),
        };
        let mut retries = r.tries;
        let outcome = loop {
            let source = flow.source.clone();
            let (o, pick) = self.attempt(
                entry,
                source.as_ref(),
                &target,
                client,
                now,
                rng,
                node_up,
                answer,
            );
            if let Some(p) = &pick {
                let i = Outcome::ALL.iter().position(|x| *x == o).unwrap_or(0);
                self.hits
                    .entry((target.clone(), p.pod.name.clone()))
                    .or_default()
                    .add(second, i);
            }
            let pick_seen = pick.clone();
            let mut reply = None;
            if let (Some((post, id)), Some(pick)) = (op, pick) {
                // The application processed it if it answered, and a POST also
                // if it was stopping: then only the answer was lost.
                if o == Outcome::Ok || (post && o == Outcome::Reset) {
                    let db = match self.apps.get(&target).map(|a| a.store.clone()) {
                        Some(crate::app::Store::Database(db)) => {
                            self.db_up(&db, &pick, rng, answer)
                        }
                        _ => true,
                    };
                    if let Some(app) = self.apps.get_mut(&target) {
                        reply = Some(if post {
                            app.post(id, &pick.uid, db)
                        } else {
                            app.get(id, &pick.uid, db)
                        });
                        if o == Outcome::Reset {
                            app.business.lost_answers += 1;
                        }
                    }
                    if post && reply == Some(crate::app::Reply::Created) {
                        self.address(&target, id, None, now, rng);
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
    pub(super) fn attempt(
        &mut self,
        entry: &str,
        source: Option<&ObjKey>,
        key: &ObjKey,
        client: u64,
        now: SimTime,
        rng: &mut Rng,
        node_up: &impl Fn(&str) -> bool,
        answer: &impl Fn(&RuleEndpoint, Client<'_>) -> Answer,
    ) -> (Outcome, Option<RuleEndpoint>) {
        if entry.is_empty() || !node_up(entry) {
            return (Outcome::Timeout, None);
        }
        let Some(rules) = self.rules(entry, key) else {
            return (Outcome::NoEndpoints, None);
        };
        let zone = self.zone_of(entry);
        let candidates = match internal_endpoints(rules, entry, zone) {
            Reachable::To(eps) => eps,
            Reachable::Rejected => return (Outcome::NoEndpoints, None),
            Reachable::Dropped => return (Outcome::Timeout, None),
        };
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
        let from = Client {
            node: entry,
            pod: source,
        };
        let o = match answer(pick, from) {
            Answer::Accept => Outcome::Ok,
            Answer::Refuse => Outcome::Refused,
            Answer::Reset => Outcome::Reset,
            Answer::Silent => Outcome::Timeout,
        };
        (o, Some(pick.clone()))
    }

    /// Whether the application's database answers the application's Pod `app` (its
    /// Service's rules on that Pod's node lead to a Pod that accepts the Pod's
    /// connection).
    pub(super) fn db_up(
        &self,
        db: &ObjKey,
        app: &RuleEndpoint,
        rng: &mut Rng,
        answer: &impl Fn(&RuleEndpoint, Client<'_>) -> Answer,
    ) -> bool {
        let node = app.node.as_str();
        let Some(rules) = self.rules(node, db) else {
            return false;
        };
        let Reachable::To(candidates) = internal_endpoints(rules, node, self.zone_of(node)) else {
            return false;
        };
        let pick = candidates[rng.below(candidates.len() as u64) as usize];
        let from = Client {
            node,
            pod: Some(&app.pod),
        };
        answer(pick, from) == Answer::Accept
    }
}
