//! The paths that are not resources: discovery, `/version`, the OpenAPI documents, the
//! health checks and `/metrics`. Each passes the door as a non-resource request
//! (`nonResourceURLs` in RBAC), then is answered here.
//!
//! Each body is written as upstream's handler writes it:
//! - discovery through the API machinery's JSON serializer, which ends with a newline
//!   (`json.Encoder`);
//! - `/version` indented, without one (`responsewriters.WriteRawJSON`);
//! - the OpenAPI documents compact, without one (kube-openapi's cached `json.Marshal`).
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/endpoints/discovery/`,
//! `staging/src/k8s.io/apiserver/pkg/server/routes/version.go`,
//! `k8s.io/kube-openapi/pkg/handler3/handler.go`, `k8s.io/kube-openapi/pkg/handler/handler.go`.

use super::openapi_pb::{OPENAPI_V2_PROTOBUF, OPENAPI_V2_PROTOBUF_ASKED};
use super::*;
use crate::apiserver::openapi;
use crate::printers::go_json::go_html_escape;

/// `version.Info`'s fields in its struct's order, as `MarshalIndent` writes them.
pub(crate) const VERSION_FIELDS: [&str; 13] = [
    "major",
    "minor",
    "emulationMajor",
    "emulationMinor",
    "minCompatibilityMajor",
    "minCompatibilityMinor",
    "gitVersion",
    "gitCommit",
    "gitTreeState",
    "buildDate",
    "goVersion",
    "compiler",
    "platform",
];

/// `/version` indented by two spaces, its fields in `version.Info`'s order.
fn version_text(v: &Value) -> String {
    let lines: Vec<String> = VERSION_FIELDS
        .iter()
        .filter_map(|k| v.get(*k).map(|x| format!("  {}: {x}", Value::from(*k))))
        .collect();
    format!("{{\n{}\n}}", lines.join(",\n"))
}

/// How a body is written (see the module's comment).
enum Encoding {
    /// The API machinery's serializer: compact, then a newline.
    Serialized(Value),
    /// Indented by two spaces, no newline.
    Indented(Value),
    /// Compact, no newline.
    Raw(Value),
    /// Already written (the OpenAPI v2 document's protobuf).
    Bytes(Vec<u8>),
}

impl Encoding {
    fn bytes(self) -> Vec<u8> {
        match self {
            Encoding::Serialized(v) => {
                let mut b = super::go_json_text(&v).into_bytes();
                b.push(b'\n');
                b
            }
            Encoding::Indented(v) => go_html_escape(version_text(&v)).into_bytes(),
            Encoding::Raw(v) => super::go_json_text(&v).into_bytes(),
            Encoding::Bytes(b) => b,
        }
    }
}

/// The v2 document's protobuf, written once.
fn openapi_v2_protobuf() -> &'static [u8] {
    static PB: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    PB.get_or_init(|| super::openapi_pb::encode_document(openapi::v2::openapi_v2_document()))
}

/// Discovery's content types.
const AGGREGATED: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
const JSON: &str = "application/json";

impl ApiServer {
    /// The answer for a path that is not a resource, if `path` is one.
    pub(super) fn non_resource_route(&mut self, req: &HttpRequest, path: &str) -> Option<Reply> {
        let accept = req.header("accept").unwrap_or("");
        let aggregated = accept.contains("as=APIGroupDiscoveryList");
        let (body, ct) = match path {
            "/api" if aggregated => (
                Encoding::Serialized(discovery::aggregated(true)),
                AGGREGATED,
            ),
            "/apis" if aggregated => (
                Encoding::Serialized(discovery::aggregated(false)),
                AGGREGATED,
            ),
            "/api" => (Encoding::Serialized(discovery::api_versions()), JSON),
            "/apis" => (Encoding::Serialized(discovery::api_group_list()), JSON),
            "/version" => (Encoding::Indented(discovery::version()), JSON),
            "/openapi/v3" => (Encoding::Raw(openapi::openapi_index()), JSON),
            // client-go's `OpenAPISchema()` asks for protobuf alone; others get JSON.
            "/openapi/v2" if accept.contains(OPENAPI_V2_PROTOBUF_ASKED) => (
                Encoding::Bytes(openapi_v2_protobuf().to_vec()),
                OPENAPI_V2_PROTOBUF,
            ),
            "/openapi/v2" => (
                Encoding::Raw(openapi::v2::openapi_v2_document().clone()),
                JSON,
            ),
            "/healthz" | "/livez" | "/readyz" => return Some(self.health(req, path)),
            "/metrics" => return Some(self.metrics_page(req, path)),
            _ => {
                if let Some(gv) = path.strip_prefix("/openapi/v3/") {
                    return Some(match openapi::openapi_document(gv) {
                        Some(doc) => self.non_resource(req, path, Encoding::Raw(doc), JSON),
                        None => Reply::Response(not_found_path()),
                    });
                }
                let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
                if let ["apis", "metrics.k8s.io", "v1beta1", rest @ ..] = segs.as_slice() {
                    if let Some(resp) = self.metrics_api(req, rest) {
                        return Some(Reply::Response(resp));
                    }
                }
                let list = match segs.as_slice() {
                    ["api", v] => discovery::resource_list("", v),
                    ["apis", g, v] => discovery::resource_list(g, v),
                    _ => None,
                }?;
                (Encoding::Serialized(list), JSON)
            }
        };
        Some(self.non_resource(req, path, body, ct))
    }

    /// Authorizes a GET of `path`, then answers `body`.
    fn non_resource(&mut self, req: &HttpRequest, path: &str, body: Encoding, ct: &str) -> Reply {
        let mut r = self.request(req, Verb::Get, Kind::Pod);
        r.body = Body::Path(path.to_string());
        r.trace = None;
        Reply::Response(match self.cluster.call(r) {
            Ok(_) => HttpResponse {
                status: 200,
                content_type: ct.into(),
                headers: Vec::new(),
                body: body.bytes(),
            },
            Err(e) => HttpResponse::json(e.code, &status_of(&e, None, "")),
        })
    }

    /// `/healthz`, `/livez`, `/readyz` (`?verbose` lists the checks).
    fn health(&mut self, req: &HttpRequest, path: &str) -> Reply {
        let mut r = self.request(req, Verb::Get, Kind::Pod);
        r.body = Body::Path(path.to_string());
        r.trace = None;
        // `?verbose` has no value: its presence asks for the listing.
        let verbose = req.param("verbose").is_some();
        let name = path.trim_start_matches('/');
        Reply::Response(match self.cluster.call(r) {
            Ok(_) => {
                let h = health::answer(self.cluster.unavailable(), name, verbose).unwrap_or(
                    health::Health {
                        code: 503,
                        body: String::new(),
                    },
                );
                HttpResponse::text(h.code, h.body)
            }
            Err(e) => HttpResponse::json(e.code, &status_of(&e, None, "")),
        })
    }

    /// `/metrics`: authorized first (`system:monitoring`, or the admin), then the page:
    /// this very request is counted on the next scrape, as upstream's is.
    fn metrics_page(&mut self, req: &HttpRequest, path: &str) -> Reply {
        let mut r = self.request(req, Verb::Get, Kind::Pod);
        r.body = Body::Path(path.to_string());
        r.trace = None;
        Reply::Response(match self.cluster.call(r) {
            Ok(_) => {
                let text = crate::apiserver::metrics::prometheus(
                    self.cluster.request_counts(),
                    &self.cluster.store,
                );
                let mut resp = HttpResponse::text(200, text);
                resp.content_type = "text/plain; version=0.0.4; charset=utf-8".into();
                resp
            }
            Err(e) => HttpResponse::json(e.code, &status_of(&e, None, "")),
        })
    }
}
