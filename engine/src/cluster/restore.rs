//! Restoring objects from another cluster's state (`sim import`, [`crate::import`]).

use super::*;

impl Cluster {
    /// Restore `obj` as it was in another cluster (see
    /// [`crate::apiserver::Store::restore`]). A Pod bound to a node whose containers
    /// all run keeps running there: its kubelet adopts it as a restarted kubelet finds
    /// its containers, before the informers hear of it; any other bound Pod is synced
    /// as a starting kubelet syncs it.
    pub fn restore(&mut self, obj: Object) -> Result<(), ApiError> {
        let ch = self
            .store
            .restore(self.now, &mut self.rng, obj, writer::IMPORT)?;
        if let Some(p) = ch.new.as_deref().and_then(Pod::from_object) {
            let now = self.now;
            let node = p.spec.node_name.clone();
            if let Some(k) = self.kubelets.get_mut(&node) {
                let (adopted, out) = k.adopt_running(&mut self.faults, p, now);
                if adopted {
                    self.kubelet_output(&node, out);
                }
            }
        }
        self.dispatch(&ch);
        Ok(())
    }
}
