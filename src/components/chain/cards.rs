//! The chain's cards: one function per kind, each drawing its object's spec beside its
//! status in the room the geometry gives it.

use super::geo::{fit_name, Geo, INSPECT_W};
use super::lines::*;
use crate::i18n::{t, trf};
use crate::sim::{Selection, SimHandle, Verb};
use crate::view::*;
use kubeplay_engine::api::quantity::{format_bytes, format_cpu_milli};
use yew::prelude::*;

pub(super) fn deployment_card(
    sim: &SimHandle,
    g: &Geo,
    d: &DeploymentView,
    fresh: Option<&'static str>,
) -> Html {
    let lang = sim.lang();
    let gap = d.desired - d.ready;
    // The − and + buttons sit at the top right, beside the kind and the name.
    let buttons = if !sim.readonly() && !sim.is_fork_view() {
        58.0
    } else {
        0.0
    };
    let scale = |delta: i64| {
        let sim = sim.clone();
        let name = d.name.clone();
        let to = (d.desired + delta).max(0);
        Callback::from(move |_| sim.act(Verb::Scale(name.clone(), to)))
    };
    html! {
        <div key={format!("d/{}", d.name)} class={classes!("card", "deploy", (gap != 0).then_some("gap"), fresh)} style={g.card(0, d.y, OWNER_H)}
             data-testid={format!("deployment-{}", d.name)}>
            <div class="kind">
                if let Some((targets, min, max)) = &d.hpa {
                    // The first metric's reading, short enough for the card (the kind
                    // gives way first: the column head names it); the title has
                    // kubectl's whole TARGETS column and the bounds.
                    { hpa_kind(lang, targets, g.room(0) - buttons).0 }
                    <span class="hpa" data-testid={format!("hpa-{}", d.name)}
                          title={format!("{} — {targets}", trf(lang, "HorizontalPodAutoscaler: {} to {} replicas", &[min, max]))}>
                        { hpa_kind(lang, targets, g.room(0) - buttons).1 }
                    </span>
                } else {
                    { t(lang, "Deployment") }
                }
            </div>
            <div class="name" title={d.name.clone()}>{ fit_name(&d.name, g.name_chars(0, buttons)) }</div>
            <div class="specstatus">
                <span class="spec" title="spec.replicas">{ trf(lang, "wants {}", &[&d.desired]) }</span>
                <span class="status" data-testid={format!("ready-{}", d.name)} title="status.readyReplicas / spec.replicas">
                    { trf(lang, "ready {}/{}", &[&d.ready, &d.desired]) }
                </span>
                <span class="status">{ trf(lang, "available {}", &[&d.available]) }</span>
            </div>
            if !sim.readonly() && !sim.is_fork_view() {
                <div class="scale">
                    <button class="mini" onclick={scale(-1)} aria-label={trf(lang, "Scale down Deployment {}", &[&d.name])}>{"−"}</button>
                    <button class="mini" onclick={scale(1)} aria-label={trf(lang, "Scale up Deployment {}", &[&d.name])}>{"+"}</button>
                </div>
            }
        </div>
    }
}

/// A Service in front of its Pods: address, endpoints by state, and what its
/// requests met in the last seconds (red when some failed); each line in the words
/// that fit, the full ones in its tooltip.
pub(super) fn service_card(lang: crate::i18n::Lang, g: &Geo, s: &ServiceCard) -> Html {
    let (ready, not_ready, terminating) = s.endpoints;
    let room = g.room(0);
    let seconds = ROUTE_SECONDS + 1;
    let full_traffic = trf(
        lang,
        "{} failed · {} answered in the last {} s",
        &[&s.failed, &s.answered, &seconds],
    );
    let traffic = match (s.rps, s.answered + s.failed) {
        (None, 0) => t(lang, "no traffic").to_string(),
        _ => traffic_label(lang, s.answered, s.failed, seconds, room),
    };
    let mut title = s.rps.map_or(full_traffic.clone(), |rps| {
        format!("{full_traffic} · {}", trf(lang, "{} req/s", &[&rps]))
    });
    if let Some(through) = &s.through {
        title = format!("{title} · {}", trf(lang, "through {}", &[through]));
    }
    let full_kind = format!("{} · {} · {}", t(lang, "Service"), s.type_, s.address);
    let (kind, address) = service_kind_lines(lang, &s.type_, &s.address, room);
    let endpoints_title = format!(
        "{} — {}",
        trf(
            lang,
            "endpoints {} ready · {} not ready · {} terminating",
            &[&ready, &not_ready, &terminating]
        ),
        t(
            lang,
            "EndpointSlice endpoints: conditions.ready / not ready / conditions.terminating"
        )
    );
    html! {
        <div key={format!("svc/{}/{}", s.namespace, s.name)}
             class={classes!("card", "service", (s.failed > 0).then_some("failing"), (ready == 0).then_some("noready"))}
             style={g.card(2, s.y, SERVICE_H)} data-testid={format!("service-card-{}", s.name)}
             aria-label={format!("{full_kind} {}", s.name)}>
            <div class="kind" title={full_kind.clone()}>{ kind }</div>
            <div class="name" title={s.name.clone()}>{ fit_name(&s.name, g.name_chars(0, 0.0)) }</div>
            if let Some(a) = address {
                <div class="address" title={full_kind}>{ a }</div>
            }
            <div class="specstatus">
                <span class="status" title={endpoints_title}>{ endpoints_label(lang, s.endpoints, room) }</span>
            </div>
            <div class="traffic" data-testid={format!("service-traffic-{}", s.name)} {title}>{ traffic }</div>
        </div>
    }
}

/// A scaled Deployment's kind line in `room`: (the kind, the autoscaler's first
/// reading): `Deployment · HPA 50%/80%`, else `HPA 50%/80%`, else `HPA`.
fn hpa_kind(lang: crate::i18n::Lang, targets: &str, room: f64) -> (String, String) {
    let first = targets
        .split(", ")
        .next()
        .unwrap_or("")
        .split_once(": ")
        .map_or(targets, |(_, v)| v);
    let kind = t(lang, "Deployment").to_string();
    let forms = [
        (kind.clone(), format!(" · HPA {first}")),
        (String::new(), format!("HPA {first}")),
        (String::new(), "HPA".to_string()),
    ];
    let width =
        |(k, h): &(String, String)| super::geo::text_px(&format!("{k}{h}"), SMALL_PX, false);
    let last = forms.len() - 1;
    forms
        .into_iter()
        .enumerate()
        .find(|(i, f)| *i == last || width(f) <= room)
        .map(|(_, f)| f)
        .unwrap_or_default()
}

pub(super) fn replicaset_card(
    lang: crate::i18n::Lang,
    g: &Geo,
    r: &ReplicaSetView,
    fresh: Option<&'static str>,
) -> Html {
    html! {
        <div key={format!("rs/{}", r.name)} class={classes!("card", "rs", (r.desired == 0).then_some("idle"), fresh)} style={g.card(1, r.y, OWNER_H)}
             data-testid={format!("replicaset-{}", r.name)}>
            // The 🔍 sits at the top right, at the end of this line.
            <div class="kind" title={format!("{} · {}", t(lang, "ReplicaSet"), trf(lang, "revision {}", &[&r.revision]))}>
                { kind_label(t(lang, "ReplicaSet"), &trf(lang, "revision {}", &[&r.revision]), g.room(1) - INSPECT_W) }
            </div>
            <div class="name" title={r.name.clone()}>{ fit_name(&r.name, g.name_chars(1, 0.0)) }</div>
            <div class="specstatus">
                <span class="spec" title="spec.replicas">{ trf(lang, "desired {}", &[&r.desired]) }</span>
                <span class="status">{ trf(lang, "current {}", &[&r.current]) }</span>
                <span class="status">{ trf(lang, "ready {}", &[&r.ready]) }</span>
            </div>
        </div>
    }
}

/// A Job: completions (succeeded of wanted), what runs and what failed against the
/// back-off limit, and its STATUS as `kubectl get jobs` prints it.
pub(super) fn job_card(
    lang: crate::i18n::Lang,
    g: &Geo,
    j: &JobView,
    fresh: Option<&'static str>,
) -> Html {
    let state = match j.status.as_str() {
        "Complete" => Some("done"),
        "Failed" => Some("failed"),
        _ => None,
    };
    html! {
        <div key={format!("job/{}", j.name)} class={classes!("card", "rs", "job", state, fresh)} style={g.card(1, j.y, OWNER_H)}
             data-testid={format!("job-{}", j.name)}>
            <div class="kind" title={format!("{} · {}", t(lang, "Job"), j.status)}>{ kind_label(t(lang, "Job"), &j.status, g.room(1) - INSPECT_W) }</div>
            <div class="name" title={j.name.clone()}>{ fit_name(&j.name, g.name_chars(1, 0.0)) }</div>
            <div class="specstatus">
                <span class="spec" title="status.succeeded / spec.completions">{ trf(lang, "completions {}", &[&j.completions]) }</span>
                <span class="status" title="status.active">{ trf(lang, "active {}", &[&j.active]) }</span>
                <span class="status" title="status.failed / spec.backoffLimit" data-testid={format!("job-failed-{}", j.name)}>
                    { trf(lang, "failed {} (limit {})", &[&j.failed, &j.backoff_limit]) }
                </span>
            </div>
        </div>
    }
}

/// The second column's title: the owner kinds it shows (kind names, the same in
/// every language).
pub(super) fn owner_column_title(model: &ChainModel) -> String {
    let mut kinds = vec!["ReplicaSet"];
    if !model.jobs.is_empty() {
        kinds.push("Job");
    }
    if !model.daemonsets.is_empty() {
        kinds.push("DaemonSet");
    }
    if !model.statefulsets.is_empty() {
        kinds.push("StatefulSet");
    }
    kinds.join(" · ")
}

/// A StatefulSet: replicas wanted beside those that exist, Ready and up to date, and
/// the claims its Pods keep.
pub(super) fn statefulset_card(
    lang: crate::i18n::Lang,
    g: &Geo,
    d: &StatefulSetView,
    fresh: Option<&'static str>,
) -> Html {
    let gap = d.ready != d.replicas;
    html! {
        <div key={format!("sts/{}", d.name)} class={classes!("card", "rs", "statefulset", gap.then_some("gap"), fresh)} style={g.card(1, d.y, OWNER_H)}
             data-testid={format!("statefulset-{}", d.name)}>
            <div class="kind" title={format!("{} · {}", t(lang, "StatefulSet"), d.policy)}>{ kind_label(t(lang, "StatefulSet"), &d.policy, g.room(0) - INSPECT_W) }</div>
            <div class="name" title={d.name.clone()}>{ fit_name(&d.name, g.name_chars(0, 0.0)) }</div>
            <div class="specstatus">
                <span class="spec" title="spec.replicas">{ trf(lang, "want {}", &[&d.replicas]) }</span>
                <span class="status" title="status.readyReplicas" data-testid={format!("sts-ready-{}", d.name)}>{ trf(lang, "ready {}", &[&d.ready]) }</span>
                <span class="status" title="status.updatedReplicas">{ trf(lang, "up-to-date {}", &[&d.updated]) }</span>
                <span class="status" title="PersistentVolumeClaims">{ trf(lang, "claims {}", &[&d.claims]) }</span>
            </div>
        </div>
    }
}

/// A DaemonSet: nodes that should run its Pod (desired) beside those that do, Ready
/// and up to date.
pub(super) fn daemonset_card(
    lang: crate::i18n::Lang,
    g: &Geo,
    d: &DaemonSetView,
    fresh: Option<&'static str>,
) -> Html {
    let gap = d.ready != d.desired;
    html! {
        <div key={format!("ds/{}", d.name)} class={classes!("card", "rs", "daemonset", gap.then_some("gap"), fresh)} style={g.card(1, d.y, OWNER_H)}
             data-testid={format!("daemonset-{}", d.name)}>
            <div class="kind">{ t(lang, "DaemonSet · one Pod per eligible node") }</div>
            <div class="name" title={d.name.clone()}>{ fit_name(&d.name, g.name_chars(0, 0.0)) }</div>
            <div class="specstatus">
                <span class="spec" title="status.desiredNumberScheduled">{ trf(lang, "nodes {}", &[&d.desired]) }</span>
                <span class="status" title="status.currentNumberScheduled">{ trf(lang, "current {}", &[&d.current]) }</span>
                <span class="status" title="status.numberReady" data-testid={format!("ds-ready-{}", d.name)}>{ trf(lang, "ready {}", &[&d.ready]) }</span>
                <span class="status" title="status.updatedNumberScheduled">{ trf(lang, "up-to-date {}", &[&d.updated]) }</span>
                if d.misscheduled > 0 {
                    <span class="status" title="status.numberMisscheduled">{ trf(lang, "misscheduled {}", &[&d.misscheduled]) }</span>
                }
            </div>
        </div>
    }
}

/// A CronJob: its schedule and policy, active Jobs and the last scheduled run.
pub(super) fn cronjob_card(
    lang: crate::i18n::Lang,
    g: &Geo,
    j: &CronJobView,
    fresh: Option<&'static str>,
) -> Html {
    html! {
        <div key={format!("cj/{}", j.name)} class={classes!("card", "deploy", "cronjob", j.suspended.then_some("idle"), fresh)} style={g.card(0, j.y, OWNER_H)}
             data-testid={format!("cronjob-{}", j.name)}>
            <div class="kind">{ format!("{} · {}", t(lang, "CronJob"), j.policy) }</div>
            <div class="name" title={j.name.clone()}>{ fit_name(&j.name, g.name_chars(1, 0.0)) }</div>
            <div class="specstatus">
                <span class="spec" title="spec.schedule">{ &j.schedule }</span>
                <span class="status" title="status.active">{ trf(lang, "active {}", &[&j.active]) }</span>
                <span class="status" title="status.lastScheduleTime">
                    { if j.last == "<none>" { t(lang, "not run yet").to_string() } else { trf(lang, "last run {} ago", &[&j.last]) } }
                </span>
            </div>
        </div>
    }
}

pub(super) fn pod_icon(p: &PodView) -> Html {
    if !p.terminating
        && p.phase != "Succeeded"
        && p.phase != "Failed"
        && !p.ready
        && p.node.is_empty()
    {
        // Pending (not yet bound): a drawn clock, not an emoji some systems cannot draw.
        return html! {
            <svg class="pending-ico" viewBox="0 0 16 16" aria-hidden="true"><circle cx="8" cy="8" r="6" fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M8 4.5V8l2.5 1.8" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>
        };
    }
    html! { { pod_glyph(p) } }
}

pub(super) fn pod_glyph(p: &PodView) -> &'static str {
    if p.terminating {
        "✕"
    } else if p.phase == "Succeeded" {
        "✔"
    } else if p.phase == "Failed" {
        "✗"
    } else if p.ready {
        "✓"
    } else {
        "…"
    }
}

/// What a click on a Pod's card does, and its tooltip saying so: delete it; on a
/// read-only page, inspect it (the only thing it can do there); on the second branch
/// of a comparison (a picture), nothing.
fn pod_click(sim: &SimHandle, p: &PodView) -> (Option<Callback<MouseEvent>>, String) {
    let lang = sim.lang();
    let onclick = (!sim.is_fork_view()).then(|| {
        let sim = sim.clone();
        let name = p.name.clone();
        if sim.readonly() {
            Callback::from(move |_: MouseEvent| sim.select(Some(Selection::Pod(name.clone()))))
        } else {
            Callback::from(move |_: MouseEvent| sim.act(Verb::DeletePod(name.clone())))
        }
    });
    let title = if sim.is_fork_view() {
        format!("Pod {}", p.name)
    } else if sim.readonly() {
        trf(lang, "Pod {}: click to inspect it", &[&p.name])
    } else {
        format!(
            "{} (kubectl delete pod {})",
            trf(lang, "Delete Pod {}", &[&p.name]),
            p.name
        )
    };
    (onclick, title)
}

/// A Service endpoint's traffic badge at the right of its Pod's name, in the words
/// that fit beside the name: (failing, text, tooltip).
fn hits_badge(lang: crate::i18n::Lang, p: &PodView, room: f64) -> Option<(bool, String, String)> {
    p.traffic.map(|(ok, failed, worst)| {
        let title = trf(
            lang,
            "last {} s: {} answered, {} failed",
            &[&(ROUTE_SECONDS + 1), &ok, &failed],
        );
        let text = if failed > 0 {
            super::geo::first_fitting(
                vec![
                    format!("✕ {failed} {}", t(lang, worst)),
                    format!("✕ {failed}"),
                ],
                room * 0.45,
                |s| super::geo::text_px(s, SMALL_PX, true),
            )
        } else {
            format!("⇢ {ok}")
        };
        (failed > 0, text, title)
    })
}

/// A Pod: its name (the suffix whole), READY and STATUS (and "not Ready"), restarts,
/// uid and node, and what replaced it when it is on its way out.
pub(super) fn pod_card(
    sim: &SimHandle,
    g: &Geo,
    depth: usize,
    p: &PodView,
    fresh: Option<&'static str>,
) -> Html {
    let lang = sim.lang();
    let (onclick, title) = pod_click(sim, p);
    let state = if p.terminating {
        "terminating"
    } else if p.phase == "Succeeded" {
        "succeeded"
    } else if p.phase == "Failed" {
        "failed"
    } else if p.ready {
        "ready"
    } else if p.node.is_empty() {
        "pending"
    } else {
        "starting"
    };
    let node = if p.node.is_empty() {
        "<none>".to_string()
    } else {
        p.node.clone()
    };
    let room = g.room(depth);
    let hits = hits_badge(lang, p, room);
    let hits_w = hits.as_ref().map_or(0.0, |(_, text, _)| {
        super::geo::text_px(text, SMALL_PX, true) + 8.0
    });
    let status = format!("{} {}", p.ready_col, p.status);
    let not_ready = !p.ready && !p.terminating && p.status == "Running";
    let status_line = if not_ready {
        format!("{status} {}", t(lang, "not Ready"))
    } else {
        status.clone()
    };
    let restarts = restarts_label(lang, &status_line, p.restarts, room);
    let uid = format!("uid {}", p.short_uid);
    let place = node_label(lang, &uid, &node, room);
    html! {
        <button key={format!("pod/{}", p.name)} class={classes!("card", "pod", state, fresh)} style={g.card(2, p.y, POD_H)} onclick={onclick}
                aria-label={format!("Pod {}", p.name)} {title}
                data-testid="pod" data-status={p.status.clone()}>
            <span class="row1">
                <span class="icon" aria-hidden="true">{ pod_icon(p) }</span>
                <span class="name" title={p.name.clone()}>{ fit_name(&p.name, g.name_chars(depth, 22.0 + INSPECT_W + hits_w)) }</span>
                if let Some((fail, text, title)) = hits {
                    <span class={classes!("hits", if fail { "fail" } else { "ok" })} data-testid="pod-hits" {title}>{ text }</span>
                }
            </span>
            <span class="row2">
                <span class="podstatus">
                    { status }
                    if not_ready {
                        <span class="cond" title="Ready=False">{ format!(" {}", t(lang, "not Ready")) }</span>
                    }
                </span>
                if !restarts.is_empty() {
                    <span class="restarts" title={trf(lang, "restarts {}", &[&p.restarts])}>{ restarts }</span>
                }
                if let Some(n) = p.connections {
                    <span class={classes!("conns", (n == 0).then_some("none"))} data-testid="pod-conns"
                          title={trf(lang, "{} devices hold a connection to this Pod", &[&n])}>{ format!("⇄ {n}") }</span>
                }
            </span>
            <span class="row3">
                <span class="uid" title="metadata.uid">{ uid }</span>
                <span title={trf(lang, "node {}", &[&node])}>{ place }</span>
            </span>
            if let Some((name, uid)) = &p.replaced_by {
                // Its own line: the new name (its suffix whole) and the new uid are
                // the point of the lesson.
                <span class="row4 replaced" data-testid="replaced-by" title={trf(lang, "Replaced by {} (uid {}): a new Pod, not this one restarted", &[name, uid])}>
                    { replaced_label(lang, name, uid, room) }
                </span>
            }
        </button>
    }
}

pub fn bar(
    lang: crate::i18n::Lang,
    label: &str,
    used: i64,
    total: i64,
    fmt: fn(i64) -> String,
) -> Html {
    let pct = if total > 0 {
        (used as f64 * 100.0 / total as f64).min(100.0)
    } else {
        0.0
    };
    html! {
        <span class="bar" title={trf(lang, "{} requests {} of {} allocatable", &[&label, &fmt(used), &fmt(total)])}>
            <span class="barlabel">{ format!("{label} {}/{}", fmt(used), fmt(total)) }</span>
            <span class="track"><span class="fill" style={format!("width:{pct:.1}%")}></span></span>
        </span>
    }
}

pub(super) fn node_card(sim: &SimHandle, g: &Geo, n: &NodeView) -> Html {
    let lang = sim.lang();
    let onclick = (!sim.is_fork_view()).then(|| {
        let sim = sim.clone();
        let name = n.name.clone();
        if sim.readonly() {
            Callback::from(move |_: MouseEvent| sim.select(Some(Selection::Node(name.clone()))))
        } else {
            Callback::from(move |_: MouseEvent| sim.toggle_node_power(&name))
        }
    });
    let title = node_click_title(sim, n);
    let room = g.room(0);
    let name = fit_name(&n.name, g.name_chars(0, 90.0));
    // `Ready,SchedulingDisabled` is long for the first line: its first word stays
    // there, the rest gets a line of its own below.
    let name_w = super::geo::text_px(&name, 13.0, true) + 26.0;
    let (status, status_rest) = match n.status.split_once(',') {
        Some((first, rest)) if super::geo::text_px(&n.status, STATUS_PX, true) + name_w > room => {
            (first.to_string(), Some(rest.replace(',', ", ")))
        }
        _ => (n.status.clone(), None),
    };
    let (pods, pods_why) = pods_label(lang, n);
    let heartbeat = n
        .silence
        .map(|s| heartbeat_label(lang, s.for_ms, s.not_ready_in));
    // Four lines under the bars; the 🔍 at the end of the last.
    let used = 1 + usize::from(status_rest.is_some()) + usize::from(heartbeat.is_some());
    let groups = group_taints(&n.taints);
    let shorts: Vec<String> = groups.iter().map(|(short, _)| short.clone()).collect();
    let fulls: Vec<String> = groups.into_iter().flat_map(|(_, full)| full).collect();
    let taints = taint_labels(
        lang,
        &shorts,
        room - INSPECT_W,
        NODE_LINES.saturating_sub(used),
    );
    html! {
        <button key={format!("node/{}", n.name)} class={classes!("card", "node", if n.ready { "ready" } else { "notready" }, (!n.powered).then_some("off"))}
                style={g.card(3, n.y, NODE_H)} onclick={onclick}
                aria-label={trf(lang, "Node {}", &[&n.name])} {title}
                data-testid="node" data-status={n.status.clone()}>
            <span class="row1">
                <span class="icon" aria-hidden="true">{ if n.ready { "✓" } else { "✕" } }</span>
                <span class="name" title={n.name.clone()}>{ name }</span>
                <span class="nodestatus" title={n.status.clone()}>{ status }</span>
            </span>
            { bar(lang, "cpu", n.cpu_requested, n.cpu_allocatable, format_cpu_milli) }
            { bar(lang, "mem", n.mem_requested, n.mem_allocatable, format_bytes) }
            <span class="row3">
                <span class="line">
                    <span title={pods_why.clone()}>{ pods }</span>
                    if !n.powered { <span class="power">{ format!(" · {}", t(lang, "power off")) }</span> }
                </span>
                if let Some(rest) = status_rest {
                    <span class="line nodestatus-rest" title={n.status.clone()}>{ rest }</span>
                }
                if let Some(h) = heartbeat {
                    <span class="line heartbeat countdown" data-testid="heartbeat"
                          title={t(lang, "The node lifecycle controller marks a node NotReady when it has not heard a heartbeat (a Lease renewal or a status update) for node-monitor-grace-period, 50 s, at its next 5 s check")}>{ h }</span>
                }
                { for taints.into_iter().map(|text| html! {
                    // Short form on the card; every taint whole in the tooltip.
                    <span class="line"><span class="taint" title={trf(lang, "taints {}", &[&fulls.join(", ")])}>{ text.replace(':', ":\u{200B}").replace(',', ",\u{200B}") }</span></span>
                }) }
            </span>
        </button>
    }
}

/// Lines under a node card's bars (see [`NODE_H`]).
const NODE_LINES: usize = 4;

/// A node in the row under a chain drawn without its Node column: its name, Ready or
/// not, its Pods; a click powers it off or on (as its card does), 🔍 inspects it.
pub(super) fn node_chip(sim: &SimHandle, n: &NodeView) -> Html {
    let lang = sim.lang();
    let fork_view = sim.is_fork_view();
    let readonly = sim.readonly();
    let sel = Selection::Node(n.name.clone());
    let inspect = {
        let sim = sim.clone();
        let sel = sel.clone();
        Callback::from(move |_: MouseEvent| sim.select(Some(sel.clone())))
    };
    let onclick = (!fork_view).then(|| {
        let sim = sim.clone();
        let name = n.name.clone();
        if readonly {
            let sel = Selection::Node(name);
            Callback::from(move |_: MouseEvent| sim.select(Some(sel.clone())))
        } else {
            Callback::from(move |_: MouseEvent| sim.toggle_node_power(&name))
        }
    });
    let title = node_click_title(sim, n);
    let (pods, pods_why) = pods_label(lang, n);
    html! {
        <div key={format!("nodechip/{}", n.name)} class="nodechip-item">
            <button class={classes!("nodechip", if n.ready { "ready" } else { "notready" }, (!n.powered).then_some("off"))}
                    onclick={onclick} {title} aria-label={trf(lang, "Node {}", &[&n.name])}
                    data-testid="node" data-status={n.status.clone()}>
                <span class="icon" aria-hidden="true">{ if n.ready { "✓" } else { "✕" } }</span>
                <span class="name">{ &n.name }</span>
                <span class="nodestatus">{ &n.status }</span>
                <span class="pods" title={pods_why}>{ pods }</span>
                if !n.powered { <span class="power">{ t(lang, "power off") }</span> }
            </button>
            if !fork_view && !readonly {
                <button class="inspect inline" onclick={inspect} aria-label={trf(lang, "Inspect {} {}", &[&"Node", &n.name])}
                        title={trf(lang, "Inspect {} {}", &[&"Node", &n.name])} data-testid="inspect">
                    <svg viewBox="0 0 16 16" aria-hidden="true"><circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M10.5 10.5l3.5 3.5" stroke="currentColor" stroke-width="1.8"/></svg>
                </button>
            }
        </div>
    }
}

/// What a click on a node's card does, in its tooltip and accessible name.
fn node_click_title(sim: &SimHandle, n: &NodeView) -> String {
    let lang = sim.lang();
    if sim.is_fork_view() {
        trf(lang, "Node {}", &[&n.name])
    } else if sim.readonly() {
        trf(lang, "Node {}: click to inspect it", &[&n.name])
    } else if n.powered {
        trf(lang, "Power off Node {}", &[&n.name])
    } else {
        trf(lang, "Power on Node {}", &[&n.name])
    }
}

/// A silent node's heartbeat: how long since the last one and the countdown to
/// NotReady, as the inspector and the node board say it.
pub fn heartbeat_line(
    lang: crate::i18n::Lang,
    silence: Option<kubeplay_engine::explain::Silence>,
) -> Html {
    let Some(s) = silence else {
        return html! {};
    };
    let secs = s.for_ms / 1000;
    let text = match s.not_ready_in {
        Some(left) => trf(
            lang,
            "no heartbeat for {} s (NotReady at {} s): NotReady in {} s",
            &[&secs, &((s.for_ms + left) / 1000), &left.div_ceil(1000)],
        ),
        None => trf(lang, "no heartbeat for {} s", &[&secs]),
    };
    html! {
        <span class="heartbeat countdown" data-testid="heartbeat"
              title={t(lang, "The node lifecycle controller marks a node NotReady when it has not heard a heartbeat (a Lease renewal or a status update) for node-monitor-grace-period, 50 s, at its next 5 s check")}>{ text }</span>
    }
}

/// Taints `key:Effect` grouped by key: (`unreachable:NoExecute,NoSchedule`, the full taints).
pub(super) fn group_taints(taints: &[String]) -> Vec<(String, Vec<String>)> {
    let mut groups: Vec<(String, Vec<String>, Vec<String>)> = Vec::new();
    for t in taints {
        let (key, effect) = t.rsplit_once(':').unwrap_or((t.as_str(), ""));
        let short = key.rsplit('/').next().unwrap_or(key).to_string();
        match groups.iter_mut().find(|(k, _, _)| *k == short) {
            Some((_, effects, full)) => {
                effects.push(effect.to_string());
                full.push(t.clone());
            }
            None => groups.push((short, vec![effect.to_string()], vec![t.clone()])),
        }
    }
    groups
        .into_iter()
        .map(|(k, e, full)| (format!("{k}:{}", e.join(",")), full))
        .collect()
}

/// A small button at a card's top-right corner that opens the inspector (a separate
/// control: the card itself keeps its one-click action).
/// It follows its card in the page (and so in tab order); `dy` is its offset from the
/// card's top.
pub(super) fn inspect_button(
    sim: &SimHandle,
    g: &Geo,
    sel: Selection,
    col: usize,
    card_y: f64,
    dy: f64,
) -> Html {
    // The inspector shows the session's objects; the second branch's are not there.
    if sim.is_fork_view() {
        return html! {};
    }
    // One label for every kind: the kind as kubectl prints it, then the name.
    let lang = sim.lang();
    let kind = sel.kind_key().0.name();
    let label = trf(lang, "Inspect {} {}", &[&kind, &sel.name()]);
    let onclick = {
        let sim = sim.clone();
        Callback::from(move |_| sim.select(Some(sel.clone())))
    };
    let style = if g.flow {
        format!("right:4px;top:{}px", dy + 4.0)
    } else {
        format!(
            "left:{:.1}px;top:{}px",
            g.x(col) + g.w() - 22.0,
            card_y + dy + 4.0
        )
    };
    html! {
        <button class="inspect" {style} onclick={onclick} aria-label={label.to_string()} title={label.to_string()} data-testid="inspect">
            <svg viewBox="0 0 16 16" aria-hidden="true"><circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M10.5 10.5l3.5 3.5" stroke="currentColor" stroke-width="1.8"/></svg>
        </button>
    }
}

/// "2 pods": the Pods bound to a node, and, when some of them are the add-ons' the
/// chain does not draw, a tooltip that says how many (the card's line keeps its
/// length: it shares it with "· power off").
fn pods_label(lang: crate::i18n::Lang, n: &NodeView) -> (String, Option<String>) {
    let all = if n.pods == 1 {
        t(lang, "1 pod").to_string()
    } else {
        trf(lang, "{} pods", &[&n.pods])
    };
    let why = (n.system_pods > 0).then(|| {
        trf(
            lang,
            "{} of them in kube-system (the cluster's DNS add-on), which the chain does not draw",
            &[&n.system_pods],
        )
    });
    (all, why)
}
