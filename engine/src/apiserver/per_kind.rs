//! Two small pieces of the store's layout: [`PerKind`], one value per kind, and
//! [`FastPaths`], the incremental shortcuts a test turns off to check them.

use crate::api::{CustomKind, Kind};
use std::collections::BTreeMap;

/// The store's incremental shortcuts, each of which can be turned off to compute the
/// same thing the plain way. They exist for speed only: a test plays every built-in
/// scenario and a small envelope with all of them on and all of them off, and requires
/// byte-identical output (`engine/tests/fast_paths.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastPaths {
    /// A write whose index inputs did not change only repoints the owner index at the
    /// new object (off: every write removes and re-adds all of its index entries).
    pub index_refresh: bool,
    /// [`Store::node_usage`] reads running sums kept per node and the allocatable
    /// parsed when the Node was written (off: it sums the requests of the node's Pods
    /// and parses the Node's allocatable at each call).
    pub node_usage_sums: bool,
}

impl FastPaths {
    /// Every shortcut on (the default).
    pub const ALL: FastPaths = FastPaths {
        index_refresh: true,
        node_usage_sums: true,
    };
    /// Every shortcut off: the reference the shortcuts must agree with.
    pub const NONE: FastPaths = FastPaths {
        index_refresh: false,
        node_usage_sums: false,
    };
}

impl Default for FastPaths {
    fn default() -> Self {
        FastPaths::ALL
    }
}

/// One `T` per [`Kind`]: the built-in kinds by their place in [`Kind::ALL`], the
/// custom resources by type as the store meets them.
#[derive(Clone, Debug)]
pub struct PerKind<T> {
    builtin: [T; Kind::ALL.len()],
    pub(super) custom: BTreeMap<CustomKind, T>,
    /// What a custom resource the store has never held reads as.
    empty: T,
}

impl<T: Default> Default for PerKind<T> {
    fn default() -> Self {
        PerKind {
            builtin: std::array::from_fn(|_| T::default()),
            custom: BTreeMap::new(),
            empty: T::default(),
        }
    }
}

impl<T: Default> PerKind<T> {
    /// The kind's `T`.
    pub fn of(&self, kind: Kind) -> &T {
        match (kind.index(), kind) {
            (Some(i), _) => &self.builtin[i],
            (None, Kind::Custom(t)) => self.custom.get(t).unwrap_or(&self.empty),
            (None, _) => &self.empty,
        }
    }

    /// The kind's `T`, mutable (made for a custom resource met for the first time).
    pub fn of_mut(&mut self, kind: Kind) -> &mut T {
        match (kind.index(), kind) {
            (Some(i), _) => &mut self.builtin[i],
            (None, Kind::Custom(t)) => self.custom.entry(t).or_default(),
            (None, _) => &mut self.empty,
        }
    }

    /// Every kind's `T`: the built-in kinds in [`Kind::ALL`]'s order, then the custom
    /// resources by type.
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.builtin.iter().chain(self.custom.values())
    }
}
