// R36: what a CSIDriver object in the repo changes for the claims of its driver — attachRequired: false turns off the
// single-node protection of ReadWriteOnce — and CSIDriver objects whose attachRequired contradicts the driver.
import { defineRule } from '../src/define-rule.js';
import { RWO, RWOP, RWX } from '../src/model/claims.js';
import { CSIDRIVER_API, shippedCsiDriver } from '../src/model/csi-drivers.js';
import { normaliseProvisioner } from '../src/model/provisioners.js';
import type { Resource } from '../src/types.js';

export default defineRule({
  id: 'csidriver-object-consistency',
  meta: {
    catalogueId: 'R36',
    severity: 'note',
    kinds: ['CSIDriver'],
    summary: 'A CSIDriver object in the repo sets attachRequired: false for a driver whose ReadWriteOnce claims the repo uses, or sets attachRequired against what the driver needs.',
    why:
      'The CSIDriver object decides core behaviour for every volume of its driver. With `attachRequired: false` there is no ' +
      'VolumeAttachment and no attach/detach step, so nothing stops pods on several nodes from mounting a ReadWriteOnce volume at ' +
      'once: the access mode becomes a label. A driver that needs ControllerPublish (EBS, Azure Disk, Ceph RBD, …) with ' +
      '`attachRequired: false` never gets its volumes attached and every mount fails; a driver without an attach step (EFS, NFS, ' +
      'Azure Files) with `attachRequired: true` waits for an external-attacher that is usually not deployed, and pods hang in ' +
      'ContainerCreating. `attachRequired` is immutable: fixing it means deleting and recreating the CSIDriver.',
    trigger:
      'A CSIDriver in the repo with `attachRequired: false` whose driver serves ReadWriteOnce (not ReadWriteMany) claims in the ' +
      'repo that workloads write; or a CSIDriver whose `attachRequired` (default true) contradicts the driver\'s own manifest or ' +
      'the §7 capability table.',
    exceptions:
      'Drivers pvlint does not know are only cross-referenced, not judged; ReadWriteOncePod claims are still enforced (by the ' +
      'scheduler and the kubelet) and are not listed. The multi-node cases themselves are rwo-claim-multi-node\'s and ' +
      'rwo-update-overlap\'s findings, which already read this object.',
    fix:
      'Keep the CSIDriver exactly as the driver ships it. Where single-writer access matters on a driver without an attach step, ' +
      'use ReadWriteOncePod (enforced without attach) or keep the writers on one node.',
    reportsAt: 'The CSIDriver\'s `spec.attachRequired` (or its spec, where the default applies).',
    references: [
      CSIDRIVER_API,
      { title: 'Kubernetes CSI docs: Skip Kubernetes Attach and Detach (attachRequired)', url: 'https://kubernetes-csi.github.io/docs/skip-attach.html' },
      { title: 'kubernetes pkg/volume/util/util.go (IsMultiAttachAllowed)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/volume/util/util.go' },
    ],
    messages: {
      noAttachRwo: (d: { driver: string; claims: string }) =>
        `CSIDriver "${d.driver}" sets attachRequired: false, so ReadWriteOnce is not enforced across nodes for its claims ` +
        `${d.claims}: pods on different nodes can mount and write them at the same time.`,
      contradicts: (d: { driver: string; value: boolean; expected: boolean; source: string; consequence: string }) =>
        `CSIDriver "${d.driver}" has attachRequired: ${d.value}, but ${d.source} says ${d.expected}: ${d.consequence}. ` +
        'attachRequired is immutable; recreate the object as the driver ships it.',
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: ebs.csi.aws.com}
spec:
  attachRequired: false
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: ebs.csi.aws.com}
spec:
  attachRequired: true
  fsGroupPolicy: File
`,
      ],
    },
  },
  check({ model, report }) {
    const drivers = new Map<string, Resource>();
    for (const csiDriver of model.ofKind('CSIDriver')) if (!drivers.has(csiDriver.name)) drivers.set(csiDriver.name, csiDriver);

    // RWO claims of drivers without attach, from the workloads' point of view.
    const rwoClaims = new Map<string, Set<string>>();
    for (const claim of model.mountedClaims()) {
      if (claim.definitions.length === 0) continue;
      const { namespace, name } = claim;
      const uses = claim.uses.filter((u) => u.writes);
      if (uses.length === 0) continue;
      const pvc = model.closestClaimDefinition(namespace, name, uses[0].template.workload)!;
      const storage = model.claimStorage(pvc);
      const modes = storage.accessModes;
      if (!modes.includes(RWO) || modes.includes(RWX) || modes.includes(RWOP)) continue;
      const csiDriver = storage.attach.csiDriver;
      if (!csiDriver || storage.attach.value !== 'no') continue;
      const set = rwoClaims.get(csiDriver.name) ?? new Set<string>();
      set.add(`"${namespace}/${name}"`);
      rwoClaims.set(csiDriver.name, set);
    }

    for (const csiDriver of drivers.values()) {
      const attachRequired = csiDriver.object?.spec?.attachRequired !== false;
      const claims = rwoClaims.get(csiDriver.name);
      if (!attachRequired && claims && claims.size > 0) {
        report({ resource: csiDriver, path: ['spec', 'attachRequired'], messageId: 'noAttachRwo', data: { driver: csiDriver.name, claims: [...claims].join(', ') } });
      }
      const name = normaliseProvisioner(csiDriver.name);
      const shipped = shippedCsiDriver(name);
      const table = model.driverCapabilities(name)?.capabilities.attach;
      let expected: boolean | undefined;
      let source = '';
      if (shipped && !shipped.volumeLifecycleModes.includes('Persistent')) continue; // inline-only drivers never attach
      if (shipped) {
        expected = shipped.attachRequired;
        source = `the driver's own CSIDriver manifest`;
      } else if (table === 'required' || table === 'not-required') {
        expected = table === 'required';
        source = 'the pvlint capability table';
      }
      if (expected === undefined || expected === attachRequired) continue;
      report({
        resource: csiDriver, path: ['spec', 'attachRequired'], messageId: 'contradicts',
        data: {
          driver: csiDriver.name, value: attachRequired, expected, source,
          consequence: expected
            ? 'the driver needs ControllerPublish to attach each volume to its node, which never happens, so mounts fail'
            : 'the kubelet waits for a VolumeAttachment the driver has no attach step for, so pods hang in ContainerCreating unless an external-attacher runs',
        },
      });
    }
  },
});
