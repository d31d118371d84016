// The model as the one query API: pod counts (replicas, HPA, Job parallelism) derived once, the consumers and claims of
// workloads, and driver capabilities with each model's own configured overrides (no process-wide state between models).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runRules } from '../../src/engine/run-rules.js';
import { parseResources } from '../../src/load/parse-resources.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import type { DriverOverride } from '../../src/model/cluster-facts.js';
import { StorageModel } from '../../src/model/storage-model.js';
import { defaultRuleSettings } from '../../src/registry.js';
import type { Resource } from '../../src/types.js';

const test = suite('model query API');

function model(text: string, drivers: DriverOverride[] = []): StorageModel {
  const resources: Resource[] = parseResources(makeSourceFile('/virtual/all.yaml', 'all.yaml', text)).resources;
  return new StorageModel(resources, { scope: 'test', cluster: { drivers } });
}

const deployment = (name: string, extra: string, namespace = 'shop') => `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: ${namespace}}
spec:
${extra}  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: app, image: app, volumeMounts: [{name: data, mountPath: /data}, {name: copy, mountPath: /copy, readOnly: true}]}]
      volumes:
        - {name: data, persistentVolumeClaim: {claimName: data}}
        - {name: copy, persistentVolumeClaim: {claimName: data}}
`;

const hpa = (target: string, max: number, namespace = 'shop') => `---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: ${target}-hpa, namespace: ${namespace}}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: ${target}}
  minReplicas: 1
  maxReplicas: ${max}
`;

const template = (m: StorageModel, name: string) => m.templates.find((t) => t.workload.name === name)!;

test('podCount: replicas, an HPA that allows more pods, an HPA that allows one, an HPA of another namespace', () => {
  const m = model(
    deployment('fixed', '  replicas: 3\n') +
      deployment('scaled', '  replicas: 2\n') + hpa('scaled', 6) +
      deployment('capped', '  replicas: 3\n') + hpa('capped', 1) +
      deployment('elsewhere', '  replicas: 2\n') + hpa('elsewhere', 9, 'other') +
      deployment('defaulted', ''),
  );
  const fixed = m.podCount(template(m, 'fixed'));
  assert.is(fixed.kind, 'count');
  if (fixed.kind === 'count') {
    assert.is(fixed.count, 3);
    assert.is(fixed.field, 'replicas');
  }
  assert.equal(fixed.countPath, ['spec', 'replicas']);
  assert.is(fixed.autoscaler, undefined);

  const scaled = m.podCount(template(m, 'scaled'));
  assert.is(scaled.kind, 'autoscaled');
  if (scaled.kind === 'autoscaled') {
    assert.is(scaled.max, 6);
    assert.is(scaled.hpa.name, 'scaled-hpa');
  }
  assert.equal(scaled.replicas, { kind: 'count', count: 2, path: ['spec', 'replicas'], explicit: true }, 'the written count is kept');

  const capped = m.podCount(template(m, 'capped'));
  assert.is(capped.kind, 'count', 'maxReplicas 1 adds no pods: the written count stands');
  assert.is(capped.autoscaler?.hpa.name, 'capped-hpa', 'but the autoscaler is still known');

  const elsewhere = m.podCount(template(m, 'elsewhere'));
  assert.ok(elsewhere.kind === 'count' && elsewhere.count === 2, 'an HPA in another namespace scales another Deployment');

  const defaulted = m.podCount(template(m, 'defaulted'));
  assert.ok(defaulted.kind === 'count' && defaulted.count === 1 && defaulted.replicas.kind === 'count' && !defaulted.replicas.explicit);

  assert.is(m.podCount(template(m, 'scaled')), scaled, 'memoized per template on the model');
});

test('podCount: Job and CronJob parallelism, DaemonSets, bare Pods and counts that are not integers', () => {
  const m = model(`---
apiVersion: batch/v1
kind: Job
metadata: {name: job}
spec: {parallelism: 4, template: {spec: {containers: [{name: a, image: a}]}}}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: cron}
spec: {schedule: "* * * * *", jobTemplate: {spec: {parallelism: 2, template: {spec: {containers: [{name: a, image: a}]}}}}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec: {template: {spec: {containers: [{name: a, image: a}]}}}
---
apiVersion: v1
kind: Pod
metadata: {name: pod}
spec: {containers: [{name: a, image: a}]}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: templated}
spec: {replicas: "{{ .Values.replicas }}", template: {spec: {containers: [{name: a, image: a}]}}}
`);
  const job = m.podCount(template(m, 'job'));
  assert.ok(job.kind === 'count' && job.count === 4 && job.field === 'parallelism');
  assert.equal(job.countPath, ['spec', 'parallelism']);
  const cron = m.podCount(template(m, 'cron'));
  assert.ok(cron.kind === 'count' && cron.count === 2 && cron.field === 'parallelism');
  assert.equal(cron.countPath, ['spec', 'jobTemplate', 'spec', 'parallelism']);
  assert.is(m.podCount(template(m, 'agent')).kind, 'per-node');
  const pod = m.podCount(template(m, 'pod'));
  assert.ok(pod.kind === 'count' && pod.count === 1 && pod.field === 'pod');
  const templated = m.podCount(template(m, 'templated'));
  assert.is(templated.kind, 'unknown');
  if (templated.kind === 'unknown') assert.match(templated.reason, 'not an integer');
});

test('consumersOfClaim: each using template once, in document order, only in the claim namespace', () => {
  const m = model(deployment('web', '  replicas: 1\n') + deployment('worker', '') + deployment('other', '', 'elsewhere') + `---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  template:
    spec:
      containers: [{name: db, image: postgres:16, volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`);
  assert.equal(m.consumersOfClaim('shop', 'data').map((t) => t.workload.name), ['web', 'worker'], 'the StatefulSet volume is shadowed by its claim template');
  assert.equal(m.consumersOfClaim('elsewhere', 'data').map((t) => t.workload.name), ['other']);
  assert.equal(m.consumersOfClaim('shop', 'nothing'), []);
  assert.is(m.usesOfClaim('shop', 'data').length, 4, 'two volumes of each Deployment');
  assert.equal(m.mountedClaims().map((c) => [c.namespace, c.name, c.uses.length, c.definitions.length]), [['shop', 'data', 4, 0], ['elsewhere', 'data', 2, 0]]);
});

test('claimsOfWorkload: PVCs (external when not in the repo), claim templates and ephemeral volumes of one template', () => {
  const m = model(`---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: shared, namespace: shop}
spec: {accessModes: [ReadWriteMany], resources: {requests: {storage: 1Gi}}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  template:
    spec:
      containers: [{name: db, image: db}]
      volumes:
        - {name: shared, persistentVolumeClaim: {claimName: shared}}
        - {name: missing, persistentVolumeClaim: {claimName: not-here}}
        - {name: scratch, ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}}}
        - {name: config, configMap: {name: db}}
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`);
  const claims = m.claimsOfWorkload(template(m, 'db')).map(({ name, claim }) => [name, claim === 'external' ? 'external' : `${claim.origin}:${claim.owner.kind}`]);
  assert.equal(claims, [
    ['shared', 'pvc:PersistentVolumeClaim'],
    ['missing', 'external'],
    ['scratch', 'ephemeral:StatefulSet'],
    ['data', 'claim-template:StatefulSet'],
  ]);
  assert.is(m.claimObjects(), m.claimObjects(), 'claim objects are built once per model');
  const shared = m.claimsOf()[0];
  assert.is(m.claimStorage(shared), m.claimStorage(shared), 'a PVC document\'s storage facts are computed once');
  assert.is(m.claimStorage(shared).accessModes[0], 'ReadWriteMany');
  const standIn = { ...shared, object: { spec: { accessModes: ['ReadWriteOnce'] } } };
  assert.is(m.claimStorage(standIn).accessModes[0], 'ReadWriteOnce', 'a stand-in of the same name is not answered from the cache');
  const fromTemplate = m.claimObjects().find((c) => c.origin === 'claim-template')!;
  assert.is(fromTemplate.podCount, m.podCount(template(m, 'db')), 'claim objects carry the model\'s pod count');
});

test('driver overrides belong to their model: two models with different overrides in one process do not see each other', () => {
  const claimed = `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: acme}
provisioner: acme.csi.io
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: shop}
spec: {storageClassName: acme, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
` + deployment('web', '  replicas: 3\n');
  const attaching = model(claimed, [{ name: 'acme.csi.io', attach: 'required' }]);
  const plain = model(claimed);
  const shared = model(claimed, [{ name: 'acme.csi.io', attach: 'not-required', aliases: ['acme.example.com'] }]);

  // Asked outside any rule run and interleaved: each model answers with its own configuration.
  assert.is(attaching.driverCapabilities('acme.csi.io')?.capabilities.attach, 'required');
  assert.is(plain.driverCapabilities('acme.csi.io'), undefined);
  assert.is(shared.driverCapabilities('acme.example.com')?.capabilities.attach, 'not-required');
  assert.is(attaching.driverCapabilities('acme.example.com'), undefined, 'an alias of another model\'s override');
  const pvc = (m: StorageModel) => m.claimsOf()[0];
  assert.is(attaching.claimStorage(pvc(attaching)).attach.value, 'yes');
  assert.is(plain.claimStorage(pvc(plain)).attach.value, 'unknown');
  assert.is(shared.claimStorage(pvc(shared)).attach.value, 'no');
  assert.ok(shared.isKnownProvisioner('acme.example.com'));
  assert.not.ok(plain.isKnownProvisioner('acme.example.com'));

  // The rules see the same: three replicas on an RWO claim are an error only where the driver attaches volumes.
  const settings = defaultRuleSettings().filter((s) => s.rule.id === 'rwo-claim-multi-node');
  const severities = (m: StorageModel) => runRules(m, settings).findings.map((f) => f.severity);
  assert.equal(severities(attaching), ['error']);
  assert.equal(severities(plain), ['warning']);
  assert.equal(severities(attaching), ['error'], 'again, after another model ran');
});

test.run();
