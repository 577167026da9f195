//! The screen reader's view of the cluster: an `aria-live` region that announces the
//! changes a learner would otherwise only see — a node going NotReady or Ready again, a
//! Deployment's Ready count — at a pace a screen reader can follow. Changes are
//! gathered on every frame, the latest per object kept, and spoken at most every
//! [`PACE_MS`] of wall time, a few at a time.

use crate::i18n::{t, trf, Lang};
use crate::sim::use_sim;
use crate::view::natural_cmp;
use kubeplay_engine::api::{Deployment, Node};
use kubeplay_engine::cluster::Cluster;
use std::collections::BTreeMap;
use yew::prelude::*;

/// Wall milliseconds between two announcements.
pub const PACE_MS: f64 = 2_000.0;

/// Most changes spoken in one announcement (the rest wait for the next).
pub const PER_ANNOUNCEMENT: usize = 3;

/// More objects of a kind than this are announced as one count.
pub const ONE_BY_ONE_MAX: usize = 30;

/// What is announced about the cluster: a sentence per object (key → sentence).
pub fn facts(c: &Cluster, lang: Lang) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let nodes: Vec<&Node> = c.store.list::<Node>().collect();
    if nodes.len() <= ONE_BY_ONE_MAX {
        for n in &nodes {
            let said = if n.ready_status() == "True" {
                trf(lang, "{} Ready", &[&n.metadata.name])
            } else {
                trf(lang, "{} NotReady", &[&n.metadata.name])
            };
            out.insert(format!("node/{}", n.metadata.name), said);
        }
    } else {
        let ready = nodes.iter().filter(|n| n.ready_status() == "True").count();
        out.insert(
            "nodes".into(),
            trf(lang, "{} of {} nodes Ready", &[&ready, &nodes.len()]),
        );
    }
    let deployments: Vec<&Deployment> = c
        .store
        .list::<Deployment>()
        .filter(|d| crate::view::drawn(&d.metadata))
        .collect();
    if deployments.len() <= ONE_BY_ONE_MAX {
        for d in &deployments {
            out.insert(
                format!("deployment/{}/{}", d.metadata.namespace, d.metadata.name),
                trf(
                    lang,
                    "{} {}/{} ready",
                    &[&d.metadata.name, &d.status.ready_replicas, &d.spec.replicas],
                ),
            );
        }
    } else {
        let done = deployments
            .iter()
            .filter(|d| d.status.ready_replicas == d.spec.replicas)
            .count();
        out.insert(
            "deployments".into(),
            trf(
                lang,
                "{} of {} Deployments fully ready",
                &[&done, &deployments.len()],
            ),
        );
    }
    out
}

/// The changes from `before` to `after`, in name order: appeared or changed facts
/// (a vanished object is said by its owner's count).
pub fn changes(
    before: &BTreeMap<String, String>,
    after: &BTreeMap<String, String>,
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = after
        .iter()
        .filter(|(k, v)| before.get(*k) != Some(*v))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    kubeplay_engine::sorting::sort_by(&mut out, |a, b| natural_cmp(&a.0, &b.0));
    out
}

/// Queue `news`, keeping only the latest sentence per object.
pub fn enqueue(queue: &mut Vec<(String, String)>, news: Vec<(String, String)>) {
    for (k, v) in news {
        match queue.iter_mut().find(|(qk, _)| *qk == k) {
            Some(slot) => slot.1 = v,
            None => queue.push((k, v)),
        }
    }
}

fn wall_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The live region (visually hidden).
#[function_component(Announcer)]
pub fn announcer() -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let seen = use_mut_ref(|| None::<BTreeMap<String, String>>);
    let queue = use_mut_ref(Vec::<(String, String)>::new);
    let spoken = use_mut_ref(|| (f64::NEG_INFINITY, String::new()));
    let now_facts = facts(&sim.state.borrow().cluster, lang);
    {
        let mut seen = seen.borrow_mut();
        match seen.as_ref() {
            // The opening state is not news: only what changes after it is.
            None => *seen = Some(now_facts),
            Some(before) => {
                let news = changes(before, &now_facts);
                if !news.is_empty() {
                    enqueue(&mut queue.borrow_mut(), news);
                    *seen = Some(now_facts);
                }
            }
        }
    }
    {
        let mut spoken = spoken.borrow_mut();
        let now = wall_ms();
        let mut q = queue.borrow_mut();
        if !q.is_empty() && now - spoken.0 >= PACE_MS {
            let n = q.len().min(PER_ANNOUNCEMENT);
            let said: Vec<String> = q.drain(..n).map(|(_, v)| v).collect();
            *spoken = (now, said.join("; "));
        }
    }
    html! {
        <div class="sr" role="status" aria-live="polite" aria-atomic="true" data-testid="announcer"
             aria-label={t(lang, "Cluster changes")}>{ spoken.borrow().1.clone() }</div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn only_what_changed_is_news_in_natural_name_order() {
        let before = m(&[
            ("node/node-2", "node-2 Ready"),
            ("node/node-10", "node-10 Ready"),
        ]);
        let after = m(&[
            ("node/node-2", "node-2 NotReady"),
            ("node/node-10", "node-10 NotReady"),
            ("deployment/default/web", "web 3/3 ready"),
        ]);
        let news = changes(&before, &after);
        let keys: Vec<&str> = news.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            ["deployment/default/web", "node/node-2", "node/node-10"]
        );
    }

    #[test]
    fn a_queued_object_keeps_only_its_latest_sentence() {
        let mut q = vec![(
            "deployment/default/web".to_string(),
            "web 1/3 ready".to_string(),
        )];
        enqueue(
            &mut q,
            vec![
                ("deployment/default/web".into(), "web 2/3 ready".into()),
                ("node/node-2".into(), "node-2 NotReady".into()),
            ],
        );
        assert_eq!(
            q,
            vec![
                (
                    "deployment/default/web".to_string(),
                    "web 2/3 ready".to_string()
                ),
                ("node/node-2".to_string(), "node-2 NotReady".to_string()),
            ]
        );
    }
}
