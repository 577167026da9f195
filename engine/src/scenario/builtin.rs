//! The built-in lessons: every file of `engine/scenarios/`, in course order.

use super::format::{Scenario, Text};
use super::parse::parse;

/// The built-in scenarios, in course order: (id, YAML).
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "gateway-delete-pod",
        include_str!("../../scenarios/01-gateway-delete-pod.yaml"),
    ),
    (
        "replacement-pending",
        include_str!("../../scenarios/02-replacement-pending.yaml"),
    ),
    (
        "image-pull-backoff",
        include_str!("../../scenarios/03-image-pull-backoff.yaml"),
    ),
    (
        "running-not-ready",
        include_str!("../../scenarios/04-running-not-ready.yaml"),
    ),
    (
        "restart-vs-replace",
        include_str!("../../scenarios/05-restart-vs-replace.yaml"),
    ),
    (
        "notes-api-node-down",
        include_str!("../../scenarios/06-notes-api-node-down.yaml"),
    ),
    (
        "submitted-not-running",
        include_str!("../../scenarios/07-submitted-not-running.yaml"),
    ),
    (
        "rollout-and-rollback",
        include_str!("../../scenarios/08-rollout-and-rollback.yaml"),
    ),
    (
        "drift-reverted",
        include_str!("../../scenarios/09-drift-reverted.yaml"),
    ),
    (
        "selectors-and-labels",
        include_str!("../../scenarios/10-selectors-and-labels.yaml"),
    ),
    (
        "revision-history-limit",
        include_str!("../../scenarios/11-revision-history-limit.yaml"),
    ),
    (
        "scheduling-arithmetic",
        include_str!("../../scenarios/12-scheduling-arithmetic.yaml"),
    ),
    (
        "drain-with-pdb",
        include_str!("../../scenarios/13-drain-with-pdb.yaml"),
    ),
    (
        "crashloop-backoff",
        include_str!("../../scenarios/14-crashloop-backoff.yaml"),
    ),
    (
        "ready-is-not-stored",
        include_str!("../../scenarios/15-ready-is-not-stored.yaml"),
    ),
    (
        "rollout-readiness-traffic",
        include_str!("../../scenarios/16-rollout-readiness-traffic.yaml"),
    ),
    (
        "node-down-users-side",
        include_str!("../../scenarios/17-node-down-users-side.yaml"),
    ),
    (
        "drain-keeps-serving",
        include_str!("../../scenarios/18-drain-keeps-serving.yaml"),
    ),
    (
        "control-plane-down",
        include_str!("../../scenarios/19-control-plane-down.yaml"),
    ),
    (
        "etcd-quorum-table",
        include_str!("../../scenarios/20-etcd-quorum-table.yaml"),
    ),
    (
        "etcd-lost-quorum",
        include_str!("../../scenarios/21-etcd-lost-quorum.yaml"),
    ),
    (
        "write-path-refusals",
        include_str!("../../scenarios/22-write-path-refusals.yaml"),
    ),
    (
        "leader-killed",
        include_str!("../../scenarios/23-leader-killed.yaml"),
    ),
    (
        "watch-broke",
        include_str!("../../scenarios/24-watch-broke.yaml"),
    ),
    (
        "two-writers-one-field",
        include_str!("../../scenarios/25-two-writers-one-field.yaml"),
    ),
    (
        "three-replicas-one-node",
        include_str!("../../scenarios/26-three-replicas-one-node.yaml"),
    ),
    (
        "admission-mutates-and-refuses",
        include_str!("../../scenarios/27-admission-mutates-and-refuses.yaml"),
    ),
    (
        "job-two-retry-layers",
        include_str!("../../scenarios/28-job-two-retry-layers.yaml"),
    ),
    (
        "cronjob-forbid-skips",
        include_str!("../../scenarios/29-cronjob-forbid-skips.yaml"),
    ),
    (
        "what-success-means",
        include_str!("../../scenarios/30-what-success-means.yaml"),
    ),
    (
        "daemonset-on-every-node",
        include_str!("../../scenarios/31-daemonset-on-every-node.yaml"),
    ),
    (
        "statefulset-at-most-one",
        include_str!("../../scenarios/32-statefulset-at-most-one.yaml"),
    ),
    (
        "hpa-up-and-back-down",
        include_str!("../../scenarios/33-hpa-up-and-back-down.yaml"),
    ),
    (
        "objects-and-owners",
        include_str!("../../scenarios/34-objects-and-owners.yaml"),
    ),
    (
        "diagnosing-a-pod",
        include_str!("../../scenarios/35-diagnosing-a-pod.yaml"),
    ),
    (
        "control-plane-machinery",
        include_str!("../../scenarios/36-control-plane-machinery.yaml"),
    ),
    (
        "who-keeps-what",
        include_str!("../../scenarios/37-who-keeps-what.yaml"),
    ),
    (
        "predict-the-gateway-story",
        include_str!("../../scenarios/38-predict-the-gateway-story.yaml"),
    ),
    (
        "predict-more-exercises",
        include_str!("../../scenarios/39-predict-more-exercises.yaml"),
    ),
    (
        "reconcile-loop",
        include_str!("../../scenarios/40-reconcile-loop.yaml"),
    ),
    (
        "web-from-apply-to-running",
        include_str!("../../scenarios/41-web-from-apply-to-running.yaml"),
    ),
    (
        "asking-the-api-server",
        include_str!("../../scenarios/42-asking-the-api-server.yaml"),
    ),
    (
        "ready-but-blocked",
        include_str!("../../scenarios/43-ready-but-blocked.yaml"),
    ),
    (
        "write-the-loop",
        include_str!("../../scenarios/44-write-the-loop.yaml"),
    ),
    (
        "fix-the-loop",
        include_str!("../../scenarios/45-fix-the-loop.yaml"),
    ),
    (
        "what-etcd-holds",
        include_str!("../../scenarios/46-what-etcd-holds.yaml"),
    ),
    (
        "etcd-backup-and-restore",
        include_str!("../../scenarios/47-etcd-backup-and-restore.yaml"),
    ),
    (
        "node-memory-pressure",
        include_str!("../../scenarios/48-node-memory-pressure.yaml"),
    ),
    (
        "node-disk-pressure",
        include_str!("../../scenarios/50-node-disk-pressure.yaml"),
    ),
    (
        "devices-reconnect",
        include_str!("../../scenarios/49-devices-reconnect.yaml"),
    ),
];

/// A built-in scenario by id.
pub fn builtin(id: &str) -> Option<Result<Scenario, String>> {
    BUILTIN
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(i, y)| parse(y, &format!("{i}.yaml")))
}

/// The built-in scenarios' titles, by id, in [`BUILTIN`]'s order, without parsing
/// each whole file: the lesson picker is on the first screen, and parsing forty
/// scenario files (with their expansion checks) for it cost the page's start about
/// 65 ms of WebAssembly. Each title is its file's top-level `title:` block, read on its
/// own; a test keeps it equal to the full parse's title.
pub fn builtin_titles() -> Vec<(&'static str, Text)> {
    BUILTIN
        .iter()
        .filter_map(|(id, yaml)| Some((*id, title_of(yaml)?)))
        .collect()
}

/// The top-level `title:` block of a scenario file, read alone.
fn title_of(yaml: &str) -> Option<Text> {
    #[derive(serde::Deserialize)]
    struct TitleOnly {
        title: Text,
    }
    let start = yaml
        .match_indices("title:")
        .map(|(i, _)| i)
        .find(|&i| i == 0 || yaml.as_bytes()[i - 1] == b'\n')?;
    let block = &yaml[start..];
    // The block ends at the next line that starts at column 0.
    let end = block
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .find(|&i| {
            block[i..]
                .chars()
                .next()
                .is_some_and(|c| !c.is_whitespace())
        })
        .unwrap_or(block.len());
    serde_yaml_ng::from_str::<TitleOnly>(&block[..end])
        .ok()
        .map(|t| t.title)
}
