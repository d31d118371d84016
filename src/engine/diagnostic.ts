// pvlint's own findings (unparsable YAML, unreadable files, input over a limit, failed renders, crashed rules) and
// the one table that describes each of them: the finding's fix comes from it, SARIF lists every entry as a rule
// descriptor, and `pvlint explain pvlint/<id>` prints it. Every stage makes these findings, so this sits below all.
import type { Finding, Severity, SourceLocation } from '../types.js';
import { ownEntry } from './own-entry.js';

export interface DiagnosticDescription {
  /** The severity the documentation and SARIF give it (a finding may carry another). */
  severity: Severity;
  summary: string;
  why: string;
  fix: string;
  /** pvlint could not do its job for part of the input: the exit code is 2. */
  fatal?: true;
}

/** Every id pvlint itself reports under, in the order SARIF lists them (a rule's index must not change between runs). */
export const DIAGNOSTICS: Readonly<Record<string, DiagnosticDescription>> = {
  'pvlint/config': {
    severity: 'error',
    summary: 'The pvlint configuration file is invalid.',
    why: 'pvlint could not use the configuration as written (a syntax error, an unknown key or an invalid value), so it could not lint the way the configuration asks.',
    fix: 'Correct the key or value the message names; `schemas/config.schema.json` describes what the configuration accepts.',
    fatal: true,
  },
  'pvlint/not-interpreted': {
    severity: 'error',
    summary: 'Something the GitOps controller applies was read but not interpreted.',
    why: 'pvlint lints each cluster as its controller applies it. What it could not follow (a Kustomization or Application whose source is another repository, an ApplicationSet generator that needs cluster state, a HelmRelease whose chart it could not have, a build that failed, an unresolved variable in a storage field) is listed per environment in the text summary, in JSON summary.notInterpreted and in SARIF toolExecutionNotifications under this id, so a run never reads as "no problems" for objects it did not see. A StorageClass borrowed from another environment is listed here too, as a stated assumption.',
    fix: 'Give pvlint what it needs to follow the object (configure gitops.repoURLs, map a chart with helm.charts, declare clusters by hand), or accept that those objects are not linted.',
  },
  'pvlint/parse': {
    severity: 'error',
    summary: 'A YAML document could not be parsed.',
    why: 'pvlint reads every document of a file on its own. A document with a YAML syntax error (or a duplicate key, or too many aliases) cannot be read, so its resources are not linted; the other documents of the file still are.',
    fix: 'Fix the YAML syntax at this position; the other documents of the file are still linted.',
  },
  'pvlint/read': {
    severity: 'error',
    summary: 'A file could not be read.',
    why: 'The file could not be opened (a broken or looping symbolic link, a FIFO or device, no permission), or it is binary (NUL bytes), UTF-16 or not valid UTF-8, so none of its resources were linted. A symbolic link out of the repository that was not followed is a note.',
    fix: 'Make the file readable (permissions, encoding) or exclude it with --ignore.',
  },
  'pvlint/limit': {
    severity: 'error',
    summary: 'Input over one of pvlint\'s limits was not linted.',
    why: 'pvlint bounds what it reads so that no input can hang it or exhaust its memory: file size, total size per run, files per directory argument, document size, nesting depth and YAML aliases (no "billion laughs"). The file, document or directory over the limit is not linted; everything else is.',
    fix: 'Split the file or document, or exclude it with --ignore; if the input is legitimate, raise the limit the message names (README, "Limits").',
  },
  'pvlint/shape': {
    severity: 'error',
    summary: 'A field has a type the Kubernetes API cannot decode.',
    why: 'A number string where an integer belongs (`replicas: "3"`), a string where a list belongs (`accessModes: ReadWriteOnce`), a map where a string belongs: the API server rejects the whole object when it decodes it. pvlint lints the object as if the field were absent and reports nothing else about it, so no rule reasons from a value Kubernetes would never accept. A storage size without a unit (ten bytes) is a note.',
    fix: 'Write the field with the type the Kubernetes API expects (the message says which). Until then pvlint lints the object as if the field were absent and reports nothing else about it.',
  },
  'pvlint/render': {
    severity: 'error',
    summary: 'A Kustomize overlay or Helm chart could not be rendered.',
    why: 'pvlint lints what a cluster would receive, so it renders every overlay and chart first. When the renderer fails, that environment is not linted; the other environments still are.',
    fix: 'Fix the renderer error shown in the message; the other environments are still linted.',
    fatal: true,
  },
  'pvlint/render-skipped': {
    severity: 'error',
    summary: 'Environments were skipped because their renderer is not installed.',
    why: 'With --skip-missing-renderers, Kustomize roots or Helm charts whose renderer (kustomize/kubectl, helm) is not on PATH are left out instead of failing the run; their storage objects were not linted.',
    fix: 'Install the renderer (helm, or kustomize/kubectl) to lint these environments too, or point pvlint at committed rendered output.',
  },
  'pvlint/helm-release': {
    severity: 'note',
    summary: 'A Flux HelmRelease was not rendered, or was rendered with a caveat.',
    why: 'pvlint renders each HelmRelease with the real helm (chart from the repository, the helm.charts mapping, the chart cache, or pulled) and lints the objects it produces. ' +
        'When the chart cannot be had or the render fails, one note per release says so and counts what its values would have produced; the exit code does not change. ' +
        'When the chart itself rejects the values (its `fail`/`required` checks, or its values schema), the finding sits at the value the chart names and is a warning if the chart is the exact version the release asks for and every value was read, since helm-controller\'s install or upgrade then fails the same way. ' +
        'A chart whose values schema references URLs that cannot be fetched is rendered with --skip-schema-validation, and a note says so once per chart.',
    fix: 'Make the chart available: map its reference to a vendored copy in .pvlint.yaml `helm.charts`, or let pvlint pull it once into the chart cache (--chart-cache) with network access.',
  },
  'pvlint/chart-dependency': {
    severity: 'note',
    summary: 'A chart\'s dependency was not available, or was supplied with a caveat.',
    why: 'A chart in the repository (an Argo CD helm source, a chart directory) may declare dependencies that its charts/ directory does not hold, because the repo-server runs helm dependency build before rendering. ' +
        'pvlint supplies them in a temporary copy of the chart the way it supplies HelmRelease charts (the helm.charts mapping, the chart cache, a pull, its bundled app-template) and copies file:// dependencies from the repository. ' +
        'When a dependency cannot be had, one note says so and the chart is listed as not interpreted; the exit code does not change. A dependency rendered with pvlint\'s bundled copy, or from an earlier pull of a version range, is noted too.',
    fix: 'Make the dependency available: map its reference to a vendored copy in .pvlint.yaml `helm.charts`, let pvlint pull it once into the chart cache (--chart-cache) with network access, or vendor it in the chart\'s charts/ directory.',
  },
  'pvlint/rule-crash': {
    severity: 'error',
    summary: 'A rule failed with an internal error.',
    why: 'A bug in a rule stopped it on this input. The other rules still ran, but this rule may have missed findings in this environment.',
    fix: 'This is a bug in the rule; please report it with the manifest that triggers it.',
    fatal: true,
  },
  'pvlint/unused-suppression': {
    severity: 'note',
    summary: 'A suppression matched no finding.',
    why: 'A pvlint.dev/ignore annotation, or a suppress entry of the configuration, suppressed nothing in this run: the problem was fixed, ' +
        'the rule or resource is misspelt, or the rule is off. A stale suppression would silently hide the problem if it came back.',
    fix: 'Remove the suppression, or correct it so that it names the rule and resource it is meant for.',
  },
  'pvlint/flux-substitution': {
    severity: 'error',
    summary: 'A `${VAR}` in a storage field that Flux post-build substitution never fills in.',
    why: 'kustomize-controller substitutes `${VAR}` only when the Kustomization\'s `spec.postBuild` sets at least one variable (or `substituteStrategy: Always`); otherwise the text is applied as written, ' +
        'and a storage class, claim name, access mode or size holding `${...}` is rejected by the API server, which fails the whole Kustomization\'s apply (an error; a warning in fields the API server does not check). ' +
        'When it substitutes and every substituteFrom source is in the repository, a variable set in none of them fails the build in strict mode (the default since kustomize-controller v1.9) or becomes an empty string (a warning). ' +
        'Variables whose sources are not in the repository are listed as not interpreted instead.',
    fix: 'Set the variable in the Kustomization\'s `postBuild.substitute` or in a ConfigMap/Secret it names in `postBuild.substituteFrom` (adding `postBuild` where there is none), or write the value in place of the placeholder.',
  },
  'pvlint/helm-ownership-conflict': {
    severity: 'error',
    summary: 'A HelmRelease renders a storage object that the environment already has from elsewhere.',
    why: 'Helm creates the objects of a release only when they do not exist yet, or when they carry the release\'s ownership annotations (`meta.helm.sh/release-name`, `meta.helm.sh/release-namespace`); otherwise the install or upgrade fails with "exists and cannot be imported into the current release: invalid ownership metadata" (helm pkg/action/validate.go). ' +
        'A PersistentVolumeClaim, PersistentVolume, StorageClass or VolumeSnapshotClass that a HelmRelease renders and that a Flux Kustomization also applies (or another release renders) under the same kind, namespace and name is such a conflict. ' +
        'The common case: an app-template release with one `persistentVolumeClaim` entry names its claim after the release, like the claim a backup component (VolSync, Kopiur) creates for the app.',
    fix: 'Give one of the two objects another name (app-template: `suffix`, `forceRename`, or `existingClaim` to mount the existing claim instead of rendering one), or remove the duplicate.',
  },
};

/** Diagnostics that make the exit code 2: pvlint could not do its job for part of the input. */
export const FATAL_DIAGNOSTICS: ReadonlySet<string> = new Set(Object.keys(DIAGNOSTICS).filter((id) => DIAGNOSTICS[id].fatal));

export function diagnostic(ruleId: string, message: string, location: SourceLocation, severity: Severity = 'error', environments: string[] = []): Finding {
  return {
    ruleId,
    severity,
    messageId: ruleId.slice('pvlint/'.length),
    message,
    data: {},
    fix: ownEntry(DIAGNOSTICS, ruleId)?.fix ?? '',
    location,
    related: [],
    environments,
  };
}
