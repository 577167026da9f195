//! Node pressure: the kubelet's eviction manager run at each heartbeat
//! (`kubelet::eviction`), and `sim node pressure memory NODE` for memory taken by
//! something outside the Pods.

use super::*;

impl Cluster {
    /// One eviction-manager cycle on `node`'s kubelet. It costs nothing while nothing
    /// presses: no memory demand (`sim load --memory`), no other process using memory,
    /// no condition waiting to clear.
    pub(super) fn eviction_cycle(&mut self, node: &str) {
        let demand = self.config.load.values().any(|d| d.memory_bytes.is_some());
        let (store, load, now) = (&self.store, &self.config.load, self.now);
        let Some(k) = self.kubelets.get_mut(node) else {
            return;
        };
        if !k.up || k.partitioned || !(demand || k.pressure.active()) {
            return;
        }
        let usage = |p: &Pod| crate::metrics::pod_memory(store, load, p);
        let out = k.synchronize(store, &usage, now);
        self.kubelet_output(node, out);
    }

    /// `sim node pressure memory NODE`: something outside the Pods takes `bytes` of the
    /// node's memory (0: nothing). None: as much as leaves 50Mi available now, under the
    /// kubelet's 100Mi threshold.
    pub fn set_memory_pressure(&mut self, node: &str, bytes: Option<i64>) -> Result<i64, String> {
        let store = &self.store;
        let load = &self.config.load;
        let Some(k) = self.kubelets.get(node) else {
            return Err(format!(
                "Error from server (NotFound): nodes \"{node}\" not found"
            ));
        };
        let bytes = match bytes {
            Some(b) => b.max(0),
            None => {
                let pods: Vec<&Pod> = store
                    .pods_on_node(node)
                    .filter(|p| !p.is_terminal())
                    .collect();
                let usage = |p: &Pod| crate::metrics::pod_memory(store, load, p);
                (k.memory_available(&pods, &usage) - (50 << 20)).max(0)
            }
        };
        if let Some(k) = self.kubelets.get_mut(node) {
            k.pressure.other_memory = bytes;
        }
        Ok(bytes)
    }
}
