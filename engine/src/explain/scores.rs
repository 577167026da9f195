//! A node's part in a scheduling attempt, plugin by plugin: the filter that rejected
//! it, or each score plugin's normalized score with its weight, in the order of the
//! default profile — one table for `sim why` and the page's per-node verdicts.

use crate::scheduler::plugins::FilterFailure;
use crate::scheduler::{
    NodeScores, WEIGHT_BALANCED_ALLOCATION, WEIGHT_IMAGE_LOCALITY, WEIGHT_INTER_POD_AFFINITY,
    WEIGHT_NODE_AFFINITY, WEIGHT_NODE_RESOURCES_FIT, WEIGHT_POD_TOPOLOGY_SPREAD,
    WEIGHT_TAINT_TOLERATION,
};

/// One score plugin's part in a node's total.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreTerm {
    /// Short name (`Fit`, `Balanced`, `Taint`, `NodeAff`, `Spread`, `PodAff`, `Image`).
    pub name: &'static str,
    /// The plugin's normalized score, 0–100 (None: the plugin skipped this Pod).
    pub score: Option<i64>,
    /// Its weight in the default profile.
    pub weight: i64,
}

impl ScoreTerm {
    /// `Taint 100×3` (no `×1`).
    pub fn label(&self) -> Option<String> {
        self.score
            .map(|s| format!("{} {s}{}", self.name, times(self.weight)))
    }

    /// The column header: `TAINT×3`.
    pub fn header(&self) -> String {
        format!("{}{}", self.name.to_uppercase(), times(self.weight))
    }
}

fn times(weight: i64) -> String {
    if weight > 1 {
        format!("×{weight}")
    } else {
        String::new()
    }
}

/// The score plugins in the default profile's order, with the scores of one node
/// (or none, for the headers).
pub fn score_terms(s: Option<&NodeScores>) -> [ScoreTerm; 7] {
    let t = |name, score, weight| ScoreTerm {
        name,
        score,
        weight,
    };
    [
        t(
            "Fit",
            s.map(|s| s.least_allocated),
            WEIGHT_NODE_RESOURCES_FIT,
        ),
        t(
            "Balanced",
            s.and_then(|s| s.balanced_allocation),
            WEIGHT_BALANCED_ALLOCATION,
        ),
        t(
            "Taint",
            s.map(|s| s.taint_toleration),
            WEIGHT_TAINT_TOLERATION,
        ),
        t("NodeAff", s.map(|s| s.node_affinity), WEIGHT_NODE_AFFINITY),
        t(
            "Spread",
            s.and_then(|s| s.pod_topology_spread),
            WEIGHT_POD_TOPOLOGY_SPREAD,
        ),
        t(
            "PodAff",
            s.and_then(|s| s.inter_pod_affinity),
            WEIGHT_INTER_POD_AFFINITY,
        ),
        t("Image", s.map(|s| s.image_locality), WEIGHT_IMAGE_LOCALITY),
    ]
}

/// `Fit 85 · Balanced 97 · Taint 100×3 · …`: the plugins that scored, with weights.
pub fn breakdown(s: &NodeScores) -> String {
    score_terms(Some(s))
        .iter()
        .filter_map(ScoreTerm::label)
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The filter that rejected a node, as `Plugin: reason, reason`.
pub fn filter_text(f: &FilterFailure) -> String {
    format!("{}: {}", f.plugin, f.reasons.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_breakdown_weighs_each_plugin_by_the_schedulers_own_constants_and_skips_the_silent_ones()
    {
        let s = NodeScores::weighed(85, Some(97), 100, 0, None, Some(40), 0);
        assert_eq!(
            breakdown(&s),
            "Fit 85 · Balanced 97 · Taint 100×3 · NodeAff 0×2 · PodAff 40×2 · Image 0"
        );
        let total: i64 = score_terms(Some(&s))
            .iter()
            .map(|t| t.score.unwrap_or(0) * t.weight)
            .sum();
        assert_eq!(total, s.total);
        let headers: Vec<String> = score_terms(None).iter().map(ScoreTerm::header).collect();
        assert_eq!(
            headers,
            vec![
                "FIT",
                "BALANCED",
                "TAINT×3",
                "NODEAFF×2",
                "SPREAD×2",
                "PODAFF×2",
                "IMAGE"
            ]
        );
    }
}
