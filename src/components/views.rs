//! What to do, and what else there is: the one-line instruction above the chain (what a
//! click does, until the learner has acted), and the one place every view beside the
//! chain is opened or closed from, each with its purpose.

use crate::i18n::{t, trf, Lang};
use crate::sim::{use_sim, View};
use yew::prelude::*;

/// A view's name in the menu.
pub fn view_name(lang: Lang, v: View) -> &'static str {
    match v {
        View::ControlPlane => t(lang, "Control plane"),
        View::Requests => t(lang, "Request path"),
        View::Queues => t(lang, "Informers and work queues"),
        View::Compare => t(lang, "What if"),
        View::Services => t(lang, "Services"),
        View::Board => t(lang, "Nodes"),
        View::Timeline => t(lang, "Timeline"),
        View::Deployments => t(lang, "Deployments"),
        View::Events => t(lang, "Events"),
        View::Controller => t(lang, "Your controller"),
    }
}

/// What a view is for, in one line.
pub fn view_purpose(lang: Lang, v: View) -> &'static str {
    match v {
        View::ControlPlane => t(lang, "The API server, etcd and the leader elections: stop one and see what still works"),
        View::Requests => t(lang, "One request through the API server: authentication, authorization, admission, validation, etcd"),
        View::Queues => t(lang, "What each controller watches, and the keys waiting in its work queue"),
        View::Compare => t(lang, "Fork the session with one change and watch both branches side by side"),
        View::Services => t(lang, "Each Service's endpoints and traffic: what its users meet while Pods come and go"),
        View::Board => t(lang, "Every node: its Pods, requests against allocatable, conditions and taints"),
        View::Timeline => t(lang, "Every change in time order: click one to rewind to it"),
        View::Deployments => t(lang, "Rollouts: revisions and conditions; set an image, roll back"),
        View::Events => t(lang, "The Events the components wrote, as kubectl get events lists them"),
        View::Controller => t(lang, "Write a reconcile loop in JavaScript and watch it act beside the built-in controllers"),
    }
}

/// The instruction and the views menu, above the stage.
#[function_component(Guide)]
pub fn guide() -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let (show_hint, readonly, open, chain) = {
        let s = sim.state.borrow();
        (
            s.acted_in != Some(s.world),
            s.options.readonly,
            s.open_views(),
            s.shows(crate::sim::Panel::Chain),
        )
    };
    let hint = if readonly {
        t(
            lang,
            "Read-only: click a card to inspect it · the author's page drives the cluster",
        )
    } else {
        t(
            lang,
            "Click a Pod to delete it · click a Node to power it off or on · −/+ to scale",
        )
    };
    html! {
        <div class="guide">
            if show_hint && chain {
                <p class="hint" data-testid="hint">{ hint }</p>
            }
            <ViewsMenu {open} />
        </div>
    }
}

/// Properties of [`ViewsMenu`].
#[derive(Properties, PartialEq)]
pub struct ViewsMenuProps {
    /// The views open now.
    pub open: Vec<View>,
}

/// Every view, each with its purpose and a switch; the choice goes into the address.
#[function_component(ViewsMenu)]
pub fn views_menu(props: &ViewsMenuProps) -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let summary = if props.open.is_empty() {
        t(lang, "Views").to_string()
    } else {
        trf(lang, "Views ({} open)", &[&props.open.len()])
    };
    html! {
        <details class="views-menu" data-testid="views-menu">
            <summary title={t(lang, "Open or close the views beside the chain")}>{ summary }</summary>
            <ul>
                { for View::ALL.iter().map(|&v| {
                    let on = props.open.contains(&v);
                    let onchange = {
                        let sim = sim.clone();
                        Callback::from(move |_| sim.set_view(v, !on))
                    };
                    html! {
                        <li>
                            <label>
                                <input type="checkbox" checked={on} {onchange} data-testid={format!("view-{}", v.as_str())} />
                                <span class="view-name">{ view_name(lang, v) }</span>
                                <span class="view-purpose">{ view_purpose(lang, v) }</span>
                            </label>
                        </li>
                    }
                }) }
            </ul>
        </details>
    }
}
