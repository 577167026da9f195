//! The cluster DNS add-on, installed as kubeadm installs it
//! (`cmd/kubeadm/app/phases/addons/dns`): the `coredns` Deployment in `kube-system`,
//! its ServiceAccount, RBAC and Corefile, and the `kube-dns` Service at
//! [`DNS_SERVICE_IP`], the tenth address of the service range (kubeadm's
//! `GetDNSIP`). Its Pods are ordinary Pods: the scheduler places them, the kubelet
//! runs them and the EndpointSlice controller lists them behind `kube-dns`, so a
//! name resolves only while a CoreDNS Pod is Ready.

use super::Cluster;
use crate::api::Object;
use crate::client::writer;

/// kubeadm's manifests, as it renders them for `cluster.local` and
/// `10.96.0.0/12`.
const MANIFEST: &str = include_str!("coredns.yaml");

/// The `kube-dns` Service's cluster IP: every Pod's `/etc/resolv.conf` nameserver.
pub const DNS_SERVICE_IP: &str = "10.96.0.10";

/// The label CoreDNS's Pods and the `kube-dns` Service select by.
pub const DNS_APP_LABEL: (&str, &str) = ("k8s-app", "kube-dns");

/// The add-on's objects in the order kubeadm creates them.
pub fn coredns_objects() -> Vec<Object> {
    // A fixed manifest compiled in: a test parses it, so this cannot come back empty.
    crate::manifest::parse(MANIFEST, "coredns.yaml")
        .map(|docs| docs.into_iter().map(|d| d.object).collect())
        .unwrap_or_default()
}

impl Cluster {
    /// Install the DNS add-on as kubeadm does once the control plane is up: its
    /// uids come from an RNG of their own, as the other bootstrap objects'. Its Pods
    /// are the ReplicaSet controller's to make, on the next tick.
    pub fn install_cluster_dns(&mut self) {
        self.create_as(writer::KUBEADM, 0x636f_7265, coredns_objects());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_addon_manifest_parses_into_its_six_objects() {
        let kinds: Vec<_> = coredns_objects().iter().map(|o| o.kind()).collect();
        assert_eq!(kinds.len(), 6, "{kinds:?}");
    }
}
