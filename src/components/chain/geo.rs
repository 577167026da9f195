//! The chain's geometry: how its columns stretch, drop the Node column, or become a
//! tree in the width the panel has, and how many characters of a card's text fit.

use crate::view::{col_x, COL_W};

/// How the chain is drawn in the width it has. The model is laid out in columns of
/// [`COL_W`]; here the columns stretch or narrow with the panel (text never shrinks:
/// the old design scaled the whole chain down to 0.56 in a 700 px frame, 7 px text).
/// Too narrow for four columns, the Node column goes (the node board below has every
/// node, and each Pod card names its node); too narrow for three, the chain becomes a
/// tree: each owner above its children, indented, the cards as wide as the screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geo {
    /// Horizontal stretch of the model's columns.
    pub k: f64,
    /// Columns drawn (4, or 3 without Nodes).
    pub cols: usize,
    /// The tree (a phone): cards in flow, no lines.
    pub flow: bool,
    /// The chain's inner width (px).
    pub width: f64,
}

/// Narrowest and widest stretch of the columns.
pub(super) const K_MIN: f64 = 0.78;
pub(super) const K_MAX: f64 = 1.3;

/// Width of `cols` columns at stretch 1.
fn columns_width(cols: usize) -> f64 {
    col_x(cols - 1) + COL_W
}

impl Geo {
    /// The geometry for a chain `width` px wide (0: not measured yet, drawn as at
    /// full width).
    pub fn for_width(width: f64) -> Geo {
        let width = if width <= 0.0 {
            columns_width(4)
        } else {
            width
        };
        for cols in [4, 3] {
            let k = width / columns_width(cols);
            if k >= K_MIN {
                return Geo {
                    k: k.min(K_MAX),
                    cols,
                    flow: false,
                    width,
                };
            }
        }
        Geo {
            k: 1.0,
            cols: 3,
            flow: true,
            width,
        }
    }

    /// Left edge of column `col`.
    pub(super) fn x(&self, col: usize) -> f64 {
        col_x(col) * self.k
    }

    /// Width of a column.
    pub(super) fn w(&self) -> f64 {
        COL_W * self.k
    }

    /// Width of the drawing.
    pub(super) fn total(&self) -> f64 {
        if self.flow {
            self.width
        } else {
            columns_width(self.cols) * self.k
        }
    }

    /// The style of a card in column `col` at `y`, `h` tall.
    pub(super) fn card(&self, col: usize, y: f64, h: f64) -> String {
        if self.flow {
            format!("height:{h}px")
        } else {
            format!(
                "left:{:.1}px;top:{y}px;width:{:.1}px;height:{h}px",
                self.x(col),
                self.w()
            )
        }
    }

    /// Characters of a card's name (13 px, bold) that fit beside `reserved` px of
    /// other content on its line.
    pub(super) fn name_chars(&self, depth: usize, reserved: f64) -> usize {
        let w = if self.flow {
            self.width - depth as f64 * FLOW_INDENT
        } else {
            self.w()
        };
        // Padding and border (25 px), and about 9.6 px a character: the widest of the
        // usual bold sans fonts (DejaVu Sans Bold) with room to spare, since a name the
        // card's edge cuts loses the suffix this is all about.
        ((w - 25.0 - reserved) / 9.6).max(8.0) as usize
    }
}

impl Geo {
    /// The room for text in a card at tree depth `depth` (px): its width less the
    /// border and padding.
    pub(super) fn room(&self, depth: usize) -> f64 {
        let w = if self.flow {
            self.width - depth as f64 * FLOW_INDENT
        } else {
            self.w()
        };
        w - CARD_INSET
    }
}

/// A card's left border (5 px), right border (1 px) and padding (10 px each side).
pub(super) const CARD_INSET: f64 = 26.0;

/// Room a card's 🔍 button takes at the end of the line it sits on (px).
pub(super) const INSPECT_W: f64 = 22.0;

/// Indent of each level of the tree (px).
pub(super) const FLOW_INDENT: f64 = 14.0;

/// Pixels `text` takes in the page's sans font at `px`, estimated on the wide side
/// (DejaVu Sans, the widest of the usual ones, measured in Chromium): a Han character
/// or full-width punctuation 1 em, a capital 0.68, a digit 0.64, a space 0.32, anything
/// else 0.58; bold 8 % wider. A card's line is chosen by this estimate, so a text
/// either shows whole or is replaced by a shorter form: it is never cut.
pub fn text_px(text: &str, px: f64, bold: bool) -> f64 {
    let em: f64 = text
        .chars()
        .map(|c| match c {
            ' ' => 0.32,
            c if c.is_ascii_uppercase() => 0.68,
            c if c.is_ascii_digit() => 0.64,
            c if c.is_ascii() => 0.58,
            // Latin-1 and general punctuation (·, →, …) are narrow; CJK and the
            // full-width forms are one em.
            c if (c as u32) < 0x2E80 => 0.7,
            _ => 1.0,
        })
        .sum();
    em * px * if bold { 1.08 } else { 1.0 }
}

/// Pixels of `text` in the monospace font at `px` (0.61 em a character).
pub fn mono_px(text: &str, px: f64) -> f64 {
    text.chars().count() as f64 * 0.61 * px
}

/// The first of `forms` (longest first) whose width by `width` fits in `room`; the last
/// one when none does (the shortest form, kept whole).
pub fn first_fitting(forms: Vec<String>, room: f64, width: impl Fn(&str) -> f64) -> String {
    let last = forms.len().saturating_sub(1);
    forms
        .into_iter()
        .enumerate()
        .find(|(i, f)| *i == last || width(f) <= room)
        .map(|(_, f)| f)
        .unwrap_or_default()
}

/// `name` shortened to `max` characters where it must be, keeping what tells it from
/// its siblings: the end (a Pod's random suffix, a StatefulSet ordinal) stays whole,
/// the shared middle (the pod-template-hash) gives way. The full name is the title.
pub fn fit_name(name: &str, max: usize) -> String {
    let chars: Vec<char> = name.chars().collect();
    let max = max.max(4);
    if chars.len() <= max {
        return name.to_string();
    }
    let tail_len = name
        .rsplit_once('-')
        .map_or(4, |(_, t)| t.chars().count() + 1);
    let tail = |n: usize| -> String { chars[chars.len() - n..].iter().collect() };
    if max >= tail_len + 4 {
        let head: String = chars[..max - 1 - tail_len].iter().collect();
        format!("{head}…{}", tail(tail_len))
    } else {
        // Room for the suffix only: it is what tells siblings apart.
        format!("…{}", tail(tail_len.min(max - 1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shortened_name_keeps_its_suffix_whole_and_gives_up_the_shared_middle() {
        assert_eq!(fit_name("web-59fd79d996-kmcs7", 30), "web-59fd79d996-kmcs7");
        assert_eq!(
            fit_name("gateway-5fccbcf6fb-km8x2", 18),
            "gateway-5fc…-km8x2"
        );
        assert_eq!(fit_name("gateway-5fccbcf6fb-km8x2", 8), "…-km8x2");
        assert_eq!(fit_name("db-0", 3), "db-0");
        for max in 4..30 {
            let f = fit_name("gateway-5fccbcf6fb-km8x2", max);
            assert!(f.chars().count() <= max.max(4), "{f} for {max}");
            assert!(f.ends_with("km8x2") || max < 7, "{f} for {max}");
        }
    }

    #[test]
    fn a_line_is_measured_on_the_wide_side_and_the_longest_form_that_fits_is_chosen() {
        // DejaVu Sans at 12 px, as Chromium draws it: "0/1 ContainerCreating" is 133 px.
        let w = text_px("0/1 ContainerCreating", 12.0, false);
        assert!((133.0..150.0).contains(&w), "{w}");
        // A Han character is a whole em.
        assert_eq!(text_px("替代者", 11.0, false), 33.0);
        let forms = || vec!["a long form".to_string(), "short".to_string()];
        let px = |s: &str| text_px(s, 12.0, false);
        assert_eq!(first_fitting(forms(), 200.0, px), "a long form");
        assert_eq!(first_fitting(forms(), 40.0, px), "short");
        assert_eq!(first_fitting(forms(), 1.0, px), "short");
    }

    #[test]
    fn the_chain_drops_its_node_column_then_becomes_a_tree_as_it_narrows_and_never_scales_text() {
        let full = Geo::for_width(0.0);
        assert_eq!((full.k, full.cols, full.flow), (1.0, 4, false));
        assert_eq!(Geo::for_width(1600.0).k, K_MAX);
        let g = Geo::for_width(880.0);
        assert_eq!((g.cols, g.flow), (4, false));
        let g = Geo::for_width(700.0);
        assert_eq!((g.cols, g.flow), (3, false));
        assert!(g.k >= K_MIN);
        assert!(Geo::for_width(360.0).flow);
    }
}
