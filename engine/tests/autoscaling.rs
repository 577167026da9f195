//! The HorizontalPodAutoscaler against the simulated metrics: the scale-up formula,
//! the 10% tolerance, the 5-minute scale-down stabilization, a `behavior` that speeds
//! it up, the GitOps agent that fights it, and request traffic as the load.

use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

const WEB: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: nginx, image: 'nginx:1.27', resources: {requests: {cpu: 200m, memory: 64Mi}}}]\n";

fn sh(c: &mut Cluster, cmd: &str, stdin: Option<&str>) -> String {
    let o = run(c, cmd, stdin, &NoFiles);
    assert!(o.ok, "{cmd}: {}", o.output);
    o.output
}

fn replicas(c: &Cluster) -> i64 {
    c.store
        .get::<Deployment>(&ObjKey::new("default", "web"))
        .unwrap()
        .spec
        .replicas
}

fn hpa(c: &Cluster) -> HorizontalPodAutoscaler {
    c.store
        .get::<HorizontalPodAutoscaler>(&ObjKey::new("default", "web"))
        .unwrap()
        .clone()
}

/// Two Pods running for six minutes (past the CPU initialization period), an HPA at
/// 50% of the CPU request.
fn busy_cluster() -> Cluster {
    let mut c = Cluster::with_default_nodes(3);
    sh(&mut c, "kubectl apply -f -", Some(WEB));
    c.advance(360_000);
    sh(
        &mut c,
        "kubectl autoscale deployment web --min=2 --max=10 --cpu-percent=50",
        None,
    );
    c.advance(20_000);
    c
}

#[test]
fn eighty_percent_against_a_fifty_percent_target_makes_two_pods_four() {
    let mut c = busy_cluster();
    assert_eq!(replicas(&c), 2);
    // 2 Pods × 200m × 80% = 320m shared: 160m each, 80% of the request.
    sh(&mut c, "sim load deployment/web --cpu 80%", None);
    c.advance(16_000);
    // desired = ceil(2 × 80 / 50) = 4.
    assert_eq!(replicas(&c), 4);
    let h = hpa(&c);
    assert_eq!(h.status.desired_replicas, 4);
    let cpu = h.status.current_metrics[0].resource.as_ref().unwrap();
    assert_eq!(cpu.current.average_utilization, Some(80));
    assert_eq!(cpu.current.average_value.as_deref(), Some("160m"));
    let events = sh(
        &mut c,
        "kubectl get events --field-selector reason=SuccessfulRescale",
        None,
    );
    assert!(
        events.contains(
            "New size: 4; reason: cpu resource utilization (percentage of request) above target"
        ),
        "{events}"
    );
    // Four Pods share the same 320m: 40%, within the target; it stays at 4.
    c.advance(120_000);
    assert_eq!(replicas(&c), 4);
    assert_eq!(
        sh(&mut c, "kubectl get hpa web --no-headers", None)
            .split_whitespace()
            .nth(3),
        Some("40%/50%")
    );
}

#[test]
fn a_ratio_within_ten_percent_of_the_target_changes_nothing() {
    let mut c = busy_cluster();
    // 2 × 200m × 54% = 216m: 108m each, 54% — a ratio of 1.08.
    sh(&mut c, "sim load deployment/web --cpu 54%", None);
    c.advance(60_000);
    assert_eq!(replicas(&c), 2);
    assert_eq!(
        hpa(&c).status.current_metrics[0]
            .resource
            .as_ref()
            .unwrap()
            .current
            .average_utilization,
        Some(54)
    );
}

#[test]
fn a_scale_down_waits_out_the_five_minute_stabilization_window() {
    let mut c = busy_cluster();
    sh(&mut c, "sim load deployment/web --cpu 80%", None);
    c.advance(16_000);
    assert_eq!(replicas(&c), 4);
    let up_at = c.now();
    sh(&mut c, "sim load deployment/web --stop", None);
    // Idle at once, but the highest recommendation of the last 5 minutes is 4.
    c.advance(240_000);
    assert_eq!(replicas(&c), 4);
    let able = hpa(&c)
        .status
        .conditions
        .into_iter()
        .find(|c| c.type_ == "AbleToScale")
        .unwrap();
    assert_eq!(able.reason, "ScaleDownStabilized");
    // Once the window has passed the recommendation of the scale-up, down to minReplicas.
    c.advance(up_at + 330_000 - c.now());
    assert_eq!(replicas(&c), 2);
    let limited = hpa(&c)
        .status
        .conditions
        .into_iter()
        .find(|c| c.type_ == "ScalingLimited")
        .unwrap();
    assert_eq!(
        (limited.status.as_str(), limited.reason.as_str()),
        ("True", "TooFewReplicas")
    );
}

#[test]
fn a_behavior_with_a_short_window_scales_down_sooner_and_at_most_its_policy_rate() {
    let mut c = Cluster::with_default_nodes(3);
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(&WEB.replace("replicas: 2", "replicas: 8")),
    );
    c.advance(360_000);
    sh(
        &mut c,
        "kubectl apply -f -",
        Some("apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 1\n  maxReplicas: 10\n  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}]\n  behavior:\n    scaleDown:\n      stabilizationWindowSeconds: 30\n      policies: [{type: Pods, value: 2, periodSeconds: 60}]\n"),
    );
    // Idle: the recommendation is 1, but 2 Pods per minute at most.
    c.advance(50_000);
    assert_eq!(replicas(&c), 6);
    let limited = hpa(&c)
        .status
        .conditions
        .into_iter()
        .find(|c| c.type_ == "ScalingLimited")
        .unwrap();
    assert_eq!(limited.reason, "ScaleDownLimit");
    c.advance(60_000);
    assert_eq!(replicas(&c), 4);
}

#[test]
fn top_reads_the_same_metrics_the_autoscaler_reads() {
    let mut c = busy_cluster();
    sh(
        &mut c,
        "sim load deployment/web --cpu 300m --memory 100Mi",
        None,
    );
    let top = sh(&mut c, "kubectl top pods", None);
    let lines: Vec<&str> = top.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["NAME", "CPU(cores)", "MEMORY(bytes)"]
    );
    assert_eq!(lines.len(), 3, "{top}");
    for l in &lines[1..] {
        assert_eq!(
            l.split_whitespace().skip(1).collect::<Vec<_>>(),
            ["150m", "100Mi"],
            "{top}"
        );
    }
    let nodes = sh(&mut c, "kubectl top nodes --sort-by=cpu", None);
    assert!(
        nodes.starts_with("NAME     CPU(cores)   CPU(%)   MEMORY(bytes)   MEMORY(%)"),
        "{nodes}"
    );
}

#[test]
fn request_traffic_through_a_service_is_the_cpu_the_autoscaler_scales_on() {
    let mut c = busy_cluster();
    sh(&mut c, "kubectl expose deployment web --port 80", None);
    c.advance(5_000);
    // 170 requests per second at 2 ms of CPU each: 340m shared by two Pods, 170m each
    // (plus their 1m idle), 85% of the 200m request.
    sh(&mut c, "sim traffic service/web --rps 170 --for 30m", None);
    c.advance(31_000);
    let top = sh(&mut c, "kubectl top pods --no-headers", None);
    let cpu: Vec<i64> = top
        .lines()
        .map(|l| {
            let v = l.split_whitespace().nth(1).unwrap();
            v.trim_end_matches('m').parse().unwrap()
        })
        .collect();
    assert_eq!(cpu.len(), 2, "{top}");
    // Each reading is floored to a whole millicore.
    assert!((341..=342).contains(&cpu.iter().sum::<i64>()), "{top}");
    assert!(cpu.iter().all(|m| (130..=210).contains(m)), "{top}");
    // desired = ceil(2 × 85 / 50) = 4.
    c.advance(16_000);
    assert_eq!(replicas(&c), 4);
    let scaled = sh(
        &mut c,
        "kubectl get events --field-selector reason=SuccessfulRescale -o name",
        None,
    );
    assert_eq!(scaled.lines().count(), 1, "{scaled}");
    // Four Pods share it: 43%, within tolerance of nothing higher; it stays at four.
    c.advance(120_000);
    assert_eq!(replicas(&c), 4);
    // The traffic stops: the Pods idle, and five minutes later the autoscaler is back
    // at its minimum.
    sh(&mut c, "sim traffic service/web --stop", None);
    c.advance(4 * 60_000);
    assert_eq!(replicas(&c), 4);
    c.advance(2 * 60_000);
    assert_eq!(replicas(&c), 2);
}

#[test]
fn a_request_costs_the_cpu_time_the_traffic_command_names() {
    let mut c = busy_cluster();
    sh(&mut c, "kubectl expose deployment web --port 80", None);
    c.advance(5_000);
    let out = sh(
        &mut c,
        "sim traffic service/web --rps 10 --cpu-per-request 30ms --for 5m",
        None,
    );
    assert!(
        out.trim_end()
            .ends_with("(timeout 1s, 0 retries, 30ms of CPU per answered request)"),
        "{out:?}"
    );
    c.advance(31_000);
    let top = sh(&mut c, "kubectl top pods --no-headers", None);
    let total: i64 = top
        .lines()
        .map(|l| {
            let v = l.split_whitespace().nth(1).unwrap();
            v.trim_end_matches('m').parse::<i64>().unwrap()
        })
        .sum();
    // 10 × 30 ms per second = 300m, and the two Pods' 1m idle.
    assert_eq!(total, 302, "{top}");
    let bad = run(
        &mut c,
        "sim traffic service/web --rps 10 --cpu-per-request lots",
        None,
        &NoFiles,
    );
    assert!(!bad.ok);
    assert_eq!(
        bad.output.trim_end(),
        "error: --cpu-per-request must be a duration from 0s to 10s (like 2ms), not \"lots\""
    );
}

#[test]
fn kubectl_autoscale_refuses_what_kubectl_refuses() {
    let mut c = busy_cluster();
    for (cmd, want) in [
        (
            "kubectl autoscale deployment web --min=1",
            "error: required flag(s) \"max\" not set",
        ),
        (
            "kubectl autoscale deployment web --max=0",
            "error: --max=MAXPODS is required and must be at least 1, max: 0",
        ),
        (
            "kubectl autoscale deployment web --min=5 --max=3",
            "error: --max=MAXPODS must be larger or equal to --min=MINPODS, max: 3, min: 5",
        ),
    ] {
        let o = run(&mut c, cmd, None, &NoFiles);
        assert!(!o.ok);
        assert_eq!(o.output.trim_end(), want);
    }
}

#[test]
fn an_hpa_and_a_gitops_agent_fight_over_the_replica_count() {
    let mut c = busy_cluster();
    sh(&mut c, "sim gitops on deployment/web --every 30s", None);
    sh(&mut c, "sim load deployment/web --cpu 80%", None);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..12 {
        c.advance(5_000);
        seen.insert(replicas(&c));
    }
    // The autoscaler sets 4, the agent puts its declared 2 back, and again.
    assert!(seen.contains(&2) && seen.contains(&4), "{seen:?}");
    let rescales = sh(
        &mut c,
        "kubectl get events --field-selector reason=SuccessfulRescale -o name",
        None,
    );
    assert!(rescales.lines().count() >= 1);
}

/// When the autoscaler wrote `web`'s scale, and what it wrote, in order.
fn rescales(c: &Cluster) -> Vec<(u64, String)> {
    c.store
        .log
        .iter()
        .filter(|e| e.writer == "horizontal-pod-autoscaler" && e.kind == Kind::Deployment)
        .map(|e| (e.time, e.change.clone()))
        .collect()
}

#[test]
fn an_hpa_is_reconciled_once_per_fifteen_seconds_from_one_period_after_its_creation() {
    let mut c = Cluster::with_default_nodes(3);
    sh(&mut c, "kubectl apply -f -", Some(WEB));
    c.advance(360_000);
    sh(&mut c, "sim load deployment/web --cpu 400%", None);
    c.advance(30_000);
    sh(
        &mut c,
        "kubectl autoscale deployment web --min=1 --max=10 --cpu-percent=50",
        None,
    );
    let created = c
        .store
        .log
        .iter()
        .find(|e| e.kind == Kind::HorizontalPodAutoscaler)
        .unwrap()
        .time;
    // Nothing before one sync period.
    c.advance(14_000);
    assert_eq!(replicas(&c), 2);
    assert!(hpa(&c).status.conditions.is_empty());
    c.advance(2_000);
    // 2 → 4 (the legacy scale-up limit), and not again in the same instant.
    assert_eq!(replicas(&c), 4);
    let r = rescales(&c);
    assert_eq!(r.len(), 1, "{r:?}");
    // One period, and the sync's own request round trips.
    assert!(
        (15_000..16_000).contains(&(r[0].0 - created)),
        "{}",
        r[0].0 - created
    );
    // Its own status writes and the Pods' changes do not pull the next sync forward.
    c.advance(14_000);
    assert_eq!(rescales(&c).len(), 1);
    c.advance(60_000);
    let times: Vec<u64> = rescales(&c).iter().map(|(t, _)| t - created).collect();
    assert!(times.windows(2).all(|w| w[1] - w[0] >= 15_000), "{times:?}");
}

#[test]
fn failed_compute_metrics_replicas_keeps_each_wrapping_layer() {
    let mut c = Cluster::with_default_nodes(3);
    // No requests: utilization cannot be computed.
    sh(
        &mut c,
        "kubectl create deployment web --image=nginx:1.27 --replicas=2",
        None,
    );
    c.advance(120_000);
    sh(
        &mut c,
        "kubectl autoscale deployment web --min=2 --max=10 --cpu-percent=50",
        None,
    );
    c.advance(16_000);
    let warn = |reason: &str| {
        c.store
            .list::<Event>()
            .find(|e| e.reason == reason)
            .map(|e| e.message.clone())
            .unwrap_or_default()
    };
    assert!(
        warn("FailedGetResourceMetric").starts_with(
            "failed to get cpu utilization: missing request for cpu in container nginx of Pod web-"
        ),
        "{}",
        warn("FailedGetResourceMetric")
    );
    assert!(warn("FailedComputeMetricsReplicas").starts_with(
        "invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: missing request for cpu"
    ), "{}", warn("FailedComputeMetricsReplicas"));
    let active = hpa(&c)
        .status
        .conditions
        .into_iter()
        .find(|c| c.type_ == HpaConditionType::ScalingActive)
        .unwrap();
    assert!(active.message.starts_with(
        "the HPA was unable to compute the replica count: failed to get cpu utilization: "
    ));
}

#[test]
fn an_hpa_deleted_while_its_first_sync_waits_leaves_settle_an_exact_count_of_pending_work() {
    let mut c = Cluster::with_default_nodes(3);
    sh(
        &mut c,
        "kubectl create deployment web --image=nginx:1.27 --replicas=3",
        None,
    );
    c.advance(45_000);
    sh(
        &mut c,
        "kubectl autoscale deployment web --min=1 --max=5 --cpu-percent=50",
        None,
    );
    assert!(c.foreground_count_is_exact());
    sh(&mut c, "kubectl delete hpa web", None);
    assert!(c.foreground_count_is_exact());
    assert!(c.settle(1_200_000), "{:?}", c.busy_work(5));
    // An edit of an HPA whose periodic wait is pending makes that wait foreground work.
    sh(
        &mut c,
        "kubectl autoscale deployment web --min=1 --max=5 --cpu-percent=50",
        None,
    );
    c.advance(20_000);
    sh(
        &mut c,
        "kubectl patch hpa web -p '{\"spec\":{\"maxReplicas\":4}}'",
        None,
    );
    assert!(c.foreground_count_is_exact());
    assert!(c.settle(1_200_000), "{:?}", c.busy_work(5));
}
