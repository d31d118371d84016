// What the bundle tells about a claim's storage: its effective access modes and volume mode, the PV it is bound to,
// the driver behind it and whether that driver attaches volumes to one node (catalogue §5 `attachable(pvc)`, §7).
import type { Resource } from '../types.js';
import { inTreeSourceProvisioner, normaliseProvisioner, type DriverInfo } from './provisioners.js';
import type { Lookup, ModelView } from './model-view.js';
import { isPlaceholder } from './placeholder.js';
import type { CsiDriverResource, StorageClassResource, VolumeResource } from './views.js';

export const RWO = 'ReadWriteOnce';
export const ROX = 'ReadOnlyMany';
export const RWX = 'ReadWriteMany';
export const RWOP = 'ReadWriteOncePod';
/** Every access mode the API accepts on a claim. */
export const ACCESS_MODES: readonly string[] = [RWO, ROX, RWX, RWOP];

const HOSTNAME = 'kubernetes.io/hostname';

/** `spec.accessModes` as strings; undefined when absent or not a list. */
export function accessModesOf(object: any): string[] | undefined {
  const modes = object?.spec?.accessModes;
  return Array.isArray(modes) ? modes.map(String) : undefined;
}

/** `spec.volumeMode`; nil means Filesystem on both PVs and PVCs (CheckVolumeModeMismatches). */
export function volumeModeOf(object: any): string {
  const mode = object?.spec?.volumeMode;
  return mode == null || mode === '' ? 'Filesystem' : String(mode);
}

/** The namespace/name a claim key of the model (`namespace/name`) stands for. */
export function splitClaimKey(claimKey: string): { namespace: string; name: string } {
  const slash = claimKey.indexOf('/');
  return { namespace: claimKey.slice(0, slash), name: claimKey.slice(slash + 1) };
}

export interface BoundVolume {
  pv: VolumeResource;
  /** `volumeName` on the claim, or the PV's `claimRef` reserving the claim. */
  via: 'volumeName' | 'claimRef';
}

/** The PV in the bundle the claim is bound or pre-bound to (`spec.volumeName`, else a PV whose claimRef names it). */
export function boundVolumeOf(model: ModelView, pvc: Resource): BoundVolume | undefined {
  const volumeName = pvc.object?.spec?.volumeName;
  if (typeof volumeName === 'string' && volumeName !== '') {
    const lookup = volumeFor(model, volumeName, pvc);
    return lookup.status === 'found' ? { pv: lookup.value, via: 'volumeName' } : undefined;
  }
  const reserving = volumesReserving(model, pvc);
  return reserving.length > 0 ? { pv: reserving[0], via: 'claimRef' } : undefined;
}

/**
 * The PersistentVolume named `name`: with several PV documents of that name in the scope (independent samples side
 * by side), the one written closest to `from` (see closestDefinition); else the model's lookup.
 */
export function volumeFor(model: ModelView, name: string, from?: Resource): Lookup<VolumeResource> {
  if (from) {
    const definitions = model.volumesNamed(name);
    if (definitions.length > 1) return { status: 'found', value: closestDefinition(definitions, from, model) };
  }
  return model.lookupVolume(name);
}

/** The PVs whose claimRef reserves `pvc`, the ones written closest to it: those in unrelated sample directories are left out. */
export function volumesReserving(model: ModelView, pvc: Resource): readonly VolumeResource[] {
  const namespace = model.namespaceOf(pvc) ?? model.defaultNamespace;
  return nearestDefinitions(model.volumesClaiming(namespace, pvc.name), pvc);
}

/**
 * Of several objects that all answer one lookup (PVs reserving one claim name, in independent sample directories),
 * those written as close to `from` as the closest of them: the same file, else the deepest common directory.
 */
export function nearestDefinitions<R extends Resource>(definitions: readonly R[], from: Resource): readonly R[] {
  if (definitions.length <= 1) return definitions;
  const score = (d: Resource) => (d.file === from.file ? Number.MAX_SAFE_INTEGER : directoryDepthInCommon(d.file.path, from.file.path));
  const best = Math.max(...definitions.map(score));
  return definitions.filter((d) => score(d) === best);
}

export type DriverSource =
  | { via: 'pv-csi'; pv: Resource }
  | { via: 'pv-in-tree'; pv: Resource; source: string }
  | { via: 'class'; storageClass: StorageClassResource; defaulted: boolean }
  | { via: 'none'; why: string };

export interface ClaimDriver {
  /** The provisioner / driver name as written; undefined when the bundle does not show it. */
  name: string | undefined;
  /** The §7 row, when pvlint knows the driver. */
  info: DriverInfo | undefined;
  source: DriverSource;
}

/** The driver of a PV in the bundle: `spec.csi.driver`, or the in-tree source it is written with. */
export function driverOfVolume(model: ModelView, pv: Resource): ClaimDriver | undefined {
  const csiDriver = pv.object?.spec?.csi?.driver;
  if (typeof csiDriver === 'string' && csiDriver !== '') {
    return { name: csiDriver, info: model.driverCapabilities(csiDriver), source: { via: 'pv-csi', pv } };
  }
  const inTree = inTreeSourceProvisioner(pv.object?.spec);
  if (inTree) {
    return { name: inTree.provisioner, info: model.driverCapabilities(inTree.provisioner), source: { via: 'pv-in-tree', pv, source: inTree.source } };
  }
  return undefined;
}

/**
 * The driver behind a claim: the bound / pre-bound PV in the bundle, else the provisioner of its effective
 * StorageClass (its own class or the bundle's default class). Unknown when neither is in the bundle.
 */
export function driverOfClaim(model: ModelView, pvc: Resource, bound = boundVolumeOf(model, pvc)): ClaimDriver {
  if (bound) {
    const fromVolume = driverOfVolume(model, bound.pv);
    if (fromVolume) return fromVolume;
  }
  return driverOfClaimClass(model, pvc.object);
}

/**
 * The provisioner of a claim's effective StorageClass (its own class or the bundle's default class), for any claim-shaped
 * object: a PVC's object, a StatefulSet volumeClaimTemplate, an ephemeral volumeClaimTemplate. Ignores bound PVs.
 */
export function driverOfClaimClass(model: ModelView, claim: unknown, from?: Resource): ClaimDriver {
  const effective = model.effectiveClassOfClaim(claim);
  if (effective.name === undefined) {
    return { name: undefined, info: undefined, source: { via: 'none', why: 'the claim sets no storageClassName and the repo has no default StorageClass' } };
  }
  if (effective.name === '') {
    return { name: undefined, info: undefined, source: { via: 'none', why: 'the claim has storageClassName "" and its PersistentVolume is not in the repo' } };
  }
  if (isPlaceholder(effective.name)) {
    // `${VAR}` left by a substitution pvlint could not complete is no class name: saying the class is missing would mislead.
    return { name: undefined, info: undefined, source: { via: 'none', why: `the class is unknown: storageClassName is ${JSON.stringify(effective.name)}, a placeholder for a variable pvlint could not resolve` } };
  }
  const lookup = storageClassFor(model, effective.name, from);
  if (lookup.status !== 'found') {
    return { name: undefined, info: undefined, source: { via: 'none', why: `StorageClass "${effective.name}" is not in the repo` } };
  }
  const provisioner = lookup.value.object?.provisioner;
  if (typeof provisioner !== 'string' || provisioner === '') {
    return { name: undefined, info: undefined, source: { via: 'none', why: `StorageClass "${effective.name}" names no provisioner` } };
  }
  return { name: provisioner, info: model.driverCapabilities(provisioner), source: { via: 'class', storageClass: lookup.value, defaulted: effective.defaulted } };
}

/**
 * The StorageClass named `name`: with `from`, and several StorageClass documents of that name in the scope (independent
 * examples side by side), the one written closest to `from` (see closestDefinition); else the model's lookup.
 */
export function storageClassFor(model: ModelView, name: string, from?: Resource): Lookup<StorageClassResource> {
  if (from) {
    const definitions = model.classesNamed(name);
    if (definitions.length > 1) return { status: 'found', value: closestDefinition(definitions, from, model) };
  }
  return model.lookupClass(name);
}

export interface Attachability {
  /**
   * `yes`: the attach/detach controller attaches the volume to one node (a second node gets Multi-Attach for RWO);
   * `no`: no attach step, nothing enforces RWO across nodes; `unknown`: the bundle cannot tell.
   */
  value: 'yes' | 'no' | 'unknown';
  /** Why, in Kubernetes terms (for messages). */
  reason: string;
  /** The CSIDriver object that decided it, when one did. */
  csiDriver?: CsiDriverResource;
}

/**
 * §5 `attachable(pvc)`: the driver is in §7 with attach = yes, or unknown but the volume is a raw block device.
 * A CSIDriver object in the bundle overrides the table (`spec.attachRequired` defaults to true).
 */
export function attachabilityOf(model: ModelView, driver: ClaimDriver, volumeMode: string): Attachability {
  if (driver.name !== undefined) {
    for (const name of new Set([driver.name, normaliseProvisioner(driver.name)])) {
      const lookup = model.lookupCsiDriver(name);
      if (lookup.status !== 'found') continue;
      const attachRequired = lookup.value.object?.spec?.attachRequired;
      return attachRequired === false
        ? { value: 'no', reason: `CSIDriver "${name}" sets attachRequired: false`, csiDriver: lookup.value }
        : { value: 'yes', reason: `CSIDriver "${name}" requires attach`, csiDriver: lookup.value };
    }
  }
  const info = driver.info;
  if (info) {
    switch (info.capabilities.attach) {
      case 'required':
        return { value: 'yes', reason: `driver ${info.driver} attaches the volume to one node` };
      case 'not-required':
        return { value: 'no', reason: `driver ${info.driver} has no attach step (attachRequired: false)` };
      case 'configurable':
        return { value: 'unknown', reason: `driver ${info.driver} may or may not attach volumes, depending on how it is installed` };
      case 'not-applicable':
        return { value: 'no', reason: `${info.driver} volumes have no attach step` };
    }
  }
  if (volumeMode === 'Block') {
    return { value: 'yes', reason: `the claim is a raw block device (volumeMode: Block) of ${driver.name ? `driver ${driver.name}` : 'an unknown driver'}, which needs an attach` };
  }
  const why = driver.name !== undefined ? `pvlint does not know driver ${driver.name}` : driver.source.via === 'none' ? driver.source.why : 'the driver is unknown';
  return { value: 'unknown', reason: why };
}

/** Required nodeSelectorTerms that all pin one `kubernetes.io/hostname` value (terms are ORed). */
export function singleHostOfNodeSelectorTerms(terms: unknown): string | undefined {
  if (!Array.isArray(terms) || terms.length === 0) return undefined;
  let host: string | undefined;
  for (const term of terms) {
    const expressions: any[] = Array.isArray(term?.matchExpressions) ? term.matchExpressions : [];
    const fields: any[] = Array.isArray(term?.matchFields) ? term.matchFields : [];
    const pins = [
      ...expressions.filter((e) => e?.key === HOSTNAME),
      ...fields.filter((e) => e?.key === 'metadata.name'),
    ].filter((e) => e.operator === 'In' && Array.isArray(e.values) && e.values.length === 1);
    if (pins.length === 0) return undefined;
    const value = String(pins[0].values[0]);
    if (host !== undefined && host !== value) return undefined;
    host = value;
  }
  return host;
}

/**
 * Whether every pod using the claim's volume must run on one node whatever the workloads say: the volume is
 * node-local (a §7 driver with node topology: local PVs, local-path, OpenEBS local) or its PV's required
 * nodeAffinity pins one host.
 */
export function volumeNodePin(driver: ClaimDriver, bound: BoundVolume | undefined): string | undefined {
  const pvTerms = bound?.pv.object?.spec?.nodeAffinity?.required?.nodeSelectorTerms;
  const host = singleHostOfNodeSelectorTerms(pvTerms);
  if (host) return `PersistentVolume "${bound!.pv.name}" is pinned to node ${host}`;
  if (driver.info?.capabilities.topology.kind === 'node') return `${driver.info.driver} volumes live on a single node`;
  return undefined;
}

/** Everything the workload rules need to know about one claim in the bundle. */
export interface ClaimStorage {
  readonly pvc: Resource;
  readonly bound: BoundVolume | undefined;
  /** Effective access modes: the bound PV's when it is in the bundle (they decide attach behaviour), else the claim's. */
  readonly accessModes: readonly string[];
  readonly accessModesFrom: 'pv' | 'pvc';
  readonly volumeMode: string;
  readonly driver: ClaimDriver;
  readonly attach: Attachability;
  /** Set when the volume forces every pod onto one node. */
  readonly nodePin: string | undefined;
}

export function claimStorage(model: ModelView, pvc: Resource): ClaimStorage {
  const bound = boundVolumeOf(model, pvc);
  const pvModes = bound ? accessModesOf(bound.pv.object) : undefined;
  const accessModes = pvModes && pvModes.length > 0 ? pvModes : accessModesOf(pvc.object) ?? [];
  const volumeMode = volumeModeOf(bound ? bound.pv.object : pvc.object);
  const driver = driverOfClaim(model, pvc, bound);
  return {
    pvc,
    bound,
    accessModes,
    accessModesFrom: pvModes && pvModes.length > 0 ? 'pv' : 'pvc',
    volumeMode,
    driver,
    attach: attachabilityOf(model, driver, volumeMode),
    nodePin: volumeNodePin(driver, bound),
  };
}

/**
 * How strictly one node is enforced for a claim: `rwop` = one pod cluster-wide (scheduler + kubelet);
 * `attach` = RWO on an attachable volume, the attach/detach controller refuses a second node (IsMultiAttachAllowed is
 * false only when the PV modes have neither ReadWriteMany nor ReadOnlyMany); `none` = RWO is only a label here;
 * `unknown` = the driver is unknown.
 */
export type Enforcement = 'rwop' | 'attach' | 'none' | 'unknown';

/** How strictly one node is enforced for a claim (see Enforcement); undefined when the modes are not single-node at all (RWX, ROX only, none). */
export function singleNodeEnforcement(storage: ClaimStorage): Enforcement | undefined {
  const modes = storage.accessModes;
  if (modes.includes(RWOP)) return 'rwop';
  if (!modes.includes(RWO) || modes.includes(RWX)) return undefined;
  if (modes.includes(ROX)) return 'none';
  return storage.attach.value === 'yes' ? 'attach' : storage.attach.value === 'no' ? 'none' : 'unknown';
}

/** The single-node access mode a claim has, for messages: ReadWriteOncePod when it has it, else ReadWriteOnce. */
export function singleNodeMode(storage: ClaimStorage): 'ReadWriteOncePod' | 'ReadWriteOnce' {
  return storage.accessModes.includes(RWOP) ? 'ReadWriteOncePod' : 'ReadWriteOnce';
}

/** A short description of the claim's driver for messages: `driver ebs.csi.aws.com`, `StorageClass "gp3" (not in the repo)`. */
export function describeDriver(storage: ClaimStorage): string {
  const driver = storage.driver;
  if (driver.name !== undefined) {
    const normalised = driver.info && driver.info.driver !== driver.name ? ` (migrated to ${driver.info.driver})` : '';
    return `${driver.name}${normalised}`;
  }
  return 'unknown driver';
}

function directoryDepthInCommon(a: string, b: string): number {
  const da = a.split('/').slice(0, -1);
  const db = b.split('/').slice(0, -1);
  let depth = 0;
  while (depth < da.length && depth < db.length && da[depth] === db[depth]) depth++;
  return depth;
}

/**
 * Of several definitions of one claim, the one written closest to the resource that refers to it: the same file,
 * else the deepest common directory; on a tie, a definition in a file without pod templates (a stand-alone claim)
 * before one bundled with another app's workloads, else the first. With a single definition, that one.
 */
export function closestDefinition<R extends Resource>(definitions: readonly R[], from: Resource, model?: ModelView): R {
  if (definitions.length === 1) return definitions[0];
  const workloadFiles: ReadonlySet<unknown> = model ? model.workloadFiles() : new Set();
  let best = definitions[0];
  let bestScore = -1;
  for (const definition of definitions) {
    const score = definition.file === from.file
      ? Number.MAX_SAFE_INTEGER
      : directoryDepthInCommon(definition.file.path, from.file.path) * 2 + (workloadFiles.has(definition.file) ? 0 : 1);
    if (score > bestScore) {
      best = definition;
      bestScore = score;
    }
  }
  return best;
}
