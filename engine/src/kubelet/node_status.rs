//! The Node and its heartbeat: registration, the node status (conditions, images) and
//! the Lease renewed every 10 s.
//!
//! Upstream: `pkg/kubelet/kubelet_node_status.go` (`registerWithAPIServer`,
//! `setNodeStatus`), `pkg/kubelet/nodestatus/setters.go`, `pkg/kubelet/nodelease`.

use super::*;

/// Lease renew interval.
pub const LEASE_RENEW_INTERVAL: SimTime = 10 * SECOND;

/// Lease duration.
pub const LEASE_DURATION_SECONDS: i64 = 40;

/// Kubelet version reported by every node.
pub const KUBELET_VERSION: &str = "v1.33.0";

/// The OS image a kubeplay node reports (`status.nodeInfo.osImage`, the OS-IMAGE column).
pub const OS_IMAGE: &str = "kubeplay (simulated)";

/// `nodeStatusMaxImages`.
pub const NODE_STATUS_MAX_IMAGES: usize = 50;

/// `status.images` for a set of images: both names, largest first, at most 50.
pub fn node_images(images: &BTreeSet<String>) -> Vec<ContainerImage> {
    let mut v: Vec<ContainerImage> = images
        .iter()
        .map(|i| ContainerImage {
            names: vec![image_id(i), image_repo_tag(i)],
            size_bytes: image_size(i) as i64,
        })
        .collect();
    crate::sorting::sort_by(&mut v, |a, b| {
        b.size_bytes.cmp(&a.size_bytes).then(a.names.cmp(&b.names))
    });
    v.truncate(NODE_STATUS_MAX_IMAGES);
    v
}

impl Kubelet {
    pub(super) fn host_ip(&self) -> String {
        format!("10.0.{}.{}", self.index / 250, self.index % 250 + 2)
    }

    pub(super) fn ready_conditions(&self, now: SimTime) -> Vec<Condition> {
        let mut c: Vec<Condition> = super::eviction::PRESSURE_CONDITIONS
            .into_iter()
            .map(|t| super::eviction::pressure_condition(t, self.pressure.has(t), now).0)
            .collect();
        c.push(cond(
            NodeConditionType::Ready,
            ConditionStatus::True,
            "KubeletReady",
            "kubelet is posting ready status",
            now,
        ));
        for x in c.iter_mut() {
            x.last_heartbeat_time = Some(rfc3339(now));
        }
        c
    }

    /// The node's Lease. Once the Node is known it is the Lease's owner
    /// (`setNodeOwnerFunc`, tried at every renewal until it succeeds), so the garbage
    /// collector deletes the Lease with its Node.
    pub(super) fn lease(&self, node: Option<&Node>, now: SimTime) -> Lease {
        let owner_references = node
            .map(|n| OwnerReference {
                api_version: "v1".into(),
                kind: "Node".into(),
                name: n.metadata.name.clone(),
                uid: n.metadata.uid.clone(),
                ..Default::default()
            })
            .into_iter()
            .collect();
        Lease {
            metadata: ObjectMeta {
                name: self.node.clone(),
                namespace: "kube-node-lease".into(),
                owner_references,
                ..Default::default()
            },
            spec: LeaseSpec {
                holder_identity: self.node.clone(),
                lease_duration_seconds: LEASE_DURATION_SECONDS,
                renew_time: Some(crate::time::rfc3339_micro(now)),
                renew_ms: now,
                ..Default::default()
            },
        }
    }

    /// Register the Node and its Lease, and start heartbeating.
    pub fn register(&mut self, now: SimTime) -> KubeletOutput {
        let mut labels = StringMap::new();
        labels.insert(LABEL_HOSTNAME.into(), self.node.clone());
        labels.insert("kubernetes.io/os".into(), "linux".into());
        labels.insert("kubernetes.io/arch".into(), "amd64".into());
        labels.extend(self.config.labels.clone());
        let node = Node {
            metadata: ObjectMeta {
                name: self.node.clone(),
                labels,
                ..Default::default()
            },
            spec: NodeSpec {
                unschedulable: self.config.unschedulable,
                taints: self.config.taints.clone(),
                pod_cidr: format!("10.244.{}.0/24", self.index),
                pod_cidrs: vec![format!("10.244.{}.0/24", self.index)],
                ..Default::default()
            },
            status: NodeStatus {
                capacity: super::allocatable::node_capacity(&self.config),
                allocatable: super::allocatable::node_allocatable(&self.config),
                conditions: self.ready_conditions(now),
                addresses: vec![
                    NodeAddress {
                        type_: "InternalIP".into(),
                        address: self.host_ip(),
                    },
                    NodeAddress {
                        type_: "Hostname".into(),
                        address: self.node.clone(),
                    },
                ],
                node_info: NodeSystemInfo {
                    kubelet_version: KUBELET_VERSION.into(),
                    container_runtime_version: "containerd://2.0.5".into(),
                    os_image: OS_IMAGE.into(),
                    operating_system: "linux".into(),
                    architecture: "amd64".into(),
                    ..Default::default()
                },
                images: node_images(&self.images),
                ..Default::default()
            },
        };
        self.reported_images = Some(self.images.clone());
        (
            vec![
                Request::Create {
                    object: Object::Node(Box::new(node)),
                    event: None,
                },
                Request::Create {
                    object: Object::Lease(self.lease(None, now)),
                    event: None,
                },
            ],
            vec![
                (now + LEASE_RENEW_INTERVAL, KubeletTimer::Heartbeat),
                (now + HOUSEKEEPING_INTERVAL, KubeletTimer::Housekeeping),
            ],
        )
    }

    /// Renew the Lease.
    pub fn heartbeat(&mut self, store: &Store, now: SimTime) -> KubeletOutput {
        let lease = self.lease(self.node_object(store), now);
        let mut requests = vec![Request::blind_update(lease)];
        // The node status sync (every 10 s, like the Lease here): report the images
        // when they changed — what the scheduler's ImageLocality reads.
        // …and `volumesInUse`: the attachable volumes of the Pods it runs or sets up,
        // which the attach/detach controller will not detach.
        let unchanged = self.reported_images.as_ref() == Some(&self.images);
        let in_use = self.volumes_in_use(store);
        if let Some(n) = self.node_object(store) {
            let images = (!unchanged).then(|| node_images(&self.images));
            let new_images = images.as_ref().is_some_and(|i| *i != n.status.images);
            if new_images || n.status.volumes_in_use != in_use {
                let mut n = n.clone();
                if let Some(i) = images {
                    n.status.images = i;
                }
                n.status.volumes_in_use = in_use;
                requests.push(Request::blind_update_status(n));
            }
            if !unchanged {
                self.reported_images = Some(self.images.clone());
            }
        }
        // The API server's Node says not Ready while this kubelet posts Ready: the node
        // lifecycle controller judged by Leases it did not see (a watch that broke).
        // The status sync finds the stored status differs from its own and posts it
        // (`tryUpdateNodeStatus`: `nodeStatusHasChanged`), and the status manager puts
        // back the Ready conditions `MarkPodsNotReady` flipped (`needsReconcile`).
        if self.cut.is_none() {
            if let Some(n) = self
                .node_object(store)
                .filter(|n| n.ready_status() != ConditionStatus::True)
            {
                requests.extend(self.node_ready(n, now));
                for (uid, w) in &self.workers {
                    let Some(p) = store.get::<Pod>(&w.key).filter(|p| p.metadata.uid == *uid)
                    else {
                        continue;
                    };
                    let mut mine = p.clone();
                    super::status::refresh_ready(&mut mine, now);
                    if mine.status.conditions != p.status.conditions {
                        requests.push(Request::blind_update_status(mine));
                    }
                }
            }
        }
        (
            requests,
            vec![(now + LEASE_RENEW_INTERVAL, KubeletTimer::Heartbeat)],
        )
    }

    /// The unique names of the attachable volumes of every Pod it has a worker for,
    /// sorted (`GetVolumesInUse`).
    pub(super) fn volumes_in_use(&self, store: &Store) -> Vec<String> {
        let mut out = std::collections::BTreeSet::new();
        for (uid, w) in self.workers.iter().filter(|(_, w)| w.has_volumes) {
            let Some(p) = store.get::<Pod>(&w.key).filter(|p| p.metadata.uid == *uid) else {
                continue;
            };
            for (_, _, unique) in
                crate::controllers::attach_detach::pod_attachable_volumes(store, p)
            {
                out.insert(unique);
            }
        }
        out.into_iter().collect()
    }
}
