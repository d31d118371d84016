// Shared types of the pipeline: sources, resources, findings and what rules declare (the rule module itself, which
// reads the storage model, is src/engine/rule-module.ts).
import type { LineCounter, Node as YamlNode } from 'yaml';

export type Severity = 'error' | 'warning' | 'note';
export const SEVERITIES: readonly Severity[] = ['note', 'warning', 'error'];
export const SEVERITY_RANK: Record<Severity, number> = { note: 1, warning: 2, error: 3 };

/** A path inside a resource, e.g. ['spec', 'template', 'spec', 'volumes', 0, 'persistentVolumeClaim', 'claimName']. */
export type JsonPath = readonly (string | number)[];

/** 1-based lines and columns; endColumn is exclusive (SARIF §3.30). Columns count UTF-16 code units. */
export interface Region {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

export interface SourceLocation {
  /** Path relative to the repository root, with forward slashes; `<stdin>` for standard input. */
  file: string;
  region: Region;
}

/** One file as read from disk (or stdin), with the line index of its text. */
export interface SourceFile {
  /** Absolute path, or `<stdin>`. */
  absPath: string;
  /** Repo-relative path with forward slashes (what reports show). */
  path: string;
  text: string;
  /** Line starts of `text` (built on first use). */
  readonly lineCounter: LineCounter;
}

/** Where a rendered resource came from, as the renderer told us. */
export interface RenderOrigin {
  renderer: 'kustomize' | 'helm';
  /** The source file holding the resource before rendering, when known. */
  file?: SourceFile;
  /** Index of the matching document in that file, when found. */
  docIndex?: number;
  note?: string;
}

/** Turns a JSON path inside a resource into a place in the repo; rendered resources bring their own. */
export interface Located {
  location: SourceLocation;
  /** Extra places worth showing (e.g. the base a patch applies to). */
  related?: { message: string; location: SourceLocation }[];
  /** Why the location is approximate, when it is. */
  note?: string;
}

export interface Resource {
  /** `Kind/namespace/name` (namespace empty for cluster-scoped or unset). */
  readonly id: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  /** The namespace as written in the manifest; undefined when absent. */
  readonly namespace: string | undefined;
  /** The object as plain JSON. Rules read it; nobody writes it. */
  readonly object: any;
  readonly file: SourceFile;
  /** Position of the document in its file's stream (0-based). */
  readonly docIndex: number;
  /** The YAML node of the object (for `kind: List` items, the item node). */
  readonly node: YamlNode;
  origin?: RenderOrigin;
  /**
   * Where the fields of a resource whose lines are not the lines a user edits are written, as the stage that made
   * it recorded it (rendered, substituted, declared in the configuration); the locate stage reads it by `kind`.
   * Absent: the resource's own node in its own file.
   */
  sourceOrigin?: Origin;
  /** The GitOps object whose sync applies the resource, when an environment followed one (messages name that tool). */
  appliedBy?: AppliedBy;
}

/**
 * What applies a resource in a GitOps environment, which decides what deletes it: an Argo CD Application (a Helm source
 * is rendered with `helm template` and applied by Argo CD: no Helm release), a Flux Kustomization (kustomize-controller,
 * pruning when `spec.prune`), or a Flux HelmRelease (helm-controller installs a real Helm release).
 */
export interface AppliedBy {
  kind: 'argocd-application' | 'flux-kustomization' | 'flux-helmrelease';
  /** The Application (or the ApplicationSet that generates it), Kustomization or HelmRelease. */
  object: Resource;
  /** Its name (an ApplicationSet's generated Application's own). */
  name: string;
  /** Argo CD: the source is a Helm chart. */
  helmChart?: boolean;
  /** Whether what leaves the source is pruned: Argo CD `syncPolicy.automated.prune`, Flux `spec.prune`. */
  prune?: boolean;
}

/** What a renderer records for the locate stage: the kind of origin, and what that kind's locator needs. */
export interface Origin {
  readonly kind: string;
}

/** A (resource, path) to be turned into a place in the repository by the locate stage. */
export interface Position {
  resource: Resource;
  path: JsonPath;
}

/** Remembers where paths of one resource are (`--cache`: positions found in an earlier run, without parsing). */
export interface PositionMemo {
  get(path: JsonPath): Located | undefined;
  set(path: JsonPath, located: Located): void;
}

/** Locates a path inside a resource: what stages before the locate stage are handed when they must name a place. */
export type LocateAt = (resource: Resource, path: JsonPath) => Located;

export interface ResourceRef {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
}

export interface RelatedLocation {
  message: string;
  location: SourceLocation;
}

/** Another object a raw finding points at. */
export interface RawRelated {
  resource: Resource;
  path: JsonPath;
  message: string;
  /** The message once the place is known (a change rule says when the place is in the base tree only). */
  describe?: (location: SourceLocation) => string;
}

/** What a finding says, before and after it is located. */
export interface FindingText {
  ruleId: string;
  severity: Severity;
  messageId: string;
  message: string;
  data: Record<string, unknown>;
  /** The rule's fix text; empty for diagnostics that have none. */
  fix: string;
}

/**
 * A finding as the engine emits it: about a resource and a path, not yet a place. The locate stage turns it into a
 * `Finding`.
 */
export interface RawFinding extends FindingText {
  /** The object the finding is about (its identity is what suppressions and the graph match), and the field. */
  resource?: Resource;
  path?: JsonPath;
  related: RawRelated[];
  environments: string[];
  /** Where to point when the finding is about no resource (a crashed rule: the object it was reading). */
  anchor?: Position;
}

export interface Finding extends FindingText {
  location: SourceLocation;
  related: RelatedLocation[];
  resource?: ResourceRef;
  path?: JsonPath;
  /** Environments (scopes) in which the finding was produced. */
  environments: string[];
  /** Why the location is approximate or points at a parent, when it does. */
  note?: string;
  /** Set on the findings of `LintResult.suppressed`: what suppressed the finding and why. */
  suppression?: Suppression;
}

/** The objects a located finding is about: its resource, and for each of its related locations the object there. */
export interface FindingSubject {
  resource?: Resource;
  related: readonly (Resource | undefined)[];
}

/** A finding accepted on purpose: by a `pvlint.dev/ignore` annotation on its resource, or a config `suppress` entry. */
export interface Suppression {
  kind: 'annotation' | 'config';
  /** `pvlint.dev/ignore-reason`, or the entry's `reason`; empty when the annotation gives none. */
  reason: string;
  /** The annotation or the config entry. */
  location?: SourceLocation;
}

/** What the rule author hands to report(). Rules report paths, never lines. */
export interface ReportDescriptor<Messages extends MessageMap = MessageMap, K extends keyof Messages = keyof Messages> {
  resource: Resource;
  path: JsonPath;
  messageId: K;
  data: Parameters<Messages[K]>[0];
  /** Overrides the rule's default severity for this finding (catalogue severities depend on the case). */
  severity?: Severity;
  /** The fix for this finding, composed from what it knows (driver, database, volume type); default: the rule's `meta.fix`. */
  fix?: string;
  related?: { resource: Resource; path: JsonPath; message: string }[];
}

export type MessageMap = Record<string, (data: any) => string>;

export interface RuleReference {
  title: string;
  url: string;
}

export interface RuleMeta<Messages extends MessageMap = MessageMap, Options = Record<string, unknown>> {
  /** The catalogue id (`R17`) when the rule comes from the research catalogue. */
  catalogueId?: string;
  severity: Severity;
  /** The other severities the rule reports in some cases (its `trigger` says which); the rule tester checks every finding against them. */
  severities?: readonly Severity[];
  /** Kinds the rule reads; the engine skips the rule when none is present. */
  kinds: readonly string[];
  /** One line: what the rule finds. */
  summary: string;
  /** What breaks and why, in Kubernetes terms. */
  why: string;
  /** The exact trigger. */
  trigger: string;
  /** Cases the rule deliberately stays silent on. */
  exceptions: string;
  /** How to fix it. */
  fix: string;
  /** Which field the finding points at. */
  reportsAt: string;
  references: readonly RuleReference[];
  messages: Messages;
  examples: { invalid: readonly string[]; valid: readonly string[] };
  options?: { schema: Record<string, unknown>; defaults: Options };
}
