//! The UI state on its own: commands, the clock, share links and rewind.

use super::*;
use crate::view::default_cluster;

#[test]
fn a_blocking_command_waits_for_the_clock_and_later_lines_wait_for_it() {
    let mut s = SimState::new(default_cluster());
    s.run_text("kubectl scale deployment web --replicas=5\nkubectl rollout status deployment/web\nkubectl get deploy web");
    assert!(s.pending.is_some(), "rollout status is waiting");
    assert_eq!(s.console.len(), 2, "the get waits its turn");
    for _ in 0..100 {
        s.cluster.advance(100);
        s.poll_pending();
    }
    assert!(s.pending.is_none());
    assert_eq!(s.console.len(), 3);
    assert!(
        s.console[1]
            .output
            .ends_with("deployment \"web\" successfully rolled out\n"),
        "{}",
        s.console[1].output
    );
    assert!(
        s.console[2].output.contains("5/5"),
        "{}",
        s.console[2].output
    );
}

/// `kubectl delete pod` the first Pod, not waiting.
fn delete_first_pod(s: &mut SimState) {
    let victim = s
        .cluster
        .store
        .list::<kubeplay_engine::api::Pod>()
        .next()
        .map(|p| p.metadata.name.clone())
        .unwrap_or_default();
    s.run_text(&format!("kubectl delete pod {victim} --wait=false"));
}

/// Play like the page does: ticks of `ms`, a poll after each, snapshots.
fn play(s: &mut SimState, ticks: usize, ms: u64) {
    for _ in 0..ticks {
        s.advance(ms);
        s.tick_poll();
        s.observe();
    }
}

#[test]
fn ticks_that_run_out_of_time_inside_an_instant_still_share_a_byte_identical_world() {
    let mut s = SimState::new(default_cluster());
    // A tick that may stop after any timer: out of time at every 7th question.
    let mut asked = 0u32;
    let mut stops = 0;
    let mut mid = 0;
    let mut tick = |s: &mut SimState, ms: u64| {
        let done = s.advance_within(ms, &mut || {
            asked += 1;
            asked % 7 == 0
        });
        stops += usize::from(!done);
        mid += usize::from(s.cluster.is_mid_instant());
        s.tick_poll();
        s.observe();
    };
    s.run_text("kubectl scale deployment web --replicas=12");
    for _ in 0..20 {
        tick(&mut s, 300);
    }
    // Each command comes while a tick has stopped inside an instant.
    let mut acted_mid = 0;
    for cmd in [
        "delete",
        "kubectl drain node-1 --ignore-daemonsets",
        "kubectl uncordon node-1",
    ] {
        for _ in 0..50 {
            if s.cluster.is_mid_instant() {
                break;
            }
            tick(&mut s, 1000);
        }
        acted_mid += usize::from(s.cluster.is_mid_instant());
        match cmd {
            "delete" => delete_first_pod(&mut s),
            c => s.run_text(c),
        }
        for _ in 0..60 {
            tick(&mut s, 1000);
        }
    }
    assert_eq!(acted_mid, 3);
    for _ in 0..50 {
        tick(&mut s, 1000);
    }
    assert!(
        stops > 10 && mid > 0,
        "{stops} stops, {mid} inside an instant"
    );
    let back = SimState::from_session(&Session::decode(&s.session().encode()).unwrap()).unwrap();
    assert_eq!(back.cluster.now(), s.cluster.now());
    // The last tick may have stopped inside an instant; a replay ends between
    // instants, where the page acts next (`SimState::act` finishes the instant first).
    s.cluster.finish_instant();
    assert_eq!(back.cluster.transcript(), s.cluster.transcript());
    assert_eq!(back.console, s.console);
}

#[test]
fn a_share_link_round_trips_to_a_byte_identical_world() {
    let mut s = SimState::new(default_cluster());
    play(&mut s, 7, 100);
    delete_first_pod(&mut s);
    play(&mut s, 13, 3000);
    s.run_text("kubectl scale deployment web --replicas=5");
    play(&mut s, 3, 500);
    // A blocking drain acts on polls as the clock plays.
    s.run_text("kubectl drain node-2 --ignore-daemonsets");
    play(&mut s, 40, 1500);
    s.step_once();
    s.run_text("kubectl uncordon node-2\nkubectl get pods");
    play(&mut s, 9, 50);
    let link = s.session().encode();
    let back = SimState::from_session(&Session::decode(&link).unwrap()).unwrap();
    assert_eq!(back.cluster.now(), s.cluster.now());
    assert_eq!(back.cluster.transcript(), s.cluster.transcript());
    assert_eq!(back.console, s.console);
    assert!(
        s.journal.iter().any(|(_, a)| *a == Act::Poll),
        "the drain was polled"
    );
}

#[test]
fn rewinding_and_going_forward_again_gives_byte_identical_worlds() {
    let mut s = SimState::new(default_cluster());
    play(&mut s, 20, 700);
    delete_first_pod(&mut s);
    play(&mut s, 5, 700);
    let (t_mid, mid) = (s.cluster.now(), s.cluster.transcript());
    // (An act at t_mid itself would belong to t_mid: seeking to a time includes
    // what was done at it.)
    play(&mut s, 1, 700);
    s.run_text("kubectl drain node-1 --ignore-daemonsets");
    play(&mut s, 40, 700);
    let (t_end, end) = (s.cluster.now(), s.cluster.transcript());
    let console = s.console.clone();
    s.seek(t_mid);
    assert_eq!(s.cluster.now(), t_mid);
    assert_eq!(s.cluster.transcript(), mid);
    assert_eq!(s.console, console, "the transcript is not rewound");
    s.seek(t_end);
    assert_eq!(s.cluster.transcript(), end);
    // Back again, then Play: the recorded acts (the drain and its polls) replay.
    s.seek(t_mid);
    play(&mut s, 41, 700);
    assert_eq!(s.cluster.now(), t_end);
    assert_eq!(s.cluster.transcript(), end);
    assert_eq!(s.timeline.forked_at, None);
}

#[test]
fn a_command_after_a_rewind_forks_the_history_but_a_get_does_not() {
    let mut s = SimState::new(default_cluster());
    s.run_text("kubectl scale deployment web --replicas=4");
    play(&mut s, 30, 1000);
    let t = s.cluster.now() - 15_000;
    s.seek(t);
    s.run_text("kubectl get pods");
    assert_eq!(s.timeline.forked_at, None);
    assert_eq!(s.journal.len(), 1);
    s.run_text("kubectl scale deployment web --replicas=2");
    assert_eq!(s.timeline.forked_at, Some(t));
    assert_eq!(s.journal.len(), 2);
    play(&mut s, 20, 1000);
    let spec = |s: &SimState| {
        s.cluster
            .store
            .get::<kubeplay_engine::api::Deployment>(&kubeplay_engine::apiserver::ObjKey::new(
                "default", "web",
            ))
            .unwrap()
            .status
            .ready_replicas
    };
    assert_eq!(spec(&s), 2);
}

#[test]
fn a_share_link_after_a_rewind_carries_only_what_happened_before_now() {
    let mut s = SimState::new(default_cluster());
    s.run_text("kubectl scale deployment web --replicas=4");
    play(&mut s, 30, 1000);
    let t = s.cluster.now() - 20_000;
    s.run_text("kubectl scale deployment web --replicas=1");
    play(&mut s, 10, 1000);
    s.seek(t);
    let at_t = s.cluster.transcript();
    let back = SimState::from_session(&s.session()).unwrap();
    assert_eq!(back.cluster.now(), t);
    assert_eq!(back.cluster.transcript(), at_t);
}

#[test]
fn a_scenario_session_replays_with_its_goals_reached_at_the_same_moments() {
    let mut s = SimState::with_scenario(ScenarioSource::Id("gateway-delete-pod".into())).unwrap();
    let pod = kubeplay_engine::scenario::expand(&s.cluster, "{pod:app=gateway}").unwrap();
    play(&mut s, 3, 300);
    s.run_text(&format!("kubectl delete pod {pod} --wait=false"));
    play(&mut s, 10, 3000);
    let reached = s.scenario.as_ref().unwrap().tracker.reached.clone();
    assert!(reached.iter().all(Option::is_some), "{reached:?}");
    let back = SimState::from_session(&Session::decode(&s.session().encode()).unwrap()).unwrap();
    assert_eq!(back.scenario.as_ref().unwrap().tracker.reached, reached);
    assert_eq!(back.cluster.transcript(), s.cluster.transcript());
}

#[test]
fn a_link_with_three_thousand_commands_still_round_trips() {
    let mut s = SimState::new(default_cluster());
    for i in 0..3_000u64 {
        s.run_text(&format!(
            "kubectl scale deployment web --replicas={}",
            1 + i % 4
        ));
        s.advance(200 + (i % 7) * 10);
        s.tick_poll();
    }
    let link = s.session().encode();
    // A figure, not a limit: Chromium takes URLs up to 2 MB, and the hash never
    // reaches a server.
    eprintln!("share link with 3000 commands: {} characters", link.len());
    let back = SimState::from_session(&Session::decode(&link).unwrap()).unwrap();
    assert_eq!(back.cluster.transcript(), s.cluster.transcript());
}

#[test]
fn a_damaged_or_foreign_share_link_is_refused_with_a_reason() {
    let refusal = |link: &str| Session::decode(link).unwrap_err().text();
    assert!(refusal("!!!").contains("damaged"));
    let not_json = kubeplay_engine::lz::compress_to_uri("hello");
    assert!(refusal(&not_json).contains("damaged"));
    let forever = kubeplay_engine::lz::compress_to_uri(r#"{"v":1,"now":99999999999999}"#);
    assert!(refusal(&forever).contains("is not a whole number of milliseconds"));
    let late = kubeplay_engine::lz::compress_to_uri(r#"{"v":1,"now":10,"journal":[[11,"s"]]}"#);
    assert!(refusal(&late).contains("times do not add up"));
    let unordered =
        kubeplay_engine::lz::compress_to_uri(r#"{"v":1,"now":10,"journal":[[9,"s"],[3,"s"]]}"#);
    assert!(Session::decode(&unordered).is_err());
    let v2 = kubeplay_engine::lz::compress_to_uri(r#"{"v":2,"now":0}"#);
    assert!(refusal(&v2).contains("version 2"));
    let bad_scn = Session {
        v: 1,
        scenario: Some(ScenarioSource::Id("nope".into())),
        journal: vec![],
        now: 0,
        fork: None,
    };
    assert!(SimState::from_session(&bad_scn).is_err());
}

fn req(query: &[(&str, &str)], hash: &str) -> UrlRequest {
    UrlRequest {
        query: query
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        hash: hash.into(),
    }
}

#[test]
fn the_url_opens_a_scenario_in_embed_mode_with_its_options() {
    let (s, err) = req(
        &[
            ("scenario", "drain-with-pdb"),
            ("embed", "1"),
            ("panels", "chain, goals"),
            ("speed", "0.5"),
            ("autoplay", "0"),
            ("readonly", "1"),
            ("lang", "zh"),
            ("allowOrigins", "https://course.example/,https://b.example"),
        ],
        "",
    )
    .initial_state();
    assert_eq!(err, None);
    assert_eq!(s.scenario.as_ref().unwrap().scenario.id, "drain-with-pdb");
    assert!(s.options.embed && s.options.readonly && !s.playing);
    assert!(s.options.shows(Panel::Goals) && !s.options.shows(Panel::Console));
    assert_eq!(s.speed_x10, 5);
    assert_eq!(s.lang, crate::i18n::Lang::Zh);
    assert_eq!(
        s.options.allow_origins,
        ["https://course.example", "https://b.example"]
    );
    assert!(!s.options.any_origin);
}

#[test]
fn a_bad_url_opens_the_playground_and_says_what_was_wrong() {
    let (s, err) = req(&[("scenario", "no-such")], "").initial_state();
    assert!(s.scenario.is_none());
    assert_eq!(
        err.map(|e| e.text()).as_deref(),
        Some("error: no built-in scenario \"no-such\"")
    );
    let (_, err) = req(&[], "s=garbage!").initial_state();
    assert!(err.unwrap().text().contains("damaged"));
    let yaml = kubeplay_engine::lz::compress_to_uri("id: x\n");
    let (s, err) = req(&[], &format!("scenario={yaml}")).initial_state();
    assert!(s.scenario.is_none());
    assert!(
        err.unwrap().text().starts_with("error: scenario.yaml"),
        "a bad own scenario says where"
    );
    assert_eq!(parse_speed("60x"), Some(600));
    assert_eq!(parse_speed("1000"), Some(600));
    assert_eq!(parse_speed("-1"), None);
    assert_eq!(parse_speed("NaN"), None);
}

#[test]
fn speeds_run_from_half_to_sixty_times_and_read_as_the_toolbar_shows_them() {
    assert_eq!(SPEEDS_X10.first(), Some(&5));
    assert_eq!(SPEEDS_X10.last(), Some(&600));
    let labels: Vec<String> = SPEEDS_X10.iter().map(|s| speed_label(*s)).collect();
    assert_eq!(labels, ["0.5×", "1×", "5×", "30×", "60×"]);
}

#[test]
fn interrupting_drops_the_queue_and_marks_the_command_failed() {
    let mut s = SimState::new(default_cluster());
    s.run_text("kubectl wait --for=delete node/node-1 --timeout=1m\nkubectl get nodes");
    s.interrupt();
    assert!(s.pending.is_none());
    assert_eq!(s.console.len(), 1);
    assert!(!s.console[0].ok);
    assert_eq!(s.console[0].output, "^C\n");
}

/// A link's `#s=` value for `json`.
fn link(json: &str) -> String {
    kubeplay_engine::lz::compress_to_uri(json)
}

#[test]
fn goals_are_checked_at_the_same_moments_as_every_slice_but_only_after_changes() {
    // The reference: the engine's own cadence (a check at the end of every slice).
    let source = ScenarioSource::Id("gateway-delete-pod".into());
    let scenario = source.parse().unwrap();
    let mut reference = kubeplay_engine::scenario::build(&scenario).unwrap();
    let mut tracker = kubeplay_engine::scenario::Tracker::new(&scenario);
    tracker.check(&scenario, &mut reference);
    let mut s = SimState::with_scenario(source).unwrap();
    let pod = kubeplay_engine::scenario::expand(&s.cluster, "{pod:app=gateway}").unwrap();
    let delete = format!("kubectl delete pod {pod} --wait=false");
    // Play 1.25 s, delete, then 40 s in uneven ticks.
    let ticks: Vec<u64> = std::iter::once(1_250)
        .chain((0..40).map(|i| 700 + (i % 5) * 130))
        .collect();
    for (i, ms) in ticks.iter().enumerate() {
        if i == 1 {
            s.run_text(&delete);
            kubeplay_engine::command::run(
                &mut reference,
                &delete,
                None,
                &kubeplay_engine::command::NoFiles,
            );
            tracker.check(&scenario, &mut reference);
        }
        s.advance(*ms);
        let end = reference.now() + ms;
        while reference.now() < end {
            let next = (reference.now() / scn::CHECK_EVERY + 1) * scn::CHECK_EVERY;
            reference.run_until(next.min(end));
            if reference.now() % scn::CHECK_EVERY == 0 {
                tracker.check(&scenario, &mut reference);
            }
        }
    }
    let reached = &s.scenario.as_ref().unwrap().tracker.reached;
    assert!(reached.iter().all(Option::is_some), "{reached:?}");
    assert_eq!(*reached, tracker.reached, "reached at the same moments");
    assert_eq!(s.cluster.transcript(), reference.transcript());
    // An idle hour with a goal left: checks follow the cluster's changes (heartbeats
    // and the like), not the 36,000 slices of the hour.
    let mut idle =
        SimState::with_scenario(ScenarioSource::Id("gateway-delete-pod".into())).unwrap();
    let before = idle.goal_checks;
    idle.advance(3_600_000);
    let checks = idle.goal_checks - before;
    assert!(checks < 3_600, "{checks} goal checks in an idle hour");
}

#[test]
fn a_one_week_link_replays_in_slices_to_the_same_world_as_at_once() {
    let mut s = SimState::new(default_cluster());
    s.run_text("kubectl scale deployment web --replicas=4");
    play(&mut s, 10, 1000);
    s.run_text("kubectl drain node-2 --ignore-daemonsets");
    play(&mut s, 30, 1000);
    let mut session = s.session();
    session.now = MAX_SHARED_TIME;
    let all_at_once = SimState::from_session(&session).unwrap();
    assert_eq!(all_at_once.cluster.now(), MAX_SHARED_TIME);
    let mut sliced = SimState::start_session(&session).unwrap();
    let r = sliced.replay.clone().unwrap();
    assert_eq!(r.permille(sliced.cluster.now()), 0);
    let (mut slices, mut asked) = (0, 0u32);
    while !sliced.replay_slice(&mut || {
        asked += 1;
        asked % 500 == 0
    }) {
        slices += 1;
        assert!(r.permille(sliced.cluster.now()) <= 1000);
    }
    assert!(slices > 10, "{slices} slices");
    assert!(sliced.replay.is_none());
    assert_eq!(r.permille(sliced.cluster.now()), 1000);
    assert_eq!(
        sliced.cluster.transcript(),
        all_at_once.cluster.transcript()
    );
    assert_eq!(sliced.console, all_at_once.console);
}

#[test]
fn stopping_a_replay_keeps_the_actions_replayed_so_far_and_says_so() {
    let mut s = SimState::new(default_cluster());
    for i in 0..6 {
        s.run_text(&format!(
            "kubectl scale deployment web --replicas={}",
            2 + i
        ));
        play(&mut s, 20, 1000);
    }
    let session = s.session();
    let mut r = SimState::start_session(&session).unwrap();
    // Stop inside an instant after the third act.
    let mut asked = 0;
    while r.applied < 3 {
        r.replay_slice(&mut || {
            asked += 1;
            asked % 3 == 0
        });
    }
    r.cancel_replay();
    assert!(r.replay.is_none() && !r.playing);
    assert!(!r.cluster.is_mid_instant(), "the instant was completed");
    assert_eq!(r.journal.len(), r.applied, "the rest is dropped");
    let note = r.replay_note.clone().unwrap().text();
    assert!(
        note.contains(&format!("{} of 6 recorded actions replayed", r.applied)),
        "{note}"
    );
    // What is left is a consistent session: its own link reopens the same world.
    let again = SimState::from_session(&r.session()).unwrap();
    assert_eq!(again.cluster.transcript(), r.cluster.transcript());
    // Acting during a replay stops it too.
    let mut r = SimState::start_session(&session).unwrap();
    r.replay_slice(&mut || true);
    r.run_text("kubectl get pods");
    assert!(r.replay.is_none() && r.replay_note.is_some());
}

#[test]
fn a_link_past_the_bounds_is_refused_with_the_bound_it_broke() {
    let refusal = |link: &str| Session::decode(link).unwrap_err().text();
    // A malformed time shown.
    for now in ["1.5", "-1", "\"soon\"", "604800001", "1e300"] {
        let r = refusal(&link(&format!(r#"{{"v":1,"now":{now}}}"#)));
        assert!(
            r.contains("is not a whole number of milliseconds from 0 to 604800000"),
            "{now}: {r}"
        );
    }
    assert!(
        Session::decode(&link(r#"{"v":1,"now":604800000}"#)).is_ok(),
        "a week is fine"
    );
    // Too long.
    let long = "A".repeat(MAX_LINK_CHARS + 1);
    assert!(refusal(&long).contains("too long to open"));
    let r = UrlRequest {
        query: vec![],
        hash: format!("scenario={long}"),
    }
    .initial_state();
    assert!(r.1.unwrap().text().contains("too long to open"));
    // Too many recorded actions.
    let many = format!(
        r#"{{"v":1,"now":10,"journal":[{}]}}"#,
        vec![r#"[1,"s"]"#; MAX_JOURNAL_ACTS + 1].join(",")
    );
    assert!(refusal(&link(&many)).contains("10001 recorded actions (at most 10000)"));
    // One command asking for too much simulated time in one piece (it cannot yield).
    let settle = link(r#"{"v":1,"now":1000,"journal":[[0,{"r":"sim settle --max 1000h"}]]}"#);
    let r = refusal(&settle);
    assert!(
        r.contains(
            "asks for 41d of simulated time in one piece (at most 6h): sim settle --max 1000h"
        ),
        "{r}"
    );
    let (s, err) = UrlRequest {
        query: vec![],
        hash: format!("s={settle}"),
    }
    .initial_state();
    assert!(err.unwrap().text().contains("in one piece"));
    assert!(
        s.journal.is_empty() && s.replay.is_none(),
        "nothing of it ran"
    );
    // Together, at most a week.
    let week = format!(
        r#"{{"v":1,"now":1000,"journal":[{}]}}"#,
        vec![r#"[0,{"r":"sim advance 6h"}]"#; 29].join(",")
    );
    let r = refusal(&link(&week));
    assert!(r.contains("of simulated time in all (at most 7d)"), "{r}");
    let just = week.replacen(r#"[0,{"r":"sim advance 6h"}],"#, "", 1);
    assert!(Session::decode(&link(&just)).is_ok(), "28 × 6h is a week");
    // A long command.
    let cmd = format!(
        r#"{{"v":1,"now":1,"journal":[[0,{{"r":"kubectl get pods {}"}}]]}}"#,
        "x".repeat(MAX_COMMAND_CHARS)
    );
    assert!(refusal(&link(&cmd)).contains("a command is too long"));
}

#[test]
fn commands_from_links_and_embedding_pages_are_bounded_by_what_they_ask() {
    assert_eq!(asked_span("sim advance 90s\nsim settle"), 90_000 + 600_000);
    assert_eq!(asked_span("sim settle --max 2h"), 7_200_000);
    assert_eq!(asked_span("sim settle --max=2h"), 7_200_000);
    assert_eq!(asked_span("kubectl get pods\nsim advance nonsense"), 0);
    assert_eq!(
        asked_span("kubectl apply -f - <<EOF\nsim advance 9h\nEOF"),
        0
    );
    assert!(check_command("sim advance 6h").is_ok());
    assert!(check_command("sim advance 6h\nsim advance 1m").is_err());
    assert!(check_command("sim advance 999999h").is_err());
    // A duration the engine refuses asks for nothing: it is refused when it runs.
    assert!(check_command("sim advance 99999999999h").is_ok());
    // An author's scenario whose setup asks for too much is refused before it runs.
    let yaml = "id: slow\ntitle: {en: x, zh: x}\ndescription: {en: x, zh: x}\ncluster: {nodes: [{name: n1}]}\nsetup: |\n  sim settle --max 1000h\ngoals: [{label: {en: x, zh: x}, expect: count pods == 0}]\n";
    ScenarioSource::Yaml(yaml.into()).parse().unwrap();
    {
        let e = SimState::with_scenario(ScenarioSource::Yaml(yaml.into()))
            .err()
            .unwrap();
        assert!(e.contains("setup asks for"), "{e}");
        let hash = format!("scenario={}", link(yaml));
        let (_, err) = UrlRequest {
            query: vec![],
            hash,
        }
        .initial_state();
        assert!(err.unwrap().text().contains("setup asks for"));
    }
}

#[test]
fn any_origin_needs_its_own_opt_in_and_alone_is_refused_with_a_warning() {
    let (s, err) = req(&[("allowOrigins", "*")], "").initial_state();
    assert!(!s.options.any_origin && s.options.allow_origins.is_empty());
    assert!(err.unwrap().text().contains("unsafeAnyOrigin=1"));
    let (s, err) = req(&[("allowOrigins", "https://a.example,*")], "").initial_state();
    assert!(!s.options.any_origin);
    assert_eq!(s.options.allow_origins, ["https://a.example"]);
    assert!(err.is_some());
    let (s, err) = req(&[("allowOrigins", "*"), ("unsafeAnyOrigin", "1")], "").initial_state();
    assert!(s.options.any_origin && err.is_none());
    let (s, _) = req(&[("unsafeAnyOrigin", "1")], "").initial_state();
    assert!(!s.options.any_origin, "the opt-in alone opens nothing");
}

#[test]
fn an_embedding_pages_command_past_the_bounds_is_refused_in_its_reply_and_the_console() {
    let state = std::rc::Rc::new(std::cell::RefCell::new(SimState::new(default_cluster())));
    let sim = SimHandle::new(state.clone(), 0, Callback::from(|_| ()));
    let start = state.borrow().cluster.now();
    let (out, ok) = sim.api_run("sim settle --max 1000h");
    assert!(!ok);
    assert_eq!(
        out,
        "error: a command asks for 41d of simulated time in one piece (at most 6h): sim settle --max 1000h\n"
    );
    let s = state.borrow();
    assert_eq!(s.cluster.now(), start, "nothing ran");
    assert_eq!(
        s.console.last().map(|e| e.output.as_str()),
        Some(out.as_str())
    );
    drop(s);
    let (out, ok) = sim.api_run("sim advance 90s");
    assert!(ok, "{out}");
    assert_eq!(state.borrow().cluster.now(), start + 90_000);
}

#[test]
fn every_opening_story_can_be_rewound_to_zero_and_replays_to_the_same_world() {
    let mut worlds = vec![("default".to_string(), SimState::default_world())];
    for (id, _) in kubeplay_engine::scenario::BUILTIN {
        worlds.push((
            id.to_string(),
            SimState::with_scenario(ScenarioSource::Id(id.to_string())).unwrap(),
        ));
    }
    for (id, mut s) in worlds {
        let (end, world) = (s.cluster.now(), s.cluster.transcript());
        s.seek(0);
        assert_eq!(s.cluster.now(), 0, "{id}: rewinds to 0:00.0");
        if end == 0 {
            continue;
        }
        // Just before the page opened, then the last millisecond played: the opening
        // story replayed from 0:00 reaches the world the setup built.
        s.seek(end - 1);
        assert_eq!(s.cluster.now(), end - 1, "{id}");
        s.advance(1);
        assert_eq!(
            s.cluster.transcript(),
            world,
            "{id}: replayed opening differs"
        );
    }
}

#[test]
fn a_share_link_made_after_acting_inside_the_opening_story_round_trips() {
    let mut s = SimState::default_world();
    s.seek(1_500);
    s.run_text("kubectl scale deployment web --replicas=1");
    play(&mut s, 30, 500);
    let back = SimState::from_session(&Session::decode(&s.session().encode()).unwrap()).unwrap();
    assert_eq!(back.cluster.now(), s.cluster.now());
    assert_eq!(back.cluster.transcript(), s.cluster.transcript());
}

#[test]
fn sim_reset_starts_a_new_history_instead_of_forking_the_old_one() {
    let mut s = SimState::default_world();
    play(&mut s, 20, 500);
    s.run_text("sim reset --nodes 2");
    assert_eq!(s.timeline.forked_at, None, "no fork is reported");
    play(&mut s, 10, 500);
    s.run_text("kubectl create deployment api --image=nginx:1.27 --replicas=2");
    play(&mut s, 10, 500);
    let (t, world) = (s.cluster.now(), s.cluster.transcript());
    s.seek(0);
    assert_eq!(s.cluster.now(), 0);
    s.seek(t);
    assert_eq!(s.cluster.transcript(), world);
    let back = SimState::from_session(&Session::decode(&s.session().encode()).unwrap()).unwrap();
    assert_eq!(
        back.cluster.transcript(),
        world,
        "a share link replays the reset"
    );
}

#[test]
fn after_an_action_a_lesson_plays_in_slow_motion_at_one_times_and_not_when_skipping_ahead() {
    let mut s = SimState::with_scenario(ScenarioSource::Id("gateway-delete-pod".into())).unwrap();
    assert!(s.slow_motion, "on by default in lessons");
    assert_eq!(s.effective_speed_x10(), 10, "nothing to watch yet");
    s.run_text("kubectl delete pod -l app=gateway --wait=false");
    assert_eq!(s.effective_speed_x10(), SLOW_X10);
    s.speed_x10 = 300;
    assert_eq!(s.effective_speed_x10(), 300, "30× is skipping ahead");
    s.speed_x10 = 10;
    s.advance(SLOW_SPAN);
    assert_eq!(s.effective_speed_x10(), 10, "over after the span");
    assert!(
        !SimState::default_world().slow_motion,
        "the playground plays as chosen"
    );
}

#[test]
fn a_step_says_which_writes_it_made() {
    let mut s = SimState::default_world();
    s.run_text("kubectl scale deployment web --replicas=4");
    s.step_once();
    let (at, writes) = s.last_step.clone().unwrap();
    assert_eq!(at, s.cluster.now());
    assert!(
        writes
            .iter()
            .any(|w| w.starts_with("deployment-controller · ")),
        "{writes:?}"
    );
}

#[test]
fn a_lesson_that_asks_to_open_paused_does() {
    let yaml = "id: paused-lesson\ntitle: { en: Paused, zh: 暂停 }\ndescription: { en: It waits, zh: 等待 }\npaused: true\ncluster:\n  nodes: [{ name: node-1 }]\nsetup: |\n  kubectl create deployment web --image=nginx:1.27 --replicas=1\n";
    let s = SimState::with_scenario(ScenarioSource::Yaml(yaml.into())).unwrap();
    assert!(!s.playing);
    let s = SimState::with_scenario(ScenarioSource::Id("gateway-delete-pod".into())).unwrap();
    assert!(s.playing);
}

#[test]
fn the_recorded_future_is_kept_while_rewound_and_dropped_at_the_live_edge_or_on_a_fork() {
    let mut s = SimState::default_world();
    play(&mut s, 20, 500);
    let end = s.cluster.now();
    s.seek(1_000);
    assert!(s
        .future
        .as_ref()
        .is_some_and(|f| f.len() > s.cluster.store.log.len()));
    s.seek(end);
    assert!(s.future.is_none(), "live again");
    s.seek(1_000);
    s.run_text("kubectl scale deployment web --replicas=2");
    assert!(s.future.is_none(), "a fork has no recorded future");
}

/// Tick like the page's ticker: a running `sim advance`/`sim settle` runs as far as
/// the budget allows (out of time at every `every`-th question), otherwise `ms` play.
fn tick_like_the_page(s: &mut SimState, ms: u64, every: u32, asked: &mut u32) -> bool {
    let run = s
        .clock_goal()
        .map_or(ms, |goal| goal.saturating_sub(s.cluster.now()));
    let done = s.advance_all(run, &mut || {
        *asked += 1;
        *asked % every == 0
    });
    s.tick_poll();
    s.observe();
    done
}

/// What the CLI prints and reaches for `lines`, run in one piece each.
fn cli_transcript(lines: &[&str]) -> (Vec<String>, String) {
    use kubeplay_engine::command::{run, NoFiles};
    let mut c = default_cluster();
    let outs = lines
        .iter()
        .map(|l| run(&mut c, l, None, &NoFiles).output)
        .collect();
    (outs, c.transcript())
}

#[test]
fn sim_advance_in_the_console_runs_in_slices_and_prints_what_the_cli_prints() {
    let mut s = SimState::new(default_cluster());
    s.playing = false;
    let start = s.cluster.now();
    s.run_text("kubectl scale deployment web --replicas=9\nsim advance 2m\nkubectl get deploy web");
    assert_eq!(
        s.clock_goal(),
        Some(start + 120_000),
        "advancing two minutes"
    );
    assert_eq!(s.console.len(), 2, "the get waits for the clock");
    let mut asked = 0;
    let mut ticks = 0;
    while s.clock_goal().is_some() {
        let done = tick_like_the_page(&mut s, 100, 40, &mut asked);
        assert!(
            done == s.clock_goal().is_none(),
            "a slice ends out of time or there"
        );
        ticks += 1;
        assert!(ticks < 10_000);
        if s.clock_goal().is_some() {
            assert!(s.console[1].output.is_empty(), "nothing printed on the way");
        }
    }
    assert!(
        ticks > 3,
        "{ticks} slices: a paused page runs it anyway, in slices"
    );
    assert!(s.pending.is_none());
    assert_eq!(s.console.len(), 3);
    let (cli, _) = cli_transcript(&[
        "kubectl scale deployment web --replicas=9",
        "sim advance 2m",
        "kubectl get deploy web",
    ]);
    assert_eq!(s.console[1].output, cli[1]);
    assert_eq!(s.console[1].output, "time 0:06.7 → 2:06.7\n");
    assert_eq!(s.console[2].output, cli[2]);
}

#[test]
fn sim_settle_in_the_console_settles_at_the_moment_the_cli_settles_at() {
    let mut s = SimState::new(default_cluster());
    let lines = [
        "kubectl scale deployment web --replicas=7",
        "sim settle",
        "kubectl get pods -o wide",
    ];
    s.run_text(&lines.join("\n"));
    let mut asked = 0;
    while s.pending.is_some() {
        tick_like_the_page(&mut s, 100, 3, &mut asked);
    }
    let (cli, _) = cli_transcript(&lines);
    assert!(
        s.console[1].output.starts_with("settled at 0:"),
        "{}",
        s.console[1].output
    );
    assert_eq!(s.console[1].output, cli[1]);
    assert_eq!(s.console[2].output, cli[2]);
}

#[test]
fn ctrl_c_stops_sim_advance_where_it_is_and_a_share_link_replays_the_cut() {
    let mut s = SimState::new(default_cluster());
    let start = s.cluster.now();
    s.run_text(
        "kubectl scale deployment web --replicas=12\nsim advance 1h\nkubectl get deploy web",
    );
    let mut asked = 0;
    // Stop it the moment a slice ends inside an instant: the hardest place to cut.
    let mut ticks = 0;
    while !s.cluster.is_mid_instant() || s.cluster.now() < start + 5_000 {
        tick_like_the_page(&mut s, 100, 7, &mut asked);
        ticks += 1;
        assert!(ticks < 100_000 && s.clock_goal().is_some(), "still running");
    }
    let stopped = s.cluster.now();
    s.interrupt();
    assert!(s.pending.is_none() && s.clock_goal().is_none());
    assert_eq!(s.console.len(), 2, "the queued get is dropped");
    assert!(!s.console[1].ok);
    assert_eq!(
        s.console[1].output,
        format!(
            "^C\nstopped at {} (started at {})\n",
            kubeplay_engine::time::clock_label(stopped),
            kubeplay_engine::time::clock_label(start)
        )
    );
    // The clock plays on at the chosen speed from there.
    for _ in 0..20 {
        assert!(tick_like_the_page(&mut s, 100, u32::MAX, &mut asked));
    }
    assert_eq!(s.cluster.now(), stopped + 2_000);
    let back = SimState::from_session(&Session::decode(&s.session().encode()).unwrap()).unwrap();
    assert_eq!(back.cluster.transcript(), s.cluster.transcript());
    assert_eq!(back.console, s.console);
}

#[test]
fn a_settle_cut_in_slices_and_acted_on_replays_to_a_byte_identical_world() {
    let mut s = SimState::new(default_cluster());
    s.run_text("kubectl scale deployment web --replicas=15\nsim settle --max 90s");
    let mut asked = 0;
    // A command typed while the clock runs waits its turn, like any other.
    for _ in 0..3 {
        tick_like_the_page(&mut s, 100, 5, &mut asked);
    }
    s.run_text("kubectl get deploy web");
    delete_first_pod(&mut s);
    while s.pending.is_some() {
        tick_like_the_page(&mut s, 100, 5, &mut asked);
    }
    for _ in 0..30 {
        tick_like_the_page(&mut s, 1000, 5, &mut asked);
    }
    assert!(s.console.len() >= 4, "{:?}", s.console);
    assert!(
        s.console[1].output.starts_with("settled at "),
        "{}",
        s.console[1].output
    );
    s.cluster.finish_instant();
    let back = SimState::from_session(&Session::decode(&s.session().encode()).unwrap()).unwrap();
    assert_eq!(back.cluster.transcript(), s.cluster.transcript());
    assert_eq!(back.console, s.console);
}

#[test]
fn an_embedding_pages_sim_advance_answers_with_where_the_clock_got() {
    let state = Rc::new(RefCell::new(SimState::new(default_cluster())));
    let api = SimHandle::new(Rc::clone(&state), 0, Callback::noop());
    let (out, ok) = api.api_run("sim advance 30s");
    assert!(ok);
    assert_eq!(out, "time 0:06.7 → 0:36.7\n");
    assert!(state.borrow().pending.is_none());
    let (out, ok) = api.api_run("sim settle");
    assert!(ok, "{out}");
    assert_eq!(out, "settled at 0:36.7 (after 0s)\n");
}

#[test]
fn a_sim_reset_queued_behind_a_running_advance_starts_a_history_a_share_link_replays() {
    let mut s = SimState::default_world();
    s.run_text("sim advance 1m\nsim reset --nodes 2\nkubectl create deployment api --image=nginx:1.27 --replicas=2");
    let mut asked = 0;
    while s.pending.is_some() {
        tick_like_the_page(&mut s, 100, 9, &mut asked);
    }
    for _ in 0..20 {
        tick_like_the_page(&mut s, 500, 9, &mut asked);
    }
    assert_eq!(
        s.cluster.store.list::<kubeplay_engine::api::Node>().count(),
        2,
        "the reset ran"
    );
    assert!(
        matches!(&s.journal[0], (0, Act::Run(t)) if t.starts_with("sim reset --nodes 2\nkubectl create deployment api")),
        "{:?}",
        s.journal.first()
    );
    s.cluster.finish_instant();
    let back = SimState::from_session(&Session::decode(&s.session().encode()).unwrap()).unwrap();
    assert_eq!(back.cluster.transcript(), s.cluster.transcript());
}

#[test]
fn a_clock_command_restored_by_a_rewind_waits_for_play_and_one_just_typed_does_not() {
    let mut s = SimState::default_world();
    s.playing = false;
    s.run_text("sim advance 10m");
    assert!(s.clock_live, "typed while paused: it runs");
    let mut asked = 0;
    for _ in 0..3 {
        tick_like_the_page(&mut s, 100, 50, &mut asked);
    }
    let mid = s.cluster.now();
    s.interrupt();
    assert!(!s.clock_live);
    s.seek(mid - 1);
    assert!(s.clock_goal().is_some(), "the rewound world is mid-advance");
    assert!(!s.clock_live, "and waits for Play there");
}

#[test]
fn a_completion_record_the_page_makes_is_confirmed_by_the_engines_verifier() {
    use kubeplay_engine::record::{verify, GoalCheck, Record};
    let mut s = SimState::with_scenario(ScenarioSource::Id("gateway-delete-pod".into())).unwrap();
    let pod = kubeplay_engine::scenario::expand(&s.cluster, "{pod:app=gateway}").unwrap();
    play(&mut s, 3, 300);
    s.run_text(&format!("kubectl delete pod {pod} --wait=false"));
    let mut asked = 0;
    for _ in 0..40 {
        tick_like_the_page(&mut s, 700, 11, &mut asked);
    }
    s.cluster.finish_instant();
    let record = Record::of(&s.m).unwrap();
    assert!(record.complete(), "{:?}", record.goals);
    let json = serde_json::to_string(&record).unwrap();
    let v = verify(&json);
    assert!(v.passed(), "{}", v.report());
    assert!(v
        .goals
        .iter()
        .all(|(_, g)| matches!(g, GoalCheck::Confirmed(_))));
    // The engine's replay reaches the page's world.
    let m = kubeplay_engine::session::replay_lesson(
        record.lesson.clone(),
        record.acts.clone(),
        record.now,
    )
    .unwrap();
    assert_eq!(m.cluster.transcript(), s.cluster.transcript());
}

#[test]
fn a_fork_plays_on_one_clock_takes_the_learners_acts_and_a_share_link_carries_both_branches() {
    let state = Rc::new(RefCell::new(SimState::default_world()));
    let sim = SimHandle::new(Rc::clone(&state), 0, Callback::noop());
    assert!(sim
        .fork_with("kubectl scale deployment nope --replicas=1")
        .is_err());
    assert!(
        state.borrow().fork.is_none(),
        "a failed change makes no branch"
    );
    sim.fork_with("kubectl cordon node-1\nkubectl cordon node-2")
        .unwrap();
    let mut asked = 0;
    for _ in 0..10 {
        tick_like_the_page(&mut state.borrow_mut(), 300, 7, &mut asked);
    }
    sim.run("kubectl scale deployment web --replicas=6");
    for _ in 0..60 {
        tick_like_the_page(&mut state.borrow_mut(), 300, 7, &mut asked);
    }
    let s = state.borrow();
    let f = s.fork.as_ref().unwrap();
    assert_eq!(f.m.cluster.now(), s.cluster.now(), "one clock");
    let d = f
        .first_difference
        .clone()
        .expect("the new Pods land differently");
    assert!(d.fork.starts_with("node/"), "{d:?}");
    let mut live = s.cluster.clone();
    live.finish_instant();
    let link = Session::decode(&s.session().encode()).unwrap();
    assert!(link.fork.is_some());
    let back = SimState::from_session(&link).unwrap();
    assert_eq!(back.cluster.transcript(), live.transcript());
    let bf = back.fork.as_ref().expect("the link's branch");
    let mut fl = f.m.cluster.clone();
    fl.finish_instant();
    assert_eq!(
        bf.m.cluster.transcript(),
        fl.transcript(),
        "the branch replays too"
    );
    assert_eq!(bf.first_difference, Some(d));
}

#[test]
fn a_share_link_replayed_in_slices_forks_where_the_learner_did_whatever_the_slices_and_same_moment_acts(
) {
    let state = Rc::new(RefCell::new(SimState::default_world()));
    let sim = SimHandle::new(Rc::clone(&state), 0, Callback::noop());
    let mut asked = 0;
    for _ in 0..5 {
        tick_like_the_page(&mut state.borrow_mut(), 300, 5, &mut asked);
    }
    // An act, the fork and another act, all at one moment (the page paused): the
    // first is in the world the branch copies, the second is done in both.
    sim.run("kubectl scale deployment web --replicas=4");
    sim.fork_with("kubectl cordon node-1").unwrap();
    sim.run("kubectl scale deployment web --replicas=6");
    for _ in 0..40 {
        tick_like_the_page(&mut state.borrow_mut(), 300, 7, &mut asked);
    }
    let s = state.borrow();
    let f = s.fork.as_ref().unwrap();
    let d = f.first_difference.clone().expect("a difference");
    let mut fl = f.m.cluster.clone();
    fl.finish_instant();
    let link = Session::decode(&s.session().encode()).unwrap();
    assert_eq!(link.fork.as_ref().and_then(|f| f.acts), Some(1));
    // Replays whose slices run out at every few timers, so some stop inside the
    // fork's own instant.
    for every in 1..=9 {
        let mut back = SimState::start_session(&link).unwrap();
        let mut n = 0u32;
        while !back.replay_slice(&mut || {
            n += 1;
            n % every == 0
        }) {}
        let bf = back.fork.as_ref().expect("the link's branch");
        let mut bc = bf.m.cluster.clone();
        bc.finish_instant();
        assert_eq!(bc.transcript(), fl.transcript(), "slices of {every}");
        assert_eq!(bf.first_difference, Some(d.clone()), "slices of {every}");
    }
}

#[test]
fn a_lesson_with_a_fork_opens_forked_and_a_bad_fork_change_is_refused() {
    let yaml = "id: what-if\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ncluster:\n  nodes: [{name: node-1}, {name: node-2}]\nsetup: |\n  kubectl create deployment web --image=nginx:1.27 --replicas=2\n  sim settle\nfork: kubectl scale deployment web --replicas=4\ngoals:\n  - label: {en: four, zh: 四}\n    expect: deployment/web {.spec.replicas} == 4\n";
    let s = SimState::with_scenario(ScenarioSource::Yaml(yaml.into())).unwrap();
    let f = s.fork.as_ref().expect("opens forked");
    assert_eq!(f.at, s.cluster.now());
    assert!(f
        .first_difference
        .as_ref()
        .unwrap()
        .fork
        .contains("4 wanted"));
    let bad = yaml.replace("scale deployment web", "scale deployment nope");
    assert!(SimState::with_scenario(ScenarioSource::Yaml(bad)).is_err());
}

#[test]
fn a_predictions_wait_counts_from_when_its_steps_blocking_commands_are_done() {
    let yaml = "id: t\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ncluster: {nodes: [{name: node-1}]}\nsetup: |\n  kubectl create deployment web --image=nginx:1.27 --replicas=1\n  sim settle\nsteps:\n  - text: {en: a, zh: b}\n    command: |\n      kubectl set image deployment/web nginx=nginx:1.28\n      kubectl rollout status deployment/web\n      kubectl set image deployment/web nginx=nginx:1.29\n      kubectl rollout status deployment/web\n    wait: 1s\n    predict:\n      question: {en: q, zh: q}\n      number: count replicasets -l app=web\n";
    let state = Rc::new(RefCell::new(
        SimState::with_scenario(ScenarioSource::Yaml(yaml.into())).unwrap(),
    ));
    let sim = SimHandle::new(Rc::clone(&state), 0, Callback::noop());
    sim.predict_and_run(0, "3".into());
    let mut asked = 0;
    for _ in 0..120 {
        tick_like_the_page(&mut state.borrow_mut(), 1000, 10, &mut asked);
        state.borrow_mut().observe_predictions();
    }
    let s = state.borrow();
    let (seen, at) = s.predictions[&0].outcome.clone().expect("read");
    assert_eq!(seen, "3", "read once both rollouts were done, at {at}");
}

#[test]
fn a_lesson_step_shows_the_command_that_ran_counts_its_wait_down_and_then_its_look() {
    let yaml = "id: t\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ncluster: {nodes: [{name: node-1}]}\nsetup: |\n  kubectl create deployment web --image=nginx:1.27 --replicas=1\n  sim settle\nsteps:\n  - text: {en: a, zh: b}\n    command: kubectl delete pod {pod:app=web} --wait=false\n    wait: 20s\n    look: kubectl get deployment web\n";
    let state = Rc::new(RefCell::new(
        SimState::with_scenario(ScenarioSource::Yaml(yaml.into())).unwrap(),
    ));
    let sim = SimHandle::new(Rc::clone(&state), 0, Callback::noop());
    let pod = kubeplay_engine::scenario::expand(&state.borrow().cluster, "{pod:app=web}").unwrap();
    sim.run_step(0);
    {
        let s = state.borrow();
        let r = &s.step_runs[&0];
        assert_eq!(
            r.commands,
            vec![format!("kubectl delete pod {pod} --wait=false")]
        );
        assert_eq!(r.left(s.cluster.now()), 20_000);
        assert_eq!(r.look, None, "not before the wait is over");
    }
    // The offer to speed up: a speed that plays the 20 s in a few seconds, no slow motion.
    sim.speed_up(20_000);
    assert_eq!(state.borrow().speed_x10, 50);
    assert!(!state.borrow().slow_motion);
    let mut asked = 0;
    for _ in 0..30 {
        tick_like_the_page(&mut state.borrow_mut(), 1000, 11, &mut asked);
        // As the page's ticker does after each tick.
        state.borrow_mut().observe_predictions();
    }
    let s = state.borrow();
    let r = &s.step_runs[&0];
    assert_eq!(r.left(s.cluster.now()), 0);
    let look = r.look.as_deref().unwrap();
    assert!(
        look.starts_with("$ kubectl get deployment web\nNAME"),
        "{look}"
    );
    assert!(look.contains("1/1"), "{look}");
    // What the look ran left no trace in the session: it ran on a copy.
    assert!(!s.session().encode().is_empty());
    assert_eq!(speed_to_catch_up(6 * 60_000), 600);
    assert_eq!(speed_to_catch_up(1_000), 5);
}

#[test]
fn a_share_link_with_a_controller_waits_for_the_learner_then_rebuilds_the_same_world() {
    kubeplay_engine::controllers::script::runner::install_global(kubeplay_sandbox::run_json);
    let mut s = SimState::new(default_cluster());
    play(&mut s, 3, 100);
    let crd = include_str!("../../engine/controllers/podset-crd.yaml");
    let web = include_str!("../../engine/controllers/podset-web.yaml");
    let code = include_str!("../../engine/controllers/desired-state-loop.js");
    s.run_text(&format!("kubectl apply -f - <<EOF\n{crd}EOF\nkubectl wait --for condition=Established crd/podsets.course.kubeplay.dev\nkubectl apply -f - <<EOF\n{web}EOF"));
    play(&mut s, 5, 500);
    s.run_text(&format!(
        "sim controller run --for podsets --owns pods -f - <<EOF\n{code}EOF"
    ));
    play(&mut s, 40, 500);
    assert!(s.cluster.my_controller().calls > 3);
    let link = s.session().encode();
    let mut back = SimState::start_session(&Session::decode(&link).unwrap()).unwrap();
    // The code is shown, and nothing is replayed until the learner agrees.
    let asked = back.consent.clone().expect("the learner is asked first");
    assert!(asked
        .code
        .contains("function reconcile_step(desired, observed)"));
    assert!(!back.playing);
    assert!(!back.replay_slice(&mut || false));
    assert_eq!(back.applied, 0);
    back.consent = None;
    assert!(back.replay_slice(&mut || false));
    s.cluster.finish_instant();
    assert_eq!(back.cluster.now(), s.cluster.now());
    assert_eq!(back.cluster.transcript(), s.cluster.transcript());
    assert_eq!(back.console, s.console);
}
