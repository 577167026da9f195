//! The registry of control loops: the one list of every [`Controller`] in the cluster,
//! and the generic loop that runs each of them (upstream's `processNextWorkItem`).
//!
//! Adding a controller is one line in [`registry!`] below: the macro makes its slot in
//! [`Controllers`], its variant in [`Ctl`], its keys and timers in [`CtlKey`] /
//! [`CtlTimer`], and the exhaustive matches that dispatch to it — an unlisted
//! controller cannot be called, and a listed one cannot be forgotten by a match.
//!
//! Order matters for determinism: every change is shown to the controllers in this
//! order, and controllers woken at the same instant run in this order.

use super::informers::{LoopStats, LoopView, Watch};
use super::{Cluster, Timer};
use crate::apiserver::{ApiError, Change};
use crate::client::{Component, Request};
use crate::controllers::apiextensions::ApiExtensionsControllers;
use crate::controllers::attach_detach::AttachDetachController;
use crate::controllers::cronjob::CronJobController;
use crate::controllers::daemonset::DaemonSetController;
use crate::controllers::deployment::DeploymentController;
use crate::controllers::disruption::DisruptionController;
use crate::controllers::endpointslice::endpoints::EndpointsController;
use crate::controllers::endpointslice::mirroring::EndpointSliceMirroringController;
use crate::controllers::endpointslice::EndpointSliceController;
use crate::controllers::garbage_collector::GarbageCollector;
use crate::controllers::gitops::GitOpsController;
use crate::controllers::hpa::HorizontalController;
use crate::controllers::ingress::IngressController;
use crate::controllers::job::JobController;
use crate::controllers::namespace::NamespaceController;
use crate::controllers::node_lifecycle::NodeLifecycleController;
use crate::controllers::pod_gc::PodGcController;
use crate::controllers::replicaset::ReplicaSetController;
use crate::controllers::resource_quota::ResourceQuotaController;
use crate::controllers::root_ca_publisher::RootCaPublisher;
use crate::controllers::script::ScriptController;
use crate::controllers::service_account::ServiceAccountsController;
use crate::controllers::statefulset::StatefulSetController;
use crate::controllers::taint_eviction::TaintEvictionController;
use crate::controllers::ttl_after_finished::TtlAfterFinishedController;
use crate::controllers::volume::{
    ExternalProvisioner, PersistentVolumeController, PvProtectionController,
    PvcProtectionController,
};
use crate::controllers::{Controller, Ctx, KeyLabel, RateLimiter, WorkQueue};
use crate::scheduler::Scheduler;
use crate::time::SimTime;

/// One controller with the machinery the cluster runs it with: its informers' watch,
/// its work queue, whether its wake-up is armed, its rate limiter, and what it did.
#[derive(Clone, Debug)]
pub struct Loop<C: Controller> {
    /// The controller and its own state.
    pub ctl: C,
    queue: WorkQueue<C::Key>,
    armed: bool,
    limiter: RateLimiter<C::Key>,
    /// Its informers' watch (`cluster::informers`).
    pub(super) watch: Watch,
    /// Reconciles run, and the last one.
    pub(super) stats: LoopStats,
}

impl<C: Controller> Default for Loop<C> {
    fn default() -> Self {
        let (base, max) = C::RETRY.on_error.unwrap_or((0, 0));
        Loop {
            ctl: C::default(),
            queue: WorkQueue::default(),
            armed: false,
            limiter: RateLimiter::new(base, max),
            watch: Watch::default(),
            stats: LoopStats::default(),
        }
    }
}

impl<C: Controller> std::ops::Deref for Loop<C> {
    type Target = C;
    fn deref(&self) -> &C {
        &self.ctl
    }
}

impl<C: Controller> std::ops::DerefMut for Loop<C> {
    fn deref_mut(&mut self) -> &mut C {
        &mut self.ctl
    }
}

impl<C: Controller> Loop<C> {
    /// Keys waiting in its queue.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// Its queue and watch as the queue view shows them.
    pub fn view(&self, c: Ctl) -> LoopView {
        let mut v = LoopView {
            name: c.component().writer,
            depth: self.queue.len(),
            next: self.queue.peek(3).map(|k| k.label()).collect(),
            failing: self.limiter.failing(),
            stats: self.stats.clone(),
            watch: self.watch.view(),
        };
        if let Some(q) = self.ctl.own_queue() {
            v.depth = q.depth;
            v.next = q.next;
            v.failing = q.waiting;
            v.stats.syncs = q.syncs;
            if let Some((key, at)) = q.last {
                v.stats.last_key = key;
                v.stats.last_at = Some(at);
            }
        }
        v
    }
}

/// A registered controller: where its slot is and how its keys and timers are tagged.
pub trait Registered: Controller {
    /// Its slot.
    fn slot(cs: &mut Controllers) -> &mut Loop<Self>;
    /// Its key, tagged for the cluster's clock.
    fn tag_key(key: Self::Key) -> CtlKey;
    /// Its timer, tagged for the cluster's clock.
    fn tag_timer(timer: Self::Timer) -> CtlTimer;
}

macro_rules! registry {
    ($( $(#[$doc:meta])* $variant:ident => $field:ident : $ty:ty ),+ $(,)?) => {
        /// Every control loop, by name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Ctl {
            $( $(#[$doc])* $variant ),+
        }

        impl Ctl {
            /// All of them, in registry order.
            pub const ALL: &'static [Ctl] = &[$(Ctl::$variant),+];

            /// Its identity as a writer and Event source.
            pub fn component(self) -> Component {
                match self {
                    $( Ctl::$variant => <$ty as Controller>::identity() ),+
                }
            }

            /// The kinds its informers list and watch.
            pub fn watches(self) -> &'static [crate::api::Kind] {
                match self {
                    $( Ctl::$variant => <$ty as Controller>::WATCHES ),+
                }
            }
        }

        /// A key of some controller's work queue.
        #[derive(Clone, Debug)]
        pub enum CtlKey {
            $( $(#[$doc])* $variant(<$ty as Controller>::Key) ),+
        }

        /// A timer of some controller.
        #[derive(Clone, Debug)]
        pub enum CtlTimer {
            $( $(#[$doc])* $variant(<$ty as Controller>::Timer) ),+
        }

        impl CtlKey {
            /// The control loop it belongs to.
            pub fn ctl(&self) -> Ctl {
                match self {
                    $( CtlKey::$variant(_) => Ctl::$variant ),+
                }
            }
        }

        impl CtlTimer {
            /// The control loop it belongs to.
            pub fn ctl(&self) -> Ctl {
                match self {
                    $( CtlTimer::$variant(_) => Ctl::$variant ),+
                }
            }
        }

        /// Every control loop with its queue.
        #[derive(Clone, Debug, Default)]
        pub struct Controllers {
            $( $(#[$doc])* pub $field: Loop<$ty> ),+
        }

        $(
            impl Registered for $ty {
                fn slot(cs: &mut Controllers) -> &mut Loop<Self> {
                    &mut cs.$field
                }
                fn tag_key(key: Self::Key) -> CtlKey {
                    CtlKey::$variant(key)
                }
                fn tag_timer(timer: Self::Timer) -> CtlTimer {
                    CtlTimer::$variant(timer)
                }
            }
        )+

        impl Controllers {
            /// Whether any controller waits for work no foreground timer shows.
            pub fn busy(&self) -> bool {
                false $( || self.$field.ctl.is_busy() )+
            }

            fn queue_empty(&self, c: Ctl) -> bool {
                match c {
                    $( Ctl::$variant => self.$field.queue.is_empty() ),+
                }
            }

            fn set_armed(&mut self, c: Ctl, armed: bool) -> bool {
                let slot = match c {
                    $( Ctl::$variant => &mut self.$field.armed ),+
                };
                std::mem::replace(slot, armed)
            }

            pub(super) fn timer_is_background(
                &self,
                t: &CtlTimer,
                heartbeating: &dyn Fn(&str) -> bool,
            ) -> bool {
                match t {
                    $( CtlTimer::$variant(t) => self.$field.ctl.is_background(t, heartbeating) ),+
                }
            }

            /// What every loop's queue and watch look like now, in registry order.
            pub fn views(&self) -> Vec<LoopView> {
                vec![$( self.$field.view(Ctl::$variant) ),+]
            }

            pub(super) fn watch_mut(&mut self, c: Ctl) -> &mut Watch {
                match c {
                    $( Ctl::$variant => &mut self.$field.watch ),+
                }
            }

            pub(super) fn watch(&self, c: Ctl) -> &Watch {
                match c {
                    $( Ctl::$variant => &self.$field.watch ),+
                }
            }

            pub(super) fn requeue_is_background(k: &CtlKey) -> bool {
                match k {
                    $( CtlKey::$variant(_) => <$ty as Controller>::RETRY.requeue_is_background ),+
                }
            }
        }

        impl Cluster {
            /// Show a write to every controller, in registry order.
            pub(super) fn controllers_on_change(&mut self, ch: &Change) {
                $( self.loop_on_change::<$ty>(ch); )+
            }

            /// Hand one controller the changes its watch delivers now (a resumed
            /// watch's missed events, or a relist's).
            pub(super) fn controller_deliver(&mut self, c: Ctl, changes: &[Change]) {
                match c {
                    $( Ctl::$variant => for ch in changes { self.deliver::<$ty>(ch) } ),+
                }
            }

            /// A controller's wake-up: sync every key in its queue.
            pub(super) fn controller_process(&mut self, c: Ctl) {
                match c {
                    $( Ctl::$variant => self.loop_process::<$ty>() ),+
                }
            }

            /// A requeue came due: the key goes back on its queue.
            pub(super) fn controller_requeue(&mut self, k: CtlKey) {
                match k {
                    $( CtlKey::$variant(k) => self.controllers.$field.queue.add(k) ),+
                }
                self.arm_controllers();
            }

            /// A controller's own timer fired.
            pub(super) fn controller_timer(&mut self, t: CtlTimer) {
                match t {
                    $( CtlTimer::$variant(t) => self.loop_timer::<$ty>(t) ),+
                }
            }
        }
    };
}

registry! {
    /// deployment-controller.
    Deployment => deployment: DeploymentController,
    /// replicaset-controller.
    ReplicaSet => replicaset: ReplicaSetController,
    /// garbage-collector.
    GarbageCollector => gc: GarbageCollector,
    /// node-lifecycle-controller (readiness, taints).
    NodeLifecycle => node_lifecycle: NodeLifecycleController,
    /// taint-eviction-controller.
    TaintEviction => taint_eviction: TaintEvictionController,
    /// namespace-controller: empties terminating namespaces.
    Namespace => namespace: NamespaceController,
    /// resourcequota-controller: ResourceQuota status.
    ResourceQuota => resource_quota: ResourceQuotaController,
    /// disruption-controller: PodDisruptionBudget status.
    Disruption => disruption: DisruptionController,
    /// endpointslice-controller: the EndpointSlices of Services.
    EndpointSlice => endpointslice: EndpointSliceController,
    /// endpoint-controller: the (deprecated) Endpoints of Services.
    Endpoints => endpoints: EndpointsController,
    /// endpointslicemirroring-controller: EndpointSlices from hand-written Endpoints.
    EndpointSliceMirroring => endpointslice_mirroring: EndpointSliceMirroringController,
    /// pod-garbage-collector: Pods of deleted nodes.
    PodGc => pod_gc: PodGcController,
    /// A GitOps agent re-applying declared Deployment specs (not part of Kubernetes).
    GitOps => gitops: GitOpsController,
    /// daemonset-controller: a Pod on every eligible node.
    DaemonSet => daemonset: DaemonSetController,
    /// job-controller: runs a Job's Pods to completion.
    Job => job: JobController,
    /// cronjob-controller: creates Jobs on a schedule.
    CronJob => cronjob: CronJobController,
    /// ttl-after-finished-controller: deletes finished Jobs after their TTL.
    TtlAfterFinished => ttl_after_finished: TtlAfterFinishedController,
    /// statefulset-controller: Pods with stable names and storage, in order.
    StatefulSet => statefulset: StatefulSetController,
    /// horizontal-pod-autoscaler: resizes workloads to their metrics.
    Hpa => hpa: HorizontalController,
    /// persistentvolume-controller: binds claims to volumes.
    PersistentVolume => persistent_volume: PersistentVolumeController,
    /// The default StorageClass's external provisioner.
    Provisioner => provisioner: ExternalProvisioner,
    /// pvc-protection-controller: a claim in use is not removed.
    PvcProtection => pvc_protection: PvcProtectionController,
    /// pv-protection-controller: a bound volume is not removed.
    PvProtection => pv_protection: PvProtectionController,
    /// attachdetach-controller: a disk attached to the node of the Pod using it.
    AttachDetach => attach_detach: AttachDetachController,
    /// serviceaccount-controller: the `default` ServiceAccount of every namespace.
    ServiceAccounts => service_accounts: ServiceAccountsController,
    /// root-ca-cert-publisher: the `kube-root-ca.crt` ConfigMap of every namespace.
    RootCaPublisher => root_ca_publisher: RootCaPublisher,
    /// The ingress controller (ingress-nginx's behaviour; not part of Kubernetes).
    Ingress => ingress: IngressController,
    /// The API server's CustomResourceDefinition controllers: names, establishing,
    /// cleanup.
    ApiExtensions => apiextensions: ApiExtensionsControllers,
    /// The learner's own controller (`sim controller`), written in JavaScript.
    Script => script: ScriptController,
    /// default-scheduler: binds Pods to nodes.
    Scheduler => scheduler: Scheduler,
}

impl Cluster {
    /// Hand what a call asked for to the queue and the clock, in order.
    fn absorb<C: Registered>(&mut self, keys: Vec<C::Key>, timers: Vec<(SimTime, C::Timer)>) {
        for k in keys {
            C::slot(&mut self.controllers).queue.add(k);
        }
        for (at, t) in timers {
            self.push_timer(at, Timer::Own(C::tag_timer(t)));
        }
    }

    fn loop_on_change<C: Registered>(&mut self, ch: &Change) {
        let slot = C::slot(&mut self.controllers);
        if slot.watch.broken.is_some() {
            // Its watch is broken: the change waits in the API server's watch cache.
            slot.watch.miss(ch);
            return;
        }
        self.deliver::<C>(ch);
    }

    /// The informer's event handlers see `ch`.
    fn deliver<C: Registered>(&mut self, ch: &Change) {
        let revision = self.store.revision();
        let (keys, timers) = {
            let slot = C::slot(&mut self.controllers);
            slot.watch.resource_version = revision;
            slot.watch.delivered += 1;
            let mut ctx = Ctx::new(&self.store, self.now, &mut self.rng, &self.config);
            slot.ctl.on_change(ch, &mut ctx);
            ctx.take()
        };
        self.absorb::<C>(keys, timers);
    }

    fn loop_timer<C: Registered>(&mut self, t: C::Timer) {
        let (mut requests, keys, timers) = {
            let slot = C::slot(&mut self.controllers);
            let mut ctx = Ctx::new(&self.store, self.now, &mut self.rng, &self.config);
            let requests = slot.ctl.on_timer(t, &mut ctx);
            let (keys, timers) = ctx.take();
            (requests, keys, timers)
        };
        self.absorb::<C>(keys, timers);
        // A Bind's Scheduled event follows only its success (`bind`, then the event):
        // a refused Bind goes back to the controller, and what followed it is dropped.
        if let Some(pos) = requests
            .iter()
            .position(|r| matches!(r, Request::Bind { .. }))
        {
            let rest = requests.split_off(pos + 1);
            let bind = requests.pop();
            let _ = self.apply(&C::identity(), requests);
            if let Some(bind) = bind {
                match self.apply(&C::identity(), vec![bind.clone()]) {
                    Ok(()) => {
                        let _ = self.apply(&C::identity(), rest);
                    }
                    Err(e) => {
                        let (requests, keys, timers) = {
                            let slot = C::slot(&mut self.controllers);
                            let mut ctx =
                                Ctx::new(&self.store, self.now, &mut self.rng, &self.config);
                            let requests = slot.ctl.request_refused(&bind, &e, &mut ctx);
                            let (keys, timers) = ctx.take();
                            (requests, keys, timers)
                        };
                        self.absorb::<C>(keys, timers);
                        let _ = self.apply(&C::identity(), requests);
                    }
                }
            }
        } else {
            let _ = self.apply(&C::identity(), requests);
        }
        self.arm_controllers();
    }

    /// `processNextWorkItem` for every queued key: sync, send, and on a refusal tell
    /// the controller and requeue through the rate limiter; else forget its failures
    /// and honour `requeue_after`.
    fn loop_process<C: Registered>(&mut self) {
        C::slot(&mut self.controllers).armed = false;
        let now = self.now;
        let who = C::identity();
        let keys = C::slot(&mut self.controllers).queue.drain();
        for key in keys {
            {
                let slot = C::slot(&mut self.controllers);
                slot.stats.syncs += 1;
                slot.stats.last_key = key.label();
                slot.stats.last_at = Some(now);
            }
            let (r, more, timers) = {
                let slot = C::slot(&mut self.controllers);
                let mut ctx = Ctx::new(&self.store, now, &mut self.rng, &self.config);
                let r = slot.ctl.sync(&key, &mut ctx);
                let (more, timers) = ctx.take();
                (r, more, timers)
            };
            self.absorb::<C>(more, timers);
            let result = self.apply(&who, r.requests);
            if let Err(e) = &result {
                let requests = self.sync_failed::<C>(&key, e);
                let _ = self.apply(&who, requests);
            }
            let after = match result {
                Err(_) => C::RETRY.on_error.map(|_| {
                    let slot = C::slot(&mut self.controllers);
                    slot.stats.retries += 1;
                    slot.limiter.when(key.clone(), now)
                }),
                Ok(()) => {
                    C::slot(&mut self.controllers).limiter.forget(&key);
                    r.requeue_after
                }
            };
            if let Some(after) = after {
                self.push_timer(now.saturating_add(after), Timer::Requeue(C::tag_key(key)));
            }
        }
    }

    fn sync_failed<C: Registered>(&mut self, key: &C::Key, e: &ApiError) -> Vec<Request> {
        let slot = C::slot(&mut self.controllers);
        let mut ctx = Ctx::new(&self.store, self.now, &mut self.rng, &self.config);
        slot.ctl.sync_failed(key, e, &mut ctx)
    }

    /// Wake every controller with queued keys `controller_latency` from now (once).
    pub(super) fn arm_controllers(&mut self) {
        for &c in Ctl::ALL {
            if !self.controllers.queue_empty(c) && !self.controllers.set_armed(c, true) {
                let at = self.now + self.config.controller_latency;
                self.push_timer(at, Timer::Process(c));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Kind;
    use crate::apiserver::ObjKey;

    #[test]
    fn a_requeue_of_the_garbage_collector_puts_its_key_back_and_wakes_it() {
        let mut c = Cluster::with_default_nodes(1);
        assert!(c.settle(60_000));
        let key = (Kind::Pod, ObjKey::new("default", "gone"));
        c.controller_requeue(CtlKey::GarbageCollector(key));
        assert_eq!(c.controllers.gc.queued(), 1);
        assert!(!c.is_quiescent(), "the garbage collector is woken");
        let writes = c.store.log.len();
        assert!(c.settle(60_000));
        assert_eq!(c.controllers.gc.queued(), 0, "it synced the key");
        let after: Vec<_> = c
            .store
            .log
            .since(writes)
            .filter(|e| e.kind != Kind::Lease)
            .collect();
        assert!(after.is_empty(), "nothing to collect: {after:?}");
    }

    #[test]
    fn every_controller_that_syncs_keys_retries_a_refused_request() {
        // The taint-eviction controller alone retries inside the eviction (upstream).
        for (ctl, retries) in [
            (Ctl::Deployment, DeploymentController::RETRY.on_error),
            (Ctl::ReplicaSet, ReplicaSetController::RETRY.on_error),
            (Ctl::GarbageCollector, GarbageCollector::RETRY.on_error),
            (Ctl::NodeLifecycle, NodeLifecycleController::RETRY.on_error),
            (Ctl::Namespace, NamespaceController::RETRY.on_error),
            (Ctl::Disruption, DisruptionController::RETRY.on_error),
        ] {
            assert!(retries.is_some(), "{ctl:?} drops its failed keys");
        }
        assert_eq!(TaintEvictionController::RETRY.on_error, None);
    }
}
