//! The chain picture as a standalone SVG (for slides): the same layout as the page,
//! cards as rectangles with their spec-beside-status text, ownerReference and binding
//! lines. Pure: built from the [`ChainModel`], no DOM.

use crate::i18n::{t, trf, Lang};
use crate::view::*;
use std::fmt::Write;

/// Escape text for SVG.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const OK: &str = "#1a7f37";
const BAD: &str = "#cf222e";
const WARN: &str = "#bf8700";
const ACCENT: &str = "#3b5bdb";
const INK: &str = "#1f2328";
const MUTED: &str = "#59636e";

fn card(
    out: &mut String,
    x: f64,
    y: f64,
    h: f64,
    stripe: &str,
    fill: &str,
    lines: &[(&str, String)],
) {
    let _ = write!(
        out,
        r##"<g><rect x="{x}" y="{y}" width="{COL_W}" height="{h}" rx="6" fill="{fill}" stroke="#d0d7de"/><rect x="{x}" y="{y}" width="4" height="{h}" fill="{stripe}"/>"##
    );
    for (i, (style, text)) in lines.iter().enumerate() {
        let ty = y + 18.0 + i as f64 * 17.0;
        let (weight, color, size) = match *style {
            "title" => ("700", INK, 13),
            "muted" => ("400", MUTED, 11),
            _ => ("400", INK, 12),
        };
        let _ = write!(
            out,
            r#"<text x="{}" y="{ty}" font-size="{size}" font-weight="{weight}" fill="{color}">{}</text>"#,
            x + 12.0,
            esc(text)
        );
    }
    out.push_str("</g>");
}

/// The chain as an SVG document.
pub fn chain_svg(m: &ChainModel, lang: Lang) -> String {
    let (width, height) = chain_size(m);
    let mut out = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="-4 -4 {width} {height}" font-family="system-ui, -apple-system, 'Segoe UI', 'Noto Sans', 'PingFang SC', 'Microsoft YaHei', sans-serif"><title>kubeplay: Deployment → ReplicaSet → Pod → Node</title><rect x="-4" y="-4" width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    svg_links(&mut out, m);
    svg_owners(&mut out, m, lang);
    svg_services(&mut out, m, lang);
    svg_pods(&mut out, m, lang);
    svg_nodes(&mut out, m, lang);
    out.push_str("</svg>\n");
    out
}

/// The ownership and binding lines (the replacement arrows are the page's alone).
fn svg_links(out: &mut String, m: &ChainModel) {
    for l in m.links.iter().filter(|l| l.kind != "replaced") {
        if l.kind.starts_with("route") {
            // A Service's route: down its lane, coloured by the endpoint's state.
            let (color, dash) = if l.kind.contains("notready") {
                (MUTED, r#" stroke-dasharray="3 3""#)
            } else if l.kind.contains("terminating") {
                (WARN, r#" stroke-dasharray="6 3""#)
            } else {
                (OK, "")
            };
            let color = if l.kind.contains("fail") { BAD } else { color };
            let _ = write!(
                out,
                r#"<path d="M{} {} H{} V{} H{}" fill="none" stroke="{color}" stroke-width="1.5"{dash}/>"#,
                l.x1, l.y1, l.x2, l.y2, l.x1
            );
            continue;
        }
        let mid = (l.x1 + l.x2) / 2.0;
        let dash = if l.kind == "binding" {
            r#" stroke-dasharray="4 3""#
        } else {
            ""
        };
        let color = if l.kind == "binding" {
            ACCENT
        } else {
            "#8c959f"
        };
        let _ = write!(
            out,
            r#"<path d="M{} {} C{mid} {} {mid} {} {} {}" fill="none" stroke="{color}" stroke-width="1.5"{dash}/>"#,
            l.x1, l.y1, l.y1, l.y2, l.x2, l.y2
        );
    }
}

/// The Service cards at the top of the Pod column.
fn svg_services(out: &mut String, m: &ChainModel, lang: Lang) {
    for s in &m.services {
        let (ready, not_ready, terminating) = s.endpoints;
        let stripe = if s.failed > 0 {
            BAD
        } else if ready == 0 {
            WARN
        } else {
            OK
        };
        card(
            out,
            col_x(2),
            s.y,
            SERVICE_H,
            stripe,
            "#ffffff",
            &[
                (
                    "muted",
                    format!("{} · {} · {}", t(lang, "Service"), s.type_, s.address),
                ),
                ("title", s.name.clone()),
                (
                    "text",
                    trf(
                        lang,
                        "endpoints {} ready · {} not ready · {} terminating",
                        &[&ready, &not_ready, &terminating],
                    ),
                ),
            ],
        );
    }
}

/// The Deployment and ReplicaSet cards.
fn svg_owners(out: &mut String, m: &ChainModel, lang: Lang) {
    for d in &m.deployments {
        let stripe = if d.ready == d.desired {
            "#8250df"
        } else {
            WARN
        };
        card(
            out,
            col_x(0),
            d.y,
            OWNER_H,
            stripe,
            "#ffffff",
            &[
                ("muted", t(lang, "Deployment").into()),
                ("title", d.name.clone()),
                (
                    "text",
                    [
                        trf(lang, "wants {}", &[&d.desired]),
                        trf(lang, "ready {}/{}", &[&d.ready, &d.desired]),
                        trf(lang, "available {}", &[&d.available]),
                    ]
                    .join(" · "),
                ),
            ],
        );
    }
    for r in &m.replicasets {
        card(
            out,
            col_x(1),
            r.y,
            OWNER_H,
            ACCENT,
            "#ffffff",
            &[
                (
                    "muted",
                    format!(
                        "{} · {}",
                        t(lang, "ReplicaSet"),
                        trf(lang, "revision {}", &[&r.revision])
                    ),
                ),
                ("title", r.name.clone()),
                (
                    "text",
                    [
                        trf(lang, "desired {}", &[&r.desired]),
                        trf(lang, "current {}", &[&r.current]),
                        trf(lang, "ready {}", &[&r.ready]),
                    ]
                    .join(" · "),
                ),
            ],
        );
    }
}

/// The Pod cards.
fn svg_pods(out: &mut String, m: &ChainModel, lang: Lang) {
    for p in &m.pods {
        let (stripe, fill) = if p.terminating {
            (BAD, "#ffebe9")
        } else if p.ready {
            (OK, "#ffffff")
        } else if p.node.is_empty() {
            (WARN, "#fff8c5")
        } else {
            (ACCENT, "#ffffff")
        };
        let node = if p.node.is_empty() {
            "<none>"
        } else {
            p.node.as_str()
        };
        card(
            out,
            col_x(2),
            p.y,
            POD_H,
            stripe,
            fill,
            &[
                ("title", p.name.clone()),
                (
                    "text",
                    format!(
                        "{} {} · {}",
                        p.ready_col,
                        p.status,
                        trf(lang, "restarts {}", &[&p.restarts])
                    ),
                ),
                (
                    "muted",
                    format!("uid {} · {}", p.short_uid, trf(lang, "node {}", &[&node])),
                ),
            ],
        );
    }
}

/// The Node cards.
fn svg_nodes(out: &mut String, m: &ChainModel, lang: Lang) {
    for n in &m.nodes {
        let (stripe, fill) = if n.ready {
            (OK, "#ffffff")
        } else {
            (BAD, "#ffebe9")
        };
        let mut lines = vec![
            ("title", format!("{} · {}", n.name, n.status)),
            (
                "muted",
                format!(
                    "cpu {}/{} · mem {}/{}",
                    kubeplay_engine::api::quantity::format_cpu_milli(n.cpu_requested),
                    kubeplay_engine::api::quantity::format_cpu_milli(n.cpu_allocatable),
                    kubeplay_engine::api::quantity::format_bytes(n.mem_requested),
                    kubeplay_engine::api::quantity::format_bytes(n.mem_allocatable)
                ),
            ),
            ("text", trf(lang, "{} pod(s)", &[&n.pods])),
        ];
        if !n.taints.is_empty() {
            lines.push(("muted", n.taints.join(", ")));
        }
        card(out, col_x(3), n.y, NODE_H, stripe, fill, &lines);
    }
}

/// Percent-encode for a `data:` URL (everything but unreserved ASCII).
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 2);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b' ') {
            if b == b' ' {
                out.push_str("%20");
            } else {
                out.push(b as char);
            }
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// Offer `svg` as a download named `file` (an `<a download>` with a `data:` URL: no
/// server, works offline).
pub fn download_svg(file: &str, svg: &str) {
    use wasm_bindgen::JsCast;
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(a) = doc.create_element("a") else {
        return;
    };
    let href = format!("data:image/svg+xml;charset=utf-8,{}", percent_encode(svg));
    let _ = a.set_attribute("href", &href);
    let _ = a.set_attribute("download", file);
    if let Ok(a) = a.dyn_into::<web_sys::HtmlElement>() {
        a.click();
    }
}

/// Offer the chain as a PNG named `file`: the SVG drawn into a canvas at twice its
/// size (sharp on slides), then `canvas.toDataURL`. The image loads asynchronously, so
/// the download starts from its `onload`.
pub fn download_png(file: &str, svg: &str, width: f64, height: f64) {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(img) = web_sys::HtmlImageElement::new() else {
        return;
    };
    let file = file.to_string();
    let img2 = img.clone();
    let onload = Closure::once_into_js(move || {
        let scale = 2.0;
        let Ok(canvas) = doc
            .create_element("canvas")
            .map(|c| c.unchecked_into::<web_sys::HtmlCanvasElement>())
        else {
            return;
        };
        canvas.set_width((width * scale) as u32);
        canvas.set_height((height * scale) as u32);
        let Some(ctx) = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .map(|c| c.unchecked_into::<web_sys::CanvasRenderingContext2d>())
        else {
            return;
        };
        let _ = ctx.scale(scale, scale);
        let _ = ctx.draw_image_with_html_image_element(&img2, 0.0, 0.0);
        let Ok(url) = canvas.to_data_url_with_type("image/png") else {
            return;
        };
        if let Ok(a) = doc.create_element("a") {
            let _ = a.set_attribute("href", &url);
            let _ = a.set_attribute("download", &file);
            if let Ok(a) = a.dyn_into::<web_sys::HtmlElement>() {
                a.click();
            }
        }
    });
    img.set_onload(Some(onload.unchecked_ref()));
    img.set_src(&format!(
        "data:image/svg+xml;charset=utf-8,{}",
        percent_encode(svg)
    ));
}

/// The exported picture's size in px (the SVG's width and height attributes).
pub fn chain_size(m: &ChainModel) -> (f64, f64) {
    (col_x(3) + COL_W + 8.0, m.height + 8.0)
}

/// Offer `text` as a download named `file` of type `mime`: a Blob and an object URL,
/// so a snapshot of many megabytes is not copied into a `data:` URL. Nothing is sent
/// anywhere.
pub fn download_text(file: &str, mime: &str, text: &str) {
    use wasm_bindgen::JsCast;
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Ok(a) = doc.create_element("a") {
        let _ = a.set_attribute("href", &url);
        let _ = a.set_attribute("download", file);
        if let Ok(a) = a.dyn_into::<web_sys::HtmlElement>() {
            a.click();
        }
    }
    // Freed once the download has surely started.
    gloo_timers::callback::Timeout::new(60_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exported_svg_holds_every_card_of_the_chain_and_escapes_text() {
        let mut c = default_cluster();
        c.settle(60_000);
        let m = chain_model(&c);
        let svg = chain_svg(&m, Lang::En);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains(">web<"), "the Deployment card");
        for p in &m.pods {
            assert!(svg.contains(&format!(">{}<", p.name)), "pod {}", p.name);
        }
        for n in &m.nodes {
            assert!(
                svg.contains(&format!(">{} · Ready<", n.name)),
                "node {}",
                n.name
            );
        }
        assert_eq!(
            svg.matches("<path ").count(),
            m.links.iter().filter(|l| l.kind != "replaced").count()
        );
        // Slides for a Chinese course get Chinese labels (names stay as they are).
        let zh = chain_svg(&m, Lang::Zh);
        assert!(zh.contains("期望 3 · 就绪 3/3"), "{zh}");
        assert!(zh.contains(">web<"));
        // An unscheduled Pod's `<none>` is escaped, never raw markup.
        assert!(!svg.contains("node <none>"));
        assert_eq!(esc("a<b>&\""), "a&lt;b&gt;&amp;&quot;");
        assert_eq!(
            percent_encode("<a b=\"#\">é"),
            "%3Ca%20b%3D%22%23%22%3E%C3%A9"
        );
    }
}
