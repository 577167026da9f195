//! The devices as `sim devices` sets them up and reports them, and as `sim expect
//! devices/NAME` and the page read them.

use super::devices::{device_name, Devices};
use super::report::table;
use super::{Proxies, ProxyTimer};
use crate::apiserver::ObjKey;
use crate::rng::Rng;
use crate::time::{clock_label, SimTime};

impl Proxies {
    /// Make Service `key` have `n` devices (0: none); returns the traffic tick to arm.
    pub fn set_devices(
        &mut self,
        key: &ObjKey,
        n: u32,
        now: SimTime,
        rng: &mut Rng,
    ) -> Option<(SimTime, ProxyTimer)> {
        if n == 0 {
            self.devices.remove(key);
            return None;
        }
        self.devices
            .entry(key.clone())
            .or_default()
            .resize(n, now, rng);
        self.arm_tick(now)
    }

    /// A Service's devices' numbers, as `sim expect devices/NAME` reads them: `pods`
    /// maps each Pod with connections to how many.
    pub fn devices_summary(&self, key: &ObjKey) -> Option<serde_json::Value> {
        let ds = self.devices.get(key)?;
        let c = &ds.counts;
        let pods: serde_json::Map<String, serde_json::Value> = ds
            .per_pod()
            .into_iter()
            .filter_map(|(uid, n)| Some((ds.pod_of(&uid)?.0.to_string(), n.into())))
            .collect();
        let connected = ds.connected();
        // The last message a learner sent: its three kinds of evidence.
        let last = ds.last_sent.and_then(|(i, id)| {
            let e = ds.evidence(i, id)?;
            Some(serde_json::json!({
                "device": device_name(i),
                "id": self.apps.get(key).map(|a| a.id_label(id)).unwrap_or_default(),
                "seq": e.seq,
                "delivered": e.delivered.is_some(),
                "acknowledged": e.acked.is_some(),
                "read": e.read.is_some(),
            }))
        });
        Some(serde_json::json!({
            "devices": ds.len(),
            "connected": connected,
            "reconnecting": u64::from(ds.len()) - connected,
            "reconnects": c.reconnects,
            "failedAttempts": c.failed_attempts,
            "connectTimeouts": c.connect_timeouts,
            "closed": c.closed,
            "timedOut": c.timed_out,
            "messages": c.messages,
            "delivered": c.pushed + c.backfilled,
            "pushed": c.pushed,
            "backfilled": c.backfilled,
            "duplicatesDropped": c.duplicates_dropped,
            "acknowledged": c.acked,
            "acksLost": c.acks_lost,
            "read": c.read,
            "pending": ds.pending(),
            "missing": c.missing,
            "pods": pods,
            "last": last,
        }))
    }

    /// `sim devices --report`: each Service's devices, their connections per Pod and
    /// their connect attempts per ten seconds; with `device`, that device's messages.
    pub fn devices_report(&self, only: Option<&ObjKey>, device: Option<u32>) -> String {
        let mut out = String::new();
        for (key, ds) in &self.devices {
            if only.is_some_and(|o| o != key) {
                continue;
            }
            if !out.is_empty() {
                out.push('\n');
            }
            match device {
                Some(i) => out.push_str(&self.one_device(key, ds, i)),
                None => out.push_str(&service_devices(key, ds)),
            }
        }
        if out.is_empty() {
            return "No devices are connected: sim devices N service/NAME connects some.".into();
        }
        out.trim_end().to_string()
    }

    fn one_device(&self, key: &ObjKey, ds: &Devices, i: u32) -> String {
        let name = device_name(i);
        let Some((pod, since, connects, evidence)) = ds.device(i) else {
            return format!(
                "error: service/{} has no {name} (it has {} devices)\n",
                key.name,
                ds.len()
            );
        };
        let app = self.apps.get(key);
        let mut out = match pod.and_then(|uid| ds.pod_of(uid)) {
            Some((pod, node)) => format!(
                "{name}: connected to {pod} on {node} since {} (connects so far: {connects})\n",
                clock_label(since)
            ),
            None => format!(
                "{name}: not connected since {} (connects so far: {connects})\n",
                clock_label(since)
            ),
        };
        if evidence.is_empty() {
            out.push_str("No messages for it yet.\n");
            return out;
        }
        let mut rows = vec![vec![
            "MESSAGE".to_string(),
            "SEQ".into(),
            "DELIVERED".into(),
            "ACKNOWLEDGED".into(),
            "READ".into(),
        ]];
        let at = |t: Option<SimTime>| t.map(clock_label).unwrap_or_else(|| "-".into());
        for e in evidence {
            rows.push(vec![
                app.map(|a| a.id_label(e.id))
                    .unwrap_or_else(|| e.id.to_string()),
                e.seq.map(|s| s.to_string()).unwrap_or_else(|| "-".into()),
                match e.delivered {
                    Some((t, true)) => format!("{} (backfill)", clock_label(t)),
                    Some((t, false)) => clock_label(t),
                    None => "-".into(),
                },
                at(e.acked),
                at(e.read),
            ]);
        }
        out.push_str(&table(&rows));
        out
    }
}

/// One Service's devices: connections, messages, Pods, attempts.
fn service_devices(key: &ObjKey, ds: &Devices) -> String {
    let c = &ds.counts;
    let connected = ds.connected();
    let mut out = format!(
        "service/{}: {} devices, {connected} connected, {} reconnecting\n\n",
        key.name,
        ds.len(),
        u64::from(ds.len()) - connected
    );
    out.push_str(&table(&[
        vec![
            "RECONNECTS".into(),
            "FAILED ATTEMPTS".into(),
            "CONNECT TIMEOUTS".into(),
            "CLOSED BY A POD".into(),
            "PING TIMEOUTS".into(),
        ],
        vec![
            c.reconnects.to_string(),
            c.failed_attempts.to_string(),
            c.connect_timeouts.to_string(),
            c.closed.to_string(),
            c.timed_out.to_string(),
        ],
    ]));
    out.push('\n');
    out.push_str(&table(&[
        vec![
            "MESSAGES".into(),
            "PUSHED".into(),
            "BACKFILLED".into(),
            "DUPLICATES DROPPED".into(),
            "ACKNOWLEDGED".into(),
            "ACKS LOST".into(),
            "READ".into(),
            "PENDING".into(),
            "MISSING".into(),
        ],
        vec![
            c.messages.to_string(),
            c.pushed.to_string(),
            c.backfilled.to_string(),
            c.duplicates_dropped.to_string(),
            c.acked.to_string(),
            c.acks_lost.to_string(),
            c.read.to_string(),
            ds.pending().to_string(),
            c.missing.to_string(),
        ],
    ]));
    let mut rows = vec![vec!["POD".to_string(), "NODE".into(), "CONNECTIONS".into()]];
    let mut pods: Vec<Vec<String>> = ds
        .per_pod()
        .into_iter()
        .filter_map(|(uid, n)| {
            let (pod, node) = ds.pod_of(&uid)?;
            Some(vec![pod.to_string(), node.to_string(), n.to_string()])
        })
        .collect();
    pods.sort();
    rows.extend(pods);
    if rows.len() > 1 {
        out.push('\n');
        out.push_str(&table(&rows));
    }
    let windows = ds.every_ten_seconds();
    if !windows.is_empty() {
        out.push_str("\nconnect attempts every 10s:\n");
        let mut rows = vec![vec![
            "FROM".to_string(),
            "ATTEMPTS".into(),
            "CONNECTED".into(),
            "FAILED".into(),
            "".into(),
        ]];
        for (start, n) in windows {
            rows.push(vec![
                clock_label(start * crate::time::SECOND),
                n[0].to_string(),
                n[1].to_string(),
                n[2].to_string(),
                "#".repeat((n[2] * 20).div_ceil(n[0].max(1)) as usize),
            ]);
        }
        out.push_str(&table(&rows));
    }
    out
}
