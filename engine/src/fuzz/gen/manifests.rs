//! The manifest target's generator: documents of real kinds with hostile values, and
//! YAML that stresses the parser itself.

use super::corpus::Corpus;
use super::draw::*;
use super::vocab::*;
use crate::rng::Rng;

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
    kind_fields(rng, corpus, kind, &mut d);
    if chance(rng, 40) {
        d.push_str(&format!("{}:", pick(rng, FIELDS)));
        yaml_value(rng, corpus, 2, 4, &mut d);
    }
    d
}

/// The fields of `kind`'s own type, in place, with hostile values.
fn kind_fields(rng: &mut Rng, corpus: &Corpus, kind: &str, d: &mut String) {
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
}

/// YAML that stresses the parser itself: deep nesting, alias expansion (nested lists,
/// and one long scalar aliased many times), tags, directives, odd line ends, and now
/// and then a body near or past the API server's object size limit (1.5 MiB).
fn chaos_yaml(rng: &mut Rng) -> String {
    let deep = 1 + rng.below(2_000) as usize;
    match rng.below(10) {
        8 => {
            let (anchor, aliases) = aliased_scalar(rng, "s");
            format!(
                "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {{a: {anchor}}}\nspec:\n  containers:\n  - name: c\n    image: nginx\n    args: {aliases}\n"
            )
        }
        9 => {
            // A ConfigMap of 1.4 to 1.6 MiB: either side of etcd's limit.
            let size = 1_400_000 + rng.below(300_000) as usize;
            format!(
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  blob: {}\n",
                "x".repeat(size)
            )
        }
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
