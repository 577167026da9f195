#!/usr/bin/env node
// Writes engine/src/printers/go_types.txt: for every Go struct the served kinds reach in
// k8s.io/api (and apimachinery's meta/v1), its JSON fields in declaration order, each
// with its omitempty flag and its type. kubectl prints an object it holds as a Go type
// (`kubectl create deployment … -o json`, `run`, `expose`, `set image`) as Go's
// encoding/json writes that struct: fields in this order, and the zero value of every
// field that is not omitempty. The engine reads this table to print the same.
//
// Usage, with the two repositories checked out at the tag the engine mirrors:
//   git clone -b v0.33.0 https://github.com/kubernetes/api /tmp/k8s-api
//   git clone -b v0.33.0 https://github.com/kubernetes/apimachinery /tmp/k8s-apim
//   node scripts/go-types.mjs /tmp/k8s-api /tmp/k8s-apim
//
// One line per struct: `PKG.Name field:FLAGS:TYPE …`, FLAGS `o` for omitempty, `i` for
// an inlined embedded struct; TYPE is `s` (string), `i` (integer), `f` (float), `b`
// (bool), `t` (a metav1 time: null when zero), `q` (a Quantity), `x` (an IntOrString),
// `r` (raw JSON), `*T`, `[]T`, `{}T` (a map keyed by strings), or a struct `PKG.Name`.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [apiDir, machineryDir] = process.argv.slice(2);
if (!apiDir || !machineryDir) {
  console.error('usage: node scripts/go-types.mjs K8S_IO_API_DIR K8S_IO_APIMACHINERY_DIR');
  process.exit(2);
}

// Import paths to the short package names the table uses.
const PACKAGES = {
  'k8s.io/apimachinery/pkg/apis/meta/v1': ['meta/v1', path.join(machineryDir, 'pkg/apis/meta/v1')],
};
for (const gv of ['core/v1', 'apps/v1', 'batch/v1', 'autoscaling/v1', 'autoscaling/v2', 'policy/v1',
  'scheduling/v1', 'coordination/v1', 'discovery/v1', 'storage/v1', 'rbac/v1', 'networking/v1',
  'authentication/v1', 'events/v1']) {
  PACKAGES[`k8s.io/api/${gv}`] = [gv, path.join(apiDir, gv)];
}
// Types Go encodes by their own MarshalJSON.
const SPECIAL = {
  'meta/v1.Time': 't', 'meta/v1.MicroTime': 't', 'meta/v1.Duration': 's', 'meta/v1.FieldsV1': 'r',
  'resource.Quantity': 'q', 'intstr.IntOrString': 'x', 'runtime.RawExtension': 'r', 'types.UID': 's',
};
const ROOTS = {
  'core/v1': ['Pod', 'Node', 'Event', 'Namespace', 'Service', 'Endpoints', 'ConfigMap', 'Secret',
    'ServiceAccount', 'ResourceQuota', 'LimitRange', 'PersistentVolumeClaim', 'PersistentVolume'],
  'apps/v1': ['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'ControllerRevision'],
  'batch/v1': ['Job', 'CronJob'],
  'autoscaling/v2': ['HorizontalPodAutoscaler'],
  'autoscaling/v1': ['HorizontalPodAutoscaler', 'Scale'],
  'policy/v1': ['PodDisruptionBudget', 'Eviction'],
  'scheduling/v1': ['PriorityClass'],
  'coordination/v1': ['Lease'],
  'discovery/v1': ['EndpointSlice'],
  'storage/v1': ['StorageClass'],
  'rbac/v1': ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'],
  'networking/v1': ['Ingress', 'IngressClass', 'NetworkPolicy'],
  'authentication/v1': ['TokenRequest'],
  'events/v1': ['Event'],
};

/** Every package's named types: name → {struct: fields} or {alias: type expression},
 *  with the file's imports to resolve qualified names. */
const packages = {};
function load(short, dir) {
  if (packages[short]) return packages[short];
  const types = {};
  for (const f of fs.readdirSync(dir).sort()) {
    if (!f.endsWith('.go') || f.endsWith('_test.go') || f.startsWith('zz_generated')
      || f.startsWith('generated')) continue;
    const src = fs.readFileSync(path.join(dir, f), 'utf8');
    const imports = {};
    for (const m of src.matchAll(/^\s*(\w+\s+)?"([^"]+)"\s*$/gm)) {
      const p = m[2];
      const alias = m[1] ? m[1].trim() : p.split('/').pop();
      imports[alias] = p;
    }
    const lines = src.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const s = lines[i].match(/^type (\w+) struct \{\s*$/);
      if (s) {
        const fields = [];
        let depth = 1;
        for (i++; i < lines.length && depth > 0; i++) {
          const l = lines[i].replace(/\/\/.*$/, '');
          if (/\{\s*$/.test(l) && !/`/.test(l)) depth++;
          if (/^\s*\}\s*$/.test(l)) { depth--; continue; }
          if (depth !== 1 || /^\s*\/\//.test(lines[i])) continue;
          const tag = lines[i].match(/`[^`]*json:"([^"]*)"[^`]*`/);
          if (!tag) continue;
          const decl = lines[i].slice(0, lines[i].indexOf('`')).trim().split(/\s+/);
          const [jsonName, ...opts] = tag[1].split(',');
          if (jsonName === '-') continue;
          const goType = decl.length === 1 ? decl[0] : decl[1];
          fields.push({ name: jsonName, omitempty: opts.includes('omitempty'),
            inline: opts.includes('inline'), type: goType });
        }
        i--;
        types[s[1]] = { struct: fields, imports };
        continue;
      }
      const a = lines[i].match(/^type (\w+) ([\w.\[\]*]+)\s*(\/\/.*)?$/);
      if (a && a[2] !== 'struct') types[a[1]] = { alias: a[2], imports };
    }
  }
  packages[short] = types;
  return types;
}

function shortOf(importPath) {
  if (PACKAGES[importPath]) return PACKAGES[importPath][0];
  return importPath.split('/').pop();
}

const table = new Map();
const queue = [];

/** A type expression in `pkg` as the table writes it. */
function resolve(pkg, expr, imports) {
  if (expr.startsWith('*')) return '*' + resolve(pkg, expr.slice(1), imports);
  if (expr === '[]byte') return 's';
  if (expr.startsWith('[]')) return '[]' + resolve(pkg, expr.slice(2), imports);
  const map = expr.match(/^map\[[\w.]+\](.+)$/);
  if (map) return '{}' + resolve(pkg, map[1], imports);
  if (expr === 'string') return 's';
  if (/^u?int(8|16|32|64)?$/.test(expr)) return 'i';
  if (/^float(32|64)$/.test(expr)) return 'f';
  if (expr === 'bool') return 'b';
  let [q, name] = expr.includes('.') ? expr.split('.') : [null, expr];
  const p = q ? shortOf(imports[q] ?? q) : pkg;
  const id = `${p}.${name}`;
  if (SPECIAL[id]) return SPECIAL[id];
  const entry = Object.entries(PACKAGES).find(([, [s]]) => s === p);
  if (!entry) throw new Error(`unknown package of ${expr} in ${pkg}`);
  const t = load(p, entry[1][1])[name];
  if (!t) throw new Error(`unknown type ${id}`);
  if (t.alias) return resolve(p, t.alias, t.imports);
  if (!table.has(id)) {
    table.set(id, null);
    queue.push([p, name]);
  }
  return id;
}

for (const [pkg, names] of Object.entries(ROOTS)) {
  const imports = { self: `k8s.io/api/${pkg}` };
  for (const n of names) resolve(pkg, `self.${n}`, imports);
}
while (queue.length) {
  const [pkg, name] = queue.shift();
  const entry = Object.entries(PACKAGES).find(([, [s]]) => s === pkg);
  const t = load(pkg, entry[1][1])[name];
  table.set(`${pkg}.${name}`, t.struct.map((f) => {
    const flags = (f.omitempty ? 'o' : '') + (f.inline ? 'i' : '');
    return `${f.name}:${flags}:${resolve(pkg, f.type, t.imports)}`;
  }));
}

const out = [...table.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  .map(([id, fields]) => `${id} ${fields.join(' ')}`.trimEnd()).join('\n') + '\n';
const here = path.dirname(fileURLToPath(import.meta.url));
const target = path.join(here, '..', 'engine', 'src', 'printers', 'go_types.txt');
fs.writeFileSync(target, out);
console.log(`${table.size} structs, ${out.length} bytes → ${path.relative(process.cwd(), target)}`);
