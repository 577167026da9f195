//! `kubectl create ingress NAME --rule=host/path=service:port[,tls[=secret]]`
//! (`staging/src/k8s.io/kubectl/pkg/cmd/create/create_ingress.go`): its checks, and the
//! Ingress it builds, split by split as kubectl splits the flags.

use super::super::util::R;
use super::common::*;
use crate::api::*;
use crate::cluster::Cluster;
use crate::command::args::Parsed;
use std::collections::{BTreeMap, BTreeSet};

/// The message of a rule that does not match `ruleRegex`.
fn invalid_rule(rule: &str) -> String {
    format!("error: rule {rule} is invalid and should be in format host/path=svcname:svcport[,tls[=secret]]")
}

/// `[\w\-]`, as RE2 reads `\w` (ASCII letters, digits, `_`).
fn word_or_dash(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// `ruleRegex`'s `MatchString`: `^([\w*\-.]*)(/.*)=([\w\-]+):([\w\-]+)` then an optional
/// TLS part, anchored at the start only, so whatever follows a match is accepted.
fn matches_rule(rule: &str) -> bool {
    let host_end = rule
        .find(|c: char| !(word_or_dash(c) || c == '*' || c == '.'))
        .unwrap_or(rule.len());
    let Some(after_host) = rule[host_end..].strip_prefix('/') else {
        return false;
    };
    // `.*` matches no newline; some `=` within the line must be followed by
    // `svcname:svcport`.
    let line = after_host.split('\n').next().unwrap_or("");
    line.match_indices('=').any(|(i, _)| {
        let rest = &after_host[i + 1..];
        let name_len = rest.find(|c: char| !word_or_dash(c)).unwrap_or(rest.len());
        name_len > 0
            && rest[name_len..]
                .strip_prefix(':')
                .and_then(|port| port.chars().next())
                .is_some_and(word_or_dash)
    })
}

/// `parseServiceBackendPort`: a number when `intstr.Parse` reads one (a 32-bit
/// integer), a port name otherwise.
fn parse_service_backend_port(port: &str) -> ServiceBackendPort {
    match port.parse::<i32>() {
        Ok(n) => ServiceBackendPort {
            name: String::new(),
            number: n.into(),
        },
        Err(_) => ServiceBackendPort {
            name: port.to_string(),
            number: 0,
        },
    }
}

/// `buildIngressBackendSvc`: `name:port`. None where kubectl would index past the end
/// of a split (it panics; kubeplay refuses the rule).
fn build_ingress_backend_svc(service: &str) -> Option<IngressBackend> {
    let mut parts = service.split(':');
    let name = parts.next()?;
    let port = parts.next()?;
    Some(IngressBackend {
        service: Some(IngressServiceBackend {
            name: name.to_string(),
            port: parse_service_backend_port(port),
        }),
        resource: None,
    })
}

/// `buildHTTPIngressPath`: `path=service:port`, a trailing `*` making the path a Prefix.
fn build_http_ingress_path(pathsvc: &str) -> Option<HTTPIngressPath> {
    let mut split = pathsvc.split('=');
    let mut path = format!("/{}", split.next()?);
    let service = split.next()?;
    let mut path_type = "Exact";
    if path.ends_with('*') {
        path_type = "Prefix";
        path.pop();
    }
    Some(HTTPIngressPath {
        path,
        path_type: Some(path_type.into()),
        backend: build_ingress_backend_svc(service)?,
    })
}

/// `buildIngressRules`: one rule per host, in order of first appearance, its paths in
/// the order given.
fn build_ingress_rules(rules: &[&str]) -> Result<Vec<IngressRule>, String> {
    let mut out: Vec<IngressRule> = Vec::new();
    for rule in rules {
        let remove_tls = rule.split(',').next().unwrap_or("");
        let (host, pathsvc) = remove_tls
            .split_once('/')
            .ok_or_else(|| invalid_rule(rule))?;
        let path = build_http_ingress_path(pathsvc).ok_or_else(|| invalid_rule(rule))?;
        match out.iter_mut().find(|r| r.host == host) {
            Some(r) => r
                .http
                .get_or_insert_with(Default::default)
                .paths
                .get_or_insert_with(Vec::new)
                .push(path),
            None => out.push(IngressRule {
                host: host.to_string(),
                http: Some(HTTPIngressRuleValue {
                    paths: Some(vec![path]),
                }),
            }),
        }
    }
    Ok(out)
}

/// `buildTLSRules`: a rule with one `,` part turns TLS on for its host (whatever that
/// part says), once per host; hosts sharing a secret share an entry.
fn build_tls_rules(rules: &[&str]) -> Vec<IngressTLS> {
    let mut present: BTreeSet<&str> = BTreeSet::new();
    let mut out: Vec<IngressTLS> = Vec::new();
    for rule in rules {
        let tls: Vec<&str> = rule.split(',').collect();
        if tls.len() != 2 {
            continue;
        }
        let host = rule.split('/').next().unwrap_or("");
        let secret = tls[1].split('=').nth(1).unwrap_or("");
        if present.contains(host) {
            continue;
        }
        present.insert(host);
        if let Some(entry) = out.iter_mut().find(|t| t.secret_name == secret) {
            entry.hosts.push(host.to_string());
            continue;
        }
        let mut entry = IngressTLS::default();
        if !host.is_empty() {
            entry.hosts.push(host.to_string());
        }
        entry.secret_name = secret.to_string();
        if !entry.secret_name.is_empty() || !entry.hosts.is_empty() {
            out.push(entry);
        }
    }
    out
}

/// `kubectl create ingress NAME [--class=C] [--rule=…]… [--default-backend=svc:port]
/// [--annotation=k=v]…`.
pub(super) fn create_ingress(c: &mut Cluster, p: &Parsed, ns: &str, out: &Output) -> R {
    let name = name_from_args(p)?;
    let rules = p.all("rule");
    let annotations = p.all("annotation");
    let default_backend = p.get("default-backend").unwrap_or("");
    // Validate, in its order.
    if default_backend.is_empty() && rules.is_empty() {
        return Err("error: not enough information provided: every ingress has to either specify a default-backend (which catches all traffic) or a list of rules (which catch specific paths)".into());
    }
    if let Some(rule) = rules.iter().find(|r| !matches_rule(r)) {
        return Err(invalid_rule(rule));
    }
    let mut annotation_map = BTreeMap::new();
    for a in &annotations {
        let (k, v) = a.split_once('=').ok_or_else(|| {
            format!("error: annotation {a} is invalid and should be in format key=[value]")
        })?;
        annotation_map.insert(k.to_string(), v.to_string());
    }
    if !default_backend.is_empty() && default_backend.split(':').count() != 2 {
        return Err("error: default-backend should be in format servicename:serviceport".into());
    }
    let spec = IngressSpec {
        ingress_class_name: p.get("class").filter(|c| !c.is_empty()).map(String::from),
        default_backend: match default_backend {
            "" => None,
            b => build_ingress_backend_svc(b),
        },
        tls: build_tls_rules(&rules),
        rules: build_ingress_rules(&rules)?,
    };
    let ingress = Ingress {
        metadata: ObjectMeta {
            name: name.clone(),
            namespace: ns.to_string(),
            annotations: annotation_map.clone(),
            ..Default::default()
        },
        spec,
        ..Default::default()
    };
    let mut client = Object::Ingress(Box::new(ingress.clone())).to_json();
    let mut meta = client_meta(name, out.explicit_ns.then_some(ns));
    if !annotation_map.is_empty() {
        meta["annotations"] = serde_json::json!(annotation_map);
    }
    client["metadata"] = meta;
    create_object(
        c,
        Object::Ingress(Box::new(ingress)),
        client,
        out,
        Some("ingress"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_match_as_kubectls_rule_regex_matches_them() {
        for ok in [
            "foo.com/bar=svc1:8080,tls=my-cert",
            "/path=svc:port",
            "*.foo.com/a=svc:80",
            "foo.com/a=svc:80xyz!",
            "foo.com/a=b=svc:80",
            "foo.com/=svc:https,tls",
        ] {
            assert!(matches_rule(ok), "{ok}");
        }
        for bad in [
            "foo.com=svc:80",
            "foo.com/a=svc",
            "foo.com/a=:80",
            "foo.com/a=svc:",
            "foo:com/a=svc:80",
            "",
            "foo.com/a\n=svc:80",
        ] {
            assert!(!matches_rule(bad), "{bad}");
        }
    }

    #[test]
    fn a_trailing_star_makes_a_prefix_path_and_ports_parse_as_numbers_or_names() {
        let p = build_http_ingress_path("admin*=svc:http").unwrap();
        assert_eq!(
            (p.path.as_str(), p.path_type.as_deref()),
            ("/admin", Some("Prefix"))
        );
        let svc = p.backend.service.unwrap();
        assert_eq!(
            (svc.name.as_str(), svc.port.name.as_str(), svc.port.number),
            ("svc", "http", 0)
        );
        let p = build_http_ingress_path("=svc:8080").unwrap();
        assert_eq!(
            (p.path.as_str(), p.path_type.as_deref()),
            ("/", Some("Exact"))
        );
        assert_eq!(p.backend.service.unwrap().port.number, 8080);
    }

    #[test]
    fn rules_of_one_host_merge_and_tls_is_taken_once_per_host() {
        let rules = [
            "foo.com/=svc:https,tls",
            "foo.com/path/subpath*=othersvc:8080",
            "bar.com/admin*=svc2:http,tls=secret1",
            "bar.com/x=svc3:80,tls=secret2",
            "baz.com/y=svc4:80,tls=secret1",
        ];
        let r = build_ingress_rules(&rules).unwrap();
        assert_eq!(r.len(), 3);
        assert_eq!(r[0].http.as_ref().unwrap().paths.as_ref().unwrap().len(), 2);
        let tls = build_tls_rules(&rules);
        assert_eq!(tls.len(), 2);
        assert_eq!(
            (tls[0].hosts.clone(), tls[0].secret_name.as_str()),
            (vec!["foo.com".to_string()], "")
        );
        assert_eq!(
            (tls[1].hosts.clone(), tls[1].secret_name.as_str()),
            (
                vec!["bar.com".to_string(), "baz.com".to_string()],
                "secret1"
            )
        );
    }
}
