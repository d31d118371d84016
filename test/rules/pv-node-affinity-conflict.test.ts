import rule from '../../rules/pv-node-affinity-conflict.js';
import { ruleTester } from '../helpers/rule-tester.js';

const pv = (name: string, expressions: string, claim = 'data') => `---
apiVersion: v1
kind: PersistentVolume
metadata: {name: ${name}}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: ""
  claimRef: {name: ${claim}, namespace: apps}
  csi: {driver: ebs.csi.aws.com, volumeHandle: ${name}}
  nodeAffinity:
    required:
      nodeSelectorTerms:
${expressions}
`;
const zone = (values: string, key = 'topology.kubernetes.io/zone', operator = 'In') => `        - matchExpressions:\n            - {key: ${key}, operator: ${operator}, values: [${values}]}`;
const pvc = (name = 'data') => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ${name}, namespace: apps}
spec: {storageClassName: "", accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
`;
const deployment = (placement: string, claims = ['data']) => `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: app, namespace: apps}
spec:
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec:
${placement}
      containers: [{name: app, image: app}]
      volumes:
${claims.map((c) => `        - {name: ${c}, persistentVolumeClaim: {claimName: ${c}}}`).join('\n')}
`;
const nodeSelector = (key: string, value: string) => `      nodeSelector: {${key}: ${value}}`;
const affinity = (expression: string) => `      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions:
                  - ${expression}`;

ruleTester(rule, {
  valid: [
    { name: 'same zone', code: pv('pv-a', zone('eu-west-1a')) + pvc() + deployment(nodeSelector('topology.kubernetes.io/zone', 'eu-west-1a')) },
    { name: 'the pod has no placement', code: pv('pv-a', zone('eu-west-1a')) + pvc() + deployment('      {}'.replace('{}', 'hostNetwork: false')) },
    {
      name: 'In affinity that overlaps the PV zones',
      code: pv('pv-a', zone('eu-west-1a, eu-west-1b')) + pvc() + deployment(affinity('{key: topology.kubernetes.io/zone, operator: In, values: [eu-west-1b, eu-west-1c]}')),
    },
    {
      name: 'Exists affinity on the zone key',
      code: pv('pv-a', zone('eu-west-1a')) + pvc() + deployment(affinity('{key: topology.kubernetes.io/zone, operator: Exists}')),
    },
    {
      name: 'NotIn that leaves the PV zone allowed',
      code: pv('pv-a', zone('eu-west-1a')) + pvc() + deployment(affinity('{key: topology.kubernetes.io/zone, operator: NotIn, values: [eu-west-1b]}')),
    },
    {
      name: 'different, unrelated keys are not a conflict',
      code: pv('pv-a', zone('eu-west-1a')) + pvc() + deployment(nodeSelector('node-pool', 'db')),
    },
    {
      name: 'one of the PV terms fits (terms are ORed)',
      code: pv('pv-a', `${zone('eu-west-1a')}\n${zone('eu-west-1b')}`) + pvc() + deployment(nodeSelector('topology.kubernetes.io/zone', 'eu-west-1b')),
    },
    {
      name: 'a claim whose PV is not in the repo',
      code: pvc() + deployment(nodeSelector('topology.kubernetes.io/zone', 'eu-west-1b')),
    },
    {
      name: 'two PVs in overlapping zones',
      code: pv('pv-a', zone('eu-west-1a, eu-west-1b')) + pv('pv-b', zone('eu-west-1b'), 'logs') + pvc() + pvc('logs') + deployment('      hostNetwork: false', ['data', 'logs']),
    },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'nodeSelector in another zone',
      code: pv('pv-a', zone('eu-west-1a')) + pvc() + deployment(nodeSelector('topology.kubernetes.io/zone', 'eu-west-1b')),
      errors: [{
        messageId: 'podConflict', severity: 'error', resource: 'Deployment/apps/app', path: ['spec', 'template', 'spec', 'nodeSelector', 'topology.kubernetes.io/zone'],
        messageIncludes: ['requires topology.kubernetes.io/zone in (eu-west-1b)', 'PersistentVolume "pv-a"', 'in (eu-west-1a)', 'volume node affinity conflict'],
      }],
    },
    {
      name: 'a NotIn affinity that excludes the PV zone',
      code: pv('pv-a', zone('eu-west-1a')) + pvc() + deployment(affinity('{key: topology.kubernetes.io/zone, operator: NotIn, values: [eu-west-1a]}')),
      errors: [{ messageId: 'podConflict', severity: 'error' }],
    },
    {
      name: 'an In affinity without common zone',
      code: pv('pv-a', zone('eu-west-1a, eu-west-1b')) + pvc() + deployment(affinity('{key: topology.kubernetes.io/zone, operator: In, values: [eu-west-1c]}')),
      errors: [{ messageId: 'podConflict', path: ['spec', 'template', 'spec', 'affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms', 0, 'matchExpressions', 0] }],
    },
    {
      name: 'nodeName against a hostname-pinned local PV is a warning',
      code: pv('pv-a', zone('node-1', 'kubernetes.io/hostname')) + pvc() + deployment('      nodeName: node-2'),
      errors: [{ messageId: 'podConflict', severity: 'warning', path: ['spec', 'template', 'spec', 'nodeName'], messageIncludes: ['requires node node-2 (spec.nodeName)', 'assuming the node'] }],
    },
    {
      name: 'different zone keys make a note',
      code: pv('pv-a', zone('eu-west-1a', 'topology.ebs.csi.aws.com/zone')) + pvc() + deployment(nodeSelector('topology.kubernetes.io/zone', 'eu-west-1b')),
      errors: [{ messageId: 'podConflict', severity: 'note', messageIncludes: ['different zone label keys'] }],
    },
    {
      name: 'two PVs pinned to different zones',
      code: pv('pv-a', zone('eu-west-1a')) + pv('pv-b', zone('eu-west-1b'), 'logs') + pvc() + pvc('logs') + deployment('      hostNetwork: false', ['data', 'logs']),
      errors: [{ messageId: 'volumeConflict', severity: 'error', path: ['spec', 'template', 'spec', 'volumes', 1, 'persistentVolumeClaim', 'claimName'], messageIncludes: ['PersistentVolume "pv-a"', 'PersistentVolume "pv-b"'] }],
    },
    {
      name: 'a StatefulSet whose ordinal claim PV is in another zone',
      code: pv('pv-a', zone('eu-west-1a'), 'data-db-0') + `---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: apps}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      nodeSelector: {topology.kubernetes.io/zone: eu-west-1c}
      containers: [{name: db, image: postgres, volumeMounts: [{name: data, mountPath: /data}]}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {storageClassName: "", accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
`,
      errors: [{ messageId: 'podConflict', resource: 'StatefulSet/apps/db', messageIncludes: ['PersistentVolumeClaim "data-db-0"'] }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'podConflict', severity: 'error' as const }] })),
  ],
});
