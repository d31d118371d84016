import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compareQuantities, parseQuantity, quantityToNumber } from '../../src/model/quantity.js';

const test = suite('quantity');

const value = (text: unknown) => {
  const q = parseQuantity(text);
  assert.ok(q, `${String(text)} should parse`);
  return q!;
};
/** Exact value as numerator/denominator reduced to a decimal string for comparison. */
const exact = (text: unknown) => {
  const q = value(text);
  return { numerator: q.numerator, denominator: q.denominator };
};

test('binary suffixes', () => {
  assert.is(quantityToNumber(value('20Gi')), 20 * 2 ** 30);
  assert.is(quantityToNumber(value('1Ki')), 1024);
  assert.is(quantityToNumber(value('3Ti')), 3 * 2 ** 40);
});

test('decimal suffixes', () => {
  assert.is(quantityToNumber(value('500M')), 500_000_000);
  assert.is(quantityToNumber(value('1G')), 1e9);
  assert.is(quantityToNumber(value('2k')), 2000);
});

test('exponents', () => {
  assert.is(quantityToNumber(value('1e3')), 1000);
  assert.is(quantityToNumber(value('1E3')), 1000);
  assert.is(quantityToNumber(value('5e-1')), 0.5);
});

test('fractions are exact', () => {
  assert.equal(exact('1.5Gi'), { numerator: 15n * 2n ** 30n, denominator: 10n });
  assert.is(compareQuantities(value('1.5Gi'), value('1536Mi')), 0);
  assert.is(compareQuantities(value('0.5'), value('.5')), 0);
});

test('milli and smaller', () => {
  assert.is(quantityToNumber(value('100m')), 0.1);
  assert.is(compareQuantities(value('100m'), value('0.1')), 0);
  assert.is(compareQuantities(value('1n'), value('0')), 1);
});

test('plain numbers and YAML numbers', () => {
  assert.is(quantityToNumber(value('10')), 10);
  assert.is(quantityToNumber(value(10)), 10);
  assert.is(quantityToNumber(value('-1')), -1);
  assert.is(quantityToNumber(value('+2')), 2);
});

test('exact comparison across units', () => {
  assert.is(compareQuantities(value('1Gi'), value('1G')), 1);
  assert.is(compareQuantities(value('1G'), value('1Gi')), -1);
  assert.is(compareQuantities(value('1000Mi'), value('1Gi')), -1);
  assert.is(compareQuantities(value('1024Mi'), value('1Gi')), 0);
  assert.is(compareQuantities(value('1e9'), value('1G')), 0);
});

test('invalid strings', () => {
  for (const text of ['', 'abc', 'Gi', '1.5.5', '10 Gi', '1ki', '1GB', '1gi', '--1', '1e', 'e3', '1.2.3Mi']) {
    assert.is(parseQuantity(text), undefined, JSON.stringify(text));
  }
  for (const input of [null, undefined, {}, [], true, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.is(parseQuantity(input), undefined, String(input));
  }
});

test.run();
