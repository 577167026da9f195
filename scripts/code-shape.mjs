#!/usr/bin/env node
// The shape of the Rust code: the largest files, the longest functions and the module
// graph with its cycles. A reader's measure, not a test: it prints figures.
//
//   node scripts/code-shape.mjs [--files 15] [--fns 25] [--edges] [--check]
//
// --edges prints each edge inside a cycle with the place it was first seen; --check exits
// with 1 when there is any module or file cycle (the test command runs it so).
//
// Crates: engine/src (kubeplay_engine), src (the web app) and cli/src (kubeplay-cli). Test
// code (files named tests.rs, `#[cfg(test)] mod … { }` blocks) is left out. A "module" at --level top is
// the first path segment under the crate root (apiserver, scheduler, command, …); at
// --level file it is the file. An edge A → B is any `crate::B…` or `super::…` path in
// A's code (use lines and inline paths). Cycles are strongly connected components.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (k, d) => { const i = argv.indexOf(k); return i >= 0 ? argv[i + 1] : d; };
const topFiles = Number(opt('--files', 15));
const topFns = Number(opt('--fns', 25));
const showEdges = argv.includes('--edges');
const check = argv.includes('--check');
const crates = [['engine/src', 'engine'], ['src', 'app'], ['cli/src', 'cli']];

function walk(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else if (e.name.endsWith('.rs')) out.push(p);
  }
  return out.sort();
}

// Blank out comments, strings and char literals (keeping newlines and length), so that
// braces and paths are counted in code only.
function codeOnly(src) {
  const out = src.split('');
  const blank = (a, b) => { for (let k = a; k < b; k++) if (out[k] !== '\n') out[k] = ' '; };
  let i = 0;
  while (i < src.length) {
    const c = src[i], n = src[i + 1];
    if (c === '/' && n === '/') { const e = src.indexOf('\n', i); const end = e < 0 ? src.length : e; blank(i, end); i = end; continue; }
    if (c === '/' && n === '*') {
      let depth = 1, j = i + 2;
      while (j < src.length && depth > 0) {
        if (src[j] === '/' && src[j + 1] === '*') { depth++; j += 2; } else if (src[j] === '*' && src[j + 1] === '/') { depth--; j += 2; } else j++;
      }
      blank(i, j); i = j; continue;
    }
    const raw = /^b?r(#*)"/.exec(src.slice(i, i + 12));
    if (raw && !/[A-Za-z0-9_]/.test(src[i - 1] || '')) {
      const close = '"' + raw[1];
      const j = src.indexOf(close, i + raw[0].length);
      const end = j < 0 ? src.length : j + close.length;
      blank(i, end); i = end; continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < src.length && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
      blank(i, j + 1); i = j + 1; continue;
    }
    if (c === "'") {
      const m = /^'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'/.exec(src.slice(i, i + 12));
      if (m) { blank(i, i + m[0].length); i += m[0].length; continue; }
    }
    i++;
  }
  return out.join('');
}

// Ranges [start, end) of `#[cfg(test)]` items (a mod block or a single fn).
function testRanges(code) {
  const ranges = [];
  const re = /#\[cfg\(test\)\]\s*(pub\s+)?mod\s+\w+\s*(;|\{)/g;
  let m;
  while ((m = re.exec(code))) {
    if (m[2] === ';') continue;
    const open = m.index + m[0].length - 1;
    ranges.push([m.index, matchBrace(code, open)]);
  }
  return ranges;
}

function matchBrace(code, open) {
  let depth = 0;
  for (let j = open; j < code.length; j++) {
    if (code[j] === '{') depth++;
    else if (code[j] === '}') { depth--; if (depth === 0) return j + 1; }
  }
  return code.length;
}

const lineOf = (code, idx) => code.slice(0, idx).split('\n').length;

const files = [];
const fns = [];
const modEdges = Object.fromEntries(crates.map(([, c]) => [c, new Map()]));
const fileEdges = Object.fromEntries(crates.map(([, c]) => [c, new Map()]));
// Where each edge was first seen (file:line), by graph: what `--edges` prints.
const edgeAt = new Map();

for (const [dir, crate] of crates) {
  const base = path.join(root, dir);
  for (const f of walk(base)) {
    const rel = path.relative(root, f);
    const inCrate = path.relative(base, f).replace(/\\/g, '/');
    if (path.basename(f) === 'tests.rs' || inCrate.startsWith('bin/')) continue;
    const src = fs.readFileSync(f, 'utf8');
    const code = codeOnly(src);
    const tests = testRanges(code);
    const inTest = (idx) => tests.some(([a, b]) => idx >= a && idx < b);
    const testLines = tests.reduce((s, [a, b]) => s + lineOf(code, b) - lineOf(code, a) + 1, 0);
    files.push({ rel, lines: src.split('\n').length - (src.endsWith('\n') ? 1 : 0), testLines });
    // Functions: from the `fn` line to the closing brace of its body.
    const fnRe = /(^|\n)([ \t]*)((pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+([A-Za-z0-9_]+))/g;
    let m;
    while ((m = fnRe.exec(code))) {
      const at = m.index + m[1].length;
      if (inTest(at)) continue;
      // The body's brace: the first `{` before a `;` (a trait method without body has none).
      let j = at;
      while (j < code.length && code[j] !== '{' && code[j] !== ';') j++;
      if (code[j] !== '{') continue;
      const end = matchBrace(code, j);
      fns.push({ rel, name: m[9], line: lineOf(code, at), lines: lineOf(code, end) - lineOf(code, at) + 1 });
    }
    // Module edges.
    const modName = (p) => p.split('/')[0].replace(/\.rs$/, '');
    const self = modName(inCrate);
    const selfFile = inCrate.replace(/(\/mod)?\.rs$/, '');
    const here = inCrate.replace(/\.rs$/, '').split('/');
    const isModRs = here[here.length - 1] === 'mod' || inCrate === 'lib.rs' || inCrate === 'main.rs';
    const modulePath = isModRs ? here.slice(0, -1) : here; // this file's module path
    const add = (map, a, b, at) => {
      if (a === b) return;
      if (!map.has(a)) map.set(a, new Set());
      map.get(a).add(b);
      if (!edgeAt.has(map)) edgeAt.set(map, new Map());
      const k = `${a}\u0000${b}`;
      if (!edgeAt.get(map).has(k)) edgeAt.get(map).set(k, `${rel}:${lineOf(code, at)}`);
    };
    const body = code.split('').map((ch, k) => (inTest(k) ? ' ' : ch)).join('');
    // `use crate::x::{a, b::{c}}` groups are flattened enough for the first two segments.
    const pathRe = /\b(crate|super)((?:::[A-Za-z_][A-Za-z0-9_]*)+)(::\{([^}]*)\})?/g;
    while ((m = pathRe.exec(body))) {
      let segs = m[2].split('::').filter(Boolean);
      let target;
      if (m[1] === 'crate') target = segs;
      else {
        let up = modulePath.slice(0, -1);
        while (segs[0] === 'super') { up = up.slice(0, -1); segs = segs.slice(1); }
        target = [...up, ...segs];
      }
      const targets = [target];
      if (m[4]) for (const part of m[4].split(',')) { const s = part.trim().split('::')[0]; if (s && s !== 'self') targets.push([...target, s]); }
      for (const t of targets) {
        if (t.length === 0) continue;
        add(modEdges[crate], self, t[0], m.index);
        // File level: the longest prefix of `t` that is a file of the crate.
        for (let k = t.length; k > 0; k--) {
          const cand = t.slice(0, k).join('/');
          if (fs.existsSync(path.join(base, cand + '.rs')) || fs.existsSync(path.join(base, cand, 'mod.rs'))) {
            add(fileEdges[crate], selfFile, cand, m.index);
            break;
          }
        }
      }
    }
  }
}

function sccs(map) {
  const nodes = new Set([...map.keys(), ...[...map.values()].flatMap((s) => [...s])]);
  let index = 0; const idx = new Map(), low = new Map(), on = new Set(), stack = [], out = [];
  const strong = (v) => {
    idx.set(v, index); low.set(v, index); index++; stack.push(v); on.add(v);
    for (const w of map.get(v) || []) {
      if (!idx.has(w)) { strong(w); low.set(v, Math.min(low.get(v), low.get(w))); } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const c = []; let w;
      do { w = stack.pop(); on.delete(w); c.push(w); } while (w !== v);
      if (c.length > 1) out.push(c.sort());
    }
  };
  for (const v of [...nodes].sort()) if (!idx.has(v)) strong(v);
  return out;
}

files.sort((a, b) => b.lines - a.lines);
console.log(`files: ${files.length} Rust files, ${files.reduce((s, f) => s + f.lines, 0)} lines (tests.rs and bin/ left out)`);
console.log(`files over 800 lines: ${files.filter((f) => f.lines - f.testLines > 800).length}`);
console.log(`\nlargest files (lines; of which inline tests):`);
for (const f of files.slice(0, topFiles)) console.log(`  ${String(f.lines).padStart(5)}  ${f.rel}${f.testLines ? `  (${f.testLines} test)` : ''}`);
fns.sort((a, b) => b.lines - a.lines);
console.log(`\nfunctions: ${fns.length}; over 100 lines: ${fns.filter((f) => f.lines > 100).length}`);
console.log(`longest functions (lines):`);
for (const f of fns.slice(0, topFns)) console.log(`  ${String(f.lines).padStart(5)}  ${f.rel}:${f.line} ${f.name}`);
let cycles = 0;
for (const [, crate] of crates) {
  const top = sccs(modEdges[crate]);
  const file = sccs(fileEdges[crate]);
  console.log(`\n${crate}: module cycles (top-level modules): ${top.length}`);
  for (const c of top) { console.log(`  ${c.join(' ↔ ')}`); printEdges(modEdges[crate], c); }
  console.log(`${crate}: file cycles: ${file.length}`);
  for (const c of file) { console.log(`  ${c.join(' ↔ ')}`); printEdges(fileEdges[crate], c); }
  cycles += top.length + file.length;
}
if (check && cycles > 0) {
  console.error(`\ncode-shape: ${cycles} module or file cycle(s): the module graph must run one way (docs/architecture.md)`);
  process.exit(1);
}

// With --edges, each edge inside a cycle and where it was first seen.
function printEdges(map, members) {
  if (!showEdges) return;
  const inside = new Set(members);
  for (const a of members) {
    for (const b of [...(map.get(a) || [])].sort()) {
      if (inside.has(b)) console.log(`      ${a} → ${b}  (${edgeAt.get(map).get(`${a}\u0000${b}`)})`);
    }
  }
}
