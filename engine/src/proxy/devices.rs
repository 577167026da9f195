//! Devices on long-lived connections (not part of Kubernetes): the course's B, whose
//! phone holds one WebSocket to a gateway Pod through the Service (`sim devices N`).
//!
//! **A connection belongs to one Pod.** A device connects through the Service's rules
//! like any client (an endpoint picked at random) and stays with that Pod. Nothing
//! moves it: when the Pod goes away the device must notice, reconnect, and catch up.
//! A Pod added later gets only the devices that connect after it is ready —
//! connections do not rebalance.
//!
//! **Noticing.** A Pod told to stop (TERM) closes its connections (`1001 going away`)
//! and a Pod whose container stops resets them: the device knows at once. A Pod on a
//! node that is off or cut off says nothing: the device notices only when its ping
//! (every 30 s) goes unanswered for 10 s. Meanwhile the gateway's pushes to it go
//! nowhere.
//!
//! **Reconnecting** waits a back-off with full jitter — a random time below
//! min(30 s, 1 s × 2^failures) — so that devices cut off together do not come back in
//! step. An attempt to a Pod that does not answer costs the 10 s connect timeout
//! first. A node lost is a storm (devices notice over half a minute, then hit the
//! dead Pods still in the rules); a drain is a handover (the Pod closes its
//! connections itself, after it left the rules).
//!
//! **Three kinds of evidence** for each message: *delivered* (the gateway wrote it on
//! the device's connection, live or in a backfill), *acknowledged* (the device's ack
//! reached the gateway, 200 ms later, over the same connection: lost with it), and
//! *read* (the user opened it; the receipt waits for a connection). A message stays
//! pending until acknowledged. On each connect the device asks for what is pending
//! and the Pod answers from what it holds: its own memory, or the database. Ids are
//! stable: a message sent twice is dropped the second time by its id.

use super::rules::RuleEndpoint;
use super::traffic::{Answer, Client, Outcome};
use crate::app::App;
use crate::rng::Rng;
use crate::time::{SimTime, SECOND};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// The most devices one Service may have.
pub const MAX_DEVICES: u32 = 10_000;
/// How often a connected device pings its gateway.
pub const PING_INTERVAL: SimTime = 30 * SECOND;
/// How long a device waits for the answer to a ping before it gives the connection up.
pub const PONG_TIMEOUT: SimTime = 10 * SECOND;
/// How long a connect attempt to a Pod that does not answer takes to fail.
pub const CONNECT_TIMEOUT: SimTime = 10 * SECOND;
/// The back-off's first ceiling, doubled at each failure up to [`BACKOFF_CAP`].
pub const BACKOFF_BASE: SimTime = SECOND;
/// The back-off's largest ceiling.
pub const BACKOFF_CAP: SimTime = 30 * SECOND;
/// How long after a push its acknowledgement reaches the gateway.
pub const ACK_AFTER: SimTime = 200;
/// Devices connect for the first time spread over this long.
const FIRST_CONNECT_SPREAD: SimTime = 5 * SECOND;
/// The user reads a message between 5 and 60 s after it arrived.
const READ_AFTER: (SimTime, SimTime) = (5 * SECOND, 60 * SECOND);
/// Messages whose evidence each device keeps for `sim devices --report device-N`.
pub const EVIDENCE_KEPT: usize = 20;
/// Read receipts a device keeps while it has no connection.
const UNSENT_READS_KEPT: usize = 1_000;
/// Seconds of connect attempts kept for the report.
const SERIES_SECONDS: u64 = 3_600;

/// The wait before reconnect attempt number `failures + 1`: full jitter, a random time
/// below min([`BACKOFF_CAP`], [`BACKOFF_BASE`] × 2^failures).
pub fn backoff(failures: u32, rng: &mut Rng) -> SimTime {
    let ceiling = BACKOFF_BASE
        .saturating_mul(1u64 << failures.min(16))
        .min(BACKOFF_CAP);
    rng.below(ceiling)
}

/// What one message's device showed of it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Evidence {
    /// The message.
    pub id: u64,
    /// Its sequence number among the device's messages (database only).
    pub seq: Option<u64>,
    /// When it was first written on the device's connection, and whether in a backfill.
    pub delivered: Option<(SimTime, bool)>,
    /// When its acknowledgement reached a gateway.
    pub acked: Option<SimTime>,
    /// When its read receipt reached a gateway.
    pub read: Option<SimTime>,
}

/// One device.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Device {
    /// The Pod (uid) its connection goes to; None while it reconnects.
    pod: Option<String>,
    /// Since when it is connected, or without a connection.
    since: SimTime,
    /// Bumped at each connect and loss: what was due on another connection is void.
    epoch: u32,
    /// Failed attempts since its last connection.
    failures: u32,
    /// Times it connected.
    connects: u64,
    /// Every message id it received: a second copy is dropped by its id.
    got: BTreeSet<u64>,
    /// Messages for it not acknowledged yet: what it asks for on each connect.
    pending: BTreeSet<u64>,
    /// Read receipts waiting for a connection.
    unsent_reads: VecDeque<u64>,
    /// The last [`EVIDENCE_KEPT`] messages' evidence.
    evidence: VecDeque<Evidence>,
}

/// What happens to a device at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Connect,
    Ping,
    Detect,
    Ack,
    Read,
}

/// An entry of the agenda: when, which device, what, which message (or 0), and the
/// device's epoch it was planned in.
type Due = (SimTime, u32, Kind, u64, u32);

/// A Pod with connections.
#[derive(Clone, Debug, PartialEq)]
struct PodConns {
    /// The endpoint the devices reached (what its node's runtime is asked about).
    endpoint: RuleEndpoint,
    /// The run of its application the connections were made to.
    run: Option<String>,
    /// Whether it answered at the last look (a silent Pod's connections are half open:
    /// pushes go nowhere, and the devices notice only at their next ping).
    alive: bool,
    /// The devices connected to it.
    devices: BTreeSet<u32>,
}

/// Counts over a Service's devices' life.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeviceCounts {
    /// Successful connects after a device's first.
    pub reconnects: u64,
    /// Connect attempts that failed (refused, reset, timed out, no endpoints).
    pub failed_attempts: u64,
    /// Of those, attempts to a Pod that did not answer (each cost the connect timeout).
    pub connect_timeouts: u64,
    /// Connections the Pod closed or reset (it was stopping, or its container stopped).
    pub closed: u64,
    /// Connections given up after an unanswered ping.
    pub timed_out: u64,
    /// Messages addressed to a device (accepted by the application).
    pub messages: u64,
    /// Messages written on the device's connection as they were accepted.
    pub pushed: u64,
    /// Messages that reached the device in a backfill after a connect.
    pub backfilled: u64,
    /// Copies the device dropped by their id (it had the message already).
    pub duplicates_dropped: u64,
    /// Messages whose acknowledgement reached a gateway.
    pub acked: u64,
    /// Acknowledgements lost with their connection (the message stays pending).
    pub acks_lost: u64,
    /// Read receipts that reached a gateway.
    pub read: u64,
    /// Messages for a device that it never got and that no Pod or database holds any
    /// more: no backfill can bring them.
    pub missing: u64,
}

/// A Service's devices.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Devices {
    list: Vec<Device>,
    agenda: BTreeSet<Due>,
    pods: BTreeMap<String, PodConns>,
    /// Counts so far.
    pub counts: DeviceCounts,
    /// Per second: connect attempts, connects, failed attempts.
    series: BTreeMap<u64, [u64; 3]>,
    /// The next entry node in turn.
    turn: usize,
    /// The last second pending messages were checked for ones nobody holds.
    pruned: u64,
    /// The last message a learner sent (`sim message`): its device and id.
    pub last_sent: Option<(u32, u64)>,
}

/// A device's name: `device-1` is index 0.
pub fn device_name(i: u32) -> String {
    format!("device-{}", i + 1)
}

/// A device's index from its name.
pub fn device_index(name: &str) -> Option<u32> {
    name.strip_prefix("device-")?
        .parse::<u32>()
        .ok()
        .filter(|n| *n >= 1)
        .map(|n| n - 1)
}

impl Devices {
    /// How many devices there are.
    pub fn len(&self) -> u32 {
        self.list.len() as u32
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Make it `n` devices: new ones connect over the next few seconds; the last ones
    /// go away when there are fewer.
    pub fn resize(&mut self, n: u32, now: SimTime, rng: &mut Rng) {
        let n = n.min(MAX_DEVICES);
        while self.len() > n {
            let i = self.len() - 1;
            if let Some(uid) = self.list.pop().and_then(|d| d.pod) {
                if let Some(p) = self.pods.get_mut(&uid) {
                    p.devices.remove(&i);
                }
            }
        }
        self.pods.retain(|_, p| !p.devices.is_empty());
        self.agenda.retain(|d| d.1 < n);
        while self.len() < n {
            let i = self.len();
            self.list.push(Device {
                since: now,
                ..Default::default()
            });
            self.plan(now + rng.below(FIRST_CONNECT_SPREAD), i, Kind::Connect, 0);
        }
    }

    fn plan(&mut self, at: SimTime, i: u32, kind: Kind, id: u64) {
        let epoch = self.list.get(i as usize).map_or(0, |d| d.epoch);
        self.agenda.insert((at, i, kind, id, epoch));
    }

    /// The next entry due at or before `now`, taken off the agenda.
    fn next_due(&mut self, now: SimTime) -> Option<Due> {
        let first = *self.agenda.first()?;
        if first.0 > now {
            return None;
        }
        self.agenda.remove(&first);
        Some(first)
    }

    /// Devices connected now.
    pub fn connected(&self) -> u64 {
        self.list.iter().filter(|d| d.pod.is_some()).count() as u64
    }

    /// Per Pod (uid): its connections.
    pub fn per_pod(&self) -> BTreeMap<String, u64> {
        self.pods
            .iter()
            .map(|(uid, p)| (uid.clone(), p.devices.len() as u64))
            .collect()
    }

    /// The Pod (name) and node a Pod uid's connections go to.
    pub fn pod_of(&self, uid: &str) -> Option<(&str, &str)> {
        self.pods
            .get(uid)
            .map(|p| (p.endpoint.pod.name.as_str(), p.endpoint.node.as_str()))
    }

    /// Messages for the devices not acknowledged yet (held somewhere, or missing).
    pub fn pending(&self) -> u64 {
        self.list.iter().map(|d| d.pending.len() as u64).sum()
    }

    /// Per ten seconds: connect attempts, connects, failed attempts.
    pub fn every_ten_seconds(&self) -> BTreeMap<u64, [u64; 3]> {
        let mut w: BTreeMap<u64, [u64; 3]> = BTreeMap::new();
        for (s, n) in &self.series {
            let e = w.entry(s / 10 * 10).or_default();
            for k in 0..3 {
                e[k] += n[k];
            }
        }
        w
    }

    /// What device `i` showed of message `id`, if it is among its last ones.
    pub fn evidence(&self, i: u32, id: u64) -> Option<&Evidence> {
        self.list
            .get(i as usize)?
            .evidence
            .iter()
            .find(|e| e.id == id)
    }

    /// Device `i`: the Pod uid it is connected to, since when, its connects, and its
    /// messages' evidence.
    pub fn device(&self, i: u32) -> Option<(Option<&str>, SimTime, u64, &VecDeque<Evidence>)> {
        let d = self.list.get(i as usize)?;
        Some((d.pod.as_deref(), d.since, d.connects, &d.evidence))
    }

    /// Message `id` was accepted for device `i` (`seq`: its sequence number, with a
    /// database): pushed on the device's connection if its Pod answers.
    pub fn addressed(&mut self, i: u32, id: u64, seq: Option<u64>, now: SimTime, rng: &mut Rng) {
        let Some(d) = self.list.get_mut(i as usize) else {
            return;
        };
        if !d.got.contains(&id) && d.pending.insert(id) {
            self.counts.messages += 1;
            d.evidence.push_back(Evidence {
                id,
                seq,
                ..Default::default()
            });
            if d.evidence.len() > EVIDENCE_KEPT {
                d.evidence.pop_front();
            }
        }
        let live = d
            .pod
            .as_ref()
            .and_then(|p| self.pods.get(p))
            .is_some_and(|p| p.alive);
        if live {
            self.push(i, id, now, false, rng);
        }
    }

    /// Message `id` written on device `i`'s connection now.
    fn push(&mut self, i: u32, id: u64, now: SimTime, backfill: bool, rng: &mut Rng) {
        let Some(d) = self.list.get_mut(i as usize) else {
            return;
        };
        if d.got.insert(id) {
            if backfill {
                self.counts.backfilled += 1;
            } else {
                self.counts.pushed += 1;
            }
            if let Some(e) = d.evidence.iter_mut().find(|e| e.id == id) {
                e.delivered = Some((now, backfill));
            }
            let read_at = now + READ_AFTER.0 + rng.below(READ_AFTER.1 - READ_AFTER.0);
            self.plan(read_at, i, Kind::Read, id);
        } else {
            self.counts.duplicates_dropped += 1;
        }
        // Acknowledged either way: the gateway needs to hear it.
        self.plan(now + ACK_AFTER, i, Kind::Ack, id);
    }

    /// Whether device `i`'s connection leads to a Pod that answers.
    fn live(&self, i: u32) -> bool {
        self.list
            .get(i as usize)
            .and_then(|d| d.pod.as_ref())
            .and_then(|p| self.pods.get(p))
            .is_some_and(|p| p.alive)
    }

    /// Device `i` lost its connection now: it reconnects after a back-off.
    fn lose(&mut self, i: u32, now: SimTime, rng: &mut Rng) {
        let Some(d) = self.list.get_mut(i as usize) else {
            return;
        };
        if let Some(uid) = d.pod.take() {
            if let Some(p) = self.pods.get_mut(&uid) {
                p.devices.remove(&i);
                if p.devices.is_empty() {
                    self.pods.remove(&uid);
                }
            }
        }
        d.epoch = d.epoch.wrapping_add(1);
        d.since = now;
        d.failures = 0;
        let wait = backoff(0, rng);
        self.plan(now + wait, i, Kind::Connect, 0);
    }

    /// Look at each Pod with connections: a stopping Pod closes them, a Pod whose
    /// container stopped (or whose application restarted, or that is gone) resets
    /// them; a silent one leaves them half open.
    pub(super) fn watch_pods(
        &mut self,
        now: SimTime,
        rng: &mut Rng,
        answer: &impl Fn(&RuleEndpoint, Client<'_>) -> Answer,
        instance: &impl Fn(&str) -> Option<String>,
    ) {
        let mut dropped: Vec<u32> = Vec::new();
        for (uid, p) in self.pods.iter_mut() {
            let run = instance(uid);
            let a = if run.is_none() || run != p.run {
                Answer::Refuse
            } else {
                let from = Client {
                    node: &p.endpoint.node,
                    pod: None,
                };
                answer(&p.endpoint, from)
            };
            match a {
                Answer::Accept => p.alive = true,
                Answer::Silent => p.alive = false,
                Answer::Reset | Answer::Refuse => {
                    self.counts.closed += p.devices.len() as u64;
                    dropped.extend(p.devices.iter().copied());
                }
            }
        }
        for i in dropped {
            self.lose(i, now, rng);
        }
    }

    /// Device `i`'s connect attempt met `outcome` at `reached` (the Pod and the run of
    /// its application); `app` answers its backfill.
    fn connected_or_not(
        &mut self,
        i: u32,
        outcome: Outcome,
        reached: Option<(RuleEndpoint, Option<String>)>,
        app: Option<&App>,
        now: SimTime,
        rng: &mut Rng,
    ) {
        let second = now / SECOND;
        let s = self.series.entry(second).or_default();
        s[0] += 1;
        let (Outcome::Ok, Some((pick, run))) = (outcome, reached) else {
            s[2] += 1;
            self.counts.failed_attempts += 1;
            let Some(d) = self.list.get_mut(i as usize) else {
                return;
            };
            d.failures = d.failures.saturating_add(1);
            let failures = d.failures;
            // A Pod that does not answer costs the connect timeout before the wait.
            let spent = if outcome == Outcome::Timeout {
                self.counts.connect_timeouts += 1;
                CONNECT_TIMEOUT
            } else {
                0
            };
            let wait = backoff(failures, rng);
            self.plan(now + spent + wait, i, Kind::Connect, 0);
            return;
        };
        s[1] += 1;
        let Some(d) = self.list.get_mut(i as usize) else {
            return;
        };
        d.pod = Some(pick.uid.clone());
        d.since = now;
        d.epoch = d.epoch.wrapping_add(1);
        d.failures = 0;
        d.connects += 1;
        if d.connects > 1 {
            self.counts.reconnects += 1;
        }
        // The receipts of what the user read meanwhile go now.
        self.counts.read += d.unsent_reads.len() as u64;
        for id in std::mem::take(&mut d.unsent_reads) {
            if let Some(e) = d.evidence.iter_mut().find(|e| e.id == id) {
                e.read = Some(now);
            }
        }
        let asked: Vec<u64> = d.pending.iter().copied().collect();
        let uid = pick.uid.clone();
        self.pods
            .entry(uid.clone())
            .or_insert_with(|| PodConns {
                endpoint: pick,
                run,
                alive: true,
                devices: BTreeSet::new(),
            })
            .devices
            .insert(i);
        self.plan(now + PING_INTERVAL, i, Kind::Ping, 0);
        // The backfill: what is pending, as far as this Pod holds it.
        for id in asked {
            if app.is_some_and(|a| a.holds(&uid, id)) {
                self.push(i, id, now, true, rng);
            }
        }
    }

    /// Drop from the pending messages those no Pod or database holds any more (once a
    /// second): they are missing for good.
    fn prune_missing(&mut self, now: SimTime, app: Option<&App>) {
        let second = now / SECOND;
        if second == self.pruned {
            return;
        }
        self.pruned = second;
        let Some(app) = app else {
            return;
        };
        for d in &mut self.list {
            let gone: Vec<u64> = d
                .pending
                .iter()
                .filter(|id| !d.got.contains(id) && !app.holds_anywhere(**id))
                .copied()
                .collect();
            for id in gone {
                d.pending.remove(&id);
                self.counts.missing += 1;
            }
        }
        self.series
            .retain(|s, _| s + SERIES_SECONDS > second || *s == 0);
    }
}

impl super::Proxies {
    /// The devices of every Service, at a traffic tick: the Pods with connections
    /// looked at, then everything due (connects, pings, acknowledgements, reads).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn tick_devices(
        &mut self,
        now: SimTime,
        rng: &mut Rng,
        nodes: &[String],
        node_up: &impl Fn(&str) -> bool,
        answer: &impl Fn(&RuleEndpoint, Client<'_>) -> Answer,
        instance: &impl Fn(&str) -> Option<String>,
    ) {
        let keys: Vec<_> = self.devices.keys().cloned().collect();
        for key in keys {
            let Some(mut ds) = self.devices.remove(&key) else {
                continue;
            };
            ds.watch_pods(now, rng, answer, instance);
            let up: Vec<&String> = nodes.iter().filter(|n| node_up(n)).collect();
            while let Some((_, i, kind, id, epoch)) = ds.next_due(now) {
                let Some(d) = ds.list.get(i as usize) else {
                    continue;
                };
                let current = d.epoch == epoch;
                match kind {
                    Kind::Connect if current && d.pod.is_none() => {
                        let entry = if up.is_empty() {
                            String::new()
                        } else {
                            ds.turn = (ds.turn + 1) % up.len();
                            up[ds.turn].clone()
                        };
                        // Each device is its own client (its own source address).
                        let client = 1_000_000 + u64::from(i);
                        let (o, pick) =
                            self.attempt(&entry, None, &key, client, now, rng, node_up, answer);
                        let reached = pick.map(|p| {
                            let run = instance(&p.uid);
                            (p, run)
                        });
                        ds.connected_or_not(i, o, reached, self.apps.get(&key), now, rng);
                    }
                    Kind::Ping if current => {
                        if ds.live(i) {
                            ds.plan(now + PING_INTERVAL, i, Kind::Ping, 0);
                        } else {
                            ds.plan(now + PONG_TIMEOUT, i, Kind::Detect, 0);
                        }
                    }
                    Kind::Detect if current => {
                        if ds.live(i) {
                            ds.plan(now + PING_INTERVAL, i, Kind::Ping, 0);
                        } else if d.pod.is_some() {
                            ds.counts.timed_out += 1;
                            ds.lose(i, now, rng);
                        }
                    }
                    Kind::Ack => {
                        if current && ds.live(i) {
                            if let Some(d) = ds.list.get_mut(i as usize) {
                                if d.pending.remove(&id) {
                                    ds.counts.acked += 1;
                                    if let Some(e) = d.evidence.iter_mut().find(|e| e.id == id) {
                                        e.acked = Some(now);
                                    }
                                }
                            }
                        } else {
                            ds.counts.acks_lost += 1;
                        }
                    }
                    Kind::Read => {
                        let live = ds.live(i);
                        if let Some(d) = ds.list.get_mut(i as usize) {
                            if live {
                                ds.counts.read += 1;
                                if let Some(e) = d.evidence.iter_mut().find(|e| e.id == id) {
                                    e.read = Some(now);
                                }
                            } else {
                                d.unsent_reads.push_back(id);
                                if d.unsent_reads.len() > UNSENT_READS_KEPT {
                                    d.unsent_reads.pop_front();
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            ds.prune_missing(now, self.apps.get(&key));
            self.devices.insert(key, ds);
        }
    }

    /// Message `id`, accepted by `app_key`'s application, for the device its id
    /// names: `device` when a learner said, else the id's turn among the devices.
    pub(super) fn address(
        &mut self,
        app_key: &crate::apiserver::ObjKey,
        id: u64,
        device: Option<u32>,
        now: SimTime,
        rng: &mut Rng,
    ) {
        let Some(ds) = self.devices.get_mut(app_key) else {
            return;
        };
        if ds.is_empty() {
            return;
        }
        if let Some(i) = device {
            ds.last_sent = Some((i, id));
        }
        let i = device.unwrap_or((id % u64::from(ds.len())) as u32);
        let seq = self.apps.get_mut(app_key).and_then(|a| a.seq_for(id, i));
        ds.addressed(i, id, seq, now, rng);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_back_off_ceiling_doubles_from_one_second_up_to_thirty() {
        let mut rng = Rng::new(7);
        for (failures, ceiling) in [
            (0, 1_000),
            (1, 2_000),
            (2, 4_000),
            (4, 16_000),
            (5, 30_000),
            (40, 30_000),
        ] {
            let waits: Vec<SimTime> = (0..200).map(|_| backoff(failures, &mut rng)).collect();
            assert!(
                waits.iter().all(|w| *w < ceiling),
                "{failures}: below {ceiling}"
            );
            assert!(
                waits.iter().any(|w| *w >= ceiling / 2),
                "{failures}: spread over the whole range (full jitter)"
            );
        }
    }

    #[test]
    fn device_names_count_from_one() {
        assert_eq!(device_name(0), "device-1");
        assert_eq!(device_index("device-1"), Some(0));
        assert_eq!(device_index("device-0"), None);
        assert_eq!(device_index("phone-1"), None);
    }
}
