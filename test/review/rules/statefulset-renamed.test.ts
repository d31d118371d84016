import rule from '../../../rules/statefulset-renamed.js';
import { changeRuleTester, lineOf } from '../helpers.js';

const sts = (name: string, options: { namespace?: string; labels?: string; templates?: string[]; extra?: string } = {}) => `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: ${name}
  namespace: ${options.namespace ?? 'app'}
spec:
  replicas: 2
  serviceName: db
  selector: {matchLabels: {${options.labels ?? 'app: db'}}}
${options.extra ?? ''}  template:
    metadata: {labels: {${options.labels ?? 'app: db'}}}
    spec: {containers: [{name: db, image: busybox}]}
  volumeClaimTemplates:
${(options.templates ?? ['data']).map((t) => `    - metadata: {name: ${t}}\n      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n`).join('')}`;

const renamed = sts('postgres');
const moved = sts('db', { namespace: 'data' });

changeRuleTester(rule, {
  valid: [
    { name: 'same name', base: sts('db'), head: sts('db', { extra: '  minReadySeconds: 3\n' }) },
    { name: 'removed only', base: sts('db'), head: '' },
    { name: 'another StatefulSet with other claim templates', base: sts('db'), head: sts('cache', { templates: ['cache'] }) },
    { name: 'another StatefulSet with other labels', base: sts('db'), head: sts('postgres', { labels: 'app: postgres' }) },
    { name: 'StatefulSets without claim templates', base: sts('db', { templates: [] }), head: sts('postgres', { templates: [] }) },
  ],
  invalid: [
    {
      name: 'renamed: orphaned claims',
      base: sts('db'),
      head: renamed,
      errors: [{ messageId: 'renamed', severity: 'warning', line: lineOf(renamed, 'name: postgres'), messageIncludes: ['"postgres" replaces "db"', '"data-postgres-0", "data-postgres-1"', '"data-db-0", "data-db-1", orphaned'], related: ['base.yaml:4'] }],
    },
    {
      name: 'renamed with whenDeleted: Delete: the old claims are deleted',
      base: sts('db', { extra: '  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete}\n' }),
      head: renamed,
      errors: [{ messageId: 'renamed', severity: 'error', messageIncludes: ['deleted with the old StatefulSet'] }],
    },
    {
      name: 'moved to another namespace',
      base: sts('db'),
      head: moved,
      errors: [{ messageId: 'renamed', line: lineOf(moved, 'name: db'), messageIncludes: ['in namespace "data" replaces "db" of namespace "app"'] }],
    },
  ],
});
