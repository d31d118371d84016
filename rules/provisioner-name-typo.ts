// A provisioner / CSI driver name pvlint does not know that is one typo away from one it knows.
import { defineRule } from '../src/define-rule.js';
import { isPlaceholder } from '../src/model/claim-objects.js';
import { WORKLOAD_KINDS } from '../src/model/pod-templates.js';
import { OTHER_KNOWN_PROVISIONERS } from '../src/model/provisioner-names.js';
import type { JsonPath, Resource } from '../src/types.js';

interface NameUse {
  resource: Resource;
  path: JsonPath;
  /** The name as written (any YAML value; only strings are checked). */
  name: unknown;
  /** What the name is used for, and what happens when no driver answers to it. */
  role: 'class' | 'volume' | 'snapshot-class' | 'inline';
}

export default defineRule({
  id: 'provisioner-name-typo',
  meta: {
    severity: 'warning',
    kinds: ['StorageClass', 'PersistentVolume', 'VolumeSnapshotClass', 'CSIDriver', ...WORKLOAD_KINDS],
    summary: 'A provisioner or CSI driver name is unknown and one typo away from a known one (ebs.csi.amazonaws.com for ebs.csi.aws.com).',
    why:
      'Kubernetes matches provisioner and driver names exactly and never checks them at admission: a StorageClass whose ' +
      '`provisioner` no running provisioner answers to is accepted, and its claims stay Pending, waiting for an external ' +
      'provisioner of that name; a PersistentVolume, VolumeSnapshotClass or inline CSI volume naming a driver that is not ' +
      'registered on the nodes fails at mount or snapshot time. A name that is one label or one character away from a ' +
      'well-known driver is almost always a typo.',
    trigger:
      '`StorageClass.provisioner`, `PersistentVolume.spec.csi.driver`, `VolumeSnapshotClass.driver` or a pod\'s inline ' +
      '`csi.driver` that is not a known name — the rows of pvlint\'s provisioner table (research catalogue §7, with their ' +
      `in-tree names), ${OTHER_KNOWN_PROVISIONERS.map((p) => p.name).join(', ')}, drivers declared in \`cluster.drivers\` ` +
      'and CSIDriver objects in the scope — and that looks like a typo of one: the label naming the driver is the same and one ' +
      'other label differs (`ebs.csi.amazonaws.com`), or the naming label differs by one character (`kubernetes.io/aws-eb`), ' +
      'or a dot is missing or doubled.',
    exceptions:
      'Unknown names that are not close to a known one are left alone (custom and vendor drivers are many). Another driver ' +
      'of the same vendor differs in the label that names the driver (`s3.csi.aws.com`, `efs.csi.aws.com`) and is not a ' +
      'typo. Placeholders (`${VAR}`, `{{ … }}`) are not names. A driver pvlint does not know but the cluster has: declare it ' +
      'in `cluster.drivers`, or keep its CSIDriver object in the repo.',
    fix: 'Correct the name to the driver\'s registered name (the message names the closest known one); for a real driver pvlint does not know, declare it under `cluster.drivers` in .pvlint.yaml.',
    reportsAt: 'The `provisioner` / `driver` field.',
    references: [
      { title: 'Kubernetes docs: Storage Classes, "Provisioner"', url: 'https://kubernetes.io/docs/concepts/storage/storage-classes/#provisioner' },
      { title: 'Kubernetes CSI docs: CSIDriver object (the driver name)', url: 'https://kubernetes-csi.github.io/docs/csi-driver-object.html' },
      ...OTHER_KNOWN_PROVISIONERS.map((p) => p.source),
    ],
    messages: {
      typo: (d: { owner: string; field: string; name: string; candidate: string; role: NameUse['role'] }) =>
        `${d.owner} ${d.field} "${d.name}", which is no provisioner or CSI driver pvlint knows and is close to "${d.candidate}"` +
        (d.role === 'class'
          ? ': if no provisioner of that exact name runs, claims of this class stay Pending waiting for one.'
          : d.role === 'snapshot-class'
            ? ': snapshots of this class wait for a snapshotter of that exact name and never become ready.'
            : ': kubelet finds no registered CSI driver of that exact name, so pods using the volume stay ContainerCreating.'),
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.amazonaws.com
parameters: {type: gp3}
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
parameters: {type: gp3}
`,
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: auto-ebs-sc}
provisioner: ebs.csi.eks.amazonaws.com
volumeBindingMode: WaitForFirstConsumer
`,
      ],
    },
  },
  check({ model, report }) {
    const uses: NameUse[] = [];
    for (const sc of model.ofKind('StorageClass')) {
      if (model.isDeclared(sc)) continue;
      uses.push({ resource: sc, path: ['provisioner'], name: sc.object?.provisioner, role: 'class' });
    }
    for (const pv of model.ofKind('PersistentVolume')) uses.push({ resource: pv, path: ['spec', 'csi', 'driver'], name: pv.object?.spec?.csi?.driver, role: 'volume' });
    for (const vsc of model.ofKind('VolumeSnapshotClass')) uses.push({ resource: vsc, path: ['driver'], name: vsc.object?.driver, role: 'snapshot-class' });
    for (const template of model.templates) {
      for (const volume of template.volumes) {
        if (volume.source !== 'csi') continue;
        const spec = template.spec?.volumes?.[volume.index]?.csi;
        uses.push({ resource: template.workload, path: [...volume.path, 'csi', 'driver'], name: spec?.driver, role: 'inline' });
      }
    }
    for (const use of uses) {
      if (typeof use.name !== 'string' || use.name.trim() === '' || isPlaceholder(use.name)) continue;
      if (model.isKnownProvisioner(use.name)) continue;
      const [candidate] = model.provisionerTypoCandidates(use.name.trim());
      if (!candidate) continue;
      const owner = use.role === 'inline' ? `${use.resource.kind} "${use.resource.name}": inline CSI volume` : `${use.resource.kind} "${use.resource.name}"`;
      const field = use.role === 'class' ? 'names provisioner' : 'names driver';
      report({ resource: use.resource, path: use.path, messageId: 'typo', data: { owner, field, name: use.name, candidate, role: use.role } });
    }
  },
});
