//! Field ownership of writes (`apiserver::managed_fields`): who each write is as a
//! field manager, and server-side apply's entry points.
//!
//! kubectl's verbs write as their default `--field-manager` (`kubectl-edit`,
//! `kubectl-patch`, `kubectl-client-side-apply`, `kubectl-set`…, or the flag's value);
//! `kubectl scale` and `rollout undo` have no such flag, so the API server names them
//! by the User-Agent's first word, `kubectl` (scale on the `scale` subresource); the control plane's components as `kube-controller-manager`,
//! `kube-scheduler`, `kubelet`, `kube-apiserver`; the GitOps agent applies its declared
//! spec server-side with `--force-conflicts`, as drift-correcting agents do.

use super::*;
use crate::apiserver::managed_fields::{
    api_version, tracked_kind, Conflict, Entry, ManagedFields, Operation, Stamp, Writer,
};

/// kubectl's default field manager for a command line (its `--field-manager` if it
/// gives one).
pub fn kubectl_field_manager(command: &str) -> Writer {
    let words: Vec<&str> = command.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        if let Some(m) = w.strip_prefix("--field-manager=") {
            return Writer::update(m);
        }
        if *w == "--field-manager" {
            if let Some(m) = words.get(i + 1) {
                return Writer::update(m);
            }
        }
    }
    let verb = words
        .iter()
        .skip_while(|w| **w != "kubectl")
        .nth(1)
        .copied()
        .unwrap_or("");
    let manager = match verb {
        "scale" => {
            return Writer {
                manager: "kubectl".into(),
                operation: Operation::Update,
                subresource: "scale".into(),
            }
        }
        "apply" => "kubectl-client-side-apply",
        "create" => "kubectl-create",
        "edit" => "kubectl-edit",
        "patch" => "kubectl-patch",
        "replace" => "kubectl-replace",
        "label" => "kubectl-label",
        "annotate" => "kubectl-annotate",
        "set" => "kubectl-set",
        "rollout" if words.contains(&"undo") => "kubectl",
        "rollout" => "kubectl-rollout",
        "expose" => "kubectl-expose",
        "run" => "kubectl-run",
        "taint" => "kubectl-taint",
        _ => "kubectl",
    };
    Writer::update(manager)
}

impl Cluster {
    /// Field ownership (read-only).
    pub fn managed_fields(&self) -> &ManagedFields {
        &self.managed
    }

    /// Who a write by `who` is as a field manager.
    fn field_writer(&self, who: &Component) -> Writer {
        match who.writer.as_str() {
            writer::KUBECTL => {
                kubectl_field_manager(self.acting.as_ref().map_or("", |a| a.command.as_str()))
            }
            writer::GITOPS_SYNC => Writer {
                manager: writer::GITOPS_SYNC.into(),
                operation: Operation::Apply,
                subresource: String::new(),
            },
            writer::KUBE_APISERVER => Writer::update("kube-apiserver"),
            writer::DEFAULT_SCHEDULER | "kube-scheduler" => Writer::update("kube-scheduler"),
            w if w.starts_with(writer::KUBELET_PREFIX) => Writer::update("kubelet"),
            _ => Writer::update("kube-controller-manager"),
        }
    }

    /// An accepted create, update or delete: the writer's fields (see
    /// `apiserver::managed_fields`).
    pub(super) fn record_field_managers(&mut self, who: &Component, changes: &[Change]) {
        if self.applying {
            return;
        }
        let mut w = None;
        for ch in changes {
            if !tracked_kind(ch.kind) {
                continue;
            }
            let Some(new) = ch.new.as_deref() else {
                self.managed.forget(ch.kind, &ch.key);
                continue;
            };
            // A Pod a controller created is not tracked (the envelope's hot path).
            if ch.kind == Kind::Pod
                && who.writer != writer::KUBECTL
                && !self.managed.has(ch.kind, &ch.key)
            {
                continue;
            }
            let w = w.get_or_insert_with(|| self.field_writer(who)).clone();
            let now_json = new.to_json();
            let old_json = ch.old.as_deref().map(|o| o.to_json());
            if w.operation == Operation::Apply {
                // Applied with force: it owns what it declares (its spec), taken from
                // whoever had it.
                let applied = serde_json::json!({ "spec": now_json.get("spec").cloned().unwrap_or_default() });
                let live = old_json.unwrap_or_else(|| now_json.clone());
                if let Ok((_, entries)) = self
                    .managed
                    .plan_apply(ch.kind, &ch.key, &live, &applied, &w.manager, true)
                {
                    self.managed.finish_apply(
                        ch.kind,
                        &ch.key,
                        entries,
                        &w.manager,
                        &applied,
                        Stamp {
                            api_version: api_version(new),
                            time: self.now,
                        },
                    );
                }
                continue;
            }
            self.managed.record_update(
                ch.kind,
                &ch.key,
                old_json.as_ref(),
                &now_json,
                &w,
                Stamp {
                    api_version: api_version(new),
                    time: self.now,
                },
            );
        }
    }

    /// A server-side apply of `applied` (the manifest as written) onto the live
    /// object: the conflicts, or the object to write and the ownership after it.
    pub fn plan_server_side_apply(
        &self,
        live: &Object,
        applied: &serde_json::Value,
        manager: &str,
        force: bool,
    ) -> Result<(serde_json::Value, Vec<Entry>), Vec<Conflict>> {
        let key = ObjKey::of(live.meta());
        self.managed
            .plan_apply(live.kind(), &key, &live.to_json(), applied, manager, force)
    }

    /// A server-side apply that changed no field: only ownership changes.
    pub fn record_server_side_apply(
        &mut self,
        kind: Kind,
        key: &ObjKey,
        entries: Vec<Entry>,
        manager: &str,
        applied: &serde_json::Value,
    ) {
        let at = Stamp {
            api_version: kind.api_version(),
            time: self.now,
        };
        self.managed
            .finish_apply(kind, key, entries, manager, applied, at);
    }

    /// Write as a server-side apply: the write records no Update entry; the applier's
    /// Apply entry (and `entries` for the others) is recorded after it.
    pub fn submit_server_side_apply(
        &mut self,
        req: Request,
        entries: Vec<Entry>,
        manager: &str,
        applied: &serde_json::Value,
    ) -> Result<Vec<Change>, ApiError> {
        self.applying = true;
        let result = self.submit(&kubectl(), req);
        self.applying = false;
        let changes = result?;
        if let Some(ch) = changes
            .iter()
            .find(|c| tracked_kind(c.kind) && c.new.is_some())
        {
            let (kind, key) = (ch.kind, ch.key.clone());
            let at = Stamp {
                api_version: ch.new.as_deref().map(api_version).unwrap_or("v1"),
                time: self.now,
            };
            self.managed
                .finish_apply(kind, &key, entries, manager, applied, at);
        }
        Ok(changes)
    }
}
