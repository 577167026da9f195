//! The kubeconfig `serve` writes, and the reading of one by the `sim` client.
//!
//! One cluster (the server's `https://` address and its CA), and a context and a user
//! for each of kubeplay's users: `kubernetes-admin` (the current context), `alice`,
//! `bob`, and `expired`, whose token the server refuses. Each user carries its own
//! bearer token, so every client — kubectl, Python's, JavaScript's — acts as that user;
//! none relies on a context's `as:`, which only kubectl reads.

use base64::Engine as _;
use kubeplay_engine::rest::{token_for, ADMIN_USER, USERS};

/// The kubeconfig for a server at `server` (`https://127.0.0.1:PORT`) whose CA
/// certificate is `ca_pem`.
pub fn kubeconfig_text(server: &str, ca_pem: &str) -> String {
    let ca = base64::engine::general_purpose::STANDARD.encode(ca_pem);
    let mut s = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: kubeplay\n  cluster:\n    server: {server}\n    certificate-authority-data: {ca}\ncontexts:\n"
    );
    for u in USERS {
        s.push_str(&format!(
            "- name: {u}@kubeplay\n  context:\n    cluster: kubeplay\n    user: {u}\n    namespace: default\n"
        ));
    }
    s.push_str(&format!(
        "current-context: {ADMIN_USER}@kubeplay\npreferences: {{}}\nusers:\n"
    ));
    for u in USERS {
        s.push_str(&format!(
            "- name: {u}\n  user:\n    token: {}\n",
            token_for(u)
        ));
    }
    s
}

/// Write the kubeconfig readable by its owner alone: it holds every user's token.
pub fn write(path: &str, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut f = options.open(path)?;
    #[cfg(unix)]
    {
        // An older file keeps its mode through `open`: narrow it.
        use std::os::unix::fs::PermissionsExt;
        f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    f.write_all(text.as_bytes())
}

/// Where a client sends, from a kubeconfig's current context.
#[derive(Clone, Debug, PartialEq)]
pub struct Endpoint {
    /// `host:port`.
    pub authority: String,
    /// The host alone (the name the server's certificate must carry).
    pub host: String,
    /// The CA certificates to trust, PEM.
    pub ca_pem: Vec<u8>,
    /// The user's bearer token.
    pub token: Option<String>,
}

/// The kubeconfig a client reads: `--kubeconfig FILE`, else the first of
/// `$KUBECONFIG`, else `./kubeplay.kubeconfig`.
pub fn path(explicit: Option<&str>) -> String {
    explicit
        .map(str::to_string)
        .or_else(|| {
            std::env::var("KUBECONFIG")
                .ok()
                .and_then(|k| k.split(':').next().map(str::to_string))
                .filter(|k| !k.is_empty())
        })
        .unwrap_or_else(|| "kubeplay.kubeconfig".to_string())
}

/// The current context's server, CA and token in the kubeconfig at `path`.
pub fn endpoint(path: &str) -> Result<Endpoint, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let v: serde_json::Value =
        serde_yaml_ng::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
    let current = v["current-context"].as_str().unwrap_or("");
    let find = |list: &str, name: &str| {
        v[list]
            .as_array()
            .and_then(|a| a.iter().find(|e| e["name"] == name).cloned())
            .unwrap_or(serde_json::Value::Null)
    };
    let ctx = find("contexts", current);
    let cluster = find("clusters", ctx["context"]["cluster"].as_str().unwrap_or(""));
    let user = find("users", ctx["context"]["user"].as_str().unwrap_or(""));
    let server = cluster["cluster"]["server"]
        .as_str()
        .ok_or_else(|| format!("{path}: the current context names no server"))?;
    let authority = server
        .strip_prefix("https://")
        .ok_or_else(|| {
            format!("{path}: {server}: only a kubeplay server (https://) can be driven")
        })?
        .trim_end_matches('/')
        .to_string();
    let host = match authority.rsplit_once(':') {
        Some((h, p)) if p.chars().all(|c| c.is_ascii_digit()) => h,
        _ => authority.as_str(),
    };
    let host = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_string();
    let ca_pem = match (
        cluster["cluster"]["certificate-authority-data"].as_str(),
        cluster["cluster"]["certificate-authority"].as_str(),
    ) {
        (Some(data), _) => base64::engine::general_purpose::STANDARD
            .decode(data.trim())
            .map_err(|e| format!("{path}: certificate-authority-data: {e}"))?,
        (None, Some(file)) => std::fs::read(file).map_err(|e| format!("{file}: {e}"))?,
        (None, None) => {
            return Err(format!(
                "{path}: the cluster names no certificate authority"
            ))
        }
    };
    Ok(Endpoint {
        authority,
        host,
        ca_pem,
        token: user["user"]["token"].as_str().map(str::to_string),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_written_kubeconfig_gives_each_user_a_token_and_the_client_reads_it_back() {
        let dir = std::env::temp_dir().join(format!("kubeplay-kc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("config");
        let path = path.to_str().unwrap();
        let pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
        write(path, &kubeconfig_text("https://127.0.0.1:7777", pem)).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let e = endpoint(path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(e.authority, "127.0.0.1:7777");
        assert_eq!(e.host, "127.0.0.1");
        assert_eq!(e.ca_pem, pem.as_bytes());
        assert_eq!(e.token, Some(token_for("kubernetes-admin")));
        let v: serde_json::Value =
            serde_yaml_ng::from_str(&kubeconfig_text("https://x", pem)).unwrap();
        let users: Vec<(&str, &str)> = v["users"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| {
                (
                    u["name"].as_str().unwrap(),
                    u["user"]["token"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            users,
            vec![
                ("kubernetes-admin", "kubeplay-token-kubernetes-admin"),
                ("alice", "kubeplay-token-alice"),
                ("bob", "kubeplay-token-bob"),
                ("expired", "kubeplay-token-expired"),
            ]
        );
        assert_eq!(v["contexts"][1]["context"]["user"], "alice");
        assert!(v["users"][1]["user"].get("as").is_none());
    }
}
