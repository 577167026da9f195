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
//!
//! A watch that allows bookmarks gets a BOOKMARK at the version it has read up to once
//! a minute, and two seconds before its timeout (the watch cache's
//! `nextBookmarkTime`), so its client can resume from a recent version.

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

/// How often a watch that allows them gets a BOOKMARK (`bookmarkFrequency`).
const BOOKMARK_FREQUENCY: Duration = Duration::from_secs(60);

/// `nextBookmarkTime`: a minute from `now`, or two seconds before the deadline when
/// that comes first; None for a watch without bookmarks.
fn next_bookmark(bookmarks: bool, now: Instant, deadline: Option<Instant>) -> Option<Instant> {
    if !bookmarks {
        return None;
    }
    let heartbeat = now.checked_add(BOOKMARK_FREQUENCY)?;
    Some(
        match deadline.and_then(|d| d.checked_sub(Duration::from_secs(2))) {
            Some(pre) if pre < heartbeat && pre > now => pre,
            _ => heartbeat,
        },
    )
}

async fn feed(engine: Engine, mut w: WatchStream, tx: mpsc::Sender<Bytes>, close: Arc<Notify>) {
    // A timeout past what the clock can count is no timeout.
    let deadline = w
        .timeout_seconds
        .and_then(|s| Instant::now().checked_add(Duration::from_secs(s)));
    let mut revision = engine.revision();
    let mut bookmark_at = next_bookmark(w.bookmarks, Instant::now(), deadline);
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
            _ = until(bookmark_at) => {
                bookmark_at = next_bookmark(w.bookmarks, Instant::now(), deadline);
                let Some((back, line)) = engine
                    .run(Line::Background, move |api| {
                        // Whatever came meanwhile first: a bookmark never runs ahead.
                        let mut out = api.watch_events(&mut w, WATCH_CHUNK_BYTES);
                        if out.is_empty() {
                            out = api.watch_bookmark(&w);
                        }
                        (w, out)
                    })
                    .await
                else {
                    return;
                };
                w = back;
                if !line.is_empty() && tx.send(Bytes::from(line)).await.is_err() {
                    return;
                }
                if w.ended() {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bookmarks_come_each_minute_and_two_seconds_before_the_timeout() {
        let now = Instant::now();
        assert_eq!(next_bookmark(false, now, None), None, "not asked for");
        assert_eq!(
            next_bookmark(true, now, None),
            Some(now + Duration::from_secs(60))
        );
        let deadline = Some(now + Duration::from_secs(10));
        assert_eq!(
            next_bookmark(true, now, deadline),
            Some(now + Duration::from_secs(8))
        );
        let far = Some(now + Duration::from_secs(600));
        assert_eq!(
            next_bookmark(true, now, far),
            Some(now + Duration::from_secs(60))
        );
    }
}
