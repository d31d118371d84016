// R49: an EFS PersistentVolume the EFS CSI node plugin will refuse to mount (handle grammar, attributes, options, modes).
import { defineRule } from '../src/define-rule.js';
import { closestName } from '../src/model/wiring.js';
import { EFS_DRIVER, EFS_VOLUME_ATTRIBUTES, isTemplated, parseEfsHandle, parseGoBool } from '../src/model/efs.js';
import type { JsonPath } from '../src/types.js';

const HANDLE: JsonPath = ['spec', 'csi', 'volumeHandle'];

export default defineRule({
  id: 'efs-volume-handle-invalid',
  meta: {
    catalogueId: 'R49',
    severity: 'error',
    severities: ['note', 'warning'],
    kinds: ['PersistentVolume'],
    summary: 'An EFS PersistentVolume has a volumeHandle, volume attributes, mount options or modes the EFS CSI driver rejects.',
    why:
      'The EFS CSI node plugin validates the PersistentVolume at NodePublishVolume and fails the mount with InvalidArgument: a ' +
      'malformed volumeHandle ("Expected at most three fields separated by \':\'", "Expected a file system ID of the form ' +
      '\'fs-[0-9a-f]{8,40}\'", "invalid access point ID"), an unknown volumeAttributes key ("Volume context property … not ' +
      'supported"), a non-boolean encryptInTransit, `tls` in mountOptions with encryptInTransit "false", an access point in ' +
      'mountOptions that differs from the handle\'s, a block volume ("only filesystem volumes are supported") or a read-only ' +
      'access mode ("invalid access mode": kubelet passes the PV\'s first access mode). Pods using the volume stay in ' +
      'ContainerCreating.',
    trigger:
      'PersistentVolumes with `spec.csi.driver: efs.csi.aws.com`: `volumeHandle` not matching `[efs:|s3files:]{fs-id}[:{subpath}' +
      '[:{fsap-id}]]` with `fs-[0-9a-f]{8,40}` (or a mount-target DNS name) and `fsap-[0-9a-f]{8,40}`; `volumeAttributes` keys ' +
      'other than encryptInTransit, mounttargetip, crossaccount and storage.kubernetes.io/csiProvisionerIdentity (error; the ' +
      'deprecated `path` key is a warning: newer drivers reject it); encryptInTransit or crossaccount values that are not ' +
      'booleans; S3 Files handles (`s3files:`) with encryptInTransit "false", crossaccount "true" or the `stunnel` option; `tls` in ' +
      'mountOptions with encryptInTransit "false"; `accesspoint=` in mountOptions naming another access point than the handle; ' +
      '`volumeMode: Block`; ReadOnlyMany as the first access mode — all errors. encryptInTransit "false" on EFS is a note (NFS ' +
      'traffic in clear text); `accesspoint=` in mountOptions without a conflict is a note (deprecated).',
    exceptions:
      'Values filled in by a template engine or written as placeholders (`${EFS_ID}`, `{{ .Values.fs }}`, `<fs-id>`, ' +
      '`[Filesystem ID]`, `fs-xxxxxxxx`, `FILESYSTEM_ID`) are not judged. ReadOnlyMany after another access mode is fine (kubelet uses the first). Two PVs with ' +
      'the same handle are csi-duplicate-volume-handle\'s.',
    fix:
      'Write the handle as `fs-0123456789abcdef0`, `fs-0123456789abcdef0:/path` or `fs-0123456789abcdef0::fsap-0123456789abcdef0` ' +
      '(optionally prefixed `efs:`), move a subdirectory from `volumeAttributes.path` into the handle, remove unsupported ' +
      'attributes and conflicting options, and use `volumeMode: Filesystem` with ReadWriteMany or ReadWriteOnce.',
    reportsAt: 'The offending field: `spec.csi.volumeHandle`, the `volumeAttributes` key, the mount option in `spec.mountOptions`, `spec.volumeMode` or `spec.accessModes`.',
    references: [
      { title: 'aws-efs-csi-driver pkg/driver/node.go (parseVolumeId, NodePublishVolume, validateAccessMode)', url: 'https://github.com/kubernetes-sigs/aws-efs-csi-driver/blob/master/pkg/driver/node.go' },
      { title: 'aws-efs-csi-driver docs/parameters.md (static provisioning volumeAttributes, encryption in transit)', url: 'https://github.com/kubernetes-sigs/aws-efs-csi-driver/blob/master/docs/parameters.md' },
      { title: 'aws-efs-csi-driver access points example (fs-id::fsap-id)', url: 'https://github.com/kubernetes-sigs/aws-efs-csi-driver/blob/master/examples/kubernetes/access_points/README.md' },
      { title: 'kubernetes pkg/volume/csi/csi_mounter.go (the PV\'s first access mode is passed to NodePublishVolume)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/volume/csi/csi_mounter.go' },
    ],
    messages: {
      handle: (d: { pv: string; detail: string }) =>
        `PersistentVolume "${d.pv}": ${d.detail}; the EFS CSI driver fails NodePublishVolume with InvalidArgument and pods using the volume stay ContainerCreating.`,
      attribute: (d: { pv: string; key: string; hint: string }) =>
        `PersistentVolume "${d.pv}" sets volumeAttributes.${d.key}, which the EFS CSI driver does not accept ("Volume context property ${d.key} not supported"): every mount fails${d.hint}.`,
      pathAttribute: (d: { pv: string; value: string }) =>
        `PersistentVolume "${d.pv}" uses the deprecated volumeAttributes.path "${d.value}"; newer EFS CSI drivers reject it ("Volume context property path not supported"). Put the directory in the handle (fs-id:${d.value}).`,
      notBoolean: (d: { pv: string; key: string; value: string }) =>
        `PersistentVolume "${d.pv}": volumeAttributes.${d.key} is "${d.value}", not a boolean; the EFS CSI driver fails every mount ("must be a boolean value").`,
      cleartext: (d: { pv: string }) =>
        `PersistentVolume "${d.pv}" turns off encryption in transit (encryptInTransit: "false"): NFS traffic to EFS travels unencrypted.`,
      s3files: (d: { pv: string; what: string }) =>
        `PersistentVolume "${d.pv}" is an S3 Files volume (s3files: handle) with ${d.what}, which the EFS CSI driver rejects for S3 Files; every mount fails.`,
      tlsConflict: (d: { pv: string }) =>
        `PersistentVolume "${d.pv}" lists the tls mount option while encryptInTransit is "false"; the EFS CSI driver fails the mount ("Found tls in mountOptions but encryptInTransit is false").`,
      accessPointConflict: (d: { pv: string; option: string; handle: string }) =>
        `PersistentVolume "${d.pv}" has mount option accesspoint=${d.option} but its volumeHandle names access point ${d.handle}; the EFS CSI driver fails the mount ("Found conflicting access point IDs").`,
      accessPointOption: (d: { pv: string; option: string }) =>
        `PersistentVolume "${d.pv}" passes access point ${d.option} as a mount option, which the EFS CSI driver deprecates; put it in the volumeHandle (fs-id::${d.option}) so each access point has its own handle.`,
      block: (d: { pv: string }) =>
        `PersistentVolume "${d.pv}" is an EFS volume with volumeMode: Block; EFS is a file system and the driver fails the mount ("only filesystem volumes are supported").`,
      readOnly: (d: { pv: string }) =>
        `PersistentVolume "${d.pv}" lists ReadOnlyMany first; kubelet passes the first access mode to the driver (MULTI_NODE_READER_ONLY), which EFS rejects ("invalid access mode"). List ReadWriteMany first and mount read-only with readOnly: true.`,
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolume
metadata: {name: shared}
spec:
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteMany]
  storageClassName: ""
  csi:
    driver: efs.csi.aws.com
    volumeHandle: "fs-0123456789abcdef0:/shared:ap-0123456789abcdef0"
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolume
metadata: {name: shared}
spec:
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteMany]
  storageClassName: ""
  csi:
    driver: efs.csi.aws.com
    volumeHandle: "fs-0123456789abcdef0:/shared:fsap-0123456789abcdef0"
`,
      ],
    },
  },
  check({ model, report }) {
    for (const pv of model.ofKind('PersistentVolume')) {
      const spec = pv.object?.spec ?? {};
      const csi = spec.csi;
      if (!csi || typeof csi !== 'object' || csi.driver !== EFS_DRIVER) continue;
      const base = { pv: pv.name };

      let parsed: ReturnType<typeof parseEfsHandle> | undefined;
      if (typeof csi.volumeHandle === 'string' && !isTemplated(csi.volumeHandle)) {
        parsed = parseEfsHandle(csi.volumeHandle);
        if (!parsed.ok) report({ resource: pv, path: HANDLE, messageId: 'handle', data: { ...base, detail: parsed.detail } });
      }
      const s3files = parsed?.ok === true && parsed.prefix === 's3files';

      const attributes = csi.volumeAttributes && typeof csi.volumeAttributes === 'object' ? csi.volumeAttributes as Record<string, unknown> : {};
      let encrypt: boolean | undefined;
      for (const [key, raw] of Object.entries(attributes)) {
        const value = raw == null ? '' : String(raw);
        const path: JsonPath = ['spec', 'csi', 'volumeAttributes', key];
        const lower = key.toLowerCase();
        if (lower === 'path') {
          report({ resource: pv, path, messageId: 'pathAttribute', severity: 'warning', data: { ...base, value } });
          continue;
        }
        if (!EFS_VOLUME_ATTRIBUTES.has(lower)) {
          const near = closestName(key, ['encryptInTransit', 'mounttargetip', 'crossaccount']);
          report({ resource: pv, path, messageId: 'attribute', data: { ...base, key, hint: near ? ` (did you mean ${near}?)` : '' } });
          continue;
        }
        if (lower === 'encryptintransit' || lower === 'crossaccount') {
          if (isTemplated(value)) continue;
          const bool = parseGoBool(value);
          if (bool === undefined) {
            report({ resource: pv, path, messageId: 'notBoolean', data: { ...base, key, value } });
            continue;
          }
          if (lower === 'encryptintransit') {
            encrypt = bool;
            if (!bool) {
              if (s3files) report({ resource: pv, path, messageId: 's3files', data: { ...base, what: 'encryptInTransit: "false"' } });
              else report({ resource: pv, path, messageId: 'cleartext', severity: 'note', data: base });
            }
          } else if (bool && s3files) {
            report({ resource: pv, path, messageId: 's3files', data: { ...base, what: 'crossaccount: "true"' } });
          }
        }
      }

      const options: unknown[] = Array.isArray(spec.mountOptions) ? spec.mountOptions : [];
      options.forEach((raw, index) => {
        const option = String(raw ?? '').trim().toLowerCase();
        const path: JsonPath = ['spec', 'mountOptions', index];
        if (option === 'tls' && encrypt === false) report({ resource: pv, path, messageId: 'tlsConflict', data: base });
        if (option === 'stunnel' && s3files) report({ resource: pv, path, messageId: 's3files', data: { ...base, what: 'the stunnel mount option' } });
        if (option.startsWith('accesspoint=')) {
          const id = option.slice('accesspoint='.length);
          if (parsed?.ok && parsed.accessPoint && parsed.accessPoint !== id) {
            report({ resource: pv, path, messageId: 'accessPointConflict', data: { ...base, option: id, handle: parsed.accessPoint } });
          } else if (!(parsed?.ok && parsed.accessPoint)) {
            report({ resource: pv, path, messageId: 'accessPointOption', severity: 'note', data: { ...base, option: id } });
          }
        }
      });

      if (spec.volumeMode === 'Block') report({ resource: pv, path: ['spec', 'volumeMode'], messageId: 'block', data: base });
      if (Array.isArray(spec.accessModes) && spec.accessModes[0] === 'ReadOnlyMany') {
        report({ resource: pv, path: ['spec', 'accessModes', 0], messageId: 'readOnly', data: base });
      }
    }
  },
});
