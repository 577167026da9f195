//! The chain — Deployment → ReplicaSets → Pods → Nodes — as cards with spec beside
//! status and the lines between them, laid out here so lines and cards always agree.
//!
//! The files: the cards' models (`cards`), the columns laid out from the store
//! (`columns`), the ownership and binding lines (`links`), and the Service cards with
//! their routes (`services`).

use super::*;

mod cards;
mod columns;
mod links;
mod services;

pub use cards::*;
pub use columns::node_views;
use columns::{
    cron_job_views, daemon_set_views, deployment_views, job_views, pair_replacements, pod_views,
    pods_by_owner, replica_set_views, replica_sets_oldest_first, stateful_set_views,
};
use links::links;
pub use services::ROUTE_SECONDS;
use services::{routes, service_cards};

/// Width of a column of cards (px).
pub const COL_W: f64 = 238.0;

/// Horizontal gap between columns (px).
pub const GAP: f64 = 44.0;

/// Height of a Pod card (px): four lines (name; status; uid and node; what replaced it).
pub const POD_H: f64 = 84.0;

/// Height of a Node card (px): its name, two bars, four lines (Pods, status, heartbeat, taints).
pub const NODE_H: f64 = 138.0;

/// Height of a Deployment / ReplicaSet card (px).
pub const OWNER_H: f64 = 84.0;

/// Vertical gap between cards (px).
pub const V_GAP: f64 = 10.0;

/// Height of a Service card (px).
pub const SERVICE_H: f64 = 92.0;

/// How far left of the Pod column the first Service's lane runs (px).
pub const ROUTE_STUB: f64 = 16.0;

/// Spacing of the further Services' lanes in the gap left of the Pod column (px).
pub const ROUTE_LANE: f64 = 6.0;

/// Where a route enters a Pod card, below its top (px): above the ownerReference line,
/// which enters at the middle.
pub const ROUTE_INTO: f64 = 16.0;

/// A line between two cards (ownerReference or binding).
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// Start (right edge of the left card).
    pub x1: f64,
    /// Start y.
    pub y1: f64,
    /// End (left edge of the right card).
    pub x2: f64,
    /// End y.
    pub y2: f64,
    /// `owner` or `binding`.
    pub kind: &'static str,
}

/// The whole chain picture.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ChainModel {
    /// Deployments.
    pub deployments: Vec<DeploymentView>,
    /// ReplicaSets.
    pub replicasets: Vec<ReplicaSetView>,
    /// CronJobs (below the Deployments).
    pub cronjobs: Vec<CronJobView>,
    /// Jobs (below the ReplicaSets).
    pub jobs: Vec<JobView>,
    /// DaemonSets (below the Jobs).
    pub daemonsets: Vec<DaemonSetView>,
    /// StatefulSets (below the DaemonSets).
    pub statefulsets: Vec<StatefulSetView>,
    /// Pods.
    pub pods: Vec<PodView>,
    /// Nodes.
    pub nodes: Vec<NodeView>,
    /// Services (every one but the API server's own `default/kubernetes` and the
    /// add-ons' in `kube-system`).
    pub services: Vec<ServiceCard>,
    /// Lines.
    pub links: Vec<Link>,
    /// Total height (px).
    pub height: f64,
}

pub(super) fn rv_of(m: &ObjectMeta) -> u64 {
    m.resource_version.parse().unwrap_or(0)
}

/// How a card looks against the previous frame: just created (fades in), just
/// written (pulses), or unchanged. Driven by the store, not timers, so a card the
/// layout moves keeps its look (a CSS animation would restart on every move).
pub fn freshness(
    rv: u64,
    created_ms: SimTime,
    prev: Option<(u64, SimTime)>,
) -> Option<&'static str> {
    let (prev_rev, prev_now) = prev?;
    if created_ms > prev_now {
        Some("fresh")
    } else if rv > prev_rev {
        Some("changed")
    } else {
        None
    }
}

/// Left edge of column `i`.
pub fn col_x(i: usize) -> f64 {
    i as f64 * (COL_W + GAP)
}

/// An owner card's top: centred on its children's cards (tops `ys`, each `child_h`
/// tall) when it has some, else at the next free slot; never above `next_free`, which
/// moves below the card.
fn owner_y(ys: impl Iterator<Item = f64>, child_h: f64, next_free: &mut f64) -> f64 {
    let ys: Vec<f64> = ys.collect();
    let want = match (ys.first(), ys.last()) {
        (Some(top), Some(last)) => (top + last + child_h) / 2.0 - OWNER_H / 2.0,
        _ => *next_free,
    };
    let y = want.max(*next_free);
    *next_free = y + OWNER_H + V_GAP;
    y
}

/// Build the chain model: Deployments → ReplicaSets → Pods → Nodes, laid out in columns.
pub fn chain_model(c: &Cluster) -> ChainModel {
    let mut m = ChainModel::default();
    let rss = replica_sets_oldest_first(c);
    let pods = pods_by_owner(c, &rss);
    m.services = service_cards(c);
    let band = m.services.len() as f64 * (SERVICE_H + V_GAP);
    let pods_h = pod_views(&mut m, &pods, band);
    pair_replacements(&mut m, &pods);
    let rs_free = replica_set_views(&mut m, &rss);
    let job_free = job_views(&mut m, c, rs_free);
    let ds_free = daemon_set_views(&mut m, c, job_free);
    stateful_set_views(&mut m, c, ds_free);
    let d_free = deployment_views(&mut m, c);
    cron_job_views(&mut m, c, d_free);
    m.nodes = node_views(c);
    links(&mut m);
    routes(&mut m, c);
    let owners_h = |ys: Vec<f64>| ys.into_iter().map(|y| y + OWNER_H).fold(0.0, f64::max);
    let nodes_h = m.nodes.len() as f64 * (NODE_H + V_GAP);
    m.height = pods_h
        .max(nodes_h)
        .max(owners_h(m.replicasets.iter().map(|r| r.y).collect()))
        .max(owners_h(m.deployments.iter().map(|d| d.y).collect()))
        .max(owners_h(m.jobs.iter().map(|j| j.y).collect()))
        .max(owners_h(m.daemonsets.iter().map(|d| d.y).collect()))
        .max(owners_h(m.statefulsets.iter().map(|d| d.y).collect()))
        .max(owners_h(m.cronjobs.iter().map(|j| j.y).collect()));
    m
}
