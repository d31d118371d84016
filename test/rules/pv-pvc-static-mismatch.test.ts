import rule from '../../rules/pv-pvc-static-mismatch.js';
import { ruleTester } from '../helpers/rule-tester.js';

interface PvOptions {
  name?: string;
  storageClass?: string;
  capacity?: string;
  modes?: string;
  labels?: string;
  claimRef?: string;
  volumeMode?: string;
  extraMetadata?: string;
}
const pv = (o: PvOptions = {}) => `---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: ${o.name ?? 'pv-1'}${o.labels ? `\n  labels: {${o.labels}}` : ''}${o.extraMetadata ?? ''}
spec:
  storageClassName: "${o.storageClass ?? ''}"
  capacity:
    storage: ${o.capacity ?? '10Gi'}
  accessModes: [${o.modes ?? 'ReadWriteOnce'}]${o.volumeMode ? `\n  volumeMode: ${o.volumeMode}` : ''}${o.claimRef ? `\n  claimRef: {${o.claimRef}}` : ''}
  nfs: {server: 10.0.0.1, path: /export}
`;

interface PvcOptions {
  name?: string;
  namespace?: string;
  storageClass?: string | null;
  request?: string;
  modes?: string;
  selector?: string;
  volumeMode?: string;
  volumeName?: string;
}
const pvc = (o: PvcOptions = {}) => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: ${o.name ?? 'data'}
  namespace: ${o.namespace ?? 'apps'}
spec:${o.storageClass === null ? '' : `\n  storageClassName: "${o.storageClass ?? ''}"`}
  accessModes: [${o.modes ?? 'ReadWriteOnce'}]${o.volumeMode ? `\n  volumeMode: ${o.volumeMode}` : ''}${o.volumeName ? `\n  volumeName: ${o.volumeName}` : ''}
  resources:
    requests:
      storage: ${o.request ?? '10Gi'}${o.selector ? `\n  selector:\n${o.selector}` : ''}
`;
const sc = (name: string, provisioner: string, isDefault = false) => `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: ${name}${isDefault ? '\n  annotations: {storageclass.kubernetes.io/is-default-class: "true"}' : ''}
provisioner: ${provisioner}
`;

ruleTester(rule, {
  valid: [
    {
      // `kubectl apply -n media` (or an Argo CD destination) creates the claim in the namespace the PV reserves it for.
      name: 'stays quiet on a claim written without a namespace that a PV reserves by name',
      code: pv({ claimRef: 'name: data, namespace: media' }) + pvc().replace('  namespace: apps\n', ''),
    },
    { name: 'class "" claim with a matching PV', code: pv() + pvc() },
    { name: 'a bigger PV matches (1Gi ≥ 1G)', code: pv({ capacity: '1Gi' }) + pvc({ request: '1G' }) },
    { name: 'the PV offers a superset of the access modes', code: pv({ modes: 'ReadWriteOnce, ReadOnlyMany' }) + pvc({ modes: 'ReadOnlyMany' }) },
    {
      name: 'an In selector that matches',
      code: pv({ labels: 'tier: fast, zone: a' }) + pvc({ selector: '    matchExpressions:\n      - {key: tier, operator: In, values: [fast, faster]}' }),
    },
    {
      name: 'an Exists selector that matches',
      code: pv({ labels: 'tier: fast' }) + pvc({ selector: '    matchExpressions:\n      - {key: tier, operator: Exists}' }),
    },
    {
      name: 'NotIn on a label the PV does not have matches',
      code: pv({ labels: 'tier: fast' }) + pvc({ selector: '    matchExpressions:\n      - {key: zone, operator: NotIn, values: [b]}' }),
    },
    {
      name: 'DoesNotExist on an absent label matches',
      code: pv({ labels: 'tier: fast' }) + pvc({ selector: '    matchExpressions:\n      - {key: retired, operator: DoesNotExist}' }),
    },
    {
      name: 'matchLabels and matchExpressions that both hold',
      code: pv({ labels: 'tier: fast, zone: a' }) + pvc({ selector: '    matchLabels: {tier: fast}\n    matchExpressions:\n      - {key: zone, operator: In, values: [a]}' }),
    },
    { name: 'no PV in the repo at all is not this rule\'s business', code: pvc({ request: '100Gi' }) },
    {
      name: 'a claim with a provisioning class and no selector or reservation does not expect a static PV',
      code: sc('gp3', 'ebs.csi.aws.com') + pv({ capacity: '1Gi' }) + pvc({ storageClass: 'gp3' }),
    },
    { name: 'a claim with volumeName is R02\'s', code: pv({ capacity: '1Gi' }) + pvc({ volumeName: 'pv-1' }) },
    {
      name: 'a pre-bound PV is not checked for class or selector',
      code: pv({ storageClass: 'manual', claimRef: 'name: data, namespace: apps' }) + pvc({ selector: '    matchLabels: {tier: fast}' }),
    },
    {
      name: 'a PV reserved for another claim in the repo is not a candidate',
      code: pv({ capacity: '1Gi', claimRef: 'name: other, namespace: apps' }) + pvc({ name: 'other', request: '1Gi' }) + pvc(),
    },
    {
      name: 'a PV that another claim in the repo matches is not a candidate',
      code: pv({ capacity: '1Gi' }) + pvc({ name: 'small', request: '1Gi' }) + pvc({ request: '5Gi' }),
    },
    {
      name: 'a PV another claim names in volumeName is not a candidate',
      code: pv({ capacity: '1Gi' }) + pvc({ name: 'small', request: '1Gi', volumeName: 'pv-1' }) + pvc({ request: '5Gi' }),
    },
    {
      name: 'one of several PVs matches',
      code: pv({ name: 'small', capacity: '1Gi' }) + pv({ name: 'big', capacity: '100Gi' }) + pvc({ request: '50Gi' }),
    },
    {
      name: 'a claim without class matches a class-less PV when no default class is visible',
      code: pv({ labels: 'tier: fast' }) + pvc({ storageClass: null, selector: '    matchLabels: {tier: fast}' }),
    },
    {
      name: 'no-provisioner class with a matching local PV',
      code: sc('local', 'kubernetes.io/no-provisioner') + pv({ storageClass: 'local' }) + pvc({ storageClass: 'local' }),
    },
    {
      name: 'a class only PVs carry, with a PV that fits',
      code: pv({ storageClass: 'manual', capacity: '20Gi' }) + pvc({ storageClass: 'manual', request: '20Gi' }),
    },
    {
      name: 'a class a StorageClass in the repo defines provisions the claim dynamically, whatever its PVs',
      code: sc('manual', 'ebs.csi.aws.com') + pv({ storageClass: 'manual', capacity: '5Gi' }) + pvc({ storageClass: 'manual', request: '20Gi' }),
    },
    {
      name: 'an unknown class no PV in the repo carries is not a static expectation',
      code: pv({ storageClass: 'manual', capacity: '5Gi' }) + pvc({ storageClass: 'gp3', request: '20Gi' }),
    },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'capacity: the PV is too small',
      code: pv({ capacity: '5Gi' }) + pvc({ request: '20Gi' }),
      errors: [{
        messageId: 'noMatch', severity: 'error', resource: 'PersistentVolumeClaim/apps/data', line: 23,
        path: ['spec', 'resources', 'requests', 'storage'],
        messageIncludes: ['PersistentVolumeClaim "data" in namespace "apps"', 'storageClassName: ""', 'PersistentVolume "pv-1"', '[capacity]', 'capacity is 5Gi but the claim requests 20Gi', 'stays Pending'],
      }],
    },
    {
      name: 'capacity compares exact quantities: 1G < 1Gi',
      code: pv({ capacity: '1G' }) + pvc({ request: '1Gi' }),
      errors: [{ messageId: 'noMatch', messageIncludes: ['[capacity]'] }],
    },
    {
      name: 'access modes: the PV lacks a requested mode',
      code: pv() + pvc({ modes: 'ReadWriteMany' }),
      errors: [{ messageId: 'noMatch', path: ['spec', 'accessModes'], line: 20, messageIncludes: ['[access-modes]', 'requests ReadWriteMany but the volume offers ReadWriteOnce'] }],
    },
    {
      name: 'volume mode: unset means Filesystem',
      code: pv() + pvc({ volumeMode: 'Block' }),
      errors: [{ messageId: 'noMatch', path: ['spec', 'volumeMode'], messageIncludes: ['[volume-mode]', 'volumeMode Block but the volume is Filesystem'] }],
    },
    {
      name: 'class: "" against a PV with a class',
      code: pv({ storageClass: 'manual' }) + pvc(),
      errors: [{ messageId: 'noMatch', severity: 'error', path: ['spec', 'storageClassName'], messageIncludes: ['[class]', 'storageClassName is "manual" but the claim\'s is ""'] }],
    },
    {
      name: 'selector: matchLabels that the PV lacks',
      code: pv({ labels: 'tier: slow' }) + pvc({ selector: '    matchLabels: {tier: fast}' }),
      errors: [{ messageId: 'noMatch', path: ['spec', 'selector', 'matchLabels', 'tier'], messageIncludes: ['[selector]', 'labels tier=slow', 'tier=fast'] }],
    },
    {
      name: 'selector: the failing expression is the location',
      code: pv({ labels: 'tier: fast' }) + pvc({ selector: '    matchExpressions:\n      - {key: tier, operator: Exists}\n      - {key: zone, operator: In, values: [a]}' }),
      errors: [{ messageId: 'noMatch', path: ['spec', 'selector', 'matchExpressions', 1], messageIncludes: ['zone in (a)'] }],
    },
    {
      name: 'selector: NotIn with the label present and listed',
      code: pv({ labels: 'zone: b' }) + pvc({ selector: '    matchExpressions:\n      - {key: zone, operator: NotIn, values: [b]}' }),
      errors: [{ messageId: 'noMatch', messageIncludes: ['zone notin (b)'] }],
    },
    {
      name: 'selector: Exists on an absent label',
      code: pv() + pvc({ selector: '    matchExpressions:\n      - {key: tier, operator: Exists}' }),
      errors: [{ messageId: 'noMatch', messageIncludes: ['no labels', 'tier exists'] }],
    },
    {
      name: 'namespace: the claimRef names the claim in another namespace',
      code: pv({ claimRef: 'name: data, namespace: default' }) + pvc(),
      errors: [{ messageId: 'noMatch', path: ['metadata', 'namespace'], messageIncludes: ['[namespace]', 'in namespace "default", but the claim is in namespace "apps"'] }],
    },
    {
      name: 'claim-ref: reserved for a claim that is not in the repo',
      code: pv({ claimRef: 'name: typo, namespace: apps' }) + pvc(),
      errors: [{ messageId: 'noMatch', path: ['metadata', 'name'], messageIncludes: ['[claim-ref]', 'reserves it for claim "typo" in namespace "apps"'] }],
    },
    {
      name: 'deleted: the PV has a deletionTimestamp',
      code: pv({ extraMetadata: '\n  deletionTimestamp: "2024-01-01T00:00:00Z"' }) + pvc(),
      errors: [{ messageId: 'noMatch', messageIncludes: ['[deleted]'] }],
    },
    {
      name: 'a pre-bound PV that is too small; a provisioning class makes it a warning',
      code: sc('gp3', 'ebs.csi.aws.com') + pv({ capacity: '1Gi', storageClass: 'gp3', claimRef: 'name: data, namespace: apps' }) + pvc({ storageClass: 'gp3' }),
      errors: [{
        messageId: 'noMatch', severity: 'warning', messageIncludes: ['PersistentVolume "pv-1" reserves it through claimRef', '[capacity]', 'gets a new empty volume instead'],
      }],
    },
    {
      name: 'the closest candidate is the pre-bound PV, reported with the other reasons',
      code: pv({ name: 'free', storageClass: 'other', capacity: '1Gi' }) + pv({ name: 'reserved', modes: 'ReadWriteMany', capacity: '1Gi', claimRef: 'name: data, namespace: apps' }) + pvc(),
      errors: [{ messageId: 'noMatch', messageIncludes: ['PersistentVolume "reserved"', '[access-modes]', '(also: [capacity]'] }],
    },
    {
      name: 'an omitted class with a default class in the repo: hint',
      code: sc('standard', 'ebs.csi.aws.com', true) + pv({ labels: 'tier: fast' }) + pvc({ storageClass: null, selector: '    matchLabels: {tier: fast}' }),
      errors: [{
        messageId: 'noMatch', severity: 'warning', path: ['spec', 'storageClassName'],
        messageIncludes: ['[class]', 'gets the default class "standard"', 'never provisioned dynamically', 'Set storageClassName: "" explicitly: without it the DefaultStorageClass admission plugin sets "standard"'],
      }],
    },
    {
      name: 'a no-provisioner class is an error',
      code: sc('local', 'kubernetes.io/no-provisioner') + pv({ storageClass: 'local', capacity: '1Gi' }) + pvc({ storageClass: 'local' }),
      errors: [{ messageId: 'noMatch', severity: 'error', messageIncludes: ['has provisioner kubernetes.io/no-provisioner', '[capacity]'] }],
    },
    {
      name: 'a selector on an unknown class is a warning',
      code: pv({ labels: 'tier: slow' }) + pvc({ storageClass: 'fast', selector: '    matchLabels: {tier: fast}' }),
      errors: [{ messageId: 'noMatch', severity: 'warning', messageIncludes: ['unless a matching PersistentVolume exists outside the repo'] }],
    },
    {
      name: 'a declared-complete bundle makes it an error',
      code: pv({ labels: 'tier: slow' }) + pvc({ storageClass: 'fast', selector: '    matchLabels: {tier: fast}' }),
      model: { bundleComplete: true },
      errors: [{ messageId: 'noMatch', severity: 'error', messageIncludes: ['stays Pending.'] }],
    },
    {
      name: 'a free PV stays a candidate when the claim it would also fit has its own reserved PV',
      code: pv({ name: 'broken', capacity: '10Gi' }) + pvc({ namespace: 'broken', request: '20Gi' }) +
        pv({ name: 'fixed', capacity: '10Gi', claimRef: 'name: data, namespace: fixed' }) + pvc({ namespace: 'fixed', request: '10Gi' }),
      errors: [{ messageId: 'noMatch', resource: 'PersistentVolumeClaim/broken/data', messageIncludes: ['PersistentVolume "broken"', '[capacity]'] }],
    },
    {
      name: 'a class only PVs carry (no StorageClass behind it) expects one of them: a warning',
      code: pv({ name: 'db-data', storageClass: 'manual', capacity: '20Gi' }) + pvc({ storageClass: 'manual', request: '30Gi' }),
      errors: [{
        messageId: 'noMatch', severity: 'warning', line: 23, path: ['spec', 'resources', 'requests', 'storage'],
        messageIncludes: ['StorageClass "manual" is not in the repo, but PersistentVolume "db-data" carries that class', '[capacity]'],
      }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'noMatch', severity: 'error' as const }] })),
  ],
});
