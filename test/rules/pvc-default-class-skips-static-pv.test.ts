import rule from '../../rules/pvc-default-class-skips-static-pv.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runRules } from '../../src/engine/run-rules.js';
import { parseResources } from '../../src/load/parse-resources.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { StorageModel } from '../../src/model/storage-model.js';
import { ruleTester } from '../helpers/rule-tester.js';
import { LocateStage } from '../../src/locate/locate-stage.js';

const pv = (extra = '') => `---
apiVersion: v1
kind: PersistentVolume
metadata: {name: media-nfs}
spec:
  capacity: {storage: 50Gi}
  accessModes: [ReadWriteMany]
  nfs: {server: nfs.example.com, path: /exports/media}${extra}
`;
const pvc = (extra = '') => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: media, namespace: apps}
spec:
  accessModes: [ReadWriteMany]
  resources: {requests: {storage: 50Gi}}${extra}
`;
const defaultClass = (provisioner = 'ebs.csi.aws.com') => `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: gp3
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: ${provisioner}
`;

ruleTester(rule, {
  valid: [
    { name: 'the claim asks for class ""', code: pv() + pvc('\n  storageClassName: ""') },
    { name: 'the claim names the PV', code: pv() + pvc('\n  volumeName: media-nfs') },
    { name: 'the PV reserves the claim through claimRef (pre-bound PVs ignore the class)', code: pv('\n  claimRef: {name: media, namespace: apps}') + pvc() },
    { name: 'the PV has a class of its own', code: pv('\n  storageClassName: nfs') + pvc() },
    { name: 'the PV is too small for the claim anyway', code: pv().replace('50Gi', '5Gi') + pvc() },
    { name: 'a complete bundle without a default class: the claim keeps no class and binds the PV', code: pv() + pvc(), model: { bundleComplete: true } },
    { name: 'the default class is no-provisioner (pv-pvc-static-mismatch\'s case)', code: defaultClass('kubernetes.io/no-provisioner') + pv() + pvc() },
    { name: 'a PV of the default class binds it', code: defaultClass() + pv() + pv('\n  storageClassName: gp3').replace('media-nfs', 'media-gp3') + pvc() },
    {
      name: 'another claim asks for the PV with class ""',
      code: pv() + pvc().replace('name: media,', 'name: scratch,') + pvc('\n  storageClassName: ""').replace('namespace: apps', 'namespace: media'),
    },
    { name: 'a selector makes it pv-pvc-static-mismatch\'s', code: pv() + pvc('\n  selector: {matchLabels: {app: media}}') },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'no default class visible: a warning, the cluster probably has one',
      code: pv() + pvc(),
      errors: [{ messageId: 'trap', severity: 'warning', path: ['spec'], resource: 'PersistentVolumeClaim/apps/media', messageIncludes: ['the cluster\'s default class (if it has one', 'PersistentVolume "media-nfs" (no class, NFS export nfs.example.com:/exports/media)'] }],
    },
    {
      name: 'a default class in the repo: an error naming it',
      code: defaultClass() + pv() + pvc(),
      errors: [{ messageId: 'trap', severity: 'error', messageIncludes: ['the default class "gp3"'] }],
    },
    {
      name: 'a PV with storageClassName "" is class-less too',
      code: defaultClass() + pv('\n  storageClassName: ""') + pvc(),
      errors: [{ messageId: 'trap', severity: 'error' }],
    },
    {
      name: 'a default class declared in the cluster facts',
      code: pv() + pvc(),
      model: { cluster: { storageClasses: [{ name: 'standard-rwo', provisioner: 'pd.csi.storage.gke.io', default: true }] } },
      errors: [{ messageId: 'trap', severity: 'error', messageIncludes: ['the default class "standard-rwo"'] }],
    },
    {
      name: 'a StatefulSet claim template',
      code: defaultClass() + pv().replace('ReadWriteMany', 'ReadWriteOnce') + `---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: media, namespace: apps}
spec:
  serviceName: media
  selector: {matchLabels: {app: media}}
  template:
    metadata: {labels: {app: media}}
    spec: {containers: [{name: media, image: nginx}]}
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
`,
      errors: [{ messageId: 'trap', path: ['spec', 'volumeClaimTemplates', 0, 'spec'], messageIncludes: ['volumeClaimTemplate "data" of StatefulSet "media"'] }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({
      name: `documented invalid example ${i + 1} (a restored EBS volume)`, code,
      errors: [{ messageId: 'trap', messageIncludes: ['EBS volume vol-0a1b2c3d4e5f67890'] }],
    })),
  ],
});

/** Runs the rule over several files of one scope. */
function lintFiles(files: Record<string, string>) {
  const resources = Object.entries(files).flatMap(([name, text]) => parseResources(makeSourceFile(`/virtual/${name}`, name, text)).resources);
  const setting = { rule, severity: rule.meta.severity, severityOverridden: false, options: {} };
  return new LocateStage().findings(runRules(new StorageModel(resources, { scope: 'test' }), [setting]).findings);
}

const files = suite('pvc-default-class-skips-static-pv across files');

files('a PV in another file fires only when it is named after the claim', () => {
  assert.is(lintFiles({ 'shares/pv.yaml': pv().replace('media-nfs', 'archive-share'), 'apps/pvc.yaml': pvc() }).length, 0);
  const named = lintFiles({ 'media/pv.yaml': pv(), 'media/pvc.yaml': pvc() });
  assert.equal(named.map((f) => [f.ruleId, f.location.file]), [['pvc-default-class-skips-static-pv', 'media/pvc.yaml']]);
});

files.run();
