// The locate stage: turns the engine's raw findings (a resource and a JSON path) into findings at a file and line. A
// resource whose lines are the lines a user edits is located at its own node; any other carries an origin record
// (what the renderer or GitOps step that made it recorded), located by the locator registered for its kind.
import { locateInNode } from '../load/locate-node.js';
import { ownEntry } from '../engine/own-entry.js';
import type { LocateContext } from './locator.js';
import { LOCATORS, type LocatorTable } from './locators.js';
import type { Finding, FindingSubject, JsonPath, LocateAt, Located, PositionMemo, RawFinding, RelatedLocation, Resource, ResourceRef } from '../types.js';

export interface LocateStageOptions {
  /** Positions earlier runs found (`--cache`), per object read through the cache. */
  positions?: { get(resource: Resource): PositionMemo | undefined };
  /** Locators by origin kind; default `LOCATORS`. */
  locators?: LocatorTable;
}

const NOWHERE: Located = { location: { file: '<unknown>', region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 } } };

function resourceRef(resource: Resource): ResourceRef {
  return { apiVersion: resource.apiVersion, kind: resource.kind, namespace: resource.namespace, name: resource.name };
}

/** One per run: it owns what locating remembers (cached positions, parsed embedded texts). */
export class LocateStage {
  private readonly locators: LocatorTable;
  private readonly positions: LocateStageOptions['positions'];
  private readonly remembered = new WeakMap<object, unknown>();
  /** What locators are handed: this stage's `at`, and its memory. */
  readonly context: LocateContext;
  private readonly subjects = new WeakMap<Finding, FindingSubject>();
  /** `locate`, for the stages before this one that must name a place (GitOps notes, HelmRelease notes). */
  readonly at: LocateAt = (resource, path) => this.locate(resource, path);

  /** The objects a finding this stage located is about (the graph places findings on them). */
  readonly subjectOf = (finding: Finding): FindingSubject | undefined => this.subjects.get(finding);

  constructor(options: LocateStageOptions = {}) {
    this.locators = options.locators ?? LOCATORS;
    this.positions = options.positions;
    this.context = {
      at: this.at,
      remember: <V>(key: object, make: () => V): V => {
        if (this.remembered.has(key)) return this.remembered.get(key) as V;
        const value = make();
        this.remembered.set(key, value);
        return value;
      },
    };
  }

  /** Where `path` of `resource` is written. */
  locate(resource: Resource, path: JsonPath): Located {
    const origin = resource.sourceOrigin;
    if (origin) {
      const locator = ownEntry(this.locators, origin.kind);
      if (!locator) throw new Error(`no locator is registered for origin kind "${origin.kind}"`);
      return locator(origin, resource, path, this.context);
    }
    const memo = this.positions?.get(resource);
    const known = memo?.get(path);
    if (known) return known;
    const located = locateInNode(resource.file, resource.node, path);
    memo?.set(path, located);
    return located;
  }

  finding(raw: RawFinding): Finding {
    // An anchor only says where to point: what locating it notes is about the anchor, not about the finding.
    const anchored = (anchor: { resource: Resource; path: JsonPath }): Located => ({ location: this.locate(anchor.resource, anchor.path).location });
    const located = raw.resource ? this.locate(raw.resource, raw.path ?? []) : raw.anchor ? anchored(raw.anchor) : NOWHERE;
    const related: RelatedLocation[] = [...(located.related ?? [])];
    // What the origin adds (the base a patch applies to, the placeholder of a variable) is about the same object.
    const relatedSubjects: (Resource | undefined)[] = related.map(() => raw.resource);
    for (const other of raw.related) {
      const location = this.locate(other.resource, other.path).location;
      related.push({ message: other.describe ? other.describe(location) : other.message, location });
      relatedSubjects.push(other.resource);
    }
    const finding: Finding = {
      ruleId: raw.ruleId,
      severity: raw.severity,
      messageId: raw.messageId,
      message: raw.message,
      data: raw.data,
      fix: raw.fix,
      location: located.location,
      related,
      ...(raw.resource ? { resource: resourceRef(raw.resource), path: raw.path ?? [] } : {}),
      environments: raw.environments,
      ...(located.note ? { note: located.note } : {}),
    };
    this.subjects.set(finding, { ...(raw.resource ? { resource: raw.resource } : {}), related: relatedSubjects });
    return finding;
  }

  findings(raws: readonly RawFinding[]): Finding[] {
    return raws.map((raw) => this.finding(raw));
  }
}
