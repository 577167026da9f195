#!/usr/bin/env node
// `kubeplay-cli serve` under the load the bounds issue describes, measured: how long
// /healthz takes and how much memory the server holds while, all at once,
//   - 500 connections sit idle,
//   - 100 watches from resourceVersion 0 on 10,000 Pods never read,
//   - one client sends a 63 MiB body,
//   - `sim advance 6h` runs the clock.
//
//   node scripts/serve-bounds.mjs [--bin target/release/kubeplay-cli] [--pods 10000]
//        [--idle 500] [--watches 100] [--body-mib 63] [--advance 6h] [--cap-seconds 180]
//        [--ulimit-kib N] [--check]
//
// `--ulimit-kib N` starts the server under `ulimit -v N` (its address space, in KiB).
// `--check` makes the run a test of behaviour, never of time: it exits 1 when the server
// died, a /healthz probe got no 200, `sim advance` was not answered, or the oversized body
// was not refused with 413. The latencies are printed either way.
//
// Build the binary first (cargo build --release -p kubeplay-cli). The server is started
// on a free port with its own kubeconfig; the script speaks whatever it serves — HTTPS with
// the kubeconfig's CA and token, or the plain HTTP of servers before it — so the same
// script measures an older binary too. Prints `name: value unit` lines: the figures
// before the load (the cluster's own memory), then /healthz's latency during it (p50, p99,
// max; a probe that got no answer within --cap-seconds counts as that long), the peak RSS
// (VmHWM), and the latency of 50 kept-alive requests in a row (the delayed-ACK check).
// Measurements, not a test: nothing here fails on a number.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

// The prober thread: /healthz every 100 ms until told to stop; posts the latencies.
if (!isMainThread) {
  const { port, headers, secure, capMs } = workerData.probe;
  const ca = workerData.probe.ca ? Buffer.from(workerData.probe.ca) : undefined;
  const lib = secure ? https : http;
  const probe = () => new Promise((res) => {
    const t0 = performance.now();
    const req = lib.request({ host: '127.0.0.1', port, path: '/healthz', ca, agent: false, headers }, (r) => {
      r.resume();
      r.on('end', () => res(r.statusCode === 200 ? performance.now() - t0 : -1));
    });
    req.setTimeout(capMs, () => { req.destroy(); res(-1); });
    req.on('error', () => res(-1));
    req.end();
  });
  const pending = [];
  let stop = false;
  parentPort.once('message', () => { stop = true; });
  while (!stop) {
    pending.push(probe());
    await new Promise((r) => setTimeout(r, 100));
  }
  parentPort.postMessage(await Promise.all(pending));
  process.exit(0);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (k, d) => { const i = argv.indexOf(k); return i >= 0 ? argv[i + 1] : d; };
const bin = path.resolve(root, opt('--bin', 'target/release/kubeplay-cli'));
const pods = Number(opt('--pods', 10000));
const idle = Number(opt('--idle', 500));
const watches = Number(opt('--watches', 100));
const bodyMiB = Number(opt('--body-mib', 63));
const advance = opt('--advance', '6h');
const capMs = Number(opt('--cap-seconds', 180)) * 1000;
const ulimitKib = opt('--ulimit-kib', null);
const check = argv.includes('--check');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const say = (name, v, unit = '') => console.log(`${name}: ${v}${unit ? ` ${unit}` : ''}`);

// The server, its kubeconfig, and how to talk to it.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubeplay-bounds-'));
const kubeconfig = path.join(dir, 'kubeconfig');
const serveArgs = ['serve', '--port', '0', '--kubeconfig', kubeconfig];
// Under `ulimit -v`, bash sets the limit and execs the server: the same process id.
const server = ulimitKib
  ? spawn('bash', ['-c', `ulimit -v ${Number(ulimitKib)} && exec "$0" "$@"`, bin, ...serveArgs], { stdio: ['ignore', 'pipe', 'inherit'] })
  : spawn(bin, serveArgs, { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((res, rej) => {
  let text = '';
  server.stdout.on('data', (d) => {
    text += d;
    const m = text.match(/serving the Kubernetes API on (\S+)/);
    if (m) res(new URL(m[1]));
  });
  server.on('exit', (c) => rej(new Error(`the server exited (${c})`)));
});
const secure = url.protocol === 'https:';
const kc = fs.readFileSync(kubeconfig, 'utf8');
const ca = secure ? Buffer.from(kc.match(/certificate-authority-data: (\S+)/)[1], 'base64') : undefined;
const token = (kc.match(/token: (\S+)/) || [])[1];
const headers = token ? { Authorization: `Bearer ${token}` } : {};
const port = Number(url.port);
const lib = secure ? https : http;

function rss(field) {
  const s = fs.readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Number(s.match(new RegExp(`${field}:\\s+(\\d+)`))[1]) / 1024;
}

// One request; resolves with { status, body, ms } (status 0: no answer in time).
function request(method, p, { body, contentType, agent, timeout = capMs } = {}) {
  const t0 = performance.now();
  return new Promise((res) => {
    const req = lib.request({
      host: '127.0.0.1', port, method, path: p, ca, agent: agent ?? false,
      headers: { ...headers, ...(contentType ? { 'Content-Type': contentType } : {}), ...(body ? { 'Content-Length': body.length } : {}) },
    }, (r) => {
      const chunks = [];
      r.on('data', (c) => chunks.push(c));
      r.on('end', () => res({ status: r.statusCode, body: Buffer.concat(chunks).toString(), ms: performance.now() - t0 }));
      r.on('error', () => res({ status: r.statusCode, body: '', ms: performance.now() - t0 }));
    });
    req.setTimeout(timeout, () => { req.destroy(); res({ status: 0, body: '', ms: timeout }); });
    req.on('error', (e) => res({ status: 0, body: String(e), ms: performance.now() - t0 }));
    if (body) req.end(body); else req.end();
  });
}

const sim = (words) => secure
  ? request('POST', '/kubeplay/v1/sim', { body: Buffer.from(JSON.stringify({ command: words })), contentType: 'application/json' })
  : request('POST', '/kubeplay/v1/sim', { body: Buffer.from(words), contentType: 'text/plain' });

// A connection that sends `head` (or nothing) and then never reads.
function stuck(head) {
  return new Promise((res) => {
    const s = secure
      ? tls.connect({ host: '127.0.0.1', port, ca }, () => { if (head) s.write(head); s.pause(); res(s); })
      : net.connect({ host: '127.0.0.1', port }, () => { if (head) s.write(head); s.pause(); res(s); });
    s.on('error', () => res(s));
  });
}

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0; };
const r1 = (x) => Math.round(x * 10) / 10;

// The world: enough nodes for the Pods, a Deployment of them, the clock run until they exist.
const nodes = Math.ceil(pods / 100);
console.error(`setting up ${pods} Pods on ${nodes} nodes…`);
await sim(`reset --nodes ${nodes}`);
const dep = JSON.stringify({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'bulk' },
  spec: { replicas: pods, selector: { matchLabels: { app: 'bulk' } },
    template: { metadata: { labels: { app: 'bulk' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } },
});
await request('POST', '/apis/apps/v1/namespaces/default/deployments', { body: Buffer.from(dep), contentType: 'application/json' });
await sim('advance 2m');
const list = await request('GET', '/api/v1/pods?limit=0');
say('pods', (list.body.match(/"kind":"Pod"/g) || []).length);
say('protocol', secure ? 'https' : 'http');
say('rss before the load', r1(rss('VmRSS')), 'MiB');
const quiet = [];
for (let i = 0; i < 20; i++) quiet.push((await request('GET', '/healthz')).ms);
say('healthz before the load p50', r1(pct(quiet, 0.5)), 'ms');

// The load, all at once.
console.error(`loading: ${idle} idle connections, ${watches} watches that never read, a ${bodyMiB} MiB body, sim advance ${advance}…`);
const t0 = performance.now();
const held = [];
for (let i = 0; i < idle; i++) held.push(stuck(null));
const auth = token ? `Authorization: Bearer ${token}\r\n` : '';
const watchHead = `GET /api/v1/pods?watch=1&resourceVersion=0 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${auth}\r\n`;
for (let i = 0; i < watches; i++) held.push(stuck(watchHead));
const big = Buffer.alloc(bodyMiB << 20, 0x20);
big.write('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"big"},"data":{"x":"');
big.write('"}}', big.length - 3);
const bodyDone = request('POST', '/api/v1/namespaces/default/configmaps', { body: big, contentType: 'application/json' });
let simDone = null;
const advanced = sim(`advance ${advance}`).then((r) => { simDone = performance.now(); return r; });
// /healthz every 100 ms, each on a connection of its own, until the clock got there —
// from a thread of its own, so the load's own work in this process does not delay it.
const prober = new Worker(new URL(import.meta.url), {
  workerData: { probe: { port, ca, headers, secure, capMs } },
});
let peakRss = 0;
while (simDone === null && performance.now() - t0 < capMs) {
  try { peakRss = Math.max(peakRss, rss('VmRSS')); } catch { break; }
  await sleep(100);
}
prober.postMessage('stop');
const probed = await new Promise((res) => prober.once('message', res));
// A probe that got no 200 in time counts as the cap in the latencies.
const failed = probed.filter((ms) => ms < 0).length;
const latencies = probed.map((ms) => (ms < 0 ? capMs : ms));
const [b, a] = await Promise.all([bodyDone, Promise.race([advanced, sleep(1000).then(() => ({ status: 0 }))])]);
say('load seconds', r1((performance.now() - t0) / 1000));
say('sim advance answered', a.status === 200 ? `after ${r1((simDone - t0) / 1000)} s` : 'no');
say(`${bodyMiB} MiB body answered`, b.status || 'no answer');
say('healthz probes', latencies.length);
say('healthz probes without a 200', failed);
say('healthz during the load p50', r1(pct(latencies, 0.5)), 'ms');
say('healthz during the load p99', r1(pct(latencies, 0.99)), 'ms');
say('healthz during the load max', r1(Math.max(...latencies)), 'ms');
say('rss during the load max', r1(peakRss), 'MiB');
say('rss peak (VmHWM)', r1(rss('VmHWM')), 'MiB');
for (const s of await Promise.all(held)) s.destroy();

// Kept-alive requests in a row: each should not wait for the client's delayed ACK.
const agent = new lib.Agent({ keepAlive: true, maxSockets: 1, ca });
const row = [];
for (let i = 0; i < 51; i++) row.push((await request('GET', '/version', { agent })).ms);
row.shift();
say('kept-alive /version p50', r1(pct(row, 0.5)), 'ms');
agent.destroy();
const alive = server.exitCode === null && server.signalCode === null;
server.kill();
fs.rmSync(dir, { recursive: true, force: true });
if (check) {
  const wrong = [];
  if (!alive) wrong.push('the server died');
  if (failed > 0) wrong.push(`${failed} /healthz probes got no 200`);
  if (a.status !== 200) wrong.push('sim advance was not answered');
  if (b.status !== 413) wrong.push(`the ${bodyMiB} MiB body got ${b.status || 'no answer'}, not 413`);
  if (row.some((ms) => ms >= capMs)) wrong.push('a kept-alive /version got no answer');
  if (wrong.length) {
    console.error(`FAILED: ${wrong.join('; ')}`);
    process.exit(1);
  }
  console.log('ok: the server answered every request under the load');
}
