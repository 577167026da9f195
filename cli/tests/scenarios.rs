//! Every built-in course scenario, played through `kubeplay-cli scenario` as a learner
//! who follows each step would: every goal is reached and every step prints what the
//! lesson says it prints.

use std::process::Command;

/// The built-in lessons the CLI lists.
const BUILTIN_COUNT: usize = kubeplay_engine::scenario::BUILTIN.len();

fn cli(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_kubeplay-cli"))
        .args(args)
        .output()
        .expect("run kubeplay-cli");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn every_built_in_scenario_reaches_all_its_goals_through_the_cli() {
    let (code, list, _) = cli(&["scenario", "--list"]);
    assert_eq!(code, 0);
    let ids: Vec<&str> = list.lines().filter_map(|l| l.split('\t').next()).collect();
    assert_eq!(ids.len(), BUILTIN_COUNT, "{list}");
    for id in ids {
        let (code, out, err) = cli(&["scenario", id]);
        assert_eq!(code, 0, "scenario {id} failed:\n{out}\n{err}");
        let goals = out.split("## goals\n").nth(1).unwrap_or_default();
        assert!(!goals.is_empty(), "{id}: no goals printed");
        assert!(
            goals.lines().all(|l| l.starts_with("[x] ")),
            "{id}:\n{goals}"
        );
    }
}

/// Played in Chinese too: every goal reached, every step printed what it must, and no
/// command the learner is shown (the `$ …` lines, the commands that ran) still holds a
/// `{pod:…}` placeholder: the names are filled in, as they ran.
#[test]
fn every_built_in_scenario_passes_in_chinese_and_shows_only_the_commands_that_ran() {
    use kubeplay_engine::scenario::{self, has_placeholder, BUILTIN};
    // The lessons with the learner's controller run it where the CLI does.
    kubeplay_engine::controllers::script::runner::install_global(kubeplay_sandbox::run_json);
    for (id, _) in BUILTIN {
        let s = scenario::builtin(id).unwrap().unwrap();
        // As the page lists the steps on opening: the names a Run would use now.
        let opened = scenario::build(&s).unwrap();
        for (i, st) in s.steps.iter().enumerate() {
            for line in st
                .command
                .iter()
                .flat_map(|c| scenario::shown_command(&opened, c))
            {
                assert!(!has_placeholder(&line), "{id} step {}: {line}", i + 1);
            }
        }
        let r = scenario::play(&s, "zh").unwrap();
        assert!(r.passed(), "{id}:\n{}", r.transcript);
        let goals = r.transcript.split("\n## 目标\n").nth(1).unwrap_or_default();
        assert!(
            !goals.is_empty() && goals.lines().all(|l| l.starts_with("[x] ")),
            "{id}: {goals}"
        );
        for line in r.transcript.lines().filter(|l| l.starts_with("$ ")) {
            assert!(
                !has_placeholder(line),
                "{id}: shown with a placeholder: {line}"
            );
        }
        for (i, cmds) in r.ran.iter().enumerate() {
            for c in cmds {
                assert!(!has_placeholder(c), "{id} step {}: {c}", i + 1);
            }
        }
    }
}

#[test]
fn a_scenario_is_told_in_chinese_with_kubectl_output_unchanged() {
    let (code, out, _) = cli(&["scenario", "gateway-delete-pod", "--lang", "zh"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.starts_with("# 三个网关副本：删除其中一个 Pod\n"),
        "{out}"
    );
    assert!(
        out.contains("[x] t1：一个 Pod 被删除，就绪数降到 2"),
        "{out}"
    );
    assert!(
        out.contains(" deleted\n"),
        "kubectl's words stay English: {out}"
    );
}

#[test]
fn a_broken_scenario_file_is_refused_with_its_line_and_column() {
    let dir = std::env::temp_dir().join(format!("kubeplay-scn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.yaml");
    std::fs::write(&f, "id: bad\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ncluster:\n  nodes:\n    - {name: n1, cpus: 4}\n").unwrap();
    let (code, out, err) = cli(&["scenario", f.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("bad.yaml at line 6 column"), "{err}");
    assert!(err.contains("unknown field `cpus`"), "{err}");
    let (code, _, err) = cli(&["scenario", "no-such-scenario"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("not a built-in scenario and not a file"),
        "{err}"
    );
}

#[test]
fn a_goal_that_is_never_reached_fails_the_run() {
    let dir = std::env::temp_dir().join(format!("kubeplay-scn2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("never.yaml");
    std::fs::write(
        &f,
        "id: never\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ntimeout: 1m\ncluster: {nodes: [{name: n1}]}\ngoals:\n  - {label: {en: ten nodes, zh: x}, expect: count nodes == 10}\n",
    )
    .unwrap();
    let (code, out, _) = cli(&["scenario", f.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("[ ] ten nodes   (count nodes == 10)"), "{out}");
}

#[test]
fn a_step_command_that_fails_unmarked_or_succeeds_marked_fails_the_scenario() {
    let dir = std::env::temp_dir().join(format!("kubeplay-scn-err-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let base = "id: e\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ncluster: {nodes: [{name: n1}]}\n";
    let cases = [
        ("steps:\n  - text: {en: a, zh: b}\n    command: kubectl get pod nope\n", 1),
        ("steps:\n  - text: {en: a, zh: b}\n    command: kubectl get pod nope\n    expect: error\n", 0),
        // In YAML a plain ` #` starts a YAML comment: the marker goes in a block scalar.
        ("steps:\n  - text: {en: a, zh: b}\n    command: |\n      kubectl get pod nope # expect error\n", 0),
        ("steps:\n  - text: {en: a, zh: b}\n    command: sim time\n    expect: error\n", 1),
    ];
    for (i, (steps, want)) in cases.iter().enumerate() {
        let f = dir.join(format!("s{i}.yaml"));
        std::fs::write(&f, format!("{base}{steps}")).unwrap();
        let (code, out, err) = cli(&["scenario", f.to_str().unwrap()]);
        assert_eq!(code, *want, "case {i}:\n{out}\n{err}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A lesson's goals are reachable only by doing its steps: with the cluster built and
/// its setup run, the clock playing for the scenario's whole timeout and no step taken,
/// no goal is ever met.
#[test]
fn no_goal_of_a_built_in_scenario_is_reached_without_doing_its_steps() {
    use kubeplay_engine::scenario::{self, Tracker, BUILTIN, CHECK_EVERY};
    let mut reached_anyway = Vec::new();
    for (id, _) in BUILTIN {
        let s = scenario::builtin(id).unwrap().unwrap();
        let mut c = scenario::build(&s).unwrap();
        let mut t = Tracker::new(&s);
        t.check(&s, &mut c);
        let end = c.now() + 15 * 60 * 1000;
        while c.now() < end {
            c.advance(CHECK_EVERY * 10);
            t.check(&s, &mut c);
        }
        for (g, r) in s.goals.iter().zip(&t.reached) {
            if let Some(at) = r {
                reached_anyway.push(format!("{id}: {:?} at {at} ms", g.label.get("en")));
            }
        }
    }
    assert!(
        reached_anyway.is_empty(),
        "goals reached without the steps:\n{}",
        reached_anyway.join("\n")
    );
}
