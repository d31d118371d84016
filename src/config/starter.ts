// The commented starter configuration `pvlint init` writes. It is valid as it stands (a test checks), and every
// setting is shown, commented out where its default already applies.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * schemas/config.schema.json of this package by a path relative to `dir` when pvlint is installed under it
 * (node_modules/pvlint: the path holds for everyone who runs `npm install` there). Otherwise undefined: a path
 * into one machine's checkout, or a URL of a package this project has not published, would not resolve for
 * the next reader; the README says how to point an editor at the schema instead.
 */
export function schemaReference(dir: string, _version?: string): string | undefined {
  const schema = fileURLToPath(new URL('../../../schemas/config.schema.json', import.meta.url));
  const relative = path.relative(dir, schema).split(path.sep).join('/');
  if (relative.startsWith('..') || path.isAbsolute(relative) || !relative.split('/').includes('node_modules')) return undefined;
  return relative.startsWith('.') ? relative : `./${relative}`;
}

export function starterConfig(schema: string | undefined): string {
  const schemaLine = schema
    ? `# yaml-language-server: $schema=${schema}`
    : "# Editor completion: see the README, section 'Configuration' (the schema is schemas/config.schema.json of pvlint).";
  return `${schemaLine}
# pvlint configuration. Paths are relative to this file; command-line flags win over what is set here.
# Every key is optional. See the README, section "Configuration".

# The rule set to start from: recommended (every rule except a few advisory notes) or all.
extends: recommended

# Per-rule severity (off, note, warning, error) and options, by rule id ('pvlint rules' lists them):
#   rule-id: warning          rule-id: [error, {option: value}]          rule-id: {severity: note, options: {...}}
rules: {}
#  pod-missing-pvc: warning

# Exit 1 when a finding is at or above this level: error, warning or note.
failLevel: error

# Files not to lint (globs relative to this file), added to --ignore; a glob that matches nothing is a warning.
ignore: []
#  - vendor/**

# What the cluster holds that the repo does not show. Rules read these facts like objects of the repo.
cluster:
  # The repo holds every storage object of the cluster: references to objects it lacks are errors, not notes.
  bundleComplete: false
  # kubernetesVersion: "1.30"
  # StorageClasses that exist in the cluster (a class of the same name in the repo wins).
  storageClasses: []
  #  - name: gp3
  #    provisioner: ebs.csi.aws.com
  #    volumeBindingMode: WaitForFirstConsumer
  #    default: true
  # mesh:
  #   istioInjectionDefault: false
  #   injectedNamespaces: [shop]
  #   nativeSidecars: auto
  # CSI drivers pvlint does not know, or corrections to its capability table.
  # drivers:
  #   - name: csi.example.com
  #     attach: required
  #     rwx: "no"
  #     topology: zonal

# How charts and overlays are rendered.
# helm:
#   values: [values-prod.yaml]
#   release: shop
#   namespace: shop
# kustomize:
#   command: kustomize build
#   enableHelm: false

# Findings accepted on purpose, each with its reason. A suppression that matches nothing is reported as a note.
# A resource can also carry the annotations pvlint.dev/ignore: "<rule>[,<rule>]" and pvlint.dev/ignore-reason.
suppress: []
#  - rules: [rwo-claim-multi-node]
#    resource: {kind: Deployment, namespace: legacy, name: "report-*"}
#    reason: runs with one replica in every environment

# Custom rules: .ts, .mts, .js or .mjs files (or directories of them) made with defineRule from 'pvlint'.
ruleFiles: []
`;
}
