//! The image garbage collector's periodic run (`pkg/kubelet/images/image_gc_manager.go`
//! `GarbageCollect`, started by `StartGarbageCollection` in `kubelet.go`).
//!
//! Every 5 minutes (`ImageGCPeriod`) the kubelet reads its image filesystem. At 85% used
//! or more (`imageGCHighThresholdPercent`) it deletes unused images until 80% is used
//! (`imageGCLowThresholdPercent`): the images no container of a Pod that is not
//! terminal uses and that it has known for 2 minutes, the longest known first (upstream
//! orders them by when they were last used; kubeplay knows when they arrived). When
//! that cannot free enough it records a Warning `FreeDiskSpaceFailed` on the node, and
//! from the second failure in a row a Warning `ImageGCFailed` too: "Failed to garbage
//! collect required amount of images. Attempted to free N bytes, but only found M bytes
//! eligible to free.". No Event says an image was deleted.

use super::eviction::{PodStats, Signal, IMAGE_MINIMUM_GC_AGE};
use super::*;

/// `ImageGCPeriod`.
pub const IMAGE_GC_PERIOD: SimTime = 5 * 60_000;
/// `imageGCHighThresholdPercent`'s default.
pub const IMAGE_GC_HIGH_THRESHOLD_PERCENT: i64 = 85;
/// `imageGCLowThresholdPercent`'s default.
pub const IMAGE_GC_LOW_THRESHOLD_PERCENT: i64 = 80;

impl Kubelet {
    /// What the node's images take on its disk.
    pub fn images_bytes(&self) -> i64 {
        self.images.iter().map(|i| image_size(i) as i64).sum()
    }

    /// The images the collector may delete: none of `pods`' containers uses them
    /// and the kubelet has known them for [`IMAGE_MINIMUM_GC_AGE`]; the longest known
    /// first (`imagesInEvictionOrder`, with arrival standing in for last use).
    pub(super) fn collectable_images(&self, pods: &[&Pod], now: SimTime) -> Vec<String> {
        let in_use: BTreeSet<&str> = pods
            .iter()
            .flat_map(|p| p.spec.containers.iter().chain(&p.spec.init_containers))
            .map(|c| c.image.as_str())
            .collect();
        let mut unused: Vec<(SimTime, &String)> = self
            .images
            .iter()
            .filter(|i| !in_use.contains(i.as_str()))
            .map(|i| (self.pressure.image_detected.get(i).copied().unwrap_or(0), i))
            .filter(|(t, _)| now.saturating_sub(*t) >= IMAGE_MINIMUM_GC_AGE)
            .collect();
        unused.sort();
        unused.into_iter().map(|(_, i)| i.clone()).collect()
    }

    /// The runtime's `RemoveImage`: the image leaves the node and the collector's record.
    pub(super) fn remove_image(&mut self, image: &str) {
        self.images.remove(image);
        self.pressure.image_detected.remove(image);
    }
    /// One periodic image garbage collection, when its 5-minute period has come round
    /// (see the module's words). Returns the Events it records.
    pub fn image_garbage_collect(
        &mut self,
        store: &Store,
        stats: &dyn Fn(&Pod) -> PodStats,
        now: SimTime,
    ) -> Vec<Request> {
        let window = now / IMAGE_GC_PERIOD;
        if self.pressure.image_gc_window == Some(window) {
            return vec![];
        }
        self.pressure.image_gc_window = Some(window);
        let pods: Vec<&Pod> = store
            .pods_on_node(&self.node)
            .filter(|p| !p.is_terminal())
            .collect();
        let o = self.observe(&pods, stats).get(Signal::ImageFsAvailable);
        if o.capacity <= 0 {
            return vec![];
        }
        let usage_percent = 100 - (i128::from(o.available) * 100 / i128::from(o.capacity)) as i64;
        if usage_percent < IMAGE_GC_HIGH_THRESHOLD_PERCENT {
            self.pressure.image_gc_failures = 0;
            return vec![];
        }
        let amount_to_free = o
            .capacity
            .saturating_mul(100 - IMAGE_GC_LOW_THRESHOLD_PERCENT)
            / 100
            - o.available;
        let unused = self.collectable_images(&pods, now);
        let mut freed = 0i64;
        for image in unused {
            if freed >= amount_to_free {
                break;
            }
            freed += image_size(&image) as i64;
            self.remove_image(&image);
        }
        if freed >= amount_to_free {
            self.pressure.image_gc_failures = 0;
            return vec![];
        }
        self.pressure.image_gc_failures += 1;
        let Some(node) = self.node_object(store) else {
            return vec![];
        };
        let message = format!("Failed to garbage collect required amount of images. Attempted to free {amount_to_free} bytes, but only found {freed} bytes eligible to free.");
        let mut reasons = vec!["FreeDiskSpaceFailed"];
        if self.pressure.image_gc_failures >= 2 {
            reasons.push("ImageGCFailed");
        }
        reasons
            .into_iter()
            .map(|reason| Request::Event {
                involved: event_ref(Kind::Node, &node.metadata),
                type_: EventType::Warning,
                reason: reason.into(),
                message: message.clone(),
            })
            .collect()
    }
}
