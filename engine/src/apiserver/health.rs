//! The API server's health endpoints, `/readyz`, `/livez` and `/healthz`, as
//! kube-apiserver v1.33 answers them (`staging/src/k8s.io/apiserver/pkg/server/healthz/
//! healthz.go`, `handleRootHealth`): every check passes → `200 ok`, or with `?verbose`
//! one `[+]NAME ok` line per check and `readyz check passed`; a check fails → `500`
//! with the checks always listed, the failing one as `[-]NAME failed: reason withheld`
//! (the endpoint is public, so the reason goes to the log only), and `readyz check
//! failed`. The list is the readiness checks of a v1.33 kube-apiserver built by kubeadm.
//!
//! An API server that is down answers nothing at all: no endpoint of it says "ok"
//! (the REST layer closes the connection, the console's kubectl prints kubectl's words
//! for a refused connection). With etcd out of quorum the API server is up: `/readyz`
//! is where that shows, its `etcd` and `etcd-readiness` checks failing.

use crate::apiserver::request::Unavailable;

/// The readiness checks of kube-apiserver v1.33, in the order `/readyz?verbose` lists
/// them (`etcd` and `etcd-readiness` are the two that read etcd).
pub const READYZ_CHECKS: &[&str] = &[
    "ping",
    "log",
    "etcd",
    "etcd-readiness",
    "informer-sync",
    "poststarthook/start-apiserver-admission-initializer",
    "poststarthook/generic-apiserver-start-informers",
    "poststarthook/priority-and-fairness-config-consumer",
    "poststarthook/priority-and-fairness-filter",
    "poststarthook/storage-object-count-tracker-hook",
    "poststarthook/start-apiextensions-informers",
    "poststarthook/start-apiextensions-controllers",
    "poststarthook/crd-informer-synced",
    "poststarthook/start-system-namespaces-controller",
    "poststarthook/start-cluster-authentication-info-controller",
    "poststarthook/start-kube-apiserver-identity-lease-controller",
    "poststarthook/start-kube-apiserver-identity-lease-garbage-collector",
    "poststarthook/start-legacy-token-tracking-controller",
    "poststarthook/start-service-ip-repair-controllers",
    "poststarthook/rbac/bootstrap-roles",
    "poststarthook/scheduling/bootstrap-system-priority-classes",
    "poststarthook/priority-and-fairness-config-producer",
    "poststarthook/bootstrap-controller",
    "poststarthook/start-kubernetes-service-cidr-controller",
    "poststarthook/aggregator-reload-proxy-client-cert",
    "poststarthook/start-kube-aggregator-informers",
    "poststarthook/apiservice-status-local-available-controller",
    "poststarthook/apiservice-status-remote-available-controller",
    "poststarthook/apiservice-registration-controller",
    "poststarthook/apiservice-discovery-controller",
    "poststarthook/kube-apiserver-autoregistration",
    "autoregister-completion",
    "poststarthook/apiservice-openapi-controller",
    "poststarthook/apiservice-openapiv3-controller",
    "shutdown",
];

/// An answer of a health endpoint: the HTTP status and the text body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Health {
    /// 200 or 500.
    pub code: u16,
    /// The body, as the API server writes it.
    pub body: String,
}

/// The endpoint a path names (`/readyz`, `/readyz?verbose`, `/livez/`), and whether it
/// asks for the verbose listing; None for any other path.
pub fn endpoint(path: &str) -> Option<(&'static str, bool)> {
    let (p, query) = path.split_once('?').unwrap_or((path, ""));
    let name = match p.trim_end_matches('/') {
        "/readyz" => "readyz",
        "/livez" => "livez",
        "/healthz" => "healthz",
        _ => return None,
    };
    let verbose = query
        .split('&')
        .any(|kv| kv.split('=').next() == Some("verbose"));
    Some((name, verbose))
}

/// What `name` (`readyz`, `livez`, `healthz`) answers while requests meet
/// `unavailable` (the cluster's [`crate::cluster::Cluster::unavailable`]). None when the
/// API server is down: nothing answers.
///
/// Only `/readyz` checks etcd here: `/livez` keeps saying ok while etcd has no quorum
/// (restarting the API server would not bring etcd back), and `/healthz` is kept for old
/// clients and answers as `/livez` does.
pub fn answer(unavailable: Option<Unavailable>, name: &str, verbose: bool) -> Option<Health> {
    let etcd_ok = match unavailable {
        Some(Unavailable::ApiServerDown) => return None,
        Some(Unavailable::EtcdNoQuorum | Unavailable::EtcdUnreachable) => false,
        None => true,
    };
    let checks: Vec<(&str, bool)> = if name == "readyz" {
        READYZ_CHECKS
            .iter()
            .map(|&n| (n, etcd_ok || !n.starts_with("etcd")))
            .collect()
    } else {
        vec![("ping", true), ("log", true)]
    };
    let mut listing = String::new();
    for (n, ok) in &checks {
        if *ok {
            listing.push_str(&format!("[+]{n} ok\n"));
        } else {
            listing.push_str(&format!("[-]{n} failed: reason withheld\n"));
        }
    }
    Some(if checks.iter().all(|(_, ok)| *ok) {
        Health {
            code: 200,
            body: if verbose {
                format!("{listing}{name} check passed\n")
            } else {
                "ok".into()
            },
        }
    } else {
        // "Always be verbose on failure"; written with http.Error, which ends in a newline.
        Health {
            code: 500,
            body: format!("{listing}{name} check failed\n"),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readyz_lists_its_checks_when_asked_and_says_ok_when_not() {
        let h = answer(None, "readyz", true).unwrap();
        assert_eq!(h.code, 200);
        assert!(h
            .body
            .starts_with("[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]etcd-readiness ok\n"));
        assert!(h.body.ends_with("[+]shutdown ok\nreadyz check passed\n"));
        assert_eq!(answer(None, "readyz", false).unwrap().body, "ok");
        assert_eq!(endpoint("/readyz?verbose"), Some(("readyz", true)));
        assert_eq!(endpoint("/livez"), Some(("livez", false)));
        assert_eq!(endpoint("/readyz/etcd"), None);
    }

    #[test]
    fn with_etcd_out_of_quorum_readyz_fails_its_etcd_checks_and_says_so_even_unasked() {
        let no_quorum = Some(Unavailable::EtcdNoQuorum);
        let h = answer(no_quorum, "readyz", false).unwrap();
        assert_eq!(h.code, 500);
        assert!(
            h.body.contains(
                "[-]etcd failed: reason withheld\n[-]etcd-readiness failed: reason withheld\n"
            ),
            "{}",
            h.body
        );
        assert!(h.body.ends_with("readyz check failed\n"));
        assert_eq!(answer(no_quorum, "livez", false).unwrap().body, "ok");
    }

    #[test]
    fn an_api_server_that_is_down_answers_nothing() {
        let down = Some(Unavailable::ApiServerDown);
        assert_eq!(answer(down, "readyz", true), None);
        assert_eq!(answer(down, "livez", false), None);
    }
}
