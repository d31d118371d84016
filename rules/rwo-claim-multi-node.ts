// R17: a ReadWriteOnce / ReadWriteOncePod claim is used by pods that may run on different nodes.
import { defineRule } from '../src/define-rule.js';
import { describeDriver, singleNodeEnforcement, singleNodeMode, ROX, type ClaimStorage, type Enforcement } from '../src/model/claims.js';
import { WORKLOAD_KINDS, type PodTemplate, type PodVolume } from '../src/model/pod-templates.js';
import { databaseProductOf } from '../src/model/workload-database.js';
import type { ClaimUse, StorageModel } from '../src/model/storage-model.js';
import type { JsonPath, Resource, Severity } from '../src/types.js';

/** What this rule makes of a template's pod count (model.podCount): none, one, unknown or several pods at once. */
type Multiplicity =
  | { kind: 'none' }
  | { kind: 'single' }
  | { kind: 'unknown' }
  | { kind: 'multi'; text: string; path: JsonPath; perNode: boolean; hpa?: Resource };

function multiplicityOf(model: StorageModel, template: PodTemplate): Multiplicity {
  const count = model.podCount(template);
  switch (count.kind) {
    case 'per-node':
      return { kind: 'multi', text: 'one pod on every eligible node', path: count.replicas.path, perNode: true };
    case 'autoscaled':
      return {
        kind: 'multi', text: `up to ${count.max} pods (HorizontalPodAutoscaler "${count.hpa.name}" has maxReplicas: ${count.max})`,
        path: count.countPath, perNode: false, hpa: count.hpa,
      };
    case 'unknown':
      return { kind: 'unknown' };
    case 'count': {
      if (count.count > 1) {
        const what = count.field === 'parallelism' ? `up to ${count.count} pods at once` : `${count.count} replicas`;
        return { kind: 'multi', text: `${what} (${count.replicas.path.join('.')}: ${count.count})`, path: count.replicas.path, perNode: false };
      }
      if (count.count <= 0 && !count.autoscaler) return { kind: 'none' };
      return { kind: 'single' };
    }
  }
}

const SEVERITY: Record<Enforcement, Severity> = { rwop: 'error', attach: 'error', none: 'warning', unknown: 'warning' };

/** Node labels that name a pool of nodes by nature (OS, architecture, zone, instance type, cloud node groups). */
const POOL_LABEL = /^(kubernetes\.io\/(os|arch)|beta\.kubernetes\.io\/|topology\.kubernetes\.io\/|failure-domain\.beta\.kubernetes\.io\/|node\.kubernetes\.io\/instance-type|eks\.amazonaws\.com\/|karpenter\.|cloud\.google\.com\/|kubernetes\.azure\.com\/|agentpool$)/;

/**
 * A `key=value` nodeSelector entry every template requires, with a label the repo cannot tell the reach of: when one
 * node carries it (a homelab's `storage-node: "true"`), all pods share that node and a ReadWriteOnce volume works.
 */
function sharedNodeLabel(templates: readonly PodTemplate[]): string | undefined {
  const selectors = templates.map((t) => t.spec?.nodeSelector);
  if (selectors.some((sel) => !sel || typeof sel !== 'object' || Array.isArray(sel))) return undefined;
  for (const [key, value] of Object.entries(selectors[0] as Record<string, unknown>)) {
    if (POOL_LABEL.test(key) || value == null || typeof value === 'object') continue;
    if (selectors.every((sel) => String((sel as Record<string, unknown>)[key]) === String(value))) return `${key}=${String(value)}`;
  }
  return undefined;
}

/** The severity of an attach conflict that a shared node label may avoid: a warning, and the message says why. */
function narrowed(enforcement: Enforcement, label: string | undefined): { severity: Severity; suffix: string } {
  if (enforcement !== 'attach' || label === undefined) return { severity: SEVERITY[enforcement], suffix: '' };
  return { severity: 'warning', suffix: ` — unless only one node carries the label ${label} that the pods require` };
}
const RANK: Record<Enforcement, number> = { rwop: 4, attach: 3, unknown: 2, none: 1 };

function consequence(storage: ClaimStorage, enforcement: Enforcement): string {
  switch (enforcement) {
    case 'rwop':
      return 'ReadWriteOncePod admits one pod in the whole cluster, so every other pod stays Pending ' +
        '("node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode")';
    case 'attach':
      return `${storage.attach.reason}, so pods scheduled to another node stay ContainerCreating with ` +
        '"Multi-Attach error … Volume is already exclusively attached to one node and can\'t be attached to another"';
    case 'none':
      return storage.accessModes.includes(ROX)
        ? 'its access modes include ReadOnlyMany, so Kubernetes attaches it to several nodes and nothing stops pods on different nodes from writing it at the same time'
        : `${storage.attach.reason}, so nothing stops pods on different nodes from writing the volume at the same time despite ReadWriteOnce`;
    case 'unknown':
      return `${storage.attach.reason}: either pods on a second node cannot attach the volume (Multi-Attach error) or nothing stops several nodes from writing it at once`;
  }
}

function claimText(storage: ClaimStorage): string {
  const driver = storage.driver.name !== undefined ? ` (${describeDriver(storage)})` : '';
  return `${singleNodeMode(storage)} PersistentVolumeClaim "${storage.pvc.name}"${driver}`;
}

interface Entry {
  storage: ClaimStorage;
  enforcement: Enforcement;
  volume: PodVolume;
}

interface Workload {
  key: string;
  template: PodTemplate;
  volume: PodVolume;
  count: Multiplicity;
}

const claimNamePath = (volume: PodVolume): JsonPath => [...volume.path, 'persistentVolumeClaim', 'claimName'];

function claimRelated(storage: ClaimStorage) {
  const related = [{ resource: storage.pvc, path: ['spec', 'accessModes'] as JsonPath, message: `PersistentVolumeClaim "${storage.pvc.name}" (${storage.accessModes.join(', ')})` }];
  if (storage.accessModesFrom === 'pv' && storage.bound) {
    related.push({ resource: storage.bound.pv, path: ['spec', 'accessModes'], message: `bound PersistentVolume "${storage.bound.pv.name}" (${storage.accessModes.join(', ')})` });
  }
  return related;
}

/** The fix for one finding: a database gets one volume per replica, never a shared one; ReadWriteOncePod only when not already set. */
function fixFor(template: PodTemplate, enforcement: string): string {
  const product = databaseProductOf(template);
  if (product) {
    return `${product} keeps single-writer data: run it as a StatefulSet with \`volumeClaimTemplates\` (one ReadWriteOnce volume per ` +
      `replica, replicated by ${product} itself) or keep one replica with \`strategy: {type: Recreate}\`. A ReadWriteMany volume would let ` +
      'several database processes write the same files' + (enforcement === 'rwop' ? '.' : '; ReadWriteOncePod makes the single writer explicit.');
  }
  return 'Give each replica its own claim (a StatefulSet with volumeClaimTemplates), use a ReadWriteMany class when the ' +
    'pods really share files, or keep the pods on one node with required podAffinity on kubernetes.io/hostname.' +
    (enforcement === 'rwop' ? '' : ' Use ReadWriteOncePod to make a single-writer constraint explicit.');
}

export default defineRule({
  id: 'rwo-claim-multi-node',
  meta: {
    catalogueId: 'R17',
    severity: 'error',
    severities: ['warning'],
    kinds: [...WORKLOAD_KINDS, 'PersistentVolumeClaim', 'PersistentVolume', 'StorageClass', 'CSIDriver', 'HorizontalPodAutoscaler'],
    summary: 'A ReadWriteOnce or ReadWriteOncePod claim is used by pods that may run on different nodes.',
    why:
      'ReadWriteOnce means one node, ReadWriteOncePod one pod. For attachable volumes (EBS, PD, Azure Disk, Ceph RBD, ' +
      'Longhorn, …) the attach/detach controller refuses to attach a ReadWriteOnce volume to a second node, so the pods ' +
      'that land elsewhere hang in ContainerCreating with a Multi-Attach error; a ReadWriteOncePod claim keeps every pod ' +
      'but one Pending. Drivers without an attach step (NFS, EFS, Filestore, CephFS) enforce nothing: pods on several ' +
      'nodes write the same files at once despite ReadWriteOnce.',
    trigger:
      'A PVC in the repo whose effective access modes (the bound PV\'s when it is in the repo, else the claim\'s) contain ' +
      'ReadWriteOncePod, or ReadWriteOnce without ReadWriteMany (and, when they contain ReadOnlyMany, some user writes), ' +
      'and any of: a using template with more than one pod (`replicas` > 1, an HPA with `maxReplicas` > 1, Job/CronJob ' +
      '`parallelism` > 1); a DaemonSet using it; two or more distinct workloads using it. Users are the templates that ' +
      'write the claim; for ReadWriteOncePod and attachable ReadWriteOnce claims read-only users count too, because ' +
      'attach and the ReadWriteOncePod check ignore readOnly. Error for ReadWriteOncePod and attachable ReadWriteOnce ' +
      'volumes — the driver of the bound PV or of the effective StorageClass is one pvlint knows to attach volumes ' +
      '(EBS, PD, Azure Disk, Cinder, Ceph RBD, Longhorn, vSphere, Portworx, Hetzner, DigitalOcean), a CSIDriver in the ' +
      'repo does not set `attachRequired: false`, or an unknown driver serves a `volumeMode: Block` claim; warning otherwise, ' +
      'and a warning too when every pod requires the same nodeSelector label that is not a pool label (OS, architecture, zone, ' +
      'instance type, cloud node group): the repo does not show how many nodes carry it, and on one node the volume works.',
    exceptions:
      'Silent when the pods are co-located: every template has the same required node pin (`nodeName`, a ' +
      '`kubernetes.io/hostname` nodeSelector, or required nodeAffinity on one hostname), or the other templates require ' +
      'podAffinity on `kubernetes.io/hostname` to the anchor\'s pods (a multi-replica template must then also pin or ' +
      'attract its own pods); also when the volume itself is node-local (local PVs, local-path, OpenEBS local, a PV ' +
      'pinned to one host), since every pod then runs on that node. None of this helps ReadWriteOncePod, which allows ' +
      'one pod. Claims that are not in the repo (access modes unknown), StatefulSet volumeClaimTemplates and generic ' +
      'ephemeral volumes (one claim per pod) are never reported; nor are workloads with `replicas: 0` and no HPA, and ' +
      'a replica count that is not an integer is not counted as more than one pod. A multi-replica StatefulSet mounting one ' +
      'pod-template claim is reported by statefulset-shared-claim instead (its fix is volumeClaimTemplates).',
    fix:
      'Give each replica its own claim (a StatefulSet with volumeClaimTemplates), use a ReadWriteMany class when the ' +
      'pods really share files, or keep the pods on one node with required podAffinity on kubernetes.io/hostname. ' +
      'Use ReadWriteOncePod to make a single-writer constraint explicit.',
    reportsAt:
      'The replica field (`spec.replicas`, `spec.parallelism`) of a multi-pod workload, or the volume\'s `claimName` for a ' +
      'DaemonSet; for a claim shared by several workloads, the `claimName` in each workload after the first.',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Access Modes"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#access-modes' },
      { title: 'kubernetes pkg/volume/util/util.go (IsMultiAttachAllowed)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/volume/util/util.go' },
      { title: 'kubernetes attach/detach reconciler (Multi-Attach error)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/volume/attachdetach/reconciler/reconciler.go' },
      { title: 'KEP-2485: ReadWriteOncePod PersistentVolume access mode', url: 'https://github.com/kubernetes/enhancements/blob/master/keps/sig-storage/2485-read-write-once-pod-pv-access-mode/README.md' },
      { title: 'Kubernetes API: CSIDriverSpec (attachRequired)', url: 'https://kubernetes.io/docs/reference/kubernetes-api/config-and-storage-resources/csi-driver-v1/' },
    ],
    messages: {
      replicas: (d: { kind: string; workload: string; pods: string; claims: string; placement: 'one-pod' | 'spread' | 'free'; consequence: string }) =>
        `${d.kind} "${d.workload}" runs ${d.pods} that mount ${d.claims}` +
        (d.placement === 'spread'
          ? ', and its required podAntiAffinity on kubernetes.io/hostname even puts each pod on a different node'
          : d.placement === 'free' ? ', and nothing keeps those pods on one node' : '') +
        `: ${d.consequence}.`,
      sharedWorkloads: (d: { kind: string; workload: string; otherKind: string; other: string; claim: string; onePod: boolean; consequence: string }) =>
        `${d.kind} "${d.workload}" and ${d.otherKind} "${d.other}" both mount ${d.claim}` +
        `${d.onePod ? '' : ', and nothing keeps their pods on one node'}: ${d.consequence}.`,
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: uploads}
spec:
  storageClassName: gp3
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 10Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, volumeMounts: [{name: uploads, mountPath: /uploads}]}]
      volumes:
        - name: uploads
          persistentVolumeClaim: {claimName: uploads}
`,
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: reports}
spec:
  accessModes: [ReadWriteOncePod]
  resources: {requests: {storage: 1Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers: [{name: api, image: api, volumeMounts: [{name: reports, mountPath: /reports}]}]
      volumes: [{name: reports, persistentVolumeClaim: {claimName: reports}}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: export}
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: export, image: exporter, volumeMounts: [{name: reports, mountPath: /reports}]}]
          volumes: [{name: reports, persistentVolumeClaim: {claimName: reports}}]
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: efs}
provisioner: efs.csi.aws.com
parameters: {provisioningMode: efs-ap, fileSystemId: fs-0123456789abcdef0, directoryPerms: "700"}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: uploads}
spec:
  storageClassName: efs
  accessModes: [ReadWriteMany]
  resources: {requests: {storage: 10Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, volumeMounts: [{name: uploads, mountPath: /uploads}]}]
      volumes: [{name: uploads, persistentVolumeClaim: {claimName: uploads}}]
`,
        `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 3
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres, volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
`,
      ],
    },
  },
  check({ model, report }) {
    const multiPod = (template: PodTemplate) => multiplicityOf(model, template).kind === 'multi';
    // By workload document: copies of one Deployment in independent sample directories are reported each with its own claim.
    const replicaFindings = new Map<Resource, { template: PodTemplate; count: Extract<Multiplicity, { kind: 'multi' }>; entries: Entry[] }>();

    // Claims not in the repo have unknown access modes (usesByDefinition is empty for them); claim-template claims are
    // one per pod. The same claim written in several places (examples, overlays): each use goes with the closest definition.
    for (const { namespace, name } of model.mountedClaims()) {
      for (const [pvc, uses] of model.usesByDefinition(namespace, name)) checkClaim(pvc, uses);
    }

    function checkClaim(pvc: Resource, uses: readonly ClaimUse[]): void {
      const storage = model.claimStorage(pvc);
      const enforcement = singleNodeEnforcement(storage);
      if (!enforcement) return;
      if (enforcement !== 'rwop' && storage.nodePin) return;
      const everyUser = enforcement === 'rwop' || enforcement === 'attach';

      const workloads = new Map<string, Workload>();
      for (const use of uses) {
        if (!everyUser && !use.writes) continue;
        const workload = use.template.workload;
        const key = `${workload.kind}/${model.namespaceOf(workload) ?? ''}/${workload.name}`;
        if (workloads.has(key)) continue;
        const count = multiplicityOf(model, use.template);
        if (count.kind === 'none') continue;
        workloads.set(key, { key, template: use.template, volume: use.volume, count });
      }

      for (const workload of workloads.values()) {
        if (workload.count.kind !== 'multi') continue;
        // A multi-replica StatefulSet on one pod-template claim is statefulset-shared-claim's finding (the fix differs).
        if (workload.template.kind === 'StatefulSet') continue;
        if (enforcement !== 'rwop' && model.selfCoLocated(workload.template)) continue;
        const existing = replicaFindings.get(workload.template.workload);
        const entry = { storage, enforcement, volume: workload.volume };
        if (existing) existing.entries.push(entry);
        else replicaFindings.set(workload.template.workload, { template: workload.template, count: workload.count, entries: [entry] });
      }

      const list = [...workloads.values()];
      if (list.length < 2) return;
      if (enforcement !== 'rwop' && model.coLocated(list.map((w) => w.template), multiPod)) return;
      const [first, ...others] = list;
      for (const other of others) {
        if (enforcement !== 'rwop' && model.coLocated([first.template, other.template], multiPod)) continue;
        const { severity, suffix } = narrowed(enforcement, sharedNodeLabel([first.template, other.template]));
        report({
          resource: other.template.workload,
          path: claimNamePath(other.volume),
          messageId: 'sharedWorkloads',
          severity,
          fix: fixFor(other.template, enforcement),
          data: {
            kind: other.template.kind, workload: other.template.workload.name,
            otherKind: first.template.kind, other: first.template.workload.name,
            claim: claimText(storage), onePod: enforcement === 'rwop', consequence: consequence(storage, enforcement) + suffix,
          },
          related: [
            ...claimRelated(storage),
            { resource: first.template.workload, path: claimNamePath(first.volume), message: `${first.template.kind} "${first.template.workload.name}" also mounts it` },
          ],
        });
      }
    }

    for (const { template, count, entries: all } of replicaFindings.values()) {
      // One claim mounted through several volumes (or found through several definitions) is named once.
      const entries = [...new Map(all.map((e) => [claimText(e.storage), e])).values()];
      const worst = entries.reduce((a, b) => (RANK[b.enforcement] > RANK[a.enforcement] ? b : a));
      // A DaemonSet runs on every node its selector allows: a shared label says nothing about one node there.
      const { severity, suffix } = narrowed(worst.enforcement, count.perNode ? undefined : sharedNodeLabel([template]));
      report({
        resource: template.workload,
        path: count.perNode ? claimNamePath(entries[0].volume) : count.path,
        messageId: 'replicas',
        severity,
        fix: fixFor(template, worst.enforcement),
        data: {
          kind: template.kind, workload: template.workload.name, pods: count.text,
          claims: entries.map((e) => claimText(e.storage)).join(', '),
          placement: worst.enforcement === 'rwop' ? 'one-pod' : model.repelsOnHost(template, template) ? 'spread' : 'free',
          consequence: consequence(worst.storage, worst.enforcement) + suffix,
        },
        related: [
          ...entries.flatMap((e) => claimRelated(e.storage)),
          ...(count.hpa ? [{ resource: count.hpa, path: ['spec', 'maxReplicas'] as JsonPath, message: `HorizontalPodAutoscaler "${count.hpa.name}"` }] : []),
        ],
      });
    }
  },
});
