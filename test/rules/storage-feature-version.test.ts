import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import rule from '../../rules/storage-feature-version.js';
import { parseKubernetesVersion } from '../../src/model/cluster-facts.js';
import { featureStatus, storageFeature } from '../../src/model/storage-features.js';
import { ruleTester } from '../helpers/rule-tester.js';

const at = (kubernetesVersion: string) => ({ cluster: { kubernetesVersion } });
const rwopClaim = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ledger, namespace: bank}
spec:
  accessModes: [ReadWriteOncePod]
  resources: {requests: {storage: 10Gi}}
`;
const vacClaim = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: fast, namespace: bank}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: gp3
  volumeAttributesClassName: silver
  resources: {requests: {storage: 10Gi}}
`;
const vac = (apiVersion: string) => `apiVersion: ${apiVersion}
kind: VolumeAttributesClass
metadata: {name: silver}
driverName: ebs.csi.aws.com
parameters: {iops: "6000"}
`;
const sts = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: bank}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete, whenScaled: Retain}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: postgres:16}]}
`;

ruleTester(rule, {
  valid: [
    { name: 'no Kubernetes version configured', code: rwopClaim + '---\n' + vacClaim + '---\n' + sts },
    { name: 'ReadWriteOncePod on 1.27 (beta, on by default)', code: rwopClaim, model: at('1.27') },
    { name: 'VolumeAttributesClass v1 on 1.34', code: vac('storage.k8s.io/v1') + '---\n' + vacClaim, model: at('1.34') },
    { name: 'the retention policy on 1.27', code: sts, model: at('v1.27.3') },
    { name: 'ReadWriteOnce on an old cluster', code: rwopClaim.replace('ReadWriteOncePod', 'ReadWriteOnce'), model: at('1.20') },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code, model: at('1.30') })),
  ],
  invalid: [
    {
      name: 'ReadWriteOncePod before 1.22 is rejected',
      code: rwopClaim, model: at('1.21'),
      errors: [{ messageId: 'absent', severity: 'error', path: ['spec', 'accessModes', 0], messageIncludes: ['Kubernetes 1.21', 'arrived in 1.22'] }],
    },
    {
      name: 'ReadWriteOncePod on 1.25 needs the alpha gate',
      code: rwopClaim, model: at('1.25'),
      errors: [{ messageId: 'gated', severity: 'warning', messageIncludes: ['ReadWriteOncePod feature gate', 'off by default until 1.27'] }],
    },
    {
      name: 'a StatefulSet claim template with ReadWriteOncePod',
      code: sts.replace(/\n {2}persistentVolumeClaimRetentionPolicy.*\n/, '\n') + `  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOncePod], resources: {requests: {storage: 1Gi}}}
`,
      model: at('1.21'),
      errors: [{ messageId: 'absent', path: ['spec', 'volumeClaimTemplates', 0, 'spec', 'accessModes', 0] }],
    },
    {
      name: 'VolumeAttributesClass on 1.28 does not exist',
      code: vac('storage.k8s.io/v1beta1') + '---\n' + vacClaim, model: at('1.28'),
      errors: [
        { messageId: 'absent', resource: 'PersistentVolumeClaim/bank/fast', path: ['spec', 'volumeAttributesClassName'] },
        { messageId: 'absent', resource: 'VolumeAttributesClass//silver' },
      ],
    },
    {
      name: 'VolumeAttributesClass v1 on 1.31 is not served; the claim field is gated',
      code: vac('storage.k8s.io/v1') + '---\n' + vacClaim, model: at('1.31'),
      errors: [
        { messageId: 'gated', severity: 'warning', path: ['spec', 'volumeAttributesClassName'], messageIncludes: ['drops the field'] },
        { messageId: 'apiVersion', severity: 'error', path: ['apiVersion'], messageIncludes: ['from 1.34'] },
      ],
    },
    {
      name: 'the StatefulSet retention policy on 1.25 is dropped',
      code: sts, model: at('1.25'),
      errors: [{ messageId: 'gated', severity: 'warning', path: ['spec', 'persistentVolumeClaimRetentionPolicy'], messageIncludes: ['claims are kept'] }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, model: at('1.21'), errors: [{ messageId: 'absent' }] })),
  ],
});

const table = suite('storage feature table');
table('statuses follow the table', () => {
  const rwop = storageFeature('ReadWriteOncePod');
  assert.is(featureStatus(rwop, parseKubernetesVersion('1.21')!), 'absent');
  assert.is(featureStatus(rwop, parseKubernetesVersion('1.22')!), 'gated');
  assert.is(featureStatus(rwop, parseKubernetesVersion('1.29')!), 'available');
  assert.is(featureStatus(storageFeature('VolumeAttributesClass'), parseKubernetesVersion('1.33')!), 'gated');
});
table.run();
