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
//! After each job the thread publishes the store's revision, which open watches wait
//! on, and whether the control plane is available, from which health probes of the
//! kubeconfig's users are answered without waiting for the thread at all
//! ([`Engine::health`]).

use super::limits::SIM_SLICE;
use kubeplay_engine::apiserver::door;
use kubeplay_engine::apiserver::rbac::{authorize, Attributes, Decision};
use kubeplay_engine::apiserver::request::Unavailable;
use kubeplay_engine::rest::{ApiServer, Reply, USERS};
use kubeplay_engine::sim_endpoint::{self, Served};
use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;
use tokio::sync::{oneshot, watch};

type Job = Box<dyn FnOnce(&mut ApiServer) + Send>;

/// The health endpoints, in the order [`Health::allowed`] keeps them.
pub const PROBES: [&str; 3] = ["/healthz", "/livez", "/readyz"];

/// What a health probe's answer depends on, as of the last job: whether the control
/// plane is available, and which of the kubeconfig's users RBAC lets GET each probe
/// (kubeadm binds `system:public-info-viewer` to every authenticated user, and a
/// learner may delete that binding).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Health {
    /// Why the control plane is unavailable (None: it is not).
    pub unavailable: Option<Unavailable>,
    /// Per user the server knows (its token accepted): may it GET each of [`PROBES`].
    pub allowed: Vec<(&'static str, [bool; 3])>,
}

impl Health {
    fn of(api: &ApiServer) -> Health {
        let store = &api.cluster.store;
        let allowed = USERS
            .iter()
            .filter_map(|&u| door::authenticate(u).map(|info| (u, info)))
            .map(|(u, info)| {
                let may = |path: &str| {
                    let a = Attributes {
                        verb: "get".into(),
                        path: path.into(),
                        ..Default::default()
                    };
                    matches!(authorize(store, &info, &a), Decision::Allow(_))
                };
                (u, PROBES.map(may))
            })
            .collect();
        Health {
            unavailable: api.cluster.unavailable(),
            allowed,
        }
    }

    /// Whether `user` may GET `path`, one of [`PROBES`] (None: a user not known here).
    pub fn allows(&self, user: &str, path: &str) -> Option<bool> {
        let at = PROBES.iter().position(|p| *p == path)?;
        let (_, may) = self.allowed.iter().find(|(u, _)| *u == user)?;
        Some(may[at])
    }
}

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
    health: watch::Receiver<Health>,
}

impl Engine {
    /// Start the thread that owns `api`. Fails (no panic) when no thread can be made.
    pub fn start(api: ApiServer) -> std::io::Result<Engine> {
        let queue = Arc::new(Queue::default());
        let (published, revision) = watch::channel(api.revision());
        let (health_published, health) = watch::channel(Health::of(&api));
        let q = queue.clone();
        std::thread::Builder::new()
            .name("kubeplay-engine".into())
            .spawn(move || run(api, &q, (published, health_published)))?;
        Ok(Engine {
            queue,
            revision,
            health,
        })
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

    /// What health probes are answered from, as of the last job.
    pub fn health(&self) -> Health {
        self.health.borrow().clone()
    }

    /// The store's revision after the last job, to wait on.
    pub fn revision(&self) -> watch::Receiver<u64> {
        self.revision.clone()
    }

    /// Run a `sim advance`/`sim settle` to its end a slice at a time, each slice a
    /// background job of its own; the answer.
    pub async fn finish_sim(&self, mut served: Served) -> Option<Reply> {
        loop {
            match served {
                Served::Reply(r) => return Some(r),
                Served::Running(run) => {
                    served = self
                        .run(Line::Background, move |api| {
                            let start = Instant::now();
                            sim_endpoint::sim_continue(api, run, &mut || {
                                start.elapsed() >= SIM_SLICE
                            })
                        })
                        .await?;
                }
            }
        }
    }
}

fn run(
    mut api: ApiServer,
    queue: &Queue,
    (published, health): (watch::Sender<u64>, watch::Sender<Health>),
) {
    loop {
        let job = queue.next();
        // A job that panics (a bug: the engine refuses bad input with errors) loses
        // its answer — the client gets a 500 — and the world is still whole, every
        // request being applied or refused in one piece, so serving goes on. (A release
        // build aborts on panic instead.)
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&mut api)));
        let now = api.revision();
        let wrote = published.send_if_modified(|r| std::mem::replace(r, now) != now);
        let up = api.cluster.unavailable();
        // RBAC changes only with a write; availability with any job.
        if wrote || health.borrow().unavailable != up {
            let h = Health::of(&api);
            health.send_if_modified(|old| std::mem::replace(old, h.clone()) != h);
        }
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
    fn the_published_health_lets_each_accepted_user_probe_and_knows_no_refused_token() {
        let api = ApiServer::new(kubeplay_engine::cluster::Cluster::with_default_nodes(1));
        let h = Health::of(&api);
        assert_eq!(h.unavailable, None);
        for user in ["kubernetes-admin", "alice", "bob"] {
            for path in PROBES {
                assert_eq!(h.allows(user, path), Some(true), "{user} {path}");
            }
        }
        assert_eq!(h.allows("expired", "/healthz"), None);
        assert_eq!(h.allows("alice", "/version"), None);
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
