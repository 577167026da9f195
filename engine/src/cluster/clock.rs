//! The simulated clock: timers in (time, insertion) order, running them, settling, and
//! the count of foreground timers that tells a converged cluster from a busy one.
use super::*;

impl Cluster {
    /// Run every timer due up to `t`, then set the clock to `t`.
    pub fn run_until(&mut self, t: SimTime) {
        // Never out of time: it always reaches `t`.
        self.run_until_within(t, &mut || false);
    }

    /// [`Cluster::run_until`] that may stop early: after each timer it asks
    /// `out_of_time()`, and if that says yes it stops, the clock at that timer's time,
    /// and returns false; the next call goes on from there. The timers run in the same
    /// order either way, so a run cut into slices is identical to an uninterrupted one:
    /// the page plays a large cluster in slices it can afford per frame (at 5,000 nodes
    /// one instant can hold thousands of scheduling attempts), and the clock falls
    /// behind the wall instead of the page freezing. A stop inside an instant is
    /// remembered: [`Cluster::finish_instant`] completes it before anything else acts.
    pub fn run_until_within(&mut self, t: SimTime, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        while let Some((at, timer)) = self.timers.pop_due(t) {
            self.fire_popped(at, timer);
            if let Some(next) = self.timers.peek_time().filter(|&n| n <= t) {
                if out_of_time() {
                    self.mid_instant = next == at;
                    return false;
                }
            }
        }
        self.mid_instant = false;
        self.now = self.now.max(t);
        true
    }

    /// Whether a budgeted run stopped between two timers of the same instant.
    pub fn is_mid_instant(&self) -> bool {
        self.mid_instant
    }

    /// Run the rest of an instant a budgeted run stopped inside, so that a command
    /// acts on the world as it is between instants — where a replay, which runs every
    /// timer up to the command's time first, will find it.
    pub fn finish_instant(&mut self) {
        if self.mid_instant {
            self.run_until(self.now);
        }
    }

    /// Advance the clock by `ms`.
    pub fn advance(&mut self, ms: SimTime) {
        self.run_until(self.now.saturating_add(ms));
    }

    /// Run the next timer (whenever it is due); returns its time.
    pub fn step(&mut self) -> Option<SimTime> {
        let at = self.timers.peek_time()?;
        let (at, timer) = self.timers.pop_due(at)?;
        self.fire_popped(at, timer);
        // Stopping after one timer may leave others of its instant: whatever acts next
        // finishes it first (`finish_instant`), as a replay will have.
        self.mid_instant = self.timers.peek_time() == Some(at);
        Some(at)
    }

    /// Run timers until some object other than a heartbeat Lease is written (the
    /// learner's "next step"), at most `max_timers` of them; returns the time reached.
    /// A quiescent cluster does not move: only heartbeats would follow.
    pub fn step_visible(&mut self, max_timers: usize) -> SimTime {
        let start = self.store.log.len();
        for _ in 0..max_timers {
            if self.is_quiescent() || self.step().is_none() {
                break;
            }
            if self.store.log.since(start).any(|e| e.kind != Kind::Lease) {
                break;
            }
        }
        self.now
    }

    /// Run until the cluster is quiescent or `max` ms have passed; returns whether it
    /// converged.
    pub fn settle(&mut self, max: SimTime) -> bool {
        let deadline = self.now + max;
        while !self.is_quiescent() {
            match self.timers.peek_time() {
                // Only cancelled timers can remain when the live sets are empty.
                None => break,
                Some(t) if t <= deadline => {
                    self.step();
                }
                _ => break,
            }
        }
        if !self.is_quiescent() {
            // Still busy: the whole budget was spent.
            self.run_until(deadline);
        }
        self.is_quiescent()
    }

    /// One slice of `sim settle` as the page runs it: timers toward `deadline`, no
    /// further than `limit`, asking `out_of_time()` after each. Unlike
    /// [`Cluster::settle`] (the CLI's, judged between any two timers), quiescence is
    /// judged only between instants: a slice may stop inside an instant, and whatever
    /// acts next first finishes it ([`Cluster::finish_instant`]), so judging there too
    /// would make the answer depend on where the wall clock cut the run. Judged only
    /// between instants, a run in slices and its replay stop at the same moment. The
    /// reported time is the CLI's unless the rest of the settling instant (heartbeats
    /// and other background timers, which the CLI leaves for later) makes new work.
    pub fn settle_within(
        &mut self,
        deadline: SimTime,
        limit: SimTime,
        out_of_time: &mut dyn FnMut() -> bool,
    ) -> SettleSlice {
        loop {
            if !self.mid_instant && self.is_quiescent() {
                return SettleSlice::Done(true);
            }
            match self.timers.peek_time() {
                Some(t) if t <= deadline && t <= limit => {
                    let Some((at, timer)) = self.timers.pop_due(t) else {
                        continue;
                    };
                    self.fire_popped(at, timer);
                    self.mid_instant = self.timers.peek_time() == Some(at);
                    if out_of_time() {
                        return SettleSlice::OutOfTime;
                    }
                }
                // Nothing more to run before the deadline or the limit (or only
                // cancelled timers are left): the clock moves on to whichever is first.
                _ => {
                    let stop = deadline.min(limit);
                    self.run_until(stop);
                    return if stop == deadline {
                        SettleSlice::Done(self.is_quiescent())
                    } else {
                        SettleSlice::Limit
                    };
                }
            }
        }
    }

    pub(super) fn fire_popped(&mut self, at: SimTime, timer: Timer) {
        if self.foreground_dirty {
            // The queue no longer holds `timer`: counting it gives the count after it.
            self.foreground_timers = self.foreground_count();
            self.foreground_dirty = false;
        } else if !self.is_background(&timer) {
            self.foreground_timers = self.foreground_timers.saturating_sub(1);
        }
        self.now = self.now.max(at);
        self.fire(timer);
    }

    pub(super) fn fire(&mut self, timer: Timer) {
        let Some(timer) = self.hold_if_down(timer) else {
            return;
        };
        let Some(timer) = self.hold_if_leaderless(timer) else {
            return;
        };
        let now = self.now;
        match timer {
            Timer::Process(c) => self.controller_process(c),
            Timer::Requeue(k) => self.controller_requeue(k),
            Timer::Own(t) => self.controller_timer(t),
            Timer::Kubelet(node, epoch, t) => {
                let Some(k) = self.kubelets.get_mut(&node) else {
                    return;
                };
                if k.epoch != epoch {
                    return;
                }
                if matches!(t, KubeletTimer::Heartbeat) && self.reconnecting.contains(&node) {
                    // Its retries reach the API server again: it reports first.
                    self.reconnect_kubelet(&node);
                }
                let Some(k) = self.kubelets.get_mut(&node) else {
                    return;
                };
                let heartbeat = matches!(t, KubeletTimer::Heartbeat);
                let out = k.fire(&mut self.faults, &self.store, t, now);
                self.kubelet_output(&node, out);
                if heartbeat {
                    self.eviction_cycle(&node);
                }
            }
            Timer::Proxy(t) => self.proxy_timer(t),
            Timer::Elect(e, i, epoch) => self.election_timer(e, i, epoch),
            Timer::Rewatch(c) => self.rewatch(c),
            Timer::ApiServer(i, epoch) => self.apiserver_heartbeat(i, epoch),
        }
    }

    /// Start a request flow (`sim traffic`).
    pub fn start_traffic(&mut self, flow: crate::proxy::Flow) {
        if let Some((at, t)) = self.proxies.start(flow, self.now) {
            self.push_timer(at, Timer::Proxy(t));
        }
    }

    /// The kube-proxies program what they saw, or the traffic generator sends a batch.
    fn proxy_timer(&mut self, t: crate::proxy::ProxyTimer) {
        let nodes: Vec<String> = self.kubelets.keys().cloned().collect();
        let kubelets = &self.kubelets;
        let next = match t {
            crate::proxy::ProxyTimer::Sync => {
                let connected = |n: &str| kubelets.get(n).filter(|k| k.up).map(|k| !k.partitioned);
                self.proxies.sync(&self.store, connected, &nodes);
                None
            }
            crate::proxy::ProxyTimer::Traffic => {
                let now = self.now;
                let w = super::connections::World {
                    store: &self.store,
                    faults: &self.faults,
                    kubelets,
                    now,
                };
                let node_up = |n: &str| w.node_up(n);
                let answer = |e: &crate::proxy::RuleEndpoint, from: crate::proxy::Client<'_>| {
                    w.answer(e, from)
                };
                let instance = |uid: &str| w.instance(uid);
                let store = &self.store;
                // The ingress controller's choice of a Service for a flow through an
                // Ingress it implements.
                let route = |ing: &ObjKey, host: &str, path: &str| {
                    let i = store.get::<Ingress>(ing)?;
                    if !crate::controllers::ingress::implements(store, i) {
                        return None;
                    }
                    let svc = crate::proxy::ingress::route(i, host, path)?
                        .service
                        .as_ref()?;
                    Some(ObjKey::new(&ing.namespace, &svc.name))
                };
                self.proxies.tick(
                    now,
                    &mut self.rng,
                    &nodes,
                    node_up,
                    answer,
                    instance,
                    route,
                    &mut self.config.served,
                )
            }
        };
        if let Some((at, t)) = next {
            self.push_timer(at, Timer::Proxy(t));
        }
    }

    pub(super) fn is_background(&self, t: &Timer) -> bool {
        match t {
            // A heartbeat that will reconnect its kubelet after a stall is work still
            // to do: the node is reported again only then.
            Timer::Kubelet(n, _, KubeletTimer::Heartbeat) => !self.reconnecting.contains(n),
            Timer::Kubelet(_, _, KubeletTimer::Housekeeping) => true,
            Timer::Kubelet(n, epoch, _) => self.kubelets.get(n).is_none_or(|k| k.epoch != *epoch),
            Timer::Own(t) => self.controllers.timer_is_background(t, &|n| {
                self.kubelets.get(n).is_some_and(|k| k.up && !k.partitioned)
            }),
            Timer::Requeue(k) => Controllers::requeue_is_background(k),
            Timer::Process(_) => false,
            // Requests are the world's doing, not the cluster's work: a running flow
            // never keeps `sim settle` from settling.
            Timer::Proxy(crate::proxy::ProxyTimer::Traffic) => true,
            Timer::Proxy(crate::proxy::ProxyTimer::Sync) => false,
            Timer::Elect(e, i, epoch) => self.election_timer_is_background(*e, *i, *epoch),
            // A loop that is told nothing has work to catch up on.
            Timer::Rewatch(_) => false,
            // A periodic renewal: never work `sim settle` waits for.
            Timer::ApiServer(..) => true,
        }
    }

    pub(super) fn push_timer(&mut self, at: SimTime, t: Timer) {
        if !self.is_background(&t) {
            self.foreground_timers += 1;
        }
        self.timers.push(at.max(self.now), t);
    }

    pub(super) fn recount_foreground(&mut self) {
        // Power changes re-classify that node's timers; count again when next needed.
        self.foreground_dirty = true;
    }

    /// What keeps the cluster from being quiescent: up to `max` pending foreground
    /// timers (their Debug form, soonest first is not promised), and which
    /// controllers still have live work.
    pub fn busy_work(&self, max: usize) -> Vec<String> {
        let mut out: Vec<String> = self
            .timers
            .iter()
            .filter(|t| !self.is_background(t))
            .take(max)
            .map(|t| format!("{t:?}"))
            .collect();
        if self.controllers.busy() {
            out.push("a controller has live work".into());
        }
        out
    }

    /// Whether the running count of foreground timers agrees with a recount of the
    /// queue: a change that re-classifies timers without saying so would make
    /// `settle` wait for work that is not there, or stop before work that is.
    pub fn foreground_count_is_exact(&self) -> bool {
        self.foreground_dirty
            || self.foreground_timers
                == self
                    .timers
                    .iter()
                    .filter(|t| !self.is_background(t))
                    .count()
    }

    /// Pending timers that are not background work.
    pub(super) fn foreground_count(&self) -> usize {
        if self.foreground_dirty {
            self.timers
                .iter()
                .filter(|t| !self.is_background(t))
                .count()
        } else {
            self.foreground_timers
        }
    }
}

/// How a slice of [`Cluster::settle_within`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettleSlice {
    /// The settle is over: converged (true) or the deadline passed (false).
    Done(bool),
    /// The clock reached the slice's limit; the settle goes on in the next slice.
    Limit,
    /// The wall-time budget ran out (possibly inside an instant).
    OutOfTime,
}
