import { describe, expect, it } from 'vitest';

import { priceText } from '../../../packages/emulator/src/premium/premiumWire.js';

describe('priceText (the store page and the purchase modal)', () => {
  it("reads the amount in the currency's smallest unit", () => {
    expect(priceText({ amount: 499, currency: 'usd' })).toBe('4.99 USD');
    expect(priceText({ amount: 500, currency: 'jpy' })).toBe('500 JPY');
    expect(priceText({ amount: 1250, currency: 'kwd' })).toBe('1.250 KWD');
    expect(priceText({ amount: 0, currency: 'eur' })).toBe('0.00 EUR');
    expect(priceText(undefined)).toBe('free');
  });
});
