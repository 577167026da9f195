// A validating webhook server: at most five replicas a Deployment.
function admit(review) {
  const req = review.request;
  const replicas = (req.object && req.object.spec && req.object.spec.replicas) || 0;
  const allowed = replicas <= 5;
  return {
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    response: {
      uid: req.uid,
      allowed,
      status: allowed ? undefined : { code: 403, reason: "Forbidden", message: `at most 5 replicas, not ${replicas}` },
      warnings: allowed && replicas > 3 ? [`${replicas} replicas is many`] : undefined,
    },
  };
}
