//! The lines between cards: ownerReferences (CronJob → Job, Deployment → ReplicaSet,
//! owner → Pod) and bindings (Pod → Node).

use super::*;

/// Lines: Deployment → ReplicaSet → Pod and CronJob → Job → Pod (ownerReferences),
/// Pod → Node (binding).
pub(super) fn links(m: &mut ChainModel) {
    for j in &m.jobs {
        if let Some(cj) = m
            .cronjobs
            .iter()
            .find(|c| Some(&c.name) == j.owner.as_ref())
        {
            m.links.push(Link {
                x1: col_x(0) + COL_W,
                y1: cj.y + OWNER_H / 2.0,
                x2: col_x(1),
                y2: j.y + OWNER_H / 2.0,
                kind: "owner",
            });
        }
    }
    for rs in &m.replicasets {
        if let Some(d) = m
            .deployments
            .iter()
            .find(|d| Some(&d.name) == rs.owner.as_ref())
        {
            m.links.push(Link {
                x1: col_x(0) + COL_W,
                y1: d.y + OWNER_H / 2.0,
                x2: col_x(1),
                y2: rs.y + OWNER_H / 2.0,
                kind: "owner",
            });
        }
    }
    for p in &m.pods {
        let owner_y = m
            .replicasets
            .iter()
            .find(|r| Some(&r.name) == p.owner.as_ref())
            .map(|r| r.y)
            .or_else(|| {
                m.jobs
                    .iter()
                    .find(|j| Some(&j.name) == p.owner.as_ref())
                    .map(|j| j.y)
            })
            .or_else(|| {
                m.daemonsets
                    .iter()
                    .find(|d| Some(&d.name) == p.owner.as_ref())
                    .map(|d| d.y)
            })
            .or_else(|| {
                m.statefulsets
                    .iter()
                    .find(|d| Some(&d.name) == p.owner.as_ref())
                    .map(|d| d.y)
            });
        if let Some(oy) = owner_y {
            m.links.push(Link {
                x1: col_x(1) + COL_W,
                y1: oy + OWNER_H / 2.0,
                x2: col_x(2),
                y2: p.y + POD_H / 2.0,
                kind: "owner",
            });
        }
        if let Some(n) = m.nodes.iter().find(|n| n.name == p.node) {
            m.links.push(Link {
                x1: col_x(2) + COL_W,
                y1: p.y + POD_H / 2.0,
                x2: col_x(3),
                y2: n.y + NODE_H / 2.0,
                kind: "binding",
            });
        }
    }
}
