//! Tab completion for the console: verbs, resource types, flags and object names.

use super::{KUBECTL_VERBS, RESOURCE_NAMES, SIM_VERBS};
use crate::api::Kind;
use crate::cluster::Cluster;
use crate::printers::get::resolve_kind;

const COMMON_FLAGS: &[&str] = &[
    "--namespace=",
    "--output=",
    "--selector=",
    "--field-selector=",
    "--all-namespaces",
    "--show-labels",
    "--sort-by=",
    "--replicas=",
    "--image=",
    "--grace-period=",
    "--force",
    "--cascade=",
    "--wait=false",
    "--timeout=",
    "--for=",
    "--overwrite",
    "--ignore-daemonsets",
    "--to-revision=",
    "--revision=",
    "--filename=",
];

/// Candidates for the last word of `line` (the word being typed), sorted.
pub fn complete(c: &Cluster, line: &str) -> Vec<String> {
    let ends_with_space = line.ends_with(' ');
    let words: Vec<&str> = line.split_whitespace().collect();
    let (done, partial): (&[&str], &str) = if ends_with_space || words.is_empty() {
        (&words[..], "")
    } else {
        (&words[..words.len() - 1], words[words.len() - 1])
    };
    let mut out: Vec<String> = match done {
        [] => vec!["kubectl".into(), "sim".into()],
        ["kubectl"] => KUBECTL_VERBS.iter().map(|s| s.to_string()).collect(),
        ["sim"] => SIM_VERBS.iter().map(|s| s.to_string()).collect(),
        ["sim", "node"] => ["add", "down", "up", "partition", "pressure", "ps", "remove"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        ["sim", "node", "pressure"] => ["disk", "inodes", "memory", "pid"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        ["sim", "node", "pressure", "memory" | "disk" | "inodes" | "pid"] => names(c, Kind::Node),
        ["sim", "node", _] => names(c, Kind::Node),
        ["sim", "apiserver"] => ["down", "status", "up"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        ["sim", "etcd"] => [
            "disconnect",
            "down",
            "isolate",
            "members",
            "reconnect",
            "rejoin",
            "snapshot",
            "status",
            "up",
            "wipe",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        ["sim", "etcd", "snapshot"] => ["restore", "save", "status"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        ["sim", "etcd", "snapshot", "restore" | "status"] => {
            c.etcd().snapshots.iter().map(|s| s.name.clone()).collect()
        }
        ["sim", "etcdctl"] => ["compact", "defrag", "endpoint", "get"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        ["sim", "etcdctl", "endpoint"] => {
            ["health", "status"].iter().map(|s| s.to_string()).collect()
        }
        ["sim", "leader"] => ["kill", "replicas", "status"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        ["sim", "watch"] => vec!["break".to_string()],
        ["sim", "watch", "break"] => crate::cluster::Ctl::ALL
            .iter()
            .map(|c| c.component().writer)
            .collect(),
        ["sim", "leader", "kill"] => ["kube-controller-manager", "kube-scheduler"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        ["sim", "etcd", "down" | "up" | "isolate" | "rejoin"] => {
            c.etcd().members.iter().map(|m| m.name.clone()).collect()
        }
        ["sim", "traffic" | "app" | "devices" | "message"] => names(c, Kind::Service)
            .into_iter()
            .map(|n| format!("service/{n}"))
            .collect(),
        ["kubectl", "rollout"] => ["history", "pause", "restart", "resume", "status", "undo"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        ["kubectl", "rollout", _] => names(c, Kind::Deployment)
            .into_iter()
            .map(|n| format!("deployment/{n}"))
            .collect(),
        ["kubectl", "cordon" | "uncordon" | "drain", ..] => names(c, Kind::Node),
        ["kubectl", "set"] => vec!["image".into(), "resources".into()],
        ["kubectl", _] | ["kubectl", "set", "image" | "resources"] => {
            RESOURCE_NAMES.iter().map(|s| s.to_string()).collect()
        }
        ["kubectl", "set", _, kind, ..] if !partial.starts_with('-') => match resolve_kind(kind) {
            Some(k) => names(c, k),
            None => vec![],
        },
        ["kubectl", _, kind, ..] if !partial.starts_with('-') => match resolve_kind(kind) {
            Some(k) => names(c, k),
            None => vec![],
        },
        _ => vec![],
    };
    if partial.starts_with('-') {
        out = COMMON_FLAGS.iter().map(|s| s.to_string()).collect();
    }
    out.retain(|s| s.starts_with(partial));
    crate::sorting::sort(&mut out);
    out.dedup();
    out
}

fn names(c: &Cluster, kind: Kind) -> Vec<String> {
    c.store
        .list_objects(kind)
        .filter(|o| !kind.namespaced() || o.meta().namespace == "default")
        .map(|o| o.meta().name.clone())
        .collect()
}

/// The longest common prefix of the candidates (what Tab can fill in at once).
pub fn common_prefix(cands: &[String]) -> String {
    let Some(first) = cands.first() else {
        return String::new();
    };
    let mut end = first.len();
    for c in &cands[1..] {
        end = end.min(
            first
                .bytes()
                .zip(c.bytes())
                .take_while(|(a, b)| a == b)
                .count(),
        );
    }
    while !first.is_char_boundary(end) {
        end -= 1;
    }
    first[..end].to_string()
}

/// Tab on a whole line: the line completed as far as the candidates agree (a single
/// candidate gets its separator: a space, or nothing after `=` and `/`), and the
/// candidates to show when several remain.
pub fn complete_line(c: &Cluster, line: &str) -> (String, Option<String>) {
    let cands = complete(c, line);
    let typed = if line.ends_with(' ') {
        ""
    } else {
        line.rsplit(' ').next().unwrap_or("")
    };
    let head = &line[..line.len() - typed.len()];
    match cands.as_slice() {
        [] => (line.to_string(), None),
        [one] => {
            let sep = if one.ends_with('=') || one.ends_with('/') {
                ""
            } else {
                " "
            };
            (format!("{head}{one}{sep}"), None)
        }
        _ => (
            format!("{head}{}", common_prefix(&cands)),
            Some(cands.join("  ")),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_knows_verbs_types_flags_and_names() {
        let mut c = Cluster::with_default_nodes(1);
        c.create_deployment("web", "nginx", 1, "", "").unwrap();
        assert_eq!(complete(&c, "kub"), ["kubectl"]);
        assert_eq!(complete(&c, "kubectl de"), ["delete", "describe"]);
        assert!(complete(&c, "kubectl get ").contains(&"pods".to_string()));
        assert_eq!(complete(&c, "kubectl get deploy w"), ["web"]);
        assert_eq!(
            complete(&c, "kubectl cordon node-"),
            ["node-1", "node-2", "node-3"]
        );
        assert_eq!(complete(&c, "kubectl get pods --sh"), ["--show-labels"]);
        assert_eq!(complete(&c, "kubectl rollout status "), ["deployment/web"]);
        assert_eq!(
            complete(&c, "sim node pressure "),
            ["disk", "inodes", "memory", "pid"]
        );
        assert_eq!(complete(&c, "sim node pressure pid node-1"), ["node-1"]);
        assert_eq!(common_prefix(&["node-1".into(), "node-2".into()]), "node-");
    }

    #[test]
    fn tab_completes_a_line_as_far_as_the_candidates_agree() {
        let mut c = Cluster::with_default_nodes(1);
        c.create_deployment("web", "nginx", 1, "", "").unwrap();
        assert_eq!(
            complete_line(&c, "kubectl get deploy w"),
            ("kubectl get deploy web ".into(), None)
        );
        assert_eq!(
            complete_line(&c, "kubectl cordon node-"),
            (
                "kubectl cordon node-".into(),
                Some("node-1  node-2  node-3".into())
            )
        );
        assert_eq!(
            complete_line(&c, "kubectl rollout status "),
            ("kubectl rollout status deployment/web ".into(), None)
        );
        assert_eq!(complete_line(&c, "frob"), ("frob".into(), None));
    }

    #[test]
    fn every_verb_and_resource_offered_is_one_the_command_language_runs() {
        let mut c = Cluster::with_default_nodes(1);
        for v in KUBECTL_VERBS {
            let o = crate::command::run(
                &mut c,
                &format!("kubectl {v} --help"),
                None,
                &crate::command::NoFiles,
            );
            assert!(
                !o.output.contains("unknown command"),
                "kubectl {v}: {}",
                o.output
            );
        }
        for v in SIM_VERBS {
            let o =
                crate::command::run(&mut c, &format!("sim {v}"), None, &crate::command::NoFiles);
            assert!(
                !o.output.contains("unknown sim verb"),
                "sim {v}: {}",
                o.output
            );
        }
        for r in RESOURCE_NAMES {
            let o = crate::command::run(
                &mut c,
                &format!("kubectl get {r}"),
                None,
                &crate::command::NoFiles,
            );
            assert!(
                !o.output.contains("doesn't have a resource type"),
                "get {r}: {}",
                o.output
            );
        }
        c.create_deployment("web", "nginx", 1, "", "").unwrap();
        crate::command::run(
            &mut c,
            "kubectl expose deployment web --port 80",
            None,
            &crate::command::NoFiles,
        );
        assert_eq!(complete(&c, "sim apiserver "), ["down", "status", "up"]);
        assert_eq!(complete(&c, "sim traffic service/w"), ["service/web"]);
        assert_eq!(complete(&c, "kubectl rep"), ["replace"]);
        assert_eq!(complete(&c, "kubectl set r"), ["resources"]);
        assert_eq!(complete(&c, "kubectl set resources deployment w"), ["web"]);
    }
}
