// R50: an EFS StorageClass whose dynamic-provisioning parameters make every claim fail (or share one directory).
import { defineRule } from '../src/define-rule.js';
import { closestName } from '../src/model/wiring.js';
import { API_FILE_SYSTEM_ID, EFS_DRIVER, EFS_PARAMETERS, EFS_PROVISIONING_MODES, isTemplated, parseGoBool } from '../src/model/efs.js';
import type { JsonPath } from '../src/types.js';

const FS_SOURCES = ['fileSystemId', 'fileSystemIdConfigRef', 'fileSystemIdSecretRef'] as const;

export default defineRule({
  id: 'efs-storageclass-invalid',
  meta: {
    catalogueId: 'R50',
    severity: 'error',
    severities: ['warning'],
    kinds: ['StorageClass'],
    summary: 'An EFS StorageClass lacks a required provisioning parameter or sets parameters the EFS CSI controller rejects.',
    why:
      'The EFS CSI controller creates an access point per claim from the StorageClass parameters. Without `provisioningMode: ' +
      'efs-ap`, without exactly one file-system source, with only one end of a GID range or with non-numeric IDs, CreateVolume ' +
      'fails ("Missing provisioningMode parameter", "Missing fileSystemId parameter", "Missing gidRangeEnd parameter") and every ' +
      'PersistentVolumeClaim of the class stays Pending with ProvisioningFailed events. With `ensureUniqueDirectory: "false"` and ' +
      'a `subPathPattern` that does not identify the claim, several claims get access points on the same directory and share data.',
    trigger:
      'A StorageClass with `provisioner: efs.csi.aws.com` and at least one parameter (a class without parameters is the ' +
      'documented static-provisioning class and is never judged): `provisioningMode` missing; not exactly one of ' +
      '`fileSystemId`, `fileSystemIdConfigRef`, `fileSystemIdSecretRef`; a `fileSystemId` that is empty or not an `fs-…` ID or ' +
      'file-system ARN; `directoryPerms` missing; only one of `gidRangeStart` / `gidRangeEnd`, or an end not above the start; ' +
      '`uid`, `gid` or GID range values that are not non-negative integers — errors. A `provisioningMode` that pvlint\'s list (taken ' +
      'from one driver release, named in the message) does not know, and `ensureUniqueDirectory: "false"` with a ' +
      '`subPathPattern` containing neither `${.PV.name}` nor both `${.PVC.namespace}` and `${.PVC.name}` — warnings.',
    exceptions:
      'Parameter values filled in by a template engine (`${…}`, `{{ … }}`) or written as placeholders (`fs-xxxxxxxx`, ' +
      '`FILESYSTEM_ID`) are not judged. `volumeBindingMode: Immediate` is ' +
      'not reported: EFS is regional, and the driver supports both binding modes even with `enforceZoneAffinity`. Access-mode ' +
      'and volume-mode support for EFS is the access-mode and volume-mode rules\' subject. `efs-dir` and `efs-ns` provisioning ' +
      'modes, which some driver versions carry, are not judged.',
    fix:
      'Set `provisioningMode: efs-ap`, exactly one of `fileSystemId` / `fileSystemIdConfigRef` / `fileSystemIdSecretRef`, ' +
      '`directoryPerms` (e.g. "700"), and both ends of a GID range; keep `ensureUniqueDirectory` true or put `${.PV.name}` ' +
      'in `subPathPattern`.',
    reportsAt: 'The offending parameter under `parameters`, or the `parameters` block when a required one is missing.',
    references: [
      { title: 'aws-efs-csi-driver docs/parameters.md (Storage Class Parameters for Dynamic Provisioning)', url: 'https://github.com/kubernetes-sigs/aws-efs-csi-driver/blob/master/docs/parameters.md' },
      { title: 'aws-efs-csi-driver pkg/driver/controller.go and provisioner.go (CreateVolume parameter checks)', url: 'https://github.com/kubernetes-sigs/aws-efs-csi-driver/blob/master/pkg/driver/controller.go' },
      { title: 'aws-efs-csi-driver dynamic provisioning example', url: 'https://github.com/kubernetes-sigs/aws-efs-csi-driver/blob/master/examples/kubernetes/dynamic_provisioning/README.md' },
    ],
    messages: {
      missing: (d: { sc: string; param: string; consequence: string; hint: string }) =>
        `StorageClass "${d.sc}" (efs.csi.aws.com) has no ${d.param} parameter${d.hint}: ${d.consequence}, so every claim of the class stays Pending with ProvisioningFailed.`,
      mode: (d: { sc: string; value: string; version: string }) =>
        `StorageClass "${d.sc}" has provisioningMode "${d.value}", which the EFS CSI driver as of ${d.version} (where pvlint's list of modes comes from) ` +
        `does not provision: it supports efs-ap (and s3files-ap for S3 Files), and every claim of a class with another mode stays Pending ` +
        `("Provisioning mode ${d.value} is not supported"). Check that your driver release documents this mode.`,
      fsSources: (d: { sc: string; params: string }) =>
        `StorageClass "${d.sc}" sets ${d.params}; the EFS CSI driver needs exactly one file-system source, so provisioning fails.`,
      fileSystemId: (d: { sc: string; value: string }) =>
        `StorageClass "${d.sc}" has fileSystemId "${d.value}", which is not a file system ID (fs- and 8–40 hex digits) or file-system ARN; the EFS API refuses it and every claim stays Pending.`,
      gidRange: (d: { sc: string; present: string; absent: string }) =>
        `StorageClass "${d.sc}" sets ${d.present} without ${d.absent}; the EFS CSI driver needs both ends of a GID range ("Missing ${d.absent} parameter"), so every claim stays Pending.`,
      gidOrder: (d: { sc: string; start: string; end: string }) =>
        `StorageClass "${d.sc}" has gidRangeEnd ${d.end}, not above gidRangeStart ${d.start}; the EFS CSI driver rejects the range ("gidRangeEnd must be greater than gidRangeStart").`,
      integer: (d: { sc: string; param: string; value: string }) =>
        `StorageClass "${d.sc}" has ${d.param} "${d.value}", not a non-negative integer; the EFS CSI driver fails to parse it and every claim stays Pending.`,
      sharedDirectory: (d: { sc: string; pattern: string }) =>
        `StorageClass "${d.sc}" sets ensureUniqueDirectory: "false" with subPathPattern "${d.pattern}", which does not identify the claim: ` +
        'several PersistentVolumeClaims get access points on the same directory and see each other\'s data.',
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: efs-dynamic}
provisioner: efs.csi.aws.com
parameters:
  fileSystemId: fs-0123456789abcdef0
  directoryPerms: "700"
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: efs-dynamic}
provisioner: efs.csi.aws.com
parameters:
  provisioningMode: efs-ap
  fileSystemId: fs-0123456789abcdef0
  directoryPerms: "700"
`,
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: efs-static}
provisioner: efs.csi.aws.com
`,
      ],
    },
  },
  check({ model, report }) {
    for (const sc of model.ofKind('StorageClass')) {
      if (sc.object?.provisioner !== EFS_DRIVER) continue;
      const raw = sc.object?.parameters;
      if (!raw || typeof raw !== 'object' || Array.isArray(raw) || Object.keys(raw).length === 0) continue;
      const params: Record<string, string> = {};
      for (const [k, v] of Object.entries(raw as Record<string, unknown>)) params[k] = v == null ? '' : String(v);
      const at = (key: string): JsonPath => ['parameters', key];
      const known = Object.keys(params);
      const hintFor = (name: string) => {
        const near = closestName(name, known.filter((k) => !EFS_PARAMETERS.includes(k)));
        return near ? ` (is "${near}" a misspelling?)` : '';
      };
      const missing = (param: string, consequence: string) => {
        const near = closestName(param, known.filter((k) => !EFS_PARAMETERS.includes(k)));
        report({ resource: sc, path: near ? at(near) : ['parameters'], messageId: 'missing', data: { sc: sc.name, param, consequence, hint: hintFor(param) } });
      };

      const mode = params.provisioningMode;
      if (mode === undefined) missing('provisioningMode', 'CreateVolume fails with "Missing provisioningMode parameter"');
      else if (!isTemplated(mode) && !(EFS_PROVISIONING_MODES.documented as readonly string[]).includes(mode) && !(EFS_PROVISIONING_MODES.tolerated as readonly string[]).includes(mode)) {
        // A list taken from one driver release: a newer driver may know the mode, so this is a warning naming that release.
        report({ resource: sc, path: at('provisioningMode'), messageId: 'mode', severity: 'warning', data: { sc: sc.name, value: mode, version: EFS_PROVISIONING_MODES.source } });
      }

      const sources = FS_SOURCES.filter((s) => params[s] !== undefined);
      if (sources.length === 0) missing('fileSystemId', 'CreateVolume fails with "Missing fileSystemId parameter"');
      else if (sources.length > 1) report({ resource: sc, path: at(sources[1]), messageId: 'fsSources', data: { sc: sc.name, params: sources.join(' and ') } });
      const fsId = params.fileSystemId;
      if (fsId !== undefined && !isTemplated(fsId) && !API_FILE_SYSTEM_ID.test(fsId.trim())) {
        report({ resource: sc, path: at('fileSystemId'), messageId: 'fileSystemId', data: { sc: sc.name, value: fsId } });
      }

      if (params.directoryPerms === undefined) missing('directoryPerms', 'the access point needs permissions for its root directory');

      for (const key of ['uid', 'gid', 'gidRangeStart', 'gidRangeEnd']) {
        const value = params[key];
        if (value === undefined || isTemplated(value)) continue;
        if (!/^\d+$/.test(value.trim())) report({ resource: sc, path: at(key), messageId: 'integer', data: { sc: sc.name, param: key, value } });
      }
      const start = params.gidRangeStart;
      const end = params.gidRangeEnd;
      if ((start === undefined) !== (end === undefined)) {
        const present = start !== undefined ? 'gidRangeStart' : 'gidRangeEnd';
        const absent = start !== undefined ? 'gidRangeEnd' : 'gidRangeStart';
        report({ resource: sc, path: at(present), messageId: 'gidRange', data: { sc: sc.name, present, absent } });
      } else if (start !== undefined && end !== undefined && /^\d+$/.test(start.trim()) && /^\d+$/.test(end.trim()) && Number(end) <= Number(start)) {
        report({ resource: sc, path: at('gidRangeEnd'), messageId: 'gidOrder', data: { sc: sc.name, start, end } });
      }

      const unique = params.ensureUniqueDirectory;
      const pattern = params.subPathPattern;
      if (unique !== undefined && parseGoBool(unique) === false && pattern !== undefined && !isTemplated(pattern.replace(/\$\{\.PVC?\.[a-z]+\}/g, ''))) {
        const identifies = pattern.includes('${.PV.name}') || (pattern.includes('${.PVC.name}') && pattern.includes('${.PVC.namespace}'));
        if (!identifies) report({ resource: sc, path: at('subPathPattern'), messageId: 'sharedDirectory', severity: 'warning', data: { sc: sc.name, pattern } });
      }
    }
  },
});
