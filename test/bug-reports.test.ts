// Real bug reports (GitHub issues) turned into fixtures: each row is one report, the rule that catches it and where.
// A regression names the report. Every fixture directory has a PROVENANCE.md with the thread, what broke and why.
import { cpSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lint } from '../src/lint.js';
import { lintWithBase } from '../src/review/review.js';
import type { Finding } from '../src/types.js';
import { PROJECT_ROOT } from './helpers/paths.js';
import { requires } from './helpers/requires.js';
import { HAS_KUSTOMIZE } from './render/helpers.js';
import { TempRepo } from './review/helpers.js';

const FIXTURES = 'test/fixtures/bug-reports';

interface Caught {
  /** Fixture directory under test/fixtures/bug-reports. */
  report: string;
  url: string;
  rule: string;
  severity: 'error' | 'warning' | 'note';
  /** File inside the fixture directory and the 1-based line the finding points at. */
  at: `${string}:${number}`;
}

const CAUGHT: readonly Caught[] = [
  { report: 'gke-wordpress-rollout', url: 'https://github.com/GoogleCloudPlatform/kubernetes-engine-samples/issues/90', rule: 'rwo-update-overlap', severity: 'note', at: 'wordpress.yaml:7' },
  { report: 'aks-disk-rollout', url: 'https://github.com/Azure/AKS/issues/1919', rule: 'rwo-update-overlap', severity: 'note', at: 'deployment.yaml:5' },
  { report: 'withings-bootstrap-cronjob', url: 'https://github.com/jaroslawhartman/withings-sync/issues/248', rule: 'rwo-claim-multi-node', severity: 'warning', at: 'k8s-job.yaml:22' },
  { report: 'withings-bootstrap-cronjob', url: 'https://github.com/jaroslawhartman/withings-sync/issues/248', rule: 'cronjob-rwo-concurrency', severity: 'warning', at: 'k8s-job.yaml:7' },
  { report: 'lvm-localpv-nodename', url: 'https://github.com/openebs/lvm-localpv/issues/379', rule: 'wffc-pod-nodename', severity: 'error', at: 'deployment.yaml:15' },
  { report: 'local-path-nodename', url: 'https://github.com/rancher/local-path-provisioner/issues/383', rule: 'wffc-pod-nodename', severity: 'note', at: 'sample.yaml:6' },
  { report: 'efs-same-access-point', url: 'https://github.com/kubernetes-sigs/aws-efs-csi-driver/issues/852', rule: 'csi-duplicate-volume-handle', severity: 'warning', at: 'volumes.yaml:40' },
  { report: 'kind-static-pv-default-class', url: 'https://github.com/kubernetes-sigs/kind/issues/3615', rule: 'pvc-default-class-skips-static-pv', severity: 'warning', at: 'pvc.yaml:6' },
  { report: 's3-volumename-default-class', url: 'https://github.com/awslabs/mountpoint-s3-csi-driver/issues/182', rule: 'pvc-volumename-unsatisfiable', severity: 'warning', at: 'static_provisioning.yaml:21' },
  { report: 'istio-nfs-server', url: 'https://github.com/istio/istio/issues/6523', rule: 'mesh-nfs-server-in-mesh', severity: 'warning', at: 'nfs-server-rc.yaml:10' },
  { report: 'block-claim-volumemounts', url: 'https://github.com/kubernetes-retired/external-storage/issues/1095', rule: 'volume-mode-mount-mismatch', severity: 'error', at: 'deployment.yaml:21' },
  { report: 'emptydir-memory-sizelimit', url: 'https://github.com/kubernetes/kubernetes/issues/128339', rule: 'emptydir-memory-unbounded', severity: 'warning', at: 'pod.yaml:24' },
  { report: 'argocd-vct-instance-label', url: 'https://github.com/argoproj/argo-cd/issues/3050', rule: 'argocd-vct-tracking-metadata', severity: 'warning', at: 'statefulset.yaml:25' },
  { report: 'argocd-app-delete-pvc', url: 'https://github.com/argoproj/argo-cd/issues/9853', rule: 'gitops-pvc-prune-unprotected', severity: 'note', at: 'pvc.yaml:6' },
  { report: 'hostpath-pv-deployment', url: 'https://github.com/kubernetes/kubernetes/issues/96859', rule: 'hostpath-in-replicated-workload', severity: 'warning', at: 'pv.yaml:13' },
  { report: 'efs-accesspoint-mount-option', url: 'https://github.com/kubernetes-sigs/aws-efs-csi-driver/issues/177', rule: 'efs-volume-handle-invalid', severity: 'note', at: 'pv.yaml:13' },
  { report: 'flannel-subpath-in-configmap', url: 'https://github.com/kubernetes/kubernetes/issues/61545', rule: 'subpath-pitfalls', severity: 'note', at: 'deployment.yaml:24' },
  { report: 'optional-configmap-subpath', url: 'https://github.com/kubernetes/kubernetes/issues/54514', rule: 'subpath-pitfalls', severity: 'note', at: 'pod.yaml:12' },
  { report: 'azure-disk-pvc-selector', url: 'https://github.com/kubernetes/kubernetes/issues/58413', rule: 'pvc-selector-dynamic-provisioning', severity: 'note', at: 'pvc.yaml:12' },
  { report: 'nfs-client-pvc-selector', url: 'https://github.com/helm/charts/issues/11707', rule: 'pvc-selector-dynamic-provisioning', severity: 'warning', at: 'example.yml:7' },
  { report: 'zammad-sts-shared-claim', url: 'https://github.com/zammad/zammad-helm/pull/25', rule: 'statefulset-shared-claim', severity: 'warning', at: 'statefulset.yaml:25' },
  { report: 'ebs-static-example-default-class', url: 'https://github.com/kubernetes-sigs/aws-ebs-csi-driver/issues/701', rule: 'pvc-default-class-skips-static-pv', severity: 'warning', at: 'example.yaml:28' },
  { report: 'jupyterhub-no-default-class', url: 'https://github.com/kubernetes/website/issues/26943', rule: 'pvc-classless-without-default', severity: 'note', at: 'hub-db-dir.yaml:10' },
];

/**
 * Reports where a change broke the cluster (the API refused an update): the fixture holds the tree `before/` and
 * `after/` the change, and pvlint runs with `--base` on a git repository built from them. `at` is in the `after/` tree.
 */
const CHANGES: readonly (Caught & { kustomize?: boolean })[] = [
  { report: 'kustomize-sts-claim-size', url: 'https://github.com/kubernetes-sigs/kustomize/issues/1844', rule: 'immutable-storage-field-change', severity: 'error', at: 'base/statefulset.yaml:31', kustomize: true },
  { report: 'headlamp-pvc-removed', url: 'https://github.com/devantler-tech/platform/issues/3167', rule: 'storage-removed-in-use', severity: 'error', at: 'k8s/bases/apps/headlamp/deployment.yaml:27', kustomize: true },
  { report: 'koperator-static-pvc-resize', url: 'https://github.com/banzaicloud/koperator/issues/469', rule: 'pvc-resize-rejected', severity: 'error', at: 'kafka-storage.yaml:29' },
  { report: 'zfs-pvc-resize-no-expansion', url: 'https://github.com/ccremer/kubernetes-zfs-provisioner/issues/78', rule: 'pvc-resize-rejected', severity: 'error', at: 'pvc.yaml:11' },
];

/** Reports whose bug the repo content cannot show (or pvlint does not catch yet): linted for crashes and stray errors only. */
const NOT_CAUGHT: readonly { report: string; url: string; why: string }[] = [
  {
    report: 'karpenter-zone-affinity-conflict', url: 'https://github.com/aws/karpenter-provider-aws/issues/2971',
    why: 'the worker\'s EBS volume was provisioned in us-east-2a and the autoscaler then offered nodes only in other zones: ' +
      'the zone lives in the dynamically provisioned PV and in the node pools, neither of which is in the repo',
  },
];

const bugReports = suite('bug reports');

const findingsCache = new Map<string, Promise<Finding[]>>();
function findingsOf(report: string): Promise<Finding[]> {
  let pending = findingsCache.get(report);
  if (!pending) {
    pending = lint({ paths: [path.join(FIXTURES, report)], cwd: PROJECT_ROOT }).then((r) => r.findings);
    findingsCache.set(report, pending);
  }
  return pending;
}

const where = (f: Finding) => `${f.ruleId} ${f.severity} ${path.relative(FIXTURES, f.location.file)}:${f.location.region.startLine}`;

for (const row of CAUGHT) {
  bugReports(`${row.report} (${row.url}): ${row.rule} ${row.severity} at ${row.at}`, async () => {
    const findings = await findingsOf(row.report);
    const expected = `${row.rule} ${row.severity} ${row.report}/${row.at}`;
    assert.ok(findings.some((f) => where(f) === expected), `expected ${expected}; got:\n  ${findings.map(where).join('\n  ')}`);
  });
}

for (const row of CHANGES) {
  const test = row.kustomize
    ? requires(bugReports, HAS_KUSTOMIZE, `the ${row.report} bug report`, 'neither kustomize nor kubectl is on PATH, so its overlay cannot be rendered', 'install kubectl (its kustomize) or kustomize')
    : bugReports;
  test(`${row.report} (${row.url}): ${row.rule} ${row.severity} at ${row.at} with --base`, async () => {
    const repo = new TempRepo();
    try {
      const fixture = path.join(PROJECT_ROOT, FIXTURES, row.report);
      cpSync(path.join(fixture, 'before'), repo.dir, { recursive: true });
      const base = repo.commit('before');
      for (const entry of readdirSync(repo.dir)) if (entry !== '.git') rmSync(path.join(repo.dir, entry), { recursive: true });
      cpSync(path.join(fixture, 'after'), repo.dir, { recursive: true });
      const { findings } = await lintWithBase({ paths: ['.'], cwd: repo.dir }, { base, newOnly: false });
      const got = findings.map((f) => `${f.ruleId} ${f.severity} ${f.location.file}:${f.location.region.startLine}`);
      assert.ok(got.includes(`${row.rule} ${row.severity} ${row.at}`), `expected ${row.rule} ${row.severity} ${row.at}; got:\n  ${got.join('\n  ')}`);
    } finally {
      repo.remove();
    }
  });
}

bugReports('every fixture directory is in the table, and has a PROVENANCE.md naming its report', () => {
  const dirs = readdirSync(path.join(PROJECT_ROOT, FIXTURES), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  const listed = [...new Set([...CAUGHT, ...CHANGES, ...NOT_CAUGHT].map((r) => r.report))].sort();
  assert.equal(listed, dirs);
  for (const dir of dirs) {
    const files = readdirSync(path.join(PROJECT_ROOT, FIXTURES, dir));
    assert.ok(files.includes('PROVENANCE.md'), `${dir}/PROVENANCE.md`);
  }
});

bugReports('no report gets an error the table does not expect: an error is a claim that Kubernetes certainly refuses', async () => {
  const expectedErrors = new Set(CAUGHT.filter((r) => r.severity === 'error').map((r) => `${r.rule} error ${r.report}/${r.at}`));
  for (const report of [...new Set([...CAUGHT.map((r) => r.report), ...NOT_CAUGHT.map((r) => r.report)])]) {
    const stray = (await findingsOf(report)).filter((f) => f.severity === 'error' && !expectedErrors.has(where(f)));
    assert.equal(stray.map(where), [], report);
  }
});

bugReports.run();
