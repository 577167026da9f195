// From a real cluster and back, in the page: a snapshot chosen with the file picker
// becomes the world (its nodes, Deployments and running Pods), the page says the files
// go nowhere, a broken file is refused and changes nothing, and the three exports
// download what they promise.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, openPage, shot, root } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const sample = path.join(root, 'docs', 'sample-cluster.json');

async function downloaded(page, testid) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  return fs.readFileSync(await d.path(), 'utf8');
}

test('a snapshot chosen in the page becomes the world, read in the page only, and exports back', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?speed=5`, { width: 1366, height: 900 });
  await page.getByTestId('pod').first().waitFor();
  const panel = page.getByTestId('import');
  await panel.locator('summary').click();
  await panel.getByTestId('import-privacy').getByText('Nothing leaves this page').waitFor();
  // A broken file: refused, with the file and the object named; the world stays.
  const bad = path.join(fs.mkdtempSync('/tmp/kubeplay-import-'), 'broken.json');
  fs.writeFileSync(bad, '{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":"three"}}]}');
  await panel.getByTestId('import-files').setInputFiles(bad);
  await panel.getByTestId('import-error').getByText('error importing broken.json: Deployment web: spec.replicas').waitFor();
  assert.equal(await page.getByTestId('node').count(), 3, 'the playground is still there');
  // The sample: 12 nodes in three zones, its workloads running where they ran.
  await panel.getByTestId('import-files').setInputFiles(sample);
  const report = panel.getByTestId('import-report');
  await report.getByText(/imported \d+ objects from 1 file: .*12 Node/).waitFor();
  await report.getByText('28 running kept on their nodes').waitFor();
  await report.getByText(/CustomResourceDefinition/).waitFor();
  await page.getByTestId('deployment-web').getByText('ready 6/6').waitFor();
  // Its 12 Pods in kube-system (one kube-proxy per node) are not drawn in the chain.
  assert.equal(await page.getByTestId('chain').getByTestId('pod').count(), 28 - 12);
  await page.screenshot({ path: shot('import-en.png') });
  // A share link cannot carry it.
  await page.getByTestId('share').click();
  assert.match(await page.getByTestId('share-url').inputValue(), /cannot carry it/);
  // The exports.
  const yaml = await downloaded(page, 'export-manifests');
  assert.match(yaml, /kind: Deployment\n/);
  assert.match(yaml, /kind: StatefulSet\n/);
  assert.doesNotMatch(yaml, /uid:|resourceVersion:|kind: ReplicaSet|status:/);
  const snapshot = JSON.parse(await downloaded(page, 'export-snapshot'));
  assert.equal(snapshot.kind, 'List');
  assert.equal(snapshot.items.filter((o) => o.kind === 'Pod').length, 28);
  const script = await downloaded(page, 'export-script');
  assert.match(script, /^# A kubeplay session/);
  assert.match(script, /\nsim import -f - <<EOF\n\{/);
  assert.deepEqual(errors, []);
  await page.close();
});
