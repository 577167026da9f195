//! The command target's generator: command lines from the real vocabulary of kubectl
//! and sim, and scripts of them with heredoc manifests.

use super::corpus::Corpus;
use super::draw::*;
use super::manifests::manifest;
use super::vocab::*;
use crate::rng::Rng;

/// One command line from the real vocabulary.
pub fn command_line(rng: &mut Rng, corpus: &Corpus) -> String {
    let mut words = Vec::new();
    if chance(rng, 65) {
        kubectl_words(rng, corpus, &mut words);
    } else {
        sim_words(rng, corpus, &mut words);
    }
    for _ in 0..rng.below(4) {
        words.push(flag(rng, corpus));
    }
    if chance(rng, 5) {
        words.push("# expect error".into());
    }
    words.join(" ")
}

/// A kubectl command's words: the verb and what that verb takes.
fn kubectl_words(rng: &mut Rng, corpus: &Corpus, words: &mut Vec<String>) {
    words.push(pick(rng, &["kubectl", "kubectl", "k"]).to_string());
    let verb = *pick(rng, KUBECTL);
    words.push(verb.to_string());
    match verb {
        "set image" => {
            words.push(target(rng, corpus));
            words.push(format!(
                "{}={}",
                name(rng, corpus),
                value_of(rng, corpus, Val::Image)
            ));
        }
        "create deployment" => {
            words.push({
                let v = name(rng, corpus);
                quote(rng, &v)
            });
            words.push(format!("--image={}", value_of(rng, corpus, Val::Image)));
        }
        "create job" | "create cronjob" => {
            words.push({
                let v = name(rng, corpus);
                quote(rng, &v)
            });
            if chance(rng, 80) {
                words.push(format!("--image={}", value_of(rng, corpus, Val::Image)));
            }
            if chance(rng, 30) {
                words.push("--from=cronjob/".to_string() + &name(rng, corpus));
            }
            // Schedules: the cron parser meets fields, ranges, steps and junk.
            let field = [
                "*", "*/5", "1-3", "0", "61", "mon-fri", "x", "*/0", "7", "1,2-4/2",
            ];
            let sched: Vec<&str> = (0..rng.below(7)).map(|_| *pick(rng, &field)).collect();
            words.push(format!("--schedule='{}'", sched.join(" ")));
            if chance(rng, 50) {
                words.push("--".into());
                words.push("sh".into());
                words.push("-c".into());
                let script = [
                    "sleep 1; exit 3",
                    "false",
                    "sleep 1e400",
                    "exit -5",
                    "sleep infinity",
                    "while true; do :; done",
                ];
                words.push(format!("'{}'", pick(rng, &script)));
            }
        }
        "label" | "annotate" => {
            words.push(target(rng, corpus));
            words.push({
                let v = labels(rng, corpus);
                quote(rng, &v)
            });
            if chance(rng, 30) {
                words.push(format!("{}-", name(rng, corpus)));
            }
        }
        "taint" => {
            words.push(format!("nodes {}", name(rng, corpus)));
            words.push(value_of(rng, corpus, Val::Taint));
        }
        "config use-context" => words.push(
            pick(
                rng,
                &[
                    "alice@kubeplay",
                    "bob@kubeplay",
                    "expired@kubeplay",
                    "kubernetes-admin@kubeplay",
                    "nope",
                ],
            )
            .to_string(),
        ),
        "auth can-i" => {
            words
                .push(pick(rng, &["get", "list", "create", "fly", "*", "impersonate"]).to_string());
            words.push(target(rng, corpus));
        }
        "patch" => {
            words.push(target(rng, corpus));
            words.push(format!("-p {}", {
                let v = patch(rng);
                quote(rng, &v)
            }));
        }
        _ => {
            for _ in 0..rng.below(3) {
                words.push(target(rng, corpus));
            }
        }
    }
}

/// A sim command's words: the verb and what that verb takes.
fn sim_words(rng: &mut Rng, corpus: &Corpus, words: &mut Vec<String>) {
    words.push("sim".into());
    let verb = *pick(rng, SIM);
    words.push(verb.to_string());
    match verb {
        "advance" => words.push(duration(rng)),
        "seed" => words.push(number(rng)),
        "expect" => {
            words.push(format!("{}/{}", pick(rng, RESOURCES), name(rng, corpus)));
            words.push({
                let v = pick(rng, JSONPATHS);
                quote(rng, v)
            });
            words.push(pick(rng, &["==", "!=", ">=", "<=", ">", "<", "=~", "~"]).to_string());
            words.push({
                let v = number(rng);
                quote(rng, &v)
            });
        }
        "expect count" => {
            words.push(pick(rng, RESOURCES).to_string());
            words.push(pick(rng, &["==", ">=", "<", "=~"]).to_string());
            words.push(number(rng));
        }
        "image-fail" | "image-ok" | "image-crash" => words.push(value_of(rng, corpus, Val::Image)),
        "gitops on" | "gitops off" => words.push(format!("deployment/{}", name(rng, corpus))),
        "image-warmup" => {
            words.push(value_of(rng, corpus, Val::Image));
            words.push(duration(rng));
        }
        "traffic" | "app" => words.push(format!("service/{}", name(rng, corpus))),
        "time" | "settle" | "reset" | "log" | "apiserver down" | "apiserver up"
        | "apiserver status" | "etcd status" => {}
        "etcd members" => words.push(number(rng)),
        "etcd down" | "etcd up" => words.push(format!("etcd-{}", rng.below(7))),
        "leader status" | "queues" => {}
        "watch break" => {
            words.push(
                [
                    "replicaset-controller",
                    "scheduler",
                    "gitops-sync",
                    "nobody",
                ][rng.below(4) as usize]
                    .to_string(),
            );
            words.push("--for".into());
            words.push(duration(rng));
        }
        "leader replicas" => words.push(number(rng)),
        "leader kill" => words.push(
            [
                "kube-controller-manager",
                "kube-scheduler",
                "scheduler",
                "etcd",
            ][rng.below(4) as usize]
                .to_string(),
        ),
        _ => words.push(target(rng, corpus)),
    }
}

/// A script: a few command lines, now and then a heredoc carrying a manifest.
pub fn script(rng: &mut Rng, corpus: &Corpus) -> String {
    let mut out = String::new();
    for _ in 0..1 + rng.below(6) {
        if chance(rng, 12) {
            let verb = pick(rng, &["apply", "create", "delete", "apply --server-side"]);
            out.push_str(&format!(
                "kubectl {verb} -f - <<EOF\n{}\nEOF\n",
                manifest(rng, corpus).trim_end()
            ));
        } else {
            out.push_str(&command_line(rng, corpus));
            out.push('\n');
        }
    }
    out
}
