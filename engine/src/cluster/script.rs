//! The learner's controller as the cluster runs it: install, reload, pause, resume.

use super::registry::CtlKey;
use super::Cluster;
use crate::controllers::script::{ScriptController, ScriptSpec};

impl Cluster {
    /// Install (or reload, or with None remove) the learner's controller. Its
    /// informers list what it watches: every object of its kind in its namespace is
    /// queued, as a new controller's first list adds them all.
    pub fn set_my_controller(&mut self, spec: Option<ScriptSpec>) {
        let first = spec.as_ref().map(|s| {
            self.store
                .list_shared(s.for_kind, Some(&s.namespace))
                .iter()
                .map(|o| crate::apiserver::ObjKey::of(o.meta()))
                .collect::<Vec<_>>()
        });
        let ctl = &mut self.controllers.script;
        ctl.install(spec);
        let mut keys = ctl.take_held();
        keys.extend(first.unwrap_or_default());
        for k in keys {
            self.controller_requeue(CtlKey::Script(k));
        }
    }

    /// Pause or resume it: a paused controller holds its keys; resuming queues them.
    pub fn pause_my_controller(&mut self, paused: bool) {
        self.controllers.script.paused = paused;
        if !paused {
            for k in self.controllers.script.take_held() {
                self.controller_requeue(CtlKey::Script(k));
            }
        }
    }

    /// The learner's controller and what it did.
    pub fn my_controller(&self) -> &ScriptController {
        &self.controllers.script
    }

    /// How many keys wait in its queue.
    pub fn my_controller_queued(&self) -> usize {
        self.controllers.script.queued()
    }
}
