//! CustomResourceDefinitions and their objects, as the v1.33 apiextensions-apiserver
//! serves them: the definition's validation and conditions, the schema's pruning,
//! defaults and validation texts, printer columns, the status subresource, and the
//! cleanup of a deleted definition's objects.

use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

fn sh(c: &mut Cluster, cmd: &str, stdin: Option<&str>) -> String {
    let o = run(c, cmd, stdin, &NoFiles);
    assert!(o.ok, "{cmd}: {}", o.output);
    o.output
}

fn fails(c: &mut Cluster, cmd: &str, stdin: Option<&str>) -> String {
    let o = run(c, cmd, stdin, &NoFiles);
    assert!(!o.ok, "{cmd} should fail: {}", o.output);
    o.output
}

const WIDGETS: &str = "\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: widgets
    kind: Widget
    shortNames: [wd]
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.readyReplicas
    additionalPrinterColumns:
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    - name: Ready
      type: integer
      jsonPath: .status.readyReplicas
    - name: Image
      type: string
      jsonPath: .spec.image
      priority: 1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [image]
            properties:
              replicas:
                type: integer
                minimum: 0
                maximum: 10
                default: 1
              image:
                type: string
                maxLength: 20
              color:
                type: string
                enum: [red, blue]
              extra:
                type: object
                x-kubernetes-preserve-unknown-fields: true
          status:
            type: object
            properties:
              readyReplicas:
                type: integer
";

fn with_widgets() -> Cluster {
    let mut c = Cluster::with_default_nodes(1);
    sh(&mut c, "kubectl apply -f -", Some(WIDGETS));
    sh(&mut c, "sim advance 1s", None);
    c
}

fn widget(c: &Cluster, name: &str) -> CustomObject {
    let t = c
        .store
        .get::<CustomResourceDefinition>(&ObjKey::new("", "widgets.example.com"))
        .and_then(|d| d.custom_type())
        .unwrap();
    match c
        .store
        .get_object(Kind::Custom(t), &ObjKey::new("default", name))
    {
        Some(Object::Custom(o)) => (**o).clone(),
        other => panic!("no widget {name}: {other:?}"),
    }
}

#[test]
fn a_definition_is_defaulted_accepted_and_established() {
    let c = with_widgets();
    let d = c
        .store
        .get::<CustomResourceDefinition>(&ObjKey::new("", "widgets.example.com"))
        .unwrap();
    assert_eq!(d.spec.names.singular, "widget");
    assert_eq!(d.spec.names.list_kind, "WidgetList");
    assert_eq!(d.spec.conversion.as_ref().unwrap().strategy, "None");
    assert_eq!(d.status.stored_versions, ["v1"]);
    assert_eq!(d.status.accepted_names, d.spec.names);
    let conds: Vec<(&str, &str, &str, &str)> = d
        .status
        .conditions
        .iter()
        .map(|c| (&*c.type_, &*c.status, &*c.reason, &*c.message))
        .collect();
    assert_eq!(
        conds,
        [
            ("NamesAccepted", "True", "NoConflicts", "no conflicts found"),
            (
                "Established",
                "True",
                "InitialNamesAccepted",
                "the initial names have been accepted"
            ),
        ]
    );
}

#[test]
fn a_definition_with_bad_names_and_versions_is_refused_with_the_api_servers_words() {
    let mut c = Cluster::with_default_nodes(1);
    let bad = WIDGETS
        .replace("name: widgets.example.com", "name: gadgets.example.com")
        .replace("scope: Namespaced", "scope: Everywhere")
        .replace("storage: true", "storage: false")
        .replace(
            "  - name: Replicas\n      type: integer",
            "  - name: Replicas\n      type: int",
        );
    let out = fails(&mut c, "kubectl apply -f -", Some(&bad));
    assert_eq!(
        out.trim(),
        "The CustomResourceDefinition \"gadgets.example.com\" is invalid: \n\
* metadata.name: Invalid value: \"gadgets.example.com\": must be spec.names.plural+\".\"+spec.group\n\
* spec.scope: Unsupported value: \"Everywhere\": supported values: \"Cluster\", \"Namespaced\"\n\
* spec.versions: Invalid value: [\"v1\"]: must have exactly one version marked as storage version\n\
* spec.additionalPrinterColumns[0].type: Invalid value: \"int\": must be one of boolean,date,integer,number,string"
    );
    let untyped = WIDGETS.replace(
        "              image:\n                type: string\n",
        "              image:\n                maxLength: 3\n",
    );
    let out = fails(&mut c, "kubectl apply -f -", Some(&untyped));
    assert!(
        out.contains("spec.validation.openAPIV3Schema.properties[spec].properties[image].type: Required value: must not be empty for specified object fields"),
        "{out}"
    );
}

#[test]
fn an_object_is_pruned_defaulted_and_printed_with_the_definitions_columns() {
    let mut c = with_widgets();
    let w = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec:\n  image: nginx\n  extra: {anything: [1, 2]}\n";
    assert_eq!(
        sh(&mut c, "kubectl apply -f -", Some(w)).trim(),
        "widget.example.com/w1 created"
    );
    let o = widget(&c, "w1");
    assert_eq!(o.content["spec"]["replicas"], 1, "defaulted");
    assert_eq!(
        o.content["spec"]["extra"]["anything"][1], 2,
        "kept where unknown fields are preserved"
    );
    assert_eq!(o.metadata.generation, 1);
    sh(&mut c, "sim advance 5s", None);
    assert_eq!(
        sh(&mut c, "kubectl get widgets", None),
        "NAME   REPLICAS   READY\nw1     1          \n"
    );
    assert_eq!(
        sh(&mut c, "kubectl get wd -o wide", None),
        "NAME   REPLICAS   READY   IMAGE\nw1     1                  nginx\n"
    );
    // A field the schema does not name is refused by kubectl's strict validation.
    let typo = w
        .replace("name: w1", "name: w9")
        .replace("image: nginx", "image: nginx\n  colour: red");
    assert_eq!(
        fails(&mut c, "kubectl apply -f -", Some(&typo)).trim(),
        "Error from server (BadRequest): error when creating \"STDIN\": Widget in version \"v1\" cannot be handled as a Widget: strict decoding error: unknown field \"spec.colour\""
    );
}

#[test]
fn an_invalid_object_gets_every_schema_error_in_the_api_servers_words() {
    let mut c = with_widgets();
    let w = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w2}\nspec:\n  replicas: 11\n  color: pink\n  image: a-very-long-image-name-indeed\n";
    assert_eq!(
        fails(&mut c, "kubectl apply -f -", Some(w)).trim(),
        "The Widget \"w2\" is invalid: \n\
* spec.color: Unsupported value: \"pink\": supported values: \"red\", \"blue\"\n\
* spec.image: Too long: may not be more than 20 bytes\n\
* spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10"
    );
    let w = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w3}\nspec:\n  replicas: three\n";
    assert_eq!(
        fails(&mut c, "kubectl apply -f -", Some(w)).trim(),
        "The Widget \"w3\" is invalid: \n\
* spec.image: Required value\n\
* spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\""
    );
}

#[test]
fn status_is_written_only_through_its_subresource_and_spec_changes_move_the_generation() {
    let mut c = with_widgets();
    let w = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {image: nginx}\nstatus: {readyReplicas: 3}\n";
    sh(&mut c, "kubectl apply -f -", Some(w));
    assert!(
        widget(&c, "w1").content.get("status").is_none(),
        "dropped on create"
    );
    sh(
        &mut c,
        "kubectl patch widget w1 --type=merge -p '{\"status\":{\"readyReplicas\":2}}'",
        None,
    );
    assert!(
        widget(&c, "w1").content.get("status").is_none(),
        "ignored by the main resource"
    );
    assert_eq!(widget(&c, "w1").metadata.generation, 1);
    sh(
        &mut c,
        "kubectl patch widget w1 --subresource=status --type=merge -p '{\"status\":{\"readyReplicas\":2}}'",
        None,
    );
    assert_eq!(widget(&c, "w1").content["status"]["readyReplicas"], 2);
    assert_eq!(
        widget(&c, "w1").metadata.generation,
        1,
        "status does not move it"
    );
    sh(
        &mut c,
        "kubectl patch widget w1 --type=merge -p '{\"spec\":{\"replicas\":4}}'",
        None,
    );
    assert_eq!(widget(&c, "w1").metadata.generation, 2);
}

#[test]
fn deleting_a_definition_deletes_its_objects_then_the_definition() {
    let mut c = with_widgets();
    for n in ["a", "b"] {
        let w = format!("apiVersion: example.com/v1\nkind: Widget\nmetadata: {{name: {n}}}\nspec: {{image: x}}\n");
        sh(&mut c, "kubectl apply -f -", Some(&w));
    }
    sh(
        &mut c,
        "kubectl delete crd widgets.example.com --wait=false",
        None,
    );
    let d = c
        .store
        .get::<CustomResourceDefinition>(&ObjKey::new("", "widgets.example.com"))
        .unwrap()
        .clone();
    assert!(d
        .metadata
        .finalizers
        .iter()
        .any(|f| f == "customresourcecleanup.apiextensions.k8s.io"));
    assert!(d
        .status
        .conditions
        .iter()
        .any(|c| c.type_ == "Terminating" && c.reason == "InstanceDeletionPending"));
    let refused =
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: c}\nspec: {image: x}\n";
    assert!(fails(&mut c, "kubectl create -f -", Some(refused))
        .contains("create not allowed while custom resource definition is terminating"));
    sh(&mut c, "sim advance 2s", None);
    assert_eq!(c.store.count(Kind::CustomResourceDefinition), 0);
    assert!(c.store.custom_kinds().is_empty(), "its objects are gone");
    assert!(fails(&mut c, "kubectl get widgets", None)
        .contains("the server doesn't have a resource type \"widgets\""));
}

#[test]
fn a_second_definition_cannot_take_names_its_group_already_serves() {
    let mut c = with_widgets();
    let gadgets = WIDGETS
        .replace("widgets.example.com", "gadgets.example.com")
        .replace("plural: widgets", "plural: gadgets")
        .replace("kind: Widget", "kind: Gadget");
    sh(&mut c, "kubectl apply -f -", Some(&gadgets));
    sh(&mut c, "sim advance 1s", None);
    let g = c
        .store
        .get::<CustomResourceDefinition>(&ObjKey::new("", "gadgets.example.com"))
        .unwrap();
    let names = g
        .status
        .conditions
        .iter()
        .find(|c| c.type_ == "NamesAccepted")
        .unwrap();
    assert_eq!(
        (&*names.status, &*names.reason, &*names.message),
        ("False", "ShortNamesConflict", "\"wd\" is already in use")
    );
    assert!(g.status.accepted_names.short_names.is_empty());
    assert_eq!(g.status.accepted_names.plural, "gadgets");
}

#[test]
fn objects_in_a_deleted_namespace_go_with_it() {
    let mut c = with_widgets();
    sh(&mut c, "kubectl create namespace team", None);
    let w = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: t1, namespace: team}\nspec: {image: x}\n";
    sh(&mut c, "kubectl apply -f -", Some(w));
    sh(&mut c, "kubectl delete namespace team", None);
    assert_eq!(
        sh(&mut c, "kubectl get widgets -A", None),
        "No resources found\n"
    );
}

const RULED: &str = "\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: pools.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: pools, kind: Pool}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        - rule: \"self.metadata.name.startsWith('pool-')\"
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: self.replicas <= self.maxReplicas
              message: replicas must not exceed maxReplicas
            - rule: \"!has(self.tier) || self.tier in ['gold', 'silver']\"
              fieldPath: .tier
              reason: FieldValueForbidden
              messageExpression: \"'tier ' + self.tier + ' is not sold'\"
            properties:
              replicas: {type: integer}
              maxReplicas: {type: integer}
              tier: {type: string}
              image:
                type: string
                x-kubernetes-validations:
                - rule: self == oldSelf
                  message: image is immutable
              zones:
                type: array
                items: {type: string}
                x-kubernetes-validations:
                - rule: self.all(z, z.endsWith('-a') || z.endsWith('-b'))
";

fn pool(name: &str, spec: &str) -> String {
    format!("apiVersion: example.com/v1\nkind: Pool\nmetadata: {{name: {name}}}\nspec: {spec}\n")
}

#[test]
fn validation_rules_are_evaluated_with_upstreams_messages() {
    let mut c = Cluster::with_default_nodes(1);
    sh(&mut c, "kubectl apply -f -", Some(RULED));
    sh(&mut c, "sim advance 1s", None);
    let ok = pool(
        "pool-a",
        "{replicas: 2, maxReplicas: 3, image: x, zones: [eu-a]}",
    );
    sh(&mut c, "kubectl apply -f -", Some(&ok));
    let bad = pool(
        "p",
        "{replicas: 5, maxReplicas: 3, tier: bronze, zones: [eu-a, eu-c]}",
    );
    assert_eq!(
        fails(&mut c, "kubectl apply -f -", Some(&bad)).trim(),
        "The Pool \"p\" is invalid: \n\
* <nil>: Invalid value: \"object\": failed rule: self.metadata.name.startsWith('pool-')\n\
* spec: Invalid value: \"object\": replicas must not exceed maxReplicas\n\
* spec.tier: Forbidden: tier bronze is not sold\n\
* spec.zones: Invalid value: \"array\": failed rule: self.all(z, z.endsWith('-a') || z.endsWith('-b'))"
    );
    // A transition rule holds on create and is checked on update.
    let changed = pool(
        "pool-a",
        "{replicas: 2, maxReplicas: 3, image: y, zones: [eu-a]}",
    );
    assert_eq!(
        fails(&mut c, "kubectl apply -f -", Some(&changed)).trim(),
        "The Pool \"pool-a\" is invalid: spec.image: Invalid value: \"string\": image is immutable"
    );
    // A schema error keeps the rules from running.
    let typed = pool("pool-b", "{replicas: two, maxReplicas: 3}");
    assert_eq!(
        fails(&mut c, "kubectl apply -f -", Some(&typed)).trim(),
        "The Pool \"pool-b\" is invalid: \n\
* spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\"\n\
* <nil>: Invalid value: \"null\": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"
    );
}

#[test]
fn a_rule_that_does_not_compile_is_refused_with_the_definition() {
    let mut c = Cluster::with_default_nodes(1);
    let broken = RULED.replace("self.replicas <= self.maxReplicas", "self.replicas <=");
    let out = fails(&mut c, "kubectl apply -f -", Some(&broken));
    assert!(
        out.contains("spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:\"self.replicas <=\""),
        "{out}"
    );
    assert!(
        out.contains("compilation failed: ERROR: <input>:1:"),
        "{out}"
    );
    let unknown = RULED.replace(
        "self.replicas <= self.maxReplicas",
        "quantity(self.size) > 1",
    );
    let out = fails(&mut c, "kubectl apply -f -", Some(&unknown));
    assert!(out.contains("undeclared reference to 'quantity'"), "{out}");
}

#[test]
fn the_scale_subresource_reads_and_writes_the_definitions_paths() {
    let mut c = with_widgets();
    let w = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {image: nginx, replicas: 2}\n";
    sh(&mut c, "kubectl apply -f -", Some(w));
    assert_eq!(
        sh(&mut c, "kubectl scale widget w1 --replicas=4", None).trim(),
        "widget.example.com/w1 scaled"
    );
    assert_eq!(widget(&c, "w1").content["spec"]["replicas"], 4);
    assert_eq!(widget(&c, "w1").metadata.generation, 2);
    let scale = sh(
        &mut c,
        "kubectl get --raw /apis/example.com/v1/namespaces/default/widgets/w1/scale",
        None,
    );
    let scale: serde_json::Value = serde_json::from_str(&scale).unwrap();
    assert_eq!(
        (
            &scale["kind"],
            &scale["spec"]["replicas"],
            &scale["status"]["replicas"]
        ),
        (
            &serde_json::json!("Scale"),
            &serde_json::json!(4),
            &serde_json::json!(0)
        )
    );
}

#[test]
fn a_definition_serves_several_versions_and_stores_one() {
    let mut c = Cluster::with_default_nodes(1);
    let two = WIDGETS.replace(
        "  versions:\n  - name: v1\n",
        "  versions:\n  - name: v1beta1\n    served: true\n    storage: false\n    schema:\n      openAPIV3Schema:\n        type: object\n        x-kubernetes-preserve-unknown-fields: true\n  - name: v1\n",
    );
    sh(&mut c, "kubectl apply -f -", Some(&two));
    sh(&mut c, "sim advance 1s", None);
    let old = "apiVersion: example.com/v1beta1\nkind: Widget\nmetadata: {name: old}\nspec: {image: nginx}\n";
    sh(&mut c, "kubectl apply -f -", Some(old));
    assert_eq!(
        widget(&c, "old").api_version,
        "example.com/v1",
        "stored in the storage version"
    );
    let read = |c: &mut Cluster, v: &str| -> serde_json::Value {
        let raw = sh(
            c,
            &format!("kubectl get --raw /apis/example.com/{v}/namespaces/default/widgets/old"),
            None,
        );
        serde_json::from_str(&raw).unwrap()
    };
    assert_eq!(read(&mut c, "v1beta1")["apiVersion"], "example.com/v1beta1");
    assert_eq!(read(&mut c, "v1")["apiVersion"], "example.com/v1");
    let list = sh(
        &mut c,
        "kubectl get --raw /apis/example.com/v1beta1/namespaces/default/widgets",
        None,
    );
    let list: serde_json::Value = serde_json::from_str(&list).unwrap();
    assert_eq!(
        (&list["kind"], &list["apiVersion"]),
        (
            &serde_json::json!("WidgetList"),
            &serde_json::json!("example.com/v1beta1")
        )
    );
    // Moving the storage version keeps the objects, and records the new one.
    let moved = two
        .replace("storage: false", "storage: maybe")
        .replace("storage: true", "storage: false")
        .replace("storage: maybe", "storage: true");
    sh(&mut c, "kubectl apply -f -", Some(&moved));
    let d = c
        .store
        .get::<CustomResourceDefinition>(&ObjKey::new("", "widgets.example.com"))
        .unwrap();
    assert_eq!(d.status.stored_versions, ["v1", "v1beta1"]);
    assert_eq!(
        sh(&mut c, "kubectl get widgets -o name", None).trim(),
        "widget.example.com/old"
    );
}

#[test]
fn a_status_write_to_a_definition_changes_its_status_and_never_its_identity() {
    let mut c = with_widgets();
    let key = ObjKey::new("", "widgets.example.com");
    let uid = c
        .store
        .get::<CustomResourceDefinition>(&key)
        .unwrap()
        .metadata
        .uid
        .clone();
    sh(
        &mut c,
        "kubectl patch crd widgets.example.com --subresource=status --type=merge -p '{\"metadata\":{\"uid\":\"forged\",\"generation\":77,\"labels\":{\"a\":\"b\"}}}'",
        None,
    );
    let d = c.store.get::<CustomResourceDefinition>(&key).unwrap();
    assert_eq!((&d.metadata.uid, d.metadata.generation), (&uid, 1));
    let out = fails(
        &mut c,
        "kubectl patch crd widgets.example.com --subresource=status --type=merge -p '{\"status\":{\"storedVersions\":[\"v2\"]}}'",
        None,
    );
    assert!(
        out.contains("status.storedVersions[0]: Invalid value: \"v2\": missing from spec.versions"),
        "{out}"
    );
    assert!(out.contains("must have the storage version v1"), "{out}");
}

#[test]
fn the_projects_own_groups_need_approval_and_built_in_kinds_keep_their_place() {
    let mut c = Cluster::with_default_nodes(1);
    let protected = WIDGETS.replace("example.com", "example.k8s.io");
    let out = fails(&mut c, "kubectl apply -f -", Some(&protected));
    assert!(out.contains("metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation"), "{out}");
    // A definition of `Service` in another group does not take the built-in's place.
    let services = WIDGETS
        .replace("widgets.example.com", "services.serving.example.com")
        .replace("group: example.com", "group: serving.example.com")
        .replace("plural: widgets", "plural: services")
        .replace("kind: Widget", "kind: Service")
        .replace("shortNames: [wd]", "shortNames: [ksvc]");
    sh(&mut c, "kubectl apply -f -", Some(&services));
    sh(&mut c, "sim advance 1s", None);
    let svc = "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {ports: [{port: 80}]}\n";
    assert_eq!(
        sh(&mut c, "kubectl apply -f -", Some(svc)).trim(),
        "service/web created"
    );
    assert!(
        sh(&mut c, "kubectl get services.serving.example.com", None).contains("No resources found")
    );
}

#[test]
fn a_status_write_is_held_to_the_rules_too() {
    let mut c = Cluster::with_default_nodes(1);
    let ruled = WIDGETS.replace(
        "          status:\n            type: object\n",
        "          status:\n            type: object\n            x-kubernetes-validations:\n            - rule: self.readyReplicas >= 0\n              message: ready replicas cannot be negative\n",
    );
    sh(&mut c, "kubectl apply -f -", Some(&ruled));
    sh(&mut c, "sim advance 1s", None);
    let w =
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {image: nginx}\n";
    sh(&mut c, "kubectl apply -f -", Some(w));
    let out = fails(
        &mut c,
        "kubectl patch widget w1 --subresource=status --type=merge -p '{\"status\":{\"readyReplicas\":-1}}'",
        None,
    );
    assert!(
        out.contains("status: Invalid value: \"object\": ready replicas cannot be negative"),
        "{out}"
    );
}

#[test]
fn a_stricter_schema_does_not_block_updates_of_other_fields() {
    let mut c = with_widgets();
    let w = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {image: nginx, replicas: 9}\n";
    sh(&mut c, "kubectl apply -f -", Some(w));
    let stricter = WIDGETS.replace("maximum: 10", "maximum: 5");
    sh(&mut c, "kubectl apply -f -", Some(&stricter));
    // The old value stays, unchanged: no error.
    sh(&mut c, "kubectl label widget w1 team=a", None);
    // A change to it must meet the new bound.
    let out = fails(
        &mut c,
        "kubectl patch widget w1 --type=merge -p '{\"spec\":{\"replicas\":8}}'",
        None,
    );
    assert!(out.contains("spec.replicas: Invalid value: 8: spec.replicas in body should be less than or equal to 5"), "{out}");
}

#[test]
fn what_one_cluster_defined_first_does_not_name_another_clusters_objects() {
    // Another cluster in this process defined Widgets stored in v1 first.
    let _a = with_widgets();
    let mut b = Cluster::with_default_nodes(1);
    let v2 = WIDGETS.replace("  - name: v1\n", "  - name: v2\n");
    sh(&mut b, "kubectl apply -f -", Some(&v2));
    sh(&mut b, "sim advance 1s", None);
    let w =
        "apiVersion: example.com/v2\nkind: Widget\nmetadata: {name: w1}\nspec: {image: nginx}\n";
    sh(&mut b, "kubectl apply -f -", Some(w));
    let out = sh(
        &mut b,
        "kubectl get widget w1 -o yaml --show-managed-fields",
        None,
    );
    assert!(out.starts_with("apiVersion: example.com/v2\n"), "{out}");
    assert!(!out.contains("example.com/v1"), "{out}");
}

#[test]
fn every_version_without_a_schema_is_named_and_a_string_gets_one_length_error() {
    let mut c = Cluster::with_default_nodes(1);
    let bare = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: things.example.com}\nspec:\n  group: example.com\n  scope: Namespaced\n  names: {plural: things, kind: Thing}\n  versions:\n  - {name: v1beta1, served: true, storage: false}\n  - {name: v1, served: true, storage: true}\n";
    let out = fails(&mut c, "kubectl apply -f -", Some(bare));
    assert!(
        out.contains(
            "spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "spec.versions[1].schema.openAPIV3Schema: Required value: schemas are required"
        ),
        "{out}"
    );
    let both = WIDGETS.replace(
        "maxLength: 20",
        "maxLength: 3\n                minLength: 5",
    );
    sh(&mut c, "kubectl apply -f -", Some(&both));
    sh(&mut c, "sim advance 1s", None);
    let w =
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {image: nginx}\n";
    assert_eq!(
        fails(&mut c, "kubectl apply -f -", Some(w)).trim(),
        "The Widget \"w1\" is invalid: spec.image: Too long: may not be more than 3 bytes"
    );
}
