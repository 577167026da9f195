//! Input generators: each input is either a corpus seed (the repository's own golden
//! scripts, manifests and scenarios) put through a few mutations, or built from the
//! grammar of its target — real kinds, fields, verbs and flags with hostile values
//! (huge, negative and overflowing numbers, `1e309`, empty, unicode, very long) — and
//! sometimes mutated too. Everything is drawn from one seeded [`Rng`]: the same seed
//! gives the same inputs.

use crate::command::script;
use crate::rng::Rng;
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

/// What an input is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A manifest file (YAML or JSON, one or more documents).
    Manifest,
    /// A script in the command language.
    Command,
    /// A scenario file.
    Scenario,
    /// A page address: `?query#s=…` or `#scenario=…`.
    Link,
}

impl Kind {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Manifest => "manifest",
            Kind::Command => "command",
            Kind::Scenario => "scenario",
            Kind::Link => "link",
        }
    }
}

/// Inputs are cut to this many bytes: mutations that duplicate could otherwise grow
/// them without end.
const MAX_INPUT: usize = 64 * 1024;

/// Numbers and strings that have broken parsers before: type limits and one past them,
/// floats out of range, empty, quoting, YAML's special words, unicode.
pub const HOSTILE: &[&str] = &[
    "",
    "0",
    "-0",
    "-1",
    "1",
    "2",
    "3",
    "127",
    "255",
    "256",
    "4294967295",
    "4294967296",
    "2147483647",
    "2147483648",
    "-2147483648",
    "-2147483649",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999999",
    "1e309",
    "-1e309",
    "1e-400",
    "1.7976931348623157e308",
    "4.9e-324",
    "1e9",
    "1e18",
    "NaN",
    ".nan",
    "inf",
    "-inf",
    ".inf",
    "0x7fffffff",
    "0o777",
    "1_000",
    "1.5",
    "-1.5",
    "0.0001",
    "1000000",
    "5000",
    "5001",
    "110",
    "null",
    "~",
    "true",
    "yes",
    "no",
    "[]",
    "{}",
    "'",
    "\"",
    "\\",
    "{",
    "}",
    "{.",
    "{.status}",
    "[?(@",
    "$(",
    "`",
    "%s",
    "\u{0}",
    "\u{FEFF}",
    "é",
    "名前",
    "🦀",
    "\u{202E}",
    "a\tb",
    "x=y",
    "=",
    ",",
    "!",
    "-",
    "--",
    "a in (",
    "*",
    "&a",
    "*a",
    "<<",
    "|",
    ">-",
    "#",
];

/// Durations, valid and not.
const DURATIONS: &[&str] = &[
    "0",
    "1ms",
    "500ms",
    "1s",
    "30s",
    "90s",
    "5m",
    "1h",
    "1h30m",
    "2d",
    "1.5s",
    "0.0001ms",
    "1e3s",
    "-1s",
    "s",
    "1x",
    "999999999999999",
    "9999999999999d",
    "1000000h",
    "1e15ms",
    "0s",
];

/// Quantities, valid and not.
const QUANTITIES: &[&str] = &[
    "100m",
    "1",
    "4",
    "2500m",
    "128Mi",
    "8Gi",
    "1Ti",
    "1Ei",
    "16Ei",
    "1e3",
    "1E9",
    "0.5",
    "1.5Gi",
    "-1",
    "1m",
    "0m",
    "999999999999999999Ei",
    "1k",
    "1Ki",
    "+1",
    ".5",
    "5.",
    "1e309",
    "Mi",
    "1.000000001",
    "18446744073709551615m",
];

/// Kubernetes kinds with their apiVersion (and a few that are not served here).
const KINDS: &[(&str, &str)] = &[
    ("v1", "Pod"),
    ("apps/v1", "Deployment"),
    ("apps/v1", "ReplicaSet"),
    ("v1", "Node"),
    ("v1", "Namespace"),
    ("v1", "Event"),
    ("coordination.k8s.io/v1", "Lease"),
    ("policy/v1", "PodDisruptionBudget"),
    ("scheduling.k8s.io/v1", "PriorityClass"),
    ("v1", "Service"),
    ("discovery.k8s.io/v1", "EndpointSlice"),
    ("v1", "Endpoints"),
    ("apps/v1", "StatefulSet"),
    ("v1", "Deployment"),
    ("batch/v1", "Job"),
    ("batch/v1", "CronJob"),
    ("apps/v1", "DaemonSet"),
];

/// Field names of the API types (snake case in the source; camel case in manifests).
const FIELDS: &[&str] = &[
    "affinity",
    "allocatable",
    "annotations",
    "apiVersion",
    "args",
    "capacity",
    "command",
    "conditions",
    "containerPort",
    "containers",
    "deletionGracePeriodSeconds",
    "effect",
    "env",
    "exec",
    "failureThreshold",
    "finalizers",
    "generateName",
    "hostPort",
    "httpGet",
    "image",
    "imagePullPolicy",
    "initContainers",
    "initialDelaySeconds",
    "key",
    "kind",
    "labels",
    "limits",
    "livenessProbe",
    "matchExpressions",
    "matchLabels",
    "maxSkew",
    "maxSurge",
    "maxUnavailable",
    "metadata",
    "minAvailable",
    "minReadySeconds",
    "name",
    "namespace",
    "nodeAffinity",
    "nodeName",
    "nodeSelector",
    "nodeSelectorTerms",
    "operator",
    "ownerReferences",
    "path",
    "paused",
    "periodSeconds",
    "port",
    "ports",
    "preemptionPolicy",
    "preference",
    "priority",
    "priorityClassName",
    "progressDeadlineSeconds",
    "protocol",
    "readinessProbe",
    "replicas",
    "requests",
    "resources",
    "restartPolicy",
    "revisionHistoryLimit",
    "rollingUpdate",
    "selector",
    "spec",
    "startupProbe",
    "status",
    "strategy",
    "successThreshold",
    "taints",
    "tcpSocket",
    "template",
    "terminationGracePeriodSeconds",
    "timeoutSeconds",
    "tolerationSeconds",
    "tolerations",
    "topologyKey",
    "topologySpreadConstraints",
    "type",
    "unschedulable",
    "value",
    "values",
    "weight",
    "whenUnsatisfiable",
    "globalDefault",
    "cpu",
    "memory",
    "pods",
    "app",
];

/// kubectl verbs with what may follow them.
const KUBECTL: &[&str] = &[
    "get",
    "describe",
    "delete",
    "apply",
    "create",
    "create deployment",
    "create job",
    "create cronjob",
    "create namespace",
    "create pdb",
    "create priorityclass",
    "scale",
    "rollout status",
    "rollout undo",
    "rollout history",
    "rollout restart",
    "rollout pause",
    "rollout resume",
    "set image",
    "set resources",
    "label",
    "annotate",
    "patch",
    "taint",
    "cordon",
    "uncordon",
    "drain",
    "wait",
    "version",
    "api-resources",
    "explain",
    "logs",
    "edit",
    "create quota",
    "create role",
    "create clusterrole",
    "create rolebinding",
    "create clusterrolebinding",
    "auth can-i",
    "auth whoami",
    "config use-context",
    "config get-contexts",
    "config current-context",
];

/// `sim` verbs with what may follow them.
const SIM: &[&str] = &[
    "advance",
    "settle",
    "time",
    "reset",
    "seed",
    "node add",
    "node down",
    "node up",
    "node partition",
    "node ps",
    "node remove",
    "crash",
    "oom",
    "hang",
    "unready",
    "ready",
    "image-fail",
    "image-ok",
    "image-crash",
    "gitops on",
    "gitops off",
    "why",
    "trace",
    "expect",
    "expect count",
    "log",
    "image-warmup",
    "traffic",
    "app",
    "nslookup",
    "apiserver down",
    "apiserver up",
    "apiserver status",
    "apiserver replicas",
    "apiserver down kube-apiserver-control-plane-2",
    "apiserver up kube-apiserver-control-plane-2",
    "etcd members",
    "etcd down",
    "etcd up",
    "etcd status",
    "leader status",
    "leader replicas",
    "leader kill",
    "watch break",
    "queues",
];

/// Resource words (kinds, short names, plural, `kind/name` prefixes).
const RESOURCES: &[&str] = &[
    "quota",
    "limits",
    "limitranges",
    "resourcequotas",
    "roles",
    "rolebindings",
    "clusterroles",
    "pods",
    "pod",
    "po",
    "deployments",
    "deployment",
    "deploy",
    "replicasets",
    "rs",
    "nodes",
    "node",
    "no",
    "events",
    "ev",
    "leases",
    "namespaces",
    "ns",
    "pdb",
    "poddisruptionbudgets",
    "priorityclasses",
    "pc",
    "all",
    "services",
    "deployments.apps",
];

/// Flags (long names) the commands read, with how their values look.
const FLAGS: &[(&str, Val)] = &[
    ("all", Val::Bool),
    (
        "as",
        Val::Word(&["alice", "bob", "kubernetes-admin", "system:anonymous", ""]),
    ),
    ("as-group", Val::Word(&["system:masters", "devs", ""])),
    (
        "verb",
        Val::Word(&["get,list", "*", "fly", "use", "create", ""]),
    ),
    (
        "resource",
        Val::Word(&["pods", "deployments.apps", "pods/log", "foos", "*", ""]),
    ),
    ("role", Val::Name),
    (
        "clusterrole",
        Val::Word(&["view", "edit", "admin", "cluster-admin", "nope"]),
    ),
    ("user", Val::Word(&["alice", "bob", ""])),
    ("group", Val::Word(&["devs", "system:authenticated"])),
    ("serviceaccount", Val::Word(&["default:sa", "bad", ":x"])),
    (
        "non-resource-url",
        Val::Word(&["/healthz", "logs", "/a*b", "/logs/*"]),
    ),
    ("list", Val::Bool),
    (
        "hard",
        Val::Word(&[
            "pods=3",
            "pods=1,requests.cpu=500m",
            "limits.memory=1Gi",
            "pods",
            "pods=abc",
            "=",
            "",
        ]),
    ),
    ("scopes", Val::Word(&["BestEffort", "x"])),
    ("all-namespaces", Val::Bool),
    ("after", Val::Duration),
    (
        "cascade",
        Val::Word(&["background", "foreground", "orphan", "true", "false"]),
    ),
    ("container", Val::Name),
    ("cpu", Val::Quantity),
    ("current-replicas", Val::Number),
    ("delete-emptydir-data", Val::Bool),
    ("dry-run", Val::Word(&["client", "server", "none"])),
    ("every", Val::Duration),
    ("field", Val::Field),
    ("field-selector", Val::Field),
    ("filename", Val::Word(&["-", "web.yaml", "/etc/passwd", ""])),
    (
        "for",
        Val::Word(&[
            "condition=Ready",
            "delete",
            "condition=Available=false",
            "jsonpath={.status.phase}=Running",
            "create",
        ]),
    ),
    ("force", Val::Bool),
    ("grace-period", Val::Number),
    ("ignore-daemonsets", Val::Bool),
    ("ignore-not-found", Val::Bool),
    ("image", Val::Image),
    ("labels", Val::Labels),
    ("limits", Val::Resources),
    ("requests", Val::Resources),
    ("max", Val::Duration),
    ("max-unavailable", Val::Number),
    ("memory", Val::Quantity),
    ("min-available", Val::Number),
    ("namespace", Val::Name),
    ("no-headers", Val::Bool),
    ("nodes", Val::Number),
    ("output", Val::Output),
    ("overwrite", Val::Bool),
    ("patch", Val::Patch),
    ("pod-selector", Val::Selector),
    ("pods", Val::Number),
    ("port", Val::Number),
    (
        "preemption-policy",
        Val::Word(&["Never", "PreemptLowerPriority", "x"]),
    ),
    ("replicas", Val::Number),
    ("revision", Val::Number),
    ("selector", Val::Selector),
    ("server-side", Val::Bool),
    ("force-conflicts", Val::Bool),
    ("show-managed-fields", Val::Bool),
    ("show-labels", Val::Bool),
    ("sort-by", Val::JsonPath),
    ("tail", Val::Number),
    ("taints", Val::Taint),
    ("timeout", Val::Duration),
    ("to-revision", Val::Number),
    (
        "type",
        Val::Word(&["merge", "json", "strategic", "Ready", ""]),
    ),
    (
        "validate",
        Val::Word(&["strict", "warn", "ignore", "true", "false"]),
    ),
    ("value", Val::Number),
    ("wait", Val::Bool),
    ("watch", Val::Bool),
    ("zones", Val::Number),
    ("global-default", Val::Bool),
    ("description", Val::Name),
    ("leases", Val::Bool),
    ("label-columns", Val::Name),
    ("now", Val::Bool),
    ("down", Val::Bool),
];

/// What a flag's value looks like.
#[derive(Clone, Copy, Debug)]
enum Val {
    Bool,
    Number,
    Duration,
    Quantity,
    Name,
    Image,
    Labels,
    Selector,
    Field,
    Output,
    Patch,
    JsonPath,
    Taint,
    Resources,
    Word(&'static [&'static str]),
}

/// JSONPath expressions, valid and not.
const JSONPATHS: &[&str] = &[
    "{.status.readyReplicas}",
    "{.metadata.name}",
    "{.items[*].metadata.name}",
    "{.items[0]}",
    "{.items[-1:]}",
    "{.items[?(@.status.phase==\"Running\")].metadata.name}",
    "{range .items[*]}{.metadata.name}{\"\\n\"}{end}",
    "{.spec.containers[9223372036854775807]}",
    "{.items[-9223372036854775808]}",
    "{.items[1:2:0]}",
    "{..name}",
    "{.a[?(@.x==)]}",
    "{",
    "{.}",
    "{$}",
    "{.items[*].status.conditions[?(@.type=='Ready')].status}",
    ".metadata.creationTimestamp",
    "{.status.replicas}",
];

/// Output formats, valid and not.
const OUTPUTS: &[&str] = &[
    "json",
    "yaml",
    "wide",
    "name",
    "jsonpath={.items[*].metadata.name}",
    "jsonpath='{.status}'",
    "custom-columns=NAME:.metadata.name,NODE:.spec.nodeName",
    "custom-columns=",
    "custom-columns=A:{",
    "go-template={{.metadata.name}}",
    "go-template={{range .items}}{{.metadata.name}}{{end}}",
    "go-template={{",
    "jsonpath-as-json={.items}",
    "template",
    "xml",
    "",
];

/// Selector expressions, valid and not.
const SELECTORS: &[&str] = &[
    "app=web",
    "app!=web",
    "app",
    "!app",
    "app in (web,api)",
    "app notin (web)",
    "tier=front,app=web",
    "pod-security.kubernetes.io/enforce=restricted",
    "pod-security.kubernetes.io/warn=baseline",
    "pod-security.kubernetes.io/enforce-version=v1.2x",
    "a in (",
    "=",
    "app==web",
    "a=b=c",
    "!",
    "",
    "app in ()",
    "x/y=z",
    "pod-template-hash",
];

fn pick<'a, T>(rng: &mut Rng, xs: &'a [T]) -> &'a T {
    &xs[rng.below(xs.len() as u64) as usize]
}

fn chance(rng: &mut Rng, percent: u64) -> bool {
    rng.below(100) < percent
}

/// A number: usually small and plausible, sometimes at a type limit or not a number.
fn number(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 | 1 => rng.below(6).to_string(),
        2 => rng.below(200).to_string(),
        3 => (rng.next_u64() >> rng.below(64)).to_string(),
        4 => format!("-{}", rng.below(1000)),
        _ => pick(rng, HOSTILE).to_string(),
    }
}

/// A name: a known one, a plausible one, or a hostile one (empty, long, unicode…).
fn name(rng: &mut Rng, corpus: &Corpus) -> String {
    match rng.below(10) {
        0..=4 if !corpus.names.is_empty() => pick(rng, &corpus.names).clone(),
        5 => format!("n{}", rng.below(5)),
        6 => "a".repeat(1 + rng.below(300) as usize),
        7 => format!(
            "{}-{}",
            pick(rng, &["web", "x", "Web", "-x", "x-", "a.b"]),
            number(rng)
        ),
        _ => pick(rng, HOSTILE).to_string(),
    }
}

fn duration(rng: &mut Rng) -> String {
    if chance(rng, 80) {
        pick(rng, DURATIONS).to_string()
    } else {
        format!(
            "{}{}",
            number(rng),
            pick(rng, &["ms", "s", "m", "h", "d", ""])
        )
    }
}

fn quantity(rng: &mut Rng) -> String {
    if chance(rng, 75) {
        pick(rng, QUANTITIES).to_string()
    } else {
        format!(
            "{}{}",
            number(rng),
            pick(rng, &["", "m", "Mi", "Gi", "k", "E", "Ei", "e3"])
        )
    }
}

fn labels(rng: &mut Rng, corpus: &Corpus) -> String {
    (0..1 + rng.below(3))
        .map(|_| format!("{}={}", name(rng, corpus), name(rng, corpus)))
        .collect::<Vec<_>>()
        .join(",")
}

fn value_of(rng: &mut Rng, corpus: &Corpus, v: Val) -> String {
    if chance(rng, 8) {
        return pick(rng, HOSTILE).to_string();
    }
    match v {
        Val::Bool => pick(rng, &["true", "false", "1", "yes", ""]).to_string(),
        Val::Number => number(rng),
        Val::Duration => duration(rng),
        Val::Quantity => quantity(rng),
        Val::Name => name(rng, corpus),
        Val::Image => format!(
            "{}:{}",
            pick(
                rng,
                &[
                    "nginx",
                    "busybox",
                    "gateway",
                    "bad/image",
                    "registry:5000/x"
                ]
            ),
            pick(rng, &["1.27", "latest", "", "2.0", "1.36"])
        ),
        Val::Labels => labels(rng, corpus),
        Val::Selector => pick(rng, SELECTORS).to_string(),
        Val::Field => pick(
            rng,
            &[
                "status.phase=Running",
                "spec.nodeName=node-1",
                "metadata.name=web",
                "phase=Pending",
                "a==b",
                "x",
                "status.phase!=Running",
            ],
        )
        .to_string(),
        Val::Output => pick(rng, OUTPUTS).to_string(),
        Val::Patch => patch(rng),
        Val::JsonPath => pick(rng, JSONPATHS).to_string(),
        Val::Taint => format!(
            "{}={}:{}",
            name(rng, corpus),
            name(rng, corpus),
            pick(
                rng,
                &["NoSchedule", "NoExecute", "PreferNoSchedule", "Bad", ""]
            )
        ),
        Val::Resources => format!("cpu={},memory={}", quantity(rng), quantity(rng)),
        Val::Word(ws) => pick(rng, ws).to_string(),
    }
}

fn patch(rng: &mut Rng) -> String {
    match rng.below(5) {
        0 => format!("{{\"spec\":{{\"replicas\":{}}}}}", number(rng)),
        1 => format!(
            "[{{\"op\":\"{}\",\"path\":\"{}\",\"value\":{}}}]",
            pick(rng, &["replace", "add", "remove", "move", "test", "x"]),
            pick(rng, &["/spec/replicas", "/metadata/labels/a", "/spec/template/spec/containers/0/image", "/", "", "/spec/x~1y", "/spec/containers/-"]),
            number(rng)
        ),
        2 => "{\"metadata\":{\"labels\":{\"a\":null}}}".to_string(),
        3 => "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"nginx\",\"image\":\"nginx:2\"}]}}}}".to_string(),
        _ => pick(rng, &["{", "[]", "null", "{}", "\"x\"", "1e309"]).to_string(),
    }
}

/// Quote a word for the command line, as a user would (or, rarely, badly).
fn quote(rng: &mut Rng, w: &str) -> String {
    let plain = !w.is_empty()
        && w.chars()
            .all(|c| !c.is_whitespace() && !"'\"\\#<>|;&(){}$`".contains(c));
    if plain && chance(rng, 90) {
        return w.to_string();
    }
    match rng.below(10) {
        0 => w.to_string(),
        1 => format!("\"{}\"", w.replace('\\', "\\\\").replace('"', "\\\"")),
        2 => format!("'{w}"),
        _ if !w.contains('\'') => format!("'{w}'"),
        _ => format!("\"{}\"", w.replace('\\', "\\\\").replace('"', "\\\"")),
    }
}

/// One flag with its value, in one of the forms kubectl reads.
fn flag(rng: &mut Rng, corpus: &Corpus) -> String {
    let (f, v) = pick(rng, FLAGS);
    let value = value_of(rng, corpus, *v);
    match (v, rng.below(4)) {
        (Val::Bool, 0) => format!("--{f}"),
        (_, 1) => format!("--{f} {}", quote(rng, &value)),
        (_, 2) if f.len() > 2 => format!("-{} {}", &f[..1], quote(rng, &value)),
        _ => format!("--{f}={}", quote(rng, &value)),
    }
}

/// A target: `TYPE NAME`, `TYPE/NAME`, or a name alone.
fn target(rng: &mut Rng, corpus: &Corpus) -> String {
    let r = pick(rng, RESOURCES);
    let n = name(rng, corpus);
    match rng.below(4) {
        0 => format!("{r}/{}", quote(rng, &n)),
        1 => r.to_string(),
        2 => quote(rng, &n),
        _ => format!("{r} {}", quote(rng, &n)),
    }
}

/// One command line from the real vocabulary.
pub fn command_line(rng: &mut Rng, corpus: &Corpus) -> String {
    let mut words = Vec::new();
    if chance(rng, 65) {
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
                words.push(
                    pick(rng, &["get", "list", "create", "fly", "*", "impersonate"]).to_string(),
                );
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
    } else {
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
            "image-fail" | "image-ok" | "image-crash" => {
                words.push(value_of(rng, corpus, Val::Image))
            }
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
    for _ in 0..rng.below(4) {
        words.push(flag(rng, corpus));
    }
    if chance(rng, 5) {
        words.push("# expect error".into());
    }
    words.join(" ")
}

/// A scalar for a manifest: plain, quoted, a number, or hostile.
fn scalar(rng: &mut Rng, corpus: &Corpus) -> String {
    let raw = match rng.below(6) {
        0 => number(rng),
        1 => quantity(rng),
        2 => name(rng, corpus),
        _ => pick(rng, HOSTILE).to_string(),
    };
    yaml_scalar(rng, &raw)
}

/// A scalar written plainly, double-quoted or single-quoted.
fn yaml_scalar(rng: &mut Rng, raw: &str) -> String {
    match rng.below(4) {
        0 => serde_json::to_string(raw).unwrap_or_default(),
        1 if !raw.contains('\'') => format!("'{raw}'"),
        _ if raw.is_empty() => "\"\"".into(),
        _ => raw.to_string(),
    }
}

/// A random YAML block value at `indent`, `depth` levels at most.
fn yaml_value(rng: &mut Rng, corpus: &Corpus, indent: usize, depth: u32, out: &mut String) {
    let pad = " ".repeat(indent);
    match if depth == 0 { 0 } else { rng.below(4) } {
        0 => {
            out.push(' ');
            out.push_str(&scalar(rng, corpus));
            out.push('\n');
        }
        1 => {
            out.push('\n');
            for _ in 0..1 + rng.below(3) {
                out.push_str(&format!("{pad}-"));
                yaml_value(rng, corpus, indent + 2, depth - 1, out);
            }
        }
        2 => {
            let items: Vec<String> = (0..rng.below(4)).map(|_| scalar(rng, corpus)).collect();
            out.push_str(&format!(" [{}]\n", items.join(", ")));
        }
        _ => {
            out.push('\n');
            for _ in 0..1 + rng.below(4) {
                out.push_str(&format!("{pad}{}:", pick(rng, FIELDS)));
                yaml_value(rng, corpus, indent + 2, depth - 1, out);
            }
        }
    }
}

/// A manifest document for a real kind: the fields its type has, in place, with
/// hostile values, plus random extra fields.
fn manifest_doc(rng: &mut Rng, corpus: &Corpus) -> String {
    let (api, kind) = *pick(rng, KINDS);
    let n = name(rng, corpus);
    let mut d = format!(
        "apiVersion: {api}\nkind: {kind}\nmetadata:\n  name: {}\n",
        yaml_scalar(rng, &n)
    );
    if chance(rng, 50) {
        d.push_str(&format!("  labels:\n    app: {}\n", scalar(rng, corpus)));
    }
    if chance(rng, 20) {
        d.push_str(&format!("  namespace: {}\n", scalar(rng, corpus)));
    }
    let container = |rng: &mut Rng, pad: &str| {
        format!(
            "{pad}containers:\n{pad}- name: {}\n{pad}  image: {}\n{pad}  resources:\n{pad}    requests:\n{pad}      cpu: {}\n{pad}      memory: {}\n{pad}    limits:\n{pad}      memory: {}\n",
            scalar(rng, corpus),
            scalar(rng, corpus),
            { let v = quantity(rng); yaml_scalar(rng, &v) },
            { let v = quantity(rng); yaml_scalar(rng, &v) },
            { let v = quantity(rng); yaml_scalar(rng, &v) },
        )
    };
    match kind {
        "Deployment" | "ReplicaSet" | "StatefulSet" => {
            d.push_str(&format!(
                "spec:\n  replicas: {}\n  selector:\n    matchLabels:\n      app: {}\n  template:\n    metadata:\n      labels:\n        app: {}\n    spec:\n",
                number(rng),
                scalar(rng, corpus),
                scalar(rng, corpus)
            ));
            d.push_str(&container(rng, "      "));
            if chance(rng, 30) {
                d.push_str(&format!(
                    "  strategy:\n    rollingUpdate:\n      maxSurge: {}\n      maxUnavailable: {}\n  revisionHistoryLimit: {}\n  progressDeadlineSeconds: {}\n",
                    scalar(rng, corpus),
                    scalar(rng, corpus),
                    number(rng),
                    number(rng)
                ));
            }
        }
        "Pod" => {
            d.push_str("spec:\n");
            d.push_str(&container(rng, "  "));
            if chance(rng, 40) {
                d.push_str(&format!(
                    "  nodeName: {}\n  priority: {}\n  terminationGracePeriodSeconds: {}\n  tolerations:\n  - key: {}\n    operator: {}\n    effect: {}\n    tolerationSeconds: {}\n",
                    scalar(rng, corpus),
                    number(rng),
                    number(rng),
                    scalar(rng, corpus),
                    pick(rng, &["Exists", "Equal", "In", ""]),
                    pick(rng, &["NoSchedule", "NoExecute", "x"]),
                    number(rng)
                ));
            }
        }
        "Node" => d.push_str(&format!(
            "spec:\n  unschedulable: {}\n  taints:\n  - key: {}\n    effect: {}\nstatus:\n  capacity:\n    cpu: {}\n    memory: {}\n    pods: {}\n",
            scalar(rng, corpus),
            scalar(rng, corpus),
            pick(rng, &["NoSchedule", "NoExecute", "x"]),
            { let v = quantity(rng); yaml_scalar(rng, &v) },
            { let v = quantity(rng); yaml_scalar(rng, &v) },
            { let v = number(rng); yaml_scalar(rng, &v) }
        )),
        "PodDisruptionBudget" => d.push_str(&format!(
            "spec:\n  {}: {}\n  selector:\n    matchLabels:\n      app: {}\n",
            pick(rng, &["minAvailable", "maxUnavailable"]),
            scalar(rng, corpus),
            scalar(rng, corpus)
        )),
        "PriorityClass" => d.push_str(&format!(
            "value: {}\nglobalDefault: {}\npreemptionPolicy: {}\n",
            number(rng),
            scalar(rng, corpus),
            scalar(rng, corpus)
        )),
        "Service" => d.push_str(&format!(
            "spec:\n  type: {}\n  clusterIP: {}\n  selector:\n    app: {}\n  ports:\n  - name: {}\n    port: {}\n    targetPort: {}\n    nodePort: {}\n    protocol: {}\n",
            pick(rng, &["ClusterIP", "NodePort", "LoadBalancer", "ExternalName", "Headless", ""]),
            pick(rng, &["None", "10.96.0.1", "10.96.0.10", "10.111.255.255", "1.2.3.4", "10.96.0.0", "::1", ""]),
            scalar(rng, corpus),
            scalar(rng, corpus),
            number(rng),
            scalar(rng, corpus),
            number(rng),
            pick(rng, &["TCP", "UDP", "SCTP", "HTTP", ""])
        )),
        "EndpointSlice" => d.push_str(&format!(
            "addressType: {}\nendpoints:\n- addresses: [{}]\n  conditions: {{ready: {}}}\nports:\n- port: {}\n",
            pick(rng, &["IPv4", "IPv6", "FQDN", ""]),
            scalar(rng, corpus),
            scalar(rng, corpus),
            number(rng)
        )),
        "Endpoints" => d.push_str(&format!(
            "subsets:\n- addresses:\n  - ip: {}\n  ports:\n  - port: {}\n",
            scalar(rng, corpus),
            number(rng)
        )),
        _ => {}
    }
    if chance(rng, 40) {
        d.push_str(&format!("{}:", pick(rng, FIELDS)));
        yaml_value(rng, corpus, 2, 4, &mut d);
    }
    d
}

/// YAML that stresses the parser itself: deep nesting, alias expansion, tags,
/// directives, odd line ends.
fn chaos_yaml(rng: &mut Rng) -> String {
    let deep = 1 + rng.below(2_000) as usize;
    match rng.below(8) {
        0 => format!("{}{}", "[".repeat(deep), "]".repeat(deep)),
        1 => format!("{}1{}", "{a: ".repeat(deep), "}".repeat(deep)),
        2 => (0..deep.min(300))
            .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
            .collect(),
        3 => {
            // Billion laughs: each level refers to the one before it ten times.
            let mut s = "a0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n".to_string();
            for i in 1..=1 + rng.below(9) {
                let refs = vec![format!("*a{}", i - 1); 10].join(",");
                s.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
            }
            s.push_str("apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n");
            s
        }
        4 => "%YAML 1.2\n---\n!!binary aGVsbG8=\n...\n--- !custom\napiVersion: !!str v1\nkind: Pod\n<<: {metadata: {name: m}}\n".into(),
        5 => "apiVersion: v1\r\nkind: Pod\r\nmetadata:\r\n\tname: x\r\n".into(),
        6 => "\u{FEFF}apiVersion: v1\nkind: Pod\nkind: Node\nmetadata: &m {name: x}\nspec: *m\n".into(),
        _ => format!(
            "{{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{{\"name\":\"{}\"}},\"spec\":{}}}",
            "x".repeat(rng.below(10_000) as usize),
            "[".repeat(deep) + &"]".repeat(deep)
        ),
    }
}

/// A manifest file: one or more documents, YAML or JSON, now and then parser chaos.
pub fn manifest(rng: &mut Rng, corpus: &Corpus) -> String {
    if chance(rng, 8) {
        return chaos_yaml(rng);
    }
    let docs: Vec<String> = (0..1 + rng.below(3))
        .map(|_| manifest_doc(rng, corpus))
        .collect();
    if chance(rng, 20) {
        // JSON is YAML: the same document as JSON, if it is YAML at all.
        let json: Vec<String> = docs
            .iter()
            .filter_map(|d| serde_yaml_ng::from_str::<serde_json::Value>(d).ok())
            .map(|v| v.to_string())
            .collect();
        if !json.is_empty() {
            return json.join("\n---\n");
        }
    }
    let sep = pick(rng, &["---\n", "---\n", "--- \n", "\n---\n...\n---\n"]);
    let mut text = docs.join(sep);
    if chance(rng, 20) {
        text.insert_str(0, "---\n");
    }
    text
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

/// A scenario file from its fields, with hostile values and commands.
pub fn scenario(rng: &mut Rng, corpus: &Corpus) -> String {
    let text = |rng: &mut Rng| {
        format!(
            "{{ en: {}, zh: {} }}",
            scalar(rng, corpus),
            scalar(rng, corpus)
        )
    };
    let mut s = format!(
        "id: {}\ntitle: {}\ndescription: {}\n",
        {
            let v = pick(rng, &["fuzz", "a-b-1", "", "Fuzz", "ü", "x y"]);
            yaml_scalar(rng, v)
        },
        text(rng),
        text(rng)
    );
    if chance(rng, 50) {
        s.push_str(&format!("seed: {}\n", number(rng)));
    }
    if chance(rng, 30) {
        s.push_str(&format!("ordered: {}\n", scalar(rng, corpus)));
    }
    s.push_str("cluster:\n  nodes:\n");
    // Now and then many nodes: the loader's own bound is 5000.
    let nodes = match rng.below(50) {
        0 => pick(rng, &[0u64, 5_000, 5_001]).to_owned(),
        1 => rng.below(300),
        _ => 1 + rng.below(4),
    };
    for i in 0..nodes {
        s.push_str(&format!("    - {{ name: node-{i}"));
        if chance(rng, 40) {
            s.push_str(&format!(", cpu: {}", {
                let v = quantity(rng);
                yaml_scalar(rng, &v)
            }));
        }
        if chance(rng, 40) {
            s.push_str(&format!(", memory: {}", {
                let v = quantity(rng);
                yaml_scalar(rng, &v)
            }));
        }
        if chance(rng, 20) {
            s.push_str(&format!(", pods: {}", number(rng)));
        }
        if chance(rng, 20) {
            s.push_str(&format!(", zone: {}", scalar(rng, corpus)));
        }
        if chance(rng, 10) {
            s.push_str(&format!(
                ", labels: {{ {}: {} }}",
                scalar(rng, corpus),
                scalar(rng, corpus)
            ));
        }
        if chance(rng, 10) {
            s.push_str(&format!(", taints: [{}]", {
                let v = value_of(rng, corpus, Val::Taint);
                yaml_scalar(rng, &v)
            }));
        }
        s.push_str(" }\n");
    }
    if chance(rng, 80) {
        s.push_str("setup: |\n");
        for l in script(rng, corpus).lines() {
            s.push_str(&format!("  {l}\n"));
        }
    }
    if chance(rng, 60) {
        s.push_str("steps:\n");
        for _ in 0..1 + rng.below(3) {
            s.push_str(&format!("  - text: {}\n", text(rng)));
            let cmd = command_line(rng, corpus).replace("deployment/", "deployment/{pod:app=");
            s.push_str(&format!("    command: {}\n", yaml_scalar(rng, &cmd)));
            if chance(rng, 30) {
                s.push_str(&format!("    wait: {}\n", {
                    let v = duration(rng);
                    yaml_scalar(rng, &v)
                }));
            }
            if chance(rng, 20) {
                s.push_str(&format!(
                    "    expect: {}\n",
                    pick(rng, &["error", "ok", ""])
                ));
            }
        }
    }
    if chance(rng, 60) {
        s.push_str("goals:\n");
        for _ in 0..1 + rng.below(3) {
            let expect = format!(
                "{}/{} {} {} {}",
                pick(rng, RESOURCES),
                name(rng, corpus),
                pick(rng, JSONPATHS),
                pick(rng, &["==", ">=", "=~", "<>"]),
                number(rng)
            );
            s.push_str(&format!(
                "  - label: {}\n    expect: {}\n",
                text(rng),
                yaml_scalar(rng, &expect)
            ));
        }
    }
    if chance(rng, 30) {
        s.push_str(&format!("timeout: {}\n", {
            let v = duration(rng);
            yaml_scalar(rng, &v)
        }));
    }
    s
}

/// Times for a share link's journal: in order mostly, at the week's bound, past it,
/// or backwards.
fn link_time(rng: &mut Rng, at: &mut u64) -> String {
    match rng.below(20) {
        0 => pick(
            rng,
            &[
                "604800000",
                "604800001",
                "18446744073709551615",
                "-1",
                "1e309",
                "0.5",
                "\"1\"",
                "null",
            ],
        )
        .to_string(),
        1 => rng.below(1_000).to_string(),
        _ => {
            *at += rng.below(120_000);
            at.to_string()
        }
    }
}

/// A share link's JSON: a version, maybe a scenario, a journal of acts, the time.
fn session_json(rng: &mut Rng, corpus: &Corpus) -> String {
    let mut at = 0u64;
    let mut parts = vec![format!(
        "\"v\":{}",
        if chance(rng, 90) {
            "1".to_string()
        } else {
            number(rng)
        }
    )];
    match rng.below(6) {
        0 => {
            let ids: Vec<&str> = crate::scenario::BUILTIN.iter().map(|(i, _)| *i).collect();
            let id = if chance(rng, 80) {
                pick(rng, &ids).to_string()
            } else {
                name(rng, corpus)
            };
            parts.push(format!(
                "\"scenario\":{{\"id\":{}}}",
                serde_json::Value::from(id)
            ));
        }
        1 => {
            let yaml = if chance(rng, 50) && !corpus.scenarios.is_empty() {
                pick(rng, &corpus.scenarios).clone()
            } else {
                scenario(rng, corpus)
            };
            parts.push(format!(
                "\"scenario\":{{\"yaml\":{}}}",
                serde_json::Value::from(yaml)
            ));
        }
        _ => {}
    }
    let mut acts = Vec::new();
    for _ in 0..rng.below(6) {
        let t = link_time(rng, &mut at);
        let act = match rng.below(6) {
            0 => "\"p\"".to_string(),
            1 => "\"i\"".to_string(),
            2 => "\"s\"".to_string(),
            _ => format!("{{\"r\":{}}}", serde_json::Value::from(script(rng, corpus))),
        };
        acts.push(format!("[{t},{act}]"));
    }
    parts.push(format!("\"journal\":[{}]", acts.join(",")));
    at += rng.below(600_000);
    let now = if chance(rng, 90) {
        at.to_string()
    } else {
        link_time(rng, &mut at)
    };
    parts.push(format!("\"now\":{now}"));
    format!("{{{}}}", parts.join(","))
}

/// A page address: query options, then a `#s=` share link, a `#scenario=` link, or
/// neither.
pub fn link(rng: &mut Rng, corpus: &Corpus) -> String {
    let mut query = Vec::new();
    for _ in 0..rng.below(4) {
        let (k, v): (&str, String) = match rng.below(9) {
            0 => (
                "speed",
                pick(
                    rng,
                    &["0.5", "30", "1e309", "-1", "NaN", "0", "x", "2x", "5×"],
                )
                .to_string(),
            ),
            1 => (
                "lang",
                pick(rng, &["zh", "en", "zh-CN", "", "🦀"]).to_string(),
            ),
            2 => ("height", number(rng)),
            3 => (
                "panels",
                pick(rng, &["chain,board", "", ",,,", "goals"]).to_string(),
            ),
            4 => ("embed", pick(rng, &["1", "0", "true"]).to_string()),
            5 => ("readonly", "1".to_string()),
            6 => ("autoplay", "0".to_string()),
            7 => ("allowOrigins", "https://a.example/,".to_string()),
            _ => ("scenario", name(rng, corpus)),
        };
        query.push(format!("{k}={v}"));
    }
    let hash = match rng.below(10) {
        0..=5 => {
            let json = session_json(rng, corpus);
            format!(
                "s={}",
                crate::lz::compress_to_uri(&mutate_maybe(rng, corpus, json))
            )
        }
        6 | 7 => {
            let yaml = if chance(rng, 50) && !corpus.scenarios.is_empty() {
                {
                    let seed = pick(rng, &corpus.scenarios).clone();
                    mutate(rng, corpus, seed)
                }
            } else {
                scenario(rng, corpus)
            };
            format!("scenario={}", crate::lz::compress_to_uri(&yaml))
        }
        8 => format!(
            "s={}",
            (0..rng.below(200))
                .map(|_| char::from(b"ABCxyz019+-$ !%"[rng.below(15) as usize]))
                .collect::<String>()
        ),
        _ => String::new(),
    };
    let mut out = String::new();
    if !query.is_empty() {
        out.push('?');
        out.push_str(&query.join("&"));
    }
    if !hash.is_empty() {
        out.push('#');
        out.push_str(&hash);
    }
    // Damage the compressed stream itself sometimes: the decoder's own input.
    if chance(rng, 15) {
        out = mutate(rng, corpus, out);
    }
    out
}

fn mutate_maybe(rng: &mut Rng, corpus: &Corpus, s: String) -> String {
    if chance(rng, 20) {
        mutate(rng, corpus, s)
    } else {
        s
    }
}

/// The character boundaries of `s` (its char indices, and its length).
fn boundaries(s: &str) -> Vec<usize> {
    s.char_indices().map(|(i, _)| i).chain([s.len()]).collect()
}

/// A random char-boundary range of `s`, at most `max` bytes long (roughly).
fn range(rng: &mut Rng, s: &str, max: usize) -> (usize, usize) {
    let b = boundaries(s);
    let i = rng.below(b.len() as u64) as usize;
    let span = 1 + rng.below(max.max(1) as u64) as usize;
    let j = b[i..]
        .iter()
        .copied()
        .take_while(|&x| x - b[i] <= span)
        .last()
        .unwrap_or(b[i]);
    (b[i], j)
}

/// Numbers and words of `s` (their byte ranges): what a token mutation replaces.
fn tokens(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices().chain([(s.len(), ' ')]) {
        let word = c.is_alphanumeric() || c == '.' || c == '-';
        match (start, word) {
            (None, true) => start = Some(i),
            (Some(st), false) => {
                out.push((st, i));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// Apply one to four mutations: replace a token (a number by a hostile one, a word by
/// a vocabulary word), delete, duplicate or swap ranges, insert hostile text, repeat a
/// line, splice in part of another seed, truncate.
pub fn mutate(rng: &mut Rng, corpus: &Corpus, mut s: String) -> String {
    for _ in 0..1 + rng.below(4) {
        match rng.below(10) {
            0 | 1 => {
                let t = tokens(&s);
                if let Some(&(a, b)) = (!t.is_empty()).then(|| pick(rng, &t)) {
                    let numeric = s[a..b].chars().next().is_some_and(|c| c.is_ascii_digit());
                    let with = match rng.below(3) {
                        0 if numeric => number(rng),
                        0 => pick(rng, FIELDS).to_string(),
                        1 => pick(rng, HOSTILE).to_string(),
                        _ => name(rng, corpus),
                    };
                    s.replace_range(a..b, &with);
                }
            }
            2 => {
                let (a, b) = range(rng, &s, 64);
                s.replace_range(a..b, "");
            }
            3 => {
                let (a, b) = range(rng, &s, 64);
                let piece = s[a..b].repeat(1 + rng.below(8) as usize);
                s.insert_str(b, &piece);
            }
            4 => {
                let (a, _) = range(rng, &s, 0);
                let with = pick(rng, HOSTILE);
                s.insert_str(a, with);
            }
            5 => {
                let lines: Vec<&str> = s.split_inclusive('\n').collect();
                if !lines.is_empty() {
                    let i = rng.below(lines.len() as u64) as usize;
                    let times = *pick(rng, &[2usize, 3, 10, 100]);
                    let mut out: String = lines[..i].concat();
                    out.push_str(&lines[i].repeat(times));
                    out.push_str(&lines[i..].concat());
                    s = out;
                }
            }
            6 => {
                // Splice: a piece of another seed of any kind.
                let pool: Vec<&String> = corpus
                    .scripts
                    .iter()
                    .chain(&corpus.manifests)
                    .chain(&corpus.scenarios)
                    .collect();
                if !pool.is_empty() {
                    let other = *pick(rng, &pool);
                    let (a, b) = range(rng, other, 400);
                    let (at, _) = range(rng, &s, 0);
                    s.insert_str(at, &other[a..b]);
                }
            }
            7 => {
                // Indentation and line ends matter to YAML and heredocs.
                let (at, _) = range(rng, &s, 0);
                let with = pick(
                    rng,
                    &[
                        "\n", "\t", "  ", "\r\n", "\n---\n", ": ", "- ", "\\\n", "EOF\n",
                    ],
                );
                s.insert_str(at, with);
            }
            8 => {
                let (a, _) = range(rng, &s, 0);
                s.truncate(a);
            }
            _ => {
                let (a, b) = range(rng, &s, 16);
                let (c, d) = range(rng, &s, 16);
                if b <= c {
                    let (x, y) = (s[a..b].to_string(), s[c..d].to_string());
                    s.replace_range(c..d, &x);
                    s.replace_range(a..b, &y);
                }
            }
        }
        // Bounded after every mutation, not once at the end: four line repeats of a
        // hundred each would make a 64 KiB input 6 TB (a run of the link target was
        // killed for it, in this generator, before any input ran).
        truncate_to_max(&mut s);
    }
    s
}

/// Cut `s` at the last character boundary within [`MAX_INPUT`] bytes.
fn truncate_to_max(s: &mut String) {
    if s.len() > MAX_INPUT {
        let mut cut = MAX_INPUT;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
    }
}

/// The seeded source of one target's inputs.
pub struct Generator<'a> {
    kind: Kind,
    corpus: &'a Corpus,
    rng: Rng,
}

impl<'a> Generator<'a> {
    /// Inputs for `kind`, seeded with `seed` (mixed with the kind, so `--target all`
    /// gives each target its own stream, the same as when run alone).
    pub fn new(kind: Kind, corpus: &'a Corpus, seed: u64) -> Self {
        let salt = match kind {
            Kind::Manifest => 0x6d61_6e69,
            Kind::Command => 0x636f_6d6d,
            Kind::Scenario => 0x7363_656e,
            Kind::Link => 0x6c69_6e6b,
        };
        Generator {
            kind,
            corpus,
            rng: Rng::new(seed ^ salt),
        }
    }

    /// The next input: half the time a mutated seed, half the time generated from the
    /// grammar (and then sometimes mutated as well).
    pub fn next_input(&mut self) -> String {
        let (rng, corpus) = (&mut self.rng, self.corpus);
        let seeds = match self.kind {
            Kind::Manifest => &corpus.manifests,
            Kind::Command => &corpus.scripts,
            Kind::Scenario => &corpus.scenarios,
            Kind::Link => &corpus.scenarios,
        };
        if self.kind != Kind::Link && !seeds.is_empty() && chance(rng, 50) {
            let seed = pick(rng, seeds).clone();
            return mutate(rng, corpus, seed);
        }
        let fresh = match self.kind {
            Kind::Manifest => manifest(rng, corpus),
            Kind::Command => script(rng, corpus),
            Kind::Scenario => scenario(rng, corpus),
            Kind::Link => return link(rng, corpus),
        };
        mutate_maybe(rng, corpus, fresh)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_inputs_and_another_seed_other_ones() {
        let corpus = Corpus::builtin();
        for kind in [Kind::Manifest, Kind::Command, Kind::Scenario, Kind::Link] {
            let take = |seed| {
                let mut g = Generator::new(kind, &corpus, seed);
                (0..50).map(|_| g.next_input()).collect::<Vec<_>>()
            };
            assert_eq!(take(7), take(7), "{}", kind.name());
            assert_ne!(take(7), take(8), "{}", kind.name());
        }
    }

    #[test]
    fn mutations_keep_char_boundaries_and_the_size_bound() {
        let corpus = Corpus::builtin();
        let mut rng = Rng::new(3);
        let mut s = "名前: 🦀\nkubectl get pods\n".to_string();
        for _ in 0..2_000 {
            s = mutate(&mut rng, &corpus, s);
            assert!(s.len() <= MAX_INPUT);
            if s.is_empty() {
                s = "é🦀x\n".into();
            }
        }
    }

    #[test]
    fn repeated_line_repeats_of_a_full_size_input_stay_within_the_bound_at_every_step() {
        // One 64 KiB line: before the bound applied per mutation, repeats of it could
        // ask for terabytes within a single call.
        let corpus = Corpus::builtin();
        for seed in 0..64 {
            let mut rng = Rng::new(seed);
            let s = mutate(&mut rng, &corpus, "x".repeat(MAX_INPUT));
            assert!(s.len() <= MAX_INPUT);
        }
    }
}
