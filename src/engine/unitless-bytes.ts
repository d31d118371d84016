// A storage size written without a unit: shared by the shape check's messages and the `pvlintStorage` keyword the
// build compiles into the shape validators.

const MiB = 1024 * 1024;
/** A plain decimal, as the quantity parser reads a size without a unit. */
export const UNITLESS_NUMBER = String.raw`^\s*\+?(?:\d+(?:\.\d*)?|\.\d+)\s*$`;
const UNITLESS = new RegExp(UNITLESS_NUMBER);

/** A storage size with no unit and below 1 MiB: almost certainly meant as Gi or Mi. */
export function unitlessBytes(value: unknown): number | undefined {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && UNITLESS.test(value)) n = Number(value);
  else return undefined;
  return Number.isFinite(n) && n > 0 && n < MiB ? n : undefined;
}
