"""The official Python client (kubernetes 33.1.0, the release for 1.33) against
`kubeplay-cli serve`, on the paths its users take: typed reads of every core kind it
decodes strictly, list and watch (a timed-out watch, then more requests on the same
connection pool), the patch types, server-side apply with its conflict, pagination,
error bodies, the API server's /metrics, and ServiceAccount tokens.

    KUBECONFIG=… python tests/clients/python_client.py

Prints one line per check and exits 1 when any failed. Run by scripts/python-client.sh.
"""
import json
import sys
import traceback

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

config.load_kube_config()
api = client.ApiClient()
core = client.CoreV1Api(api)
apps = client.AppsV1Api(api)
failures = []
# No call may hang: every request gives up after this many seconds.
TIMEOUT = 20


def check(name):
    def run(fn):
        try:
            fn()
            print(f"ok   {name}")
        except Exception:  # a failed check, whatever it raised
            failures.append(name)
            print(f"FAIL {name}")
            traceback.print_exc(limit=3, file=sys.stdout)
        return fn

    return run


def error_of(call):
    """The ApiException a call raises, with its Status body decoded."""
    try:
        call()
    except ApiException as e:
        return e.status, json.loads(e.body)
    raise AssertionError("no error")


DEPLOYMENT = {
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {"name": "web", "labels": {"app": "web"}},
    "spec": {
        "replicas": 2,
        "selector": {"matchLabels": {"app": "web"}},
        "template": {
            "metadata": {"labels": {"app": "web"}},
            "spec": {"containers": [{"name": "nginx", "image": "nginx:1.27"}]},
        },
    },
}


@check("nodes decode with every nodeInfo field (list_node, read_node, read_node_status)")
def _():
    nodes = core.list_node(_request_timeout=TIMEOUT).items
    assert nodes, "no nodes"
    n = core.read_node(nodes[0].metadata.name, _request_timeout=TIMEOUT)
    assert n.status.node_info.kubelet_version.startswith("v1.33")
    s = core.read_node_status(nodes[0].metadata.name, _request_timeout=TIMEOUT)
    assert s.status.node_info.boot_id is not None


@check("a Deployment created from a dict reads back with its defaults")
def _():
    apps.create_namespaced_deployment("default", DEPLOYMENT, _request_timeout=TIMEOUT)
    d = apps.read_namespaced_deployment("web", "default", _request_timeout=TIMEOUT)
    assert d.spec.strategy.type == "RollingUpdate"
    assert d.spec.revision_history_limit == 10


@check("the scale subresource, and a stale update's 409")
def _():
    apps.patch_namespaced_deployment_scale(
        "web", "default", {"spec": {"replicas": 3}}, _request_timeout=TIMEOUT
    )
    d = apps.read_namespaced_deployment("web", "default", _request_timeout=TIMEOUT)
    assert d.spec.replicas == 3
    stale = d
    apps.patch_namespaced_deployment(
        "web", "default", {"metadata": {"labels": {"tier": "front"}}}, _request_timeout=TIMEOUT
    )
    code, st = error_of(
        lambda: apps.replace_namespaced_deployment("web", "default", stale, _request_timeout=TIMEOUT)
    )
    assert code == 409 and st["reason"] == "Conflict", st


@check("a JSON patch and a strategic merge patch")
def _():
    apps.patch_namespaced_deployment(
        "web",
        "default",
        [{"op": "add", "path": "/spec/minReadySeconds", "value": 5}],
        _request_timeout=TIMEOUT,
    )
    apps.patch_namespaced_deployment(
        "web",
        "default",
        {"spec": {"template": {"spec": {"containers": [{"name": "nginx", "image": "nginx:1.28"}]}}}},
        _request_timeout=TIMEOUT,
    )
    d = apps.read_namespaced_deployment("web", "default", _request_timeout=TIMEOUT)
    assert d.spec.min_ready_seconds == 5
    assert d.spec.template.spec.containers[0].image == "nginx:1.28"
    code, st = error_of(
        lambda: apps.patch_namespaced_deployment(
            "web",
            "default",
            [{"op": "test", "path": "/spec/replicas", "value": 99}],
            _request_timeout=TIMEOUT,
        )
    )
    assert code == 422, st


@check("server-side apply: the 409 names the conflict, force takes the field")
def _():
    from kubernetes.dynamic import DynamicClient

    deployments = DynamicClient(api).resources.get(api_version="apps/v1", kind="Deployment")
    body = dict(DEPLOYMENT, metadata={"name": "api", "namespace": "default"})
    deployments.server_side_apply(body=body, field_manager="ci", _request_timeout=TIMEOUT)
    other = json.loads(json.dumps(body))
    other["spec"]["replicas"] = 5
    code, st = error_of(
        lambda: deployments.server_side_apply(body=other, field_manager="other", _request_timeout=TIMEOUT)
    )
    assert code == 409, st
    cause = st["details"]["causes"][0]
    assert (cause["reason"], cause["field"]) == ("FieldManagerConflict", ".spec.replicas"), st
    d = deployments.server_side_apply(
        body=other, field_manager="other", force_conflicts=True, _request_timeout=TIMEOUT
    )
    assert d.spec.replicas == 5
    managers = sorted(m.manager for m in d.metadata.managedFields)
    assert "other" in managers, managers


@check("a list in chunks: limit and _continue until the last")
def _():
    for i in range(5):
        core.create_namespaced_config_map(
            "default", {"metadata": {"name": f"page-{i}"}}, _request_timeout=TIMEOUT
        )
    names, token, chunks = [], None, 0
    while True:
        page = core.list_namespaced_config_map(
            "default", limit=2, _continue=token, _request_timeout=TIMEOUT
        )
        chunks += 1
        names += [c.metadata.name for c in page.items]
        token = page.metadata._continue
        if not token:
            break
    everything = [c.metadata.name for c in core.list_namespaced_config_map("default").items]
    assert names == everything and chunks >= 3, (names, everything, chunks)
    code, st = error_of(
        lambda: core.list_namespaced_config_map("default", limit=2, _continue="bogus!", _request_timeout=TIMEOUT)
    )
    assert code == 400 and st["message"].startswith("invalid continue token"), st


@check("a watch that times out, then more requests on the same connections")
def _():
    w = watch.Watch()
    seen = []
    for ev in w.stream(core.list_namespaced_config_map, "default", timeout_seconds=1, _request_timeout=TIMEOUT):
        seen.append(ev["type"])
    assert seen and set(seen) <= {"ADDED", "MODIFIED", "DELETED"}, seen
    for _ in range(3):
        core.list_namespaced_pod("default", _request_timeout=TIMEOUT)


@check("a watch from a resourceVersion sees a new object")
def _():
    rv = core.list_namespaced_config_map("default", _request_timeout=TIMEOUT).metadata.resource_version
    core.create_namespaced_config_map("default", {"metadata": {"name": "late"}}, _request_timeout=TIMEOUT)
    w = watch.Watch()
    names = [
        e["object"].metadata.name
        for e in w.stream(
            core.list_namespaced_config_map, "default", resource_version=rv,
            timeout_seconds=1, _request_timeout=TIMEOUT,
        )
    ]
    assert names == ["late"], names


@check("error bodies: NotFound, a missing namespace, an unsupported field selector")
def _():
    code, st = error_of(lambda: core.read_namespaced_pod("nope", "default", _request_timeout=TIMEOUT))
    assert (code, st["reason"], st["details"]["name"]) == (404, "NotFound", "nope"), st
    code, st = error_of(
        lambda: core.create_namespaced_config_map("missing", {"metadata": {"name": "x"}}, _request_timeout=TIMEOUT)
    )
    assert (code, st["details"]) == (404, {"name": "missing", "kind": "namespaces"}), st
    code, st = error_of(
        lambda: core.list_namespaced_pod("default", field_selector="spec.bogus=1", _request_timeout=TIMEOUT)
    )
    assert (code, st["message"]) == (400, "field label not supported: spec.bogus"), st


@check("Events, Services, Endpoints and Leases decode")
def _():
    core.list_event_for_all_namespaces(_request_timeout=TIMEOUT)
    core.list_service_for_all_namespaces(_request_timeout=TIMEOUT)
    core.list_endpoints_for_all_namespaces(_request_timeout=TIMEOUT)
    client.CoordinationV1Api(api).list_lease_for_all_namespaces(_request_timeout=TIMEOUT)


@check("the API server's /metrics counts requests")
def _():
    data = api.call_api(
        "/metrics", "GET", auth_settings=["BearerToken"], response_type="str",
        _preload_content=False, _request_timeout=TIMEOUT,
    )[0].data.decode()
    assert 'apiserver_request_total{code="200"' in data, data[:400]


@check("ServiceAccounts: the defaults, a TokenRequest, and the token as a bearer")
def _():
    names = [sa.metadata.name for sa in core.list_namespaced_service_account("default", _request_timeout=TIMEOUT).items]
    assert "default" in names, names
    core.create_namespaced_service_account(
        "default", {"metadata": {"name": "py-robot"}}, _request_timeout=TIMEOUT
    )
    tr = core.create_namespaced_service_account_token(
        "py-robot", "default", {"spec": {"expirationSeconds": 3600}}, _request_timeout=TIMEOUT
    )
    token = tr.status.token
    assert token.count(".") == 2, token
    cfg = client.Configuration.get_default_copy()
    cfg.api_key = {"authorization": "Bearer " + token}
    # The kubeconfig loader refreshes the admin token before each call: not here.
    cfg.refresh_api_key_hook = None
    robot = client.CoreV1Api(client.ApiClient(cfg))
    try:
        robot.list_namespaced_pod("default", _request_timeout=TIMEOUT)
        raise AssertionError("a new account may not list pods")
    except ApiException as e:
        assert e.status == 403, e.status
        assert "system:serviceaccount:default:py-robot" in json.loads(e.body)["message"]
    ca = core.read_namespaced_config_map("kube-root-ca.crt", "default", _request_timeout=TIMEOUT)
    assert ca.data["ca.crt"].startswith("-----BEGIN CERTIFICATE-----")


@check("events.k8s.io/v1: Events list and decode, and one written there reads in core v1")
def _():
    events = client.EventsV1Api(api)
    # Listing them all is left out: the core recorder's Events have `eventTime: null`
    # there, as on any v1.33 cluster, and this client's EventsV1Event refuses a null
    # eventTime (a known limit of the client, not of the server).
    raw = api.call_api(
        "/apis/events.k8s.io/v1/events", "GET", auth_settings=["BearerToken"],
        response_type="object", _request_timeout=TIMEOUT,
    )[0]
    assert raw["kind"] == "EventList" and raw["items"], raw.get("kind")
    assert all("note" in e and "regarding" in e for e in raw["items"])
    events.create_namespaced_event("default", {
        "metadata": {"name": "py-event"},
        "eventTime": "2025-01-01T00:00:00.000000Z",
        "reportingController": "example.com/py", "reportingInstance": "py-0",
        "action": "Check", "reason": "Checked", "type": "Normal",
        "regarding": {"kind": "Pod", "name": "x", "namespace": "default"},
        "note": "written through events.k8s.io",
    }, _request_timeout=TIMEOUT)
    core_event = core.read_namespaced_event("py-event", "default", _request_timeout=TIMEOUT)
    assert core_event.message == "written through events.k8s.io", core_event.message
    v1 = events.read_namespaced_event("py-event", "default", _request_timeout=TIMEOUT)
    assert v1.note == core_event.message and v1.regarding.name == "x", v1


@check("autoscaling/v1: an HPA created there reads in v2, and v2's other metrics ride in v1's annotations")
def _():
    v1 = client.AutoscalingV1Api(api)
    v2 = client.AutoscalingV2Api(api)
    v1.create_namespaced_horizontal_pod_autoscaler("default", {
        "metadata": {"name": "web-v1"},
        "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
                 "maxReplicas": 4, "targetCPUUtilizationPercentage": 60},
    }, _request_timeout=TIMEOUT)
    h = v2.read_namespaced_horizontal_pod_autoscaler("web-v1", "default", _request_timeout=TIMEOUT)
    assert h.spec.metrics[0].resource.target.average_utilization == 60, h.spec.metrics
    v2.patch_namespaced_horizontal_pod_autoscaler("web-v1", "default", {"spec": {"metrics": [
        {"type": "Resource", "resource": {"name": "memory",
            "target": {"type": "AverageValue", "averageValue": "100Mi"}}},
        {"type": "Resource", "resource": {"name": "cpu",
            "target": {"type": "Utilization", "averageUtilization": 60}}},
    ]}}, _request_timeout=TIMEOUT)
    old = v1.read_namespaced_horizontal_pod_autoscaler("web-v1", "default", _request_timeout=TIMEOUT)
    assert old.spec.target_cpu_utilization_percentage == 60
    assert "memory" in old.metadata.annotations["autoscaling.alpha.kubernetes.io/metrics"]
    listed = v1.list_namespaced_horizontal_pod_autoscaler("default", _request_timeout=TIMEOUT)
    assert any(i.metadata.name == "web-v1" for i in listed.items)
    v1.delete_namespaced_horizontal_pod_autoscaler("web-v1", "default", _request_timeout=TIMEOUT)


print(f"{len(failures)} of the checks failed" if failures else "every check passed")
sys.exit(1 if failures else 0)
