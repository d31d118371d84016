// Whether a driver can give a claim the access mode / volume mode it asks for (catalogue §4 R14, R15 over the §7
// table). Reads capabilities only through the DriverInfo that `model.driverCapabilities` gives, so user overrides of
// the table apply.
import type { DriverCapabilities, DriverInfo, ModeSupport, ParameterSetting } from './provisioners.js';

export type SupportLevel = 'ok' | 'note' | 'warning' | 'error';

export interface SupportVerdict {
  level: SupportLevel;
  /** Why, in Kubernetes terms (empty when ok). */
  reason: string;
}

const OK: SupportVerdict = { level: 'ok', reason: '' };

const MODE_FIELD: Record<string, keyof Pick<DriverCapabilities, 'rwo' | 'rox' | 'rwx' | 'rwop'>> = {
  ReadWriteOnce: 'rwo',
  ReadOnlyMany: 'rox',
  ReadWriteMany: 'rwx',
  ReadWriteOncePod: 'rwop',
};

/** Parameters of a StorageClass with lowercased keys; undefined when unknown (a static PV). */
export type ClassParameters = Map<string, string> | undefined;

export function classParameters(storageClass: { object?: any } | undefined): ClassParameters {
  if (!storageClass) return undefined;
  const raw = storageClass.object?.parameters;
  const result = new Map<string, string>();
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [key, value] of Object.entries(raw)) if (value != null) result.set(key.toLowerCase(), String(value));
  }
  return result;
}

function settingHolds(setting: ParameterSetting, parameters: Map<string, string>): boolean {
  const value = parameters.get(setting.key.toLowerCase()) ?? setting.default;
  if (value === undefined) return false;
  if (setting.values && !setting.values.some((v) => v.toLowerCase() === value.trim().toLowerCase())) return false;
  if (setting.atLeast !== undefined) {
    const number = Number(value.trim());
    if (!Number.isInteger(number) || number < setting.atLeast) return false;
  }
  return true;
}

function describeSettings(settings: readonly ParameterSetting[], parameters: Map<string, string>): string {
  return settings
    .map((s) => {
      const value = parameters.get(s.key.toLowerCase());
      return value === undefined ? `${s.key} is not set${s.default !== undefined ? ` (the driver uses ${s.default})` : ''}` : `${s.key} is "${value}"`;
    })
    .join(', ');
}

/** Whether a requirement of the row holds: `yes`, `no` (with why), or `unknown` (not readable from YAML). */
function requirementHolds(support: ModeSupport, parameters: ClassParameters): { holds: 'yes' | 'no' | 'unknown'; why: string } {
  const requires = support.requires;
  if (!requires) return { holds: 'yes', why: '' };
  if (!requires.parameters) return { holds: 'unknown', why: requires.text };
  // A static PV: the volume exists already, its StorageClass parameters no longer decide anything.
  if (parameters === undefined) return { holds: 'yes', why: '' };
  if (requires.parameters.some((setting) => settingHolds(setting, parameters))) return { holds: 'yes', why: '' };
  return { holds: 'no', why: `it needs ${requires.text}, but ${describeSettings(requires.parameters, parameters)}` };
}

/**
 * Can the driver give this access mode with this volume mode? `parameters` are the StorageClass's (undefined for a
 * static PV, whose volume already exists: provisioning parameters no longer matter).
 * error = the driver or the API refuses it; warning = it depends on something the YAML does not show;
 * note = works, with a caveat (shared raw block device needs application-level fencing, unverified enforcement).
 */
export function accessModeSupport(info: DriverInfo, mode: string, volumeMode: string, parameters: ClassParameters): SupportVerdict {
  const field = MODE_FIELD[mode];
  if (!field) return OK;
  // §7 note 1: a removed in-tree provisioner has the CSI driver's capabilities, but its PVs stay non-CSI (no RWOP).
  const row = field === 'rwop' && info.inTree ? info.inTree : info.capabilities;
  const support = row[field];
  const driver = row === info.inTree ? info.requested : info.driver;
  const caveat = support.condition ? ` (${support.condition})` : '';
  switch (support.support) {
    case 'yes':
      return support.advisory ? { level: 'note', reason: `${driver}: ${support.advisory}` } : OK;
    case 'unknown':
      return OK;
    case 'no':
      if (field === 'rwop' && row.type !== 'csi') {
        return { level: 'warning', reason: `${driver} volumes are not CSI volumes, and ReadWriteOncePod is only supported for CSI volumes` };
      }
      return { level: 'error', reason: `${driver} does not support ${mode}${caveat}` };
    case 'block-only': {
      if (volumeMode !== 'Block') {
        const needs = support.requires ? ` with ${support.requires.text}` : '';
        return { level: 'error', reason: `${driver} supports ${mode} only for raw block volumes (volumeMode: Block${needs}), not with volumeMode ${volumeMode}` };
      }
      const requirement = requirementHolds(support, parameters);
      if (requirement.holds === 'no') return { level: 'error', reason: `${driver} supports ${mode} on raw block volumes only with more: ${requirement.why}` };
      if (requirement.holds === 'unknown') {
        return { level: 'warning', reason: `${driver} supports ${mode} on raw block volumes only with ${requirement.why}` };
      }
      return {
        level: 'note',
        reason: `${driver} gives ${mode} as one raw block device attached to several nodes: nothing serialises writes, the application must coordinate them (I/O fencing or a cluster file system)`,
      };
    }
    case 'conditional': {
      const requirement = requirementHolds(support, parameters);
      if (requirement.holds === 'yes') return OK;
      if (requirement.holds === 'no') return { level: 'error', reason: `${driver} supports ${mode} only conditionally: ${requirement.why}` };
      return { level: 'warning', reason: `${driver} supports ${mode} only conditionally: ${support.requires?.text ?? support.condition ?? 'see the driver documentation'}` };
    }
  }
}

/** The documented exception of the driver a static PV falls under (by its CSI volume handle), if any. */
export function staticHandleException(info: DriverInfo, pv: { object?: any }): string | undefined {
  const handle = pv.object?.spec?.csi?.volumeHandle;
  if (typeof handle !== 'string') return undefined;
  return info.capabilities.staticHandleExceptions?.find((e) => handle.startsWith(e.handlePrefix))?.note;
}

/** Can the driver give a raw block volume (volumeMode: Block)? */
export function blockModeSupport(info: DriverInfo): SupportVerdict {
  const support = info.capabilities.block;
  const caveat = support.condition ? ` (${support.condition})` : '';
  switch (support.support) {
    case 'no':
      return { level: 'error', reason: `${info.driver} does not provide raw block volumes${caveat}` };
    case 'conditional':
    case 'block-only':
      return { level: 'warning', reason: `${info.driver} provides raw block volumes only conditionally${caveat}` };
    default:
      return OK;
  }
}
