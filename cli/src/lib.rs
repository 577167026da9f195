//! `kubeplay-cli`'s parts, for its binary and its tests: the server that carries the
//! simulated cluster's Kubernetes API over HTTPS ([`serve`]), its certificates
//! ([`tls`]) and kubeconfig ([`kubeconfig`]), and the client of kubeplay's own
//! endpoints that `sim` and the tests use ([`client`]).

pub mod client;
pub mod kubeconfig;
pub mod serve;
pub mod tls;
