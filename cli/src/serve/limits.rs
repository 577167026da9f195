//! The server's own limits: what one client, or many, may hold of its memory, its
//! descriptors and its time. Where kube-apiserver has a number for the same thing
//! (`secure_serving.go`, the handlers' `MaxRequestBodyBytes`), it is the number here.

use std::time::Duration;

/// The largest request head (request line and headers). hyper answers a larger one
/// with `431 Request Header Fields Too Large`. The same bound caps what one connection
/// buffers for writing, so a client that never reads holds this much, not more.
pub const MAX_HEAD_BYTES: usize = 64 << 10;

/// The kernel's send buffer of each connection. Linux grows it to 4 MiB by itself
/// (`tcp_wmem`), so 100 watches whose clients never read would each have megabytes
/// serialized, encrypted and held for them; on the loopback a reader needs no more
/// than this to go at full speed.
pub const SEND_BUFFER_BYTES: usize = 256 << 10;

/// The most header fields in a request; more is a 431.
pub const MAX_HEADERS: usize = 100;

/// How long a client may take to send a request's head, counted from when the
/// connection is ready for it — so it is also how long a kept-alive connection may sit
/// idle (kube-apiserver: `ReadHeaderTimeout`, 32 s). The TLS handshake gets as long.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(32);

/// How long reading a request's body may take (kube-apiserver's request timeout,
/// `--request-timeout`, 60 s); then the request is a 504.
pub const BODY_READ_TIMEOUT: Duration = Duration::from_secs(60);

/// The request bodies all connections together may hold in memory, read but not yet
/// answered. A body waits for room (the server stops reading it) rather than growing
/// past this, and a request that waits a whole [`BODY_READ_TIMEOUT`] is a 429.
pub const BODY_BUDGET_BYTES: usize = 32 << 20;

/// How many requests may hold a decoded body at once (decoding JSON or YAML can take
/// several times the body's size).
pub const DECODED_BODIES: usize = 2;

/// The connections served at once, at most; past it, new ones wait in the listen
/// backlog until one closes. Lowered to what the descriptor limit allows.
pub const MAX_CONNECTIONS: usize = 1024;

/// Descriptors kept free of connections: the listener, the kubeconfig, the
/// scenario file, the runtime's own.
pub const RESERVED_DESCRIPTORS: usize = 64;

/// How long a connection the server ends goes on reading (and dropping) what the
/// client still sends, so the client reads the answer before the socket closes
/// (Go's `rstAvoidanceDelay`).
pub const LINGER: Duration = Duration::from_millis(500);

/// How much of a watch's events is written at a time.
pub const WATCH_CHUNK_BYTES: usize = 64 << 10;

/// A watch whose client has read nothing for this long while events wait is ended
/// and its connection closed, as kube-apiserver drops an unresponsive watcher.
pub const WATCH_STALL_TIMEOUT: Duration = Duration::from_secs(30);

/// How long one slice of a `sim advance`/`sim settle` runs the cluster before other
/// requests take their turn.
pub const SIM_SLICE: Duration = Duration::from_millis(10);

/// Raise the soft limit on open descriptors to the hard one (as Go's runtime does
/// for kube-apiserver at start) and return the limit now in force.
pub fn raise_descriptor_limit() -> Option<usize> {
    #[cfg(unix)]
    {
        let mut r = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit read and write the one struct passed.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) != 0 {
                return None;
            }
            if r.rlim_cur < r.rlim_max {
                let raised = libc::rlimit {
                    rlim_cur: r.rlim_max,
                    rlim_max: r.rlim_max,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    r = raised;
                }
            }
        }
        Some(usize::try_from(r.rlim_cur).unwrap_or(usize::MAX))
    }
    #[cfg(not(unix))]
    None
}

/// The connection cap for `wanted` (the flag, or [`MAX_CONNECTIONS`]) under a
/// descriptor limit: each connection is one descriptor, and some are kept free.
pub fn connection_cap(wanted: usize, descriptors: Option<usize>) -> usize {
    let room = descriptors.map_or(usize::MAX, |d| d.saturating_sub(RESERVED_DESCRIPTORS));
    wanted.min(room).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_connection_cap_leaves_descriptors_free_and_is_never_zero() {
        assert_eq!(connection_cap(1024, Some(20_000)), 1024);
        assert_eq!(connection_cap(1024, Some(1024)), 960);
        assert_eq!(connection_cap(1024, Some(10)), 1);
        assert_eq!(connection_cap(5, None), 5);
    }
}
