//! One message sent by hand (`sim message`): a single POST through the Service to one
//! Pod, answered by the contract (`crate::app::contract`) and then the store, and
//! pushed to its device as the traffic's messages are.

use super::devices::device_index;
use super::rules::RuleEndpoint;
use super::traffic::{Answer, Client, Outcome};
use super::Proxies;
use crate::apiserver::ObjKey;
use crate::app::contract;
use crate::app::{Reply, Store};
use crate::rng::Rng;
use crate::time::SimTime;

/// A message a learner sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Its id (`m-9`).
    pub id: String,
    /// The target (`device-3`).
    pub to: String,
    /// Its text.
    pub text: String,
    /// The user sending it.
    pub sender: String,
}

/// The client number `sim message` sends as (apart from the flows' and the devices').
const LEARNER_CLIENT: u64 = 999_999;

impl Proxies {
    /// Send `m` to Service `key`'s application now, entering at node `entry`: the
    /// Pod it reached and the HTTP answer, or what kept it from any Pod.
    #[allow(clippy::too_many_arguments)]
    pub fn send_message(
        &mut self,
        key: &ObjKey,
        m: &Message,
        entry: &str,
        now: SimTime,
        rng: &mut Rng,
        node_up: &impl Fn(&str) -> bool,
        answer: &impl Fn(&RuleEndpoint, Client<'_>) -> Answer,
    ) -> Result<String, String> {
        let Some(store) = self.apps.get(key).map(|a| a.store.clone()) else {
            return Err(format!(
                "error: service/{} runs no message API: start it with sim app service/{}",
                key.name, key.name
            ));
        };
        let (o, pick) = self.attempt(entry, None, key, LEARNER_CLIENT, now, rng, node_up, answer);
        let version = match store {
            Store::Memory => "v1",
            Store::Database(_) => "v2",
        };
        let line = format!("POST /{version}/messages");
        let pick = match (o, pick) {
            (Outcome::Ok, Some(p)) => p,
            (o, p) => {
                let at = p.map(|p| format!(" at {}", p.pod.name)).unwrap_or_default();
                let why = match o {
                    Outcome::NoEndpoints => "connection refused: the Service has no endpoints",
                    Outcome::Refused => "connection refused",
                    Outcome::Timeout => "no answer: the request timed out",
                    Outcome::Reset => "connection reset by peer: the Pod is stopping",
                    Outcome::Ok => "no Pod answered",
                };
                return Err(format!("error: {line}{at}: {why}"));
            }
        };
        let head = format!("{line} → {} on {}\n", pick.pod.name, pick.node);
        let raw = contract::request_body(&m.id, &m.to, &m.text);
        let devices = self.devices.get(key).map_or(0, |d| d.len());
        let target = device_index(&m.to).filter(|i| *i < devices);
        let member = m.sender == contract::SENDER && target.is_some();
        if let Err(r) = contract::check(&raw, &m.text, member) {
            self.log(&pick.uid, now, format!("{line} {}", &r.status()[..3]));
            return Ok(format!("{head}HTTP/1.1 {}\n{}", r.status(), r.body()));
        }
        let db_up = match &store {
            Store::Database(db) => self.db_up(db, &pick, rng, answer),
            Store::Memory => true,
        };
        let Some(app) = self.apps.get_mut(key) else {
            return Err("error: no application".into());
        };
        let Some(id) = app.named_id(&m.id) else {
            return Err(format!(
                "error: at most {} message ids can be named",
                crate::app::MAX_NAMED
            ));
        };
        let reply = app.post(id, &pick.uid, db_up);
        self.log(&pick.uid, now, format!("{line} {}", reply.status()));
        let body = match reply {
            Reply::Created => {
                let device = target.unwrap_or(0);
                self.address(key, id, Some(device), now, rng);
                let seq = self.apps.get(key).and_then(|a| a.seq_of(id));
                match seq {
                    Some(seq) => format!(
                        "HTTP/1.1 200 OK\n{{\"id\":{},\"seq\":{seq},\"status\":\"stored_in_teaching_db\"}}",
                        serde_json::Value::from(m.id.as_str())
                    ),
                    None => format!(
                        "HTTP/1.1 200 OK\n{{\"id\":{},\"status\":\"accepted_in_memory\"}}",
                        serde_json::Value::from(m.id.as_str())
                    ),
                }
            }
            Reply::Conflict => "HTTP/1.1 409 Conflict\n{\"error\":\"duplicate_id\"}".to_string(),
            Reply::Unavailable => {
                "HTTP/1.1 503 Service Unavailable\n{\"error\":\"store_unavailable\"}".to_string()
            }
            Reply::Found | Reply::NotFound => String::new(),
        };
        Ok(format!("{head}{body}"))
    }

    /// A request line in Pod `uid`'s log.
    fn log(&mut self, uid: &str, now: SimTime, line: String) {
        let log = self.logs.entry(uid.to_string()).or_default();
        log.push_back((now, line));
        if log.len() > super::LOG_LINES {
            log.pop_front();
        }
    }
}
