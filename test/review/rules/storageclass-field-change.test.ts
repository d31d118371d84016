import rule from '../../../rules/storageclass-field-change.js';
import { changeRuleTester, lineOf } from '../helpers.js';

const sc = (body: string) => `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: fast
provisioner: ebs.csi.aws.com
${body}`;
const BASE = sc(`parameters:
  type: gp3
  iops: "3000"
reclaimPolicy: Retain
volumeBindingMode: WaitForFirstConsumer
`);
const toDelete = BASE.replace('reclaimPolicy: Retain', 'reclaimPolicy: Delete');
const unsetReclaim = BASE.replace('reclaimPolicy: Retain\n', '');
const params = BASE.replace('iops: "3000"', 'iops: "6000"');
const binding = BASE.replace('volumeBindingMode: WaitForFirstConsumer\n', '');
const provisioner = BASE.replace('provisioner: ebs.csi.aws.com', 'provisioner: kubernetes.io/aws-ebs');
const retain = sc('reclaimPolicy: Retain\n');

changeRuleTester(rule, {
  valid: [
    { name: 'unchanged', base: BASE, head: BASE },
    {
      name: 'annotations, allowVolumeExpansion, mountOptions and allowedTopologies may change',
      base: BASE,
      head: BASE.replace('  name: fast\n', "  name: fast\n  annotations: {storageclass.kubernetes.io/is-default-class: 'true'}\n") +
        'allowVolumeExpansion: true\nmountOptions: [noatime]\nallowedTopologies: [{matchLabelExpressions: [{key: topology.kubernetes.io/zone, values: [a]}]}]\n',
    },
    { name: 'a parameter written as a number or a string', base: BASE, head: BASE.replace('iops: "3000"', 'iops: 3000') },
    { name: 'reclaimPolicy spelled as its default', base: sc(''), head: sc('reclaimPolicy: Delete\n') },
    { name: 'volumeBindingMode spelled as its default', base: sc(''), head: sc('volumeBindingMode: Immediate\n') },
  ],
  invalid: [
    {
      // Argo CD deletes and recreates the class when the update is refused: the sync does not fail.
      name: 'a class Argo CD replaces: a warning that the change goes through',
      base: BASE.replace('  name: fast\n', '  name: fast\n  annotations: {argocd.argoproj.io/sync-options: Replace=true}\n'),
      head: params.replace('  name: fast\n', '  name: fast\n  annotations: {argocd.argoproj.io/sync-options: Replace=true}\n'),
      errors: [{ messageId: 'replaced', severity: 'warning', messageIncludes: ['Argo CD', 'only new volumes get the new ones'] }],
    },
    {
      name: 'a class Flux forces: a warning',
      base: BASE,
      head: binding.replace('  name: fast\n', '  name: fast\n  annotations: {kustomize.toolkit.fluxcd.io/force: enabled}\n'),
      errors: [{ messageId: 'replaced', severity: 'warning', messageIncludes: ['Flux'] }],
    },
    {
      name: 'reclaimPolicy flipped to Delete',
      base: BASE,
      head: toDelete,
      errors: [{ messageId: 'reclaimToDelete', line: lineOf(toDelete, 'reclaimPolicy'), severity: 'error', messageIncludes: ['"Retain" to Delete', 'updates to reclaimPolicy are forbidden'], related: ['base.yaml:4'] }],
    },
    {
      name: 'reclaimPolicy removed: the default is Delete',
      base: BASE,
      head: unsetReclaim,
      errors: [{ messageId: 'reclaimToDelete', line: 2 }],
    },
    {
      name: 'reclaimPolicy flipped to Retain is rejected too',
      base: sc(''),
      head: retain,
      errors: [{ messageId: 'immutable', line: lineOf(retain, 'reclaimPolicy'), messageIncludes: ['"Delete" to "Retain"'] }],
    },
    {
      name: 'a parameter changes',
      base: BASE,
      head: params,
      errors: [{ messageId: 'immutable', line: lineOf(params, 'iops'), path: ['parameters', 'iops'], messageIncludes: ['parameters.iops', 'updates to parameters are forbidden'] }],
    },
    {
      name: 'volumeBindingMode back to its default',
      base: BASE,
      head: binding,
      errors: [{ messageId: 'immutable', messageIncludes: ['"WaitForFirstConsumer" to "Immediate"', 'field is immutable'] }],
    },
    {
      name: 'provisioner changes',
      base: BASE,
      head: provisioner,
      errors: [{ messageId: 'immutable', line: lineOf(provisioner, 'provisioner'), messageIncludes: ['updates to provisioner are forbidden'] }],
    },
  ],
});
