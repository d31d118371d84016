// The AWS EFS CSI driver's view of PersistentVolumes and StorageClasses (catalogue §2.9): the volumeHandle grammar of
// `parseVolumeId`, the volume attributes NodePublishVolume accepts, and the dynamic-provisioning parameters.
export const EFS_DRIVER = 'efs.csi.aws.com';

/** `fs-` + 8 to 40 lowercase hex digits (the EFS API pattern the driver checks). */
export const FILE_SYSTEM_ID = /^fs-[0-9a-f]{8,40}$/;
/** `fsap-` + 8 to 40 lowercase hex digits. */
export const ACCESS_POINT_ID = /^fsap-[0-9a-f]{8,40}$/;
/** A mount-target DNS name the driver accepts in place of the ID (`fs-….efs.<region>.amazonaws.com`, optionally AZ-prefixed). */
const MOUNT_TARGET_DNS = /^(?:[a-z0-9-]+\.)?fs-[0-9a-f]{8,40}\.efs\.[a-z0-9-]+\.amazonaws\.com(?:\.cn)?$/;
/** The EFS API's FileSystemId pattern for CreateAccessPoint (an ID or a file-system ARN). */
export const API_FILE_SYSTEM_ID = /^(?:arn:aws[-a-z]*:elasticfilesystem:[0-9a-z-:]+:file-system\/fs-[0-9a-f]{8,40}|fs-[0-9a-f]{8,40})$/;

export type EfsHandle =
  | { ok: true; prefix?: 'efs' | 's3files'; fileSystem: string; subpath?: string; accessPoint?: string }
  | { ok: false; problem: 'fields' | 'file-system' | 'access-point'; detail: string };

/**
 * `parseVolumeId`: an optional `efs:` or `s3files:` prefix, then `{fs-id}[:{subpath}[:{fsap-id}]]` (at most three
 * `:`-separated fields). The file system is `fs-[0-9a-f]{8,40}` or its mount-target DNS name; empty subpath and access
 * point fields are allowed (`fs-…::fsap-…`); the subpath need not be absolute.
 */
export function parseEfsHandle(handle: string): EfsHandle {
  let rest = handle;
  let prefix: 'efs' | 's3files' | undefined;
  const match = /^(efs|s3files):/.exec(handle);
  if (match) {
    prefix = match[1] as 'efs' | 's3files';
    rest = handle.slice(match[0].length);
  }
  const tokens = rest.split(':');
  if (tokens.length > 3) {
    return { ok: false, problem: 'fields', detail: `volume ID '${handle}' is invalid: Expected at most three fields separated by ':'` };
  }
  const [fileSystem, subpath, accessPoint] = tokens;
  if (!FILE_SYSTEM_ID.test(fileSystem) && !MOUNT_TARGET_DNS.test(fileSystem)) {
    return { ok: false, problem: 'file-system', detail: `volume ID '${handle}' is invalid: Expected a file system ID of the form 'fs-[0-9a-f]{8,40}'` };
  }
  if (accessPoint !== undefined && accessPoint !== '' && !ACCESS_POINT_ID.test(accessPoint)) {
    return { ok: false, problem: 'access-point', detail: `volume ID '${handle}' has an invalid access point ID '${accessPoint}': Expected it to be of the form 'fsap-[0-9a-f]{8,40}'` };
  }
  return {
    ok: true,
    ...(prefix ? { prefix } : {}),
    fileSystem,
    ...(subpath ? { subpath } : {}),
    ...(accessPoint ? { accessPoint } : {}),
  };
}

/** Volume attributes NodePublishVolume accepts (compared in lower case); any other key fails the mount. */
export const EFS_VOLUME_ATTRIBUTES: ReadonlySet<string> = new Set(['encryptintransit', 'mounttargetip', 'crossaccount', 'storage.kubernetes.io/csiprovisioneridentity']);

/** Go `strconv.ParseBool`. */
export function parseGoBool(value: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}

/** Documented StorageClass parameters (docs/parameters.md) plus the external-provisioner's `csi.storage.k8s.io/*` keys. */
export const EFS_PARAMETERS: readonly string[] = [
  'provisioningMode', 'fileSystemId', 'fileSystemIdConfigRef', 'fileSystemIdSecretRef', 'directoryPerms', 'uid', 'gid',
  'gidRangeStart', 'gidRangeEnd', 'basePath', 'subPathPattern', 'ensureUniqueDirectory', 'reuseAccessPoint', 'az',
  'enforceZoneAffinity', 'enableTagging',
];

/** Provisioning modes: `efs-ap` (and `s3files-ap` for S3 Files, in the driver's own examples) are documented; `efs-dir` / `efs-ns` appear in some driver sources and are not judged. */
export const EFS_PROVISIONING_MODES = {
  documented: ['efs-ap', 's3files-ap'],
  tolerated: ['efs-dir', 'efs-ns'],
  /** The driver source the list was taken from. */
  source: 'aws-efs-csi-driver commit a4fc676 (2026-07)',
} as const;

/**
 * A value that a template engine or a person fills in later, so its text says nothing: `${VAR}`, `{{ .x }}`, `<fs-id>`,
 * `[Filesystem ID]`, an ID of x's (`fs-xxxxxxxx`, `fsap-XXXXXXXXXXXXXXXXX`, as in docs and blog samples) or a bare
 * upper-case name (`FILESYSTEM_ID`) that a script replaces.
 */
export function isTemplated(value: string): boolean {
  return /\$\{|\{\{|<[A-Za-z_ -]+>|\[[A-Za-z][A-Za-z _-]*\]|\b(fs|fsap)-[xX]{4,}\b/.test(value) || /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(value.trim());
}
