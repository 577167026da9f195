//! Requests through the API server's one door (`submit` for a component's request,
//! `call` for any client's, and `apply` for a component's batch with
//! `slowStartBatch`), and the informers: every accepted write is shown to every
//! registered controller and to the kubelets of the Pod's nodes.
use super::*;
use crate::apiserver::request::{ApiRequest, ApiResponse, Backend};

impl Cluster {
    /// Send one request to the API server through its one door
    /// ([`crate::apiserver::door`]): every stage, then the informers see what it
    /// wrote.
    pub fn call(&mut self, req: ApiRequest) -> Result<ApiResponse, ApiError> {
        let unavailable = self.unavailable();
        let etcd = if req.trace.is_some() {
            (
                self.etcd.leader_name().unwrap_or("-").to_string(),
                self.etcd.up_count(),
                self.etcd.members.len(),
                self.etcd.quorum(),
            )
        } else {
            Default::default()
        };
        let servers = crate::kubelet::logs::Servers {
            kubelets: &self.kubelets,
            served: &self.proxies.logs,
        };
        let backend = Backend {
            unavailable,
            etcd,
            nodes: Some(&servers),
            // Only a write meets admission's webhooks.
            webhooks: if req.verb.reads() {
                None
            } else {
                self.webhook_net()
            },
        };
        let r = self
            .api
            .call(&mut self.store, &mut self.rng, self.now, &backend, req);
        if let Ok(resp) = &r {
            for ch in &resp.changes {
                self.dispatch(ch);
            }
        }
        r
    }

    /// Every request the API server answered, counted by shape and status code
    /// (`apiserver_request_total`): the components' LISTs and WATCHes included.
    pub fn request_counts(
        &self,
    ) -> &std::collections::BTreeMap<crate::apiserver::metrics::RequestShape, u64> {
        &self.api.counts
    }

    /// Field ownership (read-only).
    pub fn managed_fields(&self) -> &crate::apiserver::managed_fields::ManagedFields {
        &self.api.managed
    }

    /// The recent requests people sent, with their stages.
    pub fn request_log(&self) -> &crate::apiserver::request_path::RequestLog {
        &self.api.requests
    }

    /// Keep the requests `log` holds after request `after` (a client dry run's reads,
    /// made on kubectl's own copy of the cluster), numbered on from this log's.
    pub fn adopt_requests(&mut self, log: &crate::apiserver::request_path::RequestLog, after: u64) {
        for r in log.recent.iter().filter(|r| r.n > after) {
            self.api.requests.push(r.clone());
        }
    }

    /// The shapes of the components' requests RBAC refused so far
    /// (`client|verb|group|resource|subresource|namespace|name`), sorted: empty while
    /// every component is allowed what it does.
    pub fn component_refusals(&self) -> Vec<String> {
        self.api.component_refusals()
    }

    /// Send one request as `who`; returns the API server's changes. A create or delete
    /// that carries an Event records it once it succeeded, as a second request (the
    /// client's recorder, as pod control does upstream).
    pub fn submit(&mut self, who: &Component, req: Request) -> Result<Vec<Change>, ApiError> {
        if let Request::SlowStart(requests) = req {
            // Reached only through `submit` from outside a component: run it in full.
            let mut out = Vec::new();
            for r in requests {
                out.extend(self.submit(who, r)?);
            }
            return Ok(out);
        }
        let event = match &req {
            Request::Create { event, .. } | Request::Delete { event, .. } => event.clone(),
            _ => None,
        };
        let deleted = match &req {
            Request::Delete { key, .. } => Some(key.name.clone()),
            _ => None,
        };
        let resp = self.call(who.request(req))?;
        let mut changes = resp.changes;
        if let Some(e) = event {
            let name = deleted
                .or_else(|| changes.first().map(|c| c.key.name.clone()))
                .unwrap_or_default();
            let recorded = Request::Event {
                involved: e.involved.clone(),
                type_: e.type_,
                reason: e.reason.into(),
                message: format!("{}{name}", e.message_prefix),
            };
            if let Ok(r) = self.call(who.request(recorded)) {
                changes.extend(r.changes);
            }
        }
        Ok(changes)
    }

    /// Apply a component's requests in order; a refused one is recorded and the rest go on.
    pub(super) fn apply(
        &mut self,
        who: &Component,
        requests: Vec<Request>,
    ) -> Result<(), ApiError> {
        let mut first_err = None;
        let mut written = Written::default();
        for mut r in requests {
            let target = written.rebase(&mut r);
            let created = match &r {
                Request::Create { object, .. } if !object.meta().name.is_empty() => {
                    Some((object.kind(), ObjKey::of(object.meta())))
                }
                _ => None,
            };
            match self.apply_one(who, r) {
                Ok(()) => {
                    if let Some((kind, key)) = created {
                        if let Some(o) = self.store.get_object(kind, &key) {
                            let m = o.meta();
                            written.created.push((
                                kind,
                                key,
                                m.uid.clone(),
                                m.resource_version.clone(),
                            ));
                        }
                    }
                    if let Some((kind, key, sent)) = target {
                        let now = self.store.get_object(kind, &key);
                        let rv = now.map(|o| o.meta().resource_version.clone());
                        written.record(kind, key, sent, rv.unwrap_or_default());
                    }
                }
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
        match first_err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Keep a refused request, and only the last [`MAX_FAILED`].
    fn record_failed(&mut self, f: FailedRequest) {
        if self.failed.len() >= MAX_FAILED {
            self.failed.pop_front();
        }
        self.failed.push_back(f);
    }

    pub(super) fn apply_one(&mut self, who: &Component, r: Request) -> Result<(), ApiError> {
        if let Some(u) = self.unavailable() {
            // Refused before any stage (or timed out at the store): nothing is
            // written, no Event recorded (recording one is a write too).
            let e = u.error();
            self.record_failed(FailedRequest {
                time: self.now,
                writer: who.writer.clone(),
                error: e.kubectl_text(),
            });
            return Err(e);
        }
        if let Request::SlowStart(requests) = r {
            return self.slow_start_batch(who, requests);
        }
        let on_failure = match &r {
            Request::Create { event: Some(e), .. } | Request::Delete { event: Some(e), .. } => {
                e.on_failure.map(|f| (e.involved.clone(), f))
            }
            _ => None,
        };
        let result = self.submit(who, r).map(|_| ());
        if let Err(e) = &result {
            self.record_failed(FailedRequest {
                time: self.now,
                writer: who.writer.clone(),
                error: e.kubectl_text(),
            });
            if let Some((involved, (reason, prefix))) = on_failure {
                let warning = Request::Event {
                    involved,
                    type_: EventType::Warning,
                    reason: reason.into(),
                    message: format!("{prefix}{}", e.message),
                };
                // Recording it is a request of its own, which may be refused too.
                let _ = self.call(who.request(warning));
            }
        }
        result
    }

    /// `slowStartBatch`: batches of 1, 2, 4, …; after a batch with a failure the rest
    /// is skipped.
    pub(super) fn slow_start_batch(
        &mut self,
        who: &Component,
        requests: Vec<Request>,
    ) -> Result<(), ApiError> {
        let mut rest = requests.into_iter();
        let mut size = 1;
        loop {
            let batch: Vec<Request> = rest.by_ref().take(size).collect();
            if batch.is_empty() {
                return Ok(());
            }
            let mut failed = None;
            for r in batch {
                if let Err(e) = self.apply_one(who, r) {
                    failed.get_or_insert(e);
                }
            }
            if let Some(e) = failed {
                return Err(e);
            }
            size *= 2;
        }
    }

    // ---- informers -----------------------------------------------------------------------

    pub(super) fn dispatch(&mut self, ch: &Change) {
        if ch.kind == Kind::Event {
            return;
        }
        self.api.rbac_changed(ch.kind);
        self.controllers_on_change(ch);
        if self.controllers.gitops.take_drift_changed() {
            // Its pending sync changed class (a drift to put back is foreground work).
            self.recount_foreground();
        }
        if ch.kind == Kind::Pod {
            self.kubelets_on_pod_change(ch);
        }
        if matches!(ch.kind, Kind::Service | Kind::EndpointSlice | Kind::Node) {
            let (old, new) = (ch.old.as_deref(), ch.new.as_deref());
            if let Some((at, t)) = self.proxies.on_change(ch.kind, old, new, &ch.key, self.now) {
                self.push_timer(at, Timer::Proxy(t));
            }
        }
        self.arm_controllers();
    }

    /// The kubelets of the nodes the Pod was and is bound to see the change (a
    /// partitioned kubelet's watch is cut: it sees nothing).
    pub(super) fn kubelets_on_pod_change(&mut self, ch: &Change) {
        let now = self.now;
        let old_pod = ch.old.as_deref().and_then(Pod::from_object);
        let new_pod = ch.new.as_deref().and_then(Pod::from_object);
        let nodes: BTreeSet<String> = crate::sorting::btree_set(
            [old_pod, new_pod]
                .into_iter()
                .flatten()
                .map(|p| p.spec.node_name.clone())
                .filter(|n| !n.is_empty()),
        );
        for n in nodes {
            if let Some(k) = self.kubelets.get_mut(&n).filter(|k| !k.partitioned) {
                let (requests, timers) = k.on_pod_change(old_pod, new_pod, now);
                debug_assert!(requests.is_empty(), "kubelets react on timers");
                self.kubelet_timers(&n, timers);
            }
        }
    }
}

/// What a component's batch of requests has written so far, by object: the
/// resourceVersions it has superseded and the one the object has now.
///
/// A controller's reconcile decides several writes to the same object in one pass —
/// the Deployment controller updates the revision annotation and then the status —
/// and upstream sends each with the object the previous write returned (its new
/// resourceVersion). The simulation decides the whole pass first, so each request
/// carries the resourceVersion read at the start; here a later write of the batch is
/// rebased on the earlier write's result, as upstream's would be, instead of failing
/// with a Conflict against the controller's own write. A write by anyone else in
/// between still conflicts: only versions this batch itself superseded are rebased.
#[derive(Default)]
struct Written {
    objects: Vec<(Kind, ObjKey, Vec<String>, String)>,
    /// Objects this batch created: kind, key, uid, resourceVersion (the create's
    /// response, which a later request of the batch may refer to).
    created: Vec<(Kind, ObjKey, String, String)>,
}

impl Written {
    /// Rebase `r` on this batch's earlier writes; returns the object and the
    /// resourceVersion it is sent with (for an update with a precondition).
    fn rebase(&self, r: &mut Request) -> Option<(Kind, ObjKey, String)> {
        let obj = match r {
            Request::Update(o) | Request::UpdateStatus(o) => o,
            _ => return None,
        };
        // A CronJob lists the Job it just created by the create's response
        // (`getRef(jobResp)`): its uid and resourceVersion.
        if let Object::CronJob(cj) = obj {
            for r in cj.status.active.iter_mut().filter(|r| r.uid.is_empty()) {
                let key = ObjKey::new(&r.namespace, &r.name);
                if let Some((_, _, uid, rv)) = self
                    .created
                    .iter()
                    .find(|(k, o, _, _)| *k == Kind::Job && *o == key)
                {
                    r.uid = uid.clone();
                    r.resource_version = rv.clone();
                }
            }
            cj.status.active.retain(|r| !r.uid.is_empty());
        }
        let (kind, key) = (obj.kind(), ObjKey::of(obj.meta()));
        let rv = &mut obj.meta_mut().resource_version;
        if rv.is_empty() {
            return None;
        }
        if let Some((_, _, superseded, latest)) = self
            .objects
            .iter()
            .find(|(k, o, _, _)| *k == kind && *o == key)
        {
            if superseded.contains(rv) {
                *rv = latest.clone();
            }
        }
        Some((kind, key, rv.clone()))
    }

    /// `key` was written with resourceVersion `sent` and now has `latest`.
    fn record(&mut self, kind: Kind, key: ObjKey, sent: String, latest: String) {
        match self
            .objects
            .iter_mut()
            .find(|(k, o, _, _)| *k == kind && *o == key)
        {
            Some((_, _, superseded, l)) => {
                superseded.push(sent);
                *l = latest;
            }
            None => self.objects.push((kind, key, vec![sent], latest)),
        }
    }
}
