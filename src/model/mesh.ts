// Service-mesh membership of a pod template (catalogue §6b `meshOf`) and the traffic-capture exclusions that apply to it.
// Istio sidecar injection, Istio ambient and Linkerd are decided from the pod template's labels and annotations and the
// labels/annotations of its Namespace when the scope holds the Namespace object. Cluster-wide defaults (injection on by
// default, namespaces labelled outside the repo, native sidecars) are not in YAML: callers pass them as `MeshDefaults`;
// without them a namespace the repo does not show makes membership `unknown`, never a guess.
import type { JsonPath, Resource } from '../types.js';
import { annotationsOf, labelsOf } from './gitops.js';
import { getPath, type PodTemplate } from './pod-templates.js';
import type { ModelView } from './model-view.js';

export type MeshKind = 'istio-sidecar' | 'istio-ambient' | 'linkerd';

export const MESH_NAMES: Readonly<Record<MeshKind, string>> = {
  'istio-sidecar': 'an Istio sidecar',
  'istio-ambient': 'Istio ambient (ztunnel)',
  linkerd: 'a Linkerd proxy',
};

/** What the cluster does that the repo cannot show (catalogue §1.6 `meshDefaultNamespaces`, `istio.nativeSidecars`). */
export interface MeshDefaults {
  /** Istio injects every namespace without an `istio-injection` label (`sidecarInjectorWebhook.enableNamespacesByDefault`). */
  istioInjectByDefault?: boolean;
  /** Namespaces known to be enrolled in a mesh (labelled outside the repo), by name. */
  meshNamespaces?: Readonly<Record<string, MeshKind>>;
  /** Namespaces known to be outside any mesh. */
  plainNamespaces?: readonly string[];
  /** Istio native sidecars (`ENABLE_NATIVE_SIDECARS`): `auto` means Istio ≥1.27, where they are on by default. */
  istioNativeSidecars?: boolean | 'auto';
  /** Linkerd `proxy.nativeSidecar` (off unless enabled at install). */
  linkerdNativeSidecars?: boolean;
}

/** The model with the cluster's mesh defaults, the ones meshOf applies unless the caller passes its own. */
export interface MeshModel extends ModelView {
  readonly meshDefaults?: MeshDefaults;
}

export interface Evidence {
  /** In Kubernetes terms: `namespace "shop" has label istio-injection=enabled`. */
  text: string;
  at?: { resource: Resource; path: JsonPath };
}

export interface MeshMembership {
  state: 'in-mesh' | 'not-in-mesh' | 'unknown';
  /** The mesh the pods join (in-mesh), or the mesh they would join if the unknown namespace is enrolled. */
  mesh?: MeshKind;
  /** Why, in Kubernetes terms. */
  reason: Evidence;
  /** Whether the proxy runs as a native sidecar (an init container with `restartPolicy: Always`); sidecar meshes only. */
  nativeSidecar: 'yes' | 'no' | 'unknown';
  nativeReason: string;
  /** The namespace the decision used. */
  namespace: string;
}

/** Path of the pod template's `metadata` inside the workload. */
export function podMetadataPath(template: PodTemplate): JsonPath {
  return [...template.specPath.slice(0, -1), 'metadata'];
}

export function podMetadataOf(template: PodTemplate): unknown {
  return getPath(template.workload.object, podMetadataPath(template));
}

const truthy = (v: string | undefined) => v !== undefined && v.trim().toLowerCase() === 'true';
const falsy = (v: string | undefined) => v !== undefined && v.trim().toLowerCase() === 'false';

interface NamespaceView {
  name: string;
  known: boolean;
  resource?: Resource;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

function namespaceView(model: ModelView, name: string): NamespaceView {
  const lookup = model.lookupNamespace(name);
  if (lookup.status === 'found') {
    const meta = lookup.value.object?.metadata;
    return { name, known: true, resource: lookup.value, labels: labelsOf(meta), annotations: annotationsOf(meta) };
  }
  return { name, known: false, labels: {}, annotations: {} };
}

function containerNamed(template: PodTemplate, kind: 'containers' | 'initContainers', names: readonly string[]): { index: number; object: any } | undefined {
  const list = template.spec?.[kind];
  if (!Array.isArray(list)) return undefined;
  const index = list.findIndex((c: any) => c && names.includes(String(c.name)));
  return index === -1 ? undefined : { index, object: list[index] };
}

const NEVER_INJECTED_NAMESPACES = new Set(['kube-system', 'kube-public']);

type Verdict = { state: 'in' | 'out' | 'unknown'; reason: Evidence };

/** Istio sidecar injection, per the injector's documented logic: either label disabled ⇒ no; either enabled ⇒ yes. */
function istioSidecar(template: PodTemplate, ns: NamespaceView, defaults: MeshDefaults): Verdict {
  const metaPath = podMetadataPath(template);
  const meta = podMetadataOf(template);
  const labels = labelsOf(meta);
  const annotations = annotationsOf(meta);
  const workload = template.workload;
  const at = (path: JsonPath) => ({ resource: workload, path });
  const nsAt = (key: string) => (ns.resource ? { resource: ns.resource, path: ['metadata', 'labels', key] as JsonPath } : undefined);

  const podLabel = labels['sidecar.istio.io/inject'];
  const podAnnotation = annotations['sidecar.istio.io/inject'];
  const nsInjection = ns.labels['istio-injection'];
  const nsRev = ns.labels['istio.io/rev'];
  const podRev = labels['istio.io/rev'];

  if (falsy(podLabel)) return { state: 'out', reason: { text: 'the pod template has label sidecar.istio.io/inject: "false"', at: at([...metaPath, 'labels', 'sidecar.istio.io/inject']) } };
  if (podLabel === undefined && falsy(podAnnotation)) {
    return { state: 'out', reason: { text: 'the pod template has annotation sidecar.istio.io/inject: "false"', at: at([...metaPath, 'annotations', 'sidecar.istio.io/inject']) } };
  }
  if (nsInjection === 'disabled') return { state: 'out', reason: { text: `namespace "${ns.name}" has label istio-injection=disabled`, at: nsAt('istio-injection') } };
  if (NEVER_INJECTED_NAMESPACES.has(ns.name)) return { state: 'out', reason: { text: `Istio never injects pods in namespace ${ns.name}` } };

  // Pre-injected manifests (istioctl kube-inject output) carry the proxy themselves.
  const proxy = containerNamed(template, 'containers', ['istio-proxy']) ?? containerNamed(template, 'initContainers', ['istio-proxy']);
  if (proxy) return { state: 'in', reason: { text: 'the pod template already contains the istio-proxy container' } };

  if (truthy(podLabel)) return { state: 'in', reason: { text: 'the pod template has label sidecar.istio.io/inject: "true"', at: at([...metaPath, 'labels', 'sidecar.istio.io/inject']) } };
  if (nsInjection === 'enabled') return { state: 'in', reason: { text: `namespace "${ns.name}" has label istio-injection=enabled`, at: nsAt('istio-injection') } };
  if (nsRev !== undefined && nsInjection === undefined) return { state: 'in', reason: { text: `namespace "${ns.name}" has label istio.io/rev=${nsRev}`, at: nsAt('istio.io/rev') } };
  if (podRev !== undefined) return { state: 'in', reason: { text: `the pod template has label istio.io/rev: ${podRev}`, at: at([...metaPath, 'labels', 'istio.io/rev']) } };

  const known = defaults.meshNamespaces?.[ns.name];
  if (known === 'istio-sidecar') return { state: 'in', reason: { text: `namespace "${ns.name}" is configured as Istio-injected` } };
  if (truthy(podAnnotation)) {
    // The webhook selects pods by labels; the deprecated annotation only counts once the webhook is called.
    if (!ns.known && !defaults.istioInjectByDefault && !defaults.plainNamespaces?.includes(ns.name)) {
      return { state: 'unknown', reason: { text: `the pod template has annotation sidecar.istio.io/inject: "true", which only takes effect in an injection-enabled namespace, and the labels of namespace "${ns.name}" are not in the repo`, at: at([...metaPath, 'annotations', 'sidecar.istio.io/inject']) } };
    }
    if (defaults.istioInjectByDefault) return { state: 'in', reason: { text: 'the pod template has annotation sidecar.istio.io/inject: "true" and Istio injects namespaces by default', at: at([...metaPath, 'annotations', 'sidecar.istio.io/inject']) } };
  }
  if (defaults.istioInjectByDefault && nsInjection === undefined && nsRev === undefined) {
    return { state: 'in', reason: { text: `Istio injects namespaces without an istio-injection label by default, and namespace "${ns.name}" has none` } };
  }
  if (ns.known || defaults.plainNamespaces?.includes(ns.name) || known !== undefined) {
    return { state: 'out', reason: { text: ns.known ? `namespace "${ns.name}" has no Istio injection label` : `namespace "${ns.name}" is configured outside Istio injection` } };
  }
  return { state: 'unknown', reason: { text: `the labels of namespace "${ns.name}" are not in the repo` } };
}

function istioAmbient(template: PodTemplate, ns: NamespaceView, defaults: MeshDefaults): Verdict {
  const metaPath = podMetadataPath(template);
  const labels = labelsOf(podMetadataOf(template));
  const pod = labels['istio.io/dataplane-mode'];
  if (pod === 'none') return { state: 'out', reason: { text: 'the pod template has label istio.io/dataplane-mode: none', at: { resource: template.workload, path: [...metaPath, 'labels', 'istio.io/dataplane-mode'] } } };
  if (pod === 'ambient') return { state: 'in', reason: { text: 'the pod template has label istio.io/dataplane-mode: ambient', at: { resource: template.workload, path: [...metaPath, 'labels', 'istio.io/dataplane-mode'] } } };
  if (ns.labels['istio.io/dataplane-mode'] === 'ambient') {
    return { state: 'in', reason: { text: `namespace "${ns.name}" has label istio.io/dataplane-mode=ambient`, at: ns.resource ? { resource: ns.resource, path: ['metadata', 'labels', 'istio.io/dataplane-mode'] } : undefined } };
  }
  if (defaults.meshNamespaces?.[ns.name] === 'istio-ambient') return { state: 'in', reason: { text: `namespace "${ns.name}" is configured as Istio ambient` } };
  if (ns.known || defaults.plainNamespaces?.includes(ns.name) || defaults.meshNamespaces?.[ns.name] !== undefined) return { state: 'out', reason: { text: `namespace "${ns.name}" is not in ambient mode` } };
  return { state: 'unknown', reason: { text: `the labels of namespace "${ns.name}" are not in the repo` } };
}

const LINKERD_ON = new Set(['enabled', 'ingress']);

function linkerd(template: PodTemplate, ns: NamespaceView, defaults: MeshDefaults): Verdict {
  const metaPath = podMetadataPath(template);
  const pod = annotationsOf(podMetadataOf(template))['linkerd.io/inject'];
  const at = { resource: template.workload, path: [...metaPath, 'annotations', 'linkerd.io/inject'] as JsonPath };
  if (pod === 'disabled') return { state: 'out', reason: { text: 'the pod template has annotation linkerd.io/inject: disabled', at } };
  if (containerNamed(template, 'containers', ['linkerd-proxy']) ?? containerNamed(template, 'initContainers', ['linkerd-proxy'])) {
    return { state: 'in', reason: { text: 'the pod template already contains the linkerd-proxy container' } };
  }
  if (pod !== undefined && LINKERD_ON.has(pod)) return { state: 'in', reason: { text: `the pod template has annotation linkerd.io/inject: ${pod}`, at } };
  const nsValue = ns.annotations['linkerd.io/inject'];
  if (nsValue !== undefined && LINKERD_ON.has(nsValue)) {
    return { state: 'in', reason: { text: `namespace "${ns.name}" has annotation linkerd.io/inject: ${nsValue}`, at: ns.resource ? { resource: ns.resource, path: ['metadata', 'annotations', 'linkerd.io/inject'] } : undefined } };
  }
  if (defaults.meshNamespaces?.[ns.name] === 'linkerd') return { state: 'in', reason: { text: `namespace "${ns.name}" is configured as Linkerd-injected` } };
  if (ns.known || defaults.plainNamespaces?.includes(ns.name) || defaults.meshNamespaces?.[ns.name] !== undefined) return { state: 'out', reason: { text: `namespace "${ns.name}" is not Linkerd-injected` } };
  return { state: 'unknown', reason: { text: `the annotations of namespace "${ns.name}" are not in the repo` } };
}

function nativeSidecarOf(template: PodTemplate, mesh: MeshKind, ns: NamespaceView, defaults: MeshDefaults): { value: 'yes' | 'no' | 'unknown'; reason: string } {
  if (mesh === 'istio-ambient') return { value: 'no', reason: 'ambient mode has no per-pod proxy' };
  const proxyName = mesh === 'linkerd' ? 'linkerd-proxy' : 'istio-proxy';
  const init = containerNamed(template, 'initContainers', [proxyName]);
  if (init && init.object?.restartPolicy === 'Always') return { value: 'yes', reason: `${proxyName} is an init container with restartPolicy: Always` };
  if (containerNamed(template, 'containers', [proxyName])) return { value: 'no', reason: `${proxyName} is a regular container of the pod template` };
  const annotations = annotationsOf(podMetadataOf(template));
  if (mesh === 'istio-sidecar') {
    const pod = annotations['sidecar.istio.io/nativeSidecar'];
    if (truthy(pod)) return { value: 'yes', reason: 'the pod template has annotation sidecar.istio.io/nativeSidecar: "true"' };
    if (falsy(pod)) return { value: 'no', reason: 'the pod template has annotation sidecar.istio.io/nativeSidecar: "false"' };
    if (defaults.istioNativeSidecars === true || defaults.istioNativeSidecars === 'auto') return { value: 'yes', reason: 'native sidecars are configured on for Istio' };
    if (defaults.istioNativeSidecars === false) return { value: 'no', reason: 'native sidecars are configured off for Istio' };
    return { value: 'unknown', reason: 'Istio 1.27 and later inject native sidecars by default, earlier versions do not, and the repo does not show which runs' };
  }
  const keys = ['config.beta.linkerd.io/proxy-enable-native-sidecar', 'config.alpha.linkerd.io/proxy-enable-native-sidecar'];
  for (const [where, map] of [['the pod template', annotations], [`namespace "${ns.name}"`, ns.annotations]] as const) {
    for (const key of keys) {
      if (truthy(map[key])) return { value: 'yes', reason: `${where} has annotation ${key}: "true"` };
      if (falsy(map[key])) return { value: 'no', reason: `${where} has annotation ${key}: "false"` };
    }
  }
  if (defaults.linkerdNativeSidecars === true) return { value: 'yes', reason: 'native sidecars are configured on for Linkerd' };
  if (defaults.linkerdNativeSidecars === false) return { value: 'no', reason: 'native sidecars are configured off for Linkerd' };
  return { value: 'no', reason: 'Linkerd injects a regular proxy container unless native sidecars are enabled (a beta opt-in)' };
}

/**
 * §6b `meshOf(podTemplate, namespace)`. Pods with `hostNetwork: true` are never in a mesh (they share the node's network
 * namespace, and Istio refuses to inject them). An Istio sidecar wins over ambient; Linkerd is checked last.
 */
export function meshOf(model: MeshModel, template: PodTemplate, defaults: MeshDefaults = model.meshDefaults ?? {}): MeshMembership {
  const namespace = model.namespaceOf(template.workload) ?? model.defaultNamespace;
  const ns = namespaceView(model, namespace);
  const none = { nativeSidecar: 'no' as const, nativeReason: 'no proxy', namespace };
  if (template.spec?.hostNetwork === true) {
    return { state: 'not-in-mesh', reason: { text: 'the pod uses hostNetwork: true, so it shares the node\'s network namespace and is never injected', at: { resource: template.workload, path: [...template.specPath, 'hostNetwork'] } }, ...none };
  }
  const verdicts: [MeshKind, Verdict][] = [];
  const sidecar = istioSidecar(template, ns, defaults);
  if (sidecar.state === 'in') return withNative(template, 'istio-sidecar', sidecar.reason, ns, defaults);
  verdicts.push(['istio-sidecar', sidecar]);
  const ambient = istioAmbient(template, ns, defaults);
  if (ambient.state === 'in' && sidecar.state === 'out') return withNative(template, 'istio-ambient', ambient.reason, ns, defaults);
  verdicts.push(['istio-ambient', ambient]);
  const link = linkerd(template, ns, defaults);
  if (link.state === 'in') return withNative(template, 'linkerd', link.reason, ns, defaults);
  verdicts.push(['linkerd', link]);
  if (ambient.state === 'in') {
    // Ambient enrolment while sidecar injection is unknown: the pod is captured either way.
    return { state: 'unknown', mesh: 'istio-ambient', reason: { text: `${ambient.reason.text}, and ${sidecar.reason.text}`, at: ambient.reason.at }, nativeSidecar: 'unknown', nativeReason: sidecar.reason.text, namespace };
  }
  const unknown = verdicts.find(([, v]) => v.state === 'unknown');
  if (unknown) {
    // A pod-level hint (the deprecated inject annotation) names the likely mesh; otherwise the sidecar default.
    const [mesh, verdict] = unknown;
    return { state: 'unknown', mesh, reason: verdict.reason, nativeSidecar: 'unknown', nativeReason: verdict.reason.text, namespace };
  }
  return { state: 'not-in-mesh', reason: sidecar.reason, ...none };
}

function withNative(template: PodTemplate, mesh: MeshKind, reason: Evidence, ns: NamespaceView, defaults: MeshDefaults): MeshMembership {
  const native = nativeSidecarOf(template, mesh, ns, defaults);
  return { state: 'in-mesh', mesh, reason, nativeSidecar: native.value, nativeReason: native.reason, namespace: ns.name };
}

// ---- Traffic-capture exclusions (Istio `traffic.sidecar.istio.io/*`, Linkerd `config.linkerd.io/skip-*-ports`) ----

export const ISTIO_EXCLUDE_OUTBOUND_PORTS = 'traffic.sidecar.istio.io/excludeOutboundPorts';
export const ISTIO_INCLUDE_OUTBOUND_PORTS = 'traffic.sidecar.istio.io/includeOutboundPorts';
export const ISTIO_EXCLUDE_OUTBOUND_IPS = 'traffic.sidecar.istio.io/excludeOutboundIPRanges';
export const ISTIO_INCLUDE_OUTBOUND_IPS = 'traffic.sidecar.istio.io/includeOutboundIPRanges';
export const ISTIO_EXCLUDE_INBOUND_PORTS = 'traffic.sidecar.istio.io/excludeInboundPorts';
export const ISTIO_INCLUDE_INBOUND_PORTS = 'traffic.sidecar.istio.io/includeInboundPorts';
export const LINKERD_SKIP_OUTBOUND_PORTS = 'config.linkerd.io/skip-outbound-ports';
export const LINKERD_SKIP_INBOUND_PORTS = 'config.linkerd.io/skip-inbound-ports';

/** Proxy UIDs whose own traffic the redirect rules let through (Istio 1337, Linkerd 2102). */
export const PROXY_UID: Readonly<Record<'istio' | 'linkerd', number>> = { istio: 1337, linkerd: 2102 };

/** Ports in a list like `"111,2049"` or Linkerd's `"2000-3000,4190"`. */
export function portListHas(list: string | undefined, port: number): boolean {
  if (list === undefined) return false;
  for (const entry of list.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (entry === '*') return true;
    const range = /^(\d+)-(\d+)$/.exec(entry);
    if (range && Number(range[1]) <= port && port <= Number(range[2])) return true;
    if (/^\d+$/.test(entry) && Number(entry) === port) return true;
  }
  return false;
}

function ipv4ToNumber(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/** Whether an IPv4 address lies in a comma-separated CIDR list; undefined when the address is not a literal IPv4. */
export function cidrListHas(list: string, ip: string): boolean | undefined {
  const address = ipv4ToNumber(ip);
  if (address === undefined) return undefined;
  for (const entry of list.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (entry === '*') return true;
    const [base, bitsText] = entry.split('/');
    const network = ipv4ToNumber(base);
    if (network === undefined) continue;
    const bits = bitsText === undefined ? 32 : Number(bitsText);
    if (!Number.isInteger(bits) || bits < 0 || bits > 32) continue;
    const size = 2 ** (32 - bits);
    if (Math.floor(address / size) === Math.floor(network / size)) return true;
  }
  return false;
}

export interface CaptureCheck {
  /** `excluded`: the traffic bypasses the proxy; `captured`: it goes through it; `uncertain`: an IP-range rule decides and the server is not a literal IP. */
  verdict: 'excluded' | 'captured' | 'uncertain';
  /** The annotation that decided, when one did. */
  via?: string;
  /** Ports of `ports` that are still captured (for `captured`). */
  missing: number[];
}

/**
 * Whether outbound traffic to `ports` (on `server`, when known) escapes the pod's proxy through the template's
 * exclusion annotations (Istio pod annotations; Linkerd pod or namespace annotations). Ambient: unknown (`captured`).
 */
export function outboundCapture(model: ModelView, template: PodTemplate, mesh: MeshKind, ports: readonly number[], server?: string): CaptureCheck {
  const annotations = annotationsOf(podMetadataOf(template));
  if (mesh === 'linkerd') {
    const ns = namespaceView(model, model.namespaceOf(template.workload) ?? model.defaultNamespace);
    const list = annotations[LINKERD_SKIP_OUTBOUND_PORTS] ?? ns.annotations[LINKERD_SKIP_OUTBOUND_PORTS];
    const missing = ports.filter((p) => !portListHas(list, p));
    return missing.length === 0 ? { verdict: 'excluded', via: LINKERD_SKIP_OUTBOUND_PORTS, missing } : { verdict: 'captured', missing };
  }
  if (mesh === 'istio-ambient') return { verdict: 'captured', missing: [...ports] };
  const forced = ports.filter((p) => portListHas(annotations[ISTIO_INCLUDE_OUTBOUND_PORTS], p));
  const missing = ports.filter((p) => !portListHas(annotations[ISTIO_EXCLUDE_OUTBOUND_PORTS], p));
  if (missing.length === 0) return { verdict: 'excluded', via: ISTIO_EXCLUDE_OUTBOUND_PORTS, missing };
  // IP-range rules; includeOutboundPorts redirects "regardless of the destination IP".
  if (forced.length === 0) {
    const include = annotations[ISTIO_INCLUDE_OUTBOUND_IPS];
    if (include !== undefined) {
      if (include.trim() === '') return { verdict: 'excluded', via: ISTIO_INCLUDE_OUTBOUND_IPS, missing: [] };
      if (include.trim() !== '*') {
        const inside = server === undefined ? undefined : cidrListHas(include, server);
        if (inside === false) return { verdict: 'excluded', via: ISTIO_INCLUDE_OUTBOUND_IPS, missing: [] };
        if (inside === undefined) return { verdict: 'uncertain', via: ISTIO_INCLUDE_OUTBOUND_IPS, missing };
      }
    }
    const exclude = annotations[ISTIO_EXCLUDE_OUTBOUND_IPS];
    if (exclude !== undefined && exclude.trim() !== '') {
      const inside = server === undefined ? undefined : cidrListHas(exclude, server);
      if (inside === true) return { verdict: 'excluded', via: ISTIO_EXCLUDE_OUTBOUND_IPS, missing: [] };
      if (inside === undefined) return { verdict: 'uncertain', via: ISTIO_EXCLUDE_OUTBOUND_IPS, missing };
    }
  }
  return { verdict: 'captured', missing };
}

/** Whether inbound traffic to `port` reaches the container without the pod's Istio sidecar (excludeInboundPorts / includeInboundPorts). */
export function inboundExcluded(template: PodTemplate, mesh: MeshKind, port: number): string | undefined {
  const annotations = annotationsOf(podMetadataOf(template));
  if (mesh === 'linkerd') return portListHas(annotations[LINKERD_SKIP_INBOUND_PORTS], port) ? LINKERD_SKIP_INBOUND_PORTS : undefined;
  if (portListHas(annotations[ISTIO_EXCLUDE_INBOUND_PORTS], port)) return ISTIO_EXCLUDE_INBOUND_PORTS;
  const include = annotations[ISTIO_INCLUDE_INBOUND_PORTS];
  if (include !== undefined && include.trim() !== '*' && !portListHas(include, port)) return ISTIO_INCLUDE_INBOUND_PORTS;
  return undefined;
}

/** The UID a container runs as (its own securityContext, else the pod's), when set. */
export function runAsUserOf(template: PodTemplate, container: any): number | undefined {
  const own = container?.securityContext?.runAsUser;
  if (typeof own === 'number') return own;
  const pod = template.spec?.securityContext?.runAsUser;
  return typeof pod === 'number' ? pod : undefined;
}
