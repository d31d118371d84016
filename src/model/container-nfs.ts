// Containers that mount NFS/EFS themselves (catalogue §6b `nfsSignal`): the NFS connection then starts in the pod's
// network namespace, where a service mesh captures it. Kubelet-mounted volumes (`volumes[].nfs`, NFS/EFS CSI PVs) are
// mounted on the host and are never a signal.
import type { JsonPath } from '../types.js';
import type { PodTemplate } from './pod-templates.js';
import { containersOf } from './wiring.js';

export interface NfsEvidence {
  /** What was seen, for messages: `command "mount -t nfs4 …"`, `securityContext.privileged: true`. */
  text: string;
  path: JsonPath;
}

export interface NfsSignal {
  container: string;
  containerKind: 'containers' | 'initContainers' | 'ephemeralContainers';
  /** Path of the container entry. */
  path: JsonPath;
  /** `strong`: a mount command; `medium`: privilege plus another hint (catalogue: two medium signals). */
  strength: 'strong' | 'medium';
  evidence: NfsEvidence[];
  /** The NFS server named in the mount command, when it shows one. */
  server?: string;
  /** NFS protocol version hints: `3` when the command asks for NFSv3 (vers=3, nfsvers=3, nolock). */
  version: '3' | '4' | 'unknown';
  /** The mount is EFS (`-t efs`, `mount.efs`, an `fs-…` file system ID). */
  efs: boolean;
}

// §6b strong signal: `mount` (or mount.nfs/mount.nfs4/mount.efs) with an NFS/EFS type, an nfsvers option or a
// `server:/export` source, within one shell command (up to ; & | or a newline).
const MOUNT_COMMAND = /\bmount(?:\.nfs4?|\.efs)?\b[^;&|\n]*?(?:-t\s*(?:nfs4?|efs)\b|\bnfsvers=|\s(?!https?:|s3:|gs:)([\w.-]+):\/(?!\/))/;
const MOUNT_HELPER = /\bmount\.(?:nfs4?|efs)\b|\bmount\s+-t\s*efs\b/;
const SERVER_SOURCE = /\s(?!https?:|s3:|gs:)([\w.-]+):\/(?!\/)/;
const LOCALHOST = /^(?:localhost|127\.\d+\.\d+\.\d+|::1)$/;
const NFS_V3 = /\b(?:nfs)?vers=3\b|\bnolock\b|\bnfsvers=2\b/;

const ENV_NAME = /NFS_(?:SERVER|HOST|PATH|SHARE)|EFS_(?:ID|FILE_?SYSTEM)/i;
const ENV_EFS_ID = /\bfs-[0-9a-f]{8,40}(?:\.efs\.[a-z0-9-]+\.amazonaws\.com)?\b/;
const ENV_NFS_SOURCE = /^[\w.-]+:\/(?!\/)[\w/.-]*$/;
const IMAGE = /nfs-client|nfs-common|efs-utils/i;

function joined(value: unknown): string | undefined {
  if (!Array.isArray(value)) return typeof value === 'string' ? value : undefined;
  return value.map((v) => (v == null ? '' : String(v))).join(' ');
}

function short(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 80 ? `${one.slice(0, 77)}…` : one;
}

interface CommandHit {
  field: string;
  path: JsonPath;
  text: string;
  match: RegExpExecArray | RegExpMatchArray;
}

function commandHits(container: any, base: JsonPath): CommandHit[] {
  const fields: { field: string; path: JsonPath; value: unknown }[] = [
    { field: 'command', path: [...base, 'command'], value: container.command },
    { field: 'args', path: [...base, 'args'], value: container.args },
    { field: 'lifecycle.postStart', path: [...base, 'lifecycle', 'postStart', 'exec', 'command'], value: container.lifecycle?.postStart?.exec?.command },
    { field: 'lifecycle.preStop', path: [...base, 'lifecycle', 'preStop', 'exec', 'command'], value: container.lifecycle?.preStop?.exec?.command },
  ];
  const hits: CommandHit[] = [];
  for (const f of fields) {
    const text = joined(f.value);
    if (!text) continue;
    const match = MOUNT_COMMAND.exec(text) ?? text.match(MOUNT_HELPER);
    if (match) hits.push({ field: f.field, path: f.path, text, match });
  }
  if (hits.length === 0) {
    // `command: [mount]` with the options in `args`.
    const text = [joined(container.command), joined(container.args)].filter(Boolean).join(' ');
    const match = MOUNT_COMMAND.exec(text) ?? text.match(MOUNT_HELPER);
    if (match) hits.push({ field: 'command and args', path: [...base, container.args != null ? 'args' : 'command'], text, match });
  }
  return hits;
}

/** The `nfsSignal` of every container of the template that mounts NFS/EFS itself; empty when none does. */
export function inContainerNfsMounts(template: PodTemplate): NfsSignal[] {
  const signals: NfsSignal[] = [];
  const hostAliases = Array.isArray(template.spec?.hostAliases) ? template.spec.hostAliases : [];
  const aliasHit = hostAliases.some((a: any) => Array.isArray(a?.hostnames) && a.hostnames.some((h: unknown) => /efs|nfs/i.test(String(h))));
  for (const entry of containersOf(template)) {
    const container = entry.object;
    const name = String(container.name ?? `#${entry.index}`);
    const evidence: NfsEvidence[] = [];
    let server: string | undefined;
    let version: NfsSignal['version'] = 'unknown';
    let efs = false;

    const hits = commandHits(container, entry.path).filter((hit) => {
      const source = SERVER_SOURCE.exec(hit.text.slice(hit.match.index ?? 0));
      // A mount of a local export (a sidecar-internal server) never leaves the pod.
      return !(source && LOCALHOST.test(source[1]));
    });
    for (const hit of hits) {
      const from = hit.text.slice(hit.match.index ?? 0);
      const source = SERVER_SOURCE.exec(from);
      if (source && server === undefined) server = source[1];
      if (NFS_V3.test(from)) version = '3';
      else if (/-t\s*nfs4\b|\bnfsvers=4|\bvers=4|mount\.nfs4/.test(from) && version === 'unknown') version = '4';
      if (/-t\s*efs\b|mount\.efs|\bfs-[0-9a-f]{8,40}\b/.test(from)) efs = true;
      evidence.push({ text: `${hit.field} "${short(from.split('\n')[0])}"`, path: hit.path });
    }
    const strong = evidence.length > 0;

    const medium: NfsEvidence[] = [];
    const sc = container.securityContext ?? {};
    const privileged = sc.privileged === true;
    const sysAdmin = Array.isArray(sc.capabilities?.add) && sc.capabilities.add.some((c: unknown) => /^(?:CAP_)?SYS_ADMIN$/i.test(String(c)));
    if (privileged) medium.push({ text: 'securityContext.privileged: true', path: [...entry.path, 'securityContext', 'privileged'] });
    else if (sysAdmin) medium.push({ text: 'capability SYS_ADMIN', path: [...entry.path, 'securityContext', 'capabilities', 'add'] });
    const env: any[] = Array.isArray(container.env) ? container.env : [];
    const envName = env.findIndex((e) => e && ENV_NAME.test(String(e.name ?? '')));
    if (envName !== -1) medium.push({ text: `env ${env[envName].name}`, path: [...entry.path, 'env', envName] });
    const envValue = env.findIndex((e) => e && typeof e.value === 'string' && (ENV_EFS_ID.test(e.value) || ENV_NFS_SOURCE.test(e.value.trim())));
    if (envValue !== -1) {
      medium.push({ text: `env ${env[envValue].name}=${short(env[envValue].value)}`, path: [...entry.path, 'env', envValue] });
      if (ENV_EFS_ID.test(env[envValue].value)) efs = true;
    }
    if (aliasHit) medium.push({ text: 'hostAliases naming an NFS/EFS host', path: [...template.specPath, 'hostAliases'] });
    const image = typeof container.image === 'string' ? container.image : '';
    if (IMAGE.test(image) && !/provisioner/i.test(image)) medium.push({ text: `image ${image}`, path: [...entry.path, 'image'] });

    // A mount needs CAP_SYS_ADMIN: medium hints count only for a privileged container with another hint.
    const mediumPositive = (privileged || sysAdmin) && medium.length >= 2;
    if (!strong && !mediumPositive) continue;
    signals.push({
      container: name,
      containerKind: entry.kind,
      path: entry.path,
      strength: strong ? 'strong' : 'medium',
      evidence: strong ? [...evidence, ...medium.filter((m) => m.text.startsWith('securityContext') || m.text.startsWith('capability'))] : medium,
      server,
      version,
      efs,
    });
  }
  return signals;
}

/** `container "x"`, `init container "x"`. */
export function containerWord(kind: NfsSignal['containerKind']): string {
  return kind === 'initContainers' ? 'init container' : kind === 'ephemeralContainers' ? 'ephemeral container' : 'container';
}

/** The ports an NFS client needs (§8.2): NFSv4/EFS TCP 2049; NFSv3 also the portmapper 111 (mountd/statd ports vary). */
export function nfsPorts(signal: NfsSignal): number[] {
  return signal.version === '3' ? [111, 2049] : [2049];
}
