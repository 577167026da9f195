//! Accepting connections and serving each: TLS, then hyper's HTTP/1.1 with the
//! server's limits.
//!
//! The accept loop takes a connection only when it has a slot for it
//! ([`connection_cap`](super::limits::connection_cap)): past the cap, clients wait in
//! the listen backlog, and the server keeps the descriptors it needs. An accept that
//! fails (descriptors or memory run out) is retried after a pause that doubles from
//! 5 ms to 1 s, as Go's `http.Server` does, instead of spinning.

use super::limits::{HEADER_READ_TIMEOUT, MAX_HEADERS, MAX_HEAD_BYTES};
use super::{http, State};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tokio_rustls::TlsAcceptor;

/// Serve connections from `listener`, at most `cap` at once, until the process ends.
pub async fn accept_loop(listener: TcpListener, tls: TlsAcceptor, state: Arc<State>, cap: usize) {
    let slots = Arc::new(Semaphore::new(cap));
    let mut pause = Duration::ZERO;
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        match listener.accept().await {
            Ok((tcp, _)) => {
                pause = Duration::ZERO;
                // Replies go out as soon as they are written: a kept-alive client
                // does not wait for its delayed ACK.
                let _ = tcp.set_nodelay(true);
                tokio::spawn(connection(tcp, tls.clone(), state.clone(), slot));
            }
            Err(e) => {
                drop(slot);
                pause = if pause.is_zero() {
                    Duration::from_millis(5)
                } else {
                    (pause * 2).min(Duration::from_secs(1))
                };
                eprintln!("kubeplay-cli serve: accept: {e}; retrying in {pause:?}");
                tokio::time::sleep(pause).await;
            }
        }
    }
}

/// One connection: the handshake within [`HEADER_READ_TIMEOUT`], then requests until
/// the client closes, a head does not come in time (an idle connection), or a watch
/// finds its client no longer reads (`close`).
async fn connection(
    tcp: TcpStream,
    tls: TlsAcceptor,
    state: Arc<State>,
    _slot: OwnedSemaphorePermit,
) {
    let Ok(Ok(stream)) = tokio::time::timeout(HEADER_READ_TIMEOUT, tls.accept(tcp)).await else {
        return;
    };
    let close = Arc::new(Notify::new());
    let service = {
        let close = close.clone();
        service_fn(move |req| http::serve(state.clone(), close.clone(), req))
    };
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT)
        .max_buf_size(MAX_HEAD_BYTES)
        .max_headers(MAX_HEADERS);
    let conn = builder.serve_connection(TokioIo::new(stream), service);
    tokio::select! {
        _ = conn => {}
        _ = close.notified() => {}
    }
}
