import rule from '../../rules/storageclass-topology-conflict.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runRules } from '../../src/engine/run-rules.js';
import { parseResources } from '../../src/load/parse-resources.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { StorageModel } from '../../src/model/storage-model.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sc = (values = '[eu-west-1a]', key = 'topology.kubernetes.io/zone') => `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: zonal}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
allowedTopologies:
  - matchLabelExpressions:
      - {key: ${key}, values: ${values}}
---
`;
const pvc = (extra = '') => `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: app}
spec:
  storageClassName: zonal
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 10Gi}}${extra}
---
`;
const deployment = (placement: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: app, namespace: app}
spec:
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec:${placement}
      containers: [{name: app, image: nginx, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
`;
const zoneSelector = (zone: string, key = 'topology.kubernetes.io/zone') => `\n      nodeSelector: {${key}: ${zone}}`;
const zoneAffinity = (zones: string) => `
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions:
                  - {key: topology.kubernetes.io/zone, operator: In, values: ${zones}}`;

ruleTester(rule, {
  valid: [
    { name: 'the pod zone is allowed', code: sc() + pvc() + deployment(zoneSelector('eu-west-1a')) },
    { name: 'no pod placement', code: sc() + pvc() + deployment('') },
    { name: 'affinity overlapping the allowed zones', code: sc('[eu-west-1a, eu-west-1b]') + pvc() + deployment(zoneAffinity('[eu-west-1b, eu-west-1c]')) },
    { name: 'a class without allowedTopologies', code: sc().replace(/allowedTopologies:[\s\S]*?---\n/, '---\n') + pvc() + deployment(zoneSelector('eu-west-1b')) },
    { name: 'a claim with volumeName (a PV decides, not the class)', code: sc() + pvc('\n  volumeName: pv-1') + deployment(zoneSelector('eu-west-1b')) },
    { name: 'unrelated keys are not compared', code: sc('[a]', 'example.com/rack') + pvc() + deployment(zoneSelector('eu-west-1b')) },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'a zone nodeSelector outside the allowed zone',
      code: sc() + pvc() + deployment(zoneSelector('eu-west-1b')),
      errors: [{
        messageId: 'conflict', severity: 'error', resource: 'Deployment/app/app', path: ['spec', 'template', 'spec', 'nodeSelector', 'topology.kubernetes.io/zone'],
        messageIncludes: ['requires topology.kubernetes.io/zone in (eu-west-1b)', 'StorageClass "zonal"', 'in (eu-west-1a)'],
      }],
    },
    {
      name: 'required node affinity with no allowed zone',
      code: sc('[eu-west-1a]') + pvc() + deployment(zoneAffinity('[eu-west-1b, eu-west-1c]')),
      errors: [{ messageId: 'conflict', severity: 'error' }],
    },
    {
      name: 'the CSI zone key against the Kubernetes zone key is a note',
      code: sc('[eu-west-1a]', 'topology.ebs.csi.aws.com/zone') + pvc() + deployment(zoneSelector('eu-west-1b')),
      errors: [{ messageId: 'conflict', severity: 'note', messageIncludes: ['different zone label keys'] }],
    },
    {
      name: 'a StatefulSet claim template of the class',
      code: sc() + `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: app}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      nodeSelector: {topology.kubernetes.io/zone: eu-west-1c}
      containers: [{name: db, image: postgres:16, volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {storageClassName: zonal, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`,
      errors: [{ messageId: 'conflict', resource: 'StatefulSet/app/db', messageIncludes: ['volumeClaimTemplate "data" of StatefulSet "db"'] }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'conflict' }] })),
  ],
});

const samples = suite('storageclass-topology-conflict in a repository of samples');
samples('a class defined in two files with different topologies is compared only from its own file', () => {
  const lint = (files: Record<string, string>) => {
    const resources = Object.entries(files).flatMap(([name, text]) => parseResources(makeSourceFile(`/virtual/${name}`, name, text)).resources);
    return runRules(new StorageModel(resources, { scope: 'samples' }), [{ rule, severity: rule.meta.severity, severityOverridden: false, options: {} }]).findings;
  };
  const app = pvc() + deployment(zoneSelector('eu-west-1c'));
  assert.is(lint({ 'a/class.yaml': sc(), 'b/class.yaml': sc('[eu-west-1b]'), 'c/app.yaml': app }).length, 0);
  assert.is(lint({ 'a/class.yaml': sc(), 'c/app.yaml': app }).length, 1, 'one definition: compared');
});
samples.run();
