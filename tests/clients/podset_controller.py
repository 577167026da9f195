"""The course's reconcile loop as a real controller: the official Python client, a
custom resource, and `kubeplay-cli serve` (or any cluster).

A PodSet (`podsets.course.kubeplay.dev`) declares how many Pods of one image should
run, and which labels count as its own (`spec.selector`). The controller watches
PodSets and Pods and, for each PodSet, does what `reconcile_step` of the course's
desired_state_loop.py does: one Pod too few, create one; one too many, delete one;
equal, in sync. It writes what it observed to the PodSet's status, and owns the Pods
it makes (ownerReferences), so the garbage collector removes them with the PodSet.

    python tests/clients/podset_controller.py           # run the controller
    python tests/clients/podset_controller.py --check   # the course's checks, against
                                                          # kubeplay-cli serve

The checks replay the course's program on a cluster: a node's loss (3 desired, 1
observed) is made good one Pod at a time; two Pods made by hand are taken back; a Pod
whose labels do not match the selector is never counted, so the mismatch stays
visible instead of being "healed". They move the simulated clock with the server's
`sim` endpoint, so they need kubeplay-cli serve. Run by scripts/python-client.sh.
"""
import json
import sys

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

GROUP, VERSION, PLURAL = "course.kubeplay.dev", "v1", "podsets"
TIMEOUT = 20

CRD = {
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {"name": f"{PLURAL}.{GROUP}"},
    "spec": {
        "group": GROUP,
        "scope": "Namespaced",
        "names": {"plural": PLURAL, "kind": "PodSet", "shortNames": ["ps"]},
        "versions": [
            {
                "name": VERSION,
                "served": True,
                "storage": True,
                "subresources": {"status": {}},
                "additionalPrinterColumns": [
                    {"name": "Desired", "type": "integer", "jsonPath": ".spec.replicas"},
                    {"name": "Observed", "type": "integer", "jsonPath": ".status.observed"},
                    {"name": "Last", "type": "string", "jsonPath": ".status.lastAction"},
                ],
                "schema": {
                    "openAPIV3Schema": {
                        "type": "object",
                        "properties": {
                            "spec": {
                                "type": "object",
                                "required": ["image", "selector"],
                                "properties": {
                                    "replicas": {"type": "integer", "minimum": 0, "default": 1},
                                    "image": {"type": "string"},
                                    "selector": {
                                        "type": "object",
                                        "additionalProperties": {"type": "string"},
                                    },
                                },
                            },
                            "status": {
                                "type": "object",
                                "properties": {
                                    "observed": {"type": "integer"},
                                    "lastAction": {"type": "string"},
                                },
                            },
                        },
                    }
                },
            }
        ],
    },
}


def reconcile_step(desired, observed):
    """The course's step, unchanged: one action toward the declared state."""
    if observed < desired:
        return "create-one-pod"
    if observed > desired:
        return "delete-one-pod"
    return "in-sync"


class Controller:
    def __init__(self, api):
        self.core = client.CoreV1Api(api)
        self.custom = client.CustomObjectsApi(api)

    def observed(self, ps):
        """The Pods that count: in the PodSet's namespace, matching its selector, not
        on their way out."""
        ns = ps["metadata"]["namespace"]
        selector = ",".join(f"{k}={v}" for k, v in sorted(ps["spec"]["selector"].items()))
        pods = self.core.list_namespaced_pod(ns, label_selector=selector, _request_timeout=TIMEOUT)
        return [p for p in pods.items if p.metadata.deletion_timestamp is None]

    def reconcile(self, ns, name):
        """Read, compare, act once, record: the action taken."""
        try:
            ps = self.custom.get_namespaced_custom_object(GROUP, VERSION, ns, PLURAL, name, _request_timeout=TIMEOUT)
        except ApiException as e:
            if e.status == 404:
                return "gone"  # deleted: the garbage collector takes its Pods
            raise
        pods = self.observed(ps)
        action = reconcile_step(ps["spec"]["replicas"], len(pods))
        if action == "create-one-pod":
            self.core.create_namespaced_pod(ns, self.pod_for(ps), _request_timeout=TIMEOUT)
        elif action == "delete-one-pod":
            # The newest first, as a ReplicaSet prefers to delete the youngest.
            newest = max(pods, key=lambda p: (p.metadata.creation_timestamp, p.metadata.name))
            self.core.delete_namespaced_pod(newest.metadata.name, ns, _request_timeout=TIMEOUT)
        observed = len(pods) + {"create-one-pod": 1, "delete-one-pod": -1}.get(action, 0)
        self.custom.patch_namespaced_custom_object_status(
            GROUP, VERSION, ns, PLURAL, name,
            {"status": {"observed": observed, "lastAction": action}},
            _request_timeout=TIMEOUT,
        )
        return action

    def pod_for(self, ps):
        meta = ps["metadata"]
        return {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "generateName": f"{meta['name']}-",
                "labels": dict(ps["spec"]["selector"]),
                "ownerReferences": [{
                    "apiVersion": f"{GROUP}/{VERSION}", "kind": "PodSet", "name": meta["name"],
                    "uid": meta["uid"], "controller": True, "blockOwnerDeletion": True,
                }],
            },
            "spec": {"containers": [{"name": "app", "image": ps["spec"]["image"]}]},
        }

    def converge(self, ns, name, limit=20):
        """Reconcile until in sync (or `limit` rounds): the actions, in order."""
        actions = []
        for _ in range(limit):
            actions.append(self.reconcile(ns, name))
            if actions[-1] in ("in-sync", "gone"):
                break
        return actions

    def run(self):
        """The controller proper: every change of a PodSet or a Pod wakes the loop."""
        w = watch.Watch()
        for event in w.stream(self.custom.list_cluster_custom_object, GROUP, VERSION, PLURAL):
            meta = event["object"]["metadata"]
            print(meta["name"], self.converge(meta["namespace"], meta["name"]), flush=True)


def sim(api, words):
    """Move the simulated clock (kubeplay-cli serve's `sim` endpoint)."""
    api.call_api("/kubeplay/v1/sim", "POST", body={"command": words},
                 header_params={"Content-Type": "application/json"},
                 auth_settings=["BearerToken"], _preload_content=False, _request_timeout=TIMEOUT)


def check():
    config.load_kube_config()
    api = client.ApiClient()
    ext = client.ApiextensionsV1Api(api)
    ext.create_custom_resource_definition(CRD, _request_timeout=TIMEOUT)
    sim(api, "advance 1s")
    crd = ext.read_custom_resource_definition(f"{PLURAL}.{GROUP}", _request_timeout=TIMEOUT)
    established = [c for c in crd.status.conditions if c.type == "Established"]
    assert established and established[0].status == "True", crd.status.conditions

    ctl = Controller(api)
    custom, core = ctl.custom, ctl.core
    podset = {"apiVersion": f"{GROUP}/{VERSION}", "kind": "PodSet",
              "metadata": {"name": "api"}, "spec": {"replicas": 3, "image": "nginx:1.27", "selector": {"app": "api"}}}
    custom.create_namespaced_custom_object(GROUP, VERSION, "default", PLURAL, podset, _request_timeout=TIMEOUT)

    # A node's loss left one Pod of three: the loop adds one at a time, then is in sync.
    ctl.reconcile("default", "api")
    sim(api, "advance 5s")
    for p in ctl.observed(custom.get_namespaced_custom_object(GROUP, VERSION, "default", PLURAL, "api"))[1:]:
        core.delete_namespaced_pod(p.metadata.name, "default", grace_period_seconds=0, _request_timeout=TIMEOUT)
    sim(api, "advance 1s")
    actions = ctl.converge("default", "api")
    assert actions == ["create-one-pod", "create-one-pod", "in-sync"], actions

    # Two Pods made by hand, with the PodSet's labels: the loop takes them back.
    for i in range(2):
        core.create_namespaced_pod("default", {
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": f"by-hand-{i}", "labels": {"app": "api"}},
            "spec": {"containers": [{"name": "app", "image": "nginx:1.27"}]}}, _request_timeout=TIMEOUT)
    drift = ctl.converge("default", "api")
    assert drift == ["delete-one-pod", "delete-one-pod", "in-sync"], drift

    # A label mismatch is not healed: the stray Pod is never counted, and stays.
    core.create_namespaced_pod("default", {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "stray", "labels": {"app": "api-v2"}},
        "spec": {"containers": [{"name": "app", "image": "nginx:1.27"}]}}, _request_timeout=TIMEOUT)
    assert ctl.converge("default", "api") == ["in-sync"]
    core.read_namespaced_pod("stray", "default", _request_timeout=TIMEOUT)

    ps = custom.get_namespaced_custom_object(GROUP, VERSION, "default", PLURAL, "api")
    assert ps["status"] == {"observed": 3, "lastAction": "in-sync"}, ps["status"]
    assert ps["metadata"]["generation"] == 1, "status writes leave the generation alone"

    # Deleting the PodSet: the garbage collector removes the Pods it owned, not the stray.
    custom.delete_namespaced_custom_object(GROUP, VERSION, "default", PLURAL, "api", _request_timeout=TIMEOUT)
    sim(api, "advance 40s")
    left = sorted(p.metadata.name for p in core.list_namespaced_pod(
        "default", label_selector="app in (api,api-v2)", _request_timeout=TIMEOUT).items)
    assert left == ["stray"], left
    print("ok   the course's reconcile loop as a controller: recovery "
          f"{actions}, manual scale reverted {drift}, label mismatch stays visible")


if __name__ == "__main__":
    if "--check" in sys.argv:
        try:
            check()
        except Exception:
            import traceback
            traceback.print_exc()
            print("FAIL the course's reconcile loop as a controller")
            sys.exit(1)
    else:
        config.load_kube_config()
        Controller(client.ApiClient()).run()
