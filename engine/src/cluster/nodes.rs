//! Nodes and the faults a learner injects into them: add, power off and on, partition,
//! remove; crash, hang, OOM-kill or un-ready a Pod's containers; refuse or crash images.
//! Each reaches the node's kubelet (or the world's fault registry), never the store.
use super::informers::InformerSelector;
use super::*;

impl Cluster {
    /// Add a node: its kubelet registers the Node and its Lease now.
    pub fn add_node(&mut self, name: &str, config: NodeConfig) -> Result<(), ApiError> {
        if let Some(u) = self.unavailable() {
            return Err(u.error());
        }
        if self.kubelets.contains_key(name)
            || self.store.get::<Node>(&ObjKey::new("", name)).is_some()
        {
            return Err(ApiError::already_exists(Kind::Node, name));
        }
        self.node_index += 1;
        let mut k = Kubelet::new(name, self.node_index, config, self.config.kubelet.clone());
        if let Some(last) = self.retired_epochs.get(name) {
            k.epoch = last + 1;
        }
        let (requests, timers) = k.register(self.now);
        self.kubelets.insert(name.to_string(), k);
        // A new kube-proxy starts with the current rules.
        self.kube_proxy_started(name);
        // Timers about this node name (a removed node's evictions) change class.
        self.recount_foreground();
        let comp = kubelet_component(name);
        self.apply(&comp, requests)?;
        self.kubelet_list_and_watch(name);
        self.kubelet_timers(name, timers);
        // Pods still bound to this name (a node removed and added again) are synced
        // like any Pod a starting kubelet finds.
        if let Some(k) = self.kubelets.get_mut(name) {
            let out = k.adopt_bound_pods(&self.store, self.now);
            self.kubelet_output(name, out);
        }
        Ok(())
    }

    /// Power a node off: its kubelet stops heartbeating and its containers stop.
    pub fn power_off(&mut self, name: &str) -> Result<(), String> {
        let k = self
            .kubelets
            .get_mut(name)
            .ok_or_else(|| format!("node \"{name}\" not found"))?;
        if !k.up {
            return Err(format!("node \"{name}\" is already down"));
        }
        // Off, it has nothing to reconnect (powered on, it registers afresh).
        self.reconnecting.remove(name);
        k.power_off();
        // Timers of the old epoch just became background work.
        self.recount_foreground();
        Ok(())
    }

    /// Remove a node: its kubelet stops for good and the Node object is deleted (the
    /// Pods bound to it stay until something deletes them).
    pub fn remove_node(&mut self, name: &str) -> Result<(), ApiError> {
        if let Some(u) = self.unavailable() {
            return Err(u.error());
        }
        if self.store.get::<Node>(&ObjKey::new("", name)).is_none() {
            return Err(ApiError::not_found(Kind::Node, name));
        }
        self.reconnecting.remove(name);
        if let Some(mut k) = self.kubelets.remove(name) {
            k.power_off();
            self.retired_epochs.insert(name.to_string(), k.epoch);
        }
        self.recount_foreground();
        self.submit(
            &kubectl(),
            Request::Delete {
                kind: Kind::Node,
                key: ObjKey::new("", name),
                options: DeleteOptions::default(),
                event: None,
            },
        )?;
        let lease = ObjKey::new("kube-node-lease", name);
        if self.store.get::<Lease>(&lease).is_some() {
            let _ = self.submit(
                &kubectl(),
                Request::Delete {
                    kind: Kind::Lease,
                    key: lease,
                    options: DeleteOptions::default(),
                    event: None,
                },
            );
        }
        Ok(())
    }

    /// Cut a node off from the API server (its kubelet and containers keep running).
    pub fn partition_node(&mut self, name: &str) -> Result<(), String> {
        // Still waiting to reconnect after a stall: now it stays cut off.
        if self.reconnecting.remove(name) {
            if let Some(k) = self.kubelets.get_mut(name) {
                k.apiserver_only = false;
            }
            self.recount_foreground();
            return Ok(());
        }
        // Cut off by an API server outage already: now it stays cut off after it.
        if let Some(o) = self.outage.as_mut() {
            if o.cut.remove(name) {
                if let Some(k) = self.kubelets.get_mut(name) {
                    k.apiserver_only = false;
                }
                return Ok(());
            }
        }
        let k = self
            .kubelets
            .get_mut(name)
            .ok_or_else(|| format!("node \"{name}\" not found"))?;
        if !k.up || k.partitioned {
            return Err(format!(
                "node \"{name}\" is already {}",
                if k.up { "partitioned" } else { "down" }
            ));
        }
        k.partition(&self.store);
        self.recount_foreground();
        Ok(())
    }

    /// Whether a node is cut off from the API server.
    pub fn node_partitioned(&self, name: &str) -> bool {
        self.kubelets.get(name).is_some_and(|k| k.partitioned)
    }

    /// What a node's runtime is running: (pod, container, image).
    pub fn node_ps(&self, name: &str) -> Result<Vec<(String, String, String)>, String> {
        let k = self
            .kubelets
            .get(name)
            .ok_or_else(|| format!("node \"{name}\" not found"))?;
        Ok(k.running(&self.store))
    }

    /// Power a node back on (or reconnect a partitioned one): the kubelet reports Ready
    /// and reconciles its Pods.
    pub fn power_on(&mut self, name: &str) -> Result<(), String> {
        let unavailable = self.unavailable();
        let k = self
            .kubelets
            .get_mut(name)
            .ok_or_else(|| format!("node \"{name}\" not found"))?;
        if k.partitioned && self.outage.is_some() {
            // Its network is back, but nothing answers at the API server: it stays cut
            // off, now by the outage, and reconnects when the API server is up.
            if let Some(o) = self.outage.as_mut() {
                o.cut.insert(name.to_string());
            }
            k.apiserver_only = true;
            return Ok(());
        }
        if k.partitioned {
            let out = k.heal(&self.store, self.now);
            self.reconnecting.remove(name);
            self.recount_foreground();
            self.kubelet_output(name, out);
            // Its kube-proxy's watch reconnects: it relists and programs the rules.
            self.kube_proxy_started(name);
            return Ok(());
        }
        if k.up {
            return Err(format!("node \"{name}\" is already up"));
        }
        match unavailable {
            Some(Unavailable::ApiServerDown) => {
                return Err(format!(
                    "the API server is down: node \"{name}\"'s kubelet could not register (sim apiserver up first)"
                ))
            }
            Some(Unavailable::EtcdNoQuorum) => {
                return Err(format!(
                    "etcd has no quorum: node \"{name}\"'s kubelet could not register (sim etcd up first)"
                ))
            }
            Some(Unavailable::EtcdUnreachable) => {
                return Err(format!(
                    "the API server cannot reach etcd: node \"{name}\"'s kubelet could not register (sim etcd reconnect first)"
                ))
            }
            None => {}
        }
        let (requests, timers) = k.power_on(&self.store, self.now);
        self.kube_proxy_started(name);
        self.recount_foreground();
        let _ = self.apply(&kubelet_component(name), requests);
        self.kubelet_list_and_watch(name);
        self.kubelet_timers(name, timers);
        Ok(())
    }

    /// A starting kubelet's informers, through the door as `system:node:<name>`: its
    /// own Pods (`spec.nodeName`), its own Node (`metadata.name`) and the Services its
    /// containers' environment names. The Node authorizer allows them; were one
    /// refused, the refusal is kept with the components' others
    /// ([`Cluster::component_refusals`]).
    fn kubelet_list_and_watch(&mut self, name: &str) {
        let selectors = [
            InformerSelector::fields(Kind::Pod, format!("spec.nodeName={name}")),
            InformerSelector::fields(Kind::Node, format!("metadata.name={name}")),
        ];
        let kinds = [Kind::Pod, Kind::Node, Kind::Service];
        let _ = self.list_and_watch_selected(&kubelet_component(name), &kinds, None, &selectors);
    }

    /// A node's kube-proxy starts (or its watch reconnects): it programs the current
    /// rules, after its informers list and watch through the door as
    /// `system:kube-proxy`: Services and EndpointSlices without a proxy name or the
    /// headless label (`NewProxyServer`'s `WithTweakListOptions`), and its own Node.
    /// `system:node-proxier` allows them; were one refused, the refusal is kept with
    /// the components' others ([`Cluster::component_refusals`]).
    pub(super) fn kube_proxy_started(&mut self, name: &str) {
        self.proxies.node_restarted(name);
        const PROXIED: &str =
            "!service.kubernetes.io/headless,!service.kubernetes.io/service-proxy-name";
        let selectors = [
            InformerSelector::labels(Kind::Service, PROXIED),
            InformerSelector::labels(Kind::EndpointSlice, PROXIED),
            InformerSelector::fields(Kind::Node, format!("metadata.name={name}")),
        ];
        let kinds = [Kind::Service, Kind::EndpointSlice, Kind::Node];
        let who = Component {
            writer: writer::kube_proxy(name),
            event_component: "kube-proxy".into(),
            host: name.into(),
        };
        let _ = self.list_and_watch_selected(&who, &kinds, None, &selectors);
    }

    /// What a kubelet produced: its timers are armed and its requests sent — or held
    /// by the kubelet while its node is cut off from the API server.
    pub(super) fn kubelet_output(&mut self, node: &str, out: crate::kubelet::KubeletOutput) {
        let (requests, timers) = out;
        self.kubelet_timers(node, timers);
        let Some(k) = self.kubelets.get_mut(node) else {
            return;
        };
        if k.partitioned {
            k.hold(requests, self.now);
        } else {
            let _ = self.apply(&kubelet_component(node), requests);
        }
    }

    /// Arm a kubelet's timers in its current epoch, counted per Pod by the kubelet.
    pub(super) fn kubelet_timers(
        &mut self,
        node: &str,
        timers: Vec<(SimTime, crate::kubelet::KubeletTimer)>,
    ) {
        let Some(k) = self.kubelets.get_mut(node) else {
            return;
        };
        k.armed(&timers);
        let epoch = k.epoch;
        for (at, t) in timers {
            self.push_timer(at, Timer::Kubelet(node.to_string(), epoch, t));
        }
    }

    /// The running Pod `key` and its kubelet's node, or kubectl's kind of error.
    pub(super) fn running_pod(&self, key: &ObjKey) -> Result<(Pod, String), String> {
        let pod = self
            .store
            .get::<Pod>(key)
            .cloned()
            .ok_or_else(|| ApiError::not_found(Kind::Pod, &key.name).kubectl_text())?;
        let node = pod.spec.node_name.clone();
        if node.is_empty() {
            return Err(format!(
                "error: pod {} is not scheduled to a node yet",
                key.name
            ));
        }
        if !self.node_up(&node) {
            return Err(format!(
                "error: node {node} is down: pod {} has no running containers",
                key.name
            ));
        }
        Ok((pod, node))
    }

    /// `sim crash`: a container of a running Pod exits with code 1; its kubelet
    /// restarts it according to restartPolicy, with CrashLoopBackOff.
    pub fn crash_container(&mut self, key: &ObjKey, container: Option<&str>) -> Result<(), String> {
        let (pod, node) = self.running_pod(key)?;
        let i = container_index(&pod, container, key)?;
        let now = self.now;
        let k = self.kubelets.get_mut(&node).ok_or("error: no kubelet")?;
        let out = k
            .crash(&self.store, &pod.metadata.uid, i, None, now)
            .map_err(|e| format!("error: {e}"))?;
        self.kubelet_output(&node, out);
        Ok(())
    }

    /// `sim hang`: the Pod's application stops answering until its container restarts
    /// (a liveness probe restarts it; without one it stays hung). Returns whether any
    /// container has a liveness probe.
    pub fn hang_pod(&mut self, key: &ObjKey) -> Result<bool, String> {
        let (pod, node) = self.running_pod(key)?;
        let now = self.now;
        let k = self.kubelets.get_mut(&node).ok_or("error: no kubelet")?;
        let out = k
            .set_hung(&mut self.faults, &self.store, &pod.metadata.uid, now)
            .map_err(|e| format!("error: {e}"))?;
        self.kubelet_output(&node, out);
        Ok(pod
            .spec
            .containers
            .iter()
            .any(|c| c.liveness_probe.is_some()))
    }

    /// `sim oom`: a container exceeds its memory limit and is OOMKilled (exit 137).
    pub fn oom_kill(&mut self, key: &ObjKey, container: Option<&str>) -> Result<(), String> {
        let (pod, node) = self.running_pod(key)?;
        let i = container_index(&pod, container, key)?;
        let now = self.now;
        let k = self.kubelets.get_mut(&node).ok_or("error: no kubelet")?;
        let out = k
            .exit(
                &self.store,
                &pod.metadata.uid,
                i,
                None,
                now,
                137,
                "OOMKilled",
            )
            .map_err(|e| format!("error: {e}"))?;
        self.kubelet_output(&node, out);
        Ok(())
    }

    /// `sim unready` / `sim ready`: the Pod's application fails (or passes) its
    /// readiness probe from now on.
    pub fn set_pod_unready(&mut self, key: &ObjKey, unready: bool) -> Result<(), String> {
        let (pod, node) = self.running_pod(key)?;
        let now = self.now;
        let k = self.kubelets.get_mut(&node).ok_or("error: no kubelet")?;
        let out = k
            .set_unready(
                &mut self.faults,
                &self.store,
                &pod.metadata.uid,
                unready,
                now,
            )
            .map_err(|e| format!("error: {e}"))?;
        self.kubelet_output(&node, out);
        Ok(())
    }

    /// `sim gitops on`: from now on the Deployment's current spec is what Git declares,
    /// re-applied every `every` ms. `None` switches the sync off.
    pub fn set_gitops(&mut self, key: &ObjKey, every: Option<SimTime>) -> Result<(), String> {
        let d = self
            .store
            .get::<Deployment>(key)
            .ok_or_else(|| ApiError::not_found(Kind::Deployment, &key.name).kubectl_text())?;
        match every {
            Some(every) => {
                let declared = d.spec.clone();
                let gitops = &mut self.controllers.gitops;
                if let Some((first, due)) = gitops.start(key.clone(), declared, every, self.now) {
                    self.push_timer(first, Timer::Own(CtlTimer::GitOps(due)));
                }
                // The sync's class may have changed (a drift just declared away).
                self.recount_foreground();
            }
            None => {
                self.controllers.gitops.stop(key);
                self.recount_foreground();
            }
        }
        Ok(())
    }

    /// `sim image-fail` / `sim image-ok`: the registry refuses (or serves) an image.
    pub fn set_image_refused(&mut self, image: &str, refused: bool) {
        if refused {
            self.faults.refused_images.insert(image.to_string());
        } else {
            self.faults.refused_images.remove(image);
        }
    }

    /// `sim image-crash`: containers of this image exit with code 1 `after` ms after
    /// they start (None: they stop crashing).
    pub fn set_image_crash(&mut self, image: &str, after: Option<SimTime>) {
        match after {
            Some(a) => {
                self.faults.crashing_images.insert(image.to_string(), a);
            }
            None => {
                self.faults.crashing_images.remove(image);
            }
        }
    }
}

/// The index of `container` in the Pod (its first container when none is named), or
/// kubectl's words for a name the Pod does not have.
fn container_index(pod: &Pod, container: Option<&str>, key: &ObjKey) -> Result<usize, String> {
    match container {
        // A sidecar is addressed past the app containers (the kubelet's index for it).
        Some(c) => pod
            .spec
            .containers
            .iter()
            .position(|x| x.name == c)
            .or_else(|| {
                let j = pod
                    .spec
                    .init_containers
                    .iter()
                    .position(|x| x.name == c && x.is_sidecar())?;
                Some(pod.spec.containers.len() + j)
            })
            .ok_or_else(|| format!("error: container {c} is not valid for pod {}", key.name)),
        None => Ok(0),
    }
}
