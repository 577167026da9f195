//! Accepting connections and serving each: TLS, then hyper's HTTP/1.1 with the
//! server's limits.
//!
//! The accept loop takes a connection only when it has a slot for it
//! ([`connection_cap`](super::limits::connection_cap)): past the cap, clients wait in
//! the listen backlog, and the server keeps the descriptors it needs. An accept that
//! fails (descriptors or memory run out) is retried after a pause that doubles from
//! 5 ms to 1 s, as Go's `http.Server` does, instead of spinning.
//!
//! A connection the server ends while the client is still sending (a refused body or
//! head) is closed gently, as Go's server does: its write side first, then what still
//! comes is read and dropped for a moment. Closed at once with unread data, the
//! socket would answer with a reset, and the client's kernel would drop the answer —
//! the 413 or 431 — before the client read it.

use super::limits::{HEADER_READ_TIMEOUT, LINGER, MAX_HEADERS, MAX_HEAD_BYTES, SEND_BUFFER_BYTES};
use super::{http, State};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
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
                // What the kernel holds for a client that does not read is bounded
                // too: without this, send-buffer autotuning lets each connection
                // take megabytes, and the server serializes that much for it.
                let _ = socket2::SockRef::from(&tcp).set_send_buffer_size(SEND_BUFFER_BYTES);
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
/// finds its client no longer reads (`close`); then the gentle close.
async fn connection(
    tcp: TcpStream,
    tls: TlsAcceptor,
    state: Arc<State>,
    _slot: OwnedSemaphorePermit,
) {
    let tcp = Arc::new(tcp);
    if let Ok(Ok(stream)) =
        tokio::time::timeout(HEADER_READ_TIMEOUT, tls.accept(Shared(tcp.clone()))).await
    {
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
    linger(&tcp).await;
}

/// Close the write side, then read and drop what the client still sends, until it
/// closes or [`LINGER`] has passed.
async fn linger(tcp: &TcpStream) {
    let _ = socket2::SockRef::from(tcp).shutdown(std::net::Shutdown::Write);
    let deadline = tokio::time::Instant::now() + LINGER;
    let mut buf = [0u8; 16 << 10];
    loop {
        match tokio::time::timeout_at(deadline, tcp.readable()).await {
            Ok(Ok(())) => match tcp.try_read(&mut buf) {
                Ok(0) => return,
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(_) => return,
            },
            _ => return,
        }
    }
}

/// The connection's socket, shared: TLS and hyper read and write it, and when they
/// are done the connection still holds it for [`linger`].
struct Shared(Arc<TcpStream>);

impl AsyncRead for Shared {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        loop {
            ready!(self.0.poll_read_ready(cx))?;
            match self.0.try_read(buf.initialize_unfilled()) {
                Ok(n) => {
                    buf.advance(n);
                    return Poll::Ready(Ok(()));
                }
                // Readiness was stale: cleared, so the next poll waits.
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
    }
}

impl AsyncWrite for Shared {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        loop {
            ready!(self.0.poll_write_ready(cx))?;
            match self.0.try_write(data) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                r => return Poll::Ready(r),
            }
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        loop {
            ready!(self.0.poll_write_ready(cx))?;
            match self.0.try_write_vectored(bufs) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                r => return Poll::Ready(r),
            }
        }
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        let _ = socket2::SockRef::from(&*self.0).shutdown(std::net::Shutdown::Write);
        Poll::Ready(Ok(()))
    }
}
