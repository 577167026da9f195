//! The policy a namespace's labels name (`pod-security-admission/api/helpers.go`):
//! levels, versions, and `PolicyToEvaluate` with its label errors and warn defaulting.

use crate::api::*;

/// The label prefix.
pub const LABEL_PREFIX: &str = "pod-security.kubernetes.io/";

/// A Pod Security Standard level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Anything goes.
    Privileged,
    /// No known privilege escalation.
    Baseline,
    /// Hardened.
    Restricted,
}

impl Level {
    fn name(self) -> &'static str {
        match self {
            Level::Privileged => "privileged",
            Level::Baseline => "baseline",
            Level::Restricted => "restricted",
        }
    }
}

/// A level and the version of the standard it is read at, as labelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelVersion {
    /// The level.
    pub level: Level,
    /// `None`: latest; `Some(n)`: `v1.n`.
    pub minor: Option<u32>,
}

impl LevelVersion {
    const DEFAULT: LevelVersion = LevelVersion {
        level: Level::Privileged,
        minor: None,
    };

    /// `restricted:latest`, `baseline:v1.29`.
    pub fn label(&self) -> String {
        match self.minor {
            None => format!("{}:latest", self.level.name()),
            Some(m) => format!("{}:v1.{m}", self.level.name()),
        }
    }

    /// The minor version whose checks run (latest is v1.32's checks).
    pub(super) fn effective_minor(&self) -> u32 {
        self.minor.map_or(32, |m| m.min(32))
    }
}

/// The three modes' levels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Refuse Pods.
    pub enforce: LevelVersion,
    /// Annotate the audit log.
    pub audit: LevelVersion,
    /// Warn the client.
    pub warn: LevelVersion,
}

/// `ParseLevel`.
fn parse_level(v: &str) -> Result<Level, &'static str> {
    match v {
        "privileged" => Ok(Level::Privileged),
        "baseline" => Ok(Level::Baseline),
        "restricted" => Ok(Level::Restricted),
        _ => Err("must be one of privileged, baseline, restricted"),
    }
}

/// `ParseVersion`: `latest` or `v1.N` (no leading zero).
fn parse_version(v: &str) -> Result<Option<u32>, &'static str> {
    const BAD: &str = "must be \"latest\" or \"v1.x\"";
    if v == "latest" {
        return Ok(None);
    }
    let n = v.strip_prefix("v1.").ok_or(BAD)?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) || (n.len() > 1 && n.starts_with('0'))
    {
        return Err(BAD);
    }
    n.parse().map(Some).map_err(|_| BAD)
}

/// `PolicyToEvaluate`: the policy the labels give, and the field errors of bad labels
/// (`metadata.labels[…]: Invalid value: "x": must be …`), in upstream's order.
pub fn policy_to_evaluate(labels: &StringMap) -> (Policy, Vec<String>) {
    let mut errs = Vec::new();
    let mut p = Policy {
        enforce: LevelVersion::DEFAULT,
        audit: LevelVersion::DEFAULT,
        warn: LevelVersion::DEFAULT,
    };
    let mut invalid = |key: &str, value: &str, why: &str| {
        errs.push(format!(
            "metadata.labels[{LABEL_PREFIX}{key}]: Invalid value: \"{value}\": {why}"
        ))
    };
    let mut has_enforce_level = false;
    let (mut has_warn_level, mut has_warn_version) = (false, false);
    for (mode, lv) in [
        ("enforce", &mut p.enforce),
        ("audit", &mut p.audit),
        ("warn", &mut p.warn),
    ] {
        if let Some(v) = labels.get(&format!("{LABEL_PREFIX}{mode}")) {
            match parse_level(v) {
                Ok(l) => {
                    lv.level = l;
                    has_enforce_level |= mode == "enforce";
                    has_warn_level |= mode == "warn";
                }
                Err(why) => {
                    // A bad enforce level fails closed; audit and warn fail open.
                    lv.level = if mode == "enforce" {
                        Level::Restricted
                    } else {
                        Level::Privileged
                    };
                    invalid(mode, v, why);
                }
            }
        }
        if let Some(v) = labels.get(&format!("{LABEL_PREFIX}{mode}-version")) {
            has_warn_version |= mode == "warn";
            match parse_version(v) {
                Ok(m) => lv.minor = m,
                Err(why) => invalid(&format!("{mode}-version"), v, why),
            }
        }
    }
    // Warn defaults to an explicitly stricter enforce level (and its version).
    if !has_warn_level && has_enforce_level && p.enforce.level > p.warn.level {
        p.warn.level = p.enforce.level;
        if !has_warn_version {
            p.warn.minor = p.enforce.minor;
        }
    }
    (p, errs)
}

/// Whether any label of the namespace is a Pod Security one.
pub fn labelled(labels: &StringMap) -> bool {
    labels
        .range(LABEL_PREFIX.to_string()..)
        .next()
        .is_some_and(|(k, _)| k.starts_with(LABEL_PREFIX))
}
