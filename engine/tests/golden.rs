//! Golden transcripts: each `tests/golden/*.sh` runs through the command language and
//! must print exactly its `.out` file, byte for byte. `UPDATE_GOLDEN=1 cargo test
//! --test golden` rewrites the files (read the diff before committing it). A command
//! that fails must say so with `# expect error`, as in any script.

use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{script, Files};
use std::path::{Path, PathBuf};

struct Dir(PathBuf);

impl Files for Dir {
    fn read(&self, path: &str) -> Result<String, String> {
        std::fs::read_to_string(self.0.join(path))
            .map_err(|_| format!("the path \"{path}\" does not exist"))
    }
}

fn transcript(script_path: &Path) -> String {
    // `sim controller` runs the learner's JavaScript in the sandbox the CLI links.
    kubeplay_engine::controllers::script::runner::install_global(kubeplay_sandbox::run_json);
    let text = std::fs::read_to_string(script_path).expect("script readable");
    let lines = script::parse(&text, &script_path.display().to_string()).expect("script parses");
    let mut c = Cluster::with_default_nodes(1);
    let dir = Dir(script_path.parent().expect("in a folder").to_path_buf());
    let r = script::run_lines(&mut c, &lines, &dir);
    format!(
        "{}# expectations: {} run, {} failed; commands that did not do what the script says: {}\n",
        r.transcript, r.expectations, r.failed_expectations, r.unexpected
    )
}

#[test]
fn every_golden_script_prints_exactly_its_transcript() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("golden dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sh"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 5, "golden scripts present");
    let update = std::env::var("UPDATE_GOLDEN").is_ok();
    let mut mismatches = Vec::new();
    let mut unexpected = Vec::new();
    for s in &scripts {
        let got = transcript(s);
        if !got.ends_with("did not do what the script says: 0\n") {
            unexpected.push(s.display().to_string());
        }
        let golden = s.with_extension("out");
        if update {
            std::fs::write(&golden, &got).expect("write golden");
            continue;
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_default();
        if got != want {
            let line = got
                .lines()
                .zip(want.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(got.lines().count().min(want.lines().count()));
            mismatches.push(format!(
                "{}: first difference at line {}\n  got:  {:?}\n  want: {:?}",
                golden.display(),
                line + 1,
                got.lines().nth(line).unwrap_or("<end>"),
                want.lines().nth(line).unwrap_or("<end>")
            ));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert!(
        unexpected.is_empty(),
        "a command failed without `# expect error` (or succeeded with it) in {unexpected:?}"
    );
}
