//! What the traffic met, as `sim traffic` prints it and the page reads it: per Service,
//! the outcomes of the recent seconds, per Pod and, with an application, per business
//! call.

use super::traffic::Bucket;
use super::{Proxies, RECENT_SECONDS};
use crate::apiserver::ObjKey;
use crate::time::SECOND;
use std::collections::BTreeMap;

impl Proxies {
    /// A Service's traffic and business numbers so far, as `sim expect traffic/NAME`
    /// reads them (None: no request was ever sent to it).
    pub fn summary(&self, key: &ObjKey) -> Option<serde_json::Value> {
        // An application reached only through an Ingress has business numbers and no
        // flow of its own.
        let empty = BTreeMap::new();
        let series = match self.series.get(key) {
            Some(s) => s,
            None if self.apps.contains_key(key) => &empty,
            None => return None,
        };
        let mut t = Bucket::default();
        for b in series.values() {
            for (i, n) in b.outcomes.iter().enumerate() {
                t.outcomes[i] += n;
            }
            t.retries += b.retries;
        }
        let mut v = serde_json::json!({
            "requests": t.total(),
            "ok": t.outcomes[0],
            "errors": t.errors(),
            "noEndpoints": t.outcomes[1],
            "refused": t.outcomes[2],
            "timeout": t.outcomes[3],
            "reset": t.outcomes[4],
            "retries": t.retries,
        });
        // The last RECENT_SECONDS of the series (ending at its last second with
        // requests): whether users still meet errors, not whether they ever did.
        if let Some(last) = series.keys().next_back().copied() {
            let mut r = Bucket::default();
            for (_, b) in series.range(last.saturating_sub(RECENT_SECONDS - 1)..=last) {
                for (i, n) in b.outcomes.iter().enumerate() {
                    r.outcomes[i] += n;
                }
            }
            v["recent"] = serde_json::json!({
                "requests": r.total(),
                "ok": r.outcomes[0],
                "errors": r.errors(),
            });
        }
        if let Some(app) = self.apps.get(key) {
            let b = &app.business;
            v["accepted"] = b.accepted.into();
            v["duplicates"] = b.duplicates.into();
            v["lost"] = app.lost().into();
            v["conflicts"] = b.conflicts.into();
            v["found"] = b.found.into();
            v["notFound"] = b.not_found.into();
            v["unavailable"] = b.unavailable.into();
            v["lostAnswers"] = b.lost_answers.into();
        }
        Some(v)
    }

    /// `sim traffic --report`: totals per Service, then its errors per ten seconds.
    pub fn report(&self, only: Option<&ObjKey>) -> String {
        let rows = self.totals(only);
        if rows.len() == 1 {
            return "No traffic has been sent.".into();
        }
        let mut out = table(&rows);
        let biz = self.business(only);
        if biz.len() > 1 {
            out.push('\n');
            out.push_str(&table(&biz));
        }
        for (key, series) in &self.series {
            if only.is_some_and(|o| o != key) {
                continue;
            }
            out.push_str(&every_ten_seconds(key, series));
        }
        out.trim_end().to_string()
    }

    /// The report's first table: each Service's requests by outcome, and retries.
    fn totals(&self, only: Option<&ObjKey>) -> Vec<Vec<String>> {
        let mut rows = vec![vec![
            "SERVICE".to_string(),
            "REQUESTS".into(),
            "OK".into(),
            "NO-ENDPOINTS".into(),
            "REFUSED".into(),
            "TIMEOUT".into(),
            "RESET".into(),
            "RETRIES".into(),
        ]];
        for (key, series) in &self.series {
            if only.is_some_and(|o| o != key) {
                continue;
            }
            let mut total = Bucket::default();
            for b in series.values() {
                for (i, n) in b.outcomes.iter().enumerate() {
                    total.outcomes[i] += n;
                }
                total.retries += b.retries;
            }
            let mut r = vec![key.name.clone(), total.total().to_string()];
            r.extend(total.outcomes.iter().map(|n| n.to_string()));
            r.push(total.retries.to_string());
            rows.push(r);
        }
        rows
    }

    /// The report's application table: each application's business counts.
    fn business(&self, only: Option<&ObjKey>) -> Vec<Vec<String>> {
        let mut biz = vec![vec![
            "APPLICATION".to_string(),
            "STORE".into(),
            "ACCEPTED".into(),
            "DUPLICATES".into(),
            "LOST".into(),
            // Which request each code answers: a POST of a message (409: an id this
            // process already holds), a GET of one (200 found, 404 not here).
            "POST 409".into(),
            "GET 200".into(),
            "GET 404".into(),
            "503".into(),
            "LOST ANSWERS".into(),
        ]];
        for (key, app) in &self.apps {
            if only.is_some_and(|o| o != key) {
                continue;
            }
            let b = &app.business;
            biz.push(vec![
                key.name.clone(),
                match &app.store {
                    crate::app::Store::Memory => "memory".to_string(),
                    crate::app::Store::Database(db) => format!("service/{}", db.name),
                },
                b.accepted.to_string(),
                b.duplicates.to_string(),
                app.lost().to_string(),
                b.conflicts.to_string(),
                b.found.to_string(),
                b.not_found.to_string(),
                b.unavailable.to_string(),
                b.lost_answers.to_string(),
            ]);
        }
        biz
    }
}

/// A Service's requests, successes and errors per ten seconds, with a bar of its
/// errors' share.
fn every_ten_seconds(key: &ObjKey, series: &BTreeMap<u64, Bucket>) -> String {
    let mut windows: BTreeMap<u64, Bucket> = BTreeMap::new();
    for (s, b) in series {
        let w = windows.entry(s / 10 * 10).or_default();
        for (i, n) in b.outcomes.iter().enumerate() {
            w.outcomes[i] += n;
        }
        w.retries += b.retries;
    }
    // A flow through an Ingress is named `ingress/NAME` already.
    let mut out = if key.name.contains('/') {
        format!("\n{} every 10s:\n", key.name)
    } else {
        format!("\nservice/{} every 10s:\n", key.name)
    };
    let mut rows = vec![vec![
        "FROM".to_string(),
        "REQUESTS".into(),
        "OK".into(),
        "ERRORS".into(),
        "".into(),
    ]];
    for (start, b) in windows {
        let bar = "#".repeat(((b.errors() * 20).div_ceil(b.total().max(1))) as usize);
        rows.push(vec![
            crate::time::clock_label(start * SECOND),
            b.total().to_string(),
            b.outcomes[0].to_string(),
            b.errors().to_string(),
            bar,
        ]);
    }
    out.push_str(&table(&rows));
    out
}

/// Rows as a kubectl-style table (three spaces between columns).
pub(super) fn table(rows: &[Vec<String>]) -> String {
    let text: String = rows.iter().map(|r| r.join("\t") + "\n").collect();
    crate::tabwriter::format(&text, 0, 3)
}
