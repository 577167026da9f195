//! # kubeplay-engine
//!
//! A deterministic discrete-event simulation of the Kubernetes v1.33 control plane:
//! the API server ([`apiserver`]), the controllers ([`controllers`]: Deployment,
//! ReplicaSet, garbage collector, node lifecycle, taint eviction, namespace,
//! ResourceQuota, disruption, EndpointSlice, Endpoints, PodGC, DaemonSet, Job, CronJob,
//! TTL-after-finished, StatefulSet, HorizontalPodAutoscaler, PersistentVolume binder,
//! external provisioner, PVC and PV protection, attach/detach, and a GitOps agent; the
//! table in `docs/architecture.md` names each one's module and upstream), the scheduler
//! ([`scheduler`]) and one kubelet per node ([`kubelet`]), all on
//! one simulated clock ([`time`]) and one seeded RNG ([`rng`]), wired together by
//! [`cluster::Cluster`]. Every request of every client — a component's
//! [`client::Request`], the console's kubectl ([`command::client`]), an HTTP client of
//! `kubeplay-cli serve` ([`rest`]) — goes through one door, [`apiserver::door`]; what
//! the page and the `sim` verbs explain is read by [`explain`].
//!
//! Every control loop implements one trait, [`controllers::Controller`], and is listed
//! once in the cluster's registry; the module graph runs one way (`api` ← `apiserver` ←
//! `client` ← `controllers` ← `scheduler`, `kubelet` ← `cluster` ← `explain`,
//! `printers`, `command` ← `rest`), which `scripts/code-shape.mjs --check` holds the
//! test command to. `docs/architecture.md` is the map, with a worked example of adding
//! a controller.
//!
//! ## The loop
//! ```text
//! request ──▶ API server's door ──▶ store + watch log (who wrote what)
//!                 │
//!                 ▼ informers (on_change): enqueue keys / arm timers
//!   controllers · scheduler · kubelets ──(at their timer)──▶ reconcile against the store
//!                 │
//!                 └──────────── requests ──────────────────▶ API server …
//! ```
//! Nothing talks to anything but the API server, as in Kubernetes. Every component
//! mirrors its upstream counterpart (named in its module docs), and every write is
//! recorded with its writer, so the UI can show *which component* did each step.
//!
//! ## Determinism
//! No wall clock, no unseeded randomness, and ordered maps wherever order reaches
//! output: the same seed and the same requests give a byte-identical
//! [`cluster::Cluster::transcript`].
//!
//! ## Example
//! ```
//! use kubeplay_engine::cluster::Cluster;
//! let mut c = Cluster::with_default_nodes(1);
//! c.create_deployment("web", "nginx:1.27", 3, "100m", "128Mi").unwrap();
//! assert!(c.settle(120_000));
//! let d = c.store.get::<kubeplay_engine::api::Deployment>(
//!     &kubeplay_engine::apiserver::ObjKey::new("default", "web")).unwrap();
//! assert_eq!(d.status.ready_replicas, 3);
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod api;
pub mod apiserver;
pub mod app;
pub mod author;
pub mod bench;
pub mod bounds;
pub mod client;
pub mod cluster;
pub mod command;
pub mod config;
pub mod controllers;
pub mod explain;
pub mod fault_runs;
pub mod faults;
pub mod fork;
#[cfg(not(target_arch = "wasm32"))]
pub mod fuzz;
pub mod hash;
pub mod import;
pub mod kubelet;
pub mod lz;
pub mod manifest;
pub mod metrics;
pub mod printers;
pub mod proxy;
pub mod record;
pub mod rest;
pub mod rng;
pub mod sandbox;
pub mod scenario;
pub mod scheduler;
pub mod session;
pub mod sim_endpoint;
pub mod sorting;
pub mod tabwriter;
pub mod time;
pub mod value_de;
pub mod yaml_depth;
