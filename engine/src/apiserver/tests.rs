use super::*;

fn pod(name: &str) -> Object {
    Object::Pod(Box::new(Pod {
        metadata: ObjectMeta {
            name: name.into(),
            ..Default::default()
        },
        spec: PodSpec {
            containers: vec![Container {
                name: "c".into(),
                image: "nginx".into(),
                ..Default::default()
            }],
            ..Default::default()
        },
        status: Default::default(),
    }))
}

#[test]
fn create_assigns_uid_timestamp_resource_version_and_generation() {
    let mut s = Store::for_tests();
    let before = s.revision();
    let mut rng = Rng::new(1);
    let ch = s.create(1500, &mut rng, pod("a"), "kubectl").unwrap();
    let m = ch
        .new
        .map(std::sync::Arc::unwrap_or_clone)
        .unwrap()
        .meta()
        .clone();
    assert_eq!(m.namespace, "default");
    assert_eq!(m.uid.len(), 36);
    assert_eq!(m.creation_timestamp, "2025-01-01T00:00:01Z");
    assert_eq!(m.resource_version, (before + 1).to_string());
    assert_eq!(m.generation, 0, "Pods carry no generation in v1.33");
    let last = s.log.len() - 1;
    assert_eq!(s.log.get(last).map(|e| e.writer.as_str()), Some("kubectl"));
    assert_eq!(
        s.create(0, &mut rng, pod("a"), "kubectl")
            .unwrap_err()
            .kubectl_text(),
        "Error from server (AlreadyExists): pods \"a\" already exists"
    );
}

#[test]
fn generate_name_gets_five_safe_characters() {
    let mut s = Store::for_tests();
    let mut rng = Rng::new(1);
    let mut p = pod("");
    p.meta_mut().generate_name = "web-7c5ddbdf54-".into();
    let name = s.create(0, &mut rng, p, "x").unwrap().key.name;
    assert_eq!(name.len(), "web-7c5ddbdf54-".len() + 5);
    assert!(name[15..]
        .chars()
        .all(|c| "bcdfghjklmnpqrstvwxz2456789".contains(c)));
}

#[test]
fn generation_moves_only_when_the_spec_changes() {
    let mut s = Store::for_tests();
    let mut rng = Rng::new(1);
    let mut d = Deployment::default();
    d.metadata.name = "web".into();
    d.spec
        .selector
        .match_labels
        .insert("app".into(), "web".into());
    d.spec
        .template
        .metadata
        .labels
        .insert("app".into(), "web".into());
    d.spec.template.spec.containers.push(Container {
        name: "c".into(),
        image: "i".into(),
        ..Default::default()
    });
    let created = s
        .create(0, &mut rng, Object::Deployment(Box::new(d)), "kubectl")
        .unwrap()
        .new
        .map(std::sync::Arc::unwrap_or_clone)
        .unwrap();
    assert_eq!(created.meta().generation, 1);
    let mut o = created.clone();
    o.meta_mut().labels.insert("x".into(), "y".into());
    let after = s
        .update(1, o, "kubectl", false)
        .unwrap()
        .new
        .map(std::sync::Arc::unwrap_or_clone)
        .unwrap();
    assert_eq!(after.meta().generation, 1, "metadata only");
    let Object::Deployment(mut d) = after else {
        unreachable!()
    };
    d.spec.replicas = 5;
    let after = s
        .update(2, Object::Deployment(d), "kubectl", false)
        .unwrap()
        .new
        .map(std::sync::Arc::unwrap_or_clone)
        .unwrap();
    assert_eq!(after.meta().generation, 2, "spec changed");
}

#[test]
fn a_stale_resource_version_is_a_conflict_in_kubectls_words() {
    let mut s = Store::for_tests();
    let mut rng = Rng::new(1);
    let first = s
        .create(0, &mut rng, pod("a"), "kubectl")
        .unwrap()
        .new
        .map(std::sync::Arc::unwrap_or_clone)
        .unwrap();
    let mut newer = first.clone();
    newer.meta_mut().labels.insert("v".into(), "2".into());
    s.update(1, newer, "kubectl", false).unwrap();
    let err = s.update(2, first, "kubectl", false).unwrap_err();
    assert_eq!(
        err.kubectl_text(),
        "Error from server (Conflict): Operation cannot be fulfilled on pods \"a\": the object has been modified; please apply your changes to the latest version and try again"
    );
}

#[test]
fn deleting_a_missing_object_is_not_found() {
    let mut s = Store::for_tests();
    let err = s
        .delete(
            0,
            Kind::Deployment,
            &ObjKey::new("default", "web"),
            &DeleteOptions::default(),
            "kubectl",
        )
        .unwrap_err();
    assert_eq!(
        err.kubectl_text(),
        "Error from server (NotFound): deployments.apps \"web\" not found"
    );
}

#[test]
fn an_unscheduled_pod_is_deleted_at_once_and_a_bound_one_gracefully() {
    let mut s = Store::for_tests();
    let mut rng = Rng::new(1);
    s.create(0, &mut rng, pod("a"), "x").unwrap();
    s.create(0, &mut rng, pod("b"), "x").unwrap();
    s.bind(
        0,
        &ObjKey::new("default", "b"),
        "node-1",
        "default-scheduler",
    )
    .unwrap();
    let a = s
        .delete(
            1000,
            Kind::Pod,
            &ObjKey::new("default", "a"),
            &DeleteOptions::default(),
            "kubectl",
        )
        .unwrap();
    assert_eq!(a[0].type_, WatchType::Deleted);
    let b = s
        .delete(
            1000,
            Kind::Pod,
            &ObjKey::new("default", "b"),
            &DeleteOptions::default(),
            "kubectl",
        )
        .unwrap();
    let m = b[0].new.as_ref().unwrap().meta();
    assert_eq!(m.deletion_grace_period_seconds, Some(30));
    assert_eq!(
        m.deletion_timestamp.as_deref(),
        Some("2025-01-01T00:00:31Z")
    );
    // Grace 0 (the kubelet's final delete) removes it.
    let opts = DeleteOptions {
        grace_period_seconds: Some(0),
        ..Default::default()
    };
    let gone = s
        .delete(
            2000,
            Kind::Pod,
            &ObjKey::new("default", "b"),
            &opts,
            "kubelet/node-1",
        )
        .unwrap();
    assert_eq!(gone[0].type_, WatchType::Deleted);
    assert_eq!(s.count(Kind::Pod), 0);
}

#[test]
fn admission_adds_the_300_second_not_ready_and_unreachable_tolerations() {
    let mut s = Store::for_tests();
    let mut rng = Rng::new(1);
    let Object::Pod(p) = s
        .create(0, &mut rng, pod("a"), "x")
        .unwrap()
        .new
        .map(std::sync::Arc::unwrap_or_clone)
        .unwrap()
    else {
        unreachable!()
    };
    let keys: Vec<(&str, Option<i64>)> = p
        .spec
        .tolerations
        .iter()
        .map(|t| (t.key.as_str(), t.toleration_seconds))
        .collect();
    assert_eq!(
        keys,
        [
            ("node.kubernetes.io/not-ready", Some(300)),
            ("node.kubernetes.io/unreachable", Some(300))
        ]
    );
    assert_eq!(p.status.phase, "Pending");
}

#[test]
fn binding_twice_is_refused_and_the_node_index_follows_bindings() {
    let mut s = Store::for_tests();
    let mut rng = Rng::new(1);
    s.create(0, &mut rng, pod("a"), "x").unwrap();
    let k = ObjKey::new("default", "a");
    s.bind(0, &k, "node-1", "default-scheduler").unwrap();
    assert_eq!(s.node_usage("node-1").pods, 1);
    assert_eq!(s.node_usage("node-1").requested.nonzero_cpu_milli, 100);
    assert!(s.bind(0, &k, "node-2", "default-scheduler").is_err());
    assert_eq!(s.pods_on_node("node-1").count(), 1);
}

#[test]
fn the_node_index_serves_each_pods_latest_version_with_its_requests() {
    let mut s = Store::for_tests();
    let mut rng = Rng::new(1);
    let Object::Pod(mut p) = pod("a") else {
        unreachable!()
    };
    p.spec.containers[0]
        .resources
        .requests
        .insert("cpu".into(), "250m".into());
    s.create(0, &mut rng, Object::Pod(p), "x").unwrap();
    let k = ObjKey::new("default", "a");
    s.bind(0, &k, "node-1", "default-scheduler").unwrap();
    // A status write keeps the index entry (same spec) but must point it at the new
    // version.
    let mut running = s.get::<Pod>(&k).unwrap().clone();
    running.status.phase = "Running".into();
    s.update_status(1, Object::Pod(Box::new(running)), "kubelet")
        .unwrap();
    let on_node: Vec<(&Pod, PodRequests)> = s.pods_on_node_with_requests("node-1").collect();
    assert_eq!(on_node.len(), 1);
    assert_eq!(on_node[0].0.status.phase, "Running");
    assert_eq!(on_node[0].1, pod_requests(on_node[0].0));
    assert_eq!(on_node[0].1.cpu_milli, 250);
}

#[test]
fn identical_events_are_counted_on_one_object() {
    let mut s = Store::for_tests();
    let mut rng = Rng::new(1);
    let r = ObjectReference {
        kind: "Pod".into(),
        namespace: "default".into(),
        name: "a".into(),
        uid: "u".into(),
        api_version: "v1".into(),
    };
    s.record_event(
        0,
        &mut rng,
        &r,
        "Warning",
        "FailedScheduling",
        "0/3 nodes",
        "default-scheduler",
        "",
    );
    s.record_event(
        5000,
        &mut rng,
        &r,
        "Warning",
        "FailedScheduling",
        "0/3 nodes",
        "default-scheduler",
        "",
    );
    let e: Vec<&Event> = s.list::<Event>().collect();
    assert_eq!(e.len(), 1);
    assert_eq!((e[0].count, e[0].first_ms, e[0].last_ms), (2, 0, 5000));
}

fn pod_ref(name: &str) -> ObjectReference {
    ObjectReference {
        kind: "Pod".into(),
        namespace: "default".into(),
        name: name.into(),
        uid: format!("uid-{name}"),
        api_version: "v1".into(),
    }
}

#[test]
fn a_source_may_send_25_events_about_an_object_then_one_every_five_minutes() {
    let mut s = Store::for_tests();
    let mut rng = Rng::new(1);
    let r = pod_ref("a");
    let mut recorded = 0;
    for i in 0..40u64 {
        let msg = format!("attempt {}", i % 3);
        if s.record_event(
            i * 100,
            &mut rng,
            &r,
            "Warning",
            "Unhealthy",
            &msg,
            "kubelet",
            "node-1",
        )
        .is_some()
        {
            recorded += 1;
        }
    }
    assert_eq!(recorded, 25, "the burst");
    // Another object, or another source, has its own budget.
    assert!(s
        .record_event(
            4_000,
            &mut rng,
            &pod_ref("b"),
            "Warning",
            "Unhealthy",
            "x",
            "kubelet",
            "node-1"
        )
        .is_some());
    assert!(s
        .record_event(
            4_000,
            &mut rng,
            &r,
            "Warning",
            "Unhealthy",
            "x",
            "kubelet",
            "node-2"
        )
        .is_some());
    assert!(s
        .record_event(
            200_000,
            &mut rng,
            &r,
            "Warning",
            "Unhealthy",
            "x",
            "kubelet",
            "node-1"
        )
        .is_none());
    assert!(
        s.record_event(
            303_900,
            &mut rng,
            &r,
            "Warning",
            "Unhealthy",
            "x",
            "kubelet",
            "node-1"
        )
        .is_some(),
        "a token after 300 s"
    );
    assert!(s
        .record_event(
            304_000,
            &mut rng,
            &r,
            "Warning",
            "Unhealthy",
            "y",
            "kubelet",
            "node-1"
        )
        .is_none());
}

#[test]
fn the_tenth_similar_event_with_another_message_within_ten_minutes_is_combined() {
    let mut s = Store::for_tests();
    let mut rng = Rng::new(1);
    let r = ObjectReference {
        kind: "ReplicaSet".into(),
        ..pod_ref("web-1")
    };
    for i in 0..12u64 {
        let msg = format!("Error creating: pods \"web-1-{i}\" is forbidden");
        s.record_event(
            i * 1_000,
            &mut rng,
            &r,
            "Warning",
            "FailedCreate",
            &msg,
            "replicaset-controller",
            "",
        );
    }
    let events: Vec<&Event> = s.list::<Event>().collect();
    assert_eq!(events.len(), 10, "nine as they came, then one combined");
    let combined: Vec<&&Event> = events
        .iter()
        .filter(|e| e.message.starts_with("(combined from similar events): "))
        .collect();
    assert_eq!(combined.len(), 1);
    assert_eq!(combined[0].count, 3);
    assert_eq!(
        combined[0].message,
        "(combined from similar events): Error creating: pods \"web-1-11\" is forbidden"
    );
    // Ten quiet minutes start the group afresh.
    s.record_event(
        700_000,
        &mut rng,
        &r,
        "Warning",
        "FailedCreate",
        "Error creating: later",
        "replicaset-controller",
        "",
    );
    assert!(s
        .list::<Event>()
        .any(|e| e.message == "Error creating: later"));
}

#[test]
fn a_deployment_whose_selector_does_not_match_its_labels_is_invalid() {
    let mut s = Store::for_tests();
    let mut rng = Rng::new(1);
    let mut d = Deployment::default();
    d.metadata.name = "web".into();
    d.spec
        .selector
        .match_labels
        .insert("app".into(), "web".into());
    d.spec
        .template
        .metadata
        .labels
        .insert("app".into(), "api".into());
    d.spec.template.spec.containers.push(Container {
        name: "c".into(),
        image: "i".into(),
        ..Default::default()
    });
    let err = s
        .create(0, &mut rng, Object::Deployment(Box::new(d)), "kubectl")
        .unwrap_err();
    assert_eq!(
        err.kubectl_text(),
        "The Deployment \"web\" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"api\"}: `selector` does not match template `labels`"
    );
    assert_eq!(s.count(Kind::Deployment), 0);
}

fn web_deployment() -> Deployment {
    let mut d = Deployment::default();
    d.metadata.name = "web".into();
    d.spec
        .selector
        .match_labels
        .insert("app".into(), "web".into());
    d.spec
        .template
        .metadata
        .labels
        .insert("app".into(), "web".into());
    d.spec.template.spec.containers.push(Container {
        name: "c".into(),
        image: "i".into(),
        ..Default::default()
    });
    d
}

#[test]
fn both_zero_unavailable_over_100_percent_and_rolling_update_with_recreate_are_invalid_but_a_large_surge_is_not(
) {
    let mut s = Store::for_tests();
    let mut rng = Rng::new(1);
    let mut d = web_deployment();
    d.spec.strategy.rolling_update = Some(RollingUpdateDeployment {
        max_surge: IntOrString::Int(0),
        max_unavailable: IntOrString::Int(0),
    });
    let e = s
        .create(
            0,
            &mut rng,
            Object::Deployment(Box::new(d.clone())),
            "kubectl",
        )
        .unwrap_err();
    assert_eq!(
        e.kubectl_text(),
        "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}: may not be 0 when `maxSurge` is 0"
    );
    // maxSurge has no 100% cap (ValidateRollingUpdateDeployment checks maxUnavailable
    // only): 150% is valid.
    d.spec.strategy.rolling_update = Some(RollingUpdateDeployment {
        max_surge: IntOrString::String("150%".into()),
        max_unavailable: IntOrString::Int(1),
    });
    let mut ok = d.clone();
    ok.metadata.name = "surge".into();
    assert!(s
        .create(0, &mut rng, Object::Deployment(Box::new(ok)), "kubectl")
        .is_ok());
    d.spec.strategy.rolling_update = Some(RollingUpdateDeployment {
        max_surge: IntOrString::String("0%".into()),
        max_unavailable: IntOrString::String("150%".into()),
    });
    let e = s
        .create(
            0,
            &mut rng,
            Object::Deployment(Box::new(d.clone())),
            "kubectl",
        )
        .unwrap_err();
    assert_eq!(
        e.kubectl_text(),
        "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"150%\"}: must not be greater than 100%"
    );
    d.spec.strategy.type_ = "Recreate".into();
    let e = s
        .create(0, &mut rng, Object::Deployment(Box::new(d)), "kubectl")
        .unwrap_err();
    assert_eq!(
        e.kubectl_text(),
        "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"
    );
}

#[test]
fn a_quantity_that_does_not_parse_is_a_bad_request() {
    let mut s = Store::for_tests();
    let mut rng = Rng::new(1);
    let mut d = web_deployment();
    d.spec.template.spec.containers[0]
        .resources
        .requests
        .insert("cpu".into(), "lots".into());
    let e = s
        .create(0, &mut rng, Object::Deployment(Box::new(d)), "kubectl")
        .unwrap_err();
    assert_eq!(e.code, 400);
    assert!(e.kubectl_text().starts_with("Error from server (BadRequest): Deployment in version \"v1\" cannot be handled as a Deployment: quantities must match"));
}

#[test]
fn the_selector_of_a_deployment_is_immutable() {
    let mut s = Store::for_tests();
    let mut rng = Rng::new(1);
    let created = s
        .create(
            0,
            &mut rng,
            Object::Deployment(Box::new(web_deployment())),
            "kubectl",
        )
        .unwrap()
        .new
        .map(std::sync::Arc::unwrap_or_clone)
        .unwrap();
    let Object::Deployment(mut d) = created else {
        unreachable!()
    };
    d.spec
        .selector
        .match_labels
        .insert("tier".into(), "a".into());
    d.spec
        .template
        .metadata
        .labels
        .insert("tier".into(), "a".into());
    let e = s
        .update(1, Object::Deployment(d), "kubectl", false)
        .unwrap_err();
    assert_eq!(
        e.kubectl_text(),
        "The Deployment \"web\" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"web\", \"tier\":\"a\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable"
    );
}

#[test]
fn negative_replicas_a_non_always_restart_policy_and_bad_names_are_invalid() {
    let mut s = Store::for_tests();
    let mut rng = Rng::new(1);
    let mut d = web_deployment();
    d.spec.replicas = -1;
    assert_eq!(
        s.create(0, &mut rng, Object::Deployment(Box::new(d)), "kubectl").unwrap_err().kubectl_text(),
        "The Deployment \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0"
    );
    let mut d = web_deployment();
    d.spec.template.spec.restart_policy = "Never".into();
    assert_eq!(
        s.create(0, &mut rng, Object::Deployment(Box::new(d)), "kubectl").unwrap_err().kubectl_text(),
        "The Deployment \"web\" is invalid: spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\""
    );
    let mut d = web_deployment();
    d.metadata.name = "Web_App".into();
    let e = s
        .create(0, &mut rng, Object::Deployment(Box::new(d)), "kubectl")
        .unwrap_err()
        .kubectl_text();
    assert!(e.starts_with("The Deployment \"Web_App\" is invalid: metadata.name: Invalid value: \"Web_App\": a lowercase RFC 1123 subdomain must consist of"), "{e}");
    assert_eq!(s.count(Kind::Deployment), 0);
}

#[test]
fn the_node_list_by_position_follows_creates_updates_and_deletes_in_name_order() {
    let mut s = Store::for_tests();
    let mut rng = Rng::new(1);
    let node = |name: &str| {
        let mut n = Node::default();
        n.metadata.name = name.into();
        Object::Node(Box::new(n))
    };
    for name in ["node-b", "node-a", "node-c"] {
        s.create(0, &mut rng, node(name), "kubelet").unwrap();
    }
    let names = |s: &Store| -> Vec<String> {
        (0..s.node_count())
            .map(|i| s.node_at(i).unwrap().metadata.name.clone())
            .collect()
    };
    assert_eq!(names(&s), ["node-a", "node-b", "node-c"]);
    let mut b = s.get::<Node>(&ObjKey::new("", "node-b")).unwrap().clone();
    b.spec.unschedulable = true;
    s.update(1, Object::Node(Box::new(b)), "kubectl", false)
        .unwrap();
    assert!(
        s.node_at(1).unwrap().spec.unschedulable,
        "the updated object"
    );
    s.delete(
        2,
        Kind::Node,
        &ObjKey::new("", "node-b"),
        &DeleteOptions::default(),
        "kubectl",
    )
    .unwrap();
    assert_eq!(names(&s), ["node-a", "node-c"]);
    assert!(s.node_at(2).is_none());
    let listed: Vec<String> = s.list::<Node>().map(|n| n.metadata.name.clone()).collect();
    assert_eq!(listed, names(&s));
}

#[test]
fn lookups_by_hash_find_what_the_b_tree_holds_through_creates_updates_and_deletes_even_when_keys_share_a_hash(
) {
    // In unit tests the lookup hash keeps four bits: 60 names share 16 hashes.
    let mut s = Store::for_tests();
    let mut rng = Rng::new(7);
    let names: Vec<String> = (0..60).map(|i| format!("p-{i}")).collect();
    let check = |s: &Store| {
        for n in &names {
            let key = ObjKey::new("default", n);
            let want = s.objects.of(Kind::Pod).get(&key).map(|o| &**o);
            assert_eq!(s.get_object(Kind::Pod, &key), want, "{n}");
        }
        assert!(s
            .get_object(Kind::Pod, &ObjKey::new("other", "p-1"))
            .is_none());
    };
    for (i, n) in names.iter().enumerate() {
        s.create(0, &mut rng, pod(n), "x").unwrap();
        if i % 3 == 0 {
            check(&s);
        }
    }
    for n in names.iter().step_by(2) {
        let mut p = s.get::<Pod>(&ObjKey::new("default", n)).unwrap().clone();
        p.metadata.labels.insert("v".into(), "2".into());
        s.update(0, Object::Pod(Box::new(p)), "x", false).unwrap();
    }
    check(&s);
    for n in names.iter().step_by(3) {
        let key = ObjKey::new("default", n);
        s.delete(0, Kind::Pod, &key, &DeleteOptions::default(), "x")
            .unwrap();
        check(&s);
    }
    for n in names.iter().step_by(3) {
        s.create(0, &mut rng, pod(n), "x").unwrap();
    }
    check(&s);
    assert!(
        s.by_hash.of(Kind::Pod).values().any(Option::is_none),
        "some keys shared a hash"
    );
}

#[test]
fn the_node_lists_usage_by_position_follows_binds_terminations_deletes_and_node_changes() {
    let mut s = Store::for_tests();
    let mut rng = Rng::new(3);
    let node = |name: &str| {
        Object::Node(Box::new(Node {
            metadata: ObjectMeta {
                name: name.into(),
                ..Default::default()
            },
            ..Default::default()
        }))
    };
    let check = |s: &Store| {
        for i in 0..s.node_count() {
            let (name, _) = s.node_entry(i).unwrap();
            assert_eq!(s.node_usage_at(i), s.node_usage(name), "{name}");
        }
    };
    // A Pod bound to a name no Node has yet: its sums wait for the Node.
    s.create(0, &mut rng, pod("early"), "x").unwrap();
    s.bind(0, &ObjKey::new("default", "early"), "n-2", "x")
        .unwrap();
    for n in ["n-3", "n-1", "n-2"] {
        s.create(0, &mut rng, node(n), "x").unwrap();
        check(&s);
    }
    assert_eq!(s.node_usage_at(s.node_position("n-2").unwrap()).pods, 1);
    for i in 0..6 {
        let name = format!("p-{i}");
        s.create(0, &mut rng, pod(&name), "x").unwrap();
        let at = ["n-1", "n-2", "n-3"][i % 3];
        s.bind(0, &ObjKey::new("default", &name), at, "x").unwrap();
        check(&s);
    }
    let mut p = s
        .get::<Pod>(&ObjKey::new("default", "p-0"))
        .unwrap()
        .clone();
    p.status.phase = "Succeeded".into();
    s.update_status(0, Object::Pod(Box::new(p)), "x").unwrap();
    check(&s);
    s.delete(
        0,
        Kind::Node,
        &ObjKey::new("", "n-1"),
        &DeleteOptions::default(),
        "x",
    )
    .unwrap();
    check(&s);
    s.create(0, &mut rng, node("n-1"), "x").unwrap();
    check(&s);
    assert_eq!(
        s.node_usage_at(s.node_position("n-1").unwrap()).pods,
        1,
        "p-3 still runs there"
    );
}

#[test]
fn the_node_lists_topology_labels_follow_label_changes() {
    let mut s = Store::for_tests();
    let mut rng = Rng::new(3);
    let node = |name: &str, zone: Option<&str>| {
        let mut n = Node::default();
        n.metadata.name = name.into();
        n.metadata
            .labels
            .insert(LABEL_HOSTNAME.into(), format!("host-{name}"));
        if let Some(z) = zone {
            n.metadata
                .labels
                .insert(LABEL_TOPOLOGY_ZONE.into(), z.into());
        }
        n
    };
    s.create(
        0,
        &mut rng,
        Object::Node(Box::new(node("b", Some("zone-b")))),
        "x",
    )
    .unwrap();
    s.create(0, &mut rng, Object::Node(Box::new(node("a", None))), "x")
        .unwrap();
    let label = |s: &Store, name: &str, which| {
        s.node_topology_label(s.node_position(name).unwrap(), which)
            .map(str::to_string)
    };
    assert_eq!(label(&s, "a", 0).as_deref(), Some("host-a"));
    assert_eq!(label(&s, "a", 1), None);
    assert_eq!(label(&s, "b", 1).as_deref(), Some("zone-b"));
    let mut a = s.get::<Node>(&ObjKey::new("", "a")).unwrap().clone();
    a.metadata
        .labels
        .insert(LABEL_TOPOLOGY_ZONE.into(), "zone-a".into());
    s.update(0, Object::Node(Box::new(a)), "x", false).unwrap();
    assert_eq!(label(&s, "a", 1).as_deref(), Some("zone-a"));
    assert_eq!(label(&s, "b", 0).as_deref(), Some("host-b"));
}
