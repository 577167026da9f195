//! The ServiceAccount admission plugin: a Pod runs as an account that exists, and
//! every container gets that account's token, the cluster's CA and the namespace
//! mounted at `/var/run/secrets/kubernetes.io/serviceaccount` through one projected
//! volume, `kube-api-access-<5 random characters>`.
//!
//! Upstream: `plugin/pkg/admission/serviceaccount/admission.go` (`Admit`: skip mirror
//! Pods, default the account, look it up or refuse, `shouldAutomount`,
//! `mountServiceAccountToken`, copy the account's `imagePullSecrets`) and
//! `TokenVolumeSource` (3,607 s tokens: an hour and seven seconds).

use crate::api::extra::Extra;
use crate::api::*;
use serde_json::json;

/// Where every container finds its account's token.
pub const DEFAULT_API_TOKEN_MOUNT_PATH: &str = "/var/run/secrets/kubernetes.io/serviceaccount";
/// The token volume's name prefix.
pub const SERVICE_ACCOUNT_VOLUME_NAME: &str = "kube-api-access";

/// `Admit` for a Pod being created: Err is the refusal's text after `pods "NAME" is
/// forbidden: `. `account` is the Pod's ServiceAccount as stored (None: none by that
/// name); `suffix` draws the token volume's random characters.
pub fn admit_pod(
    pod: &mut Pod,
    account: Option<&ServiceAccount>,
    suffix: &mut dyn FnMut() -> String,
) -> Result<(), String> {
    // A static Pod's mirror is the kubelet's: it may not use an account.
    if pod
        .metadata
        .annotations
        .contains_key("kubernetes.io/config.mirror")
    {
        return Ok(());
    }
    let ns = &pod.metadata.namespace;
    let name = &pod.spec.service_account_name;
    // `getServiceAccount` looks `default` up ten times, 100–200 ms apart, because the
    // ServiceAccount controller is about to create it in a new namespace: here it
    // does so within its latency, so a Pod created with its namespace finds it (only
    // a controller manager down for the whole wait would make upstream refuse).
    let fresh_default;
    let sa = match account {
        Some(sa) => sa,
        None if name == DEFAULT_SERVICE_ACCOUNT => {
            fresh_default = ServiceAccount::default();
            &fresh_default
        }
        None => {
            return Err(format!(
                "error looking up service account {ns}/{name}: serviceaccount \"{name}\" not found"
            ))
        }
    };
    if should_automount(sa, &pod.spec) {
        mount_service_account_token(&mut pod.spec, suffix);
    }
    // Pods without pull secrets of their own take the account's.
    let has_own = pod
        .spec
        .extra
        .get("imagePullSecrets")
        .and_then(|v| v.as_array())
        .is_some_and(|a| !a.is_empty());
    if !has_own && !sa.image_pull_secrets.is_empty() {
        if let Ok(v) = serde_json::to_value(&sa.image_pull_secrets) {
            pod.spec.extra.insert("imagePullSecrets".into(), v);
        }
    }
    Ok(())
}

/// `shouldAutomount`: the Pod's own setting, else the account's, else true.
fn should_automount(sa: &ServiceAccount, spec: &PodSpec) -> bool {
    if let Some(b) = spec
        .extra
        .get("automountServiceAccountToken")
        .and_then(|v| v.as_bool())
    {
        return b;
    }
    sa.automount_service_account_token.unwrap_or(true)
}

/// `mountServiceAccountToken`: reuse a `kube-api-access-` volume the Pod already has,
/// else name one; mount it in every init and app container that mounts nothing at the
/// token path; add the volume if one of them needed it.
fn mount_service_account_token(spec: &mut PodSpec, suffix: &mut dyn FnMut() -> String) {
    let prefix = format!("{SERVICE_ACCOUNT_VOLUME_NAME}-");
    let existing = spec
        .volumes
        .iter()
        .find(|v| v.name.starts_with(&prefix))
        .map(|v| v.name.clone());
    let has_volume = existing.is_some();
    let volume_name = existing.unwrap_or_else(|| format!("{prefix}{}", suffix()));
    let mut needs_volume = false;
    for c in spec
        .init_containers
        .iter_mut()
        .chain(spec.containers.iter_mut())
    {
        if c.volume_mounts
            .iter()
            .any(|m| m.mount_path == DEFAULT_API_TOKEN_MOUNT_PATH)
        {
            continue;
        }
        c.volume_mounts.push(VolumeMount {
            name: volume_name.clone(),
            mount_path: DEFAULT_API_TOKEN_MOUNT_PATH.into(),
            read_only: Some(true),
            extra: Default::default(),
        });
        needs_volume = true;
    }
    if !has_volume && needs_volume {
        spec.volumes.push(token_volume(volume_name));
    }
}

/// `TokenVolumeSource`: the token, the CA bundle and the namespace, one copy shared by
/// every Pod's token volume.
fn token_volume(name: String) -> Volume {
    static SOURCE: std::sync::LazyLock<std::sync::Arc<Extra>> =
        std::sync::LazyLock::new(|| std::sync::Arc::new(token_volume_source()));
    Volume {
        name,
        source: SOURCE.clone(),
    }
}

fn token_volume_source() -> Extra {
    let projected = json!({
        "defaultMode": 420,
        "sources": [
            {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
            {"configMap": {
                "items": [{"key": "ca.crt", "path": "ca.crt"}],
                "name": ROOT_CA_CONFIG_MAP,
            }},
            {"downwardAPI": {"items": [{
                "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"},
                "path": "namespace",
            }]}},
        ],
    });
    [("projected".to_string(), projected)].into()
}

/// The issuer and default audience of the tokens (`--service-account-issuer`, as
/// kubeadm sets it).
pub const ISSUER: &str = "https://kubernetes.default.svc.cluster.local";
/// A TokenRequest without `expirationSeconds` gets an hour.
pub const DEFAULT_EXPIRATION_SECONDS: i64 = 3600;
/// The shortest token the API server issues (`ValidateTokenRequest`).
pub const MIN_EXPIRATION_SECONDS: i64 = 600;

/// `URL-safe base64` without padding, as JWTs are written.
const B64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// What a TokenRequest asks (`spec`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenRequestSpec {
    /// Audiences (empty: the API server's).
    pub audiences: Vec<String>,
    /// Lifetime in seconds (None: an hour).
    pub expiration_seconds: Option<i64>,
}

/// What it answers (`status`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenRequestStatus {
    /// The signed token.
    pub token: String,
    /// When it expires (RFC 3339).
    pub expiration_timestamp: String,
    /// The audiences it carries.
    pub audiences: Vec<String>,
    /// Its lifetime in seconds.
    pub expiration_seconds: i64,
}

impl TokenRequestStatus {
    /// The TokenRequest the API server answers with: the account's name and namespace,
    /// the spec as issued, and the token (`authentication.k8s.io/v1`).
    pub fn to_json(&self, namespace: &str, name: &str) -> serde_json::Value {
        json!({
            "kind": "TokenRequest",
            "apiVersion": "authentication.k8s.io/v1",
            "metadata": {"name": name, "namespace": namespace, "creationTimestamp": null},
            "spec": {
                "audiences": self.audiences,
                "expirationSeconds": self.expiration_seconds,
                "boundObjectRef": null,
            },
            "status": {"token": self.token, "expirationTimestamp": self.expiration_timestamp},
        })
    }
}

/// `POST serviceaccounts/NAME/token` (`pkg/registry/core/serviceaccount/storage/
/// token.go`): validate, find the account, issue a JWT naming it. The signature is a
/// keyed hash of the header and claims, checked again by [`authenticate_token`]; the
/// simulation keeps no private key.
pub fn issue_token(
    store: &super::Store,
    rng: &mut crate::rng::Rng,
    now: crate::time::SimTime,
    namespace: &str,
    name: &str,
    spec: &TokenRequestSpec,
) -> Result<TokenRequestStatus, super::ApiError> {
    let seconds = spec
        .expiration_seconds
        .unwrap_or(DEFAULT_EXPIRATION_SECONDS);
    if seconds < MIN_EXPIRATION_SECONDS {
        return Err(super::ApiError {
            code: 422,
            reason: "Invalid",
            message: format!(
                "TokenRequest.authentication.k8s.io \"{name}\" is invalid: spec.expirationSeconds: Invalid value: {seconds}: may not specify a duration less than 10 minutes"
            ),
            kubectl_message: None,
            details: None,
        });
    }
    let sa = store
        .get::<ServiceAccount>(&super::ObjKey::new(namespace, name))
        .ok_or_else(|| super::ApiError::not_found(Kind::ServiceAccount, name))?;
    let audiences = if spec.audiences.is_empty() {
        vec![ISSUER.to_string()]
    } else {
        spec.audiences.clone()
    };
    let iat = crate::time::EPOCH_UNIX_SECONDS as u64 + now / 1000;
    let exp = iat + seconds as u64;
    let claims = json!({
        "aud": audiences,
        "exp": exp,
        "iat": iat,
        "iss": ISSUER,
        "jti": rng.uuid_v4(),
        "kubernetes.io": {
            "namespace": namespace,
            "serviceaccount": {"name": name, "uid": sa.metadata.uid},
        },
        "nbf": iat,
        "sub": format!("system:serviceaccount:{namespace}:{name}"),
    });
    let header = json!({"alg": "RS256", "kid": KEY_ID});
    let signed = format!(
        "{}.{}",
        base64_encode_with(header.to_string().as_bytes(), B64URL, false),
        base64_encode_with(claims.to_string().as_bytes(), B64URL, false)
    );
    let token = format!("{signed}.{}", signature(&signed));
    Ok(TokenRequestStatus {
        token,
        expiration_timestamp: crate::time::rfc3339(now + seconds as u64 * 1000),
        audiences,
        expiration_seconds: seconds,
    })
}

/// The signing key's id, as a JWT header names it.
const KEY_ID: &str = "kubeplay-service-account-key";

/// The token's signature: 256 bytes (an RSA-2048 signature's length) of a keyed hash.
fn signature(signed: &str) -> String {
    let mut bytes = Vec::with_capacity(256);
    for block in 0u64..32 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ block;
        for b in KEY_ID.bytes().chain(signed.bytes()) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        bytes.extend_from_slice(&h.to_be_bytes());
    }
    base64_encode_with(&bytes, B64URL, false)
}

/// The ServiceAccount token authenticator: a token this API server signed, not
/// expired, whose account still exists with the same uid, is that account
/// (`system:serviceaccount:NS:NAME` in `system:serviceaccounts` and
/// `system:serviceaccounts:NS`). None: not a token it accepts.
pub fn authenticate_token(
    store: &super::Store,
    now: crate::time::SimTime,
    token: &str,
) -> Option<crate::apiserver::rbac::UserInfo> {
    let (signed, sig) = token.rsplit_once('.')?;
    if signature(signed) != sig {
        return None;
    }
    let (_, claims) = signed.split_once('.')?;
    let claims = base64_decode(&claims.replace('-', "+").replace('_', "/"))?;
    let claims: serde_json::Value = serde_json::from_slice(&claims).ok()?;
    let exp = claims.get("exp")?.as_u64()?;
    if crate::time::EPOCH_UNIX_SECONDS as u64 + now / 1000 >= exp {
        return None;
    }
    let k = claims.get("kubernetes.io")?;
    let ns = k.get("namespace")?.as_str()?;
    let sa = k.get("serviceaccount")?;
    let name = sa.get("name")?.as_str()?;
    let uid = sa.get("uid")?.as_str()?;
    let live = store.get::<ServiceAccount>(&super::ObjKey::new(ns, name))?;
    if live.metadata.uid != uid {
        return None;
    }
    Some(crate::apiserver::rbac::UserInfo::new(
        &format!("system:serviceaccount:{ns}:{name}"),
        &[
            "system:serviceaccounts",
            &format!("system:serviceaccounts:{ns}"),
        ],
    ))
}

/// Whether `token` has a JWT's shape (three base64url parts, a JSON header first).
pub fn is_jwt(token: &str) -> bool {
    token.starts_with("eyJ")
        && token.split('.').count() == 3
        && token.bytes().all(|b| b == b'.' || B64URL.contains(&b))
}
