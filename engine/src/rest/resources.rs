//! Resource requests over HTTP: each becomes one request through the API server's door
//! ([`crate::apiserver::door`]) — get, list, watch, create, update, patch (JSON, merge,
//! strategic merge, server-side apply), delete and deletecollection, and the
//! subresources `status`, `scale`, `eviction`, `binding` and `log` — and its answer
//! becomes the HTTP response: the object, a List, a Table, a Scale or a Status.
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/` (get.go,
//! create.go, update.go, patch.go, delete.go, watch.go).

use super::list_options::At;
use super::table::{table, table_wanted};
use super::*;
use crate::api::Object;
use crate::apiserver::decode::decode_object;
use crate::apiserver::patch::{scale_of, PatchType};
use crate::apiserver::request::{ApiResponse, LogOptions};
use crate::apiserver::selectors::{parse_fields, parse_label_selector};
use crate::apiserver::{DeleteOptions, ObjKey};

/// The subresources served, as the door names them (None: not served, a 404).
fn subresource(t: &Target) -> Option<&'static str> {
    Some(match t.subresource.as_deref() {
        None => "",
        Some("status") => "status",
        Some("scale") => "scale",
        Some("eviction") => "eviction",
        Some("binding") => "binding",
        Some("log") => "log",
        Some("finalize") => "finalize",
        Some("token") => "token",
        Some(_) => return None,
    })
}

impl ApiServer {
    /// The door request for `t`.
    pub(super) fn resource_request(
        &self,
        req: &HttpRequest,
        t: &Target,
        verb: Verb,
    ) -> Result<ApiRequest, HttpResponse> {
        let mut r = self.request(req, verb, t.kind);
        r.namespace = t.namespace.clone().unwrap_or_default();
        r.name = t.name.clone().unwrap_or_default();
        r.subresource = subresource(t).ok_or_else(not_found_path)?;
        Ok(r)
    }

    /// A list's or watch's selectors from the query, or the 400.
    pub(super) fn selectors(
        &self,
        req: &HttpRequest,
        t: &Target,
        r: &mut ApiRequest,
    ) -> Result<(), HttpResponse> {
        let bad = |e: String| {
            HttpResponse::error(
                &ApiError::bad_request(e.trim_start_matches("error: ").to_string()),
                None,
                "",
            )
        };
        r.labels = req
            .param("labelSelector")
            .filter(|s| !s.is_empty())
            .map(parse_label_selector)
            .transpose()
            .map_err(bad)?;
        r.fields = req
            .param("fieldSelector")
            .filter(|s| !s.is_empty())
            .map(|f| parse_fields(t.kind, f))
            .transpose()
            .map_err(|e| bad(e.server_message()))?
            .unwrap_or_default();
        Ok(())
    }

    pub(super) fn get(&mut self, req: &HttpRequest, t: &Target) -> HttpResponse {
        let name = t.name.clone().unwrap_or_default();
        let mut r = match self.resource_request(req, t, Verb::Get) {
            Ok(r) => r,
            Err(resp) => return resp,
        };
        if r.subresource == "log" {
            r.body = Body::Log(LogOptions {
                container: req.param("container").unwrap_or("").to_string(),
                previous: req.flag("previous"),
                tail: req.param("tailLines").and_then(|n| n.parse().ok()),
                timestamps: req.flag("timestamps"),
                since: None,
            });
            if req.param("container").is_none() {
                // The API server defaults the container when the Pod has only one.
                let key = ObjKey::new(&r.namespace, &name);
                if let Some(p) = self.cluster.store.get::<crate::api::Pod>(&key) {
                    if p.spec.containers.len() == 1 {
                        if let Body::Log(o) = &mut r.body {
                            o.container = p.spec.containers[0].name.clone();
                        }
                    }
                }
            }
            return match self.cluster.call(r) {
                Ok(resp) => HttpResponse::text(200, resp.log.unwrap_or_default()),
                Err(e) => HttpResponse::error(&e, Some(Kind::Pod), &name),
            };
        }
        let sub = r.subresource;
        let obj = match self.cluster.call(r) {
            Ok(ApiResponse {
                object: Some(o), ..
            }) => o,
            Ok(_) => return not_found_path(),
            Err(e) => return HttpResponse::error(&e, Some(t.kind), &name),
        };
        match sub {
            "scale" => match scale_of(&obj) {
                Some(s) => HttpResponse::json(200, &s),
                None => not_found_path(),
            },
            "status" | "" => match table_wanted(req) {
                Some(tw) => {
                    let rv = self.revision();
                    HttpResponse::json(200, &table(t.kind, &[&obj], tw, rv, self.cluster.now()))
                }
                None => HttpResponse::json(200, &self.object_json(&obj)),
            },
            _ => not_found_path(),
        }
    }

    pub(super) fn list(&mut self, req: &HttpRequest, t: &Target) -> HttpResponse {
        let mut r = match self.resource_request(req, t, Verb::List) {
            Ok(r) => r,
            Err(resp) => return resp,
        };
        if let Err(resp) = self.selectors(req, t, &mut r) {
            return resp;
        }
        let at = match self.list_options(req, false) {
            Ok(at) => at,
            Err(resp) => return resp,
        };
        let limit = req.param("limit").and_then(|l| l.parse::<u64>().ok());
        let token = req.param("continue").filter(|c| !c.is_empty());
        let mut resp = match at {
            // The door pages the list it reads.
            At::Newest => {
                r.limit = limit;
                r.continue_token = token.map(str::to_string);
                match self.cluster.call(r) {
                    Ok(resp) => resp,
                    Err(e) => return HttpResponse::error(&e, Some(t.kind), ""),
                }
            }
            // An older version: the door reads now, the kept writes take it back.
            At::Exact(n) => {
                let shape = r.clone();
                let now = match self.cluster.call(r) {
                    Ok(resp) => resp.items,
                    Err(e) => return HttpResponse::error(&e, Some(t.kind), ""),
                };
                let Some(then) = self.list_at(&shape, now, n) else {
                    let e = ApiError {
                        code: 410,
                        reason: "Expired",
                        message: "The resourceVersion for the provided list is too old.".into(),
                        kubectl_message: None,
                        details: None,
                    };
                    return HttpResponse::json(410, &status_of(&e, None, ""));
                };
                let filtered = shape.labels.is_some() || !shape.fields.is_empty();
                match crate::apiserver::pagination::paginate(then, n, limit, token, filtered) {
                    Ok(p) => ApiResponse {
                        code: 200,
                        items: p.items,
                        revision: n,
                        continue_token: p.continue_token,
                        remaining: p.remaining,
                        ..Default::default()
                    },
                    Err(e) => return HttpResponse::error(&e, Some(t.kind), ""),
                }
            }
        };
        let rv = resp.revision;
        let objs: Vec<&Object> = resp.items.iter().map(|o| &**o).collect();
        if let Some(tw) = table_wanted(req) {
            let mut tab = table(t.kind, &objs, tw, rv, self.cluster.now());
            list_metadata(&mut tab, &mut resp);
            return HttpResponse::json(200, &tab);
        }
        let items: Vec<Value> = objs.iter().map(|o| self.object_json(o)).collect();
        let (list_kind, api_version) = Self::list_type(t);
        let mut list = json!({
            "kind": list_kind,
            "apiVersion": api_version,
            "metadata": {"resourceVersion": rv.to_string()},
            "items": items,
        });
        list_metadata(&mut list, &mut resp);
        HttpResponse::json(200, &list)
    }

    pub(super) fn write(&mut self, req: &HttpRequest, t: &Target, verb: Verb) -> HttpResponse {
        let r = match self.resource_request(req, t, verb) {
            Ok(r) => r,
            Err(resp) => return resp,
        };
        let mut name = t.name.clone().unwrap_or_default();
        let result = match (verb, r.subresource) {
            (Verb::Create, "eviction") => self.evict(req, r),
            (Verb::Create, "binding") => self.bind(req, r),
            (Verb::Create, "token") if t.kind == crate::api::Kind::ServiceAccount => {
                self.token_request(req, r)
            }
            (Verb::Create, "") => match self.body(req) {
                Ok(body) => {
                    // A create's error names the object of the body (`The Deployment
                    // "x" is invalid`), as the API server's does.
                    if t.name.is_none() {
                        name = body
                            .pointer("/metadata/name")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string();
                    }
                    self.create(req, t, r, body)
                }
                Err(e) => Err(e),
            },
            (Verb::Update, _) => self.update(req, t, r),
            (Verb::Patch, _) => self.patch(req, t, r),
            (Verb::Delete, "") => self.delete(req, t, r),
            (Verb::DeleteCollection, "") => self.delete_collection(req, t, r),
            _ => return not_found_path(),
        };
        match result {
            Ok(r) => r,
            Err(e) => HttpResponse::error(&e, Some(t.kind), &name),
        }
    }

    /// The object a write answers with: `status` for the code, with its warnings.
    fn answer(&self, resp: ApiResponse, sub: &str) -> HttpResponse {
        let status = resp.code;
        let r = match (resp.object, sub) {
            (Some(o), "scale") => HttpResponse::json(status, &scale_of(&o).unwrap_or(Value::Null)),
            (Some(o), _) => HttpResponse::json(status, &self.object_json(&o)),
            (None, _) => HttpResponse::json(
                200,
                &json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success"}),
            ),
        };
        with_warnings(r, &resp.warnings)
    }

    fn create(
        &mut self,
        req: &HttpRequest,
        t: &Target,
        mut r: ApiRequest,
        body: Value,
    ) -> Result<HttpResponse, ApiError> {
        let mut warnings = Vec::new();
        let validation = req.param("fieldValidation").unwrap_or("Warn");
        r.managed_fields = body.pointer("/metadata/managedFields").cloned();
        let mut obj = decode_object(t.kind, body, validation, &mut warnings)?;
        let ns = t.namespace.clone().unwrap_or_default();
        if t.kind.namespaced() {
            let m = obj.meta_mut();
            if m.namespace.is_empty() {
                m.namespace = ns.clone();
            } else if m.namespace != ns {
                return Err(ApiError::bad_request(
                    "the namespace of the provided object does not match the namespace sent on the request".into(),
                ));
            }
        }
        if !obj.meta().resource_version.is_empty() {
            return Err(ApiError::bad_request(
                "resourceVersion should not be set on objects to be created".into(),
            ));
        }
        crate::apiserver::prepare::clear_server_fields(&mut obj);
        r.name = obj.meta().name.clone();
        r.namespace = obj.meta().namespace.clone();
        r.body = Body::Object(obj);
        let mut resp = self.cluster.call(r)?;
        warnings.append(&mut resp.warnings);
        resp.warnings = warnings;
        Ok(self.answer(resp, ""))
    }

    fn update(
        &mut self,
        req: &HttpRequest,
        t: &Target,
        mut r: ApiRequest,
    ) -> Result<HttpResponse, ApiError> {
        let body = self.body(req)?;
        let name = t.name.clone().unwrap_or_default();
        let key = ObjKey::new(&r.namespace, &name);
        let live = self
            .cluster
            .store
            .get_object(t.kind, &key)
            .cloned()
            .ok_or_else(|| ApiError::not_found(t.kind, &name))?;
        if r.subresource == "scale" {
            // A PUT of the Scale: its replicas (and resourceVersion) onto the object.
            r.body = Body::Patch(
                PatchType::Merge,
                json!({"spec": {"replicas": body.pointer("/spec/replicas").cloned().unwrap_or(Value::Null)},
                       "metadata": {"resourceVersion": body.pointer("/metadata/resourceVersion").cloned().unwrap_or(Value::Null)}}),
            );
            let sub = r.subresource;
            let resp = self.cluster.call(r)?;
            return Ok(self.answer(resp, sub));
        }
        let mut warnings = Vec::new();
        let validation = req.param("fieldValidation").unwrap_or("Warn");
        r.managed_fields = body.pointer("/metadata/managedFields").cloned();
        let mut obj = decode_object(t.kind, body, validation, &mut warnings)?;
        if obj.meta().name != name {
            return Err(ApiError::bad_request(format!(
                "the name of the object ({}) does not match the name on the URL ({name})",
                obj.meta().name
            )));
        }
        if obj.meta().namespace.is_empty() {
            obj.meta_mut().namespace = key.namespace.clone();
        }
        crate::apiserver::prepare::keep_hidden(&live, &mut obj);
        r.body = Body::Object(obj);
        let sub = r.subresource;
        let mut resp = self.cluster.call(r)?;
        warnings.append(&mut resp.warnings);
        resp.warnings = warnings;
        Ok(self.answer(resp, sub))
    }

    fn patch(
        &mut self,
        req: &HttpRequest,
        t: &Target,
        mut r: ApiRequest,
    ) -> Result<HttpResponse, ApiError> {
        let ct = req.header("content-type").unwrap_or("");
        let ct = ct.split(';').next().unwrap_or("").trim();
        if ct == "application/apply-patch+yaml" || ct == "application/apply-patch+cbor" {
            let applied = self.body(req)?;
            if req.param("fieldManager").is_none_or(str::is_empty) {
                return Err(ApiError::bad_request(
                    "PATCH, application/apply-patch+yaml requests must include a fieldManager query parameter".into(),
                ));
            }
            r.manager.operation = crate::apiserver::managed_fields::Operation::Apply;
            r.body = Body::Apply {
                applied,
                force: req.flag("force"),
            };
            r.field_validation = match req.param("fieldValidation") {
                Some("Warn") => "Warn",
                Some("Ignore") => "Ignore",
                _ => "Strict",
            };
            let resp = self.cluster.call(r)?;
            return Ok(self.answer(resp, ""));
        }
        let Some(pt) = PatchType::from_content_type(ct) else {
            return Err(ApiError {
                code: 415,
                reason: "UnsupportedMediaType",
                message: format!("the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml (got {ct})"),
                kubectl_message: None,
                details: None,
            });
        };
        let body = if self.autoscaling_v1.get() && r.subresource != "scale" {
            let patch = self.raw_body(req)?;
            let (pt2, body) = self.patch_in_v1(t, &r, pt, &patch)?;
            r.body = Body::Patch(pt2, body);
            None
        } else {
            Some(self.body(req)?)
        };
        if let Some(body) = body {
            r.body = Body::Patch(pt, body);
        }
        r.field_validation = match req.param("fieldValidation") {
            Some("Strict") => "Strict",
            Some("Ignore") => "Ignore",
            _ => "Warn",
        };
        let sub = r.subresource;
        let resp = self.cluster.call(r)?;
        Ok(self.answer(resp, sub))
    }

    /// A patch sent through autoscaling/v1 applies to the object as v1 shows it: the
    /// live object is converted, patched, converted back, and written as a JSON patch
    /// of its metadata, spec and status (the live resourceVersion is its precondition
    /// unless the patch set one).
    fn patch_in_v1(
        &self,
        t: &Target,
        r: &ApiRequest,
        pt: PatchType,
        patch: &Value,
    ) -> Result<(PatchType, Value), ApiError> {
        use crate::apiserver::autoscaling_v1::{to_v1, to_v2};
        let key = ObjKey::new(&r.namespace, &r.name);
        // Missing: the door answers (its 403 comes before the 404).
        let Some(live) = self.cluster.store.get_object(t.kind, &key) else {
            return Ok((pt, patch.clone()));
        };
        let mut doc = to_v1(&live.to_json());
        crate::apiserver::patch::apply_patch(&mut doc, pt, patch).map_err(|e| {
            if pt == PatchType::Json && e.code == 422 {
                ApiError::invalid(t.kind, &r.name, &[e.message])
            } else {
                e
            }
        })?;
        let v2 = to_v2(&doc);
        let ops: Vec<Value> = ["metadata", "spec", "status"]
            .iter()
            .filter_map(|k| {
                let v = v2.get(*k)?;
                Some(json!({"op": "add", "path": format!("/{k}"), "value": v}))
            })
            .collect();
        Ok((PatchType::Json, Value::Array(ops)))
    }

    /// The DeleteOptions of the body (or the query), and whether they ask for a dry run:
    /// client-go sends `dryRun` in the body of a DELETE, not in its query.
    fn delete_options(&mut self, req: &HttpRequest) -> Result<(DeleteOptions, bool), ApiError> {
        let body: Value = if req.body.is_empty() {
            json!({})
        } else {
            self.body(req)?
        };
        let mut dry_run = false;
        for v in body
            .get("dryRun")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            match v.as_str() {
                Some("All") => dry_run = true,
                other => {
                    return Err(ApiError::invalid_delete_options(&[format!(
                        "dryRun: Unsupported value: \"{}\": supported values: \"All\"",
                        other.unwrap_or_default()
                    )]))
                }
            }
        }
        let grace = body
            .get("gracePeriodSeconds")
            .and_then(Value::as_i64)
            .or_else(|| req.param("gracePeriodSeconds").and_then(|s| s.parse().ok()));
        let propagation = body
            .get("propagationPolicy")
            .and_then(Value::as_str)
            .or(req.param("propagationPolicy"))
            .map(str::to_string);
        if let Some(p) = &propagation {
            if !matches!(p.as_str(), "Orphan" | "Background" | "Foreground") {
                return Err(ApiError::invalid_delete_options(&[format!(
                    "propagationPolicy: Unsupported value: \"{p}\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\""
                )]));
            }
        }
        let uid = body
            .pointer("/preconditions/uid")
            .and_then(Value::as_str)
            .map(str::to_string);
        let options = DeleteOptions {
            grace_period_seconds: grace,
            propagation,
            precondition_uid: uid,
        };
        Ok((options, dry_run))
    }

    fn delete(
        &mut self,
        req: &HttpRequest,
        t: &Target,
        mut r: ApiRequest,
    ) -> Result<HttpResponse, ApiError> {
        let (options, body_dry_run) = self.delete_options(req)?;
        r.body = Body::Delete(options);
        r.dry_run |= body_dry_run;
        let key = ObjKey::new(&r.namespace, &r.name);
        let dry_run = r.dry_run;
        let resp = self.cluster.call(r)?;
        // Gone at once: the Status of a finished delete carries the object's
        // identity; still terminating (grace, finalizers): the object as it is now.
        let still = self.cluster.store.get_object(t.kind, &key).cloned();
        Ok(match still {
            Some(o) if !dry_run => HttpResponse::json(200, &self.object_json(&o)),
            _ => {
                let uid = resp
                    .object
                    .map(|o| o.meta().uid.clone())
                    .unwrap_or_default();
                HttpResponse::json(
                    200,
                    &json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
                            "details": {"name": key.name, "group": discovery::group_version(t.kind).0,
                                        "kind": t.kind.resource(), "uid": uid}}),
                )
            }
        })
    }

    fn delete_collection(
        &mut self,
        req: &HttpRequest,
        t: &Target,
        r: ApiRequest,
    ) -> Result<HttpResponse, ApiError> {
        // The collection is listed (with the request's selectors), then each object
        // deleted: requests of their own, as the registry's DeleteCollection makes them.
        let mut list = r.clone();
        list.verb = Verb::List;
        if let Err(resp) = self.selectors(req, t, &mut list) {
            return Ok(resp);
        }
        let listed = self.cluster.call(list)?;
        let (options, body_dry_run) = self.delete_options(req)?;
        let mut items = Vec::new();
        for o in &listed.items {
            let mut d = r.clone();
            d.dry_run |= body_dry_run;
            d.verb = Verb::Delete;
            d.namespace = o.meta().namespace.clone();
            d.name = o.meta().name.clone();
            d.body = Body::Delete(options.clone());
            let resp = self.cluster.call(d)?;
            let key = ObjKey::of(o.meta());
            match self.cluster.store.get_object(t.kind, &key) {
                Some(now) => items.push(self.object_json(now)),
                None => items.push(
                    resp.object
                        .map(|x| x.to_json())
                        .unwrap_or_else(|| o.to_json()),
                ),
            }
        }
        Ok(HttpResponse::json(200, &{
            let (list_kind, api_version) = Self::list_type(t);
            json!({"kind": list_kind, "apiVersion": api_version,
                    "metadata": {"resourceVersion": self.revision().to_string()}, "items": items})
        }))
    }

    fn evict(&mut self, req: &HttpRequest, r: ApiRequest) -> Result<HttpResponse, ApiError> {
        let body = self.body(req)?;
        if let Some(n) = body.pointer("/metadata/name").and_then(Value::as_str) {
            if n != r.name {
                return Err(ApiError::bad_request(
                    "name in URL does not match name in Eviction object".to_string(),
                ));
            }
        }
        self.cluster.call(r)?;
        Ok(HttpResponse::json(
            201,
            &json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201}),
        ))
    }

    /// `POST serviceaccounts/NAME/token`: the TokenRequest back, with its token.
    fn token_request(
        &mut self,
        req: &HttpRequest,
        mut r: ApiRequest,
    ) -> Result<HttpResponse, ApiError> {
        use crate::apiserver::request::ReviewAnswer;
        use crate::apiserver::service_account::TokenRequestSpec;
        let body = self.body(req)?;
        let spec = body.get("spec").cloned().unwrap_or(Value::Null);
        let audiences = spec
            .get("audiences")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default();
        let expiration_seconds = spec.get("expirationSeconds").and_then(Value::as_i64);
        r.body = Body::TokenRequest(TokenRequestSpec {
            audiences,
            expiration_seconds,
        });
        let (ns, name) = (r.namespace.clone(), r.name.clone());
        let resp = self.cluster.call(r)?;
        let Some(ReviewAnswer::Token(t)) = resp.review else {
            return Err(ApiError::bad_request("no token issued".into()));
        };
        Ok(HttpResponse::json(201, &t.to_json(&ns, &name)))
    }

    fn bind(&mut self, req: &HttpRequest, mut r: ApiRequest) -> Result<HttpResponse, ApiError> {
        let body = self.body(req)?;
        let node = body
            .pointer("/target/name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        r.body = Body::Bind(node);
        self.cluster.call(r)?;
        Ok(HttpResponse::json(
            201,
            &json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201}),
        ))
    }
}

/// A chunked list's `continue` and `remainingItemCount` in its metadata.
fn list_metadata(list: &mut Value, resp: &mut ApiResponse) {
    if !resp.continue_token.is_empty() {
        list["metadata"]["continue"] = json!(std::mem::take(&mut resp.continue_token));
    }
    if let Some(n) = resp.remaining {
        list["metadata"]["remainingItemCount"] = json!(n);
    }
}
