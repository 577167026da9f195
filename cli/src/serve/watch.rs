//! A watch's response body: events written as the client reads them.
//!
//! A task per watch asks the engine for the next chunk of events
//! ([`ApiServer::watch_events`](kubeplay_engine::rest::ApiServer::watch_events)) only
//! when the body has room for it — one chunk waits at most — so a client that never
//! reads holds a chunk and its socket's buffers, not the cluster. With nothing new it
//! waits for the engine's next write. The body ends at `timeoutSeconds`, as the API
//! server ends it: the chunked response is closed properly and the kept-alive
//! connection serves the client's next request (client-go's informers list again on
//! the same connection).

use super::body::Body;
use super::engine::{Engine, Line};
use super::limits::{WATCH_CHUNK_BYTES, WATCH_STALL_TIMEOUT};
use bytes::Bytes;
use kubeplay_engine::rest::WatchStream;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, Notify};
use tokio::time::Instant;

/// The body of `w`, fed by a task of its own. `close` ends the whole connection (a
/// client that stopped reading).
pub fn body(engine: Engine, w: WatchStream, close: Arc<Notify>) -> Body {
    let (tx, rx) = mpsc::channel(1);
    tokio::spawn(feed(engine, w, tx, close));
    Body::Stream(rx)
}

/// Sleep until `deadline`, or forever without one.
async fn until(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

async fn feed(engine: Engine, mut w: WatchStream, tx: mpsc::Sender<Bytes>, close: Arc<Notify>) {
    // A timeout past what the clock can count is no timeout.
    let deadline = w
        .timeout_seconds
        .and_then(|s| Instant::now().checked_add(Duration::from_secs(s)));
    let mut revision = engine.revision();
    loop {
        // Room for a chunk, or the client is gone, or its time is up.
        let permit = tokio::select! {
            p = tx.reserve() => match p {
                Ok(p) => p,
                Err(_) => return,
            },
            _ = until(deadline) => return,
            _ = tokio::time::sleep(WATCH_STALL_TIMEOUT) => {
                close.notify_one();
                return;
            }
        };
        // Seen before asking, so a write made while the engine answers wakes the wait.
        revision.borrow_and_update();
        let Some((back, chunk)) = engine
            .run(Line::Background, move |api| {
                let chunk = api.watch_events(&mut w, WATCH_CHUNK_BYTES);
                (w, chunk)
            })
            .await
        else {
            return;
        };
        w = back;
        let sent = !chunk.is_empty();
        if sent {
            permit.send(Bytes::from(chunk));
        } else {
            drop(permit);
        }
        if w.ended() {
            return;
        }
        if sent {
            // There may be more (a long first list): ask again once there is room.
            continue;
        }
        tokio::select! {
            changed = revision.changed() => if changed.is_err() { return },
            _ = until(deadline) => return,
            _ = tx.closed() => return,
        }
    }
}
