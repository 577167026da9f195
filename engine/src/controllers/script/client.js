// kubeplay's client for the learner's reconcile(request, client).
//
// Reads come from the informer cache the engine hands in (the objects of the kinds
// the controller watches, in its namespace, as they were when the reconcile began);
// writes are collected and sent by the engine, in order, through the API server as
// the controller's ServiceAccount once reconcile returns. So a reconcile does not
// see its own writes: the next one does, as with a real informer cache.
function __kubeplay_main(text) {
  "use strict";
  const input = JSON.parse(text);
  const namespace = input.request.namespace;
  const requests = [];
  const logs = [];
  const show = (v) => (typeof v === "string" ? v : JSON.stringify(v));
  const log = (...args) => {
    if (logs.length < 50) logs.push(args.map(show).join(" ").slice(0, 500));
  };
  globalThis.console = { log, info: log, warn: log, error: log, debug: log };
  const byKind = {};
  for (const o of input.cache) (byKind[o.kind] = byKind[o.kind] || []).push(o);
  const watched = input.kinds.map((k) => k.kind).join(", ");
  const kindOf = (k) => {
    if (typeof k !== "string") throw new TypeError('a kind is a string, such as "Pod"');
    const want = k.toLowerCase();
    for (const known of input.kinds) {
      if (known.kind.toLowerCase() === want || known.plural === want) return known.kind;
    }
    throw new Error(`kind "${k}" is not watched by this controller (it watches ${watched})`);
  };
  const copy = (o) => JSON.parse(JSON.stringify(o));
  const selector = (s) => {
    if (s == null) return {};
    if (typeof s === "object") return s;
    const out = {};
    for (const part of String(s).split(",")) {
      if (!part.trim()) continue;
      const [k, v] = part.split("=");
      out[k.trim()] = (v || "").trim();
    }
    return out;
  };
  const isObject = (o, what) => {
    if (!o || typeof o !== "object" || !o.metadata) {
      throw new TypeError(`${what} takes an object with apiVersion, kind and metadata`);
    }
  };
  const write = (request) => {
    if (requests.length >= input.maxWrites) {
      throw new Error(`reconcile made more than ${input.maxWrites} writes: a reconcile may make at most ${input.maxWrites}`);
    }
    requests.push(request);
  };
  const mergePatch = (target, patch) => {
    if (!patch || typeof patch !== "object" || Array.isArray(patch)) return copy(patch);
    const out = target && typeof target === "object" && !Array.isArray(target) ? target : {};
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) delete out[k];
      else out[k] = mergePatch(out[k], v);
    }
    return out;
  };
  const client = {
    get(kind, name) {
      const k = kindOf(kind);
      const o = (byKind[k] || []).find((o) => o.metadata.name === name);
      return o ? copy(o) : null;
    },
    list(kind, labels) {
      const k = kindOf(kind);
      const want = selector(labels);
      return (byKind[k] || [])
        .filter((o) => {
          const have = o.metadata.labels || {};
          return Object.keys(want).every((key) => have[key] === want[key]);
        });
    },
    create(obj) {
      isObject(obj, "client.create");
      write({ verb: "create", object: copy(obj) });
      return copy(obj);
    },
    update(obj) {
      isObject(obj, "client.update");
      write({ verb: "update", object: copy(obj) });
      return copy(obj);
    },
    updateStatus(obj) {
      isObject(obj, "client.updateStatus");
      write({ verb: "updateStatus", object: copy(obj) });
      return copy(obj);
    },
    patch(kind, name, patch) {
      const cur = client.get(kind, name);
      if (!cur) throw new Error(`${kind} "${name}" is not in the cache`);
      const merged = mergePatch(cur, copy(patch));
      write({ verb: "patch", object: merged });
      return copy(merged);
    },
    delete(kind, name) {
      write({ verb: "delete", kind: kindOf(kind), name: String(name) });
    },
    event(obj, type, reason, message) {
      isObject(obj, "client.event");
      write({
        verb: "event",
        involved: {
          apiVersion: obj.apiVersion,
          kind: obj.kind,
          name: obj.metadata.name,
          namespace: obj.metadata.namespace || namespace,
          uid: obj.metadata.uid,
        },
        type: String(type),
        reason: String(reason),
        message: String(message),
      });
    },
    ownerReference(owner) {
      isObject(owner, "client.ownerReference");
      return {
        apiVersion: owner.apiVersion,
        kind: owner.kind,
        name: owner.metadata.name,
        uid: owner.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      };
    },
  };
  if (typeof reconcile !== "function") {
    throw new ReferenceError("controller.js defines no function reconcile(request, client)");
  }
  const describe = (e) => {
    if (!(e instanceof Error)) return `Uncaught ${show(e)}`;
    const frames = String(e.stack || "")
      .split("\n")
      .filter((l) => l.trim() && !l.includes("kubeplay.js"))
      .slice(0, 5);
    return [`${e.name}: ${e.message}`, ...frames].join("\n");
  };
  let result;
  try {
    result = reconcile({ namespace, name: input.request.name }, client);
  } catch (e) {
    // A reconcile that throws writes nothing; what it logged is kept.
    return JSON.stringify({ requests: [], logs, error: describe(e) });
  }
  if (result && typeof result.then === "function") {
    throw new TypeError("reconcile returned a Promise: write it without async/await (the sandbox runs no Promise jobs)");
  }
  let requeueAfter = null;
  if (result && typeof result === "object" && result.requeueAfter != null) {
    requeueAfter = Number(result.requeueAfter);
  }
  return JSON.stringify({ requests, logs, requeueAfter });
}
