//! `kubectl expose` and `kubectl create service clusterip|nodeport|loadbalancer|
//! externalname`: the two ways kubectl builds a Service.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/expose/expose.go` (`RunExpose`,
//! `createService`), `pkg/polymorphichelpers` (`CanBeExposed`,
//! `MapBasedSelectorForObject`, `PortsForObject`, `MultiProtocolsForObject`) and
//! `pkg/cmd/create/create_service.go` (`parsePorts`, `createService`).

use super::util::{api, key_for, namespace, NS, R};
use crate::api::*;
use crate::cluster::Cluster;
use crate::command::args::{flag, parse_flags, FlagSpec, Parsed};
use crate::command::client::Client;
use crate::printers::qualified_name;

/// How the new Service is reported: `-o yaml|name`, or the `created`/`exposed` line.
struct Report<'a> {
    client: &'a Client,
    format: Option<&'a str>,
    client_dry_run: bool,
    verb: &'static str,
}

/// Send the Service (unless a client dry run) and report it: a client dry run prints
/// the object as kubectl built it, otherwise the server's.
fn send(
    c: &mut Cluster,
    svc: Service,
    client: serde_json::Value,
    r: &Report<'_>,
) -> Result<String, ApiFailure> {
    let key = key_for(Kind::Service, &svc.metadata.namespace, &svc.metadata.name);
    let qn = qualified_name(Kind::Service, &key.name);
    let mut sent = None;
    if !r.client_dry_run {
        sent = r
            .client
            .create(c, svc.into())
            .map_err(ApiFailure::Api)?
            .object;
    }
    let shown = match sent {
        Some(o) if !r.client_dry_run => super::util::served(c, o.to_json()),
        _ => client,
    };
    // A dry run's " (dry run)" is added where every verb's is.
    let go_type = crate::printers::go_json::root_type(Kind::Service);
    super::print_flags::report_typed(r.format, &go_type, &shown, &qn, r.verb)
        .map_err(ApiFailure::Print)
}

/// Why a Service was not reported: the API server refused it (each command words
/// that its own way), or the printer failed (its error as it is).
enum ApiFailure {
    Api(crate::apiserver::ApiError),
    Print(String),
}

/// `metadata` of a generated object (`creationTimestamp: null`, labels, name, and the
/// namespace when -n gave it).
fn client_meta(name: &str, labels: &StringMap, ns: Option<&str>) -> serde_json::Value {
    let mut m = serde_json::json!({"creationTimestamp": null, "name": name});
    if !labels.is_empty() {
        m["labels"] = serde_json::json!(labels);
    }
    if let Some(ns) = ns {
        m["namespace"] = ns.into();
    }
    m
}

/// A Service port as kubectl's generators write it (no defaults the server adds).
fn client_port(p: &ServicePort) -> serde_json::Value {
    let mut v = serde_json::json!({"port": p.port, "protocol": p.protocol});
    if !p.name.is_empty() {
        v["name"] = p.name.clone().into();
    }
    if let Some(t) = &p.target_port {
        v["targetPort"] = match t {
            IntOrString::Int(n) => serde_json::json!(n),
            IntOrString::String(s) => serde_json::json!(s),
        };
    }
    if p.node_port != 0 {
        v["nodePort"] = p.node_port.into();
    }
    v
}

/// `kubectl create service TYPE NAME [--tcp=port:targetPort …]` (`create_service.go`).
/// `p.args` is `[service, TYPE, NAME…]`.
pub(super) fn create_service(
    c: &mut Cluster,
    k: &Client,
    p: &Parsed,
    ns: &str,
    format: Option<&str>,
    client_dry_run: bool,
    explicit_ns: bool,
) -> R {
    let Some(sub) = p.args.get(1).map(String::as_str) else {
        return Err(include_str!("help/create-service.txt")
            .trim_end()
            .to_string());
    };
    let type_ = match sub {
        "clusterip" => "ClusterIP",
        "nodeport" => "NodePort",
        "loadbalancer" => "LoadBalancer",
        "externalname" => "ExternalName",
        other => {
            return Err(format!(
                "error: unknown command \"{other}\" for \"kubectl create service\""
            ))
        }
    };
    // Flags another subcommand has are unknown here (cobra).
    let allowed: &[&str] = match sub {
        "clusterip" => &["tcp", "clusterip"],
        "nodeport" => &["tcp", "node-port"],
        "loadbalancer" => &["tcp"],
        _ => &["external-name"],
    };
    for f in ["tcp", "clusterip", "node-port", "external-name"] {
        if p.get(f).is_some() && !allowed.contains(&f) {
            return Err(format!(
                "Error: unknown flag: --{f}\nSee 'kubectl create service {sub} --help' for usage."
            ));
        }
    }
    if sub == "externalname" && p.get("external-name").is_none() {
        return Err(super::required_flag("external-name"));
    }
    let names = &p.args[2..];
    if names.len() != 1 {
        return Err(format!(
            "error: exactly one NAME is required, got {}\nSee 'kubectl create service {sub} -h' for help and examples",
            names.len()
        ));
    }
    let name = &names[0];
    let cluster_ip = p.get("clusterip").unwrap_or_default();
    let external_name = p.get("external-name").unwrap_or_default();
    // Validate().
    let tcp: Vec<&str> = p.slice("tcp");
    if tcp.is_empty() && cluster_ip != "None" && type_ != "ExternalName" {
        return Err("error: at least one tcp port specifier must be provided".into());
    }
    if type_ == "ExternalName"
        && crate::apiserver::validation::dns1123_subdomain_error(external_name).is_some()
    {
        return Err(format!(
            "error: invalid service external name {external_name}"
        ));
    }
    let node_port: i64 = match p.get("node-port") {
        Some(v) => v.parse::<i32>().map(i64::from).map_err(|_| {
            format!("error: invalid argument \"{v}\" for \"--node-port\" flag: strconv.ParseInt: parsing \"{v}\": invalid syntax")
        })?,
        None => 0,
    };
    let mut ports = Vec::new();
    for spec in &tcp {
        ports.push(parse_port(spec, node_port)?);
    }
    let labels: StringMap = [("app".to_string(), name.clone())].into();
    let mut svc = Service {
        metadata: ObjectMeta {
            name: name.clone(),
            namespace: ns.to_string(),
            labels: labels.clone(),
            ..Default::default()
        },
        spec: ServiceSpec {
            ports,
            selector: Some(labels.clone()),
            type_: type_.into(),
            cluster_ip: cluster_ip.to_string(),
            ..Default::default()
        },
        status: Default::default(),
    };
    if !external_name.is_empty() {
        svc.spec
            .extra
            .insert("externalName".into(), external_name.into());
    }
    let mut cspec = serde_json::json!({
        "selector": labels,
        "type": type_,
    });
    if !svc.spec.ports.is_empty() {
        cspec["ports"] = svc.spec.ports.iter().map(client_port).collect();
    }
    if !cluster_ip.is_empty() {
        cspec["clusterIP"] = cluster_ip.into();
    }
    if !external_name.is_empty() {
        cspec["externalName"] = external_name.into();
    }
    let client = serde_json::json!({
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": client_meta(name, &labels, explicit_ns.then_some(ns)),
        "spec": cspec,
        "status": {"loadBalancer": {}},
    });
    let report = Report {
        client: k,
        format,
        client_dry_run,
        verb: "created",
    };
    // kubectl wraps the server's refusal: "failed to create ClusterIP service: …".
    send(c, svc, client, &report).map_err(|f| match f {
        ApiFailure::Api(e) => format!("error: failed to create {type_} service: {}", e.message),
        ApiFailure::Print(text) => text,
    })
}

/// `parsePorts` of one `--tcp` value: `port[:targetPort]`, named after the text with
/// each `:` made `-`.
fn parse_port(spec: &str, node_port: i64) -> Result<ServicePort, String> {
    let parts: Vec<&str> = spec.split(':').collect();
    // utilsnet.ParsePort(s, allowZero): strconv.ParseUint's own errors.
    let port: i64 = match parts[0].parse::<u64>() {
        Ok(n) if n <= 65535 => n as i64,
        Ok(_) => {
            return Err(format!(
                "error: strconv.ParseUint: parsing \"{}\": value out of range",
                parts[0]
            ))
        }
        Err(_) if !parts[0].is_empty() && parts[0].bytes().all(|b| b.is_ascii_digit()) => {
            return Err(format!(
                "error: strconv.ParseUint: parsing \"{}\": value out of range",
                parts[0]
            ))
        }
        Err(_) => {
            return Err(format!(
                "error: strconv.ParseUint: parsing \"{}\": invalid syntax",
                parts[0]
            ))
        }
    };
    let target = match parts.get(1) {
        None => IntOrString::Int(port),
        Some(t) => match t.parse::<i64>() {
            Ok(n) => {
                if !(1..=65535).contains(&n) {
                    return Err("error: must be between 1 and 65535, inclusive".into());
                }
                IntOrString::Int(n)
            }
            Err(_) => {
                let errs = crate::apiserver::validation::port_name_errors(t);
                if !errs.is_empty() {
                    return Err(format!("error: {}", errs.join(",")));
                }
                IntOrString::String(t.to_string())
            }
        },
    };
    Ok(ServicePort {
        name: spec.replace(':', "-"),
        protocol: "TCP".into(),
        port,
        target_port: Some(target),
        node_port,
        ..Default::default()
    })
}

const EXPOSE_FLAGS: &[FlagSpec] = &[
    flag("filename", Some('f')),
    flag("output", Some('o')),
    NS,
    flag("port", None),
    flag("target-port", None),
    flag("protocol", None),
    flag("name", None),
    flag("type", None),
    flag("selector", None),
    flag("labels", Some('l')),
    flag("cluster-ip", None),
    flag("external-ip", None),
    flag("load-balancer-ip", None),
    flag("session-affinity", None),
];

/// `kubectl expose (TYPE NAME | TYPE/NAME) [--port=…] [--target-port=…] [--name=…]
/// [--type=…] …`: a Service selecting the exposed object's Pods.
pub(super) fn expose(c: &mut Cluster, k: &Client, words: &[String], client_dry_run: bool) -> R {
    let p = parse_flags(words, EXPOSE_FLAGS, "kubectl expose")?;
    let ns = namespace(&p);
    let format = super::print_flags::inline(p.get("output"), &crate::command::NoFiles)?;
    let format = format.as_deref();
    if p.args.is_empty() {
        return Err("error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'".into());
    }
    let targets = if p.args.iter().any(|a| a.contains('/')) {
        super::util::targets(&p.args)?
    } else {
        let kind = super::util::kind_arg(&p.args[0])?;
        if p.args.len() < 2 {
            return Err("error: resource(s) were provided, but no name was specified".into());
        }
        p.args[1..].iter().map(|n| (kind, n.clone())).collect()
    };
    let mut out = Vec::new();
    for (kind, name) in targets {
        let key = key_for(kind, &ns, &name);
        let obj = (*k.get(c, kind, &key.namespace, &key.name).map_err(api)?).clone();
        out.push(expose_one(c, k, &p, &ns, &obj, format, client_dry_run)?);
    }
    Ok(out.join("\n"))
}

/// `MapBasedSelectorForObject`.
fn selector_for(obj: &Object) -> Result<StringMap, String> {
    let deployment_like = |what: &str, s: &LabelSelector| {
        if !s.match_expressions.is_empty() {
            let exprs: Vec<String> = s
                .match_expressions
                .iter()
                .map(|e| {
                    format!(
                        "{{Key:{} Operator:{} Values:[{}]}}",
                        e.key,
                        e.operator,
                        e.values.join(" ")
                    )
                })
                .collect();
            return Err(format!(
                "couldn't convert expressions - \"[{}]\" to map-based selector format",
                exprs.join(" ")
            ));
        }
        if s.match_labels.is_empty() {
            return Err(format!(
                "invalid {what}: no selectors, therefore cannot be exposed"
            ));
        }
        Ok(s.match_labels.clone())
    };
    match obj {
        Object::Pod(p) if p.metadata.labels.is_empty() => {
            Err("the pod has no labels and cannot be exposed".into())
        }
        Object::Pod(p) => Ok(p.metadata.labels.clone()),
        Object::Service(s) => s
            .spec
            .selector
            .clone()
            .ok_or_else(|| "the service has no pod selector set".to_string()),
        Object::Deployment(d) => deployment_like("deployment", &d.spec.selector),
        Object::ReplicaSet(r) => deployment_like("replicaset", &r.spec.selector),
        _ => Err(String::new()),
    }
}

/// `PortsForObject` and `MultiProtocolsForObject`: the container ports (deduplicated
/// by number, in container order) and each number's protocols (not deduplicated).
fn ports_for(obj: &Object) -> (Vec<String>, Vec<(String, Vec<String>)>) {
    let from_spec = |spec: &PodSpec| {
        let mut ports: Vec<String> = Vec::new();
        let mut protocols: Vec<(String, Vec<String>)> = Vec::new();
        for ct in &spec.containers {
            for cp in &ct.ports {
                let n = cp.container_port.to_string();
                if !ports.contains(&n) {
                    ports.push(n.clone());
                }
                let proto = if cp.protocol.is_empty() {
                    "TCP".to_string()
                } else {
                    cp.protocol.clone()
                };
                match protocols.iter_mut().find(|(k, _)| *k == n) {
                    Some((_, v)) => v.push(proto),
                    None => protocols.push((n, vec![proto])),
                }
            }
        }
        (ports, protocols)
    };
    match obj {
        Object::Pod(p) => from_spec(&p.spec),
        Object::Deployment(d) => from_spec(&d.spec.template.spec),
        Object::ReplicaSet(r) => from_spec(&r.spec.template.spec),
        Object::Service(s) => {
            let mut ports: Vec<String> = Vec::new();
            let mut protocols: Vec<(String, Vec<String>)> = Vec::new();
            for sp in &s.spec.ports {
                let n = sp.port.to_string();
                if !ports.contains(&n) {
                    ports.push(n.clone());
                }
                match protocols.iter_mut().find(|(k, _)| *k == n) {
                    Some((_, v)) => v.push(sp.protocol.clone()),
                    None => protocols.push((n, vec![sp.protocol.clone()])),
                }
            }
            (ports, protocols)
        }
        _ => (vec![], vec![]),
    }
}

/// `parseLabels`: `k=v,k2=v2`.
fn parse_labels(s: &str) -> Result<StringMap, String> {
    let mut m = StringMap::new();
    for item in s.split(',') {
        let kv: Vec<&str> = item.split('=').collect();
        if kv.len() != 2 {
            return Err(format!("error: unexpected label spec: {item}"));
        }
        if kv[0].is_empty() {
            return Err("error: unexpected empty label key".into());
        }
        m.insert(kv[0].to_string(), kv[1].to_string());
    }
    Ok(m)
}

#[allow(clippy::too_many_arguments)]
fn expose_one(
    c: &mut Cluster,
    k: &Client,
    p: &Parsed,
    ns: &str,
    obj: &Object,
    format: Option<&str>,
    client_dry_run: bool,
) -> R {
    can_be_exposed(obj)?;
    let meta = obj.meta();
    let name: String = match p.get("name") {
        Some(n) => n.to_string(),
        None => meta.name.chars().take(63).collect(),
    };
    let selector = match p.get("selector") {
        Some(s) => parse_labels(s)?,
        None => selector_for(obj).map_err(|e| {
            format!("error: couldn't retrieve selectors via --selector flag or introspection: {e}")
        })?,
    };
    let cluster_ip = p.get("cluster-ip").unwrap_or_default();
    let headless = cluster_ip == "None";
    let (intro_ports, protocols) = ports_for(obj);
    let port_string = match p.get("port") {
        Some(v) => v.to_string(),
        None => {
            if intro_ports.is_empty() && !headless {
                return Err("error: couldn't find port via --port flag or introspection".into());
            }
            intro_ports.join(",")
        }
    };
    let labels = match p.get("labels") {
        Some(l) => parse_labels(l)?,
        None => meta.labels.clone(),
    };
    if selector.is_empty() {
        return Err("error: selector must be specified".into());
    }
    let affinity = p.get("session-affinity").unwrap_or_default();
    if !affinity.is_empty() && affinity != "None" && affinity != "ClientIP" {
        return Err(format!("error: unknown session affinity: {affinity}"));
    }
    let ports = service_ports(p, &port_string, &protocols)?;
    let type_ = p.get("type").unwrap_or_default().to_string();
    let mut svc = Service {
        metadata: ObjectMeta {
            name: name.clone(),
            namespace: ns.to_string(),
            labels: labels.clone(),
            ..Default::default()
        },
        spec: ServiceSpec {
            ports,
            selector: Some(selector.clone()),
            cluster_ip: cluster_ip.to_string(),
            type_: type_.clone(),
            session_affinity: affinity.to_string(),
            external_ips: p
                .get("external-ip")
                .map(|ip| vec![ip.to_string()])
                .unwrap_or_default(),
            ..Default::default()
        },
        status: Default::default(),
    };
    let lb_ip = p.get("load-balancer-ip").unwrap_or_default();
    if type_ == "LoadBalancer" && !lb_ip.is_empty() {
        svc.spec.extra.insert("loadBalancerIP".into(), lb_ip.into());
    }
    let client = serde_json::json!({
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": client_meta(&name, &labels, None),
        "spec": client_spec(&svc, &selector, lb_ip),
        "status": {"loadBalancer": {}},
    });
    let report = Report {
        client: k,
        format,
        client_dry_run,
        verb: "exposed",
    };
    send(c, svc, client, &report).map_err(|f| match f {
        ApiFailure::Api(e) => api(e),
        ApiFailure::Print(text) => text,
    })
}

/// `CanBeExposed`: a Pod, a Service, a Deployment or a ReplicaSet.
fn can_be_exposed(obj: &Object) -> Result<(), String> {
    if matches!(
        obj,
        Object::Pod(_) | Object::Service(_) | Object::Deployment(_) | Object::ReplicaSet(_)
    ) {
        return Ok(());
    }
    let kind = obj.kind();
    let gk = match kind.api_version().split_once('/') {
        Some((g, _)) => format!("{}.{g}", kind.name()),
        None => kind.name().to_string(),
    };
    Err(format!("error: cannot expose a {gk}"))
}

/// The Service's ports, as the generator makes them from `port_string` (`80,443`):
/// each named `port-N` when there are several, targeting `--target-port` or itself, with
/// `--protocol` or the protocols the exposed object declares for it (one port per
/// protocol, `port-N-proto`, when it declares several).
fn service_ports(
    p: &Parsed,
    port_string: &str,
    protocols: &[(String, Vec<String>)],
) -> Result<Vec<ServicePort>, String> {
    let entries: Vec<&str> = if port_string.is_empty() {
        vec![]
    } else {
        port_string.split(',').collect()
    };
    let target = p.get("target-port").map(|t| match t.parse::<i32>() {
        Ok(n) => IntOrString::Int(i64::from(n)),
        Err(_) => IntOrString::String(t.to_string()),
    });
    let mut ports = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let port: i64 = e
            .parse::<i64>()
            .ok()
            .filter(|n| i64::from(*n as i32) == *n)
            .ok_or_else(|| format!("error: strconv.Atoi: parsing \"{e}\": invalid syntax"))?;
        let name = if entries.len() > 1 {
            format!("port-{}", i + 1)
        } else {
            String::new()
        };
        let target = target.clone().unwrap_or(IntOrString::Int(port));
        let protos: Vec<String> = match p.get("protocol") {
            Some(pr) => vec![pr.to_string()],
            None => protocols
                .iter()
                .find(|(k, _)| k == e)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| vec!["TCP".into()]),
        };
        if protos.len() > 1 {
            for pr in &protos {
                ports.push(ServicePort {
                    name: format!("port-{}-{}", i + 1, pr.to_lowercase()),
                    protocol: pr.clone(),
                    port,
                    target_port: Some(target.clone()),
                    ..Default::default()
                });
            }
        } else {
            ports.push(ServicePort {
                name,
                protocol: protos[0].clone(),
                port,
                target_port: Some(target),
                ..Default::default()
            });
        }
    }
    Ok(ports)
}

/// The Service's spec as kubectl sends it (only the fields it set), for the printed
/// object of a client-side dry run.
fn client_spec(svc: &Service, selector: &StringMap, lb_ip: &str) -> serde_json::Value {
    let mut cspec = serde_json::json!({"selector": selector});
    if !svc.spec.ports.is_empty() {
        cspec["ports"] = svc.spec.ports.iter().map(client_port).collect();
    }
    for (k, v) in [
        ("clusterIP", svc.spec.cluster_ip.as_str()),
        ("type", svc.spec.type_.as_str()),
        ("sessionAffinity", svc.spec.session_affinity.as_str()),
    ] {
        if !v.is_empty() {
            cspec[k] = v.into();
        }
    }
    if !svc.spec.external_ips.is_empty() {
        cspec["externalIPs"] = serde_json::json!(svc.spec.external_ips);
    }
    if svc.spec.type_ == "LoadBalancer" && !lb_ip.is_empty() {
        cspec["loadBalancerIP"] = lb_ip.into();
    }
    cspec
}
