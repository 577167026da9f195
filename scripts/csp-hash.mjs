// Trunk post_build hook: put the SHA-256 of every inline <script> of the staged
// index.html into its Content-Security-Policy, in place of the 'sha256-LOADER'
// placeholder. Trunk writes its wasm loader inline (a <script type="module"> that names
// the hashed file names, so its text changes with every build): a hash allows exactly
// that script and nothing else, where 'unsafe-inline' would allow any.
//
//   node scripts/csp-hash.mjs [path/to/index.html]   (default: $TRUNK_STAGING_DIR/index.html)
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

const file = process.argv[2] ?? path.join(process.env.TRUNK_STAGING_DIR ?? 'dist', 'index.html');
const html = fs.readFileSync(file, 'utf8');
const placeholder = "'sha256-LOADER'";
// The placeholder in the policy's meta tag (index.html's comments name it too).
const meta = /(<meta http-equiv="Content-Security-Policy" content="[^"]*)'sha256-LOADER'/;
if (!meta.test(html)) {
  console.error(`csp-hash: no ${placeholder} in ${file}: its CSP would block the loader`);
  process.exit(1);
}
const hashes = [];
for (const m of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
  // `trunk serve`'s live-reload script gets its address filled in when served, so no
  // hash taken here could match it (scripts/serve.sh turns it off).
  if (m[1].includes('{{__TRUNK_')) continue;
  hashes.push(`'sha256-${crypto.createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
}
if (hashes.length === 0) {
  console.error(`csp-hash: no inline script in ${file}`);
  process.exit(1);
}
fs.writeFileSync(file, html.replace(meta, (_, before) => before + hashes.join(' ')));
console.log(`csp-hash: ${file}: ${hashes.join(' ')}`);
