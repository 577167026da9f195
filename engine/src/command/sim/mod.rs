//! `sim` verbs: what a real cluster does not let you type — time, faults, checks. One
//! file per group of verbs, as `kubectl/` is.

mod checks;
mod clock;
mod control_plane;
mod controller;
mod devices;
mod dns;
mod etcd;
mod etcdctl;
mod faults;
mod snapshot;
mod traffic;
mod webhook;

use checks::*;
use clock::*;
use control_plane::*;
pub(super) use controller::controller;
pub use controller::controller_code;
use dns::nslookup;
use etcd::etcd;
use etcdctl::etcdctl;
use faults::*;
pub(super) use snapshot::import;
use snapshot::*;
use traffic::*;
pub(super) use webhook::webhook;

use super::Outcome;
use crate::cluster::Cluster;
use crate::time::{clock_label, rfc3339};

const USAGE: &str = "usage: sim advance DURATION | settle [--max DURATION] | time | reset [--nodes N] [--cpu C] [--memory M] [--pods P] [--zones Z] [--dns=false] | import FILE... | export [--snapshot] | seed N | node add|down|up|partition|ps|remove NAME | node pressure memory|disk|inodes|pid NAME [--use Q|--off] | crash|oom pod/NAME [--container C] | hang pod/NAME | unready|ready pod/NAME | image-fail|image-ok IMAGE | image-crash IMAGE [--after DURATION] | image-warmup IMAGE DURATION | gitops on|off deployment/NAME [--every D] | load deployment|statefulset/NAME [--cpu N%|Nm] [--memory Q] [--disk Q] [--pids N] | load KIND/NAME --stop | why pod/NAME [-n NS] | trace KIND/NAME [-n NS] | trace requests | trace request/N | expect EXPR OP VALUE | log [--tail N] | traffic service/NAME --rps N [--from NODE] [--for DURATION] [--timeout DURATION] [--retries N] [--retry-after DURATION] [--cpu-per-request DURATION] | traffic service/NAME --stop | traffic --report [service/NAME] | app service/NAME [--store memory|service/DB] | devices N service/NAME | devices service/NAME --stop | devices --report [service/NAME] [device-N] | message service/NAME --id ID --to DEVICE --text TEXT [--as USER] | nslookup NAME|IP [-n NS] | apiserver down|up [NAME]|replicas N|status | etcd members N|down MEMBER|up MEMBER|isolate MEMBER|rejoin MEMBER|disconnect|reconnect|wipe|snapshot save|restore|status NAME|status | etcdctl get KEY [--prefix] [--keys-only]|endpoint status|endpoint health|compact REV|defrag | leader status|replicas N|kill COMPONENT | watch break CONTROLLER [--for DURATION] [--gone] | queues [LOOP...] | controller run --for KIND [--owns KIND,...] [-n NS] -f FILE|- | controller pause|resume|stop|status|logs | webhook run service/NAME [-n NS] -f FILE|- | webhook stop service/NAME | webhook status | webhook logs [service/NAME] [--tail N]";

pub fn run(c: &mut Cluster, words: &[String]) -> Outcome {
    let Some(verb) = words.first() else {
        return Outcome::err(format!("error: {USAGE}"));
    };
    let rest = &words[1..];
    let r = match verb.as_str() {
        // The clock itself, as a blocking command: the CLI drives it in one piece
        // (`command::run`), the page in slices it can stop (`wait::Blocking`).
        "advance" => return clock_command(advance(c, rest)),
        "settle" => return clock_command(settle(c, rest)),
        "time" => Ok(format!("{} ({})", clock_label(c.now()), rfc3339(c.now()))),
        "reset" => reset(c, rest),
        "seed" => seed(c, rest),
        "node" => node(c, rest),
        "expect" => return expect(c, rest),
        "log" => log(c, rest),
        "crash" => crash(c, rest),
        "unready" => readiness(c, rest, true),
        "hang" => hang(c, rest),
        "oom" => oom(c, rest),
        "ready" => readiness(c, rest, false),
        "image-fail" => image(c, rest, "fail"),
        "image-ok" => image(c, rest, "ok"),
        "image-crash" => image(c, rest, "crash"),
        "image-warmup" => image_warmup(c, rest),
        "gitops" => gitops(c, rest),
        "load" => load(c, rest),
        "why" => why(c, rest),
        "trace" => trace(c, rest),
        "traffic" => traffic(c, rest),
        "export" => export(c, rest),
        "app" => app(c, rest),
        "devices" => devices::devices(c, rest),
        "message" => devices::message(c, rest),
        "nslookup" => nslookup(c, rest),
        "apiserver" => apiserver(c, rest),
        "etcd" => etcd(c, rest),
        "etcdctl" => etcdctl(c, rest),
        "leader" => leader(c, rest),
        "watch" => watch(c, rest),
        "queues" => queues(c, rest),
        other => Err(format!("error: unknown sim verb \"{other}\"\n{USAGE}")),
    };
    match r {
        Ok(s) => Outcome::ok(s),
        Err(e) => Outcome::err(e),
    }
}

pub(super) type R = Result<String, String>;
