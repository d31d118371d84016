// hostAliases that pin an EFS file system's DNS name to one mount target IP, so every node reaches one Availability Zone.
import { defineRule } from '../src/define-rule.js';
import { WORKLOAD_KINDS } from '../src/model/pod-templates.js';

/** `fs-0123….efs.<region>.amazonaws.com` (or `.amazonaws.com.cn`), optionally with an Availability Zone prefix. */
const EFS_DNS = /^(?:([a-z0-9-]+)\.)?(fs-[0-9a-f]{8,40})\.efs\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?\.?$/i;

export default defineRule({
  id: 'efs-dns-pinned-host-alias',
  meta: {
    severity: 'warning',
    kinds: [...WORKLOAD_KINDS],
    summary: 'hostAliases pin an EFS file system\'s DNS name to one mount target IP, so clients in every zone use one Availability Zone.',
    why:
      'An EFS file system has one mount target per Availability Zone, and its DNS name "automatically resolves to the mount ' +
      'target\'s IP address in the Availability Zone of the connecting" instance. A `hostAliases` entry writes one IP for the ' +
      'name into the pod\'s /etc/hosts, so pods on nodes in every zone connect to that one mount target: traffic crosses zones ' +
      '(with data transfer charges and added latency), and when that zone or its mount target fails, every mount hangs — the ' +
      'zonal independence EFS provides is gone.',
    trigger:
      'A pod template whose `hostAliases` map a hostname of the form `fs-<id>.efs.<region>.amazonaws.com` (the regional file ' +
      'system name) to an IP address.',
    exceptions:
      'An Availability-Zone-specific name (`<az>.fs-<id>.efs.<region>.amazonaws.com`) names one zone on purpose and is not ' +
      'reported. hostAliases only change name resolution inside that pod: for volumes mounted ' +
      'by the EFS CSI driver they matter in the driver\'s node DaemonSet (or in containers that mount EFS themselves).',
    fix:
      'Remove the alias and let VPC DNS resolve the name per zone. Where DNS cannot resolve it (another VPC or account), give each ' +
      'zone its own resolution — a Route 53 private hosted zone, or the EFS CSI driver\'s per-zone mount target selection — instead ' +
      'of one fixed IP.',
    reportsAt: 'The `hostAliases` entry\'s hostname.',
    references: [
      { title: 'Amazon EFS User Guide: Mounting on Amazon EC2 with a DNS name (resolves to the mount target in the client\'s Availability Zone)', url: 'https://docs.aws.amazon.com/efs/latest/ug/mounting-fs-mount-cmd-dns-name.html' },
      { title: 'Amazon EFS User Guide: Mounting One Zone file systems (data transfer charges between Availability Zones)', url: 'https://docs.aws.amazon.com/efs/latest/ug/mounting-one-zone.html' },
      { title: 'Amazon EFS User Guide: Mounting EFS file systems from another VPC (use the mount target of the corresponding zone)', url: 'https://docs.aws.amazon.com/efs/latest/ug/mount-fs-different-vpc.html' },
      { title: 'Kubernetes docs: Adding entries to Pod /etc/hosts with HostAliases', url: 'https://kubernetes.io/docs/tasks/network/customize-hosts-file-for-pods/' },
    ],
    messages: {
      pinned: (d: { kind: string; workload: string; hostname: string; ip: string }) =>
        `${d.kind} "${d.workload}" pins EFS name ${d.hostname} to ${d.ip} with hostAliases: one mount target in one Availability Zone ` +
        'for clients in every zone (cross-zone traffic, and every mount hangs when that zone fails), where DNS would give each zone its own.',
    },
    examples: {
      invalid: [
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: importer}
spec:
  selector: {matchLabels: {app: importer}}
  template:
    metadata: {labels: {app: importer}}
    spec:
      hostAliases:
        - ip: 10.0.12.34
          hostnames: [fs-0123456789abcdef0.efs.eu-west-1.amazonaws.com]
      containers: [{name: importer, image: importer}]
`,
      ],
      valid: [
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: importer}
spec:
  selector: {matchLabels: {app: importer}}
  template:
    metadata: {labels: {app: importer}}
    spec:
      hostAliases:
        - ip: 10.0.12.34
          hostnames: [eu-west-1a.fs-0123456789abcdef0.efs.eu-west-1.amazonaws.com]
      containers: [{name: importer, image: importer}]
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      const aliases = template.spec?.hostAliases;
      if (!Array.isArray(aliases)) continue;
      aliases.forEach((alias: any, i: number) => {
        const hostnames = Array.isArray(alias?.hostnames) ? alias.hostnames : [];
        hostnames.forEach((hostname: unknown, j: number) => {
          if (typeof hostname !== 'string') return;
          const match = EFS_DNS.exec(hostname.trim());
          if (!match || match[1] !== undefined) return;
          report({
            resource: template.workload, path: [...template.specPath, 'hostAliases', i, 'hostnames', j], messageId: 'pinned',
            data: { kind: template.kind, workload: template.workload.name, hostname: hostname.trim(), ip: String(alias?.ip ?? '?') },
          });
        });
      });
    }
  },
});
