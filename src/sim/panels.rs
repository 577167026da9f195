//! The page's panels by name, and which views are open.
//!
//! The chain and the lesson are always there (unless `panels=` leaves them out); the
//! other views ([`View`]: the control-plane bar, the request path, informers and
//! queues, What-if, Services, the node board, the timeline, Deployments, Events) come
//! in by need:
//!
//! - a lesson declares the views it uses (its scenario's `views:`);
//! - the state brings one in: a Service exists → Services; a second branch → What-if;
//!   the API server stopped or etcd without its quorum → the control-plane bar (with
//!   its way back up, whatever else was chosen);
//! - the learner opens or closes any view from one place, kept in the URL
//!   (`views=timeline,-services`);
//! - an author forces the page's panels with `panels=`, and then only those (and the
//!   learner's own choices) are open.

use super::SimState;
use kubeplay_engine::cluster::Cluster;
pub use kubeplay_engine::scenario::View;
use std::collections::BTreeMap;

/// A panel of the page, as `panels=` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Panel {
    /// Deployment → ReplicaSet → Pod → Node.
    Chain,
    /// The lesson: its current step, Run and its goals.
    Goals,
    /// The console.
    Console,
    /// The lesson picker (an embed's tool).
    Picker,
    /// The Share button (an embed's tool).
    Share,
    /// Writing one's own scenario (an embed's tool).
    Author,
    /// Importing a cluster (an embed's tool).
    Import,
    /// One of the views beside the chain.
    View(View),
}

impl Panel {
    /// The panels that are not views, in the order the docs list them.
    pub const CORE: [Panel; 7] = [
        Panel::Chain,
        Panel::Goals,
        Panel::Console,
        Panel::Picker,
        Panel::Share,
        Panel::Author,
        Panel::Import,
    ];

    /// Every panel: the core ones, then the views.
    pub fn all() -> impl Iterator<Item = Panel> {
        Panel::CORE
            .into_iter()
            .chain(View::ALL.iter().map(|v| Panel::View(*v)))
    }

    /// Its name in `panels=`.
    pub fn as_str(self) -> &'static str {
        match self {
            Panel::Chain => "chain",
            Panel::Goals => "goals",
            Panel::Console => "console",
            Panel::Picker => "picker",
            Panel::Share => "share",
            Panel::Author => "author",
            Panel::Import => "import",
            Panel::View(v) => v.as_str(),
        }
    }

    /// The panel named `s`, if any.
    pub fn parse(s: &str) -> Option<Panel> {
        Panel::all().find(|p| p.as_str() == s)
    }

    /// Every name `panels=` accepts, comma-separated (for the warning on a bad one).
    pub fn accepted() -> String {
        Panel::all()
            .map(Panel::as_str)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A comma-separated list of names (`panels=`, `views=`) as (name, was it negated with
/// a leading `-`), blanks dropped.
fn names(list: &str) -> impl Iterator<Item = (&str, bool)> {
    list.split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(|x| {
            x.strip_prefix('-')
                .map_or((x, false), |rest| (rest.trim(), true))
        })
}

/// `panels=` as read: the panels it names, and the names it does not know.
pub fn parse_panels(list: &str) -> (Vec<Panel>, Vec<String>) {
    let mut panels = Vec::new();
    let mut unknown = Vec::new();
    for (name, negated) in names(list) {
        match Panel::parse(name) {
            Some(p) if !negated => {
                if !panels.contains(&p) {
                    panels.push(p);
                }
            }
            _ => unknown.push(name.to_string()),
        }
    }
    (panels, unknown)
}

/// The views the learner opened or closed, which win over the lesson's and the
/// state's (`views=timeline,-services` in the URL).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewChoices(BTreeMap<View, bool>);

impl ViewChoices {
    /// `views=` as read, and the names it does not know.
    pub fn parse(list: &str) -> (ViewChoices, Vec<String>) {
        let mut choices = ViewChoices::default();
        let mut unknown = Vec::new();
        for (name, negated) in names(list) {
            match View::parse(name) {
                Some(v) => choices.set(v, !negated),
                None => unknown.push(name.to_string()),
            }
        }
        (choices, unknown)
    }

    /// What the learner chose for `v` (None: nothing).
    pub fn get(&self, v: View) -> Option<bool> {
        self.0.get(&v).copied()
    }

    /// Open or close `v`.
    pub fn set(&mut self, v: View, open: bool) {
        self.0.insert(v, open);
    }

    /// The `views=` value (empty: no choice made), in [`View::ALL`]'s order.
    pub fn param(&self) -> String {
        View::ALL
            .iter()
            .filter_map(|v| {
                self.get(*v)
                    .map(|open| format!("{}{}", if open { "" } else { "-" }, v.as_str()))
            })
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// The control plane cannot write (the API server stopped, or etcd without its
/// quorum): the bar with its way back up is open whatever was chosen.
pub fn control_plane_in_trouble(c: &Cluster) -> bool {
    c.apiserver_down_since().is_some() || c.etcd().lost_since.is_some()
}

/// The views the state brings in (see the module's doc).
fn brought_by_state(s: &SimState, v: View) -> bool {
    match v {
        View::Services => crate::view::has_services(&s.cluster),
        View::Compare => s.fork.is_some(),
        View::ControlPlane => control_plane_in_trouble(&s.cluster),
        View::Controller => s.cluster.my_controller().spec.is_some(),
        _ => false,
    }
}

impl SimState {
    /// Whether view `v` is open now.
    pub fn view_open(&self, v: View) -> bool {
        if v == View::ControlPlane && control_plane_in_trouble(&self.cluster) {
            return true;
        }
        if let Some(open) = self.options.views.get(v) {
            return open;
        }
        match &self.options.panels {
            Some(p) => p.contains(&Panel::View(v)),
            None => {
                self.scenario
                    .as_ref()
                    .is_some_and(|a| a.scenario.views.contains(&v))
                    || brought_by_state(self, v)
            }
        }
    }

    /// Whether panel `p` is on the page.
    pub fn shows(&self, p: Panel) -> bool {
        match p {
            Panel::View(v) => self.view_open(v),
            p => self.options.shows(p),
        }
    }

    /// The views open now, in [`View::ALL`]'s order.
    pub fn open_views(&self) -> Vec<View> {
        View::ALL
            .iter()
            .copied()
            .filter(|v| self.view_open(*v))
            .collect()
    }
}
