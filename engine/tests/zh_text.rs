//! Chinese as the course writes it (`docs/terms.zh.md`): in every built-in lesson's
//! Chinese text, the page's Chinese strings, the Chinese docs and the CLI runner's
//! Chinese transcript —
//!
//! - no written form the terms table says not to use (`leader` where the course says
//!   领导者, 会话保持 where it says 粘性路由, …);
//! - a space between a Han character and a Latin letter or digit;
//! - “” rather than ASCII quotes;
//! - in a lesson's text, no English word but a Kubernetes word (kinds, fields, states,
//!   reasons, components) or a word of the lesson's own commands (names, flags).
//!
//! Text in backticks is quoted output or a command: it is exempt.

use kubeplay_engine::scenario::{self, Scenario, BUILTIN};
use std::collections::BTreeSet;

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{}/../{path}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn han(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
}

/// The text with its `code spans` (and markdown link targets) blanked.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for c in text.chars() {
        if c == '`' {
            in_code = !in_code;
            out.push(' ');
        } else {
            out.push(if in_code { ' ' } else { c });
        }
    }
    while let Some(i) = out.find("](") {
        let Some(j) = out[i..].find(')') else { break };
        let blank = " ".repeat(out[i + 1..i + j + 1].chars().count());
        out.replace_range(i + 1..i + j + 1, &blank);
    }
    out
}

/// The written forms the terms table says not to use (its last column, in backticks).
fn avoided() -> Vec<String> {
    let table = read("docs/terms.zh.md");
    let mut out = Vec::new();
    for line in table
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| English"))
    {
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').collect();
        let Some(last) = cells.last() else { continue };
        for part in last.split('`').skip(1).step_by(2) {
            out.push(part.to_string());
        }
    }
    assert!(
        out.len() >= 5,
        "the terms table names what not to write: {out:?}"
    );
    out
}

/// The problems of one Chinese text, as readable lines.
fn problems(text: &str, avoid: &[String]) -> Vec<String> {
    let p = prose(text);
    let mut out = Vec::new();
    let chars: Vec<char> = p.chars().collect();
    for w in chars.windows(2) {
        let (a, b) = (w[0], w[1]);
        if (han(a) && b.is_ascii_alphanumeric()) || (a.is_ascii_alphanumeric() && han(b)) {
            out.push(format!("no space between {a:?} and {b:?}"));
        }
    }
    if p.contains('"') || p.contains('\'') {
        out.push("an ASCII quote (use “” or ‘’)".into());
    }
    for a in avoid {
        let found = if a.chars().all(|c| c.is_ascii_alphabetic()) {
            words(&p).any(|w| w == *a)
        } else {
            p.contains(a.as_str())
        };
        if found {
            out.push(format!("{a:?}, which the terms table says not to write"));
        }
    }
    out
}

/// The Latin words of a text: runs of letters, digits and `.-_/:=` starting with a letter.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || "._-/:=".contains(c)))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic()))
}

/// English words a Chinese lesson text may use: Kubernetes' own words and a few the
/// course itself writes in Latin letters. A word of the lesson's commands is allowed too.
const KUBERNETES_WORDS: &[&str] = &[
    // Kinds and API words.
    "Pod",
    "Node",
    "Deployment",
    "ReplicaSet",
    "Service",
    "EndpointSlice",
    "Endpoints",
    "Lease",
    "Event",
    "Job",
    "CronJob",
    "DaemonSet",
    "StatefulSet",
    "PersistentVolumeClaim",
    "StorageClass",
    "LimitRange",
    "PodDisruptionBudget",
    "HorizontalPodAutoscaler",
    "Namespace",
    "Ingress",
    "IngressClass",
    "NetworkPolicy",
    "Role",
    "ServiceAccount",
    "Secret",
    "ConfigMap",
    "RBAC",
    // The language the learner's controller is written in, as a name.
    "JavaScript",
    // The 12.04 text's own names: its users A and B, their connection, the ack.
    "A",
    "B",
    "WebSocket",
    "ACK",
    // The architecture text's own words for the admission plugins it names.
    "Admission",
    "Webhook",
    "API",
    "List",
    "Watch",
    "Revision",
    "Apply",
    "Eviction",
    "ADDED",
    "MODIFIED",
    "DELETED",
    // The architecture text's node-side causes: "磁盘和 inode".
    "inode",
    // kubectl's verbs kept beside the word, the API's verbs, the default namespace.
    "cordon",
    "drain",
    "get",
    "list",
    "watch",
    "create",
    "update",
    "patch",
    "delete",
    "default",
    // Components and tools.
    "Kubernetes",
    "kubelet",
    "kubectl",
    "etcd",
    "Server",
    "Controller",
    "Manager",
    "LimitRanger",
    "NamespaceLifecycle",
    "CRI",
    "CSI",
    "containerd",
    "Git",
    "GitOps",
    "provisioner",
    // States, conditions, reasons, columns that kubectl prints.
    "Pending",
    "Running",
    "Ready",
    "NotReady",
    "Unknown",
    "Terminating",
    "Terminated",
    "ContainerCreating",
    "CrashLoopBackOff",
    "ImagePullBackOff",
    "ErrImagePull",
    "BackOff",
    "Error",
    "Complete",
    "Completed",
    "Succeeded",
    "False",
    "True",
    "SchedulingDisabled",
    "FailedScheduling",
    "FailedCreate",
    "ReplicaFailure",
    "ProgressDeadlineExceeded",
    "BackoffLimitExceeded",
    "JobAlreadyActive",
    "SawCompletedJob",
    "LeaderElection",
    "PodScheduled",
    "Insufficient",
    "Invalid",
    "Conflict",
    "BadRequest",
    "Gone",
    "NoExecute",
    "Last",
    "State",
    "Exit",
    "Code",
    "Restart",
    "Count",
    "READY",
    "STATUS",
    "NODE",
    // Field names and spec values.
    "spec",
    "status",
    "metadata",
    "uid",
    "UID",
    "name",
    "namespace",
    "labels",
    "annotations",
    "apiVersion",
    "kind",
    "generation",
    "resourceVersion",
    "ownerReferences",
    "managedFields",
    "subresource",
    "phase",
    "selector",
    "containerPort",
    "nodeName",
    "nodeSelector",
    "observedGeneration",
    "restartCount",
    "restartPolicy",
    "backoffLimit",
    "concurrencyPolicy",
    "startingDeadlineSeconds",
    "progressDeadlineSeconds",
    "revisionHistoryLimit",
    "minAvailable",
    "maxSurge",
    "maxUnavailable",
    "leaseTransitions",
    "timeZone",
    "preStop",
    "timeoutSeconds",
    "failurePolicy",
    "requests",
    "limits",
    "capabilities",
    "seccomp",
    "root",
    "unreachable",
    "restricted",
    "Never",
    "OnFailure",
    "Forbid",
    "ClientIP",
    "TERM",
    "POST",
    "UTC",
    // Units and letters the course writes: CPU, IP, ID, N−1, ceil().
    "CPU",
    "IP",
    "ID",
    "N",
    "ceil",
    "Gi",
    "Mi",
    "m",
    "t",
];

/// Every Chinese text of a lesson.
fn lesson_texts(s: &Scenario) -> Vec<&str> {
    let mut out = vec![s.title.zh.as_str(), s.description.zh.as_str()];
    for st in &s.steps {
        out.push(&st.text.zh);
        if let Some(p) = &st.predict {
            out.push(&p.question.zh);
            out.extend(p.choices.iter().map(|c| c.zh.as_str()));
        }
    }
    out.extend(s.goals.iter().map(|g| g.label.zh.as_str()));
    out
}

/// The words of a lesson's commands, looks, checks and expected output.
fn command_words(s: &Scenario) -> BTreeSet<String> {
    let mut text = s.setup.clone();
    for st in &s.steps {
        for t in [&st.command, &st.look].into_iter().flatten() {
            text.push_str(t);
        }
        text.push_str(&st.output.join(" "));
        if let Some(p) = &st.predict {
            text.push_str(p.number.as_deref().unwrap_or(""));
            p.choices.iter().for_each(|c| text.push_str(&c.when));
        }
    }
    s.goals.iter().for_each(|g| text.push_str(&g.expect));
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn every_lessons_chinese_uses_the_courses_words_its_spacing_and_its_quotes() {
    let avoid = avoided();
    let mut bad = Vec::new();
    for (id, _) in BUILTIN {
        let s = scenario::builtin(id).unwrap().unwrap();
        let own = command_words(&s);
        for text in lesson_texts(&s) {
            for p in problems(text, &avoid) {
                bad.push(format!("{id}: {p}: {text}"));
            }
            for w in words(&prose(text)) {
                // A name with digits or punctuation (node-1, gateway:1.0, spec.replicas)
                // is a name or a field, not an English word.
                if !w.chars().all(|c| c.is_ascii_alphabetic()) {
                    continue;
                }
                if !KUBERNETES_WORDS.contains(&w) && !own.contains(w) {
                    bad.push(format!("{id}: the English word {w:?} in: {text}"));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_pages_chinese_strings_and_the_chinese_docs_keep_the_same_rules() {
    let avoid = avoided();
    let mut bad = Vec::new();
    // The page's table: `("English", "中文"),` pairs.
    let i18n = read("src/i18n/zh.rs");
    let table = &i18n[i18n.find("const ZH").expect("the page's Chinese table")..];
    for line in table
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("(\""))
    {
        let Some(zh) = line
            .rsplit_once("\", \"")
            .map(|(_, z)| z.trim_end_matches("\"),"))
        else {
            continue;
        };
        // An entry the same in both languages is a command or a name, kept as it is.
        if line.starts_with(&format!("(\"{zh}\"")) {
            continue;
        }
        // Escaped quotes inside the Rust string are ASCII quotes in the text.
        for p in problems(&zh.replace("\\\"", "\""), &avoid) {
            bad.push(format!("src/i18n/zh.rs: {p}: {zh}"));
        }
    }
    for doc in [
        "docs/authors.zh.md",
        "docs/course-map.zh.md",
        "docs/grading.zh.md",
        "docs/terms.zh.md",
    ] {
        let text = read(doc);
        let mut fenced = false;
        for (n, line) in text.lines().enumerate() {
            if line.starts_with("```") {
                fenced = !fenced;
                continue;
            }
            // The terms table's own "not to write" column names the forms it forbids.
            if fenced || (doc.ends_with("terms.zh.md") && line.starts_with("| ")) {
                continue;
            }
            for p in problems(line, &avoid) {
                bad.push(format!("{doc}:{}: {p}", n + 1));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_runner_tells_a_lesson_in_chinese_with_chinese_headers() {
    let s = scenario::builtin("gateway-delete-pod").unwrap().unwrap();
    let t = scenario::play(&s, "zh").unwrap().transcript;
    assert!(t.contains("\n## 目标\n"), "{t}");
    assert!(!t.contains("## goals"), "{t}");
    assert!(t.contains("之后）\n"), "the look's header: {t}");
    assert!(!t.contains(" after)"), "{t}");
}

#[test]
fn the_checks_catch_what_they_are_for() {
    let avoid = avoided();
    assert_eq!(
        problems("删除一个 Pod，看：就绪数 3", &avoid),
        Vec::<String>::new()
    );
    assert_eq!(problems("再重启这些Pod", &avoid).len(), 1);
    assert_eq!(problems("在它\"看不见\"的时候", &avoid).len(), 1);
    assert_eq!(problems("杀掉 leader", &avoid).len(), 1);
    assert_eq!(problems("会话保持路由", &avoid).len(), 1);
    assert_eq!(
        problems("运行 `sim leader kill x`", &avoid),
        Vec::<String>::new()
    );
}
