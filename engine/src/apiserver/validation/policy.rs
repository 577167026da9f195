//! The policy API group (`pkg/apis/policy/validation/validation.go`):
//! PodDisruptionBudgets, with the apps group's int-or-percent rules as upstream.

use super::apps::{not_more_than_100_percent, positive_int_or_percent};
use crate::api::*;

/// `ValidatePodDisruptionBudgetSpec` (pkg/apis/policy/validation): each of
/// minAvailable / maxUnavailable a non-negative int or a valid percentage
/// (`ValidatePositiveIntOrPercent`), and a percentage at most 100%
/// (`IsNotMoreThan100Percent`).
pub(super) fn validate_pdb(causes: &mut Vec<String>, pdb: &PodDisruptionBudget) {
    for (field, v) in [
        ("minAvailable", &pdb.spec.min_available),
        ("maxUnavailable", &pdb.spec.max_unavailable),
    ] {
        let Some(v) = v else { continue };
        positive_int_or_percent(causes, &format!("spec.{field}"), v);
        not_more_than_100_percent(causes, &format!("spec.{field}"), v);
    }
}
