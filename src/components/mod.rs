//! UI components, one per file.

pub mod announcer;
pub mod app;
pub mod chain;
pub mod compare;
pub mod console;
pub mod control_plane;
pub mod deployments;
pub mod events;
pub mod import;
pub mod inspector;
pub mod lesson;
pub mod nodeboard;
pub mod queues;
pub mod requests;
pub mod services;
pub mod timeline;
pub mod toolbar;
pub mod views;
