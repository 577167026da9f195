//! Nothing a user types or pastes may panic the engine: a corpus of malformed commands
//! and manifests, plus a few thousand seeded random command lines, all come back as
//! text, and a failed command leaves the cluster as it was.

mod common;

use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};
use kubeplay_engine::rng::Rng;

const CORPUS: &[&str] = &[
    "",
    " ",
    "kubectl",
    "kubectl get",
    "kubectl get -o",
    "kubectl get pods -o jsonpath={",
    "kubectl get pods -o jsonpath='{.a[?(@.x==)]}'",
    "kubectl get pods -l '!'",
    "kubectl get pods -l 'a in ('",
    "kubectl get pods --field-selector =",
    "kubectl get pods --sort-by='{.a['",
    "kubectl get /",
    "kubectl get pods/",
    "kubectl get /x",
    "kubectl describe",
    "kubectl describe pods/",
    "kubectl delete",
    "kubectl delete --all",
    "kubectl delete pods --grace-period=abc x",
    "kubectl delete pod x --cascade=sideways",
    "kubectl scale",
    "kubectl scale deploy/x --replicas=-1",
    "kubectl scale deploy/x --replicas=1e9",
    "kubectl set",
    "kubectl set image",
    "kubectl set image deploy/x",
    "kubectl rollout",
    "kubectl rollout status",
    "kubectl rollout undo deploy/x --to-revision=-3",
    "kubectl rollout history deploy/x --revision=zz",
    "kubectl cordon",
    "kubectl drain",
    "kubectl drain node-1 --grace-period=x --timeout=never",
    "kubectl taint",
    "kubectl taint nodes",
    "kubectl taint nodes node-1 :",
    "kubectl taint nodes node-1 =:NoSchedule",
    "kubectl taint nodes node-1 k=v:Sometimes",
    "kubectl label",
    "kubectl label pods",
    "kubectl label pods x -",
    "kubectl annotate node/node-1 =",
    "kubectl patch",
    "kubectl patch node node-1 -p",
    "kubectl patch node node-1 -p '{'",
    "kubectl patch node node-1 -p '[]'",
    "kubectl patch node node-1 -p '{\"spec\":{\"unschedulable\":\"yes\"}}'",
    "kubectl patch node node-1 --type=json -p '[]'",
    "kubectl wait",
    "kubectl wait --for=",
    "kubectl wait pod/x --for=condition=Ready --timeout=-5s",
    "kubectl apply",
    "kubectl apply -f",
    "kubectl apply -f -",
    "kubectl create -f nowhere.yaml",
    "kubectl create deployment",
    "kubectl create deployment X --image=i",
    "kubectl create deployment x --image=i --replicas=many",
    "kubectl create deployment x --image=i --port=http",
    "kubectl get pods \"",
    "kubectl get pods '",
    "kubectl get pods \\",
    "sim",
    "sim advance",
    "sim advance -5s",
    "sim advance 1e99h",
    "sim advance 99999999999999999999s",
    "sim settle --max",
    "sim reset --nodes 99999999",
    "sim reset --nodes -1",
    "sim reset --cpu lots",
    "sim seed",
    "sim seed x",
    "sim node",
    "sim node add",
    "sim node add Bad_Name",
    "sim node add n --taints x",
    "sim node add n --labels x",
    "sim node down ghost",
    "sim node up node-1",
    "sim node remove ghost",
    "sim expect",
    "sim expect a b c",
    "sim expect pod/x {.a} ~= 1",
    "sim expect count widgets == 1",
    "sim expect count pods -l '(' == 1",
    "sim expect node/node-1 {.x[} == 1",
    "sim expect node/node-1 {.status} >= abc",
    "sim log --tail x",
    "😀",
    "kubectl get pods -o jsonpath='{range .items[*]}'",
    "kubectl get pods -o jsonpath='{end}'",
];

const MANIFESTS: &[&str] = &[
    "", "---", "--- \n---\n", "[", "{", "a: [", "apiVersion: v1", "kind: Pod", "apiVersion: v1\nkind: Pod", "apiVersion: v1\nkind: Pod\nmetadata: 3",
    "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: 5}", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: -1}",
    "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  strategy: {rollingUpdate: {maxSurge: '200%'}}", "apiVersion: v2\nkind: Pod\nmetadata: {name: p}",
    "\u{0}\u{1}binary", "apiVersion: v1\nkind: Node\nmetadata: {name: UPPER}", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - {name: c, image: i, resources: {requests: {cpu: lots}}}",
    "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: r}\nspec: {selector: {matchExpressions: [{key: a, operator: Near}]}}", "&a [*a]",
    "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  topologySpreadConstraints: [{maxSkew: 0, topologyKey: '', whenUnsatisfiable: Maybe}]\n  containers: [{name: c, image: i}]",
    "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  affinity: {podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 9223372036854775807, podAffinityTerm: {topologyKey: k}}]}}\n  containers: [{name: c, image: i}]",
    "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {a: b}}}]}}\n  containers: [{name: c, image: i}]",
    "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  priorityClassName: nope\n  containers: [{name: c, image: i}]",
    "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: huge}\nvalue: 9000000000",
    "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-mine}\nvalue: 5",
    "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: deep}\nvalue: -9000000000000000000",
];

#[test]
fn malformed_commands_come_back_as_errors_and_change_nothing() {
    let mut c = Cluster::with_default_nodes(1);
    c.create_deployment("x", "nginx", 2, "100m", "").unwrap();
    c.settle(60_000);
    for line in CORPUS {
        let before = (
            c.store.revision(),
            c.store.count(kubeplay_engine::api::Kind::Pod),
        );
        let o = run(&mut c, line, None, &NoFiles);
        if !o.ok
            && !line.starts_with("sim")
            && !line.contains("delete")
            && !line.contains("wait")
            && !line.contains("drain")
        {
            // A refused kubectl command writes nothing (time may pass for blocking ones).
            assert_eq!(
                before.0,
                c.store.revision(),
                "{line:?} wrote despite failing: {}",
                o.output
            );
        }
        if !line.trim().is_empty() && !o.ok {
            assert!(!o.output.trim().is_empty(), "{line:?} failed silently");
        }
    }
}

#[test]
fn malformed_manifests_are_rejected_whole_with_a_message() {
    for m in MANIFESTS {
        let mut c = Cluster::with_default_nodes(1);
        let rev = c.store.revision();
        let o = run(&mut c, "kubectl apply -f -", Some(m), &NoFiles);
        assert!(!o.ok, "{m:?} was accepted: {}", o.output);
        assert!(
            o.output.starts_with("error")
                || o.output.starts_with("The ")
                || o.output.starts_with("Error from server"),
            "{m:?}: {}",
            o.output
        );
        assert_eq!(rev, c.store.revision(), "{m:?} changed the cluster");
    }
}

#[test]
fn thousands_of_random_command_lines_never_panic() {
    let words = [
        "kubectl",
        "sim",
        "get",
        "describe",
        "delete",
        "scale",
        "apply",
        "create",
        "rollout",
        "status",
        "undo",
        "cordon",
        "drain",
        "taint",
        "label",
        "patch",
        "wait",
        "pods",
        "deploy",
        "rs",
        "nodes",
        "events",
        "node-1",
        "x",
        "-o",
        "yaml",
        "json",
        "wide",
        "name",
        "jsonpath={.items[0]}",
        "-l",
        "app=x",
        "-A",
        "--replicas=2",
        "--replicas",
        "3",
        "--for=delete",
        "--timeout=1s",
        "-f",
        "-",
        "--all",
        "advance",
        "1s",
        "node",
        "down",
        "up",
        "add",
        "expect",
        "==",
        "count",
        "{.a}",
        "'",
        "\"",
        "--",
        "--force",
        "--grace-period=0",
        "deployment/x",
        "pod/",
        "=",
        ":NoSchedule",
        "k=v:NoExecute",
        "-p",
        "{}",
        "settle",
    ];
    let mut rng = Rng::new(42);
    let mut c = Cluster::with_default_nodes(1);
    c.create_deployment("x", "nginx", 2, "100m", "").unwrap();
    for _ in 0..3000 {
        let n = 1 + rng.below(6) as usize;
        let line: Vec<&str> = (0..n)
            .map(|_| words[rng.below(words.len() as u64) as usize])
            .collect();
        let _ = run(&mut c, &line.join(" "), Some("apiVersion: v1\nkind: Pod\nmetadata: {name: r}\nspec: {containers: [{name: c, image: i}]}\n"), &NoFiles);
    }
    // Still a working cluster afterwards.
    assert!(run(&mut c, "kubectl get nodes", None, &NoFiles).ok);
}

#[test]
fn a_jsonpath_index_at_the_int64_limit_is_out_of_bounds_and_a_negative_step_is_refused() {
    let mut c = common::web_cluster(1);
    let pod = c
        .store
        .list::<kubeplay_engine::api::Pod>()
        .next()
        .map(|p| p.metadata.name.clone())
        .expect("web has Pods");
    // The fuzzer's finding: `[i]` derives its end as i + 1, which overflowed.
    let o = run(
        &mut c,
        &format!("sim expect po/{pod} 'spec.containers[9223372036854775807]' \"\" ''"),
        None,
        &NoFiles,
    );
    assert!(!o.ok, "{}", o.output);
    for (template, want) in [
        (
            "{.items[9223372036854775807]}",
            "array index out of bounds: index 9223372036854775807, length 3",
        ),
        (
            "{.items[-9223372036854775808]}",
            "array index out of bounds: index -9223372036854775805, length 3",
        ),
        (
            "{.items[9223372036854775807:]}",
            "array index out of bounds: index 9223372036854775807, length 3",
        ),
        ("{.items[0:3:-1]}", "step must be > 0"),
        ("{.items[::0]}", "step must be > 0"),
        (
            "{.items[99999999999999999999]}",
            "array index 99999999999999999999 is not a number",
        ),
        ("{.items[1:2:3:4]}", "invalid array index 1:2:3:4"),
    ] {
        let o = run(
            &mut c,
            &format!("kubectl get pods -o jsonpath='{template}'"),
            None,
            &NoFiles,
        );
        assert!(!o.ok, "{template}: {}", o.output);
        assert!(o.output.contains(want), "{template}: {}", o.output);
    }
    // A step past the length takes the first element; a huge end is out of bounds.
    let o = run(
        &mut c,
        "kubectl get pods -o jsonpath={.items[0:3:9223372036854775807].kind}",
        None,
        &NoFiles,
    );
    assert_eq!((o.ok, o.output.trim_end()), (true, "Pod"), "{}", o.output);
    let o = run(
        &mut c,
        "kubectl get pods -o jsonpath={.items[0:9223372036854775807]}",
        None,
        &NoFiles,
    );
    assert!(
        o.output.contains("index 9223372036854775806, length 3"),
        "{}",
        o.output
    );
}

#[test]
fn deeply_nested_flow_yaml_is_refused_at_once_with_its_line_and_column() {
    // 64 KiB of `{a: ` took the YAML parser 9–10 s (its time is quadratic in the
    // nesting); the depth is now checked first: the error names the column where the
    // depth bound was crossed, which the parser never reaches (its time is the
    // benchmark's, not this test's).
    let deep = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {}",
        "{a: ".repeat(16_384)
    );
    let mut c = Cluster::with_default_nodes(1);
    let o = run(&mut c, "kubectl apply -f -", Some(&deep), &NoFiles);
    assert!(!o.ok);
    assert_eq!(
        o.output.trim_end(),
        "error: error parsing STDIN: exceeded max depth of 1000 at line 3 column 4011"
    );
    let err = kubeplay_engine::scenario::parse(&deep, "deep.yaml").unwrap_err();
    assert_eq!(
        err,
        "error: deep.yaml at line 3 column 4011: exceeded max depth of 1000"
    );
    let o = run(
        &mut c,
        &format!("kubectl patch node node-1 -p '{}'", "[".repeat(5_000)),
        None,
        &NoFiles,
    );
    assert!(
        o.output
            .contains("exceeded max depth of 1000 at line 1 column 1001"),
        "{}",
        o.output
    );
    // At the bound it is the parser's answer, as before (its own limit is 128).
    let at = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {}{}",
        "[".repeat(1_000),
        "]".repeat(1_000)
    );
    let o = run(&mut c, "kubectl apply -f -", Some(&at), &NoFiles);
    assert!(
        o.output.contains("recursion limit exceeded"),
        "{}",
        o.output
    );
}

#[test]
fn a_namespace_flag_without_its_value_and_without_a_verb_is_an_error_not_a_panic() {
    // The fuzzer's finding: `kubectl -n` sliced past the end of its words.
    let mut c = Cluster::with_default_nodes(1);
    for line in [
        "kubectl -n",
        "kubectl --namespace",
        "kubectl -n x --namespace",
    ] {
        let o = run(&mut c, line, None, &NoFiles);
        assert!(!o.ok, "{line}: {}", o.output);
        assert!(o.output.starts_with("error: "), "{line}: {}", o.output);
    }
}

/// A document whose one long string is anchored once and aliased many times: small as
/// text, gigabytes once the parser replays every alias.
fn alias_bomb(scalar: usize, aliases: usize) -> String {
    let mut y = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\n  labels: {{a: &x \"{}\"}}\ndata:\n  list: |\n    x\nextra:\n",
        "y".repeat(scalar)
    );
    for _ in 0..aliases {
        y.push_str("- *x\n");
    }
    y
}

#[test]
fn a_long_string_aliased_many_times_is_refused_before_it_is_expanded() {
    // Within the 20,000 characters of a command, link or record: 10,000 characters
    // aliased 1,800 times would be 18 MB of strings.
    let yaml = alias_bomb(10_000, 1_800);
    assert!(yaml.len() < 20_000);
    let mut c = Cluster::with_default_nodes(1);
    let rv = c.store.revision();
    let o = run(&mut c, "kubectl apply -f -", Some(&yaml), &NoFiles);
    assert!(!o.ok);
    assert_eq!(
        o.output.trim_end(),
        "error: error parsing STDIN: yaml: document contains excessive aliasing"
    );
    assert_eq!(c.store.revision(), rv);
    // The same bound for a scenario file, a patch and an import.
    let scenario = format!(
        "id: bomb\ntitle: x\nsteps:\n  - text: &x \"{}\"\n    command: sim time\n{}",
        "y".repeat(10_000),
        "  - text: *x\n    command: sim time\n".repeat(1_800)
    );
    let err = kubeplay_engine::scenario::parse(&scenario, "bomb.yaml").unwrap_err();
    assert_eq!(
        err,
        "error: bomb.yaml: yaml: document contains excessive aliasing"
    );
    let patch = format!(
        "{{metadata: {{annotations: {{a: &x \"{}\", b: [{}]}}}}}}",
        "y".repeat(5_000),
        vec!["*x"; 2_000].join(",")
    );
    let o = run(
        &mut c,
        &format!("kubectl patch node node-1 -p '{patch}'"),
        None,
        &NoFiles,
    );
    assert!(
        o.output
            .contains("yaml: document contains excessive aliasing"),
        "{}",
        o.output
    );
    assert_eq!(c.store.revision(), rv);
}

#[test]
fn aliases_that_stay_small_still_parse() {
    // Anchors are ordinary YAML: a few small ones expand well within the bound.
    let yaml = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n  labels: {a: &x v}\ndata: {b: *x, c: *x}\n";
    let mut c = Cluster::with_default_nodes(1);
    let o = run(&mut c, "kubectl apply -f -", Some(yaml), &NoFiles);
    assert!(o.ok, "{}", o.output);
}

#[test]
fn an_object_past_etcds_request_limit_is_refused_and_nothing_is_stored() {
    let mut c = Cluster::with_default_nodes(1);
    let rv = c.store.revision();
    let big = "x".repeat(1_600_000);
    let o = run(
        &mut c,
        &format!("kubectl create configmap big --from-literal=a={big}"),
        None,
        &NoFiles,
    );
    assert!(!o.ok);
    assert!(
        o.output.contains("etcdserver: request is too large"),
        "{}",
        o.output
    );
    assert_eq!(c.store.revision(), rv);
}
