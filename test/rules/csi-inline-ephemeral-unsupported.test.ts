import rule from '../../rules/csi-inline-ephemeral-unsupported.js';
import { ruleTester } from '../helpers/rule-tester.js';

const pod = (driver: string) => `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: c, volumeMounts: [{name: v, mountPath: /v}]}]
  volumes:
    - name: v
      csi: {driver: ${driver}}
`;
const csiDriver = (name: string, modes?: string) => `---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: ${name}}
spec:
  attachRequired: false${modes ? `\n  volumeLifecycleModes: [${modes}]` : ''}
`;

ruleTester(rule, {
  valid: [
    { name: 'Secrets Store ships Ephemeral', code: pod('secrets-store.csi.k8s.io') },
    { name: 'the NFS CSI driver supports inline volumes', code: pod('nfs.csi.k8s.io') },
    { name: 'a CSIDriver in the repo that lists Ephemeral', code: pod('inline.example.com') + csiDriver('inline.example.com', 'Ephemeral') },
  ],
  invalid: [
    {
      name: 'EBS is Persistent only',
      code: pod('ebs.csi.aws.com'),
      errors: [{ messageId: 'unsupported', severity: 'error', line: 8, path: ['spec', 'volumes', 0, 'csi', 'driver'], messageIncludes: ['as ebs.csi.aws.com ships it', '[Persistent]'] }],
    },
    {
      name: 'a CSIDriver in the repo without Ephemeral (default Persistent)',
      code: pod('inline.example.com') + csiDriver('inline.example.com'),
      errors: [{ messageId: 'unsupported', messageIncludes: ['in the repo'] }],
    },
    {
      name: 'an unknown driver is a note',
      code: pod('vendor.example.com'),
      errors: [{ messageId: 'unknownDriver', severity: 'note' }],
    },
  ],
});
