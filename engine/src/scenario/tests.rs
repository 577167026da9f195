use super::*;
use crate::api::{Pod, ReplicaSet};
use crate::apiserver::FastPaths;
use crate::command::{self, NoFiles};

#[test]
fn a_bad_scenario_file_says_where_and_what() {
    let e = parse(
        "id: x\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ncluster:\n  nodes: []\n",
        "mine.yaml",
    )
    .unwrap_err();
    assert_eq!(e, "error: mine.yaml: cluster.nodes: at least one node");
    let e = parse("id: x\ntitel: {en: a}\n", "mine.yaml").unwrap_err();
    assert!(
        e.starts_with("error: mine.yaml at line 2 column 1: unknown field `titel`"),
        "{e}"
    );
    let e = parse("id: [\n", "mine.yaml").unwrap_err();
    assert!(e.starts_with("error: mine.yaml at line"), "{e}");
    let e = parse("id: Bad_Id\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ncluster: {nodes: [{name: n1}]}\n", "m.yaml").unwrap_err();
    assert!(e.contains("must be lowercase"), "{e}");
    let e = parse("id: x\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ncluster: {nodes: [{name: n1}]}\ngoals:\n  - label: {en: a, zh: b}\n    expect: deployment/x {.spec.replicas} ~ 3\n", "m.yaml").unwrap_err();
    assert!(e.contains("unknown operator \"~\""), "{e}");
}

#[test]
fn a_lesson_names_its_views_and_a_misspelt_view_is_refused_with_the_names_accepted() {
    let head = "id: x\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ncluster: {nodes: [{name: n1}]}\n";
    let s = parse(
        &format!("{head}views: [control-plane, timeline]\n"),
        "m.yaml",
    )
    .unwrap();
    assert_eq!(s.views, vec![View::ControlPlane, View::Timeline]);
    assert_eq!(parse(head, "m.yaml").unwrap().views, vec![]);
    let e = parse(&format!("{head}views: [timelime]\n"), "m.yaml").unwrap_err();
    assert!(e.starts_with("error: m.yaml at line 5"), "{e}");
    for v in View::ALL {
        assert!(e.contains(&format!("`{}`", v.as_str())), "{e}");
        assert_eq!(View::parse(v.as_str()), Some(*v));
    }
    assert_eq!(View::parse("chian"), None);
}

#[test]
fn placeholders_name_the_first_pod_its_node_and_the_newest_replicaset() {
    let s = parse(
        "id: t\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ncluster: {nodes: [{name: n1}, {name: n2}]}\nsetup: |\n  kubectl create deployment web --image=nginx:1.27 --replicas=2\n  sim settle\n",
        "t.yaml",
    )
    .unwrap();
    let c = build(&s).unwrap();
    let mut pods: Vec<&Pod> = c
        .store
        .list::<Pod>()
        .filter(|p| p.metadata.labels.get("app").map(String::as_str) == Some("web"))
        .collect();
    pods.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
    let e = expand(
        &c,
        "kubectl delete pod {pod:app=web} # on {node-of:app=web} {rs:app=web} {.status}",
    )
    .unwrap();
    let rs = c.store.list::<ReplicaSet>().next().unwrap();
    assert_eq!(
        e,
        format!(
            "kubectl delete pod {} # on {} {} {{.status}}",
            pods[0].metadata.name, pods[0].spec.node_name, rs.metadata.name
        )
    );
    assert!(expand(&c, "{pod:app=none}").is_err());
}

#[test]
fn ordered_goals_latch_in_order_and_a_rewind_unreaches_later_ones() {
    let s = parse(
        "id: t\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\nordered: true\ncluster: {nodes: [{name: n1}]}\ngoals:\n  - {label: {en: one node, zh: x}, expect: count nodes == 1}\n  - {label: {en: a deployment, zh: x}, expect: count deployments == 1}\n",
        "t.yaml",
    )
    .unwrap();
    let mut c = build(&s).unwrap();
    let mut t = Tracker::new(&s);
    assert_eq!(t.check(&s, &mut c), vec![0]);
    c.advance(5_000);
    let _ = command::run(
        &mut c,
        "kubectl create deployment web --image=nginx:1.27",
        None,
        &NoFiles,
    );
    assert_eq!(t.check(&s, &mut c), vec![1]);
    assert_eq!(t.reached, vec![Some(0), Some(5_000)]);
    t.rewind(1_000);
    assert_eq!(t.reached, vec![Some(0), None]);
}

#[test]
fn a_steps_look_shows_the_cluster_after_its_wait_and_changes_nothing() {
    let s = parse(
        "id: t\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ncluster: {nodes: [{name: n1}]}\nsetup: |\n  kubectl create deployment web --image=nginx:1.27 --replicas=1\n  sim settle\nsteps:\n  - text: {en: a, zh: b}\n    command: kubectl delete pod {pod:app=web} --wait=false\n    wait: 20s\n    output: [deleted, \"1/1\", \"Successfully assigned\"]\n    look: |\n      kubectl get deployment web\n      sim trace pod/{newest-pod:app=web}\n",
        "t.yaml",
    )
    .unwrap();
    assert_eq!(s.steps[0].output.len(), 3);
    let (r, c) = play_with(&s, "en", FastPaths::ALL).unwrap();
    assert!(r.passed(), "{}", r.transcript);
    assert!(
        r.transcript
            .contains(" (20s after)\n$ kubectl get deployment web\n"),
        "{}",
        r.transcript
    );
    assert!(!r.transcript.contains("{newest-pod:"), "{}", r.transcript);
    // The look ran on a copy: kubectl's requests of the look are not in the cluster.
    let before = c.request_log().recent.len();
    let again = look(&c, &s.steps[0]).unwrap();
    assert!(again.contains("kubectl deleted Pod"), "{again}");
    assert_eq!(c.request_log().recent.len(), before);
    let zh = play(&s, "zh").unwrap().transcript;
    assert!(zh.contains("（20s 之后）\n"), "{zh}");
    assert!(zh.contains("\n## 目标\n"), "{zh}");
}

#[test]
fn a_command_is_shown_with_its_names_filled_in_and_never_as_a_placeholder() {
    let s = parse(
        "id: t\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ncluster: {nodes: [{name: n1}]}\nsetup: |\n  kubectl create deployment web --image=nginx:1.27 --replicas=1\n  sim settle\n",
        "t.yaml",
    )
    .unwrap();
    let c = build(&s).unwrap();
    let shown = shown_command(
        &c,
        "kubectl delete pod {pod:app=web}\nkubectl apply -f - <<EOF\nkind: Pod\nEOF\n",
    );
    assert_eq!(shown.len(), 2, "{shown:?}");
    assert!(shown[0].starts_with("kubectl delete pod web-"), "{shown:?}");
    assert_eq!(shown[1], "kubectl apply -f -");
    let none = shown_command(
        &c,
        "kubectl delete pod {pod:app=db}\nsim node ps {node-of:app=db}",
    );
    assert_eq!(
        none,
        vec![
            "kubectl delete pod <a Pod with app=db>".to_string(),
            "sim node ps <the node of a Pod with app=db>".to_string()
        ]
    );
    assert!(!has_placeholder(&none[0]));
    assert!(has_placeholder("sim trace pod/{newest-pod:app=web}"));
}

/// A space YAML folding put where Chinese has none: after or before full-width
/// punctuation, or between two Han characters.
fn stray_space(zh: &str) -> Option<String> {
    let han = |c: char| ('\u{4e00}'..='\u{9fff}').contains(&c);
    let punct =
        |c: char| ('\u{3000}'..='\u{303f}').contains(&c) || ('\u{ff01}'..='\u{ff1f}').contains(&c);
    let chars: Vec<char> = zh.chars().collect();
    chars.windows(3).find_map(|w| {
        let [a, sp, b] = [w[0], w[1], w[2]];
        (sp == ' ' && (punct(a) || punct(b) || (han(a) && han(b))))
            .then(|| w.iter().collect::<String>())
    })
}

#[test]
fn the_chinese_texts_of_every_scenario_have_no_stray_spaces_from_line_folding() {
    assert_eq!(stray_space("节点， kubelet").as_deref(), Some("， k"));
    assert_eq!(stray_space("删除一个 Pod，看：就绪数"), None);
    for (id, _) in BUILTIN {
        let s = builtin(id).unwrap().unwrap();
        let texts = [&s.title, &s.description]
            .into_iter()
            .chain(s.steps.iter().map(|st| &st.text))
            .chain(s.goals.iter().map(|g| &g.label));
        for t in texts {
            assert_eq!(stray_space(&t.zh), None, "{id}: {}", t.zh);
        }
    }
}

#[test]
fn each_built_in_title_read_alone_is_the_title_the_whole_file_parses_to() {
    let titles = super::builtin_titles();
    assert_eq!(
        titles.len(),
        super::BUILTIN.len(),
        "every file has a title block"
    );
    for (id, title) in titles {
        let whole = super::builtin(id).unwrap().unwrap();
        assert_eq!(title, whole.title, "{id}");
    }
}
