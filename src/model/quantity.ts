// Kubernetes resource quantities ("20Gi", "500M", "1e3", "1.5Gi") as exact rationals,
// following k8s.io/apimachinery/pkg/api/resource (ParseQuantity): <sign><digits>[.<digits>]<suffix>.

export interface Quantity {
  /** value = numerator / denominator, exactly. */
  numerator: bigint;
  denominator: bigint;
  text: string;
}

const BINARY: Record<string, bigint> = {
  Ki: 1n << 10n, Mi: 1n << 20n, Gi: 1n << 30n, Ti: 1n << 40n, Pi: 1n << 50n, Ei: 1n << 60n,
};
const DECIMAL_EXPONENT: Record<string, number> = {
  n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18,
};

const QUANTITY = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

/** Parses a quantity; numbers (YAML `storage: 10`) are taken as their decimal text. Returns undefined when invalid. */
export function parseQuantity(input: unknown): Quantity | undefined {
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return undefined;
    input = String(input);
  }
  if (typeof input !== 'string') return undefined;
  const text = input.trim();
  const m = QUANTITY.exec(text);
  if (!m) return undefined;
  const [, sign, digits, suffix = ''] = m;
  const [whole, fraction = ''] = digits.split('.');
  let numerator = BigInt((whole || '0') + fraction);
  let denominator = 10n ** BigInt(fraction.length);
  if (suffix in BINARY) {
    numerator *= BINARY[suffix];
  } else {
    const exponent = suffix.startsWith('e') || suffix.startsWith('E') ? Number(suffix.slice(1)) : DECIMAL_EXPONENT[suffix];
    if (exponent === undefined || Math.abs(exponent) > 1000) return undefined;
    if (exponent >= 0) numerator *= 10n ** BigInt(exponent);
    else denominator *= 10n ** BigInt(-exponent);
  }
  if (sign === '-') numerator = -numerator;
  return { numerator, denominator, text };
}

/** -1, 0 or 1, like Quantity.Cmp. */
export function compareQuantities(a: Quantity, b: Quantity): number {
  const left = a.numerator * b.denominator;
  const right = b.numerator * a.denominator;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Bytes, rounded up like Quantity.Value(); for display and heuristics only. */
export function quantityToNumber(q: Quantity): number {
  return Number(q.numerator) / Number(q.denominator);
}
