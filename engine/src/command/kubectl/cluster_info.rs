//! `kubectl cluster-info [-n NS]`: where the control plane and the cluster's
//! services (`kubernetes.io/cluster-service=true` in kube-system) are reached.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/clusterinfo/clusterinfo.go`
//! (`ClusterInfoOptions.Run`: one list of Services by that label; a Service with a load
//! balancer is linked by its ingress, any other through the API server's proxy,
//! `<scheme>:<name>:<port name>` as `utilnet.JoinSchemeNamePort` writes it).

use super::util::{api, R};
use crate::api::*;
use crate::apiserver::selectors::parse_label_selector;
use crate::apiserver::API_SERVER_HOST_PORT;
use crate::cluster::Cluster;
use crate::command::args::{flag, parse_flags};
use crate::command::client::Client;

/// `kubectl cluster-info`.
pub(super) fn cluster_info(c: &mut Cluster, k: &Client, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[flag("namespace", Some('n'))],
        "kubectl cluster-info",
    )?;
    // Other arguments are ignored, as cobra ignores them for a command with
    // subcommands.
    if p.args.first().is_some_and(|a| a == "dump") {
        return Err("error: kubeplay does not write `cluster-info dump`: use `kubectl get` and `kubectl describe` on what you want to see".into());
    }
    // The namespace defaults to kube-system, not the context's.
    let ns = p.get("namespace").unwrap_or("kube-system");
    let host = format!("https://{API_SERVER_HOST_PORT}");
    let sel = parse_label_selector("kubernetes.io/cluster-service=true")?;
    let listed = k.list(c, Kind::Service, Some(ns), Some(&sel), &[]);
    let mut out = String::new();
    let result = match listed {
        Err(e) => Err(api(e)),
        Ok(items) => {
            out += &format!("Kubernetes control plane is running at {host}\n");
            for o in items.iter() {
                let Object::Service(s) = o.as_ref() else {
                    continue;
                };
                let link = link(&host, s);
                let name = s
                    .metadata
                    .labels
                    .get("kubernetes.io/name")
                    .filter(|n| !n.is_empty())
                    .unwrap_or(&s.metadata.name);
                out += &format!("{name} is running at {link}\n");
            }
            Ok(())
        }
    };
    out += "\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n";
    match result {
        Ok(()) => Ok(out),
        Err(e) => Err(format!("{out}{e}")),
    }
}

/// The Service's address: its load balancer's ingress on each port, or the API
/// server's proxy path to it.
fn link(host: &str, s: &Service) -> String {
    let ingress = s.status.load_balancer["ingress"]
        .as_array()
        .and_then(|l| l.first());
    if let Some(first) = ingress {
        let ip = match first["ip"].as_str() {
            Some(ip) if !ip.is_empty() => ip,
            _ => first["hostname"].as_str().unwrap_or(""),
        };
        return s
            .spec
            .ports
            .iter()
            .map(|p| format!("http://{ip}:{} ", p.port))
            .collect();
    }
    let mut name = s.metadata.name.clone();
    if let Some(port) = s.spec.ports.first() {
        let scheme = if port.name == "https" || port.port == 443 {
            "https"
        } else {
            ""
        };
        name = if !scheme.is_empty() {
            format!("{scheme}:{name}:{}", port.name)
        } else if !port.name.is_empty() {
            format!("{name}:{}", port.name)
        } else {
            name
        };
    }
    format!(
        "{host}/api/v1/namespaces/{}/services/{name}/proxy",
        s.metadata.namespace
    )
}
