//! Writes: create, update (spec and metadata), update of status, delete (graceful, with
//! finalizers and propagation) — each assigning resourceVersion and generation, checking
//! the resourceVersion precondition, and recording the write in the watch log with its
//! writer (`storage`). The Pod's binding and eviction are in `pod_subresources`.
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go`
//! (`Create`, `Update`, `Delete`: graceful deletion, finalizers).

use super::*;

impl Store {
    /// `POST`: create an object. Fills in name (from generateName), namespace, uid,
    /// creationTimestamp, resourceVersion and generation; runs admission and validation.
    pub fn create(
        &mut self,
        now: SimTime,
        rng: &mut Rng,
        mut obj: Object,
        writer: &str,
    ) -> Result<Change, ApiError> {
        let kind = obj.kind();
        // The name admission's refusals give: the generateName before a name is drawn
        // (`extractResourceName`).
        let admission_name;
        {
            let meta = obj.meta_mut();
            default_namespace(kind, meta);
            admission_name = if meta.name.is_empty() {
                meta.generate_name.clone()
            } else {
                meta.name.clone()
            };
            if meta.name.is_empty() {
                if meta.generate_name.is_empty() {
                    return Err(ApiError::invalid(
                        kind,
                        "",
                        &[
                            "metadata.name: Required value: name or generateName is required"
                                .to_string(),
                        ],
                    ));
                }
                // names.SimpleNameGenerator: base cut to 58 characters + 5 random ones.
                let base: String = meta.generate_name.chars().take(58).collect();
                meta.name = format!("{base}{}", rng.safe_string(5));
            }
        }
        admission::admit_create(&mut obj);
        self.prepare_custom_create(&mut obj)?;
        // A Job's selector is generated from its uid, which the API server assigns
        // before the strategy's Validate runs (`BeforeCreate`); other kinds draw their
        // uid at the end, as before.
        let early_uid = match &mut obj {
            Object::Job(j) => {
                j.metadata.uid = rng.uuid_v4();
                j.status = JobStatus::default();
                admission::generate_job_selector(j);
                Some(j.metadata.uid.clone())
            }
            Object::CronJob(cj) => {
                cj.status = CronJobStatus::default();
                None
            }
            _ => None,
        };
        // NamespaceLifecycle, the first admission plugin: a store that tracks namespaces
        // (every Cluster's does) refuses content in a missing or terminating one; the
        // bare stores of unit tests track none.
        if kind.namespaced() && self.count(Kind::Namespace) > 0 {
            let ns = obj.meta().namespace.clone();
            match self.get::<Namespace>(&ObjKey::new("", &ns)) {
                None => return Err(ApiError::not_found(Kind::Namespace, &ns)),
                Some(n) if n.metadata.is_deleting() => {
                    return Err(ApiError {
                        code: 403,
                        reason: "Forbidden",
                        message: format!(
                            "{} \"{}\" is forbidden: unable to create new content in namespace {ns} because it is being terminated",
                            kind.qualified_resource(),
                            admission_name
                        ),
                        kubectl_message: None,
                        details: None,
                    })
                }
                Some(_) => {}
            }
        }
        if let Object::Pod(pod) = &mut obj {
            let forbidden = |m: String| ApiError {
                code: 403,
                reason: "Forbidden",
                message: format!("pods \"{admission_name}\" is forbidden: {m}"),
                kubectl_message: None,
                details: None,
            };
            let account = self.get::<ServiceAccount>(&ObjKey::new(
                &pod.metadata.namespace,
                &pod.spec.service_account_name,
            ));
            // The volume's random characters come from a stream of their own, seeded by
            // the Pod's key and the revision: upstream draws them from the plugin's own
            // source, and the cluster's seeded stream (names, scheduling ties) stays
            // what it was before the plugin mounted tokens.
            let mut own = {
                use std::hash::Hasher;
                let mut h = super::fxhash::FxHasher::default();
                h.write(pod.metadata.namespace.as_bytes());
                h.write(pod.metadata.name.as_bytes());
                h.write_u64(self.revision());
                Rng::new(h.finish())
            };
            super::service_account::admit_pod(pod, account, &mut || own.safe_string(5))
                .map_err(forbidden)?;
            let classes: Vec<&PriorityClass> = self.list::<PriorityClass>().collect();
            admission::admit_priority(pod, &classes).map_err(forbidden)?;
        }
        // DefaultStorageClass (mutating): a claim that names no class gets the default
        // one (the newest, when several are marked); StorageObjectInUseProtection
        // adds the protection finalizers that keep a claim or volume in use.
        match &mut obj {
            Object::PersistentVolumeClaim(c) => {
                if c.spec.storage_class_name.is_none() {
                    let default = self
                        .list::<StorageClass>()
                        .filter(|sc| sc.is_default())
                        .max_by(|a, b| {
                            a.metadata
                                .created_ms
                                .cmp(&b.metadata.created_ms)
                                .then(b.metadata.name.cmp(&a.metadata.name))
                        })
                        .map(|sc| sc.metadata.name.clone());
                    c.spec.storage_class_name = default;
                }
                add_finalizer(&mut c.metadata, "kubernetes.io/pvc-protection");
                // `PrepareForCreate`: status is the binder's to fill.
                c.status = PersistentVolumeClaimStatus {
                    phase: "Pending".into(),
                    ..Default::default()
                };
            }
            Object::Ingress(ing) => self.admit_ingress(ing),
            Object::PersistentVolume(v) => {
                add_finalizer(&mut v.metadata, "kubernetes.io/pv-protection");
                v.status = PersistentVolumeStatus {
                    phase: "Pending".into(),
                    message: String::new(),
                    last_phase_transition_time: Some(rfc3339(now)),
                };
            }
            _ => {}
        }
        // LimitRanger (mutating): the namespace's default requests and limits.
        if let Object::Pod(pod) = &mut obj {
            let ranges = self.limit_ranges(&pod.metadata.namespace);
            if !ranges.is_empty() {
                super::limit_ranger::mutate_pod(pod, &ranges);
            }
        }
        validation::validate(&obj, None)?;
        self.validate_custom(&obj, None)?;
        // LimitRanger (validating): each range's min, max and ratio.
        if let Object::Pod(pod) = &obj {
            let ranges = self.limit_ranges(&pod.metadata.namespace);
            if !ranges.is_empty() {
                super::limit_ranger::validate_pod(pod, &ranges)?;
            }
        }
        // The strategy's WarningsOnCreate, then PodSecurity (validating admission,
        // after the strategy): refuses Pods under `enforce`, warns otherwise.
        let mut warnings = if self.collect_warnings {
            super::warnings::on_create(&obj)
        } else {
            Vec::new()
        };
        warnings.extend(self.admit_pod_security(&obj, None, self.collect_warnings)?);
        // ValidatingAdmissionPolicy, before ResourceQuota (the plugin order).
        self.admit_policies(&super::policy::Attributes {
            operation: "CREATE",
            object: Some(&obj),
            old: None,
            user: writer,
            now,
        })?;
        self.admit_webhooks(&super::policy::Attributes {
            operation: "CREATE",
            object: Some(&obj),
            old: None,
            user: writer,
            now,
        })?;
        // The cluster-wide Pod limit, as validating admission (after validation, like
        // the ResourceQuota admission whose refusal it copies).
        if kind == Kind::Pod {
            let used = self.count(Kind::Pod);
            let limit = self.pod_limit();
            if used >= limit {
                return Err(ApiError {
                    code: 403,
                    reason: "Forbidden",
                    message: format!(
                        "pods \"{}\" is forbidden: exceeded quota: {POD_LIMIT_NAME}, requested: pods=1, used: pods={used}, limited: pods={limit}",
                        obj.meta().name
                    ),
                    kubectl_message: None,
                    details: None,
                });
            }
        }
        // ResourceQuota, a validating admission plugin: the quotas' new usage is
        // stored with the Pod (as the plugin updates `status.used` when it admits).
        let quotas = match &obj {
            Object::Pod(p) if self.count(Kind::ResourceQuota) > 0 => quota::admit_pod(self, p)?,
            _ => Vec::new(),
        };
        let key = ObjKey::of(obj.meta());
        if self.objects.of(kind).contains_key(&key) {
            return Err(ApiError::already_exists(kind, &key.name));
        }
        if let Object::Service(svc) = &mut obj {
            self.allocate_service(rng, svc)?;
        }
        if let Object::ResourceQuota(q) = &mut obj {
            // The strategy's PrepareForCreate: status is the controller's to fill.
            q.status = ResourceQuotaStatus::default();
        }
        let meta = obj.meta_mut();
        meta.uid = early_uid.unwrap_or_else(|| rng.uuid_v4());
        meta.creation_timestamp = rfc3339(now);
        meta.created_ms = now;
        meta.deletion_timestamp = None;
        meta.deletion_ms = None;
        meta.deletion_grace_period_seconds = None;
        meta.generation = i64::from(tracks_generation(kind));
        if let Object::DaemonSet(ds) = &mut obj {
            // The DaemonSet strategy keeps the template's generation in an annotation.
            ds.metadata.annotations.insert(
                crate::api::TEMPLATE_GENERATION_ANNOTATION.into(),
                "1".into(),
            );
        }
        let change = self.put(now, "create", obj, writer);
        if let Some(Object::Service(svc)) = change.new.as_deref() {
            let svc = svc.clone();
            self.sync_ip_address(now, None, Some(&svc));
        }
        self.warnings.extend(warnings);
        for q in quotas {
            self.put(
                now,
                "update-status",
                Object::ResourceQuota(q),
                super::KUBE_APISERVER,
            );
        }
        Ok(change)
    }

    /// Restore an object from another cluster's state (`sim import`): as etcd keeps
    /// them in a restore, the uid (so ownerReferences and a Job's `controller-uid`
    /// selector still hold), spec, status and generation (the status and
    /// `observedGeneration` describe that spec) are kept; the store's own bookkeeping is
    /// this store's — a resourceVersion of its own, the creation time now (ages count
    /// from the import), a uid drawn only for an object without one or whose uid is
    /// taken.
    /// No admission runs (nothing is being created: it exists already), but the object
    /// must validate, its namespace exist, and a Service's cluster IP and node ports
    /// be free (one the snapshot's range cannot give is allocated anew).
    pub fn restore(
        &mut self,
        now: SimTime,
        rng: &mut Rng,
        mut obj: Object,
        writer: &str,
    ) -> Result<Change, ApiError> {
        let kind = obj.kind();
        default_namespace(kind, obj.meta_mut());
        validation::validate(&obj, None)?;
        if kind.namespaced() && self.count(Kind::Namespace) > 0 {
            let ns = obj.meta().namespace.clone();
            if self.get::<Namespace>(&ObjKey::new("", &ns)).is_none() {
                return Err(ApiError::not_found(Kind::Namespace, &ns));
            }
        }
        let key = ObjKey::of(obj.meta());
        if self.objects.of(kind).contains_key(&key) {
            return Err(ApiError::already_exists(kind, &key.name));
        }
        if let Object::Service(svc) = &mut obj {
            if self.allocate_service(rng, svc).is_err() {
                // Another cluster's range: this one's allocator gives the addresses.
                svc.spec.cluster_ip.clear();
                svc.spec.cluster_ips.clear();
                for p in &mut svc.spec.ports {
                    p.node_port = 0;
                }
                self.allocate_service(rng, svc)?;
            }
        }
        let taken = {
            let uid = &obj.meta().uid;
            uid.is_empty() || self.by_uid(uid).is_some()
        };
        let meta = obj.meta_mut();
        if taken {
            meta.uid = rng.uuid_v4();
        }
        meta.creation_timestamp = rfc3339(now);
        meta.created_ms = now;
        meta.deletion_timestamp = None;
        meta.deletion_ms = None;
        meta.deletion_grace_period_seconds = None;
        meta.resource_version.clear();
        if tracks_generation(kind) {
            meta.generation = meta.generation.max(1);
        } else {
            meta.generation = 0;
        }
        Ok(self.put(now, "create", obj, writer))
    }

    pub(super) fn current(&self, kind: Kind, key: &ObjKey) -> Result<&Object, ApiError> {
        self.get_object(kind, key)
            .ok_or_else(|| ApiError::not_found(kind, &key.name))
    }

    pub(super) fn check_rv(current: &Object, obj: &Object) -> Result<(), ApiError> {
        let rv = &obj.meta().resource_version;
        if !rv.is_empty() && *rv != current.meta().resource_version {
            return Err(ApiError::conflict(obj.kind(), &obj.meta().name));
        }
        Ok(())
    }

    /// `PUT`: replace spec and metadata (status is kept: it has its own subresource).
    /// `generation` goes up when the spec changes. A non-empty resourceVersion must match.
    /// With `noop`, an update that changes nothing writes nothing: the answer's old and
    /// new are the stored object itself, and its resourceVersion stays (etcd3's
    /// `GuaranteedUpdate` returns when the new bytes equal the stored ones).
    pub fn update(
        &mut self,
        now: SimTime,
        mut obj: Object,
        writer: &str,
        noop: bool,
    ) -> Result<Change, ApiError> {
        let kind = obj.kind();
        if kind.namespaced() && obj.meta().namespace.is_empty() {
            obj.meta_mut().namespace = "default".into();
        }
        let key = ObjKey::of(obj.meta());
        let current = self.current(kind, &key)?;
        Self::check_rv(current, &obj)?;
        // Defaulting runs on every write, as the API server decodes every request.
        admission::admit_create(&mut obj);
        self.prepare_custom_update(&mut obj, current)?;
        if let (Object::Service(svc), Object::Service(old)) = (&mut obj, current) {
            services::drop_type_dependent_fields(svc, old);
        }
        validation::validate(&obj, Some(current))?;
        self.validate_custom(&obj, Some(current))?;
        let mut warnings = if self.collect_warnings {
            super::warnings::on_update(&obj, Some(current))
        } else {
            Vec::new()
        };
        warnings.extend(self.admit_pod_security(&obj, Some(current), self.collect_warnings)?);
        if self.count(Kind::ValidatingAdmissionPolicyBinding) > 0
            || self.count(Kind::ValidatingWebhookConfiguration) > 0
        {
            let old = current.clone();
            let attributes = super::policy::Attributes {
                operation: "UPDATE",
                object: Some(&obj),
                old: Some(&old),
                user: writer,
                now,
            };
            self.admit_policies(&attributes)?;
            self.admit_webhooks(&attributes)?;
        }
        let current = self.current(kind, &key)?;
        if let (Object::Service(svc), Object::Service(old)) = (&mut obj, current) {
            // The allocators' rare random pick on an update (a type that now needs node
            // ports) is seeded by the store's revision: deterministic, and independent of
            // the cluster's RNG, which an update never used.
            let old = old.clone();
            let mut rng = Rng::new(self.revision ^ 0x5e41_71ce);
            self.reallocate_service(&mut rng, svc, &old)?;
        }
        self.warnings.extend(warnings);
        let current = self.current(kind, &key)?;
        let spec_changed = obj.spec_differs(current);
        let cur_meta = current.meta().clone();
        // Status is owned by the status subresource; a spec update cannot change it.
        match (&mut obj, current) {
            (Object::Deployment(n), Object::Deployment(c)) => n.status = c.status.clone(),
            (Object::ReplicaSet(n), Object::ReplicaSet(c)) => n.status = c.status.clone(),
            (Object::Pod(n), Object::Pod(c)) => n.status = c.status.clone(),
            (Object::Node(n), Object::Node(c)) => n.status = c.status.clone(),
            (Object::Namespace(n), Object::Namespace(c)) => n.status = c.status.clone(),
            (Object::PodDisruptionBudget(n), Object::PodDisruptionBudget(c)) => {
                n.status = c.status.clone()
            }
            (Object::ResourceQuota(n), Object::ResourceQuota(c)) => n.status = c.status.clone(),
            (Object::Job(n), Object::Job(c)) => n.status = c.status.clone(),
            (Object::CronJob(n), Object::CronJob(c)) => n.status = c.status.clone(),
            (Object::DaemonSet(n), Object::DaemonSet(c)) => n.status = c.status.clone(),
            (Object::StatefulSet(n), Object::StatefulSet(c)) => n.status = c.status.clone(),
            (Object::HorizontalPodAutoscaler(n), Object::HorizontalPodAutoscaler(c)) => {
                n.status = c.status.clone()
            }
            (Object::PersistentVolumeClaim(n), Object::PersistentVolumeClaim(c)) => {
                n.status = c.status.clone()
            }
            (Object::PersistentVolume(n), Object::PersistentVolume(c)) => {
                n.status = c.status.clone()
            }
            (Object::Ingress(n), Object::Ingress(c)) => n.status = c.status.clone(),
            // dropTypeDependentFields: a Service that is no longer a LoadBalancer has
            // no load-balancer status.
            (Object::Service(n), Object::Service(c)) if n.spec.type_ == "LoadBalancer" => {
                n.status = c.status.clone()
            }
            (Object::Service(n), Object::Service(_)) => n.status = Default::default(),
            _ => {}
        }
        let meta = obj.meta_mut();
        meta.uid = cur_meta.uid;
        meta.creation_timestamp = cur_meta.creation_timestamp;
        meta.created_ms = cur_meta.created_ms;
        meta.deletion_timestamp = cur_meta.deletion_timestamp;
        meta.deletion_ms = cur_meta.deletion_ms;
        meta.deletion_grace_period_seconds = cur_meta.deletion_grace_period_seconds;
        meta.generate_name = cur_meta.generate_name;
        meta.generation = cur_meta.generation + i64::from(spec_changed && cur_meta.generation > 0);
        if let (Object::DaemonSet(n), Object::DaemonSet(c)) = (&mut obj, current) {
            // `PrepareForUpdate`: a template change moves the template generation.
            let key = crate::api::TEMPLATE_GENERATION_ANNOTATION;
            let value = if n.spec.template != c.spec.template {
                n.metadata.generation.to_string()
            } else {
                c.metadata.annotations.get(key).cloned().unwrap_or_default()
            };
            n.metadata.annotations.insert(key.into(), value);
        }
        let spec_finalizers = matches!(&obj, Object::Namespace(n) if !n.spec.finalizers.is_empty());
        if obj.meta().is_deleting()
            && obj.meta().finalizers.is_empty()
            && !spec_finalizers
            && obj.meta().deletion_grace_period_seconds.unwrap_or(0) == 0
        {
            // The last finalizer is gone: the object can finally be removed.
            let change = self.put(now, "update", obj, writer);
            return Ok(self.remove(now, kind, &key, writer).unwrap_or(change));
        }
        if noop {
            let stored = self.get_shared(kind, &key);
            if let Some(stored) = stored.filter(|s| {
                obj.meta_mut().resource_version = s.meta().resource_version.clone();
                obj == **s
            }) {
                return Ok(Change {
                    type_: WatchType::Modified,
                    kind,
                    key,
                    old: Some(stored.clone()),
                    new: Some(stored),
                });
            }
        }
        let old_ip = match current {
            Object::Service(svc) => services::allocated_ip(svc),
            _ => None,
        };
        let change = self.put(now, "update", obj, writer);
        if let Some(Object::Service(svc)) = change.new.as_deref() {
            let svc = svc.clone();
            self.sync_ip_address(now, old_ip.as_deref(), Some(&svc));
        }
        Ok(change)
    }

    /// `PUT .../status`: replace the status only.
    pub fn update_status(
        &mut self,
        now: SimTime,
        obj: Object,
        writer: &str,
    ) -> Result<Change, ApiError> {
        let kind = obj.kind();
        let key = ObjKey::of(obj.meta());
        let current = self.current(kind, &key)?;
        Self::check_rv(current, &obj)?;
        let mut merged = current.clone();
        let stored = self.get_shared(kind, &key);
        // What changes nothing writes nothing (etcd3's `GuaranteedUpdate` returns when
        // the new bytes equal the stored ones): the answer is the stored object.
        let unchanged = |merged: &Object| {
            stored.clone().filter(|s| *merged == **s).map(|s| Change {
                type_: WatchType::Modified,
                kind,
                key: key.clone(),
                old: Some(s.clone()),
                new: Some(s),
            })
        };
        if self.merge_custom_status(&mut merged, &obj)? {
            if let Some(c) = unchanged(&merged) {
                return Ok(c);
            }
            // A definition's controllers remove its last finalizer through `/status`:
            // the store then deletes it (`ShouldDeleteDuringUpdate`).
            let gone = merged.meta().is_deleting() && merged.meta().finalizers.is_empty();
            let change = self.put(now, "update-status", merged, writer);
            if gone {
                return Ok(self.remove(now, kind, &key, writer).unwrap_or(change));
            }
            return Ok(change);
        }
        match (&mut merged, obj) {
            (Object::Deployment(m), Object::Deployment(n)) => m.status = n.status,
            (Object::ReplicaSet(m), Object::ReplicaSet(n)) => m.status = n.status,
            (Object::Pod(m), Object::Pod(n)) => m.status = n.status,
            (Object::Node(m), Object::Node(n)) => m.status = n.status,
            (Object::PodDisruptionBudget(m), Object::PodDisruptionBudget(n)) => m.status = n.status,
            (Object::ResourceQuota(m), Object::ResourceQuota(n)) => m.status = n.status,
            (Object::Job(m), Object::Job(n)) => m.status = n.status,
            (Object::CronJob(m), Object::CronJob(n)) => m.status = n.status,
            (Object::DaemonSet(m), Object::DaemonSet(n)) => m.status = n.status,
            (Object::StatefulSet(m), Object::StatefulSet(n)) => m.status = n.status,
            (Object::HorizontalPodAutoscaler(m), Object::HorizontalPodAutoscaler(n)) => {
                m.status = n.status
            }
            (Object::PersistentVolumeClaim(m), Object::PersistentVolumeClaim(n)) => {
                m.status = n.status
            }
            (Object::PersistentVolume(m), Object::PersistentVolume(n)) => m.status = n.status,
            (Object::Ingress(m), Object::Ingress(n)) => m.status = n.status,
            (Object::Service(m), Object::Service(n)) => m.status = n.status,
            (Object::Namespace(m), Object::Namespace(n)) => m.status = n.status,
            (m, n) => *m = n,
        }
        validation::validate_status(&merged)?;
        if let Some(c) = unchanged(&merged) {
            return Ok(c);
        }
        Ok(self.put(now, "update-status", merged, writer))
    }

    /// `DELETE`: graceful for Pods bound to a node (deletionTimestamp = now + grace),
    /// held by finalizers (Foreground adds `foregroundDeletion`, Orphan adds `orphan`),
    /// otherwise immediate. Returns the changes made (empty if nothing changed).
    pub fn delete(
        &mut self,
        now: SimTime,
        kind: Kind,
        key: &ObjKey,
        opts: &DeleteOptions,
        writer: &str,
    ) -> Result<Vec<Change>, ApiError> {
        let current = self.current(kind, key)?;
        if let Some(uid) = &opts.precondition_uid {
            if *uid != current.meta().uid {
                return Err(ApiError::conflict_detail(
                    kind,
                    &key.name,
                    &format!(
                        "Precondition failed: UID in precondition: {uid}, UID in object meta: {}",
                        current.meta().uid
                    ),
                ));
            }
        }
        if self.count(Kind::ValidatingAdmissionPolicyBinding) > 0
            || self.count(Kind::ValidatingWebhookConfiguration) > 0
        {
            let old = current.clone();
            let attributes = super::policy::Attributes {
                operation: "DELETE",
                object: None,
                old: Some(&old),
                user: writer,
                now,
            };
            self.admit_policies(&attributes)?;
            self.admit_webhooks(&attributes)?;
        }
        let current = self.current(kind, key)?;
        if let Some(marked) = self.mark_definition_deleted(current, now) {
            return Ok(vec![self.put(now, "delete", marked, writer)]);
        }
        let mut obj = current.clone();
        if let Object::Namespace(n) = &mut obj {
            if matches!(
                key.name.as_str(),
                "default" | "kube-system" | "kube-public" | "kube-node-lease"
            ) {
                return Err(ApiError {
                    code: 403,
                    reason: "Forbidden",
                    message: format!(
                        "namespaces \"{}\" is forbidden: this namespace may not be deleted",
                        key.name
                    ),
                    kubectl_message: None,
                    details: None,
                });
            }
            if !n.spec.finalizers.is_empty() {
                // Terminating until the namespace controller has emptied it.
                if n.metadata.is_deleting() {
                    return Ok(vec![]);
                }
                n.status.phase = "Terminating".into();
                n.metadata.deletion_ms = Some(now);
                n.metadata.deletion_timestamp = Some(rfc3339(now));
                n.metadata.deletion_grace_period_seconds = Some(0);
                return Ok(vec![self.put(now, "delete", obj, writer)]);
            }
        }
        // Graceful period: only Pods have one (pkg/registry/core/pod/strategy.go).
        let grace = match &obj {
            Object::Pod(p) => {
                let g = opts
                    .grace_period_seconds
                    .unwrap_or_else(|| p.spec.grace_seconds())
                    .max(0);
                // Unscheduled or terminal pods go at once: no kubelet has to stop them.
                if p.spec.node_name.is_empty() || p.is_terminal() {
                    0
                } else {
                    g
                }
            }
            _ => 0,
        };
        let finalizer = match opts.propagation.as_deref() {
            Some("Foreground") => Some("foregroundDeletion"),
            Some("Orphan") => Some("orphan"),
            _ => None,
        };
        let meta = obj.meta_mut();
        if let Some(f) = finalizer {
            if !meta.finalizers.iter().any(|x| x == f) {
                meta.finalizers.push(f.to_string());
            }
        }
        if meta.finalizers.is_empty() && grace == 0 {
            return Ok(self.remove(now, kind, key, writer).into_iter().collect());
        }
        let deadline = crate::time::after_seconds(now, grace);
        match meta.deletion_ms {
            // A second delete may only shorten the grace period.
            Some(existing) if existing <= deadline && finalizer.is_none() => return Ok(vec![]),
            _ => {}
        }
        meta.deletion_ms = Some(deadline);
        meta.deletion_timestamp = Some(rfc3339(deadline));
        meta.deletion_grace_period_seconds = Some(grace);
        Ok(vec![self.put(now, "delete", obj, writer)])
    }
}

fn add_finalizer(meta: &mut ObjectMeta, f: &str) {
    if !meta.finalizers.iter().any(|x| x == f) {
        meta.finalizers.push(f.into());
    }
}

/// A namespaced object without a namespace is in `default`; a cluster-scoped one has
/// none, whatever it said.
fn default_namespace(kind: Kind, meta: &mut ObjectMeta) {
    if kind.namespaced() && meta.namespace.is_empty() {
        meta.namespace = "default".into();
    }
    if !kind.namespaced() {
        meta.namespace.clear();
    }
}

impl Store {
    /// DefaultIngressClass (mutating): an Ingress that names no class, neither by field
    /// nor by the old annotation, gets the default class (the newest, ties by name).
    /// The strategy's PrepareForCreate drops any status, and WarningsOnCreate flags the
    /// old annotation used alone.
    fn admit_ingress(&mut self, ing: &mut Ingress) {
        let annotated = ing
            .metadata
            .annotations
            .contains_key(INGRESS_CLASS_ANNOTATION);
        if ing.spec.ingress_class_name.is_none() && !annotated {
            ing.spec.ingress_class_name = self
                .list::<IngressClass>()
                .filter(|ic| ic.is_default())
                .max_by(|a, b| {
                    a.metadata
                        .created_ms
                        .cmp(&b.metadata.created_ms)
                        .then(b.metadata.name.cmp(&a.metadata.name))
                })
                .map(|ic| ic.metadata.name.clone());
        }
        if annotated && ing.spec.ingress_class_name.is_none() && self.collect_warnings {
            self.warnings.push(format!(
                "annotation \"{INGRESS_CLASS_ANNOTATION}\" is deprecated, please use 'spec.ingressClassName' instead"
            ));
        }
        ing.status = IngressStatus::default();
    }
}

/// Whether the kind tracks spec changes in `metadata.generation`: the workload kinds;
/// in v1.33 Pods, Nodes, Events and Leases leave it unset (Pod generation is an alpha
/// feature, off).
fn tracks_generation(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Deployment
            | Kind::ReplicaSet
            | Kind::Job
            | Kind::CronJob
            | Kind::DaemonSet
            | Kind::StatefulSet
            | Kind::HorizontalPodAutoscaler
            | Kind::Ingress
            | Kind::IngressClass
            | Kind::NetworkPolicy
            | Kind::CustomResourceDefinition
            | Kind::ValidatingAdmissionPolicy
            | Kind::ValidatingAdmissionPolicyBinding
            | Kind::ValidatingWebhookConfiguration
            | Kind::Custom(_)
    )
}
