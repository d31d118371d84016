import rule from '../../rules/pod-missing-pvc.js';
import { parseResources } from '../../src/load/parse-resources.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import type { RemovedObject } from '../../src/model/removed-objects.js';
import { ruleTester } from '../helpers/rule-tester.js';

const deployment = (namespace: string | undefined, claim: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web${namespace ? `\n  namespace: ${namespace}` : ''}
spec:
  template:
    spec:
      containers:
        - name: web
          image: nginx
          volumeMounts: [{name: data, mountPath: /data}]
      volumes:
        - name: data
          persistentVolumeClaim:
            claimName: ${claim}
`;
const pvc = (namespace: string | undefined, name: string) => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: ${name}${namespace ? `\n  namespace: ${namespace}` : ''}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`;

/** What the kustomize renderer hands the model for a base claim an overlay deletes. */
const removedClaim = (name: string): RemovedObject[] => {
  const base = parseResources(makeSourceFile('/virtual/base/claims.yaml', 'base/claims.yaml', pvc(undefined, name))).resources[0];
  const patch = parseResources(makeSourceFile('/virtual/overlay/drop.yaml', 'overlay/drop.yaml', `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ${name}}
$patch: delete
`)).resources[0];
  return [{ resource: base, deletedBy: patch }];
};

ruleTester(rule, {
  valid: [
    { name: 'claim in the same namespace', code: deployment('shop', 'data') + pvc('shop', 'data') },
    { name: 'both without namespace land in the default namespace', code: deployment(undefined, 'data') + pvc(undefined, 'data') },
    { name: 'explicit default namespace matches an unset one', code: deployment(undefined, 'data') + pvc('default', 'data') },
    {
      name: 'claim created by a StatefulSet claim template',
      code: deployment('db', 'data-pg-0') + `---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: pg, namespace: db}
spec:
  replicas: 1
  template:
    spec:
      containers: [{name: pg, image: postgres}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`,
    },
    {
      name: 'a StatefulSet pod volume named like a claim template is replaced by the template claim',
      code: `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: db}
spec:
  template:
    spec:
      containers: [{name: db, image: cockroachdb/cockroach, volumeMounts: [{name: datadir, mountPath: /data}]}]
      volumes:
        - name: datadir
          persistentVolumeClaim: {claimName: datadir}
  volumeClaimTemplates:
    - metadata: {name: datadir}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`,
    },
    {
      name: 'generic ephemeral volumes are not claims by name',
      code: `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: busybox}]
  volumes:
    - name: scratch
      ephemeral:
        volumeClaimTemplate:
          spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`,
    },
  ],
  invalid: [
    {
      name: 'a claim the environment deletes with $patch: delete is an error at the patch',
      code: deployment('shop', 'data'),
      model: { removed: removedClaim('data') },
      errors: [{ messageId: 'removedByPatch', severity: 'error', resource: 'PersistentVolumeClaim//data', path: ['$patch'], messageIncludes: ['deletes with a `$patch: delete` patch'] }],
    },
    {
      name: 'a deleted claim of another name does not change the note',
      code: deployment('shop', 'data'),
      model: { removed: removedClaim('cache') },
      errors: [{ messageId: 'missing', severity: 'note' }],
    },
    {
      name: 'claim not in the repo is a note',
      code: deployment('shop', 'data'),
      errors: [{ messageId: 'missing', severity: 'note', line: 16, resource: 'Deployment/shop/web', path: ['spec', 'template', 'spec', 'volumes', 0, 'persistentVolumeClaim', 'claimName'], messageIncludes: ['"data"', 'not in the repo'] }],
    },
    {
      name: 'a misspelt claim gets the unmounted claim of a similar name as a suggestion',
      code: deployment('media', 'sonar') + pvc('media', 'sonarr') + pvc('media', 'radarr'),
      errors: [{ messageId: 'missing', severity: 'warning', messageIncludes: ['"sonar"', 'did you mean "sonarr"? nothing mounts that claim'] }],
    },
    {
      name: 'a similar claim that another workload mounts is not suggested',
      code: deployment('media', 'sonar') + pvc('media', 'sonarr') + '---\n' + deployment('media', 'sonarr').replace('name: web\n', 'name: sonarr\n'),
      errors: [{ messageId: 'missing', severity: 'note', messageIncludes: ['"sonar", which is not in the repo in namespace "media";'] }],
    },
    {
      name: 'a similar claim in another namespace is not suggested',
      code: deployment('media', 'sonar') + pvc('downloads', 'sonarr'),
      errors: [{ messageId: 'missing', severity: 'note', messageIncludes: ['"sonar", which is not in the repo in namespace "media";'] }],
    },
    {
      name: 'claims differing only in digits are not suggested',
      code: deployment('shop', 'data-2') + pvc('shop', 'data-1'),
      errors: [{ messageId: 'missing', severity: 'note', messageIncludes: ['"data-2", which is not in the repo in namespace "shop";'] }],
    },
    {
      name: 'claim missing from a complete bundle is an error',
      code: deployment('shop', 'data'),
      model: { bundleComplete: true },
      errors: [{ messageId: 'missing', severity: 'error', messageIncludes: ['does not exist'] }],
    },
    {
      name: 'claim in another namespace is an error',
      code: deployment('shop', 'data') + pvc('default', 'data'),
      errors: [{ messageId: 'otherNamespace', severity: 'error', messageIncludes: ['namespace "default"'] }],
    },
    {
      // `kubectl apply -n shop`, an Argo CD destination or a Flux targetNamespace puts it next to the pod: no error.
      name: 'a claim written without a namespace lands where it is applied: a note, not an error',
      code: deployment('shop', 'data') + `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`,
      errors: [{ messageId: 'unnamespaced', severity: 'note', messageIncludes: ['without a namespace', 'metadata.namespace: shop'] }],
    },
    {
      name: 'a workload written without a namespace runs where it is applied: a note, not an error',
      code: deployment(undefined, 'data') + pvc('media', 'data'),
      errors: [{ messageId: 'unnamespacedWorkload', severity: 'note', messageIncludes: ['written without a namespace', 'namespace "media"'] }],
    },
    {
      name: 'a claim template name of another StatefulSet does not count',
      code: deployment('db', 'data-other-0') + `---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: pg, namespace: db}
spec:
  template:
    spec:
      containers: [{name: pg, image: postgres}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`,
      errors: [{ messageId: 'missing' }],
    },
  ],
});
