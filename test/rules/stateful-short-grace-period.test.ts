import rule from '../../rules/stateful-short-grace-period.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sts = (opts: { grace?: string; image?: string; mountPath?: string; ephemeral?: boolean } = {}) => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:${opts.grace !== undefined ? `\n      terminationGracePeriodSeconds: ${opts.grace}` : ''}
      containers:
        - name: db
          image: ${opts.image ?? 'postgres:16'}
          volumeMounts: [{name: data, mountPath: ${opts.mountPath ?? '/var/lib/postgresql/data'}}]${opts.ephemeral ? '\n      volumes: [{name: data, emptyDir: {}}]' : `
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}`}
`;

ruleTester(rule, {
  valid: [
    { name: 'two minutes to shut down', code: sts({ grace: '120' }) },
    { name: 'exactly the minimum', code: sts({ grace: '60' }) },
    { name: 'ephemeral data has nothing to flush that survives', code: sts({ grace: '5', ephemeral: true }) },
    { name: 'not a database', code: sts({ grace: '5', image: 'registry.example.com/app:1', mountPath: '/data' }) },
    { name: 'a redis cache', code: sts({ grace: '5', image: 'redis:7', mountPath: '/data' }) },
    { name: 'a shorter minimum from the option', code: sts({ grace: '30' }), options: { minSeconds: 30 } },
  ],
  invalid: [
    {
      name: 'ten seconds for PostgreSQL',
      code: sts({ grace: '10' }),
      errors: [{ messageId: 'short', severity: 'warning', line: 10, path: ['spec', 'template', 'spec', 'terminationGracePeriodSeconds'], messageIncludes: ['only 10 s', 'at least 60 s'] }],
    },
    {
      name: 'the 30 s default is a note',
      code: sts(),
      errors: [{ messageId: 'unset', severity: 'note' }],
    },
    {
      name: 'an advisory data path gives a note even when short',
      code: sts({ grace: '10', image: 'cassandra:5', mountPath: '/var/lib/cassandra' }),
      errors: [{ messageId: 'short', severity: 'note' }],
    },
  ],
});
