//! The object model: Kubernetes-shaped structs with the same field names and JSON shape
//! as `k8s.io/api` (camelCase, empty fields omitted), so `-o json` and manifests match
//! what a real cluster prints. Only the fields the simulation uses are modelled.

mod admissionregistration;
mod apiextensions;
mod autoscaling;
mod batch;
pub mod cel;
mod core;
pub mod cron;
pub mod discovered;
pub mod extra;
mod kind;
mod meta;
mod network;
mod networking;
pub mod node_affinity;
mod object;
pub mod quantity;
mod rbac;
mod scheduling;
mod storage;
pub mod structural;
pub mod vocab;
mod workloads;

pub use self::core::*;
pub use admissionregistration::*;
pub use apiextensions::*;
pub use autoscaling::*;
pub use batch::*;
pub use kind::*;
pub use meta::*;
pub use network::*;
pub use networking::*;
pub use object::*;
pub use rbac::*;
pub use scheduling::*;
pub use storage::*;
pub use vocab::*;
pub use workloads::*;
