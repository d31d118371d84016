// R32: a database pod with persistent data gets less than a minute (or the 30 s default) to shut down cleanly.
import { defineRule } from '../src/define-rule.js';
import { databaseContainer } from '../src/model/databases.js';
import { coveringMount, PERSISTENT_KINDS, podContainers } from '../src/model/mounts.js';
import { containerLabel } from '../src/model/wiring.js';

interface Options {
  minSeconds: number;
}
const DEFAULTS: Options = { minSeconds: 60 };
const KINDS = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController', 'Rollout', 'Pod']);

export default defineRule<
  {
    short: (d: { kind: string; workload: string; container: string; product: string; seconds: number; min: number }) => string;
    unset: (d: { kind: string; workload: string; container: string; product: string; min: number }) => string;
  },
  Options
>({
  id: 'stateful-short-grace-period',
  meta: {
    catalogueId: 'R32',
    severity: 'warning',
    severities: ['note'],
    kinds: ['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController', 'Rollout', 'Pod'],
    summary: 'A database pod whose data is persistent has terminationGracePeriodSeconds below a minute, or relies on the 30 s default.',
    why:
      'On deletion the kubelet sends the stop signal and, after `terminationGracePeriodSeconds` (default 30), SIGKILL. A database ' +
      'needs that time to finish or abort transactions, flush and checkpoint; killed mid-way it comes back through crash recovery ' +
      '(or, for engines without a write-ahead log, with damage). The postgres image stops with SIGINT (fast shutdown) and notes ' +
      'that "even 90 seconds may not be long enough in many instances". Every rollout, drain and eviction goes through this path.',
    trigger:
      'A database server container (§8.1 image table; Redis/Valkey only with persistence switched on) in a Deployment, ' +
      'StatefulSet, ReplicaSet, ReplicationController, Argo Rollout or Pod, whose data directory is on a persistent volume ' +
      '(claim, claim template, hostPath or network volume), and whose pod sets `terminationGracePeriodSeconds` below ' +
      '`minSeconds` (default 60): warning (note for images whose data path §8.1 marks advisory); or sets none (30 s): note.',
    exceptions:
      'Databases whose data is not persistent (database-ephemeral-data reports those: nothing to flush that survives), caches, ' +
      'init containers and Jobs are not reported.',
    fix:
      'Set `terminationGracePeriodSeconds` to 60–120 s or more (what a clean shutdown takes under load), and add a `preStop` ' +
      'hook when the server needs an explicit shutdown command.',
    reportsAt: 'The pod spec\'s `terminationGracePeriodSeconds` (or the pod spec, where it should be set).',
    references: [
      { title: 'Kubernetes docs: Pod Lifecycle, "Termination of Pods"', url: 'https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-termination' },
      { title: 'docker-library/postgres 18/trixie/Dockerfile (STOPSIGNAL SIGINT; "even 90 seconds may not be long enough")', url: 'https://github.com/docker-library/postgres/blob/12eb5762e3cf3c44440ed078b59843b5dfbde570/18/trixie/Dockerfile' },
      { title: 'PostgreSQL docs: Shutting Down the Server', url: 'https://www.postgresql.org/docs/current/server-shutdown.html' },
    ],
    messages: {
      short: (d) =>
        `${d.kind} "${d.workload}": ${d.container} runs ${d.product} on persistent storage, but the pod allows only ${d.seconds} s ` +
        `(terminationGracePeriodSeconds) before SIGKILL: a shutdown under load is cut short and the database restarts through crash recovery. Allow at least ${d.min} s.`,
      unset: (d) =>
        `${d.kind} "${d.workload}": ${d.container} runs ${d.product} on persistent storage with the default 30 s grace period ` +
        `before SIGKILL; a clean shutdown under load often needs longer. Consider terminationGracePeriodSeconds of at least ${d.min} s.`,
    },
    options: {
      schema: {
        type: 'object',
        properties: { minSeconds: { type: 'integer', minimum: 1, description: 'The shortest grace period accepted for a database pod.' } },
        additionalProperties: false,
      },
      defaults: DEFAULTS,
    },
    examples: {
      invalid: [
        `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      terminationGracePeriodSeconds: 10
      containers:
        - name: mysql
          image: mysql:8.4
          volumeMounts: [{name: data, mountPath: /var/lib/mysql}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 50Gi}}}
`,
      ],
      valid: [
        `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      terminationGracePeriodSeconds: 120
      containers:
        - name: mysql
          image: mysql:8.4
          volumeMounts: [{name: data, mountPath: /var/lib/mysql}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 50Gi}}}
`,
      ],
    },
  },
  check({ model, options, report }) {
    const min = typeof options.minSeconds === 'number' && options.minSeconds > 0 ? options.minSeconds : DEFAULTS.minSeconds;
    for (const template of model.templates) {
      if (!KINDS.has(template.kind)) continue;
      const grace = template.spec?.terminationGracePeriodSeconds;
      if (typeof grace === 'number' && grace >= min) continue;
      if (grace != null && typeof grace !== 'number') continue;
      for (const container of podContainers(template, ['containers'])) {
        const db = databaseContainer(container);
        if (!db || db.data.kind !== 'known' || db.role !== 'datastore') continue;
        const persistent = db.data.paths.some((data) => {
          const kind = coveringMount(template, container, data.path)?.volume?.kind;
          return kind !== undefined && PERSISTENT_KINDS.has(kind);
        });
        if (!persistent) continue;
        const data = {
          kind: template.kind, workload: template.workload.name,
          container: containerLabel({ container: container.name, containerKind: container.kind }), product: db.db.product, min,
        };
        if (typeof grace === 'number') {
          report({ resource: template.workload, path: [...template.specPath, 'terminationGracePeriodSeconds'], messageId: 'short', severity: db.db.confidence === 'H' ? 'warning' : 'note', data: { ...data, seconds: grace } });
        } else {
          report({ resource: template.workload, path: [...template.specPath, 'terminationGracePeriodSeconds'], messageId: 'unset', severity: 'note', data });
        }
        break;
      }
    }
  },
});
