import { readFileSync } from 'node:fs';
import path from 'node:path';
import rule from '../../rules/claim-spec-invalid.js';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { ruleTester } from '../helpers/rule-tester.js';

const kopiurPvc = readFileSync(path.join(PROJECT_ROOT, 'test', 'fixtures', 'precision', 'placeholders', 'kopiur-backup-pvc.yaml'), 'utf8');

const pvc = (spec: string, name = 'data', namespace = 'db') => `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ${name}, namespace: ${namespace}}
spec:
${spec}`;

const statefulSet = (vctSpec: string) => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web, namespace: shop}
spec:
  serviceName: web
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx
          volumeMounts: [{name: data, mountPath: /data}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec:
${vctSpec}`;

ruleTester(rule, {
  valid: [
    {
      name: 'stays quiet on a restore from a VolumeSnapshot through dataSourceRef',
      code: pvc('  accessModes: [ReadWriteOnce]\n  dataSourceRef: {apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot, name: nightly}\n  resources: {requests: {storage: 10Gi}}\n'),
    },
    {
      name: 'stays quiet on a claim filled by a VolSync ReplicationDestination populator',
      code: pvc('  accessModes: [ReadWriteOnce]\n  dataSourceRef: {apiGroup: volsync.backube, kind: ReplicationDestination, name: app-dst}\n  resources: {requests: {storage: 10Gi}}\n'),
    },
    { name: 'stays quiet on a clone without apiGroup (PersistentVolumeClaim is core)', code: pvc('  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 10Gi}}\n  dataSource: {kind: PersistentVolumeClaim, name: source}\n') },
    { name: 'stays quiet on equal dataSource and dataSourceRef (what the API server stores)', code: pvc('  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 10Gi}}\n  dataSource: {apiGroup: volsync.backube, kind: ReplicationDestination, name: app-dst}\n  dataSourceRef: {apiGroup: volsync.backube, kind: ReplicationDestination, name: app-dst}\n') },
    { name: 'stays quiet on a placeholder apiGroup', code: pvc('  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 10Gi}}\n  dataSourceRef: {apiGroup: "${POPULATOR_GROUP}", kind: ReplicationDestination, name: app-dst}\n') },
    { name: 'placeholders are not values: a Flux post-build component (onedr0p/home-ops kopiur)', code: kopiurPvc },
    { name: 'a placeholder beside ReadWriteOncePod is not another mode', code: pvc('  accessModes: [ReadWriteOncePod, "${EXTRA_MODE}"]\n  resources: {requests: {storage: 1Gi}}\n') },
    { name: 'a dotted name is a DNS subdomain', code: pvc('  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n', 'data.v2-db') },
    { name: 'a name still to be substituted is not judged', code: pvc('  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n', '"${APP}-Data"') },
    { name: 'complete PVC', code: pvc('  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n') },
    { name: 'complete claim template', code: statefulSet('        accessModes: [ReadWriteOnce]\n        resources: {requests: {storage: 1Gi}}\n') },
    { name: 'ReadWriteOncePod alone', code: pvc('  accessModes: [ReadWriteOncePod]\n  resources: {requests: {storage: 1Gi}}\n') },
    { name: 'a number is a quantity', code: pvc('  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1073741824}}\n') },
    {
      name: 'a PVC patch next to its base in the same scope',
      code: pvc('  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n') + '---\n' + pvc('  resources: {requests: {storage: 5Gi}}\n'),
    },
    {
      name: 'an ephemeral volume without spec is left to ephemeral-volume-missing-spec',
      code: `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: busybox, volumeMounts: [{name: s, mountPath: /s}]}]
  volumes:
    - name: s
      ephemeral:
        volumeClaimTemplate: {metadata: {labels: {a: b}}}
`,
    },
  ],
  invalid: [
    {
      name: 'a populator reference without its apiGroup',
      code: pvc('  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 10Gi}}\n  dataSourceRef: {kind: ReplicationDestination, name: app-dst}\n'),
      errors: [{ messageId: 'badDataSource', severity: 'error', path: ['spec', 'dataSourceRef', 'kind'], messageIncludes: ['without an apiGroup', "must be 'PersistentVolumeClaim' when referencing the default apiGroup", 'set apiGroup: volsync.backube', 'at apply'] }],
    },
    {
      name: 'a restore from a VolumeSnapshot through dataSource without apiGroup',
      code: pvc('  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 10Gi}}\n  dataSource: {kind: VolumeSnapshot, name: nightly}\n'),
      errors: [{ messageId: 'badDataSource', path: ['spec', 'dataSource', 'kind'], messageIncludes: ['set apiGroup: snapshot.storage.k8s.io'] }],
    },
    {
      name: 'an apiGroup with the version written into it',
      code: pvc('  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 10Gi}}\n  dataSourceRef: {apiGroup: volsync.backube/v1alpha1, kind: ReplicationDestination, name: app-dst}\n'),
      errors: [{ messageId: 'badDataSource', path: ['spec', 'dataSourceRef', 'apiGroup'], messageIncludes: ['not a DNS subdomain', 'apiGroup: volsync.backube)'] }],
    },
    {
      name: 'dataSource and dataSourceRef that differ',
      code: pvc('  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 10Gi}}\n  dataSource: {apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot, name: nightly}\n  dataSourceRef: {apiGroup: volsync.backube, kind: ReplicationDestination, name: app-dst}\n'),
      errors: [{ messageId: 'badDataSource', path: ['spec', 'dataSource'], messageIncludes: ['must match dataSourceRef'] }],
    },
    {
      name: 'dataSource beside a cross-namespace dataSourceRef',
      code: pvc('  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 10Gi}}\n  dataSource: {apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot, name: nightly}\n  dataSourceRef: {apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot, name: nightly, namespace: backups}\n'),
      errors: [{ messageId: 'badDataSource', path: ['spec', 'dataSource'], messageIncludes: ['may not be specified when dataSourceRef.namespace is specified'] }],
    },
    {
      name: 'a claim template populated without apiGroup',
      code: statefulSet('        accessModes: [ReadWriteOnce]\n        resources: {requests: {storage: 1Gi}}\n        dataSourceRef: {kind: VolumeSnapshot, name: nightly}\n'),
      errors: [{ messageId: 'badDataSource', path: ['spec', 'volumeClaimTemplates', 0, 'spec', 'dataSourceRef', 'kind'], messageIncludes: ['volumeClaimTemplate "data"', 'FailedCreate'] }],
    },
    {
      name: 'a name with uppercase letters (a substituted variable) is rejected',
      code: pvc('  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n', 'Sonarr'),
      errors: [{ messageId: 'badName', severity: 'error', line: 3, path: ['metadata', 'name'], messageIncludes: ['PersistentVolumeClaim "Sonarr" has a name with uppercase letters', 'DNS subdomain'] }],
    },
    {
      name: 'an underscore or a trailing dash is not a DNS subdomain',
      code: pvc('  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n', 'app_data') + '---\n' + pvc('  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n', 'data-'),
      errors: [{ messageId: 'badName', messageIncludes: ['"app_data" has a name that is not a DNS subdomain'] }, { messageId: 'badName', messageIncludes: ['"data-"'] }],
    },
    {
      name: 'restore PVC with dataSourceRef still needs modes and size',
      code: pvc('  storageClassName: gp3\n  dataSourceRef: {apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot, name: nightly}\n'),
      errors: [
        { messageId: 'noAccessModes', severity: 'error', line: 4, resource: 'PersistentVolumeClaim/db/data', path: ['spec', 'accessModes'], messageIncludes: ['sets no accessModes', 'at least 1 access mode is required', 'at apply'] },
        { messageId: 'noStorage', line: 4, path: ['spec', 'resources', 'requests', 'storage'], messageIncludes: ['spec.resources[storage]: Required value'] },
      ],
    },
    {
      name: 'static PVC with volumeName and only limits.storage',
      code: pvc('  volumeName: pv-1\n  accessModes: []\n  resources:\n    limits: {storage: 1Gi}\n'),
      errors: [
        { messageId: 'noAccessModes', line: 6, messageIncludes: ['empty accessModes list'] },
        { messageId: 'noStorage', line: 7, messageIncludes: ['only limits.storage'] },
      ],
    },
    {
      name: 'claim template without accessModes fails at PVC creation on older clusters',
      code: statefulSet('        resources: {requests: {storage: 1Gi}}\n'),
      errors: [{ messageId: 'noAccessModes', line: 16, resource: 'StatefulSet/shop/web', path: ['spec', 'volumeClaimTemplates', 0, 'spec', 'accessModes'], messageIncludes: ['volumeClaimTemplate "data"', 'failed to create PVC', '#132212'] }],
    },
    {
      name: 'unknown access mode and zero storage',
      code: pvc('  accessModes: [ReadWriteOnce, ReadWriteAll]\n  resources: {requests: {storage: "0"}}\n'),
      errors: [
        { messageId: 'badAccessMode', line: 5, path: ['spec', 'accessModes', 1], messageIncludes: ['"ReadWriteAll"'] },
        { messageId: 'badStorage', line: 6, messageIncludes: ['not greater than zero'] },
      ],
    },
    {
      name: 'RWOP with another mode, and a storage request that is no quantity',
      code: pvc('  accessModes: [ReadWriteOncePod, ReadWriteOnce]\n  resources: {requests: {storage: 10GB}}\n'),
      errors: [
        { messageId: 'mixedRwop', line: 5 },
        { messageId: 'badStorage', line: 6, messageIncludes: ['not a Kubernetes quantity (like 10Gi), and the API server rejects it at apply.'] },
      ],
    },
    {
      name: 'generic ephemeral claim template without storage, in a Job',
      code: `apiVersion: batch/v1
kind: Job
metadata: {name: build, namespace: ci}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox, volumeMounts: [{name: s, mountPath: /s}]}]
      volumes:
        - name: s
          ephemeral:
            volumeClaimTemplate:
              spec:
                accessModes: [ReadWriteOnce]
`,
      errors: [{ messageId: 'noStorage', line: 13, messageIncludes: ['Job "build": ephemeral volume "s"', 'rejects the Job at apply'] }],
    },
    {
      name: 'both documents of a twin pair are incomplete: both reported',
      code: pvc('  resources: {requests: {storage: 1Gi}}\n') + '---\n' + pvc('  resources: {requests: {storage: 5Gi}}\n'),
      errors: [{ messageId: 'noAccessModes', line: 4 }, { messageId: 'noAccessModes', line: 10 }],
    },
  ],
});
