//! `kubectl drain`'s choice of Pods (`k8s.io/kubectl/pkg/drain`: `GetPodsForDeletion`,
//! `filterPods`, the filters of `filters.go`) and its error texts, shared by the verb
//! (which starts the drain) and the waiting command (which reports how it ended).

use crate::api::*;
use crate::apiserver::selectors::parse_label_selector;
use crate::cluster::Cluster;
use crate::command::client::Client;

// filters.go's messages.
const DAEMONSET_FATAL: &str = "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)";
const DAEMONSET_WARNING: &str = "ignoring DaemonSet-managed Pods";
const LOCAL_STORAGE_FATAL: &str =
    "Pods with local storage (use --delete-emptydir-data to override)";
const LOCAL_STORAGE_WARNING: &str = "deleting Pods with local storage";
const UNMANAGED_FATAL: &str =
    "cannot delete Pods that declare no controller (use --force to override)";
const UNMANAGED_WARNING: &str = "deleting Pods that declare no controller";
/// The annotation of a static Pod's mirror (`corev1.MirrorPodAnnotationKey`).
const MIRROR_POD_ANNOTATION: &str = "kubernetes.io/config.mirror";

/// The drain flags the filters read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrainOptions {
    /// `--force`: Pods without a controller are deleted too.
    pub force: bool,
    /// `--delete-emptydir-data`.
    pub delete_emptydir_data: bool,
    /// `--pod-selector`.
    pub pod_selector: Option<String>,
    /// `--ignore-daemonsets`: a DaemonSet's Pods are left where they are (with a
    /// warning) instead of stopping the drain.
    pub ignore_daemonsets: bool,
}

/// What a filter says about one Pod (`PodDeleteStatus`).
#[derive(Clone, Debug, PartialEq)]
enum Status {
    Okay,
    Skip,
    Warning(String),
    /// `MakePodDeleteStatusWithWarning(false, …)`: a warning, and the Pod stays.
    Keep(String),
    Error(String),
}

impl Status {
    fn delete(&self) -> bool {
        matches!(self, Status::Okay | Status::Warning(_))
    }
}

/// The Pods to evict, the errors that stop the drain (each `cannot delete …: ns/a,
/// ns/b`), and the warnings to print (`…: ns/a; …`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PodDeleteList {
    /// Pods the filters let through, in the API's list order (namespace, name).
    pub pods: Vec<Pod>,
    /// `PodDeleteList.errors()` (sorted by message where Go ranges over a map).
    pub errors: Vec<String>,
    /// `PodDeleteList.Warnings()`, empty when none.
    pub warnings: String,
}

/// `hasLocalStorage`: the Pod has an `emptyDir` volume (its data dies with the Pod).
fn has_local_storage(pod: &Pod) -> bool {
    pod.spec
        .volumes
        .iter()
        .any(|v| v.source_type() == Some("emptyDir"))
}

fn finished(p: &Pod) -> bool {
    p.is_terminal()
}

/// `filterPods` with `makeFilters`' order: skipDeleted (kubectl's default waits for
/// every Pod, so it never skips), daemonSet, mirrorPod, localStorage, unreplicated. A
/// filter that says "do not delete" ends the run; the last status is the Pod's (so a
/// warning is overwritten by a later filter's Okay, as upstream's TODO says).
fn status_of(c: &mut Cluster, k: &Client, pod: &Pod, o: &DrainOptions) -> Status {
    // The DaemonSet filter reads the Pod's DaemonSet (a GET) when the Pod has one.
    let daemon_set_exists = match pod.metadata.controller_ref() {
        Some(r) if r.kind == "DaemonSet" && !finished(pod) => {
            let key = crate::apiserver::ObjKey::new(&pod.metadata.namespace, &r.name);
            matches!(k.get_opt(c, Kind::DaemonSet, &key), Ok(Some(_)))
        }
        _ => true,
    };
    let filters: [&dyn Fn(&Pod) -> Status; 4] = [
        &|p| {
            let Some(r) = p.metadata.controller_ref() else {
                return Status::Okay;
            };
            if r.kind != "DaemonSet" || finished(p) {
                return Status::Okay;
            }
            if !daemon_set_exists {
                // An orphan: removed with a warning under --force.
                let err = format!("daemonsets.apps \"{}\" not found", r.name);
                if o.force {
                    return Status::Warning(err);
                }
                return Status::Error(err);
            }
            if !o.ignore_daemonsets {
                return Status::Error(DAEMONSET_FATAL.into());
            }
            Status::Keep(DAEMONSET_WARNING.into())
        },
        &|p| {
            if p.metadata.annotations.contains_key(MIRROR_POD_ANNOTATION) {
                Status::Skip
            } else {
                Status::Okay
            }
        },
        &|p| {
            if !has_local_storage(p) || finished(p) {
                Status::Okay
            } else if !o.delete_emptydir_data {
                Status::Error(LOCAL_STORAGE_FATAL.into())
            } else {
                Status::Warning(LOCAL_STORAGE_WARNING.into())
            }
        },
        &|p| {
            if finished(p) || p.metadata.controller_ref().is_some() {
                Status::Okay
            } else if o.force {
                Status::Warning(UNMANAGED_WARNING.into())
            } else {
                Status::Error(UNMANAGED_FATAL.into())
            }
        },
    ];
    let mut status = Status::Okay;
    for f in filters {
        status = f(pod);
        if !status.delete() {
            break;
        }
    }
    status
}

/// `GetPodsForDeletion`: the Pods on `node` (matching `--pod-selector`), filtered.
pub fn pods_for_deletion(
    c: &mut Cluster,
    k: &Client,
    node: &str,
    o: &DrainOptions,
) -> Result<PodDeleteList, String> {
    let sel = o
        .pod_selector
        .as_deref()
        .map(parse_label_selector)
        .transpose()?;
    // One list of the node's Pods in every namespace, as GetPodsForDeletion sends it.
    let fields = crate::apiserver::selectors::parse_field_selector(
        Kind::Pod,
        &format!("spec.nodeName={node}"),
    )?;
    let listed = k
        .list(c, Kind::Pod, None, sel.as_ref(), &fields)
        .map_err(|e| e.kubectl_text())?;
    let mut pods: Vec<Pod> = listed
        .iter()
        .filter_map(|o| Pod::from_object(o))
        .cloned()
        .collect();
    crate::sorting::sort_by(&mut pods, |a, b| {
        (&a.metadata.namespace, &a.metadata.name).cmp(&(&b.metadata.namespace, &b.metadata.name))
    });
    let mut list = PodDeleteList::default();
    // Messages → Pods, in first-seen order for warnings; errors sorted (a Go map).
    let mut errors: Vec<(String, Vec<String>)> = Vec::new();
    let mut warnings: Vec<(String, Vec<String>)> = Vec::new();
    for p in pods {
        let who = format!("{}/{}", p.metadata.namespace, p.metadata.name);
        let status = status_of(c, k, &p, o);
        let bucket = match &status {
            Status::Error(m) => Some((&mut errors, m.clone())),
            Status::Warning(m) | Status::Keep(m) => Some((&mut warnings, m.clone())),
            _ => None,
        };
        if let Some((b, m)) = bucket {
            match b.iter_mut().find(|(k, _)| *k == m) {
                Some((_, v)) => v.push(who),
                None => b.push((m, vec![who])),
            }
        }
        if status.delete() {
            list.pods.push(p.clone());
        }
    }
    crate::sorting::sort(&mut errors);
    list.errors = errors
        .into_iter()
        .map(|(m, ps)| format!("cannot delete {m}: {}", ps.join(", ")))
        .collect();
    list.warnings = warnings
        .into_iter()
        .map(|(m, ps)| format!("{m}: {}", ps.join(", ")))
        .collect::<Vec<_>>()
        .join("; ");
    Ok(list)
}

/// `utilerrors.NewAggregate(errs).Error()`: one message alone, several in brackets.
pub fn aggregate(errs: &[String]) -> String {
    match errs {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

/// How `RunDrain` ends when draining `node` failed with `errs`: the "unable to drain"
/// line, the pending nodes, then `CheckErr` of the aggregate — each error on its own
/// line, without an `error: ` prefix (an Aggregate goes through `MultipleErrors`).
pub fn drain_failed(node: &str, errs: &[String]) -> String {
    let mut out = format!(
        "error: unable to drain node \"{node}\" due to error: {}, continuing command...\nThere are pending nodes to be drained:\n {node}\n",
        aggregate(errs)
    );
    for e in errs {
        out.push_str(e);
        out.push('\n');
    }
    out
}

/// `deleteOrEvictPodsSimple` after the evictions failed: the Pods still to go, as
/// `GetPodsForDeletion` lists them again.
pub fn pending_pods(
    c: &mut Cluster,
    k: &Client,
    node: &str,
    o: &DrainOptions,
    errs: &[String],
) -> String {
    let Ok(list) = pods_for_deletion(c, k, node, o) else {
        return String::new();
    };
    if list.pods.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "There are pending pods in node \"{node}\" when an error occurred: {}\n",
        aggregate(errs)
    );
    for p in &list.pods {
        out.push_str(&format!("pod/{}\n", p.metadata.name));
    }
    out
}
