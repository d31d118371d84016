import rule from '../../../rules/pvc-resize-rejected.js';
import { changeRuleTester, lineOf } from '../helpers.js';

const sc = (name: string, extra = '', annotations = '') => `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: ${name}
${annotations}provisioner: ebs.csi.aws.com
${extra}---
`;
const pvc = (size: string, cls?: string) => `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: app}
spec:
  accessModes: [ReadWriteOnce]
${cls === undefined ? '' : `  storageClassName: "${cls}"\n`}  resources:
    requests:
      storage: ${size}
`;
const expandable = sc('gp3', 'allowVolumeExpansion: true\n');
const fixed = sc('gp3');
const refused = sc('gp3', 'allowVolumeExpansion: false\n');
const defaultFixed = sc('standard', '', "  annotations: {storageclass.kubernetes.io/is-default-class: 'true'}\n");

const shrunk = pvc('5Gi', 'gp3');
const grownFixed = fixed + pvc('20Gi', 'gp3');
const grownRefused = refused + pvc('20Gi', 'gp3');
const grownStatic = pvc('20Gi', '');
const grownDefault = defaultFixed + pvc('20Gi');

changeRuleTester(rule, {
  valid: [
    { name: 'same size, written differently', base: pvc('10Gi', 'gp3'), head: pvc('10240Mi', 'gp3') },
    { name: 'growth with a class that allows expansion', base: expandable + pvc('10Gi', 'gp3'), head: expandable + pvc('20Gi', 'gp3') },
    { name: 'growth with a class that is not in the repo (the cluster may allow it)', base: pvc('10Gi', 'gp3'), head: pvc('20Gi', 'gp3') },
    { name: 'growth without a class and without a default class in the repo', base: pvc('10Gi'), head: pvc('20Gi') },
    { name: 'an invalid quantity is left to claim-spec-invalid', base: pvc('10Gi', 'gp3'), head: pvc('ten', 'gp3') },
    { name: 'a claim in another namespace is another claim', base: pvc('10Gi', 'gp3'), head: pvc('5Gi', 'gp3').replace('namespace: app', 'namespace: other') },
  ],
  invalid: [
    {
      name: 'the request shrinks',
      base: pvc('10Gi', 'gp3'),
      head: shrunk,
      errors: [{ messageId: 'shrink', line: lineOf(shrunk, 'storage: 5Gi'), messageIncludes: ['from 10Gi to 5Gi', 'field can not be less than previous value'], related: ['base.yaml:9'] }],
    },
    {
      name: 'growth with a class without allowVolumeExpansion',
      base: fixed + pvc('10Gi', 'gp3'),
      head: grownFixed,
      errors: [{ messageId: 'growNotAllowed', line: lineOf(grownFixed, 'storage: 20Gi'), messageIncludes: ['StorageClass "gp3"'], related: ['base.yaml:15', 'head.yaml:4'] }],
    },
    {
      name: 'growth with allowVolumeExpansion: false',
      base: refused + pvc('10Gi', 'gp3'),
      head: grownRefused,
      errors: [{ messageId: 'growNotAllowed', line: lineOf(grownRefused, 'storage: 20Gi'), related: ['base.yaml:16', 'head.yaml:6'] }],
    },
    {
      name: 'growth of a claim without a class ("")',
      base: pvc('10Gi', ''),
      head: grownStatic,
      errors: [{ messageId: 'growStatic', line: lineOf(grownStatic, 'storage: 20Gi') }],
    },
    {
      name: 'growth of a classless claim whose default class does not allow expansion',
      base: defaultFixed + pvc('10Gi'),
      head: grownDefault,
      errors: [{ messageId: 'growNotAllowed', line: lineOf(grownDefault, 'storage: 20Gi'), messageIncludes: ['StorageClass "standard"'] }],
    },
  ],
});
