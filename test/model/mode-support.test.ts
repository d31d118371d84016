import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { accessModeSupport, blockModeSupport, classParameters, staticHandleException } from '../../src/model/mode-support.js';
import { termsConflict, nodeSelectorTermsOf } from '../../src/model/node-selector.js';
import { driverCapabilities } from '../../src/model/provisioners.js';

const test = suite('mode support and node selectors');
const params = (p: Record<string, string>) => classParameters({ object: { parameters: p } });

test('access modes against the §7 table', () => {
  const ebs = driverCapabilities('ebs.csi.aws.com')!;
  assert.is(accessModeSupport(ebs, 'ReadWriteOnce', 'Filesystem', params({})).level, 'ok');
  assert.is(accessModeSupport(ebs, 'ReadOnlyMany', 'Filesystem', params({})).level, 'error');
  assert.is(accessModeSupport(ebs, 'ReadWriteMany', 'Filesystem', params({ type: 'io2' })).level, 'error');
  assert.is(accessModeSupport(ebs, 'ReadWriteMany', 'Block', params({})).level, 'error');
  assert.is(accessModeSupport(ebs, 'ReadWriteMany', 'Block', params({ TYPE: 'IO2' })).level, 'note');
  assert.is(accessModeSupport(ebs, 'ReadWriteMany', 'Block', undefined).level, 'note', 'a static PV: the volume exists already');
  const azure = driverCapabilities('disk.csi.azure.com')!;
  assert.is(accessModeSupport(azure, 'ReadWriteMany', 'Block', params({ maxShares: '1' })).level, 'error');
  assert.is(accessModeSupport(azure, 'ReadWriteMany', 'Block', params({ maxshares: '3' })).level, 'note');
  assert.is(accessModeSupport(driverCapabilities('cinder.csi.openstack.org')!, 'ReadWriteMany', 'Block', params({})).level, 'warning');
  assert.is(accessModeSupport(driverCapabilities('kubernetes.io/gce-pd')!, 'ReadWriteOncePod', 'Filesystem', params({})).level, 'warning');
  assert.is(accessModeSupport(driverCapabilities('pd.csi.storage.gke.io')!, 'ReadWriteOncePod', 'Filesystem', params({})).level, 'ok');
  assert.is(accessModeSupport(driverCapabilities('kubernetes.io/cinder')!, 'ReadOnlyMany', 'Block', params({})).level, 'warning');
});

test('block volumes and documented static exceptions', () => {
  assert.is(blockModeSupport(driverCapabilities('efs.csi.aws.com')!).level, 'error');
  assert.is(blockModeSupport(driverCapabilities('openebs.io/local')!).level, 'warning');
  assert.is(blockModeSupport(driverCapabilities('kubernetes.io/aws-ebs')!).level, 'ok');
  const ebs = driverCapabilities('ebs.csi.aws.com')!;
  assert.ok(staticHandleException(ebs, { object: { spec: { csi: { volumeHandle: 'local-ebs://dev/xvdbz' } } } }));
  assert.is(staticHandleException(ebs, { object: { spec: { csi: { volumeHandle: 'vol-0123' } } } }), undefined);
});

test('node selector terms: ORed terms, ANDed requirements, disjoint values', () => {
  const zone = (op: string, values: string[], key = 'topology.kubernetes.io/zone') => nodeSelectorTermsOf([{ matchExpressions: [{ key, operator: op, values }] }], [])!;
  assert.is(termsConflict(zone('In', ['a']), zone('In', ['b']))?.strength, 'proven');
  assert.is(termsConflict(zone('In', ['a', 'b']), zone('In', ['b'])), undefined);
  assert.is(termsConflict(zone('In', ['a']), zone('NotIn', ['a']))?.strength, 'proven');
  assert.is(termsConflict(zone('In', ['a']), zone('NotIn', ['b'])), undefined);
  assert.is(termsConflict(zone('Exists', []), zone('In', ['a'])), undefined);
  assert.is(termsConflict(zone('In', ['a']), zone('In', ['b'], 'topology.gke.io/zone'))?.strength, 'alias');
  assert.is(termsConflict(zone('In', ['a']), zone('In', ['b'], 'node-pool')), undefined);
  const either = nodeSelectorTermsOf([{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a'] }] }, { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['b'] }] }], [])!;
  assert.is(termsConflict(either, zone('In', ['b'])), undefined, 'one term of the PV fits');
});

test.run();
