// The learner's webhook server: what it does with one POST of an AdmissionReview.
//
// The code defines `admit(review, path)`, which gets the AdmissionReview the API
// server sent and returns the AdmissionReview it answers with, as a webhook server
// writes it: `{apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview",
// response: {uid: review.request.uid, allowed: false, status: {code: 403, message}}}`.
// The API server checks the answer as it checks any webhook's.
function __kubeplay_main(text) {
  "use strict";
  const input = JSON.parse(text);
  const logs = [];
  const show = (v) => (typeof v === "string" ? v : JSON.stringify(v));
  const log = (...args) => {
    if (logs.length < 50) logs.push(args.map(show).join(" ").slice(0, 500));
  };
  globalThis.console = { log, info: log, warn: log, error: log, debug: log };
  try {
    if (typeof admit !== "function") {
      throw new ReferenceError("admit is not defined: the webhook's code must define function admit(review)");
    }
    const answer = admit(input.review, input.path);
    return JSON.stringify({ logs, answer: answer === undefined ? null : answer });
  } catch (e) {
    const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    return JSON.stringify({ logs, error: message });
  }
}
