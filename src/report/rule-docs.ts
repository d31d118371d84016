// The documentation every report needs about a rule id, whether the id is a rule module or one of
// pvlint's own diagnostics (pvlint/parse, ...), which have no module but still need a SARIF descriptor.
import { DIAGNOSTIC_FIXES } from '../engine/diagnostic.js';
import type { RuleDescription } from '../review/change-rule.js';
import type { RuleReference, Severity } from '../types.js';
import { ownEntry } from '../engine/own-entry.js';

export interface RuleDoc {
  id: string;
  kind: 'rule' | 'diagnostic';
  severity: Severity;
  summary: string;
  why: string;
  trigger?: string;
  exceptions?: string;
  fix: string;
  reportsAt?: string;
  references: readonly RuleReference[];
  catalogueId?: string;
}

export function ruleDoc(rule: RuleDescription): RuleDoc {
  const { meta } = rule;
  return {
    id: rule.id,
    kind: 'rule',
    severity: meta.severity,
    summary: meta.summary,
    why: meta.why,
    trigger: meta.trigger,
    exceptions: meta.exceptions,
    fix: meta.fix,
    reportsAt: meta.reportsAt,
    references: meta.references,
    ...(meta.catalogueId ? { catalogueId: meta.catalogueId } : {}),
  };
}

function diagnosticDoc(id: string, summary: string, why: string, fix?: string): RuleDoc {
  return { id, kind: 'diagnostic', severity: 'error', summary, why, fix: fix ?? ownEntry(DIAGNOSTIC_FIXES, id) ?? '', references: [] };
}

/**
 * Every id pvlint itself reports under. SARIF always lists all of them, so a rule's index in the driver
 * does not change with what a particular run happened to find.
 */
export const DIAGNOSTIC_DOCS: readonly RuleDoc[] = [
  diagnosticDoc(
    'pvlint/config',
    'The pvlint configuration file is invalid.',
    'pvlint could not use the configuration as written (a syntax error, an unknown key or an invalid value), so it could not lint the way the configuration asks.',
    'Correct the key or value the message names; `schemas/config.schema.json` describes what the configuration accepts.',
  ),
  diagnosticDoc(
    'pvlint/not-interpreted',
    'Something the GitOps controller applies was read but not interpreted.',
    'pvlint lints each cluster as its controller applies it. What it could not follow (a Kustomization or Application whose source is another repository, an ApplicationSet generator that needs cluster state, a HelmRelease whose chart it could not have, a build that failed, an unresolved variable in a storage field) is listed per environment in the text summary, in JSON summary.notInterpreted and in SARIF toolExecutionNotifications under this id, so a run never reads as "no problems" for objects it did not see. A StorageClass borrowed from another environment is listed here too, as a stated assumption.',
    'Give pvlint what it needs to follow the object (configure gitops.repoURLs, map a chart with helm.charts, declare clusters by hand), or accept that those objects are not linted.',
  ),
  diagnosticDoc(
    'pvlint/parse',
    'A YAML document could not be parsed.',
    'pvlint reads every document of a file on its own. A document with a YAML syntax error (or a duplicate key, or too many aliases) cannot be read, so its resources are not linted; the other documents of the file still are.',
  ),
  diagnosticDoc(
    'pvlint/read',
    'A file could not be read.',
    'The file could not be opened (a broken or looping symbolic link, a FIFO or device, no permission), or it is binary (NUL bytes), UTF-16 or not valid UTF-8, so none of its resources were linted. A symbolic link out of the repository that was not followed is a note.',
  ),
  diagnosticDoc(
    'pvlint/limit',
    'Input over one of pvlint\'s limits was not linted.',
    'pvlint bounds what it reads so that no input can hang it or exhaust its memory: file size, total size per run, files per directory argument, document size, nesting depth and YAML aliases (no "billion laughs"). The file, document or directory over the limit is not linted; everything else is.',
  ),
  diagnosticDoc(
    'pvlint/shape',
    'A field has a type the Kubernetes API cannot decode.',
    'A number string where an integer belongs (`replicas: "3"`), a string where a list belongs (`accessModes: ReadWriteOnce`), a map where a string belongs: the API server rejects the whole object when it decodes it. pvlint lints the object as if the field were absent and reports nothing else about it, so no rule reasons from a value Kubernetes would never accept. A storage size without a unit (ten bytes) is a note.',
  ),
  diagnosticDoc(
    'pvlint/render',
    'A Kustomize overlay or Helm chart could not be rendered.',
    'pvlint lints what a cluster would receive, so it renders every overlay and chart first. When the renderer fails, that environment is not linted; the other environments still are.',
  ),
  diagnosticDoc(
    'pvlint/render-skipped',
    'Environments were skipped because their renderer is not installed.',
    'With --skip-missing-renderers, Kustomize roots or Helm charts whose renderer (kustomize/kubectl, helm) is not on PATH are left out instead of failing the run; their storage objects were not linted.',
  ),
  {
    ...diagnosticDoc(
      'pvlint/helm-release',
      'A Flux HelmRelease was not rendered, or was rendered with a caveat.',
      'pvlint renders each HelmRelease with the real helm (chart from the repository, the helm.charts mapping, the chart cache, or pulled) and lints the objects it produces. ' +
        'When the chart cannot be had or the render fails, one note per release says so and counts what its values would have produced; the exit code does not change. ' +
        'A chart whose values schema references URLs that cannot be fetched is rendered with --skip-schema-validation, and a note says so once per chart.',
    ),
    severity: 'note',
  },
  {
    ...diagnosticDoc(
      'pvlint/chart-dependency',
      'A chart\'s dependency was not available, or was supplied with a caveat.',
      'A chart in the repository (an Argo CD helm source, a chart directory) may declare dependencies that its charts/ directory does not hold, because the repo-server runs helm dependency build before rendering. ' +
        'pvlint supplies them in a temporary copy of the chart the way it supplies HelmRelease charts (the helm.charts mapping, the chart cache, a pull, its bundled app-template) and copies file:// dependencies from the repository. ' +
        'When a dependency cannot be had, one note says so and the chart is listed as not interpreted; the exit code does not change. A dependency rendered with pvlint\'s bundled copy, or from an earlier pull of a version range, is noted too.',
    ),
    severity: 'note',
  },
  diagnosticDoc(
    'pvlint/rule-crash',
    'A rule failed with an internal error.',
    'A bug in a rule stopped it on this input. The other rules still ran, but this rule may have missed findings in this environment.',
  ),
  {
    ...diagnosticDoc(
      'pvlint/unused-suppression',
      'A suppression matched no finding.',
      'A pvlint.dev/ignore annotation, or a suppress entry of the configuration, suppressed nothing in this run: the problem was fixed, ' +
        'the rule or resource is misspelt, or the rule is off. A stale suppression would silently hide the problem if it came back.',
    ),
    severity: 'note',
  },
];

/** A placeholder for an id that neither the rule list nor pvlint's diagnostics know (e.g. a custom rule not passed in). */
export function unknownRuleDoc(id: string, severity: Severity): RuleDoc {
  return {
    id,
    kind: 'rule',
    severity,
    summary: `Findings of rule ${id}.`,
    why: `Rule ${id} is not among the rules this report was given, so its description is unavailable.`,
    fix: '',
    references: [],
  };
}
