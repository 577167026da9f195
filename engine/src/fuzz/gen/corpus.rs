//! The seed inputs: the engine's own scenarios and scripts, or the repository's golden
//! transcripts, manifests and scenarios.

use crate::command::script;
use std::path::Path;

/// The seed inputs, by target.
#[derive(Clone, Debug, Default)]
pub struct Corpus {
    /// Scripts in the command language (golden transcripts' inputs, story scripts).
    pub scripts: Vec<String>,
    /// Manifests (YAML files, heredoc bodies of the scripts).
    pub manifests: Vec<String>,
    /// Scenario files.
    pub scenarios: Vec<String>,
    /// Object names worth aiming commands at (the cluster's own Pods, nodes…).
    pub names: Vec<String>,
}

impl Corpus {
    /// What the engine carries itself: the built-in scenarios, their setup scripts and
    /// heredoc manifests.
    pub fn builtin() -> Corpus {
        let mut c = Corpus {
            names: [
                "web",
                "node-1",
                "node-2",
                "default",
                "kube-system",
                "gateway",
                "api",
            ]
            .map(String::from)
            .to_vec(),
            ..Corpus::default()
        };
        for (_, yaml) in crate::scenario::BUILTIN {
            c.scenarios.push(yaml.to_string());
            if let Ok(s) = crate::scenario::parse(yaml, "builtin") {
                c.add_script(&s.setup);
                for st in s.steps.iter().filter_map(|st| st.command.as_ref()) {
                    c.add_script(st);
                }
            }
        }
        c
    }

    /// [`Corpus::builtin`] plus the repository's files under `root` (the workspace):
    /// `engine/tests/golden/` and `engine/tests/scripts/` (`*.sh`, `*.yaml`, `*.json`),
    /// read in name order so the corpus, hence every input, is the same on every
    /// machine. Missing directories are skipped.
    pub fn from_repo(root: &Path) -> Corpus {
        let mut c = Corpus::builtin();
        for dir in ["engine/tests/golden", "engine/tests/scripts"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
                continue;
            };
            let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            paths.sort();
            for p in paths {
                let Ok(text) = std::fs::read_to_string(&p) else {
                    continue;
                };
                match p.extension().and_then(|e| e.to_str()) {
                    Some("sh") => c.add_script(&text),
                    Some("yaml" | "yml" | "json") => c.manifests.push(text),
                    _ => {}
                }
            }
        }
        c
    }

    /// A script, and its heredoc bodies as manifests.
    pub fn add_script(&mut self, text: &str) {
        if text.trim().is_empty() {
            return;
        }
        if let Ok(lines) = script::parse(text, "corpus") {
            self.manifests
                .extend(lines.iter().filter_map(|l| l.stdin.clone()));
        }
        self.scripts.push(text.to_string());
    }
}
