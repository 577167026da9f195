//! The timeline's lanes: one per writer, in the order the usual story runs — the user,
//! the controllers that turn a Deployment into Pods, the scheduler, the kubelets, then
//! the controllers that react to failures, then everyone else.

/// Where `writer`'s lane goes: (rank, then the writer's name).
pub fn lane_rank(writer: &str) -> (u8, String) {
    let r = match writer {
        "kubectl" => 0,
        "deployment-controller" => 1,
        "replicaset-controller" => 2,
        "default-scheduler" => 3,
        "node-lifecycle-controller" => 5,
        "taint-eviction-controller" => 6,
        _ if writer.starts_with("kubelet/") => 4,
        _ => 7,
    };
    (r, writer.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_run_from_the_user_through_the_control_plane_to_the_kubelets_and_the_failure_handlers()
    {
        let mut writers = vec![
            "pod-garbage-collector",
            "taint-eviction-controller",
            "kubelet/node-2",
            "node-lifecycle-controller",
            "default-scheduler",
            "kubelet/node-1",
            "replicaset-controller",
            "deployment-controller",
            "kubectl",
        ];
        writers.sort_by_key(|w| lane_rank(w));
        assert_eq!(
            writers,
            vec![
                "kubectl",
                "deployment-controller",
                "replicaset-controller",
                "default-scheduler",
                "kubelet/node-1",
                "kubelet/node-2",
                "node-lifecycle-controller",
                "taint-eviction-controller",
                "pod-garbage-collector",
            ]
        );
    }
}
