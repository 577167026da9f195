// The course's desired-state loop as a controller of PodSets: compare desired with
// observed, take one step, and say what you saw. Every change of a PodSet, or of a
// Pod it owns, calls reconcile again, until the two agree.
function reconcile(request, client) {
  const podset = client.get("PodSet", request.name);
  if (!podset) return; // deleted: the garbage collector removes the Pods it owned

  const pods = client
    .list("Pod", podset.spec.selector)
    .filter((pod) => !pod.metadata.deletionTimestamp);
  const desired = podset.spec.replicas;
  const observed = pods.length;

  let action = "in-sync";
  if (observed < desired) {
    action = "create-one-pod";
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
  } else if (observed > desired) {
    action = "delete-one-pod";
    client.delete("Pod", pods[pods.length - 1].metadata.name);
  }

  podset.status = { observed, lastAction: action };
  client.updateStatus(podset);
}
