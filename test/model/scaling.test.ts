// Linear scaling of the model and the rules: no rule (or model helper) may scan a kind's documents once per resource.
// Counted, not timed: every `ofKind` call (claimsOf goes through it) and every document it hands out, with all
// built-in rules over a synthetic scope of N units and of 8N units. Pairwise scans show up as calls growing with N.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runRules } from '../../src/engine/run-rules.js';
import { parseResources } from '../../src/load/parse-resources.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { StorageModel } from '../../src/model/storage-model.js';
import { defaultRuleSettings } from '../../src/registry.js';

const test = suite('model and rules scale linearly');

/** One unit: a mix of storage objects with pitfalls (twins, static claims no PV matches, claim templates, missing claims). */
function unit(i: number): string {
  const ns = `team-${i % 5}`;
  return `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: sc-${i}${i === 0 ? ', annotations: {storageclass.kubernetes.io/is-default-class: "true"}' : ''}}
provisioner: ebs.csi.aws.com
volumeBindingMode: Immediate
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local-${i % 3}}
provisioner: kubernetes.io/no-provisioner
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data-${i}, namespace: ${ns}}
spec:
  storageClassName: ""
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 10Gi}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data-${i}, namespace: ${ns}}
spec:
  storageClassName: ""
  accessModes: [ReadWriteMany]
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: shared-${i}, namespace: ${ns}}
spec:
  storageClassName: local-${i % 3}
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-${i}}
spec:
  storageClassName: ""
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Recycle
  claimRef: {namespace: ${ns}, name: gone-${i}}
  local: {path: /mnt/${i}}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: csi-${i}}
spec:
  storageClassName: sc-${i}
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-${i % 4}}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-a]}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db-${i}, namespace: ${ns}}
spec:
  replicas: 3
  serviceName: db-${i}
  selector: {matchLabels: {app: db-${i}}}
  template:
    metadata: {labels: {app: db-${i}}}
    spec:
      nodeSelector: {topology.kubernetes.io/zone: zone-b}
      securityContext: {fsGroup: 1000}
      containers:
      - name: postgres
        image: postgres:16
        volumeMounts: [{name: pgdata, mountPath: /var/lib/postgresql/data}, {name: pgdata, mountPath: /var/lib/postgresql/data}]
  volumeClaimTemplates:
  - metadata: {name: pgdata}
    spec: {accessModes: [ReadWriteOnce], storageClassName: sc-${i}, resources: {requests: {storage: 1Gi}}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: app-${i}, namespace: ${ns}}
spec:
  replicas: 3
  selector: {matchLabels: {app: app-${i}}}
  template:
    metadata: {labels: {app: app-${i}}}
    spec:
      containers:
      - name: app
        image: nginx
        volumeMounts: [{name: data, mountPath: /data, subPath: x}, {name: cfg, mountPath: /cfg, subPath: y}, {name: ghost, mountPath: /g}]
      volumes:
      - {name: data, persistentVolumeClaim: {claimName: shared-${i}}}
      - {name: cfg, configMap: {name: cfg-${i}}}
      - {name: missing, persistentVolumeClaim: {claimName: absent-${i}}}
---
apiVersion: v1
kind: Pod
metadata: {name: pod-${i}, namespace: ${ns}}
spec:
  nodeName: node-${i}
  containers: [{name: c, image: busybox, volumeMounts: [{name: d, mountPath: /d}]}]
  volumes: [{name: d, persistentVolumeClaim: {claimName: data-${i}}}]
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: app-${i}, namespace: ${ns}}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: app-${i}}
  maxReplicas: 5
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg-${i}, namespace: ${ns}}
data: {y: "1"}
---
apiVersion: v1
kind: Service
metadata: {name: db-${i}, namespace: ${ns}}
spec: {selector: {app: db-${i}}, ports: [{port: 2049}]}
`;
}

function measure(units: number): { calls: number; handedOut: number; findings: number; resources: number } {
  let text = '';
  for (let i = 0; i < units; i++) text += unit(i);
  const parsed = parseResources(makeSourceFile('/virtual/scale.yaml', 'scale.yaml', text));
  assert.is(parsed.diagnostics.length, 0);
  const model = new StorageModel(parsed.resources, { scope: 'scale' });
  let calls = 0;
  let handedOut = 0;
  const ofKind = model.ofKind.bind(model);
  model.ofKind = (kind: string) => {
    const list = ofKind(kind);
    calls++;
    handedOut += list.length;
    return list;
  };
  const result = runRules(model, defaultRuleSettings());
  assert.equal(result.crashes.map((c) => c.message), []);
  return { calls, handedOut, findings: result.findings.length, resources: parsed.resources.length };
}

test('ofKind calls do not grow with the number of documents; documents handed out grow linearly', () => {
  const small = measure(6);
  const large = measure(48);
  assert.is(large.resources, 8 * small.resources);
  // The input exercises the rules: findings grow with it.
  assert.ok(small.findings > 0 && large.findings >= 4 * small.findings, `findings ${small.findings} -> ${large.findings}`);
  assert.is(large.calls, small.calls, `ofKind calls ${small.calls} at ${small.resources} documents, ${large.calls} at ${large.resources}`);
  // Linear: 8x the documents hands out at most ~8x the documents (a pairwise scan would hand out ~64x).
  assert.ok(large.handedOut <= 10 * small.handedOut, `documents handed out ${small.handedOut} -> ${large.handedOut}`);
});

test.run();
