//! The timeline's lanes: one per writer, in the order the usual story runs — the user,
//! the controllers that turn a Deployment into Pods, the scheduler, the kubelets, then
//! the controllers that react to failures, then everyone else.

use crate::client::writer;

/// Where the lane of the writer `name` goes: (rank, then the writer's name).
pub fn lane_rank(name: &str) -> (u8, String) {
    let r = match name {
        writer::KUBECTL => 0,
        writer::DEPLOYMENT_CONTROLLER => 1,
        writer::REPLICASET_CONTROLLER => 2,
        writer::DEFAULT_SCHEDULER => 3,
        writer::NODE_LIFECYCLE_CONTROLLER => 5,
        writer::TAINT_EVICTION_CONTROLLER => 6,
        _ if name.starts_with(writer::KUBELET_PREFIX) => 4,
        _ => 7,
    };
    (r, name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_run_from_the_user_through_the_control_plane_to_the_kubelets_and_the_failure_handlers()
    {
        let (kubelet_1, kubelet_2) = (writer::kubelet("node-1"), writer::kubelet("node-2"));
        let mut writers = vec![
            writer::POD_GARBAGE_COLLECTOR,
            writer::TAINT_EVICTION_CONTROLLER,
            kubelet_2.as_str(),
            writer::NODE_LIFECYCLE_CONTROLLER,
            writer::DEFAULT_SCHEDULER,
            kubelet_1.as_str(),
            writer::REPLICASET_CONTROLLER,
            writer::DEPLOYMENT_CONTROLLER,
            writer::KUBECTL,
        ];
        crate::sorting::sort_by_key(&mut writers, |w| lane_rank(w));
        assert_eq!(
            writers,
            vec![
                writer::KUBECTL,
                writer::DEPLOYMENT_CONTROLLER,
                writer::REPLICASET_CONTROLLER,
                writer::DEFAULT_SCHEDULER,
                kubelet_1.as_str(),
                kubelet_2.as_str(),
                writer::NODE_LIFECYCLE_CONTROLLER,
                writer::TAINT_EVICTION_CONTROLLER,
                writer::POD_GARBAGE_COLLECTOR,
            ]
        );
    }
}
