#!/usr/bin/env node
// The bounded-resources run of the test command: kubeplay-cli's release build given the
// worst inputs within the documented bounds, each under `ulimit -v` (its address space):
//
//   - a link's worth of commands (20,000 characters): a YAML alias bomb, an int32-max
//     StatefulSet, a Deployment scaled to int32 max, then ten minutes of simulated time;
//   - a forged completion record whose lesson is an alias bomb;
//   - a 198 KB scenario file whose step texts alias one long string;
//     each of these under 256 MiB;
//   - a year of simulated time, a day a command, with a minutely CronJob, under 256 MiB;
//   - `serve` under 1 GiB, answering /healthz during 500 idle connections, 100 watches
//     that never read, a 63 MiB body and `sim advance 6h` (scripts/serve-bounds.mjs).
//
//   node scripts/bounds.mjs [--bin target/release/kubeplay-cli] [--days 365] [--no-serve]
//
// A case fails when its process is killed or aborts (what running out of its address space
// does), or when it answers otherwise than it should. Wall time and peak resident memory
// (VmHWM, sampled every 10 ms) are printed, never asserted: this is a test of bounds, and
// a loaded machine is slower.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (k, d) => { const i = argv.indexOf(k); return i >= 0 ? argv[i + 1] : d; };
const bin = path.resolve(root, opt('--bin', 'target/release/kubeplay-cli'));
const days = Number(opt('--days', 365));
const MiB = 1024;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubeplay-bounds-'));
const failures = [];

// Run `bin args` under `ulimit -v kib`, with `stdin`; resolve with its exit, output, wall
// time and sampled peak resident memory.
function limited(kib, args, stdin = '') {
  return new Promise((res) => {
    const t0 = performance.now();
    const p = spawn('bash', ['-c', `ulimit -v ${kib} && exec "$0" "$@"`, bin, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let peak = 0;
    p.stdout.on('data', (d) => { out += d; if (out.length > 1 << 20) out = out.slice(-(1 << 19)); });
    p.stderr.on('data', (d) => { out += d; });
    const sample = setInterval(() => {
      try {
        const s = fs.readFileSync(`/proc/${p.pid}/status`, 'utf8');
        const m = s.match(/VmHWM:\s+(\d+)/);
        if (m) peak = Math.max(peak, Number(m[1]));
      } catch { /* gone */ }
    }, 10);
    p.on('close', (code, signal) => {
      clearInterval(sample);
      res({ code, signal, out, seconds: (performance.now() - t0) / 1000, peakMiB: peak / 1024 });
    });
    // A process that exits without reading all of its input (it refused the input, or
    // reads a file instead) closes the pipe: the write's EPIPE is not a finding.
    p.stdin.on('error', () => {});
    p.stdin.end(stdin);
  });
}

async function check(name, kib, args, stdin, wanted) {
  const r = await limited(kib, args, stdin);
  const verdict = r.signal || ![0, 1, 2].includes(r.code)
    ? `killed or aborted (${r.signal || `exit ${r.code}`})`
    : wanted(r);
  // A process done before the first sample has no peak to show.
  const peak = r.peakMiB > 0 ? `${r.peakMiB.toFixed(1)} MiB` : 'under one sample';
  console.log(`${name}: ${r.seconds.toFixed(2)} s, peak ${peak} resident, `
    + `under ulimit -v ${kib / MiB} MiB: ${verdict || 'ok'}`);
  if (process.env.KUBEPLAY_BOUNDS_VERBOSE) console.log(r.out.slice(-600));
  if (verdict) {
    failures.push(`${name}: ${verdict}`);
    console.log(r.out.slice(-2000));
  }
}

const bomb = (scalar, aliases) => `{metadata: {annotations: {a: &x "${'y'.repeat(scalar)}", b: [${Array(aliases).fill('*x').join(',')}]}}}`;

// 1. A link's commands, at most 20,000 characters.
const sts = [
  'kubectl apply -f - <<YAML',
  'apiVersion: apps/v1', 'kind: StatefulSet', 'metadata: {name: db}',
  'spec:', '  replicas: 2147483647', '  podManagementPolicy: Parallel', '  serviceName: db',
  '  selector: {matchLabels: {app: db}}', '  template:', '    metadata: {labels: {app: db}}',
  '    spec: {containers: [{name: pg, image: "postgres:16"}]}', 'YAML',
].join('\n');
const link = [
  `kubectl patch node node-1 -p '${bomb(9000, 2000)}'   # expect error`,
  'kubectl create deployment web --image=nginx:1.27 --replicas=3',
  sts,
  'sim advance 1m',
  'kubectl scale deployment web --replicas=2147483647',
  'sim advance 10m',
  'kubectl get statefulset db',
  'kubectl get deployment web',
  'kubectl get events --field-selector reason=FailedCreate',
].join('\n') + '\n';
if (link.length > 20000) throw new Error(`the link is ${link.length} characters`);
await check('link (run -, 20,000 characters)', 256 * MiB, ['run', '-'], link, (r) => {
  if (r.code !== 0) return `exit ${r.code}`;
  if (!r.out.includes('excessive aliasing')) return 'the alias bomb was not refused';
  return r.out.includes('kubeplay-pod-limit') ? '' : 'the Pod limit was not met';
});

// 2. A forged completion record: its lesson is an alias bomb of 19.8 KB.
const version = fs.readFileSync(path.join(root, 'engine/Cargo.toml'), 'utf8').match(/^version = "([^"]+)"/m)[1];
const lessonBomb = `id: bomb\ntitle: x\nsteps:\n  - text: &x "${'y'.repeat(10000)}"\n    command: sim time\n`
  + '  - text: *x\n    command: sim time\n'.repeat(260);
const record = JSON.stringify({
  format: 'kubeplay-completion', v: 1, kubeplay: version, lesson: { yaml: lessonBomb },
  seed: 1, acts: [[0, { r: 'sim time' }]], goals: [], now: 0,
});
fs.writeFileSync(path.join(dir, 'record.json'), record);
await check(`forged record (${(record.length / 1000).toFixed(1)} KB)`, 256 * MiB, ['verify', path.join(dir, 'record.json')], '', (r) =>
  (r.code !== 0 && r.out.includes('excessive aliasing') ? '' : 'the forgery was not refused for its aliases'));

// 3. A 198 KB scenario whose step texts alias one long string.
const scenario = `id: bomb\ntitle: x\nsteps:\n  - text: &x "${'y'.repeat(100000)}"\n    command: sim time\n`
  + '  - text: *x\n    command: sim time\n'.repeat(2700);
fs.writeFileSync(path.join(dir, 'bomb.yaml'), scenario);
await check(`scenario (${(scenario.length / 1000).toFixed(0)} KB)`, 256 * MiB, ['scenario', path.join(dir, 'bomb.yaml')], '', (r) =>
  (r.out.includes('excessive aliasing') ? '' : 'the scenario was not refused'));

// 4. A year with a minutely CronJob, a day a command.
const year = 'kubectl create cronjob tick --image=busybox:1.36 --schedule="* * * * *" -- true\n'
  + 'sim advance 24h\n'.repeat(days) + 'kubectl get cronjob tick\n';
await check(`${days} days of a minutely CronJob`, 256 * MiB, ['run', '-'], year, (r) => {
  if (r.code !== 0) return `exit ${r.code}`;
  // kubectl's HumanDuration: 24h for one day, then whole days.
  const age = days === 1 ? '24h' : `${days}d`;
  return new RegExp(`^tick +\\* \\* \\* \\* \\* .* ${age}$`, 'm').test(r.out) ? '' : 'the CronJob did not reach its age';
});

// 5. serve under load, under 1 GiB.
if (!argv.includes('--no-serve')) {
  const s = spawnSync('node', [path.join(root, 'scripts/serve-bounds.mjs'), '--bin', bin, '--ulimit-kib', String(1024 * MiB), '--check'], { stdio: 'inherit' });
  if (s.status !== 0) failures.push(`serve under load: exit ${s.status}`);
}

fs.rmSync(dir, { recursive: true, force: true });
if (failures.length) {
  console.error(`FAILED:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('ok: every bounded-resources case');
