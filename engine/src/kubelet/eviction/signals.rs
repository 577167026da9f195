//! What the eviction manager watches: its signals, the hard thresholds a kubelet is
//! configured with, and what it observes on the node each cycle.
//!
//! Upstream: `pkg/kubelet/eviction/api/types.go` (the signals, `GetThresholdQuantity`),
//! `pkg/kubelet/eviction/helpers.go` (`ParseThresholdConfig`, `signalToNodeCondition`,
//! `signalToResource`, `makeSignalObservations`, `thresholdsMet`),
//! `pkg/kubelet/eviction/defaults_linux.go` (`DefaultEvictionHard`).
//!
//! The node's one disk holds both the kubelet's files and the runtime's images, as on
//! most nodes: `nodefs` and `imagefs` are observed on the same filesystem, so on a
//! default kubelet `imagefs.available<15%` is met first, when the disk is 85% full.
//! Files are counted at ext4's default of one inode per 16 KiB.

use crate::api::quantity::{format_bytes, format_decimal, parse_bytes};
use crate::api::NodeConditionType;

/// An eviction signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Signal {
    /// `memory.available`: capacity less the working set.
    MemoryAvailable,
    /// `nodefs.available`: free bytes on the kubelet's filesystem.
    NodeFsAvailable,
    /// `nodefs.inodesFree`: free inodes there.
    NodeFsInodesFree,
    /// `imagefs.available`: free bytes on the runtime's image filesystem.
    ImageFsAvailable,
    /// `imagefs.inodesFree`: free inodes there.
    ImageFsInodesFree,
    /// `pid.available`: process ids left below `pid_max`.
    PidAvailable,
}

impl Signal {
    /// Every signal, in the order kubeplay evaluates them.
    pub const ALL: [Signal; 6] = [
        Signal::MemoryAvailable,
        Signal::NodeFsAvailable,
        Signal::NodeFsInodesFree,
        Signal::ImageFsAvailable,
        Signal::ImageFsInodesFree,
        Signal::PidAvailable,
    ];

    /// The signal's name in the kubelet's configuration.
    pub fn name(self) -> &'static str {
        match self {
            Signal::MemoryAvailable => "memory.available",
            Signal::NodeFsAvailable => "nodefs.available",
            Signal::NodeFsInodesFree => "nodefs.inodesFree",
            Signal::ImageFsAvailable => "imagefs.available",
            Signal::ImageFsInodesFree => "imagefs.inodesFree",
            Signal::PidAvailable => "pid.available",
        }
    }

    /// The signal a name stands for.
    pub fn parse(s: &str) -> Option<Signal> {
        Signal::ALL.into_iter().find(|x| x.name() == s)
    }

    /// `signalToResource`: the resource the kubelet reclaims for it.
    pub fn resource(self) -> &'static str {
        match self {
            Signal::MemoryAvailable => "memory",
            Signal::NodeFsAvailable | Signal::ImageFsAvailable => "ephemeral-storage",
            Signal::NodeFsInodesFree | Signal::ImageFsInodesFree => "inodes",
            Signal::PidAvailable => "pids",
        }
    }

    /// `signalToNodeCondition`: the condition a met threshold reports.
    pub fn condition(self) -> NodeConditionType {
        match self {
            Signal::MemoryAvailable => NodeConditionType::MemoryPressure,
            Signal::PidAvailable => NodeConditionType::PIDPressure,
            _ => NodeConditionType::DiskPressure,
        }
    }

    /// Whether it watches the disk (where images and dead containers can be reclaimed
    /// before any Pod is evicted).
    pub fn is_disk(self) -> bool {
        self.condition() == NodeConditionType::DiskPressure
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// A threshold's value: a quantity, or a share of the capacity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// An absolute amount (bytes, inodes or process ids).
    Quantity(i64),
    /// A fraction of the capacity, kept as the kubelet keeps it (a float32).
    Percentage(f32),
}

/// One hard eviction threshold: `signal < value`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Threshold {
    /// What is observed.
    pub signal: Signal,
    /// Below what.
    pub value: Value,
    /// Whether a quantity was written with a binary suffix (`100Mi`): it prints back
    /// in one, as a `BinarySI` Quantity does; else in decimal ones (`1000` → `1k`).
    pub binary: bool,
}

impl Threshold {
    /// `GetThresholdQuantity`: the amount below which the threshold is met, for a
    /// capacity. A percentage is multiplied in float64 from the float32 the kubelet
    /// parsed, and truncated: 10% of 100Gi is 10737418400, not 10737418240.
    pub fn quantity(&self, capacity: i64) -> i64 {
        match self.value {
            Value::Quantity(q) => q,
            Value::Percentage(p) => (capacity as f64 * p as f64) as i64,
        }
    }

    /// The value as its Quantity prints (`100Mi`, `1k`, `10%`).
    pub fn value_text(&self) -> String {
        match self.value {
            Value::Quantity(q) if self.binary => format_bytes(q),
            Value::Quantity(q) => format_decimal(q),
            // The float32 read back as the percentage written (15%, not 15.000001%).
            Value::Percentage(p) => format!("{}%", (p as f64 * 1e6).round() / 1e4),
        }
    }
}

/// The kubelet's default `evictionHard` on Linux (`DefaultEvictionHard`): memory.available<100Mi,
/// nodefs.available<10%, nodefs.inodesFree<5%, imagefs.available<15%, imagefs.inodesFree<5%.
/// The percentages are the float32s the kubelet parses them to (10 / 100 in float32).
pub const DEFAULT_EVICTION_HARD: [Threshold; 5] = [
    Threshold {
        signal: Signal::MemoryAvailable,
        value: Value::Quantity(100 << 20),
        binary: true,
    },
    Threshold {
        signal: Signal::NodeFsAvailable,
        value: Value::Percentage(0.1),
        binary: false,
    },
    Threshold {
        signal: Signal::NodeFsInodesFree,
        value: Value::Percentage(0.05),
        binary: false,
    },
    Threshold {
        signal: Signal::ImageFsAvailable,
        value: Value::Percentage(0.15),
        binary: false,
    },
    Threshold {
        signal: Signal::ImageFsInodesFree,
        value: Value::Percentage(0.05),
        binary: false,
    },
];

/// The default thresholds.
pub fn default_eviction_hard() -> Vec<Threshold> {
    DEFAULT_EVICTION_HARD.to_vec()
}

/// `ParseThresholdConfig` for `--eviction-hard`: `signal<value` pairs separated by
/// commas, each signal once; a value a positive quantity or a percentage in [0%,
/// 100%], where exactly `0%` and `100%` mean no threshold (`parseThresholdStatement`).
/// `containerfs.*` is accepted and dropped: the kubelet overwrites it with nodefs'
/// thresholds on a node with one disk. The thresholds come back in [`Signal::ALL`]'s
/// order (upstream's come from a map).
pub fn parse_eviction_hard(s: &str) -> Result<Vec<Threshold>, String> {
    let mut out: Vec<Threshold> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for pair in s.split(',').filter(|x| !x.is_empty()) {
        let (name, value) = pair.split_once('<').ok_or_else(|| {
            format!(
                "invalid eviction threshold syntax {pair:?}, expected <signal><operator><value>"
            )
        })?;
        if seen.contains(&name) {
            return Err(format!(
                "found duplicate eviction threshold for signal {name}"
            ));
        }
        seen.push(name);
        let signal = Signal::parse(name);
        if signal.is_none() && !matches!(name, "containerfs.available" | "containerfs.inodesFree") {
            return Err(format!("unsupported eviction signal {name}"));
        }
        let threshold = if let Some(pct) = value.strip_suffix('%') {
            if value == "0%" || value == "100%" {
                continue;
            }
            let p: f32 = pct
                .parse()
                .ok()
                .filter(|p: &f32| p.is_finite())
                .ok_or_else(|| format!("invalid percentage {value:?} for signal {name}"))?;
            let p = p / 100.0;
            if p < 0.0 {
                return Err(format!(
                    "eviction percentage threshold {name} must be >= 0%: {value}"
                ));
            }
            if p > 1.0 {
                return Err(format!(
                    "eviction percentage threshold {name} must be <= 100%: {value}"
                ));
            }
            Value::Percentage(p)
        } else {
            let q = parse_bytes(value)
                .filter(|q| *q > 0)
                .ok_or_else(|| format!("eviction threshold {name} must be positive: {value}"))?;
            Value::Quantity(q)
        };
        if let Some(signal) = signal {
            out.push(Threshold {
                signal,
                value: threshold,
                binary: value.ends_with('i'),
            });
        }
    }
    out.sort_by_key(|t| t.signal);
    Ok(out)
}

/// The share of the capacity one reserves for a threshold, if it is set: what
/// `hardEvictionReservation` takes off allocatable (memory and nodefs only).
pub fn reservation(thresholds: &[Threshold], signal: Signal, capacity: i64) -> i64 {
    thresholds
        .iter()
        .find(|t| t.signal == signal)
        .map_or(0, |t| t.quantity(capacity))
}

/// What a cycle observes for one signal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Observation {
    /// What is left (may be zero, never negative).
    pub available: i64,
    /// The whole.
    pub capacity: i64,
}

/// One cycle's observations, by signal (`signalObservations`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Observations([Observation; 6]);

impl Observations {
    /// Record one signal's reading.
    pub fn set(&mut self, s: Signal, available: i64, capacity: i64) {
        self.0[s.index()] = Observation {
            available: available.max(0),
            capacity,
        };
    }

    /// One signal's reading.
    pub fn get(&self, s: Signal) -> Observation {
        self.0[s.index()]
    }

    /// `thresholdsMet`: the thresholds whose signal is below its quantity.
    pub fn met<'a>(&self, thresholds: &'a [Threshold]) -> Vec<&'a Threshold> {
        thresholds
            .iter()
            .filter(|t| {
                let o = self.get(t.signal);
                o.available < t.quantity(o.capacity)
            })
            .collect()
    }
}

/// Bytes per inode on the node's filesystem (ext4's default `inode_ratio`).
pub const BYTES_PER_INODE: i64 = 16 << 10;
/// The kernel's `pid_max` on a 64-bit node with systemd (`kernel.pid_max = 4194304`).
pub const PID_MAX: i64 = 4_194_304;
/// What the node's operating system, the kubelet and the runtime keep on the disk
/// outside images and Pods (binaries, logs, the kubelet's state).
pub const SYSTEM_DISK_BYTES: i64 = 6 << 30;
/// The processes and threads the node runs outside its Pods.
pub const SYSTEM_PIDS: i64 = 300;
/// One process per running container, plus the Pod's sandbox (`pause`).
pub const PIDS_PER_CONTAINER: i64 = 1;

/// The inodes `bytes` of files take.
pub fn inodes_of(bytes: i64) -> i64 {
    bytes / BYTES_PER_INODE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_thresholds_are_the_kubelets_on_linux() {
        let d = default_eviction_hard();
        let names: Vec<&str> = d.iter().map(|t| t.signal.name()).collect();
        assert_eq!(
            names,
            [
                "memory.available",
                "nodefs.available",
                "nodefs.inodesFree",
                "imagefs.available",
                "imagefs.inodesFree"
            ]
        );
        assert_eq!(d[0].quantity(8 << 30), 100 << 20);
        // 10% of 100Gi as the kubelet works it out, through a float32.
        assert_eq!(d[1].quantity(100 << 30), 10_737_418_400);
        assert_eq!(d[2].quantity(6_553_600), 327_680);
        assert_eq!(d[3].quantity(100 << 30), 16_106_128_000);
    }

    #[test]
    fn a_threshold_list_is_parsed_as_the_kubelet_parses_it_or_refused_in_its_words() {
        let t = parse_eviction_hard("pid.available<10%,memory.available<200Mi").unwrap();
        assert_eq!(t[0].signal, Signal::MemoryAvailable);
        assert_eq!(t[1].quantity(PID_MAX), 419_430);
        assert_eq!(t[1].value_text(), "10%");
        assert_eq!(
            parse_eviction_hard("disk.available<1Gi").unwrap_err(),
            "unsupported eviction signal disk.available"
        );
        assert!(parse_eviction_hard("memory.available>1Gi").is_err());
        assert_eq!(
            parse_eviction_hard("nodefs.available<120%").unwrap_err(),
            "eviction percentage threshold nodefs.available must be <= 100%: 120%"
        );
        assert_eq!(
            parse_eviction_hard("memory.available<0").unwrap_err(),
            "eviction threshold memory.available must be positive: 0"
        );
        assert!(parse_eviction_hard("pid.available<-5").is_err());
        // Exactly 0% and 100% set no threshold; containerfs is the kubelet's to fill in.
        assert_eq!(
            parse_eviction_hard(
                "nodefs.available<100%,imagefs.available<0%,containerfs.available<10%"
            )
            .unwrap(),
            []
        );
        let t = parse_eviction_hard("pid.available<1000,memory.available<1.5Gi").unwrap();
        assert_eq!(t[0].value_text(), "1536Mi");
        assert_eq!(t[1].value_text(), "1k");
        assert!(parse_eviction_hard("memory.available<1Gi,memory.available<2Gi").is_err());
        assert!(parse_eviction_hard("memory.available<lots").is_err());
    }
}
