//! The random actions of a run: workloads, Pods, nodes, the API server and etcd, images,
//! budgets and the clock, each a command line or a manifest.

use super::step::Step;
use crate::rng::Rng;

/// Images the runs use.
pub const IMAGES: [&str; 4] = ["nginx:1.27", "nginx:1.28", "shop:2.0", "api:1.0"];

/// A Deployment with probes, an init container and resources, as a manifest.
pub fn manifest(name: &str, image: &str, replicas: u64, with_init: bool) -> String {
    let init = if with_init {
        "      initContainers: [{name: init, image: busybox:1.36}]\n".to_string()
    } else {
        String::new()
    };
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata: {{name: {name}}}
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{app: {name}}}}}
  template:
    metadata: {{labels: {{app: {name}}}}}
    spec:
{init}      containers:
      - name: app
        image: {image}
        resources: {{requests: {{cpu: 200m, memory: 256Mi}}}}
        readinessProbe: {{httpGet: {{path: /, port: 80}}, periodSeconds: 5}}
        livenessProbe: {{httpGet: {{path: /, port: 80}}, periodSeconds: 10, failureThreshold: 3}}
"
    )
}

/// A Job for the fault runs: three completions two at a time, Pods that exit with
/// `code` after 3 s, OnFailure or Never.
pub(super) fn job_manifest(step: usize, code: u64, on_failure: bool) -> String {
    format!(
        "apiVersion: batch/v1\nkind: Job\nmetadata: {{name: batch-{step}}}\nspec:\n  completions: 3\n  parallelism: 2\n  backoffLimit: 3\n  template:\n    spec:\n      restartPolicy: {}\n      containers: [{{name: work, image: busybox, command: [sh, -c, 'sleep 3; exit {code}']}}]\n",
        if on_failure { "OnFailure" } else { "Never" }
    )
}

/// A NetworkPolicy that lets nothing into a Deployment's Pods (the traffic model
/// enforces it; the control plane must not care).
fn deny_ingress_manifest(step: usize, d: &str) -> String {
    format!(
        "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {{name: deny-{step}}}\nspec:\n  podSelector: {{matchLabels: {{app: {d}}}}}\n  policyTypes: [Ingress]\n"
    )
}

/// One random action of a run, drawn after the setup: mostly a command line, now and
/// then a manifest applied (a new Deployment, a deleted one back, a Job).
pub(super) fn random_step(
    rng: &mut Rng,
    step: usize,
    nodes: &[String],
    pods: &[String],
    deployments: &mut Vec<String>,
) -> Step {
    let n = pick(rng, nodes);
    let p = pick(rng, pods);
    let d = pick(rng, deployments);
    let image = IMAGES[rng.below(IMAGES.len() as u64) as usize];
    let apply = |m: String| Step {
        line: "kubectl apply -f -".into(),
        stdin: Some(m),
    };
    let k = rng.below(52);
    match k {
        20 => {
            let name = format!("d{step}");
            let m = manifest(&name, image, 1 + rng.below(3), rng.below(2) == 0);
            deployments.push(name);
            apply(m)
        }
        // A Deployment deleted (or orphaned) earlier comes back: it adopts what matches
        // its selector.
        32 => apply(manifest(&d, image, 1 + rng.below(4), false)),
        44 => apply(job_manifest(step, rng.below(3), rng.below(2) == 0)),
        50 => apply(deny_ingress_manifest(step, &d)),
        _ => Step::new(command_line(rng, k, step, &n, &p, &d, image)),
    }
}

/// Action `k`'s command line, on node `n`, Pod `p`, Deployment `d` and `image`.
fn command_line(
    rng: &mut Rng,
    k: u64,
    step: usize,
    n: &str,
    p: &str,
    d: &str,
    image: &str,
) -> String {
    match k {
    0 => format!("kubectl delete pod {p} --wait=false"),
    1 => format!("kubectl scale deployment {d} --replicas={}", rng.below(6)),
    2 => format!("kubectl set image deployment/{d} app={image} {d}={image} nginx={image}"),
    3 => format!("kubectl rollout undo deployment/{d}"),
    4 => format!("kubectl cordon {n}"),
    5 => format!("kubectl uncordon {n}"),
    6 => format!("kubectl drain {n} --ignore-daemonsets --timeout=60s"),
    7 => format!("sim node down {n}"),
    8 => format!("sim node up {n}"),
    9 => format!("sim node partition {n}"),
    10 => format!("sim crash pod/{p}"),
    11 => format!("sim unready pod/{p}"),
    12 => format!("sim ready pod/{p}"),
    13 => format!("sim image-fail {image}"),
    14 => format!("sim image-ok {image}"),
    15 => format!("sim image-crash {image} --after 3s"),
    16 => format!("sim hang pod/{p}"),
    17 => format!("sim oom pod/{p}"),
    18 => format!("kubectl taint nodes {n} dedicated=x:NoExecute"),
    19 => format!("kubectl taint nodes {n} dedicated-"),
    21 => format!("kubectl delete deployment {d} --wait=false"),
    22 => format!(
        "kubectl create pdb pdb-{step} --selector=app={d} --min-available={}",
        rng.below(3)
    ),
    23 => format!(
        "sim gitops on deployment/{d} --every {}",
        ["200ms", "5s", "30s"][rng.below(3) as usize]
    ),
    24 => format!("kubectl rollout restart deployment/{d}"),
    25 => format!("sim node remove {n}"),
    26 => format!("sim node add n{step} --cpu 4 --memory 8Gi"),
    27 => format!("kubectl delete pod {p} --grace-period=0 --force"),
    28 => "kubectl create namespace scratch".to_string(),
    29 => format!("kubectl rollout pause deployment/{d}"),
    30 => format!("kubectl rollout resume deployment/{d}"),
    31 => format!("kubectl delete deployment {d} --cascade=orphan"),
    33 => format!(
        "kubectl patch deployment {d} -p '{{\"spec\":{{\"strategy\":{{\"type\":\"{}\",\"rollingUpdate\":null}},\"replicas\":{}}}}}'",
        ["Recreate", "RollingUpdate"][rng.below(2) as usize],
        rng.below(5)
    ),
    34 => "kubectl create deployment s --image=nginx:1.27 --replicas=2 -n scratch".to_string(),
    35 => "kubectl delete namespace scratch --wait=false".to_string(),
    36 => "sim apiserver down".to_string(),
    37 => "sim apiserver up".to_string(),
    38 => "sim etcd members 3".to_string(),
    39 => format!("sim etcd down etcd-{}", 1 + rng.below(3)),
    40 => format!("sim etcd up etcd-{}", 1 + rng.below(3)),
    41 => format!("sim leader replicas {}", 1 + rng.below(3)),
    42 => format!(
        "sim leader kill {}",
        ["kube-controller-manager", "kube-scheduler"][rng.below(2) as usize]
    ),
    43 => format!(
        "sim watch break {} --for {}s{}",
        [
            "replicaset-controller",
            "deployment-controller",
            "node-lifecycle-controller",
            "default-scheduler",
            "garbage-collector",
        ][rng.below(5) as usize],
        1 + rng.below(60),
        if rng.below(2) == 0 { " --gone" } else { "" }
    ),
    45 => format!(
        "kubectl create cronjob tick-{step} --image=busybox:1.36 --schedule='*/{} * * * *' -- sh -c 'sleep {}'",
        1 + rng.below(3),
        rng.below(120)
    ),
    // The HPA under changing load: created, its target loaded and unloaded.
    46 => format!(
        "kubectl autoscale deployment {d} --min=1 --max={} --cpu-percent=50",
        2 + rng.below(4)
    ),
    47 => format!("sim load deployment/{d} --cpu {}%", 20 + 20 * rng.below(8)),
    48 => format!("sim load deployment/{d} --stop"),
    // The network: a Service (EndpointSlices, kube-proxy) and an Ingress in front of it.
    49 => format!("kubectl expose deployment {d} --port=80"),
    51 => format!("kubectl create ingress ing-{step} --rule=/={d}:80"),
    _ => format!("kubectl label pods {p} tier=x --overwrite"),
    }
}

/// A random one of `xs` (empty when there is none).
fn pick(rng: &mut Rng, xs: &[String]) -> String {
    if xs.is_empty() {
        return String::new();
    }
    xs[rng.below(xs.len() as u64) as usize].clone()
}
