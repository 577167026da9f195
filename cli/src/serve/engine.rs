//! The simulated cluster's own thread. The engine is one deterministic state machine
//! ([`ApiServer`]): one thread owns it and runs jobs from a queue in the order they
//! come, so requests never contend for a lock, a job never blocks the threads that
//! carry HTTP, and a request that waits for its turn waits in line — first come, first
//! served. A long `sim advance` is many short jobs ([`SIM_SLICE`]), each put back at the
//! end of the line, so `/healthz` and everyone else are answered between its slices.
//!
//! After each job the thread publishes the store's revision; open watches wait on it.

use super::limits::SIM_SLICE;
use kubeplay_engine::rest::{ApiServer, Reply};
use std::sync::mpsc;
use std::time::Instant;
use tokio::sync::{oneshot, watch};

type Job = Box<dyn FnOnce(&mut ApiServer) + Send>;

/// A handle on the engine's thread: send it jobs, watch its revision.
#[derive(Clone)]
pub struct Engine {
    jobs: mpsc::Sender<Job>,
    revision: watch::Receiver<u64>,
}

impl Engine {
    /// Start the thread that owns `api`. Fails (no panic) when no thread can be made.
    pub fn start(api: ApiServer) -> std::io::Result<Engine> {
        let (jobs, queue) = mpsc::channel::<Job>();
        let (published, revision) = watch::channel(api.revision());
        std::thread::Builder::new()
            .name("kubeplay-engine".into())
            .spawn(move || run(api, queue, published))?;
        Ok(Engine { jobs, revision })
    }

    /// Run `f` on the cluster in its turn; None if the engine is gone.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut ApiServer) -> T + Send + 'static,
    ) -> Option<T> {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move |api| {
            let _ = tx.send(f(api));
        });
        self.jobs.send(job).ok()?;
        rx.await.ok()
    }

    /// The store's revision after the last job, to wait on.
    pub fn revision(&self) -> watch::Receiver<u64> {
        self.revision.clone()
    }

    /// Run a `sim advance`/`sim settle` to its end a slice at a time, each slice a job
    /// of its own at the back of the line; the answer.
    pub async fn finish_sim(&self, mut reply: Reply) -> Option<Reply> {
        while let Reply::Sim(run) = reply {
            reply = self
                .run(move |api| {
                    let start = Instant::now();
                    api.sim_continue(run, &mut || start.elapsed() >= SIM_SLICE)
                })
                .await?;
        }
        Some(reply)
    }
}

fn run(mut api: ApiServer, queue: mpsc::Receiver<Job>, published: watch::Sender<u64>) {
    // Ends when every handle is gone (the server is stopping).
    while let Ok(job) = queue.recv() {
        // A job that panics (a bug: the engine refuses bad input with errors) loses
        // its answer — the client gets a 500 — and the world is still whole, every
        // request being applied or refused in one piece, so serving goes on. (A release
        // build aborts on panic instead.)
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&mut api)));
        let now = api.revision();
        published.send_if_modified(|r| std::mem::replace(r, now) != now);
    }
}
