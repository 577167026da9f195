//! Numbers at their extremes and sizes without end: every integer a user can write is
//! checked as the API server checks it (int32 range when decoding, then validation),
//! the simulation's arithmetic on what passes saturates instead of overflowing, and a
//! cluster-wide Pod limit refuses creates like a ResourceQuota. Tests run in debug,
//! where overflow checks are on: an overflow would panic here.

mod common;

use kubeplay_engine::api::{Kind, ReplicaSet};
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};
use kubeplay_engine::time::SECOND;

const MAX: &str = "9223372036854775807";

/// A Deployment `d` with `spec` lines (2-space indented), pod spec lines (6) and
/// container lines (8) added.
fn deployment(spec: &str, pod: &str, container: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: d}}\nspec:\n  replicas: 2\n{spec}  selector: {{matchLabels: {{app: d}}}}\n  template:\n    metadata: {{labels: {{app: d}}}}\n    spec:\n{pod}      containers:\n      - name: c\n        image: nginx\n{container}"
    )
}

fn apply(c: &mut Cluster, manifest: &str) -> (bool, String) {
    let o = run(c, "kubectl apply -f -", Some(manifest), &NoFiles);
    (o.ok, o.output)
}

#[test]
fn a_pdb_percentage_over_100_is_refused_with_the_api_servers_words() {
    let mut c = common::web_cluster(1);
    for flag in ["min-available", "max-unavailable"] {
        let o = run(
            &mut c,
            &format!("kubectl create pdb p --selector=app=web --{flag}={MAX}%"),
            None,
            &NoFiles,
        );
        let field = if flag == "min-available" {
            "minAvailable"
        } else {
            "maxUnavailable"
        };
        assert!(!o.ok);
        assert_eq!(
            o.output.trim_end(),
            // create_pdb.go wraps the server's 422: `failed to create poddisruptionbudgets: …`.
            format!("error: failed to create poddisruptionbudgets: PodDisruptionBudget.policy \"p\" is invalid: spec.{field}: Invalid value: intstr.IntOrString{{Type:1, IntVal:0, StrVal:\"{MAX}%\"}}: must not be greater than 100%")
        );
    }
    let o = run(
        &mut c,
        "kubectl create pdb p --selector=app=web --min-available=200%",
        None,
        &NoFiles,
    );
    assert!(
        o.output.contains("must not be greater than 100%"),
        "{}",
        o.output
    );
    // 100% itself is fine, and nothing was stored before.
    let o = run(
        &mut c,
        "kubectl create pdb p --selector=app=web --min-available=100%",
        None,
        &NoFiles,
    );
    assert!(o.ok, "{}", o.output);
}

#[test]
fn a_pdb_number_beyond_int32_or_below_zero_is_refused_as_upstream_refuses_it() {
    let mut c = common::web_cluster(1);
    // kubectl's intstr.Parse keeps a number beyond int32 as a string: not a percentage.
    let o = run(
        &mut c,
        "kubectl create pdb p --selector=app=web --min-available=3000000000",
        None,
        &NoFiles,
    );
    assert!(
        o.output.contains("spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"3000000000\"}: a valid percent string must be"),
        "{}",
        o.output
    );
    let o = run(
        &mut c,
        "kubectl create pdb p --selector=app=web --max-unavailable=-1",
        None,
        &NoFiles,
    );
    assert_eq!(
        o.output.trim_end(),
        "error: failed to create poddisruptionbudgets: PodDisruptionBudget.policy \"p\" is invalid: spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0"
    );
    // Written in a manifest, an int beyond int32 fails to decode.
    let (ok, out) = apply(
        &mut c,
        &format!("apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {{name: p}}\nspec:\n  minAvailable: {MAX}\n  selector: {{matchLabels: {{app: web}}}}\n"),
    );
    assert!(!ok);
    assert!(out.contains(&format!("PodDisruptionBudget in version \"v1\" cannot be handled as a PodDisruptionBudget: json: cannot unmarshal number {MAX} into Go struct field PodDisruptionBudgetSpec.spec.minAvailable of type int32")), "{out}");
    assert_eq!(c.store.count(Kind::PodDisruptionBudget), 0);
}

#[test]
fn a_number_too_big_for_an_int32_field_fails_to_decode_in_the_api_servers_words() {
    let mut c = Cluster::with_default_nodes(1);
    let (ok, out) = apply(
        &mut c,
        &deployment("", "", "").replace("replicas: 2", &format!("replicas: {MAX}")),
    );
    assert!(!ok);
    assert_eq!(
        out.trim_end(),
        format!("Error from server (BadRequest): error when creating \"STDIN\": Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal number {MAX} into Go struct field DeploymentSpec.spec.replicas of type int32")
    );
    // One more than int32's largest is already too big; the largest itself decodes.
    let (ok, out) = apply(
        &mut c,
        &deployment("  minReadySeconds: 2147483648\n", "", ""),
    );
    assert!(
        !ok && out.contains("DeploymentSpec.spec.minReadySeconds of type int32"),
        "{out}"
    );
    let (ok, out) = apply(
        &mut c,
        &deployment(
            "  minReadySeconds: 2147483646\n  progressDeadlineSeconds: 2147483647\n",
            "",
            "",
        ),
    );
    assert!(ok, "{out}");
    // kubectl scale sends the number; the server refuses it the same way.
    let o = run(
        &mut c,
        &format!("kubectl scale deployment d --replicas={MAX}"),
        None,
        &NoFiles,
    );
    assert!(
        o.output
            .contains("DeploymentSpec.spec.replicas of type int32"),
        "{}",
        o.output
    );
}

#[test]
fn kubectl_refuses_a_flag_value_its_own_flag_type_cannot_hold() {
    let mut c = common::web_cluster(1);
    let o = run(
        &mut c,
        "kubectl create deployment x --image=nginx --replicas=3000000000",
        None,
        &NoFiles,
    );
    assert_eq!(
        o.output.trim_end(),
        "error: invalid argument \"3000000000\" for \"-r, --replicas\" flag: strconv.ParseInt: parsing \"3000000000\": value out of range\nSee 'kubectl create deployment --help' for usage."
    );
    let o = run(
        &mut c,
        "kubectl scale deployment web --replicas=99999999999999999999",
        None,
        &NoFiles,
    );
    assert!(o.output.contains("for \"--replicas\" flag: strconv.ParseInt: parsing \"99999999999999999999\": value out of range"), "{}", o.output);
    let o = run(
        &mut c,
        "kubectl delete pod x --grace-period=99999999999999999999",
        None,
        &NoFiles,
    );
    assert!(o.output.contains("value out of range"), "{}", o.output);
    let o = run(
        &mut c,
        "kubectl create priorityclass p --value=3000000000",
        None,
        &NoFiles,
    );
    assert!(
        o.output.contains(
            "for \"--value\" flag: strconv.ParseInt: parsing \"3000000000\": value out of range"
        ),
        "{}",
        o.output
    );
}

#[test]
fn negative_counts_and_durations_are_refused_where_the_api_server_refuses_them() {
    let mut c = Cluster::with_default_nodes(1);
    let (ok, out) = apply(
        &mut c,
        &deployment(
            "  minReadySeconds: -1\n  revisionHistoryLimit: -2\n",
            "",
            "        ports: [{containerPort: 0}]\n        readinessProbe: {httpGet: {port: 80}, periodSeconds: -3, failureThreshold: -4}\n",
        ),
    );
    assert!(!ok);
    for cause in [
        "spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0",
        "spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0",
        "spec.template.spec.containers[0].readinessProbe.periodSeconds: Invalid value: -3: must be greater than or equal to 0",
        "spec.template.spec.containers[0].readinessProbe.failureThreshold: Invalid value: -4: must be greater than or equal to 0",
        "spec.template.spec.containers[0].ports[0].containerPort: Required value",
    ] {
        assert!(out.contains(cause), "{cause} missing from {out}");
    }
    let (ok, out) = apply(&mut c, &deployment("  minReadySeconds: 700\n", "", ""));
    assert!(!ok);
    assert!(out.contains("spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds"), "{out}");
}

/// Every integer field a user can write, at i64's largest: the create comes back as an
/// error, or the cluster runs on (rollout, node loss, deletion) without an overflow.
#[test]
fn every_user_written_number_at_its_largest_is_refused_or_simulated_never_a_panic() {
    let probe = |field: &str| {
        format!("        readinessProbe: {{httpGet: {{port: 80}}, {field}: {MAX}}}\n        livenessProbe: {{tcpSocket: {{port: 80}}, {field}: {MAX}}}\n")
    };
    let mut cases: Vec<(String, String)> = vec![
        ("replicas".into(), deployment("", "", "").replace("replicas: 2", &format!("replicas: {MAX}"))),
        ("minReadySeconds".into(), deployment(&format!("  minReadySeconds: {MAX}\n"), "", "")),
        ("revisionHistoryLimit".into(), deployment(&format!("  revisionHistoryLimit: {MAX}\n"), "", "")),
        ("progressDeadlineSeconds".into(), deployment(&format!("  progressDeadlineSeconds: {MAX}\n"), "", "")),
        ("maxSurge int".into(), deployment(&format!("  strategy: {{rollingUpdate: {{maxSurge: {MAX}}}}}\n"), "", "")),
        ("maxUnavailable int".into(), deployment(&format!("  strategy: {{rollingUpdate: {{maxUnavailable: {MAX}}}}}\n"), "", "")),
        ("maxSurge percent".into(), deployment(&format!("  strategy: {{rollingUpdate: {{maxSurge: '{MAX}%'}}}}\n"), "", "")),
        ("maxUnavailable percent".into(), deployment(&format!("  strategy: {{rollingUpdate: {{maxUnavailable: '{MAX}%'}}}}\n"), "", "")),
        ("terminationGracePeriodSeconds".into(), deployment("", &format!("      terminationGracePeriodSeconds: {MAX}\n"), "")),
        ("tolerationSeconds".into(), deployment("", &format!("      tolerations: [{{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: {MAX}}}]\n"), "")),
        ("activeDeadlineSeconds".into(), deployment("", &format!("      activeDeadlineSeconds: {MAX}\n"), "")),
        ("priority".into(), deployment("", &format!("      priority: {MAX}\n"), "")),
        ("maxSkew".into(), deployment("", &format!("      topologySpreadConstraints: [{{maxSkew: {MAX}, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}}]\n"), "")),
        ("weight".into(), deployment("", &format!("      affinity: {{nodeAffinity: {{preferredDuringSchedulingIgnoredDuringExecution: [{{weight: {MAX}, preference: {{matchExpressions: [{{key: a, operator: Exists}}]}}}}]}}}}\n"), "")),
        ("containerPort".into(), deployment("", "", &format!("        ports: [{{containerPort: {MAX}}}]\n"))),
        ("hostPort".into(), deployment("", "", &format!("        ports: [{{containerPort: 80, hostPort: {MAX}}}]\n"))),
        ("probe port".into(), deployment("", "", &format!("        readinessProbe: {{httpGet: {{port: {MAX}}}}}\n"))),
        ("cpu".into(), deployment("", "", &format!("        resources: {{requests: {{cpu: '{MAX}'}}}}\n"))),
        ("memory".into(), deployment("", "", &format!("        resources: {{requests: {{memory: '{MAX}Ei'}}}}\n"))),
        ("rs minReadySeconds".into(), format!("apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {{name: r}}\nspec:\n  replicas: 1\n  minReadySeconds: {MAX}\n  selector: {{matchLabels: {{app: r}}}}\n  template:\n    metadata: {{labels: {{app: r}}}}\n    spec:\n      containers: [{{name: c, image: i}}]\n")),
        ("priority class".into(), format!("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {{name: p}}\nvalue: {MAX}\n")),
    ];
    for f in [
        "initialDelaySeconds",
        "periodSeconds",
        "timeoutSeconds",
        "failureThreshold",
        "successThreshold",
    ] {
        cases.push((f.into(), deployment("", "", &probe(f))));
    }
    // The same fields just inside their range must be simulated without overflow.
    let mut inside: Vec<(String, String)> = cases
        .iter()
        .map(|(n, m)| (format!("{n} (int32 max)"), m.replace(MAX, "2147483647")))
        .collect();
    inside.retain(|(n, _)| !n.starts_with("replicas") && !n.starts_with("priority"));
    for (name, manifest) in cases.iter().chain(&inside) {
        let mut c = common::web_cluster(1);
        c.store.pod_limit_floor = Some(50);
        let (ok, out) = apply(&mut c, manifest);
        if ok {
            for line in [
                "sim advance 1m",
                "kubectl set image deployment/d c=nginx:2",
                "sim advance 11m",
                "sim node down node-1",
                "sim advance 20m",
                "kubectl create pdb b --selector=app=d --max-unavailable=50%",
                "kubectl delete deployment d --grace-period=9223372036854775807",
                "sim advance 5m",
                "kubectl get pods,deployments,replicasets,pdb",
                "kubectl describe pods",
            ] {
                let _ = run(&mut c, line, None, &NoFiles);
            }
        } else {
            assert!(
                out.starts_with("Error from server") || out.starts_with("The "),
                "{name}: {out}"
            );
        }
    }
}

#[test]
fn a_grace_period_of_int64s_largest_saturates_to_never_instead_of_wrapping() {
    let mut c = common::web_cluster(1);
    let o = run(
        &mut c,
        &format!("kubectl delete pod -l app=web --grace-period={MAX} --wait=false"),
        None,
        &NoFiles,
    );
    assert!(o.ok, "{}", o.output);
    // Before, now + grace × 1000 overflowed; in release it wrapped into the past.
    c.advance(60 * SECOND);
    let o = run(&mut c, "kubectl get pods -o yaml", None, &NoFiles);
    assert!(o.ok);
    assert!(
        !o.output.contains("deletionTimestamp: \"2024"),
        "{}",
        o.output
    );
}

#[test]
fn scaling_to_a_million_stops_at_the_pod_limit_with_failed_create_and_backs_off() {
    let mut c = Cluster::new(1);
    c.store.pod_limit_floor = Some(50);
    let o = run(
        &mut c,
        "kubectl create deployment web --image=nginx --replicas=1000000",
        None,
        &NoFiles,
    );
    assert!(o.ok, "{}", o.output);
    c.advance(30 * SECOND);
    assert_eq!(c.store.count(Kind::Pod), 50);
    // The ReplicaSet controller retries through its rate limiter (5 ms doubling to
    // 1,000 s), not every tick: ten simulated minutes bring a handful of refused
    // creates, not thousands. (The scheduler's retries of the 50 Pending Pods are its
    // own, as upstream.)
    let t0 = c.now();
    c.advance(600 * SECOND);
    let refused = c
        .failed
        .iter()
        .filter(|f| f.time > t0 && f.writer == "replicaset-controller")
        .count();
    assert!(
        (1..=12).contains(&refused),
        "{refused} refused creates in 10 minutes at the limit"
    );
    // Its FailedCreate events (the first ones fall to the Event spam filter, whose 25
    // tokens the 50 SuccessfulCreate spent; it refills one per 5 minutes).
    let failed: Vec<_> = c
        .events()
        .into_iter()
        .filter(|e| e.reason == "FailedCreate")
        .map(|e| e.message.clone())
        .collect();
    let msg = failed.first().expect("a FailedCreate event");
    assert!(
        msg.starts_with("Error creating: pods \"web-")
            && msg.ends_with("\" is forbidden: exceeded quota: kubeplay-pod-limit, requested: pods=1, used: pods=50, limited: pods=50"),
        "{msg}"
    );
    let rs = c.store.list::<ReplicaSet>().next().unwrap();
    assert_eq!(rs.spec.replicas, 1_000_000);
    // Below the limit again (scaled down), creates succeed.
    let o = run(
        &mut c,
        "kubectl scale deployment web --replicas=10",
        None,
        &NoFiles,
    );
    assert!(o.ok, "{}", o.output);
    c.advance(60 * SECOND);
    let key = ObjKey::new("default", "web");
    assert!(c
        .store
        .get::<kubeplay_engine::api::Deployment>(&key)
        .is_some());
    assert_eq!(c.store.count(Kind::Pod), 10);
}

#[test]
fn one_command_plays_at_most_a_day_of_simulated_time_and_says_so_past_it() {
    let mut c = Cluster::with_default_nodes(1);
    for line in [
        "sim advance 999999h",
        "sim advance 25h",
        "sim settle --max 1000h",
        "kubectl wait --for=delete pod/x --timeout=1000h",
        "kubectl rollout status deployment/web --timeout=48h",
    ] {
        let rv = c.store.revision();
        let now = c.now();
        let o = run(&mut c, line, None, &NoFiles);
        assert!(!o.ok, "{line}: {}", o.output);
        assert!(
            o.output.contains("one command may play"),
            "{line}: {}",
            o.output
        );
        assert_eq!(
            (c.now(), c.store.revision()),
            (now, rv),
            "{line}: nothing played"
        );
    }
    // A day is allowed, and costs its periodic work only.
    let o = run(&mut c, "sim advance 24h", None, &NoFiles);
    assert!(o.ok, "{}", o.output);
    assert_eq!(c.now(), 24 * 3600 * SECOND);
    let o = run(&mut c, "sim settle --max 24h", None, &NoFiles);
    assert!(o.ok, "{}", o.output);
}

#[test]
fn a_scenario_step_waiting_longer_than_a_day_is_refused_when_loaded() {
    let good = include_str!("../scenarios/01-gateway-delete-pod.yaml");
    assert!(kubeplay_engine::scenario::parse(good, "s.yaml").is_ok());
    let yaml = good.replacen("    wait: 400ms\n", "    wait: 25h\n", 1);
    assert_ne!(yaml, good, "the step is there");
    let yaml = yaml.as_str();
    let err = kubeplay_engine::scenario::parse(yaml, "s.yaml")
        .err()
        .unwrap_or_default();
    assert!(
        err.contains("steps[1].wait: 25h is longer than the 24h"),
        "{err}"
    );
}

#[test]
fn a_node_with_exabytes_of_memory_takes_a_deployment_without_an_overflow() {
    // The fuzzer's finding: LeastAllocated's (allocatable − requested) × 100
    // overflowed i64 for a node declaring ~10¹⁷ bytes.
    let mut c = Cluster::with_default_nodes(1);
    for cmd in [
        // Two nodes: with one, the scheduler binds without scoring.
        "sim reset --nodes 2 --memory 103106883778897823",
        "kubectl create deployment d --image=nginx --replicas=2",
        "sim settle",
    ] {
        let o = run(&mut c, cmd, None, &NoFiles);
        assert!(o.ok, "{cmd}: {}", o.output);
    }
    let o = run(&mut c, "kubectl get pods --no-headers", None, &NoFiles);
    assert_eq!(o.output.matches("Running").count(), 2, "{}", o.output);
    // describe's percentages of such a node do not overflow either.
    let o = run(&mut c, "kubectl describe nodes", None, &NoFiles);
    assert!(o.ok, "{}", o.output);
}

#[test]
fn a_cpu_request_at_the_int64_limit_is_accepted_as_a_quantity_and_fits_no_node() {
    // Upstream's resource.Quantity parses 9223372036854775807 (its milli-value is
    // past int64: saturated here); kubeplay refused it as a malformed quantity.
    let mut c = Cluster::with_default_nodes(1);
    let manifest = deployment(
        "",
        "",
        &format!("        resources: {{requests: {{cpu: \"{MAX}\", memory: \"{MAX}\"}}, limits: {{cpu: \"{MAX}\", memory: \"8Ei\"}}}}\n"),
    );
    let (ok, out) = apply(&mut c, &manifest);
    assert!(ok, "{out}");
    c.settle(60 * SECOND);
    let o = run(&mut c, "kubectl get pods --no-headers", None, &NoFiles);
    assert_eq!(o.output.matches("Pending").count(), 2, "{}", o.output);
    let o = run(&mut c, "kubectl describe pods", None, &NoFiles);
    assert!(o.output.contains("Insufficient cpu"), "{}", o.output);
    // Still refused: what is not a quantity at all.
    let bad = deployment("", "", "        resources: {requests: {cpu: 1x}}\n");
    let (ok, out) = apply(&mut c, &bad);
    assert!(!ok && out.contains("quantities must match"), "{out}");
}

/// `kubectl` and a manifest both, refused with the API server's words and nothing
/// stored.
fn refused(c: &mut Cluster, line: &str, stdin: Option<&str>) -> String {
    let rev = c.store.revision();
    let o = run(c, line, stdin, &NoFiles);
    assert!(!o.ok, "{line}: {}", o.output);
    assert_eq!(c.store.revision(), rev, "{line} wrote nothing");
    o.output.trim_end().to_string()
}

#[test]
fn a_negative_or_fractional_quota_is_refused_as_validate_resource_quantity_value_refuses_it() {
    let mut c = Cluster::with_default_nodes(1);
    assert_eq!(
        refused(&mut c, "kubectl create quota x --hard=cpu=-1", None),
        "error: failed to create quota: ResourceQuota \"x\" is invalid: spec.hard[cpu]: Invalid value: \"-1\": must be greater than or equal to 0"
    );
    let manifest = "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec:\n  hard: {pods: '1.5', requests.memory: '-1Gi', limits.cpu: '-0.5', requests.nvidia.com/gpu: 500m}\n";
    assert_eq!(
        refused(&mut c, "kubectl apply -f -", Some(manifest)),
        "The ResourceQuota \"q\" is invalid: \n* spec.hard[limits.cpu]: Invalid value: \"-500m\": must be greater than or equal to 0\n* spec.hard[pods]: Invalid value: resource.Quantity{i:resource.int64Amount{value:15, scale:-1}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:\"\", Format:\"DecimalSI\"}: must be an integer\n* spec.hard[requests.memory]: Invalid value: \"-1Gi\": must be greater than or equal to 0"
    );
    // A hard limit that is no quantity fails to decode.
    let o = refused(
        &mut c,
        "kubectl apply -f -",
        Some("apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec:\n  hard: {cpu: lots}\n"),
    );
    assert!(
        o.ends_with("ResourceQuota in version \"v1\" cannot be handled as a ResourceQuota: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
        "{o}"
    );
    // Zero is a limit (nothing allowed), and -0 is zero.
    common::sh(&mut c, "kubectl create quota z --hard=cpu=0,pods=-0");
}

#[test]
fn a_limit_range_whose_default_request_exceeds_its_default_limit_is_refused() {
    let mut c = Cluster::with_default_nodes(1);
    let manifest = "apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr}\nspec:\n  limits:\n  - type: Container\n    default: {cpu: 100m}\n    defaultRequest: {cpu: 200m}\n";
    assert_eq!(
        refused(&mut c, "kubectl apply -f -", Some(manifest)),
        "The LimitRange \"lr\" is invalid: spec.limits[0].defaultRequest[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:200, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:\"200m\", Format:\"DecimalSI\"}: default request value 200m is greater than default limit value 100m"
    );
}

#[test]
fn a_cron_job_name_longer_than_52_characters_is_refused_on_create() {
    let mut c = Cluster::with_default_nodes(1);
    let long = "a".repeat(53);
    assert_eq!(
        refused(
            &mut c,
            &format!("kubectl create cronjob {long} --image=busybox --schedule='* * * * *'"),
            None
        ),
        format!("error: failed to create cronjob: CronJob.batch \"{long}\" is invalid: metadata.name: Invalid value: \"{long}\": must be no more than 52 characters")
    );
    // 52 is the most: its Jobs' names (`-` and 10 digits more) fit in 63.
    common::sh(
        &mut c,
        &format!(
            "kubectl create cronjob {} --image=busybox --schedule='* * * * *'",
            "a".repeat(52)
        ),
    );
}
