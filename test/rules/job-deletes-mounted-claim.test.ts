import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import rule, { claimDeletions } from '../../rules/job-deletes-mounted-claim.js';
import { ruleTester } from '../helpers/rule-tester.js';

const app = (claim = 'data', namespace = 'shop') => `apiVersion: apps/v1
kind: Deployment
metadata: {name: shop, namespace: ${namespace}}
spec:
  selector: {matchLabels: {app: shop}}
  template:
    metadata: {labels: {app: shop}}
    spec:
      containers: [{name: shop, image: shop, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: ${claim}}}]
---
`;
const job = (command: string, annotations = '') => `apiVersion: batch/v1
kind: Job
metadata: {name: reset, namespace: shop${annotations}}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: kubectl
          image: bitnami/kubectl:1.31
          command: ${command}
`;

ruleTester(rule, {
  valid: [
    { name: 'another claim', code: app() + job('["kubectl", "delete", "pvc", "scratch"]') },
    { name: 'another namespace', code: app() + job('["kubectl", "delete", "pvc", "data", "-n", "staging"]') },
    { name: 'a selector is not resolved', code: app() + job('["sh", "-c", "kubectl delete pvc -l app=shop"]') },
    { name: 'a Helm post-delete hook', code: app() + job('["kubectl", "delete", "pvc", "data"]', ', annotations: {helm.sh/hook: post-delete}') },
    { name: 'kubectl get, not delete', code: app() + job('["kubectl", "get", "pvc", "data"]') },
    { name: 'deleting a pod, not a claim', code: app() + job('["kubectl", "delete", "pod", "data"]') },
    {
      // A deliberate reset: the workload is stopped first, the claim re-created, the workload started again.
      name: 'stays quiet on a reset script that scales the workload to zero before deleting its claim',
      code: app() + job('["sh", "-c", "kubectl scale deployment/shop --replicas=0 && kubectl wait --for=delete pod -l app=shop --timeout=300s && kubectl delete pvc data && kubectl apply -f /manifests/data.yaml && kubectl scale deployment/shop --replicas=1"]'),
    },
    { name: 'stays quiet on `kubectl scale deployment shop --replicas 0` before the deletion', code: app() + job('["sh", "-c", "kubectl scale deployment shop --replicas 0; kubectl delete pvc data"]') },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'scaling another workload to zero does not stop the one that mounts the claim',
      code: app() + job('["sh", "-c", "kubectl scale deployment/worker --replicas=0 && kubectl delete pvc data"]'),
      errors: [{ messageId: 'deletes' }],
    },
    {
      name: 'scaling down after the deletion is too late',
      code: app() + job('["sh", "-c", "kubectl delete pvc data && kubectl scale deployment/shop --replicas=0"]'),
      errors: [{ messageId: 'deletes' }],
    },
    {
      name: 'kubectl delete pvc NAME in the Job namespace',
      code: app() + job('["kubectl", "delete", "pvc", "data"]'),
      errors: [{
        messageId: 'deletes', severity: 'error', resource: 'Job/shop/reset', path: ['spec', 'template', 'spec', 'containers', 0, 'command', 1],
        messageIncludes: ['deletes PersistentVolumeClaim "data" in namespace "shop"', 'Deployment "shop" mounts'],
      }],
    },
    {
      name: 'a shell script with pvc/NAME and -n',
      code: app('data', 'prod') + job('["/bin/sh", "-c", "set -e\\nkubectl -n prod delete persistentvolumeclaim/data --wait=false\\necho done"]'),
      errors: [{ messageId: 'deletes', path: ['spec', 'template', 'spec', 'containers', 0, 'command', 2], messageIncludes: ['namespace "prod"'] }],
    },
    {
      name: 'delete pvc --all',
      code: app() + job('["kubectl", "delete", "pvc", "--all"]'),
      errors: [{ messageId: 'deletes', messageIncludes: ['"data"'] }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'deletes' }] })),
  ],
});

const parse = suite('claimDeletions');
parse('reads names, namespaces and --all', () => {
  assert.equal(claimDeletions('kubectl delete pvc a b --ignore-not-found').map((d) => d.names), [['a', 'b']]);
  assert.equal(claimDeletions('kubectl delete -n x pvc/a').map((d) => [d.names, d.namespace]), [[['a'], 'x']]);
  assert.equal(claimDeletions('kubectl delete pvc "$NAME"').length, 0);
  assert.equal(claimDeletions('kubectl delete deployment web').length, 0);
  assert.equal(claimDeletions('echo hi; kubectl delete pvc --all --namespace=y').map((d) => [d.all, d.namespace]), [[true, 'y']]);
});
parse.run();
