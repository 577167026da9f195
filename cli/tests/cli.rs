//! The `kubeplay-cli` binary: every script in `engine/tests/scripts` exits 0; a failed
//! expectation exits 1; an unreadable or unparsable script exits 2 with file:line.

use kubeplay_engine::record::Record;
use kubeplay_engine::scenario::expand;
use kubeplay_engine::session::{open_lesson, Act, ScenarioSource};
use std::path::Path;
use std::process::Command;

fn cli() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kubeplay-cli"))
}

#[test]
fn every_script_in_the_tests_folder_runs_with_all_expectations_holding() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/scripts");
    let mut scripts: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 3);
    for s in scripts {
        let out = cli().arg("run").arg(&s).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{} failed:\n{stdout}\n{}",
            s.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.contains("$ sim expect") && !stdout.contains("FAILED"),
            "{}",
            s.display()
        );
    }
}

#[test]
fn a_failed_expectation_exits_1_and_says_what_was_observed() {
    let mut child = cli()
        .args(["run", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"sim expect count nodes == 4\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "$ sim expect count nodes == 4\nFAILED: count nodes == 4 (observed: 3)\n"
    );
}

#[test]
fn unreadable_and_unparsable_scripts_exit_2_naming_file_and_line() {
    let out = cli().args(["run", "/no/such/script.sh"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let tmp = std::env::temp_dir().join(format!("kubeplay-bad-{}.sh", std::process::id()));
    std::fs::write(&tmp, "sim time\nkubectl apply -f - <<EOF\nkind: Pod\n").unwrap();
    let out = cli().arg("run").arg(&tmp).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{}:2: unterminated heredoc", tmp.display())),
        "{err}"
    );
    let _ = std::fs::remove_file(tmp);
}

#[test]
fn the_seed_flag_changes_the_generated_names() {
    let run = |seed: &str| {
        let mut child = cli()
            .args(["run", "-", "--seed", seed])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(
                b"kubectl create deployment w --image=x\nsim settle\nkubectl get pods -o name\n",
            )
            .unwrap();
        String::from_utf8_lossy(&child.wait_with_output().unwrap().stdout).to_string()
    };
    assert_eq!(run("3"), run("3"));
    assert_ne!(run("3"), run("4"));
}

fn run_stdin(script: &str) -> (Option<i32>, String, String) {
    let mut child = cli()
        .args(["run", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_failed_command_exits_1_after_running_and_printing_the_whole_script() {
    let (code, out, err) = run_stdin("kubectl get pod nope\nsim time\n");
    assert_eq!(code, Some(1), "{out}{err}");
    assert_eq!(
        out,
        "$ kubectl get pod nope\nError from server (NotFound): pods \"nope\" not found\n$ sim time\n0:00.0 (2025-01-01T00:00:00Z)\n"
    );
    assert!(
        err.contains("1 command(s) did not do what the script says"),
        "{err}"
    );
}

#[test]
fn a_line_marked_expect_error_may_fail_and_the_script_exits_0() {
    let (code, out, err) = run_stdin("kubectl get pod nope   # expect error\nsim time\n");
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.starts_with("$ kubectl get pod nope   # expect error\nError from server (NotFound)"),
        "{out}"
    );
}

#[test]
fn a_line_marked_expect_error_that_succeeds_exits_1() {
    let (code, out, _) = run_stdin("sim time # expect error\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.ends_with("FAILED: the line says # expect error, but the command succeeded\n"));
}

/// A learner who deletes one gateway Pod and watches its replacement come up.
fn genuine() -> Record {
    let (mut m, _) = open_lesson(ScenarioSource::Id("gateway-delete-pod".into())).unwrap();
    m.advance(900);
    let pod = expand(&m.cluster, "{pod:app=gateway}").unwrap();
    m.act_and_journal(Act::Run(format!("kubectl delete pod {pod} --wait=false")));
    m.advance(30_000);
    Record::of(&m).unwrap()
}

fn json(r: &Record) -> String {
    serde_json::to_string(r).unwrap()
}

#[test]
fn kubeplay_cli_verify_exits_zero_for_a_genuine_record_and_one_for_a_forgery() {
    let dir = std::env::temp_dir().join(format!("kubeplay-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.json");
    std::fs::write(&good, json(&genuine())).unwrap();
    let mut f = genuine();
    f.goals[0] = f.goals[0].map(|t| t + 1);
    let forged = dir.join("forged.json");
    std::fs::write(&forged, json(&f)).unwrap();
    let run = |p: &std::path::Path| {
        let o = Command::new(env!("CARGO_BIN_EXE_kubeplay-cli"))
            .arg("verify")
            .arg(p)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    let (code, out) = run(&good);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.ends_with("PASSED\n"), "{out}");
    let (code, out) = run(&forged);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("REFUSED"), "{out}");
    let (code, _) = run(&dir.join("missing.json"));
    assert_eq!(code, Some(2));
}
