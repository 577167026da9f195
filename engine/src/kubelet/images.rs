//! The image manager: pull (or find) a container's image, with the pull back-off.
//!
//! Upstream: `pkg/kubelet/images/image_manager.go` (`EnsureImageExists`: the Pulling /
//! Pulled / Failed events, `ErrImagePull`, `ImagePullBackOff`), `pkg/kubelet/images/puller.go`.

use super::*;

/// `workerBackOffPeriod`: a pod worker whose sync failed tries again after 10 s.
const WORKER_BACKOFF: SimTime = 10 * SECOND;

/// Simulated size of an image in bytes: deterministic from its name (20–120 MB).
pub fn image_size(image: &str) -> u64 {
    let h = fnv1a32(image.as_bytes()) as u64;
    20_000_000 + (h % 100_000_000)
}

/// 64 hex characters derived from `seed` (stand-in for a sha256 digest or container id).
pub(super) fn hex64(seed: &str) -> String {
    let mut out = String::new();
    for i in 0..8u8 {
        let h = fnv1a32(format!("{seed}/{i}").as_bytes());
        out.push_str(&format!("{h:08x}"));
    }
    out
}

/// The resolved image id the runtime reports, e.g. `docker.io/library/nginx@sha256:…`.
pub fn image_id(image: &str) -> String {
    let repo = image.split(['@']).next().unwrap_or(image);
    let repo = match repo.rsplit_once(':') {
        Some((r, tag)) if !tag.contains('/') => r,
        _ => repo,
    };
    let full = qualified_repo(repo);
    format!("{full}@sha256:{}", hex64(&full))
}

/// A repository as the runtime resolves it: `nginx` → `docker.io/library/nginx`,
/// `me/app` → `docker.io/me/app`, a registry host (with a `.` or `:`) kept.
fn qualified_repo(repo: &str) -> String {
    match repo.matches('/').count() {
        0 => format!("docker.io/library/{repo}"),
        _ if repo
            .split('/')
            .next()
            .is_some_and(|h| h.contains('.') || h.contains(':')) =>
        {
            repo.to_string()
        }
        _ => format!("docker.io/{repo}"),
    }
}

/// The fully qualified tag reference containerd reports for `image`
/// (`nginx:1.27` → `docker.io/library/nginx:1.27`; no tag → `:latest`).
pub fn image_repo_tag(image: &str) -> String {
    let digest = image_id(image);
    let repo = digest.split('@').next().unwrap_or(&digest).to_string();
    let tag = match image.split('@').next().unwrap_or(image).rsplit_once(':') {
        Some((_, t)) if !t.contains('/') => t.to_string(),
        _ => "latest".into(),
    };
    format!("{repo}:{tag}")
}

/// Which container of a Pod: app containers and init containers share the pull steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    /// `spec.containers[i]`.
    App(usize),
    /// `spec.initContainers[j]`.
    Init(usize),
}

impl Slot {
    pub(super) fn container(self, pod: &Pod) -> Option<&Container> {
        match self {
            Slot::App(i) => pod.spec.containers.get(i),
            Slot::Init(j) => pod.spec.init_containers.get(j),
        }
    }

    /// The timer that creates and starts it.
    fn start(self, uid: &str) -> KubeletTimer {
        match self {
            Slot::App(i) => KubeletTimer::Start(uid.into(), i),
            Slot::Init(j) => KubeletTimer::InitStart(uid.into(), j),
        }
    }

    /// The timer for its finished pull.
    fn pulled(self, uid: &str) -> KubeletTimer {
        match self {
            Slot::App(i) => KubeletTimer::PullDone(uid.into(), i),
            Slot::Init(j) => KubeletTimer::InitPullDone(uid.into(), j),
        }
    }
}

/// The fully qualified reference a runtime resolves (`docker.io/library/nginx:1.27`).
pub fn image_reference(image: &str) -> String {
    let (repo, tag) = match image.rsplit_once(':') {
        Some((r, t)) if !t.contains('/') => (r, t),
        _ => (image, "latest"),
    };
    format!("{}:{tag}", qualified_repo(repo))
}

/// containerd's error for an image the registry does not have.
pub fn pull_error(image: &str) -> String {
    let r = image_reference(image);
    format!("rpc error: code = NotFound desc = failed to pull and unpack image \"{r}\": failed to resolve reference \"{r}\": {r}: not found")
}

impl Kubelet {
    pub(super) fn pull(
        &mut self,
        faults: &mut Faults,
        pod: &Pod,
        uid: &str,
        i: usize,
        now: SimTime,
    ) -> KubeletOutput {
        self.pull_slot(faults, pod, uid, Slot::App(i), now)
    }

    /// The image of an (init) container is present (start soon) or is pulled; a refused
    /// one fails (app containers: ErrImagePull, then back-off).
    pub(super) fn pull_slot(
        &mut self,
        faults: &mut Faults,
        pod: &Pod,
        uid: &str,
        slot: Slot,
        now: SimTime,
    ) -> KubeletOutput {
        let Some(c) = slot.container(pod) else {
            return (vec![], vec![]);
        };
        let present = self.images.contains(&c.image);
        // `shouldPullImage`: Never never pulls, IfNotPresent pulls what is absent, Always
        // (the default for `:latest`) pulls on every start, present or not.
        let pull = match c.image_pull_policy.as_str() {
            "Never" => false,
            "Always" => true,
            _ => !present,
        };
        if !pull && present {
            let ev = self.event(
                &pod.metadata,
                EventType::Normal,
                "Pulled",
                format!("Container image \"{}\" already present on machine", c.image),
            );
            return (
                vec![ev],
                vec![(now + self.timing.container_start, slot.start(uid))],
            );
        }
        if !pull {
            return self.never_pull(pod, c, uid, slot, now);
        }
        let ev = self.event(
            &pod.metadata,
            EventType::Normal,
            "Pulling",
            format!("Pulling image \"{}\"", c.image),
        );
        if let (true, Slot::App(i)) = (faults.refused_images.contains(&c.image), slot) {
            // The registry answers quickly with an error.
            return (
                vec![ev],
                vec![(
                    now + self.timing.pull_base,
                    KubeletTimer::PullFailed(uid.into(), i),
                )],
            );
        }
        let ms = self.pull_ms_of(c);
        (vec![ev], vec![(now + ms, slot.pulled(uid))])
    }

    /// How long pulling `image` takes when its layers have to come down.
    pub(super) fn pull_ms(&self, image: &str) -> SimTime {
        self.timing.pull_base + image_size(image) / 1_000_000 * self.timing.pull_ms_per_mb
    }

    /// How long `c`'s pull takes: with `Always` and the image present, only the
    /// registry round trip (every layer is already there).
    pub(super) fn pull_ms_of(&self, c: &Container) -> SimTime {
        if c.image_pull_policy == "Always" && self.images.contains(&c.image) {
            return self.timing.pull_base;
        }
        self.pull_ms(&c.image)
    }

    /// `imagePullPolicy: Never` and the image is absent: waiting `ErrImageNeverPull`
    /// with `EnsureImageExists`' message, a Warning `ErrImageNeverPull` and the
    /// `Failed` `Error: ErrImageNeverPull` of the failed start; the pod worker tries
    /// again after its back-off period (10 s), when the image may have arrived.
    fn never_pull(
        &mut self,
        pod: &Pod,
        c: &Container,
        uid: &str,
        slot: Slot,
        now: SimTime,
    ) -> KubeletOutput {
        let msg = format!(
            "Container image \"{}\" is not present with pull policy of Never",
            c.image
        );
        let mut p = pod.clone();
        set_waiting(&mut p, &c.name, "ErrImageNeverPull", &msg);
        let retry = match slot {
            Slot::App(i) => KubeletTimer::RetryPull(uid.into(), i),
            Slot::Init(j) => KubeletTimer::InitPull(uid.into(), j),
        };
        (
            vec![
                self.event(&p.metadata, EventType::Warning, "ErrImageNeverPull", msg),
                self.event(
                    &p.metadata,
                    EventType::Warning,
                    "Failed",
                    "Error: ErrImageNeverPull".into(),
                ),
                Request::blind_update_status(p),
            ],
            vec![(now + WORKER_BACKOFF, retry)],
        )
    }

    pub(super) fn pull_done(
        &mut self,
        store: &Store,
        uid: &str,
        i: usize,
        now: SimTime,
    ) -> KubeletOutput {
        self.pull_done_slot(store, uid, Slot::App(i), now)
    }

    /// A pull finished: `Pulled` with the time and size, then the container starts.
    pub(super) fn pull_done_slot(
        &mut self,
        store: &Store,
        uid: &str,
        slot: Slot,
        now: SimTime,
    ) -> KubeletOutput {
        if !self.starting(uid) {
            return (vec![], vec![]);
        }
        let Some(pod) = self.pod(store, uid) else {
            return (vec![], vec![]);
        };
        let Some(c) = slot.container(pod) else {
            return (vec![], vec![]);
        };
        let image = c.image.clone();
        let ev = self.event(
            &pod.metadata,
            EventType::Normal,
            "Pulled",
            format!(
                "Successfully pulled image \"{image}\" in {secs} ({secs} including waiting). Image size: {} bytes.",
                image_size(&image),
                secs = format_go_duration(self.pull_ms_of(c)),
            ),
        );
        self.pressure
            .image_detected
            .entry(image.clone())
            .or_insert(now);
        self.images.insert(image);
        (
            vec![ev],
            vec![(now + self.timing.container_start, slot.start(uid))],
        )
    }

    /// The registry refused the image: `Failed`, then `ErrImagePull`, and back-off.
    pub(super) fn pull_failed(
        &mut self,
        faults: &mut Faults,
        store: &Store,
        uid: &str,
        i: usize,
        now: SimTime,
    ) -> KubeletOutput {
        let Some((pod, c)) = self.starting_container(store, uid, Slot::App(i)) else {
            return (vec![], vec![]);
        };
        if !faults.refused_images.contains(&c.image) {
            // The registry accepts it again (`sim image-ok`): this attempt succeeds.
            return self.pull_done(store, uid, i, now);
        }
        let err = pull_error(&c.image);
        let key = format!("{uid}_{}", c.image);
        let next = match self.image_backoff.get(&key) {
            Some(b) if now.saturating_sub(b.last_update) <= 2 * MAX_BACKOFF => {
                (b.delay * 2).min(MAX_BACKOFF)
            }
            _ => INITIAL_BACKOFF,
        };
        self.image_backoff.insert(
            key,
            Backoff {
                delay: next,
                last_update: now,
            },
        );
        let mut p = pod.clone();
        set_waiting(&mut p, &c.name, "ErrImagePull", &err);
        (
            vec![
                self.event(
                    &p.metadata,
                    EventType::Warning,
                    "Failed",
                    format!("Failed to pull image \"{}\": {err}", c.image),
                ),
                self.event(
                    &p.metadata,
                    EventType::Warning,
                    "Failed",
                    "Error: ErrImagePull".into(),
                ),
                Request::blind_update_status(p),
            ],
            vec![(now + PLEG_RELIST, KubeletTimer::ImageBackOff(uid.into(), i))],
        )
    }

    /// The next sync inside the image back-off: `BackOff` and `ImagePullBackOff`, and a
    /// new pull when the back-off has passed.
    pub(super) fn image_backoff(
        &mut self,
        store: &Store,
        uid: &str,
        i: usize,
        _now: SimTime,
    ) -> KubeletOutput {
        let Some((pod, c)) = self.starting_container(store, uid, Slot::App(i)) else {
            return (vec![], vec![]);
        };
        let Some(b) = self
            .image_backoff
            .get(&format!("{uid}_{}", c.image))
            .copied()
        else {
            return (vec![], vec![]);
        };
        let mut p = pod.clone();
        let msg = format!(
            "Back-off pulling image \"{}\": ErrImagePull: {}",
            c.image,
            pull_error(&c.image)
        );
        set_waiting(&mut p, &c.name, "ImagePullBackOff", &msg);
        (
            vec![
                self.event(
                    &p.metadata,
                    EventType::Normal,
                    "BackOff",
                    format!("Back-off pulling image \"{}\"", c.image),
                ),
                self.event(
                    &p.metadata,
                    EventType::Warning,
                    "Failed",
                    "Error: ImagePullBackOff".into(),
                ),
                Request::blind_update_status(p),
            ],
            vec![(
                b.last_update + b.delay,
                KubeletTimer::RetryPull(uid.into(), i),
            )],
        )
    }

    pub(super) fn retry_pull(
        &mut self,
        faults: &mut Faults,
        store: &Store,
        uid: &str,
        i: usize,
        now: SimTime,
    ) -> KubeletOutput {
        let Some(pod) = self.starting_pod(store, uid) else {
            return (vec![], vec![]);
        };
        self.pull(faults, &pod, uid, i, now)
    }
}
