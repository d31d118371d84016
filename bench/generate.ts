// Deterministic synthetic GitOps repos for the benchmark: N Kubernetes documents with a realistic mix.
//
// - About one document in five is storage: PVCs, static PVs, StorageClasses, StatefulSets with
//   volumeClaimTemplates, Deployments / Jobs / CronJobs / Pods mounting claims; a few per cent of those carry
//   real pitfalls (RWO claim on 3 replicas, missing claim, unknown class, mount of an undeclared volume,
//   duplicate mountPath, duplicate CSI handle, local PV without node affinity, claimRef/size mismatch).
// - Other workloads (Deployments without claims, DaemonSets), HPAs and Namespaces: kinds pvlint reads.
// - The rest is what platform repos are full of: Services, ConfigMaps (some of 20–200 KB, dashboards),
//   Secrets, RBAC, Ingresses, NetworkPolicies, PDBs, ServiceMonitors, PrometheusRules and CRDs of 50–300 KB.
// - Layout: <area>/<team>/<app>/ directories of a few files each (one to fifteen documents a file),
//   CRDs under crds/<operator>/, dashboards under monitoring/dashboards/; and under kustomize/ a handful of
//   apps with a base and two overlays (dev, prod; prod scales an RWO Deployment to 3 — a pitfall).
// Same seed and size, same bytes.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface GeneratedRepo {
  dir: string;
  documents: number;
  files: number;
  bytes: number;
  /** Documents by kind. */
  kinds: Record<string, number>;
  /** Kustomize roots (overlays) to render, absolute. */
  kustomizeRoots: string[];
  /** The kustomize/ subtree (what the Kustomize comparison lints). */
  kustomizeDir: string;
}

/** mulberry32: a small, fast, seedable PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['alpha', 'bravo', 'cedar', 'delta', 'ember', 'fjord', 'glade', 'harbor', 'iris', 'juniper', 'kestrel', 'lumen', 'maple', 'nova', 'onyx', 'pike', 'quartz', 'raven', 'sable', 'tundra', 'umber', 'vale', 'willow', 'xenon', 'yarrow', 'zephyr'];
const DESCRIPTIONS = [
  'Specifies the desired state of the resource as declared by the user.',
  'Reference to a secret in the same namespace that holds the credentials.',
  'When set, the controller reconciles this field on every sync interval.',
  'List of label selector requirements. The requirements are ANDed.',
  'Duration in seconds the controller waits before retrying a failed operation.',
  'Optional, defaults to the value configured on the controller.',
];

class Generator {
  readonly rand: () => number;
  readonly kinds: Record<string, number> = {};
  documents = 0;
  private counter = 0;
  classes: string[] = [];

  constructor(seed: number) {
    this.rand = prng(seed);
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.rand() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rand() * items.length)];
  }

  chance(p: number): boolean {
    return this.rand() < p;
  }

  id(prefix: string): string {
    return `${prefix}-${(this.counter++).toString(36)}`;
  }

  count(kind: string, n = 1): void {
    this.kinds[kind] = (this.kinds[kind] ?? 0) + n;
    this.documents += n;
  }
}

function labels(app: string, indent: string): string {
  return `${indent}labels:\n${indent}  app.kubernetes.io/name: ${app}\n${indent}  app.kubernetes.io/part-of: platform\n`;
}

function meta(name: string, ns: string | undefined, app: string): string {
  return `metadata:\n  name: ${name}\n${ns ? `  namespace: ${ns}\n` : ''}${labels(app, '  ')}`;
}

interface PodSpecOptions {
  claims?: { volume: string; claim: string; mountPath: string; readOnly?: boolean }[];
  pitfall?: 'unknown-volume' | 'duplicate-mount';
  indent: string;
  restartNever?: boolean;
}

function podSpec(g: Generator, app: string, o: PodSpecOptions): string {
  const i = o.indent;
  const claims = o.claims ?? [];
  let s = `${i}serviceAccountName: ${app}\n`;
  if (o.restartNever) s += `${i}restartPolicy: Never\n`;
  s += `${i}securityContext:\n${i}  runAsNonRoot: true\n${i}  fsGroup: 2000\n${g.chance(0.8) ? `${i}  fsGroupChangePolicy: OnRootMismatch\n` : ''}`;
  s += `${i}containers:\n${i}  - name: ${app}\n${i}    image: registry.example.com/${app}:1.${g.int(0, 30)}.${g.int(0, 9)}\n`;
  s += `${i}    ports:\n${i}      - containerPort: 8080\n${i}        name: http\n`;
  s += `${i}    env:\n${i}      - name: LOG_LEVEL\n${i}        value: info\n${i}      - name: POD_NAMESPACE\n${i}        valueFrom:\n${i}          fieldRef:\n${i}            fieldPath: metadata.namespace\n`;
  s += `${i}    resources:\n${i}      requests:\n${i}        cpu: ${g.int(1, 9) * 50}m\n${i}        memory: ${g.int(1, 16) * 64}Mi\n${i}      limits:\n${i}        memory: ${g.int(16, 32) * 64}Mi\n`;
  s += `${i}    readinessProbe:\n${i}      httpGet:\n${i}        path: /healthz\n${i}        port: http\n${i}      periodSeconds: 10\n`;
  const mounts = claims.map((c) => `${i}      - name: ${c.volume}\n${i}        mountPath: ${c.mountPath}\n${c.readOnly ? `${i}        readOnly: true\n` : ''}`);
  mounts.push(`${i}      - name: config\n${i}        mountPath: /etc/${app}\n`);
  if (o.pitfall === 'unknown-volume') mounts.push(`${i}      - name: scratch-data\n${i}        mountPath: /scratch\n`);
  if (o.pitfall === 'duplicate-mount' && claims.length > 0) mounts.push(`${i}      - name: config\n${i}        mountPath: ${claims[0].mountPath}\n`);
  s += `${i}    volumeMounts:\n${mounts.join('')}`;
  s += `${i}volumes:\n${i}  - name: config\n${i}    configMap:\n${i}      name: ${app}-config\n`;
  for (const c of claims) s += `${i}  - name: ${c.volume}\n${i}    persistentVolumeClaim:\n${i}      claimName: ${c.claim}\n`;
  return s;
}

interface Ctx {
  g: Generator;
  ns: string;
  app: string;
  docs: string[];
}

const ACCESS = ['ReadWriteOnce', 'ReadWriteOnce', 'ReadWriteOnce', 'ReadWriteOnce', 'ReadWriteMany', 'ReadWriteOncePod'];

function pvc(c: Ctx, name: string, opts: { access?: string; size?: number; klass?: string | null; volumeName?: string } = {}): void {
  const { g } = c;
  const access = opts.access ?? g.pick(ACCESS);
  // ReadWriteMany goes on EFS, except now and then (pvc-access-mode-unsupported: EBS cannot share).
  const chosen = opts.klass ?? (access === 'ReadWriteMany' && !g.chance(0.05) ? 'efs' : g.pick(g.classes.filter((k) => k !== 'efs')));
  const klass = opts.klass === null ? '' : `  storageClassName: ${chosen}\n`;
  c.docs.push(
    `apiVersion: v1\nkind: PersistentVolumeClaim\n${meta(name, c.ns, c.app)}spec:\n  accessModes:\n    - ${access}\n${klass}` +
      `${opts.volumeName ? `  volumeName: ${opts.volumeName}\n` : ''}  resources:\n    requests:\n      storage: ${opts.size ?? g.int(1, 50) * 10}Gi\n`,
  );
  g.count('PersistentVolumeClaim');
}

/** One "unit" of documents: what an app directory typically holds. */
const UNITS: { weight: number; make: (c: Ctx) => void }[] = [
  // Storage (~20% of documents).
  { weight: 30, make: (c) => pvc(c, c.g.id(`${c.app}-data`)) },
  {
    weight: 10,
    make: (c) => {
      // A static PV bound to a claim (sometimes with a size mismatch or a local PV without node affinity).
      const { g } = c;
      const claim = g.id(`${c.app}-static`);
      const pv = g.id('pv');
      const local = g.chance(0.15);
      const pitfall = g.chance(0.06);
      const source = local
        ? `  local:\n    path: /mnt/disks/${pv}\n${pitfall ? '' : `  nodeAffinity:\n    required:\n      nodeSelectorTerms:\n        - matchExpressions:\n            - key: kubernetes.io/hostname\n              operator: In\n              values:\n                - node-${g.int(1, 40)}\n`}`
        : `  csi:\n    driver: ebs.csi.aws.com\n    volumeHandle: vol-${pitfall && g.chance(0.5) ? '0dup' : g.id('0')}\n    fsType: ext4\n`;
      c.docs.push(
        `apiVersion: v1\nkind: PersistentVolume\n${meta(pv, undefined, c.app)}spec:\n  capacity:\n    storage: 100Gi\n  accessModes:\n    - ReadWriteOnce\n  persistentVolumeReclaimPolicy: Retain\n` +
          `  storageClassName: ${local ? 'local-storage' : 'manual'}\n  claimRef:\n    namespace: ${c.ns}\n    name: ${claim}\n${source}`,
      );
      g.count('PersistentVolume');
      pvc(c, claim, { access: 'ReadWriteOnce', size: pitfall && !local ? 200 : 100, klass: local ? 'local-storage' : 'manual', volumeName: pv });
    },
  },
  {
    weight: 12,
    make: (c) => {
      // StatefulSet with volumeClaimTemplates, its headless Service.
      const { g } = c;
      const name = g.id(c.app);
      c.docs.push(
        `apiVersion: apps/v1\nkind: StatefulSet\n${meta(name, c.ns, c.app)}spec:\n  serviceName: ${name}\n  replicas: ${g.int(1, 5)}\n  selector:\n    matchLabels:\n      app.kubernetes.io/name: ${c.app}\n` +
          `  template:\n    metadata:\n${labels(c.app, '      ')}    spec:\n${podSpec(g, c.app, { indent: '      ', claims: [] }).replace(`          volumeMounts:\n`, `          volumeMounts:\n            - name: data\n              mountPath: /var/lib/${c.app}\n`)}` +
          `  volumeClaimTemplates:\n    - metadata:\n        name: data\n      spec:\n        accessModes:\n          - ReadWriteOnce\n        storageClassName: ${g.pick(g.classes)}\n        resources:\n          requests:\n            storage: ${g.int(1, 20) * 10}Gi\n`,
      );
      c.docs.push(`apiVersion: v1\nkind: Service\n${meta(name, c.ns, c.app)}spec:\n  clusterIP: None\n  selector:\n    app.kubernetes.io/name: ${c.app}\n  ports:\n    - port: 8080\n      name: http\n`);
      g.count('StatefulSet');
      g.count('Service');
    },
  },
  {
    weight: 22,
    make: (c) => {
      // A Deployment mounting its claim; pitfalls: RWO on 3 replicas, missing claim, undeclared volume, duplicate mountPath.
      const { g } = c;
      const claim = g.id(`${c.app}-cache`);
      const roll = g.rand();
      const pitfall = roll < 0.03 ? 'rwo-replicas' : roll < 0.05 ? 'missing-claim' : roll < 0.06 ? 'unknown-volume' : roll < 0.07 ? 'duplicate-mount' : undefined;
      if (pitfall !== 'missing-claim') pvc(c, claim, { access: pitfall === 'rwo-replicas' ? 'ReadWriteOnce' : g.pick(['ReadWriteOnce', 'ReadWriteMany']) });
      const replicas = pitfall === 'rwo-replicas' ? 3 : 1;
      const strategy = g.chance(0.6) ? '  strategy:\n    type: Recreate\n' : '';
      c.docs.push(
        `apiVersion: apps/v1\nkind: Deployment\n${meta(g.id(c.app), c.ns, c.app)}spec:\n  replicas: ${replicas}\n${strategy}  selector:\n    matchLabels:\n      app.kubernetes.io/name: ${c.app}\n` +
          `  template:\n    metadata:\n${labels(c.app, '      ')}    spec:\n${podSpec(g, c.app, {
            indent: '      ',
            claims: [{ volume: 'data', claim, mountPath: `/var/cache/${c.app}` }],
            pitfall: pitfall === 'unknown-volume' || pitfall === 'duplicate-mount' ? pitfall : undefined,
          })}`,
      );
      g.count('Deployment');
    },
  },
  {
    weight: 8,
    make: (c) => {
      const { g } = c;
      const claim = g.id(`${c.app}-work`);
      pvc(c, claim, { access: 'ReadWriteOnce', klass: g.chance(0.1) ? 'premium-nvme' : undefined });
      c.docs.push(
        `apiVersion: batch/v1\nkind: Job\n${meta(g.id(`${c.app}-migrate`), c.ns, c.app)}spec:\n  backoffLimit: 2\n  activeDeadlineSeconds: ${g.int(1, 48) * 600}\n  template:\n    metadata:\n${labels(c.app, '      ')}    spec:\n` +
          podSpec(g, c.app, { indent: '      ', restartNever: true, claims: [{ volume: 'work', claim, mountPath: '/work' }] }),
      );
      g.count('Job');
    },
  },
  {
    weight: 8,
    make: (c) => {
      const { g } = c;
      const claim = g.id(`${c.app}-backup`);
      pvc(c, claim, { access: g.pick(['ReadWriteOnce', 'ReadWriteMany']) });
      c.docs.push(
        `apiVersion: batch/v1\nkind: CronJob\n${meta(g.id(`${c.app}-backup`), c.ns, c.app)}spec:\n  schedule: "${g.int(0, 59)} ${g.int(0, 23)} * * *"\n  concurrencyPolicy: ${g.pick(['Forbid', 'Allow'])}\n  jobTemplate:\n    spec:\n      template:\n        spec:\n` +
          podSpec(g, c.app, { indent: '          ', restartNever: true, claims: [{ volume: 'backup', claim, mountPath: '/backup' }] }),
      );
      g.count('CronJob');
    },
  },
  {
    weight: 2,
    make: (c) => {
      const { g } = c;
      c.docs.push(`apiVersion: v1\nkind: Pod\n${meta(g.id(`${c.app}-debug`), c.ns, c.app)}spec:\n${podSpec(g, c.app, { indent: '  ', claims: [{ volume: 'data', claim: g.id(`${c.app}-data`), mountPath: '/data', readOnly: true }] })}`);
      g.count('Pod');
    },
  },
  // Other kinds pvlint reads (~7%).
  {
    weight: 45,
    make: (c) => {
      const { g } = c;
      c.docs.push(
        `apiVersion: apps/v1\nkind: Deployment\n${meta(g.id(c.app), c.ns, c.app)}spec:\n  replicas: ${g.int(1, 6)}\n  selector:\n    matchLabels:\n      app.kubernetes.io/name: ${c.app}\n` +
          `  template:\n    metadata:\n${labels(c.app, '      ')}    spec:\n${podSpec(g, c.app, { indent: '      ' })}`,
      );
      g.count('Deployment');
    },
  },
  {
    weight: 8,
    make: (c) => {
      const { g } = c;
      c.docs.push(
        `apiVersion: apps/v1\nkind: DaemonSet\n${meta(g.id(`${c.app}-agent`), c.ns, c.app)}spec:\n  selector:\n    matchLabels:\n      app.kubernetes.io/name: ${c.app}\n  template:\n    metadata:\n${labels(c.app, '      ')}    spec:\n` +
          podSpec(g, c.app, { indent: '      ' }).replace('    volumes:\n', `    volumes:\n        - name: varlog\n          hostPath:\n            path: /var/log\n`),
      );
      g.count('DaemonSet');
    },
  },
  {
    weight: 6,
    make: (c) => {
      const { g } = c;
      c.docs.push(`apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n${meta(g.id(c.app), c.ns, c.app)}spec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: ${c.app}\n  minReplicas: 1\n  maxReplicas: ${g.int(2, 10)}\n  metrics:\n    - type: Resource\n      resource:\n        name: cpu\n        target:\n          type: Utilization\n          averageUtilization: 70\n`);
      g.count('HorizontalPodAutoscaler');
    },
  },
  { weight: 4, make: (c) => { c.docs.push(`apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${c.ns}\n${labels(c.app, '  ')}`); c.g.count('Namespace'); } },
  // Everything else (~73%).
  {
    weight: 150,
    make: (c) => {
      const { g } = c;
      c.docs.push(`apiVersion: v1\nkind: Service\n${meta(g.id(c.app), c.ns, c.app)}spec:\n  type: ClusterIP\n  selector:\n    app.kubernetes.io/name: ${c.app}\n  ports:\n    - name: http\n      port: 80\n      targetPort: http\n      protocol: TCP\n`);
      g.count('Service');
    },
  },
  {
    weight: 110,
    make: (c) => {
      const { g } = c;
      let data = '';
      for (let i = g.int(2, 12); i > 0; i--) data += `  ${g.pick(WORDS)}.${g.pick(WORDS)}.${i}: "${g.pick(WORDS)}-${g.int(1, 9999)}"\n`;
      c.docs.push(`apiVersion: v1\nkind: ConfigMap\n${meta(g.id(`${c.app}-config`), c.ns, c.app)}data:\n${data}`);
      g.count('ConfigMap');
    },
  },
  { weight: 35, make: (c) => { const { g } = c; c.docs.push(`apiVersion: v1\nkind: Secret\n${meta(g.id(`${c.app}-creds`), c.ns, c.app)}type: Opaque\nstringData:\n  username: ${c.app}\n  password: "${'x'.repeat(24)}"\n`); g.count('Secret'); } },
  { weight: 80, make: (c) => { const { g } = c; c.docs.push(`apiVersion: v1\nkind: ServiceAccount\n${meta(g.id(c.app), c.ns, c.app)}automountServiceAccountToken: false\n`); g.count('ServiceAccount'); } },
  {
    weight: 40,
    make: (c) => {
      const { g } = c;
      const name = g.id(`${c.app}-reader`);
      const cluster = g.chance(0.4);
      const ns = cluster ? undefined : c.ns;
      const prefix = cluster ? 'Cluster' : '';
      let rules = '';
      for (let i = g.int(2, 8); i > 0; i--) rules += `  - apiGroups:\n      - "${g.pick(['', 'apps', 'batch', 'networking.k8s.io', 'monitoring.coreos.com'])}"\n    resources:\n      - ${g.pick(['pods', 'services', 'configmaps', 'deployments', 'jobs', 'ingresses', 'servicemonitors'])}\n    verbs:\n      - get\n      - list\n      - watch\n`;
      c.docs.push(`apiVersion: rbac.authorization.k8s.io/v1\nkind: ${prefix}Role\n${meta(name, ns, c.app)}rules:\n${rules}`);
      c.docs.push(`apiVersion: rbac.authorization.k8s.io/v1\nkind: ${prefix}RoleBinding\n${meta(name, ns, c.app)}roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ${prefix}Role\n  name: ${name}\nsubjects:\n  - kind: ServiceAccount\n    name: ${c.app}\n    namespace: ${c.ns}\n`);
      g.count(`${prefix}Role`);
      g.count(`${prefix}RoleBinding`);
    },
  },
  {
    weight: 40,
    make: (c) => {
      const { g } = c;
      c.docs.push(`apiVersion: networking.k8s.io/v1\nkind: Ingress\n${meta(g.id(c.app), c.ns, c.app)}  annotations:\n    cert-manager.io/cluster-issuer: letsencrypt\nspec:\n  ingressClassName: nginx\n  tls:\n    - hosts:\n        - ${c.app}.example.com\n      secretName: ${c.app}-tls\n  rules:\n    - host: ${c.app}.example.com\n      http:\n        paths:\n          - path: /\n            pathType: Prefix\n            backend:\n              service:\n                name: ${c.app}\n                port:\n                  name: http\n`);
      g.count('Ingress');
    },
  },
  { weight: 35, make: (c) => { const { g } = c; c.docs.push(`apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\n${meta(g.id(c.app), c.ns, c.app)}spec:\n  podSelector:\n    matchLabels:\n      app.kubernetes.io/name: ${c.app}\n  policyTypes:\n    - Ingress\n  ingress:\n    - from:\n        - namespaceSelector:\n            matchLabels:\n              kubernetes.io/metadata.name: ingress-nginx\n      ports:\n        - port: 8080\n`); g.count('NetworkPolicy'); } },
  { weight: 25, make: (c) => { const { g } = c; c.docs.push(`apiVersion: policy/v1\nkind: PodDisruptionBudget\n${meta(g.id(c.app), c.ns, c.app)}spec:\n  maxUnavailable: 1\n  selector:\n    matchLabels:\n      app.kubernetes.io/name: ${c.app}\n`); g.count('PodDisruptionBudget'); } },
  { weight: 35, make: (c) => { const { g } = c; c.docs.push(`apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\n${meta(g.id(c.app), c.ns, c.app)}spec:\n  selector:\n    matchLabels:\n      app.kubernetes.io/name: ${c.app}\n  endpoints:\n    - port: http\n      interval: 30s\n      path: /metrics\n`); g.count('ServiceMonitor'); } },
  {
    weight: 12,
    make: (c) => {
      // PrometheusRule of 5–20 KB.
      const { g } = c;
      const target = g.int(5, 20) * 1024;
      let rules = '';
      for (let i = 0; rules.length < target; i++) {
        rules += `        - alert: ${c.app}${g.pick(WORDS)}${i}\n          expr: |\n            sum(rate(http_requests_total{job="${c.app}",code=~"5.."}[5m])) by (instance)\n              / sum(rate(http_requests_total{job="${c.app}"}[5m])) by (instance) > 0.0${g.int(1, 9)}\n          for: ${g.int(1, 30)}m\n          labels:\n            severity: ${g.pick(['warning', 'critical'])}\n          annotations:\n            summary: ${DESCRIPTIONS[i % DESCRIPTIONS.length]}\n`;
      }
      c.docs.push(`apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\n${meta(g.id(c.app), c.ns, c.app)}spec:\n  groups:\n    - name: ${c.app}.rules\n      rules:\n${rules}`);
      g.count('PrometheusRule');
    },
  },
];

/** A CRD of `target` bytes: a deep openAPIV3Schema like operators ship. */
function crd(g: Generator, group: string, kind: string, target: number): string {
  const plural = `${kind.toLowerCase()}s`;
  let schema = '';
  let key = 0;
  const props = (depth: number, indent: string): void => {
    const n = depth === 0 ? 4 : g.int(2, 6);
    for (let i = 0; i < n && schema.length < target; i++) {
      const name = `${g.pick(WORDS)}${g.pick(WORDS).replace(/^./, (ch) => ch.toUpperCase())}${(key++).toString(36)}`;
      const nested = depth < 5 && g.chance(0.45);
      schema += `${indent}${name}:\n${indent}  description: ${g.pick(DESCRIPTIONS)} ${g.pick(DESCRIPTIONS)}\n`;
      if (nested) {
        schema += `${indent}  type: object\n${indent}  properties:\n`;
        props(depth + 1, `${indent}    `);
      } else {
        schema += `${indent}  type: ${g.pick(['string', 'integer', 'boolean', 'string'])}\n`;
        if (g.chance(0.3)) schema += `${indent}  enum:\n${indent}    - ${g.pick(WORDS)}\n${indent}    - ${g.pick(WORDS)}\n`;
      }
    }
  };
  while (schema.length < target) props(0, '                ');
  return (
    `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: ${plural}.${group}\n  annotations:\n    controller-gen.kubebuilder.io/version: v0.16.1\nspec:\n  group: ${group}\n` +
    `  names:\n    kind: ${kind}\n    listKind: ${kind}List\n    plural: ${plural}\n    singular: ${kind.toLowerCase()}\n  scope: Namespaced\n  versions:\n    - name: v1\n      served: true\n      storage: true\n` +
    `      schema:\n        openAPIV3Schema:\n          type: object\n          properties:\n            spec:\n              type: object\n              properties:\n${schema}`
  );
}

/** A dashboard ConfigMap of `target` bytes (Grafana JSON in a block scalar). */
function dashboard(g: Generator, ns: string, name: string, target: number): string {
  let json = '';
  for (let i = 0; json.length < target; i++) {
    json += `      {"id": ${i}, "type": "${g.pick(['graph', 'stat', 'table', 'heatmap'])}", "title": "${g.pick(WORDS)} ${g.pick(WORDS)}", "targets": [{"expr": "sum(rate(container_cpu_usage_seconds_total{namespace=\\"${ns}\\"}[5m])) by (pod)", "legendFormat": "{{pod}}"}], "gridPos": {"h": 8, "w": 12, "x": ${(i % 2) * 12}, "y": ${i * 8}}},\n`;
  }
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${ns}\n  labels:\n    grafana_dashboard: "1"\ndata:\n  ${name}.json: |\n    {"title": "${name}", "panels": [\n${json}      {}]}\n`;
}

function write(file: string, docs: readonly string[], stats: { files: number; bytes: number }): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const text = docs.join('---\n');
  writeFileSync(file, text);
  stats.files++;
  stats.bytes += Buffer.byteLength(text);
}

/** Splits an app's documents into files: most hold one document, some a few, some are bundles. */
function chunk(g: Generator, docs: string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < docs.length; ) {
    const r = g.rand();
    const n = r < 0.55 ? 1 : r < 0.9 ? g.int(2, 5) : g.int(6, 15);
    out.push(docs.slice(i, i + n));
    i += n;
  }
  return out;
}

function kustomizeApp(g: Generator, dir: string, app: string, stats: { files: number; bytes: number }): string[] {
  const ns = `kz-${app}`;
  const base = path.join(dir, app, 'base');
  const c: Ctx = { g, ns, app, docs: [] };
  const claim = `${app}-data`;
  pvc(c, claim, { access: 'ReadWriteOnce' });
  write(path.join(base, 'pvc.yaml'), c.docs, stats);
  c.docs = [];
  c.docs.push(
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${app}\n${labels(app, '  ')}spec:\n  replicas: 1\n  strategy:\n    type: Recreate\n  selector:\n    matchLabels:\n      app.kubernetes.io/name: ${app}\n` +
      `  template:\n    metadata:\n${labels(app, '      ')}    spec:\n${podSpec(g, app, { indent: '      ', claims: [{ volume: 'data', claim, mountPath: `/var/lib/${app}` }] })}`,
  );
  g.count('Deployment');
  write(path.join(base, 'deployment.yaml'), c.docs, stats);
  c.docs = [];
  c.docs.push(`apiVersion: v1\nkind: Service\nmetadata:\n  name: ${app}\nspec:\n  selector:\n    app.kubernetes.io/name: ${app}\n  ports:\n    - port: 80\n      targetPort: http\n`);
  c.docs.push(`apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: ${app}\n`);
  c.docs.push(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${app}-config\ndata:\n  mode: standard\n`);
  g.count('Service');
  g.count('ServiceAccount');
  g.count('ConfigMap');
  write(path.join(base, 'service.yaml'), c.docs, stats);
  write(path.join(base, 'kustomization.yaml'), [`apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - pvc.yaml\n  - deployment.yaml\n  - service.yaml\n`], stats);
  const roots: string[] = [];
  for (const env of ['dev', 'prod']) {
    const overlay = path.join(dir, app, 'overlays', env);
    const patch = env === 'prod'
      ? `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${app}\nspec:\n  replicas: 3\n`
      : `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${app}\nspec:\n  template:\n    spec:\n      containers:\n        - name: ${app}\n          env:\n            - name: LOG_LEVEL\n              value: debug\n`;
    write(path.join(overlay, 'patch.yaml'), [patch], stats);
    g.count('Deployment');
    write(
      path.join(overlay, 'kustomization.yaml'),
      [`apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: ${ns}-${env}\nnamePrefix: ${env}-\nresources:\n  - ../../base\npatches:\n  - path: patch.yaml\nimages:\n  - name: registry.example.com/${app}\n    newTag: "2.${env === 'prod' ? 0 : 1}.0"\n`],
      stats,
    );
    roots.push(overlay);
  }
  return roots;
}

const AREAS = ['apps', 'platform', 'infra', 'data'];
const CRD_KINDS = ['Certificate', 'Cluster', 'Backup', 'Policy', 'Pipeline', 'Gateway', 'Rollout', 'Scaler', 'Bucket', 'Database', 'Topic', 'Alertmanager'];

export function generateRepo(dir: string, documents: number, seed = 42): GeneratedRepo {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const g = new Generator(seed ^ documents);
  const stats = { files: 0, bytes: 0 };
  // StorageClasses: a few per cluster, one default (pvlint flags several defaults).
  const classes = ['gp3', 'gp2', 'io2', 'efs', 'standard-rwo', 'fast-ssd', 'local-storage', 'manual'];
  g.classes = classes.filter((c) => c !== 'local-storage' && c !== 'manual');
  const scDocs = classes.map(
    (name, i) =>
      `apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: ${name}\n${i === 0 ? '  annotations:\n    storageclass.kubernetes.io/is-default-class: "true"\n' : ''}` +
      `provisioner: ${name === 'efs' ? 'efs.csi.aws.com' : name.startsWith('local') || name === 'manual' ? 'kubernetes.io/no-provisioner' : 'ebs.csi.aws.com'}\n` +
      `volumeBindingMode: WaitForFirstConsumer\nreclaimPolicy: Delete\nallowVolumeExpansion: true\n`,
  );
  g.count('StorageClass', scDocs.length);
  write(path.join(dir, 'infra', 'storage', 'storageclasses.yaml'), scDocs, stats);

  // Kustomize apps: 3 at 1k, 5 at 10k, 8 at 100k (two overlays each are the roots).
  const kustomizeDir = path.join(dir, 'kustomize');
  const kustomizeApps = documents <= 2000 ? 3 : documents <= 20000 ? 5 : 8;
  const kustomizeRoots: string[] = [];
  for (let i = 0; i < kustomizeApps; i++) kustomizeRoots.push(...kustomizeApp(g, kustomizeDir, `${WORDS[i]}-svc`, stats));

  // CRDs (0.5% of documents, 50–300 KB) under crds/<operator>/, one file each or small bundles.
  const crdCount = Math.max(1, Math.round(documents * 0.005));
  for (let i = 0; i < crdCount; ) {
    const operator = `${g.pick(WORDS)}-operator-${Math.floor(i / 8)}`;
    const bundle = g.chance(0.3) ? g.int(2, 4) : 1;
    const docs: string[] = [];
    for (let j = 0; j < bundle && i < crdCount; j++, i++) docs.push(crd(g, `${operator}.example.io`, `${g.pick(CRD_KINDS)}${i}`, g.int(50, 300) * 1024));
    g.count('CustomResourceDefinition', docs.length);
    write(path.join(dir, 'crds', operator, `${docs.length > 1 ? 'bundle' : 'crd'}-${i}.yaml`), docs, stats);
  }
  // Big ConfigMaps (1%, 20–200 KB): dashboards.
  const dashboards = Math.max(1, Math.round(documents * 0.01));
  for (let i = 0; i < dashboards; i++) {
    const name = `dashboard-${i}`;
    write(path.join(dir, 'monitoring', 'dashboards', `group-${Math.floor(i / 12)}`, `${name}.yaml`), [dashboard(g, 'monitoring', name, g.int(20, 200) * 1024)], stats);
    g.count('ConfigMap');
  }
  // Apps until the document count is reached.
  const total = UNITS.reduce((n, u) => n + u.weight, 0);
  let app = 0;
  while (g.documents < documents) {
    const area = AREAS[app % AREAS.length];
    const team = `team-${Math.floor(app / 25)}`;
    const name = `${g.pick(WORDS)}-${app.toString(36)}`;
    const c: Ctx = { g, ns: `${team}-${name}`, app: name, docs: [] };
    const size = g.int(6, 18);
    const before = g.documents;
    while (g.documents - before < size && g.documents < documents) {
      let r = g.rand() * total;
      const unit = UNITS.find((u) => (r -= u.weight) < 0) ?? UNITS[0];
      unit.make(c);
    }
    chunk(g, c.docs).forEach((docs, i) => write(path.join(dir, area, team, name, `${['app', 'storage', 'rbac', 'monitoring', 'network', 'config'][i % 6]}-${i}.yaml`), docs, stats));
    app++;
  }
  return { dir, documents: g.documents, files: stats.files, bytes: stats.bytes, kinds: g.kinds, kustomizeRoots, kustomizeDir };
}
