use super::*;
use crate::apiserver::{Store, WatchType};
use crate::config::Config;
use crate::rng::Rng;
use std::sync::Arc;

fn pod(name: &str, ns: &str, owner: Option<(&str, &str, bool)>) -> Object {
    let mut p = Pod::default();
    p.metadata.name = name.into();
    p.metadata.namespace = ns.into();
    if let Some((kind, owner, controller)) = owner {
        p.metadata.owner_references.push(OwnerReference {
            api_version: "apps/v1".into(),
            kind: kind.into(),
            name: owner.into(),
            uid: "u".into(),
            controller: Some(controller),
            ..Default::default()
        });
    }
    Object::Pod(Box::new(p))
}

fn change(kind: Kind, o: Object) -> Change {
    Change {
        type_: WatchType::Added,
        kind,
        key: ObjKey::of(o.meta()),
        old: None,
        new: Some(Arc::new(o)),
    }
}

fn controller() -> ScriptController {
    let mut c = ScriptController::default();
    c.install(Some(ScriptSpec {
        source: String::new(),
        for_kind: Kind::ReplicaSet,
        owns: vec![Kind::Pod],
        namespace: "default".into(),
    }));
    c
}

fn enqueued(c: &mut ScriptController, ch: &Change) -> Vec<ObjKey> {
    let store = Store::for_tests();
    let mut rng = Rng::new(1);
    let config = Config::default();
    let mut ctx = Ctx::new(&store, 0, &mut rng, &config);
    c.on_change(ch, &mut ctx);
    ctx.take().0
}

#[test]
fn an_owned_object_wakes_its_controller_owner_only_and_an_orphan_wakes_them_all() {
    let mut c = controller();
    let mine = change(
        Kind::Pod,
        pod("a", "default", Some(("ReplicaSet", "web", true))),
    );
    assert_eq!(enqueued(&mut c, &mine), vec![ObjKey::new("default", "web")]);
    // Not the controller reference, another kind, another namespace: nothing.
    for ch in [
        change(
            Kind::Pod,
            pod("b", "default", Some(("ReplicaSet", "web", false))),
        ),
        change(
            Kind::Pod,
            pod("c", "default", Some(("Deployment", "web", true))),
        ),
        change(
            Kind::Pod,
            pod("d", "other", Some(("ReplicaSet", "web", true))),
        ),
        change(Kind::Pod, pod("e", "default", None)),
    ] {
        assert_eq!(enqueued(&mut c, &ch), Vec::<ObjKey>::new(), "{:?}", ch.key);
    }
}

#[test]
fn its_own_kind_is_queued_by_key_and_nothing_is_queued_without_code() {
    let mut c = controller();
    let mut rs = ReplicaSet::default();
    rs.metadata.name = "web".into();
    rs.metadata.namespace = "default".into();
    let ch = change(Kind::ReplicaSet, Object::ReplicaSet(Box::new(rs)));
    assert_eq!(enqueued(&mut c, &ch), vec![ObjKey::new("default", "web")]);
    c.install(None);
    assert_eq!(enqueued(&mut c, &ch), Vec::<ObjKey>::new());
}

#[test]
fn failures_back_off_as_client_go_does() {
    let mut c = controller();
    let k = ObjKey::new("default", "web");
    let delays: Vec<SimTime> = (0..5).map(|_| c.fail(&k, 0, "x".into())).collect();
    assert_eq!(delays, vec![5, 10, 20, 40, 80]);
    for _ in 0..40 {
        c.fail(&k, 0, "x".into());
    }
    assert_eq!(c.fail(&k, 0, "x".into()), 1_000 * SECOND);
    assert!(c.failing());
}
