//! The server's response bodies: a whole one (sent with its length, head and body in
//! one write) or a stream of chunks (a watch).

use bytes::Bytes;
use hyper::body::{Frame, SizeHint};
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::sync::mpsc;

/// A response body.
#[derive(Debug)]
pub enum Body {
    /// The whole body (None once sent).
    Full(Option<Bytes>),
    /// Chunks as they come; the body ends when the sender is dropped.
    Stream(mpsc::Receiver<Bytes>),
}

impl Body {
    /// A whole body.
    pub fn full(b: impl Into<Bytes>) -> Body {
        let b = b.into();
        Body::Full((!b.is_empty()).then_some(b))
    }
}

impl hyper::body::Body for Body {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match self.get_mut() {
            Body::Full(b) => Poll::Ready(b.take().map(|b| Ok(Frame::data(b)))),
            Body::Stream(rx) => rx.poll_recv(cx).map(|c| c.map(|b| Ok(Frame::data(b)))),
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self, Body::Full(None))
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            Body::Full(b) => SizeHint::with_exact(b.as_ref().map_or(0, |b| b.len() as u64)),
            Body::Stream(_) => SizeHint::default(),
        }
    }
}
