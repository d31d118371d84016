// Provisioner / CSI driver names pvlint knows exist, and "is this unknown name a typo of one of them?".
// Known = the capability table (provisioners.ts, research catalogue §7), its in-tree names, the names below (drivers the
// table has no capabilities for), drivers the configuration declares and CSIDriver objects in the scope.
import type { RuleReference } from '../types.js';
import { allDriverCapabilities, IN_TREE_TO_CSI } from './provisioners.js';
import type { ModelView } from './model-view.js';
import { editDistance } from './edit-distance.js';

/** Real driver names that are not rows of the capability table, each with where it is documented. */
export const OTHER_KNOWN_PROVISIONERS: readonly { name: string; source: RuleReference }[] = [
  { name: 'ebs.csi.eks.amazonaws.com', source: { title: 'Amazon EKS User Guide: Create a storage class (EKS Auto Mode)', url: 'https://docs.aws.amazon.com/eks/latest/userguide/create-storage-class.html' } },
  { name: 's3.csi.aws.com', source: { title: 'Amazon EKS User Guide: Mountpoint for Amazon S3 CSI driver', url: 'https://docs.aws.amazon.com/eks/latest/userguide/s3-csi.html' } },
];

/** Every provisioner name known in the model's scope (the model keeps it: `model.isKnownProvisioner`). */
export function knownProvisionerNames(model: ModelView): Set<string> {
  const names = new Set<string>();
  for (const row of allDriverCapabilities()) for (const name of [row.name, ...row.aliases]) names.add(name);
  for (const name of Object.keys(IN_TREE_TO_CSI)) names.add(name);
  for (const entry of OTHER_KNOWN_PROVISIONERS) names.add(entry.name);
  for (const override of model.driverOverrides) for (const name of [override.name, ...(override.aliases ?? [])]) names.add(name);
  for (const driver of model.ofKind('CSIDriver')) if (driver.name) names.add(driver.name);
  return names;
}

/**
 * The labels of a driver name, the identifying one first: `ebs.csi.aws.com` → [ebs, csi, aws, com];
 * `kubernetes.io/aws-ebs` → [aws-ebs, kubernetes, io] (for prefixed names the part after the slash names the driver).
 */
function labels(name: string): string[] {
  const slash = name.lastIndexOf('/');
  if (slash >= 0) return [name.slice(slash + 1), ...name.slice(0, slash).split('.')];
  return name.split('.');
}

/**
 * Whether `written` looks like a typo of `known`: the driver-naming label is the same and one other label differs
 * (`ebs.csi.amazonaws.com` ↔ `ebs.csi.aws.com`), or only the driver-naming label differs by one character in a label
 * of four or more (`kubernetes.io/aws-eb`), or the names are two edits apart with the same driver-naming label (a
 * dropped or doubled dot). Another driver of the same vendor (`s3.csi.aws.com`, `efs.csi.aws.com`) differs in the label
 * that names the driver, so it is not a typo.
 */
export function looksLikeTypo(written: string, known: string): boolean {
  if (written === known) return false;
  const a = labels(written);
  const b = labels(known);
  if (a.length === b.length) {
    const differing = a.map((label, i) => (label === b[i] ? -1 : i)).filter((i) => i >= 0);
    if (differing.length === 1) {
      const i = differing[0];
      if (i > 0) return true;
      return Math.min(a[0].length, b[0].length) >= 4 && editDistance(a[0], b[0]) === 1;
    }
    return false;
  }
  return a[0] === b[0] && editDistance(written, known) <= 2;
}

/** The names of `known` that `written` is a likely typo of, closest first (`model.provisionerTypoCandidates`). */
export function typoCandidatesAmong(known: ReadonlySet<string>, written: string): string[] {
  return [...known].filter((known) => looksLikeTypo(written, known)).sort((x, y) => editDistance(written, x) - editDistance(written, y) || x.localeCompare(y));
}
