// The official JavaScript client (@kubernetes/client-node 1.4.0) against
// `kubeplay-cli serve`, on the paths its users take: typed reads, a Deployment
// created and scaled by a merge patch, a watch that ends by its timeout, a
// ServiceAccount token used as a bearer, and an error body.
//
//     KUBECONFIG=… node target/node-clients/client_node.mjs
//
// Prints one line per check and exits 1 when any failed. Run by
// scripts/node-client.sh.
import * as k8s from '@kubernetes/client-node';

const kc = new k8s.KubeConfig();
kc.loadFromDefault();
const core = kc.makeApiClient(k8s.CoreV1Api);
const apps = kc.makeApiClient(k8s.AppsV1Api);
const failures = [];

async function check(name, fn) {
  try {
    await fn();
    console.log(`ok   ${name}`);
  } catch (e) {
    failures.push(name);
    console.log(`FAIL ${name}\n     ${e?.stack ?? e}`);
  }
}

function assert(cond, what) {
  if (!cond) throw new Error(`assertion failed: ${what}`);
}

await check('Nodes and Pods decode as typed objects', async () => {
  const nodes = await core.listNode();
  assert(nodes.items.length > 0, 'some nodes');
  assert(nodes.items[0].status.nodeInfo.kubeletVersion.startsWith('v1.33'), 'kubelet version');
  await core.listPodForAllNamespaces();
});

await check('a Deployment created, read back and scaled by a merge patch', async () => {
  await apps.createNamespacedDeployment({
    namespace: 'default',
    body: {
      metadata: { name: 'js-web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'js-web' } },
        template: {
          metadata: { labels: { app: 'js-web' } },
          spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
        },
      },
    },
  });
  const d = await apps.readNamespacedDeployment({ name: 'js-web', namespace: 'default' });
  assert(d.spec.strategy.type === 'RollingUpdate', 'defaults filled in');
  await apps.patchNamespacedDeploymentScale(
    { name: 'js-web', namespace: 'default', body: { spec: { replicas: 3 } } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
  );
  const s = await apps.readNamespacedDeploymentScale({ name: 'js-web', namespace: 'default' });
  assert(s.spec.replicas === 3, `scaled to 3, got ${s.spec.replicas}`);
});

await check('a watch sees its objects and ends by its timeout', async () => {
  const seen = [];
  await new Promise((resolve, reject) => {
    new k8s.Watch(kc)
      .watch(
        '/api/v1/namespaces/default/configmaps',
        { timeoutSeconds: 1 },
        (type, obj) => seen.push(`${type} ${obj.metadata.name}`),
        (err) => (err ? reject(err) : resolve()),
      )
      .catch(reject);
  });
  assert(seen.includes('ADDED kube-root-ca.crt'), `events: ${seen}`);
  // The connection still serves the next request.
  await core.listNamespacedConfigMap({ namespace: 'default' });
});

await check('a ServiceAccount token authenticates as its account', async () => {
  await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'js-robot' } } });
  const tr = await core.createNamespacedServiceAccountToken({
    name: 'js-robot',
    namespace: 'default',
    body: { spec: { expirationSeconds: 3600 } },
  });
  const robot = new k8s.KubeConfig();
  const cluster = kc.getCurrentCluster();
  robot.loadFromOptions({
    clusters: [cluster],
    users: [{ name: 'js-robot', token: tr.status.token }],
    contexts: [{ name: 'robot', cluster: cluster.name, user: 'js-robot' }],
    currentContext: 'robot',
  });
  try {
    await robot.makeApiClient(k8s.CoreV1Api).listNamespacedPod({ namespace: 'default' });
    throw new Error('a new account may not list pods');
  } catch (e) {
    assert(e.code === 403, `403, got ${e.code}`);
    assert(String(e.body).includes('system:serviceaccount:default:js-robot'), 'named in the refusal');
  }
});

await check('an error carries the API server Status', async () => {
  try {
    await core.readNamespacedPod({ name: 'nope', namespace: 'default' });
    throw new Error('no error');
  } catch (e) {
    assert(e.code === 404, `404, got ${e.code}`);
    const status = JSON.parse(e.body);
    assert(status.reason === 'NotFound' && status.message === 'pods "nope" not found', e.body);
  }
});

console.log(failures.length ? `${failures.length} of the checks failed` : 'every check passed');
process.exit(failures.length ? 1 : 0);
