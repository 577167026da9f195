//! The Service REST storage's allocators: a cluster IP for every Service that is not
//! headless or ExternalName, and node ports for NodePort and LoadBalancer Services.
//!
//! The service range is kubeadm's `10.96.0.0/12` (the API server's own default is
//! `10.0.0.0/24`, but every kubeadm-built cluster, kind's and minikube's among them,
//! uses this one). As upstream's allocators do (KEP-3070), a dynamic pick avoids the
//! low band kept for static addresses — 256 IPs here, `10.96.0.1`–`10.96.1.0`, where
//! the `kubernetes` Service and kube-dns live — choosing a random start in the upper
//! band and scanning forward, wrapping; the low band is used only when the upper one is
//! full. Node ports do the same in `30000-32767` with a low band of 86 ports.
//!
//! Upstream: `pkg/registry/core/service/storage/alloc.go` (`allocClusterIPs`,
//! `initNodePorts`, `patchAllocatedValues`), `pkg/registry/core/service/ipallocator/`
//! (`calculateRangeOffset`, `allocateNextService`) and `portallocator/allocator.go`.
//! v1.33 also records each allocated IP as an `IPAddress` object under a `ServiceCIDR`
//! named `kubernetes`; the simulation keeps the allocation table without those objects.

use super::*;

/// The first address of the service range, `10.96.0.0`.
pub const SERVICE_CIDR_BASE: u32 = (10 << 24) | (96 << 16);
/// The service range's prefix length.
pub const SERVICE_CIDR_BITS: u32 = 12;
/// The service range as written.
pub const SERVICE_CIDR: &str = "10.96.0.0/12";
/// The usable addresses (network and broadcast excluded).
const IP_RANGE_SIZE: u32 = (1 << (32 - SERVICE_CIDR_BITS)) - 2;
/// `calculateRangeOffset` for a /12: min(max(16, 2^20 / 16), 256).
const IP_STATIC_BAND: u32 = 256;

/// `--service-node-port-range`'s default.
pub const NODE_PORT_MIN: i64 = 30000;
/// The last node port.
pub const NODE_PORT_MAX: i64 = 32767;
/// The port allocator's `calculateRangeOffset`: min(max(16, 2768 / 32), 128).
const PORT_STATIC_BAND: i64 = 86;

/// An IPv4 address as a number, if `s` is one.
pub fn parse_ipv4(s: &str) -> Option<u32> {
    let parts: Vec<&str> = s.split('.').collect();
    if parts.len() != 4 {
        return None;
    }
    let mut n: u32 = 0;
    for p in parts {
        if p.is_empty() || p.len() > 3 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let v: u32 = p.parse().ok()?;
        if v > 255 {
            return None;
        }
        n = (n << 8) | v;
    }
    Some(n)
}

/// A number as a dotted IPv4 address.
pub fn format_ipv4(n: u32) -> String {
    format!(
        "{}.{}.{}.{}",
        n >> 24,
        (n >> 16) & 255,
        (n >> 8) & 255,
        n & 255
    )
}

/// Whether the Service type gets node ports.
fn needs_node_ports(svc: &Service) -> bool {
    match svc.spec.type_.as_str() {
        "NodePort" => true,
        "LoadBalancer" => {
            svc.spec
                .extra
                .get("allocateLoadBalancerNodePorts")
                .and_then(|v| v.as_bool())
                != Some(false)
        }
        _ => false,
    }
}

/// `serviceutil.ExternallyAccessible`.
fn externally_accessible(svc: &Service) -> bool {
    matches!(svc.spec.type_.as_str(), "NodePort" | "LoadBalancer")
        || (svc.spec.type_ == "ClusterIP" && !svc.spec.external_ips.is_empty())
}

/// `dropTypeDependentFields` (the Service strategy's `PrepareForUpdate`, before
/// validation): a type change wipes what the old type needed and the new one does not,
/// where the request left it as it was — so `kubectl patch -p '{"spec":{"type":
/// "ClusterIP"}}'` on a NodePort Service drops its node ports (freed after the write)
/// instead of being refused for them. A value the user changed is kept, for
/// validation to judge.
pub(super) fn drop_type_dependent_fields(svc: &mut Service, old: &Service) {
    let spec = &mut svc.spec;
    let needs_cluster_ip = |t: &str| t != "ExternalName";
    if needs_cluster_ip(&old.spec.type_) && !needs_cluster_ip(&spec.type_) {
        if spec.cluster_ip == old.spec.cluster_ip && spec.cluster_ips == old.spec.cluster_ips {
            spec.cluster_ip.clear();
            spec.cluster_ips.clear();
        }
        if spec.ip_families == old.spec.ip_families {
            spec.ip_families.clear();
        }
        if spec.ip_family_policy == old.spec.ip_family_policy {
            spec.ip_family_policy.clear();
        }
    }
    let needs_node_port = |t: &str| t == "NodePort" || t == "LoadBalancer";
    // sameNodePorts: no node port that the old Service did not have.
    let same_node_ports = spec
        .ports
        .iter()
        .all(|p| p.node_port == 0 || old.spec.ports.iter().any(|o| o.node_port == p.node_port));
    if needs_node_port(&old.spec.type_) && !needs_node_port(&spec.type_) && same_node_ports {
        for p in &mut spec.ports {
            p.node_port = 0;
        }
    }
    let needs_hc =
        |s: &ServiceSpec| s.type_ == "LoadBalancer" && s.external_traffic_policy == "Local";
    if needs_hc(&old.spec)
        && !needs_hc(spec)
        && spec.extra.get("healthCheckNodePort") == old.spec.extra.get("healthCheckNodePort")
    {
        spec.extra.remove("healthCheckNodePort");
    }
    if old.spec.type_ == "LoadBalancer" && spec.type_ != "LoadBalancer" {
        for field in ["allocateLoadBalancerNodePorts", "loadBalancerClass"] {
            if spec.extra.get(field) == old.spec.extra.get(field) {
                spec.extra.remove(field);
            }
        }
    }
    if externally_accessible(old)
        && !externally_accessible(svc)
        && svc.spec.external_traffic_policy == old.spec.external_traffic_policy
    {
        svc.spec.external_traffic_policy.clear();
    }
}

fn invalid(svc: &Service, causes: Vec<String>) -> ApiError {
    ApiError::invalid(Kind::Service, &svc.metadata.name, &causes)
}

impl Store {
    /// Pick a free index (0-based offset from `base`) in `[0, size)`: a random start in
    /// the upper band `[band, size)` scanned forward and wrapping, then the low band
    /// the same way (`randomScanStrategyWithOffset`).
    fn pick(rng: &mut Rng, size: u64, band: u64, taken: impl Fn(u64) -> bool) -> Option<u64> {
        for (lo, hi) in [(band, size), (0, band)] {
            let n = hi.saturating_sub(lo);
            if n == 0 {
                continue;
            }
            let start = rng.below(n);
            for i in 0..n {
                let off = lo + (start + i) % n;
                if !taken(off) {
                    return Some(off);
                }
            }
        }
        None
    }

    /// Create: allocate the cluster IP and node ports a new Service asks for or needs.
    pub(super) fn allocate_service(
        &mut self,
        rng: &mut Rng,
        svc: &mut Service,
    ) -> Result<(), ApiError> {
        let key = ObjKey::of(&svc.metadata);
        let ip = self.allocate_cluster_ip(rng, svc, &key)?;
        if let Err(e) = self.allocate_node_ports(rng, svc, &key) {
            // One transaction: undo the IP.
            if let Some(ip) = ip {
                self.service_ips.remove(&ip);
            }
            return Err(e);
        }
        Ok(())
    }

    fn allocate_cluster_ip(
        &mut self,
        rng: &mut Rng,
        svc: &mut Service,
        key: &ObjKey,
    ) -> Result<Option<u32>, ApiError> {
        if svc.spec.type_ == "ExternalName" {
            return Ok(None);
        }
        if svc.spec.cluster_ip.is_empty() {
            if let Some(first) = svc.spec.cluster_ips.first() {
                svc.spec.cluster_ip = first.clone();
            }
        }
        if svc.is_headless() {
            svc.spec.cluster_ips = vec!["None".into()];
            return Ok(None);
        }
        let ip = if svc.spec.cluster_ip.is_empty() {
            let taken = &self.service_ips;
            let off = Self::pick(
                rng,
                u64::from(IP_RANGE_SIZE),
                u64::from(IP_STATIC_BAND),
                |o| taken.contains_key(&(SERVICE_CIDR_BASE + 1 + o as u32)),
            )
            .ok_or_else(|| ApiError::internal("failed to allocate a serviceIP: range is full"))?;
            SERVICE_CIDR_BASE + 1 + off as u32
        } else {
            let written = svc.spec.cluster_ip.clone();
            let fail = |why: &str| {
                invalid(
                    svc,
                    vec![format!(
                        "spec.clusterIPs: Invalid value: []string{{\"{written}\"}}: failed to allocate IP {written}: {why}"
                    )],
                )
            };
            let Some(ip) = parse_ipv4(&written) else {
                return Err(fail(
                    "the provided network does not match the current range",
                ));
            };
            if ip >> (32 - SERVICE_CIDR_BITS) != SERVICE_CIDR_BASE >> (32 - SERVICE_CIDR_BITS)
                || ip == SERVICE_CIDR_BASE
                || ip == SERVICE_CIDR_BASE + IP_RANGE_SIZE + 1
            {
                return Err(fail(
                    "the provided network does not match the current range",
                ));
            }
            if self.service_ips.contains_key(&ip) {
                return Err(fail("provided IP is already allocated"));
            }
            ip
        };
        self.service_ips.insert(ip, key.clone());
        svc.spec.cluster_ip = format_ipv4(ip);
        svc.spec.cluster_ips = vec![svc.spec.cluster_ip.clone()];
        Ok(Some(ip))
    }

    /// `initNodePorts`: ports written are checked and taken; the others get one, the
    /// same for every port with the same number. On an update the Service's own ports
    /// are not "already allocated".
    fn allocate_node_ports(
        &mut self,
        rng: &mut Rng,
        svc: &mut Service,
        key: &ObjKey,
    ) -> Result<(), ApiError> {
        if !needs_node_ports(svc) {
            return Ok(());
        }
        let mine = |p: i64, s: &Store| s.node_ports.get(&p) == Some(key);
        let mut taken_now: Vec<i64> = Vec::new();
        let mut by_port: BTreeMap<i64, i64> = BTreeMap::new();
        let mut causes = Vec::new();
        // Ports written first, then the rest (a written port cannot be given away).
        for (i, sp) in svc.spec.ports.iter().enumerate() {
            if sp.node_port == 0 {
                continue;
            }
            let n = sp.node_port;
            if !(NODE_PORT_MIN..=NODE_PORT_MAX).contains(&n) {
                causes.push(format!(
                    "spec.ports[{i}].nodePort: Invalid value: {n}: provided port is not in the valid range. The range of valid ports is {NODE_PORT_MIN}-{NODE_PORT_MAX}"
                ));
            } else if self.node_ports.contains_key(&n) && !mine(n, self) && !taken_now.contains(&n)
            {
                causes.push(format!(
                    "spec.ports[{i}].nodePort: Invalid value: {n}: provided port is already allocated"
                ));
            } else {
                taken_now.push(n);
                by_port.insert(sp.port, n);
            }
        }
        if !causes.is_empty() {
            return Err(invalid(svc, causes));
        }
        for n in &taken_now {
            self.node_ports.insert(*n, key.clone());
        }
        for i in 0..svc.spec.ports.len() {
            if svc.spec.ports[i].node_port != 0 {
                continue;
            }
            let port = svc.spec.ports[i].port;
            let n = match by_port.get(&port) {
                Some(n) => *n,
                None => {
                    let taken = &self.node_ports;
                    let Some(off) = Self::pick(
                        rng,
                        (NODE_PORT_MAX - NODE_PORT_MIN + 1) as u64,
                        PORT_STATIC_BAND as u64,
                        |o| taken.contains_key(&(NODE_PORT_MIN + o as i64)),
                    ) else {
                        for n in &taken_now {
                            self.node_ports.remove(n);
                        }
                        return Err(ApiError::internal(
                            "failed to allocate a nodePort: range is full",
                        ));
                    };
                    let n = NODE_PORT_MIN + off as i64;
                    self.node_ports.insert(n, key.clone());
                    taken_now.push(n);
                    by_port.insert(port, n);
                    n
                }
            };
            svc.spec.ports[i].node_port = n;
        }
        Ok(())
    }

    /// Update: keep what was allocated (`patchAllocatedValues`: a cluster IP or node
    /// port left out of the new object is the old one), allocate for a type that now
    /// needs node ports, and release what is no longer used. The cluster IP itself
    /// cannot change (validation refuses it first).
    pub(super) fn reallocate_service(
        &mut self,
        rng: &mut Rng,
        svc: &mut Service,
        old: &Service,
    ) -> Result<(), ApiError> {
        let key = ObjKey::of(&svc.metadata);
        if svc.spec.type_ != "ExternalName" && old.spec.type_ != "ExternalName" {
            if svc.spec.cluster_ip.is_empty() && svc.spec.cluster_ips.is_empty() {
                svc.spec.cluster_ip = old.spec.cluster_ip.clone();
                svc.spec.cluster_ips = old.spec.cluster_ips.clone();
            } else if svc.spec.cluster_ips.is_empty() {
                svc.spec.cluster_ips = vec![svc.spec.cluster_ip.clone()];
            }
        }
        if needs_node_ports(svc) && needs_node_ports(old) {
            for sp in &mut svc.spec.ports {
                if sp.node_port == 0 {
                    if let Some(o) = old
                        .spec
                        .ports
                        .iter()
                        .find(|o| o.port == sp.port && o.node_port != 0)
                    {
                        sp.node_port = o.node_port;
                    }
                }
            }
        }
        if old.spec.type_ == "ExternalName" && svc.spec.type_ != "ExternalName" {
            self.allocate_cluster_ip(rng, svc, &key)?;
        }
        self.allocate_node_ports(rng, svc, &key)?;
        // Release node ports the Service no longer has.
        let keep: BTreeSet<i64> = if needs_node_ports(svc) {
            svc.spec.ports.iter().map(|p| p.node_port).collect()
        } else {
            BTreeSet::new()
        };
        for p in old.spec.ports.iter().map(|p| p.node_port) {
            if p != 0 && !keep.contains(&p) && self.node_ports.get(&p) == Some(&key) {
                self.node_ports.remove(&p);
            }
        }
        if svc.spec.type_ == "ExternalName" && old.spec.type_ != "ExternalName" {
            self.release_cluster_ip(old, &key);
            svc.spec.cluster_ip.clear();
            svc.spec.cluster_ips.clear();
        }
        Ok(())
    }

    fn release_cluster_ip(&mut self, svc: &Service, key: &ObjKey) {
        if let Some(ip) = parse_ipv4(&svc.spec.cluster_ip) {
            if self.service_ips.get(&ip) == Some(key) {
                self.service_ips.remove(&ip);
            }
        }
    }

    /// Delete: the Service's cluster IP and node ports are free again.
    pub(super) fn release_service(&mut self, svc: &Service) {
        let key = ObjKey::of(&svc.metadata);
        self.release_cluster_ip(svc, &key);
        for p in &svc.spec.ports {
            if self.node_ports.get(&p.node_port) == Some(&key) {
                self.node_ports.remove(&p.node_port);
            }
        }
    }

    /// After a Service write: the IPAddress objects follow its cluster IP, as upstream's
    /// allocator keeps one per allocated address (`ipallocator.createIPAddress`,
    /// `release`): `old_ip` (before the write) released, `new` (after it, `None` once
    /// deleted) allocated. Written by the API server itself; the uid comes from the
    /// address and the Service's uid, not the cluster's seeded stream.
    pub(super) fn sync_ip_address(
        &mut self,
        now: SimTime,
        old_ip: Option<&str>,
        new: Option<&Service>,
    ) {
        let new_ip = new.and_then(allocated_ip);
        if old_ip.is_some() && old_ip != new_ip.as_deref() {
            let key = ObjKey::new("", old_ip.unwrap_or_default());
            self.remove(now, Kind::IPAddress, &key, KUBE_APISERVER);
        }
        let (Some(ip), Some(svc)) = (new_ip, new) else {
            return;
        };
        if old_ip == Some(ip.as_str()) {
            return;
        }
        let seed = crate::hash::fnv1a32(format!("{ip}/{}", svc.metadata.uid).as_bytes());
        let mut labels = std::collections::BTreeMap::new();
        labels.insert(
            "ipaddress.kubernetes.io/ip-family".to_string(),
            "IPv4".to_string(),
        );
        labels.insert(
            "ipaddress.kubernetes.io/managed-by".to_string(),
            "ipallocator.k8s.io".to_string(),
        );
        let obj = Object::IPAddress(IPAddress {
            metadata: ObjectMeta {
                name: ip,
                labels,
                uid: Rng::new(u64::from(seed)).uuid_v4(),
                creation_timestamp: crate::time::rfc3339(now),
                created_ms: now,
                ..Default::default()
            },
            spec: IPAddressSpec {
                parent_ref: Some(ParentReference {
                    group: String::new(),
                    resource: "services".into(),
                    namespace: svc.metadata.namespace.clone(),
                    name: svc.metadata.name.clone(),
                }),
            },
        });
        self.put(now, "create", obj, KUBE_APISERVER);
    }

    /// The Service holding a cluster IP, if any.
    pub fn service_with_ip(&self, ip: &str) -> Option<&ObjKey> {
        self.service_ips.get(&parse_ipv4(ip)?)
    }
}

/// The cluster IP a Service holds (none for a headless or ExternalName one).
pub(super) fn allocated_ip(svc: &Service) -> Option<String> {
    parse_ipv4(&svc.spec.cluster_ip).map(format_ipv4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv4_addresses_parse_and_print_back() {
        assert_eq!(parse_ipv4("10.96.0.1"), Some(SERVICE_CIDR_BASE + 1));
        assert_eq!(format_ipv4(SERVICE_CIDR_BASE + 256 + 1), "10.96.1.1");
        for bad in [
            "10.96.0",
            "10.96.0.256",
            "a.b.c.d",
            "10..0.1",
            "10.96.0.1.2",
            "",
        ] {
            assert_eq!(parse_ipv4(bad), None, "{bad}");
        }
    }
}
