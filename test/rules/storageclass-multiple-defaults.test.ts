import rule from '../../rules/storageclass-multiple-defaults.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sc = (name: string, annotations: string) => `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: ${name}
  annotations: {${annotations}}
provisioner: ebs.csi.aws.com
`;
const GA = 'storageclass.kubernetes.io/is-default-class';
const BETA = 'storageclass.beta.kubernetes.io/is-default-class';

ruleTester(rule, {
  valid: [
    { name: 'one default', code: sc('a', `${GA}: "true"`) + sc('b', `${GA}: "false"`) },
    { name: '"True" and "yes" are not default', code: sc('a', `${GA}: "true"`) + sc('b', `${GA}: "True"`) + sc('c', `${BETA}: "yes"`) },
    { name: 'the same class written twice', code: sc('a', `${GA}: "true"`) + sc('a', `${GA}: "true"`) },
    { name: 'both annotations on one class', code: sc('a', `${GA}: "true", ${BETA}: "true"`) },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'two defaults',
      code: sc('a', `${GA}: "true"`) + sc('b', `${GA}: "true"`),
      errors: [{ messageId: 'multiple', severity: 'warning', resource: 'StorageClass//b', path: ['metadata', 'annotations', GA], messageIncludes: ['StorageClass "b" is marked default, and so is StorageClass "a"'] }],
    },
    {
      name: 'the beta annotation counts',
      code: sc('a', `${GA}: "true"`) + sc('b', `${BETA}: "true"`),
      errors: [{ messageId: 'multiple', path: ['metadata', 'annotations', BETA] }],
    },
    {
      name: 'three defaults: two findings',
      code: sc('a', `${GA}: "true"`) + sc('b', `${GA}: "true"`) + sc('c', `${GA}: "true"`),
      errors: [{ messageId: 'multiple', resource: 'StorageClass//b' }, { messageId: 'multiple', resource: 'StorageClass//c', messageIncludes: ['StorageClass "a", StorageClass "b"'] }],
    },
    {
      name: 'before Kubernetes 1.26 it is an error',
      code: sc('a', `${GA}: "true"`) + sc('b', `${GA}: "true"`),
      model: { cluster: { kubernetesVersion: '1.25' } },
      errors: [{ messageId: 'multipleOld', severity: 'error', messageIncludes: ['on Kubernetes 1.25 (before 1.26)'] }],
    },
    {
      name: 'a default the configuration declares for the cluster counts, and the repo one is reported',
      code: sc('a', `${GA}: "true"`),
      model: { cluster: { storageClasses: [{ name: 'gp2', provisioner: 'kubernetes.io/aws-ebs', default: true }] } },
      errors: [{ messageId: 'multiple', resource: 'StorageClass//a', messageIncludes: ['StorageClass "gp2" (declared in the configuration)'] }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'multiple' }] })),
  ],
});
