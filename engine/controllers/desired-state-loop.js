// The course's desired_state_loop.py as a controller: reconcile_step compares
// desired with observed and takes one step a round, until the gap is zero.
function reconcile_step(desired, observed) {
  if (observed < desired) return "create-one-pod";
  if (observed > desired) return "delete-one-pod";
  return "in-sync";
}

function reconcile(request, client) {
  const podset = client.get("PodSet", request.name);
  if (!podset) return; // deleted: the garbage collector removes the Pods it owned
  const pods = client
    .list("Pod", podset.spec.selector)
    .filter((pod) => !pod.metadata.deletionTimestamp);
  const desired = podset.spec.replicas;
  const observed = pods.length;
  const action = reconcile_step(desired, observed);
  // Say what it saw when that changes (the status keeps the last round).
  const last = podset.status || {};
  if (last.observed !== observed || last.lastAction !== action) {
    console.log(`desired=${desired} observed=${observed} action=${action}`);
  }
  if (action === "create-one-pod") {
    client.create({
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        generateName: podset.metadata.name + "-",
        labels: podset.spec.selector,
        ownerReferences: [client.ownerReference(podset)],
      },
      spec: { containers: [{ name: "app", image: podset.spec.image }] },
    });
  } else if (action === "delete-one-pod") {
    client.delete("Pod", pods[pods.length - 1].metadata.name);
  }
  podset.status = { observed, lastAction: action };
  client.updateStatus(podset);
  // Look again in five seconds even if nothing changed: the text's controller
  // checks every few seconds.
  return { requeueAfter: 5000 };
}
