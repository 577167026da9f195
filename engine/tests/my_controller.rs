//! The learner's own controller (`sim controller`): a JavaScript reconcile run in
//! the sandbox as one more control loop, through the API server's one door as its
//! own ServiceAccount.

use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};
use kubeplay_engine::controllers::script::runner;
use std::rc::Rc;

const CRD: &str = include_str!("../controllers/podset-crd.yaml");
const WEB: &str = include_str!("../controllers/podset-web.yaml");
const LOOP: &str = include_str!("../controllers/desired-state-loop.js");

fn sh(c: &mut Cluster, cmd: &str, stdin: Option<&str>) -> String {
    let o = run(c, cmd, stdin, &NoFiles);
    assert!(o.ok, "{cmd}: {}", o.output);
    o.output
}

fn world() -> Cluster {
    runner::install(Some(Rc::new(|call: &str| kubeplay_sandbox::run_json(call))));
    let mut c = Cluster::with_default_nodes(2);
    sh(&mut c, "kubectl apply -f -", Some(CRD));
    assert!(c.settle(60_000));
    c
}

fn start(c: &mut Cluster, source: &str) -> String {
    sh(
        c,
        "sim controller run --for podsets --owns pods -f -",
        Some(source),
    )
}

fn pods_of(c: &Cluster, app: &str) -> Vec<Pod> {
    c.store
        .list::<Pod>()
        .filter(|p| p.metadata.labels.get("app").map(String::as_str) == Some(app))
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .cloned()
        .collect()
}

fn status(c: &mut Cluster) -> String {
    sh(c, "sim controller status", None)
}

#[test]
fn the_course_loop_creates_the_pods_one_step_at_a_time_and_reports_in_sync() {
    let mut c = world();
    let out = start(&mut c, LOOP);
    assert!(
        out.contains("serviceaccount/my-controller created"),
        "{out}"
    );
    assert!(
        out.contains("role.rbac.authorization.k8s.io/my-controller created"),
        "{out}"
    );
    assert!(
        out.contains("rolebinding.rbac.authorization.k8s.io/my-controller created"),
        "{out}"
    );
    assert!(
        out.ends_with("my-controller: reconciles podsets.course.kubeplay.dev (owns pods) in namespace default as system:serviceaccount:default:my-controller\n"),
        "{out}"
    );
    sh(&mut c, "kubectl apply -f -", Some(WEB));
    assert!(c.settle(120_000));
    let pods = pods_of(&c, "web");
    assert_eq!(pods.len(), 3);
    for p in &pods {
        let r = &p.metadata.owner_references[0];
        assert_eq!(
            (r.kind.as_str(), r.name.as_str(), r.controller),
            ("PodSet", "web", Some(true))
        );
        assert!(p.metadata.name.starts_with("web-"));
    }
    let got = sh(&mut c, "kubectl get podsets", None);
    assert_eq!(
        got,
        "NAME   DESIRED   OBSERVED   LAST\nweb    3         3          in-sync\n"
    );
    // Every write is the controller's, as its field manager and its ServiceAccount.
    let writers: std::collections::BTreeSet<String> = c
        .store
        .log
        .since(0)
        .filter(|e| e.kind == Kind::Pod && e.type_ == kubeplay_engine::apiserver::WatchType::Added)
        .map(|e| e.writer.to_string())
        .collect();
    assert_eq!(
        writers.into_iter().collect::<Vec<_>>(),
        vec!["my-controller".to_string()]
    );
    let s = status(&mut c);
    assert!(s.contains("State:        running\n"), "{s}");
    assert!(s.contains("Identity:     system:serviceaccount:default:my-controller (Role my-controller in default)\n"), "{s}");
}

#[test]
fn a_deleted_pod_is_replaced_and_a_deleted_podset_takes_its_pods_with_it() {
    let mut c = world();
    start(&mut c, LOOP);
    sh(&mut c, "kubectl apply -f -", Some(WEB));
    assert!(c.settle(120_000));
    let victim = pods_of(&c, "web")[0].metadata.name.clone();
    sh(
        &mut c,
        &format!("kubectl delete pod {victim} --wait=false"),
        None,
    );
    assert!(c.settle(120_000));
    let pods = pods_of(&c, "web");
    assert_eq!(pods.len(), 3);
    assert!(pods.iter().all(|p| p.metadata.name != victim));
    sh(&mut c, "kubectl delete podset web --wait=false", None);
    assert!(c.settle(180_000));
    assert!(
        pods_of(&c, "web").is_empty(),
        "the garbage collector followed the owner references"
    );
}

#[test]
fn an_endless_loop_is_stopped_by_its_budget_writes_nothing_and_backs_off() {
    let mut c = world();
    start(
        &mut c,
        "function reconcile(request, client) { while (true) {} }",
    );
    sh(&mut c, "kubectl apply -f -", Some(WEB));
    c.advance(60_000);
    assert!(pods_of(&c, "web").is_empty());
    let ctl = c.my_controller();
    // 5 ms doubling: about fourteen tries in a minute, not thousands.
    assert!(ctl.calls >= 10 && ctl.calls <= 16, "{}", ctl.calls);
    assert_eq!(ctl.calls, ctl.failed_calls);
    let s = status(&mut c);
    assert!(s.contains("State:        failing\n"), "{s}");
    assert!(
        s.contains("Last error:   reconcile used its whole budget (100 ticks of 10,000 steps) and was stopped: an endless loop, or too much work for one reconcile (default/web,"),
        "{s}"
    );
    // Fixed and reloaded, it converges.
    start(&mut c, LOOP);
    assert!(c.settle(120_000));
    assert_eq!(pods_of(&c, "web").len(), 3);
    assert!(status(&mut c).contains("State:        running\n"));
}

#[test]
fn a_reconcile_that_asks_for_thousands_of_writes_writes_nothing() {
    let mut c = world();
    start(
        &mut c,
        "function reconcile(r, client) {\n  const ps = client.get('PodSet', r.name);\n  for (let i = 0; i < 5000; i++) client.create({apiVersion: 'v1', kind: 'Pod', metadata: {generateName: 'x-', labels: ps.spec.selector}, spec: {containers: [{name: 'a', image: 'nginx'}]}});\n}\n",
    );
    sh(&mut c, "kubectl apply -f -", Some(WEB));
    c.advance(5_000);
    assert!(pods_of(&c, "web").is_empty());
    let e = c.my_controller().last_error.clone().unwrap();
    assert!(
        e.message.starts_with(
            "Error: reconcile made more than 100 writes: a reconcile may make at most 100"
        ),
        "{}",
        e.message
    );
    assert!(e.message.contains("controller.js:3"), "{}", e.message);
}

#[test]
fn its_role_decides_what_it_may_do() {
    let mut c = world();
    start(&mut c, LOOP);
    // The learner takes `create` on Pods away from its Role.
    let role = "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: my-controller\n  namespace: default\nrules:\n- apiGroups: [\"course.kubeplay.dev\"]\n  resources: [\"podsets\", \"podsets/status\"]\n  verbs: [\"get\", \"list\", \"watch\", \"update\"]\n- apiGroups: [\"\"]\n  resources: [\"pods\"]\n  verbs: [\"get\", \"list\", \"watch\"]\n";
    sh(&mut c, "kubectl apply -f -", Some(role));
    sh(&mut c, "kubectl apply -f -", Some(WEB));
    c.advance(10_000);
    assert!(pods_of(&c, "web").is_empty());
    let e = c.my_controller().last_error.clone().unwrap();
    assert_eq!(
        e.message,
        "Error from server (Forbidden): pods is forbidden: User \"system:serviceaccount:default:my-controller\" cannot create resource \"pods\" in API group \"\" in the namespace \"default\""
    );
    // A reload keeps the learner's Role.
    let out = start(&mut c, LOOP);
    assert!(!out.contains("created"), "{out}");
}

#[test]
fn a_paused_controller_holds_its_keys_until_it_resumes() {
    let mut c = world();
    start(&mut c, LOOP);
    sh(&mut c, "sim controller pause", None);
    sh(&mut c, "kubectl apply -f -", Some(WEB));
    c.advance(10_000);
    assert!(pods_of(&c, "web").is_empty());
    assert!(status(&mut c).contains("State:        paused\n"));
    sh(&mut c, "sim controller resume", None);
    assert!(c.settle(120_000));
    assert_eq!(pods_of(&c, "web").len(), 3);
}

#[test]
fn the_same_code_and_commands_build_the_same_world() {
    let build = || {
        let mut c = world();
        start(
            &mut c,
            &LOOP.replace("\"app\"", "\"app-\" + Math.floor(Math.random() * 1000)"),
        );
        sh(&mut c, "kubectl apply -f -", Some(WEB));
        assert!(c.settle(120_000));
        sh(&mut c, "kubectl get pods,podsets -o yaml", None)
    };
    assert_eq!(build(), build());
}

#[test]
fn its_console_log_and_its_errors_are_kept_with_the_key() {
    let mut c = world();
    start(
        &mut c,
        "function reconcile(r, client) {\n  console.log('saw', r.name);\n  const ps = client.get('PodSet', r.name);\n  return ps.spec.nope.length;\n}\n",
    );
    sh(&mut c, "kubectl apply -f -", Some(WEB));
    c.advance(2_000);
    let logs = sh(&mut c, "sim controller logs --tail 2", None);
    assert!(logs.contains("default/web: saw web\n"), "{logs}");
    assert!(
        logs.contains("default/web: TypeError: cannot read property 'length' of undefined"),
        "{logs}"
    );
}

#[test]
fn bad_invocations_get_clear_errors() {
    let mut c = world();
    for (cmd, stdin, want) in [
        (
            "sim controller run --for podsets",
            None,
            "error: usage: sim controller run",
        ),
        (
            "sim controller run --for nosuch -f -",
            Some("x"),
            "error: the server doesn't have a resource type \"nosuch\"",
        ),
        (
            "sim controller run --for nodes -f -",
            Some("x"),
            "error: nodes is not namespaced",
        ),
        (
            "sim controller run --for podsets -f -",
            None,
            "error: sim controller run -f - reads stdin",
        ),
        (
            "sim controller status",
            None,
            "error: no controller is running",
        ),
        (
            "sim controller frobnicate",
            None,
            "error: usage: sim controller",
        ),
    ] {
        let o = run(&mut c, cmd, stdin, &NoFiles);
        assert!(!o.ok && o.output.starts_with(want), "{cmd}: {}", o.output);
    }
    let big = "x".repeat(70_000);
    let o = run(
        &mut c,
        "sim controller run --for podsets -f -",
        Some(&big),
        &NoFiles,
    );
    assert!(
        o.output.contains("at most 65536 are accepted"),
        "{}",
        o.output
    );
    let _ = ObjKey::new("default", "web");
}

/// A learner who plays the write-the-loop lesson step by step, its controller included.
fn played(edit: impl Fn(&str) -> String) -> kubeplay_engine::record::Record {
    use kubeplay_engine::scenario::{builtin, step_wait};
    use kubeplay_engine::session::{open_lesson, Act, ScenarioSource};
    runner::install(Some(Rc::new(|call: &str| kubeplay_sandbox::run_json(call))));
    let (mut m, _) = open_lesson(ScenarioSource::Id("write-the-loop".into())).unwrap();
    let s = builtin("write-the-loop").unwrap().unwrap();
    for st in &s.steps {
        let cmd = st.command.clone().unwrap();
        m.act_and_journal(Act::Run(edit(&cmd)));
        m.advance(step_wait(st));
    }
    kubeplay_engine::record::Record::of(&m).unwrap()
}

#[test]
fn a_completion_record_carries_the_controller_and_the_verifier_replays_it() {
    use kubeplay_engine::record::verify;
    let r = played(|c| c.to_string());
    assert!(r.complete(), "{:?}", r.goals);
    let json = serde_json::to_string(&r).unwrap();
    assert!(json.contains("function reconcile_step(desired, observed)"));
    let v = verify(&json);
    assert!(v.passed(), "{}", v.report());
    // The same record with the controller's code swapped for one that does nothing:
    // the goals it claims are not what the replay reaches.
    let forged = json.replace(
        "const action = reconcile_step(desired, observed);",
        "const action = \\\"in-sync\\\";",
    );
    assert_ne!(forged, json);
    let v = verify(&forged);
    assert!(!v.passed(), "{}", v.report());
}

#[test]
fn without_a_sandbox_no_controller_is_installed_and_no_key_is_held() {
    // This test's thread has no sandbox installed (the others install their own).
    runner::install(None);
    let mut c = Cluster::with_default_nodes(1);
    sh(&mut c, "kubectl apply -f -", Some(CRD));
    assert!(c.settle(60_000));
    let o = run(
        &mut c,
        "sim controller run --for podsets -f -",
        Some(LOOP),
        &NoFiles,
    );
    assert!(!o.ok);
    assert_eq!(
        o.output,
        "error: no JavaScript sandbox is loaded here to run a controller in\n"
    );
    assert!(c.my_controller().spec.is_none());
    let o = run(
        &mut c,
        "sim controller run --for podsets -n nowhere -f -",
        Some(LOOP),
        &NoFiles,
    );
    assert_eq!(
        o.output,
        "Error from server (NotFound): namespaces \"nowhere\" not found\n"
    );
}

#[test]
fn a_lesson_runs_a_controller_only_from_a_step() {
    for field in ["setup", "fork"] {
        let yaml = format!(
            "id: x\ntitle: {{en: x, zh: x}}\ndescription: {{en: x, zh: x}}\ncluster: {{nodes: [{{name: node-1}}]}}\n{field}: |\n  sim controller run --for pods -f - <<EOF\n  function reconcile() {{}}\n  EOF\nsteps: []\ngoals: []\n"
        );
        let e = kubeplay_engine::scenario::parse(&yaml, "lesson.yaml").unwrap_err();
        assert!(
            e.contains(&format!(
                "{field}: sim controller run belongs in a step's command"
            )),
            "{e}"
        );
    }
}
