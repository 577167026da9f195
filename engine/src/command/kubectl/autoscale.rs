//! `kubectl autoscale` and `kubectl top pod|node`.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/autoscale/autoscale.go` (an
//! `autoscaling/v2` HPA named after its target, a CPU metric only with
//! `--cpu-percent`) and `pkg/cmd/top/top_pod.go`, `top_node.go`,
//! `pkg/metricsutil/metrics_printer.go` (CPU in millicores, memory in whole Mi, node
//! percentages of allocatable, sorted by name or, with `--sort-by`, descending).

use super::util::{api, int_flag, namespace, one_target, NS, R};
use crate::api::*;
use crate::apiserver::selectors::parse_label_selector;
use crate::cluster::Cluster;
use crate::command::args::{bool_flag, flag, parse_flags, Parsed};
use crate::command::client::Client;

/// `kubectl autoscale (TYPE NAME | TYPE/NAME) [--min=MINPODS] --max=MAXPODS
/// [--cpu-percent=CPU] [--name=NAME]`.
pub(super) fn autoscale(c: &mut Cluster, k: &Client, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            NS,
            flag("min", None),
            flag("max", None),
            flag("cpu-percent", None),
            flag("name", None),
            flag("output", Some('o')),
        ],
        "kubectl autoscale",
    )?;
    // The printer is made after the create (a bad `-o` is met then).
    let format = super::print_flags::inline(p.get("output"), &crate::command::NoFiles);
    let Some(max) = p.get("max") else {
        return Err("error: required flag(s) \"max\" not set".into());
    };
    let max = int_flag(max, "--max", 32, "kubectl autoscale")?;
    let min = int_flag(
        p.get("min").unwrap_or("-1"),
        "--min",
        32,
        "kubectl autoscale",
    )?;
    let cpu = int_flag(
        p.get("cpu-percent").unwrap_or("-1"),
        "--cpu-percent",
        32,
        "kubectl autoscale",
    )?;
    if max < 1 {
        return Err(format!(
            "error: --max=MAXPODS is required and must be at least 1, max: {max}"
        ));
    }
    if max < min {
        return Err(format!(
            "error: --max=MAXPODS must be larger or equal to --min=MINPODS, max: {max}, min: {min}"
        ));
    }
    let (kind, target) = one_target(&p, "autoscale")?;
    if !matches!(
        kind,
        Kind::Deployment | Kind::ReplicaSet | Kind::StatefulSet
    ) {
        // The scale subresource is looked up in discovery, where only the scalable
        // workloads have one.
        let (group, version) = kind.api_version().split_once('/').unwrap_or(("", "v1"));
        return Err(format!(
            "error: cannot autoscale a {}: could not find scale subresource for {group}/{version}, Resource={} in discovery information",
            kind.name(),
            kind.resource()
        ));
    }
    let ns = namespace(&p);
    // The builder reads the target first (a GET).
    k.get(c, kind, &ns, &target).map_err(api)?;
    let name = p.get("name").unwrap_or(&target).to_string();
    let mut hpa = HorizontalPodAutoscaler {
        metadata: ObjectMeta {
            name: name.clone(),
            namespace: ns,
            ..Default::default()
        },
        spec: HorizontalPodAutoscalerSpec {
            scale_target_ref: CrossVersionObjectReference {
                api_version: kind.api_version().into(),
                kind: kind.name().into(),
                name: target,
            },
            min_replicas: (min > 0).then_some(min),
            max_replicas: max,
            ..Default::default()
        },
        status: Default::default(),
    };
    if cpu >= 0 {
        hpa.spec.metrics.push(MetricSpec {
            type_: "Resource".into(),
            resource: Some(ResourceMetricSource {
                name: "cpu".into(),
                target: MetricTarget {
                    type_: "Utilization".into(),
                    average_utilization: Some(cpu),
                    ..Default::default()
                },
            }),
            ..Default::default()
        });
    }
    let hpa = Object::HorizontalPodAutoscaler(Box::new(hpa));
    let created = k.create(c, hpa.clone()).map_err(api)?;
    let format = match format {
        Ok(f) => f,
        // kubectl v1.33 creates and prints through autoscaling/v2, and when that
        // fails (here at its printer) tries once more through autoscaling/v1: the
        // second create of the same name is the error it reports (seen against
        // `serve`: POST v2, POST v1, "AlreadyExists"). Here the second create goes
        // through the same client call, so the request log shows it as the first.
        Err(e) => {
            return Err(match k.create(c, hpa) {
                Err(err) => api(err),
                Ok(_) => e,
            })
        }
    };
    let shown = super::util::served(c, created.object.map(|o| o.to_json()).unwrap_or_default());
    let text = super::print_flags::Reporter::new(format).typed_object(
        crate::api::Kind::HorizontalPodAutoscaler,
        &shown,
        &format!("horizontalpodautoscaler.autoscaling/{name}"),
        "autoscaled",
    )?;
    Ok(text.trim_end_matches('\n').to_string())
}

/// One row of `kubectl top`: its name (`NS/NAME` for a Pod), CPU and memory (what
/// `--sort-by` orders by; -1 for a node without metrics), and its cells.
type TopRow = (String, i64, i64, Vec<String>);

/// What `kubectl top pod` or `top node` found: a table (its headers and rows), or a
/// message that ends the command successfully (`No resources found…`).
enum TopTable {
    /// The headers and the rows, not yet sorted.
    Rows(Vec<&'static str>, Vec<TopRow>),
    /// Nothing to show, in kubectl's words.
    Nothing(String),
}

/// CPU in millicores, as metrics_printer.go prints it.
fn cpu_cell(m: i64) -> String {
    format!("{m}m")
}

/// Memory in whole Mi, as metrics_printer.go prints it.
fn mem_cell(b: i64) -> String {
    format!("{}Mi", b / (1024 * 1024))
}

/// `kubectl top pod [NAME] [-l SELECTOR] [-A] [--sort-by=cpu|memory]` and
/// `kubectl top node [NAME] [--sort-by=cpu|memory]`.
pub(super) fn top(c: &mut Cluster, k: &Client, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            NS,
            flag("selector", Some('l')),
            bool_flag("all-namespaces", Some('A')),
            flag("sort-by", None),
            bool_flag("no-headers", None),
        ],
        "kubectl top",
    )?;
    let sort = p.get("sort-by").unwrap_or("");
    if !matches!(sort, "" | "cpu" | "memory") {
        return Err("error: --sort-by accepts only cpu or memory".into());
    }
    let what = p.args.first().map(String::as_str);
    let name = p.args.get(1).cloned();
    let (headers, mut lines) = match what {
        Some("pod" | "pods" | "po") => match top_pods(c, k, &p, name)? {
            TopTable::Rows(headers, lines) => (headers, lines),
            TopTable::Nothing(message) => return Ok(message),
        },
        Some("node" | "nodes" | "no") => top_nodes(c, k, name)?,
        _ => {
            return Err("error: kubectl top needs a resource: kubectl top pod|node [NAME]".into());
        }
    };
    match sort {
        "cpu" => crate::sorting::sort_by(&mut lines, |a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0))),
        "memory" => crate::sorting::sort_by(&mut lines, |a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0))),
        _ => crate::sorting::sort_by(&mut lines, |a, b| a.0.cmp(&b.0)),
    }
    let mut text = String::new();
    if !p.bool("no-headers") {
        text.push_str(&headers.join("\t"));
        text.push('\n');
    }
    for (_, _, _, row) in lines {
        text.push_str(&row.join("\t"));
        text.push('\n');
    }
    Ok(crate::tabwriter::format(&text, 6, 3).trim_end().to_string())
}

/// `kubectl top pod` (top_pod.go's RunTopPod): the usage of each Pod selected, or why
/// there is none to show.
fn top_pods(
    c: &mut Cluster,
    k: &Client,
    p: &Parsed,
    name: Option<String>,
) -> Result<TopTable, String> {
    let now = c.now();
    if name.is_some() && p.get("selector").is_some() {
        return Err("error: only one of NAME or selector can be provided".into());
    }
    let all = p.bool("all-namespaces");
    let ns = namespace(p);
    let sel = match p.get("selector") {
        Some(s) => Some(parse_label_selector(s)?),
        None => None,
    };
    let select = |pod: &Pod| {
        name.as_ref().is_none_or(|n| pod.metadata.name == *n)
            && sel.as_ref().is_none_or(|s| s.matches(&pod.metadata.labels))
    };
    // getMetricsFromMetricsAPI comes first: its refusal is what kubectl prints.
    k.metrics(c, "pods", (!all).then_some(ns.as_str()), name.as_deref())
        .map_err(api)?;
    let usages = crate::metrics::pod_usages(
        &c.store,
        &c.config.load,
        &c.config.served,
        (!all).then_some(ns.as_str()),
        &select,
        now,
    );
    let listed = k
        .list(c, Kind::Pod, (!all).then_some(ns.as_str()), None, &[])
        .map_err(api)?;
    let candidates: Vec<&Pod> = listed
        .iter()
        .filter_map(|o| Pod::from_object(o))
        .filter(|pod| select(pod))
        .collect();
    // A named Pod is one GET of its PodMetrics: metrics-server's 404 when it has no
    // reading, whether or not the Pod exists (top_pod.go returns that error as is).
    if let Some(n) = &name {
        if usages.is_empty() {
            return Err(format!(
                "Error from server (NotFound): podmetrics.metrics.k8s.io \"{n}\" not found"
            ));
        }
    }
    if candidates.is_empty() {
        return Ok(TopTable::Nothing(if all {
            "No resources found".into()
        } else {
            format!("No resources found in {ns} namespace.")
        }));
    }
    if usages.is_empty() {
        // verifyEmptyMetrics: the first Pod older than metricsCreationDelay (2 minutes)
        // is named; if all are younger, their metrics may simply not be there yet.
        let old = candidates
            .iter()
            .find(|pod| now.saturating_sub(pod.metadata.created_ms) > 120_000);
        return Err(match old {
            None => "error: metrics not available yet".into(),
            Some(pod) => format!(
                "error: Metrics not available for pod {}/{}, age: {}",
                pod.metadata.namespace,
                pod.metadata.name,
                crate::time::go_duration(now.saturating_sub(pod.metadata.created_ms))
            ),
        });
    }
    let headers = if all {
        vec!["NAMESPACE", "NAME", "CPU(cores)", "MEMORY(bytes)"]
    } else {
        vec!["NAME", "CPU(cores)", "MEMORY(bytes)"]
    };
    let mut lines = Vec::new();
    for ((pns, pname), u) in &usages {
        let mut row = Vec::new();
        if all {
            row.push(pns.clone());
        }
        row.extend([
            pname.clone(),
            cpu_cell(u.cpu_milli),
            mem_cell(u.memory_bytes),
        ]);
        lines.push((format!("{pns}/{pname}"), u.cpu_milli, u.memory_bytes, row));
    }
    Ok(TopTable::Rows(headers, lines))
}

/// `kubectl top node` (top_node.go's RunTopNode): each node's usage (its own daemons
/// plus its Pods) against allocatable; `<unknown>` for a node that is down.
fn top_nodes(
    c: &mut Cluster,
    k: &Client,
    name: Option<String>,
) -> Result<(Vec<&'static str>, Vec<TopRow>), String> {
    let now = c.now();
    // getNodeMetricsFromMetricsAPI comes first: its refusal is what kubectl prints.
    k.metrics(c, "nodes", None, name.as_deref()).map_err(api)?;
    let headers = vec!["NAME", "CPU(cores)", "CPU(%)", "MEMORY(bytes)", "MEMORY(%)"];
    let mut lines: Vec<TopRow> = Vec::new();
    let usages = crate::metrics::all_pod_usages(&c.store, &c.config.load, &c.config.served, now);
    let nodes = k.list(c, Kind::Node, None, None, &[]).map_err(api)?;
    for n in nodes.iter().filter_map(|o| Node::from_object(o)) {
        if name.as_ref().is_some_and(|x| *x != n.metadata.name) {
            continue;
        }
        let node = &n.metadata.name;
        if !c.node_up(node) {
            lines.push((
                node.clone(),
                -1,
                -1,
                vec![
                    node.clone(),
                    "<unknown>".into(),
                    "<unknown>".into(),
                    "<unknown>".into(),
                    "<unknown>".into(),
                ],
            ));
            continue;
        }
        // The node's own daemons (kubelet, runtime) plus its Pods.
        let u = crate::metrics::node_usage(&c.store, &usages, node);
        let (used_cpu, used_mem) = (u.cpu_milli, u.memory_bytes);
        let alloc = crate::apiserver::allocatable(n);
        let pct = |used: i64, avail: i64| {
            if avail > 0 {
                format!("{}%", (used as f64 / avail as f64 * 100.0) as i64)
            } else {
                "0%".into()
            }
        };
        lines.push((
            node.clone(),
            used_cpu,
            used_mem,
            vec![
                node.clone(),
                cpu_cell(used_cpu),
                pct(used_cpu, alloc.cpu_milli),
                mem_cell(used_mem),
                pct(used_mem, alloc.memory),
            ],
        ));
    }
    if let (Some(n), true) = (&name, lines.is_empty()) {
        return Err(format!(
            "Error from server (NotFound): nodes \"{n}\" not found"
        ));
    }
    Ok((headers, lines))
}
