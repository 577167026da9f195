//! Leader election of kube-controller-manager and kube-scheduler: `sim leader status`,
//! `sim leader replicas N`, `sim leader kill COMPONENT`.
//!
//! Each component runs as one replica per control-plane host (`control-plane-1..N`);
//! only the replica holding its Lease in `kube-system` (`kube-controller-manager`,
//! `kube-scheduler`) runs its loops, the others stand by. Every replica runs client-go's
//! `tryAcquireOrRenew` on the Lease:
//!
//! - no Lease: create it, holding it (`leaseTransitions: 0`);
//! - a Lease whose record (holder, renewTime) differs from the one it last saw: note
//!   the record and *its own* clock (`observedTime`);
//! - held by another and `observedTime + leaseDurationSeconds` (15 s) not yet past:
//!   stand by;
//! - else take it or renew it: `renewTime` now, and when the holder changes
//!   `acquireTime` now and `leaseTransitions` + 1.
//!
//! The leader renews every retry period (2 s); a standby retries every 2 s plus up to
//! 1.2 × 2 s of jitter (`wait.JitterUntil(…, RetryPeriod, 1.2, sliding)`). A leader
//! renews in rounds (`renew`: a round a retry period after the last, each trying every
//! retry period for the renew deadline), so one that cannot renew (someone else took
//! the Lease, or the API does not answer) gives up 12 s after its last renewal: it
//! stops leading and exits, as kube-controller-manager does on `leaderelection lost`;
//! the kubelet restarts it as a new process, a standby with a new identity.
//!
//! Killing the leader (`sim leader kill kube-controller-manager`) stops its process
//! without releasing the Lease (a killed process cannot), so the standbys wait until
//! the Lease has not been renewed for 15 s *by their own clock*: every controller of
//! the component is idle for that gap (their queues fill, nothing reconciles), then a
//! standby acquires, records `LeaderElection` ("<identity> became leader") on the
//! Lease, and its loops run what queued meanwhile, as a new leader's informers list
//! every object and its queues drain. The killed replica is restarted by its kubelet
//! as a standby with a new identity. With one replica the same replica, restarted,
//! takes its own Lease back once it has expired.
//!
//! The identity is upstream's `<hostname>_<uuid>` (the uuid drawn at each process
//! start from an RNG of the election's own, so the cluster's seeded stream — Pod names,
//! uids — is what it was before leader election was modelled).
//!
//! Upstream: `staging/src/k8s.io/client-go/tools/leaderelection/leaderelection.go`
//! (`tryAcquireOrRenew`, `acquire`, `renew`), `resourcelock/leaselock.go`
//! (`RecordEvent`: reason `LeaderElection`, message `<identity> became leader`),
//! `cmd/kube-controller-manager/app/controllermanager.go` (`leaderElectAndRun`, exit on
//! `leaderelection lost`), the defaults in `k8s.io/component-base/config/v1alpha1`
//! (15 s, 10 s, 2 s; the facts sheet §10).
//!
//! While the control plane is stalled (the API server down, etcd without quorum) the
//! replicas keep trying, as client-go's loops do, and every try fails: a leader that
//! has not renewed for its renew deadline gives up (`OnStoppedLeading`: the process
//! exits) and its kubelet restarts it as a standby with a new identity. Once the API
//! answers again, the Lease still names the old identity; every replica, the restarted
//! one included, must see that record unrenewed for a lease duration by its own clock
//! before it takes the Lease, so the component is leaderless for 15 s or more after
//! the outage. The new leader is a new process: its node lifecycle controller has no
//! heartbeat on record and gives every node a fresh grace period (`tryUpdateNodeHealth`:
//! "Missing timestamp for Node … Assuming now as a timestamp"). An outage shorter than
//! the renew deadline leaves the leader leading.

use super::*;
use crate::time::SECOND;

/// `--leader-elect-lease-duration`: 15 s.
pub const LEASE_DURATION: SimTime = 15 * SECOND;
/// `--leader-elect-renew-deadline`: 10 s.
pub const RENEW_DEADLINE: SimTime = 10 * SECOND;
/// `--leader-elect-retry-period`: 2 s.
pub const RETRY_PERIOD: SimTime = 2 * SECOND;
/// `JitterFactor` of a standby's retries (leaderelection.go's `JitterFactor = 1.2`).
const JITTER_PERCENT: u64 = 120;
/// The most replicas `sim leader replicas` accepts (control planes run 1, 3 or 5
/// hosts; 3 is the usual HA shape).
pub const MAX_REPLICAS: usize = 5;
/// The election's RNG salt.
const RNG_SALT: u64 = 0x6c65_6164;

/// A component that runs leader-elected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Elected {
    /// kube-controller-manager: every controller but the scheduler (and the GitOps
    /// agent, which is not part of Kubernetes).
    ControllerManager,
    /// kube-scheduler.
    Scheduler,
}

impl Elected {
    /// Both, in order.
    pub const ALL: [Elected; 2] = [Elected::ControllerManager, Elected::Scheduler];

    /// The component's name, which is also its Lease's name in `kube-system`.
    pub fn name(self) -> &'static str {
        match self {
            Elected::ControllerManager => "kube-controller-manager",
            Elected::Scheduler => "kube-scheduler",
        }
    }

    /// `kube-controller-manager` / `kube-scheduler` (also `kcm` and `scheduler`).
    pub fn parse(s: &str) -> Option<Elected> {
        match s {
            "kube-controller-manager" | "controller-manager" | "kcm" => {
                Some(Elected::ControllerManager)
            }
            "kube-scheduler" | "scheduler" => Some(Elected::Scheduler),
            _ => None,
        }
    }

    /// Who writes its Lease (the user agent) and records its Event (the scheduler's
    /// recorder is its profile's, `default-scheduler`).
    pub fn component(self) -> Component {
        match self {
            Elected::ControllerManager => Component::named("kube-controller-manager"),
            Elected::Scheduler => Component {
                writer: "kube-scheduler".into(),
                event_component: writer::DEFAULT_SCHEDULER.into(),
                host: String::new(),
            },
        }
    }

    /// The component a control loop runs in (None: outside the control plane).
    pub fn of(ctl: Ctl) -> Option<Elected> {
        match ctl {
            Ctl::Scheduler => Some(Elected::Scheduler),
            Ctl::GitOps | Ctl::ApiExtensions | Ctl::Script => None,
            _ => Some(Elected::ControllerManager),
        }
    }

    fn index(self) -> usize {
        match self {
            Elected::ControllerManager => 0,
            Elected::Scheduler => 1,
        }
    }

    /// Its Lease.
    pub fn lease_key(self) -> ObjKey {
        ObjKey::new("kube-system", self.name())
    }
}

/// One replica of a leader-elected component.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Candidate {
    /// The control-plane host it runs on.
    pub host: String,
    /// `<host>_<uuid>`, new at each process start.
    pub identity: String,
    /// Bumped at each restart: timers of an earlier process find another epoch.
    #[serde(skip)]
    epoch: u64,
    /// The record it last saw: (holder, renewTime in ms).
    #[serde(skip)]
    observed: Option<(String, SimTime)>,
    /// Its own clock when that record was first seen (`observedTime`).
    #[serde(skip)]
    observed_at: SimTime,
    /// When it last renewed, while it leads.
    #[serde(skip)]
    renewed_at: SimTime,
}

/// One component's election.
#[derive(Clone, Debug, Default)]
pub struct Election {
    /// Its replicas, by host.
    pub candidates: Vec<Candidate>,
    /// The replica leading, if one is.
    pub leader: Option<usize>,
    /// Since when no replica leads (None while one does).
    pub leaderless_since: Option<SimTime>,
    /// The longest leaderless gap so far, in ms (for lessons and tests).
    pub last_gap: Option<SimTime>,
    /// Its loops' timers that came due while no replica led.
    held: Vec<Timer>,
}

impl Election {
    /// The leading replica.
    pub fn leader(&self) -> Option<&Candidate> {
        self.leader.and_then(|i| self.candidates.get(i))
    }
}

/// The elections of the control plane.
#[derive(Clone, Debug)]
pub struct Elections {
    elections: [Election; 2],
    rng: Rng,
}

impl Elections {
    fn new(seed: u64) -> Self {
        Elections {
            elections: Default::default(),
            rng: Rng::new(seed ^ RNG_SALT),
        }
    }

    /// One component's election.
    pub fn get(&self, e: Elected) -> &Election {
        &self.elections[e.index()]
    }

    fn get_mut(&mut self, e: Elected) -> &mut Election {
        &mut self.elections[e.index()]
    }

    fn new_candidate(&mut self, host: String) -> Candidate {
        let identity = format!("{host}_{}", self.rng.uuid_v4());
        Candidate {
            host,
            identity,
            epoch: 0,
            observed: None,
            observed_at: 0,
            renewed_at: 0,
        }
    }

    /// A standby's next try: the retry period plus up to 1.2 × of it in jitter.
    fn jittered(&mut self) -> SimTime {
        RETRY_PERIOD + self.rng.below(RETRY_PERIOD * JITTER_PERCENT / 100 + 1)
    }
}

/// The election's state, built at cluster start.
pub(super) fn initial(seed: u64) -> Elections {
    Elections::new(seed)
}

/// The host name of replica `i` (0-based).
fn host(i: usize) -> String {
    format!("control-plane-{}", i + 1)
}

impl Cluster {
    /// The elections (read-only).
    pub fn elections(&self) -> &Elections {
        &self.elections
    }

    /// Start one replica of each component and let the first take its Lease at once,
    /// as the control plane does when the cluster comes up.
    pub(super) fn start_leader_election(&mut self) {
        for e in Elected::ALL {
            let c = self.elections.new_candidate(host(0));
            self.elections.get_mut(e).candidates.push(c);
            self.elections.get_mut(e).leaderless_since = Some(self.now);
            self.try_acquire_or_renew(e, 0);
        }
    }

    /// A replica's retry came due.
    pub(super) fn election_timer(&mut self, e: Elected, i: usize, epoch: u64) {
        let live = self
            .elections
            .get(e)
            .candidates
            .get(i)
            .is_some_and(|c| c.epoch == epoch);
        if live {
            self.try_acquire_or_renew(e, i);
        }
    }

    /// client-go's `tryAcquireOrRenew` for replica `i`, then its next try armed.
    fn try_acquire_or_renew(&mut self, e: Elected, i: usize) {
        let now = self.now;
        if !self.host_reaches_apiserver(i) || self.unavailable().is_some() {
            // Its host's API server is down, or the whole control plane stalled: the
            // Lease can be neither read nor written. A leader gives up once its renew
            // deadline has passed.
            let leading = self.elections.get(e).leader == Some(i);
            let renewed_at = self.elections.get(e).candidates[i].renewed_at;
            if leading && now >= renewed_at + RETRY_PERIOD + RENEW_DEADLINE {
                self.stop_leading(e);
                self.restart_replica(e, i);
                return;
            }
            self.arm_election(e, i);
            return;
        }
        let key = e.lease_key();
        let lease = self.store.get::<Lease>(&key).cloned();
        let identity = self.elections.get(e).candidates[i].identity.clone();
        let leading = self.elections.get(e).leader == Some(i);
        let acquired = match lease {
            None => {
                let lease = Lease {
                    metadata: ObjectMeta {
                        name: e.name().into(),
                        namespace: "kube-system".into(),
                        ..Default::default()
                    },
                    spec: election_spec(&identity, now, now, 0),
                };
                self.election_write(
                    e,
                    Request::Create {
                        object: Object::Lease(lease),
                        event: None,
                    },
                )
            }
            Some(mut l) => {
                let record = (l.spec.holder_identity.clone(), l.spec.renew_ms);
                let c = &mut self.elections.get_mut(e).candidates[i];
                if c.observed.as_ref() != Some(&record) {
                    c.observed = Some(record);
                    c.observed_at = now;
                }
                let held_by_other = !l.spec.holder_identity.is_empty()
                    && l.spec.holder_identity != identity
                    && c.observed_at + duration_of(&l) > now;
                if held_by_other {
                    false
                } else {
                    let (acquire, transitions) = if l.spec.holder_identity == identity {
                        (l.spec.extra.get("acquireTime").cloned(), transitions_of(&l))
                    } else {
                        (None, transitions_of(&l) + 1)
                    };
                    let mut spec = election_spec(&identity, now, now, transitions);
                    if let Some(a) = acquire {
                        spec.extra.insert("acquireTime".into(), a);
                    }
                    l.spec = spec;
                    self.election_write(e, Request::Update(Object::Lease(l)))
                }
            }
        };
        if acquired {
            let c = &mut self.elections.get_mut(e).candidates[i];
            c.observed = Some((identity.clone(), now));
            c.observed_at = now;
            c.renewed_at = now;
            if !leading {
                self.became_leader(e, i);
            }
        } else if leading {
            let renewed_at = self.elections.get(e).candidates[i].renewed_at;
            if now >= renewed_at + RETRY_PERIOD + RENEW_DEADLINE {
                // `leaderelection lost`: the process exits; its kubelet restarts it.
                self.stop_leading(e);
                self.restart_replica(e, i);
                return;
            }
        }
        self.arm_election(e, i);
    }

    /// Arm replica `i`'s next try: the leader renews every retry period, a standby
    /// retries with jitter.
    fn arm_election(&mut self, e: Elected, i: usize) {
        let leading = self.elections.get(e).leader == Some(i);
        let after = if leading {
            RETRY_PERIOD
        } else {
            self.elections.jittered()
        };
        let epoch = self.elections.get(e).candidates[i].epoch;
        self.push_timer(self.now + after, Timer::Elect(e, i, epoch));
    }

    /// Write the Lease (or its Event) as the component, with the election's own RNG.
    fn election_write(&mut self, e: Elected, r: Request) -> bool {
        std::mem::swap(&mut self.rng, &mut self.elections.rng);
        let ok = self.submit(&e.component(), r).is_ok();
        std::mem::swap(&mut self.rng, &mut self.elections.rng);
        ok
    }

    /// Replica `i` now leads: the `LeaderElection` Event on the Lease, and its loops'
    /// held timers run.
    fn became_leader(&mut self, e: Elected, i: usize) {
        let el = self.elections.get_mut(e);
        el.leader = Some(i);
        if let Some(since) = el.leaderless_since.take() {
            if self.now > since {
                el.last_gap = Some(self.now - since);
            }
        }
        let identity = el.candidates[i].identity.clone();
        let held = std::mem::take(&mut el.held);
        if let Some(lease) = self.store.get::<Lease>(&e.lease_key()) {
            let involved = crate::client::event_ref(Kind::Lease, &lease.metadata);
            self.election_write(
                e,
                Request::Event {
                    involved,
                    type_: EventType::Normal,
                    reason: "LeaderElection".into(),
                    message: format!("{identity} became leader"),
                },
            );
        }
        if e == Elected::ControllerManager {
            self.ensure_controller_accounts();
            // A new process: its node lifecycle controller starts with no heartbeat
            // on record, and assumes each node's is now.
            let now = self.now;
            for probe in self.controllers.node_lifecycle.ctl.probe.values_mut() {
                *probe = now;
            }
        }
        // Its loops' informers list and watch before they run anything.
        self.start_informers(e);
        let now = self.now;
        for t in held {
            self.push_timer(now, t);
        }
        self.recount_foreground();
    }

    /// kube-controller-manager starts its controllers, each with the credentials of
    /// its ServiceAccount in `kube-system` (`--use-service-account-credentials`): the
    /// client builder gets that account, or creates it (`SAControllerClientBuilder`'s
    /// `getOrCreateServiceAccount`).
    fn ensure_controller_accounts(&mut self) {
        let missing: Vec<Object> = crate::apiserver::rbac::CONTROLLER_ACCOUNTS
            .iter()
            .filter(|name| {
                self.store
                    .get::<ServiceAccount>(&ObjKey::new("kube-system", name))
                    .is_none()
            })
            .map(|name| {
                Object::ServiceAccount(ServiceAccount {
                    metadata: ObjectMeta {
                        name: name.to_string(),
                        namespace: "kube-system".into(),
                        ..Default::default()
                    },
                    ..Default::default()
                })
            })
            .collect();
        if missing.is_empty() {
            return;
        }
        // Their uids from an RNG of their own, so that neither the cluster's seeded
        // stream nor the elections' (who wins the next Lease) moves.
        let salt = 0x6b63_6d73 ^ self.store.revision();
        self.create_as(
            crate::client::writer::KUBE_CONTROLLER_MANAGER,
            salt,
            missing,
        );
    }

    fn stop_leading(&mut self, e: Elected) {
        let el = self.elections.get_mut(e);
        if el.leader.take().is_some() {
            el.leaderless_since = Some(self.now);
        }
        self.recount_foreground();
    }

    /// The replica's process starts again: a new identity, nothing observed, a
    /// standby's first try now.
    fn restart_replica(&mut self, e: Elected, i: usize) {
        let uuid = self.elections.rng.uuid_v4();
        let c = &mut self.elections.get_mut(e).candidates[i];
        c.identity = format!("{}_{uuid}", c.host);
        c.epoch += 1;
        c.observed = None;
        c.observed_at = 0;
        let epoch = c.epoch;
        self.push_timer(self.now, Timer::Elect(e, i, epoch));
    }

    /// `sim leader kill COMPONENT`: the leading replica's process is killed (its Lease
    /// is not released) and restarted by its kubelet as a standby. Returns the
    /// killed identity.
    pub fn kill_leader(&mut self, e: Elected) -> Result<String, String> {
        let Some(i) = self.elections.get(e).leader else {
            return Err(format!(
                "{} has no leader now: its replicas wait for the Lease to expire",
                e.name()
            ));
        };
        let identity = self.elections.get(e).candidates[i].identity.clone();
        self.stop_leading(e);
        self.restart_replica(e, i);
        Ok(identity)
    }

    /// `sim leader replicas N`: run N replicas of each component (hosts
    /// `control-plane-1..N`). New replicas start as standbys; removing the leader's
    /// host stops its process as a kill does.
    pub fn set_leader_replicas(&mut self, n: usize) -> Result<(), String> {
        if n == 0 || n > MAX_REPLICAS {
            return Err(format!("replicas must be between 1 and {MAX_REPLICAS}"));
        }
        if self.outage.is_some() {
            return Err("the control plane is stalled: start it first".into());
        }
        for e in Elected::ALL {
            let have = self.elections.get(e).candidates.len();
            if n < have {
                if self.elections.get(e).leader.is_some_and(|l| l >= n) {
                    self.stop_leading(e);
                }
                self.elections.get_mut(e).candidates.truncate(n);
            }
            for i in have..n {
                let c = self.elections.new_candidate(host(i));
                self.elections.get_mut(e).candidates.push(c);
                self.push_timer(self.now, Timer::Elect(e, i, 0));
            }
        }
        self.recount_foreground();
        Ok(())
    }

    /// While its component has no leader, a control loop's timer is held (returns
    /// None) until a replica acquires the Lease.
    pub(super) fn hold_if_leaderless(&mut self, timer: Timer) -> Option<Timer> {
        let ctl = match &timer {
            Timer::Process(c) => *c,
            Timer::Requeue(k) => k.ctl(),
            Timer::Own(t) => t.ctl(),
            _ => return Some(timer),
        };
        match Elected::of(ctl) {
            // No leader, or one whose host's API server is down (its loops cannot
            // reach the API until it gives up and another leads, or its server is
            // back).
            Some(e)
                if self
                    .elections
                    .get(e)
                    .leader
                    .is_none_or(|i| !self.host_reaches_apiserver(i)) =>
            {
                self.elections.get_mut(e).held.push(timer);
                None
            }
            _ => Some(timer),
        }
    }

    /// An API server replica came back: a leader on its host runs what its loops held.
    pub(super) fn release_reachable_leaders(&mut self) {
        let now = self.now;
        for e in Elected::ALL {
            let reachable = self
                .elections
                .get(e)
                .leader
                .is_some_and(|i| self.host_reaches_apiserver(i));
            if reachable {
                let held = std::mem::take(&mut self.elections.get_mut(e).held);
                for t in held {
                    self.push_timer(now, t);
                }
            }
        }
        self.recount_foreground();
    }

    /// Whether a replica's timer is background work: a renewal or a standby's retry
    /// while some replica leads is, and so is every try while the control plane is
    /// stalled (none can succeed); a try while none leads is not (the component's
    /// loops wait for it), nor is one whose process is gone.
    pub(super) fn election_timer_is_background(&self, e: Elected, i: usize, epoch: u64) -> bool {
        let el = self.elections.get(e);
        let live = el.candidates.get(i).is_some_and(|c| c.epoch == epoch);
        !live || el.leader.is_some() || self.outage.is_some()
    }
}

fn election_spec(identity: &str, acquire: SimTime, renew: SimTime, transitions: i64) -> LeaseSpec {
    let mut spec = LeaseSpec {
        holder_identity: identity.into(),
        lease_duration_seconds: (LEASE_DURATION / SECOND) as i64,
        renew_time: Some(micro_time(renew)),
        renew_ms: renew,
        ..Default::default()
    };
    spec.extra
        .insert("acquireTime".into(), micro_time(acquire).into());
    spec.extra
        .insert("leaseTransitions".into(), transitions.into());
    spec
}

use crate::time::rfc3339_micro as micro_time;

fn transitions_of(l: &Lease) -> i64 {
    l.spec
        .extra
        .get("leaseTransitions")
        .and_then(|v| v.as_i64())
        .unwrap_or(0)
}

fn duration_of(l: &Lease) -> SimTime {
    match l.spec.lease_duration_seconds {
        d if d > 0 => (d as SimTime).saturating_mul(SECOND),
        _ => LEASE_DURATION,
    }
}
