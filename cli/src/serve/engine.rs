//! The simulated cluster's own thread. The engine is one deterministic state machine
//! ([`ApiServer`]): one thread owns it and runs jobs one at a time, so requests never
//! contend for a lock and a job never blocks the threads that carry HTTP.
//!
//! Jobs wait in two lines. Clients' requests are one; the work that keeps going on its
//! own — the slices of a long `sim advance` ([`SIM_SLICE`] each), a watch's next chunk,
//! the realtime clock's steps — is the other. When both hold jobs the thread takes from
//! each in turn, so a request (`/healthz` among them) waits for at most one piece of that
//! work ahead of it, however much of it is queued, and the work still moves while
//! requests keep coming. Within a line, first come, first served.
//!
//! Health probes (`/healthz`, `/livez`, `/readyz`) wait in neither: they go first, as
//! kube-apiserver's API Priority and Fairness gives them the `exempt` priority level
//! (the `probes` FlowSchema), never queued behind other requests. A probe still waits
//! for the one job that is running.
//!
//! After each job the thread publishes the store's revision; open watches wait on it.

use super::limits::SIM_SLICE;
use kubeplay_engine::rest::{ApiServer, Reply};
use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;
use tokio::sync::{oneshot, watch};

type Job = Box<dyn FnOnce(&mut ApiServer) + Send>;

/// Which line a job waits in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Line {
    /// A health probe: taken before any other waiting job.
    Exempt,
    /// A client's request.
    Request,
    /// Work that goes on by itself: sim slices, watch chunks, the realtime clock.
    Background,
}

#[derive(Default)]
struct Lines {
    exempt: VecDeque<Job>,
    requests: VecDeque<Job>,
    background: VecDeque<Job>,
    /// The last job taken was a request: a waiting background job goes next.
    request_last: bool,
}

#[derive(Default)]
struct Queue {
    lines: Mutex<Lines>,
    ready: Condvar,
}

impl Queue {
    fn lock(&self) -> std::sync::MutexGuard<'_, Lines> {
        // A job runs outside the lock, so a poisoned lock holds whole lines.
        self.lines.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn push(&self, line: Line, job: Job) {
        let mut l = self.lock();
        match line {
            Line::Exempt => l.exempt.push_back(job),
            Line::Request => l.requests.push_back(job),
            Line::Background => l.background.push_back(job),
        }
        drop(l);
        self.ready.notify_one();
    }

    /// The next job: a probe first, then from each of the other lines in turn while
    /// both wait.
    fn next(&self) -> Job {
        let mut l = self.lock();
        loop {
            if let Some(job) = l.exempt.pop_front() {
                return job;
            }
            let take_request =
                !l.requests.is_empty() && (!l.request_last || l.background.is_empty());
            if take_request {
                l.request_last = true;
                if let Some(job) = l.requests.pop_front() {
                    return job;
                }
            } else if let Some(job) = l.background.pop_front() {
                l.request_last = false;
                return job;
            }
            l = self.ready.wait(l).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// A handle on the engine's thread: send it jobs, watch its revision.
#[derive(Clone)]
pub struct Engine {
    queue: Arc<Queue>,
    revision: watch::Receiver<u64>,
}

impl Engine {
    /// Start the thread that owns `api`. Fails (no panic) when no thread can be made.
    pub fn start(api: ApiServer) -> std::io::Result<Engine> {
        let queue = Arc::new(Queue::default());
        let (published, revision) = watch::channel(api.revision());
        let q = queue.clone();
        std::thread::Builder::new()
            .name("kubeplay-engine".into())
            .spawn(move || run(api, &q, published))?;
        Ok(Engine { queue, revision })
    }

    /// Run `f` on the cluster in its turn in `line`; None if the job was lost (it
    /// panicked).
    pub async fn run<T: Send + 'static>(
        &self,
        line: Line,
        f: impl FnOnce(&mut ApiServer) -> T + Send + 'static,
    ) -> Option<T> {
        let (tx, rx) = oneshot::channel();
        self.queue.push(
            line,
            Box::new(move |api| {
                let _ = tx.send(f(api));
            }),
        );
        rx.await.ok()
    }

    /// The store's revision after the last job, to wait on.
    pub fn revision(&self) -> watch::Receiver<u64> {
        self.revision.clone()
    }

    /// Run a `sim advance`/`sim settle` to its end a slice at a time, each slice a
    /// background job of its own; the answer.
    pub async fn finish_sim(&self, mut reply: Reply) -> Option<Reply> {
        while let Reply::Sim(run) = reply {
            reply = self
                .run(Line::Background, move |api| {
                    let start = Instant::now();
                    api.sim_continue(run, &mut || start.elapsed() >= SIM_SLICE)
                })
                .await?;
        }
        Some(reply)
    }
}

fn run(mut api: ApiServer, queue: &Queue, published: watch::Sender<u64>) {
    loop {
        let job = queue.next();
        // A job that panics (a bug: the engine refuses bad input with errors) loses
        // its answer — the client gets a 500 — and the world is still whole, every
        // request being applied or refused in one piece, so serving goes on. (A release
        // build aborts on panic instead.)
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&mut api)));
        let now = api.revision();
        published.send_if_modified(|r| std::mem::replace(r, now) != now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(log: &Arc<Mutex<Vec<&'static str>>>, name: &'static str) -> Job {
        let log = log.clone();
        Box::new(move |_| log.lock().unwrap().push(name))
    }

    #[test]
    fn requests_and_background_work_take_turns_and_each_line_keeps_its_order() {
        let q = Queue::default();
        let log = Arc::new(Mutex::new(Vec::new()));
        for name in ["slice 1", "slice 2", "slice 3"] {
            q.push(Line::Background, job(&log, name));
        }
        for name in ["healthz", "get", "list"] {
            q.push(Line::Request, job(&log, name));
        }
        let mut api = ApiServer::new(kubeplay_engine::cluster::Cluster::with_default_nodes(1));
        for _ in 0..6 {
            q.next()(&mut api);
        }
        assert_eq!(
            *log.lock().unwrap(),
            vec!["healthz", "slice 1", "get", "slice 2", "list", "slice 3"]
        );
    }

    #[test]
    fn a_health_probe_goes_before_every_waiting_request_and_slice() {
        let q = Queue::default();
        let log = Arc::new(Mutex::new(Vec::new()));
        q.push(Line::Background, job(&log, "slice"));
        for name in ["watch 1", "watch 2", "watch 3"] {
            q.push(Line::Request, job(&log, name));
        }
        q.push(Line::Exempt, job(&log, "readyz"));
        q.push(Line::Exempt, job(&log, "healthz"));
        let mut api = ApiServer::new(kubeplay_engine::cluster::Cluster::with_default_nodes(1));
        for _ in 0..6 {
            q.next()(&mut api);
        }
        assert_eq!(
            *log.lock().unwrap(),
            vec!["readyz", "healthz", "watch 1", "slice", "watch 2", "watch 3"]
        );
    }
}
