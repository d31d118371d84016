// GitHub code scanning tracks an alert across commits by `partialFingerprints.primaryLocationLineHash`.
// upload-sarif fills it in when missing, but uploads through the REST API do not, and a value that differs
// from GitHub's own is kept while GitHub warns about it; so pvlint emits exactly what upload-sarif computes.
// This is a port of `hash()` in github/codeql-action src/fingerprints.ts:
//   - for every line, a rolling hash (base 37, mod 2^64) over the next 100 characters from the start of the
//     line, skipping spaces and tabs, with `\r` and `\r\n` read as `\n` and newlines kept in the window;
//   - after the last character comes a sentinel 65535, then zeros, so lines near the end still fill a window;
//   - the value is `<unsigned hash in hex, not zero-padded>:<n>`, n = 1 + how many earlier lines hashed the same.
// The input is UTF-16 code units, as in codeql-action (it reads the file as a UTF-8 string and uses charCodeAt),
// so the text must be the file's decoded content as is: no BOM stripping, no newline normalisation.

const BLOCK_SIZE = 100;
const EOF = 65535;
const TAB = 0x09;
const SPACE = 0x20;
const LF = 0x0a;
const CR = 0x0d;
const TWO_32 = 0x1_0000_0000;

/** 37^100 mod 2^64 (what a character contributes when it leaves the window), as two unsigned 32-bit halves. */
const FIRST_MOD = (() => {
  let value = 1n;
  for (let i = 0; i < BLOCK_SIZE; i++) value = BigInt.asUintN(64, value * 37n);
  return { hi: Number(value >> 32n), lo: Number(value & 0xffff_ffffn) };
})();

/**
 * A 64-bit unsigned integer kept as two 32-bit halves in doubles. BigInt per character is several times slower,
 * and every intermediate product here stays below 2^53, so plain numbers are exact.
 */
class RollingHash {
  private hi = 0;
  private lo = 0;

  /** hash = hash * 37 + entering - 37^100 * leaving  (mod 2^64) */
  roll(entering: number, leaving: number): void {
    let lo = this.lo * 37 + entering;
    let carry = Math.floor(lo / TWO_32);
    lo -= carry * TWO_32;
    let hi = (this.hi * 37 + carry) % TWO_32;

    const productLo = FIRST_MOD.lo * leaving;
    carry = Math.floor(productLo / TWO_32);
    const subLo = productLo - carry * TWO_32;
    const subHi = (FIRST_MOD.hi * leaving + carry) % TWO_32;

    lo -= subLo;
    if (lo < 0) {
      lo += TWO_32;
      hi -= 1;
    }
    hi -= subHi;
    if (hi < 0) hi += TWO_32;
    this.hi = hi;
    this.lo = lo;
  }

  toHex(): string {
    return this.hi === 0 ? this.lo.toString(16) : this.hi.toString(16) + this.lo.toString(16).padStart(8, '0');
  }
}

/**
 * The `primaryLocationLineHash` of every line of `text`: index 0 is line 1. Lines are split at `\n`, `\r\n`
 * and `\r`, as GitHub does; a trailing newline starts one more (empty) line.
 */
export function lineHashes(text: string): string[] {
  const window = new Array<number>(BLOCK_SIZE).fill(0);
  // The line number whose first character sits at this window slot, or -1.
  const lineNumbers = new Array<number>(BLOCK_SIZE).fill(-1);
  const hash = new RollingHash();
  const hashes: string[] = [];
  const seen = new Map<string, number>();
  let index = 0;
  let lineNumber = 0;
  let lineStart = true;
  let prevCR = false;

  const outputHash = () => {
    const value = hash.toHex();
    const count = (seen.get(value) ?? 0) + 1;
    seen.set(value, count);
    hashes[lineNumbers[index] - 1] = `${value}:${count}`;
    lineNumbers[index] = -1;
  };

  const updateHash = (current: number) => {
    const leaving = window[index];
    window[index] = current;
    hash.roll(current, leaving);
    index = (index + 1) % BLOCK_SIZE;
  };

  const processCharacter = (code: number) => {
    let current = code;
    if (current === SPACE || current === TAB || (prevCR && current === LF)) {
      prevCR = false;
      return;
    }
    if (current === CR) {
      current = LF;
      prevCR = true;
    } else {
      prevCR = false;
    }
    // The slot about to be overwritten held a line start BLOCK_SIZE characters ago: its window is complete.
    if (lineNumbers[index] !== -1) outputHash();
    if (lineStart) {
      lineStart = false;
      lineNumber++;
      lineNumbers[index] = lineNumber;
    }
    if (current === LF) lineStart = true;
    updateHash(current);
  };

  for (let i = 0; i < text.length; i++) processCharacter(text.charCodeAt(i));
  processCharacter(EOF);
  for (let i = 0; i < BLOCK_SIZE; i++) {
    if (lineNumbers[index] !== -1) outputHash();
    updateHash(0);
  }
  return hashes;
}
