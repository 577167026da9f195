// Verify a kubeplay completion record in Node, with the page's own WebAssembly module
// (no Rust toolchain needed): `node scripts/verify-record.mjs RECORD.json [DIST]`.
// Prints the verdict as kubeplay-cli verify does; exit 0 when it passed, 1 when refused
// or incomplete, 2 when the files cannot be read. A course server imports
// `loadVerifier` and calls the function it returns with the record's JSON text.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

/** Load the verifier from a built `dist/` folder: returns `verify(json) -> verdict`. */
export async function loadVerifier(dist) {
  const files = fs.readdirSync(dist);
  const js = files.find((f) => /^kubeplay-[0-9a-f]+\.js$/.test(f));
  const wasm = files.find((f) => /^kubeplay-[0-9a-f]+_bg\.wasm$/.test(f));
  if (!js || !wasm) throw new Error(`no kubeplay module in ${dist} (build it first)`);
  const mod = await import(pathToFileURL(path.join(dist, js)).href);
  mod.initSync({ module: fs.readFileSync(path.join(dist, wasm)) });
  return (json) => JSON.parse(mod.verify_record(json));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [record, dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist')] = process.argv.slice(2);
  let text;
  let verify;
  try {
    text = fs.readFileSync(record === '-' ? 0 : record, 'utf8');
    verify = await loadVerifier(dist);
  } catch (e) {
    console.error(`verify-record: ${e.message}`);
    process.exit(2);
  }
  const v = verify(text);
  process.stdout.write(v.report);
  process.exit(v.passed ? 0 : 1);
}
