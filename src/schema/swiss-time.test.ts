import { describe, expect, it } from 'vitest';
import { swissToday } from './swiss-time.ts';

describe('swissToday', () => {
  it('is the Swiss calendar day, whatever the instant is written in', () => {
    // 23:30 UTC on 31 December is already 1 January in Zurich (UTC+1 in winter).
    expect(swissToday(new Date('2025-12-31T23:30:00Z'))).toBe('2026-01-01');
    expect(swissToday(Date.parse('2025-12-31T22:30:00Z'))).toBe('2025-12-31');
    // Summer time: UTC+2.
    expect(swissToday(new Date('2026-06-30T22:00:00Z'))).toBe('2026-07-01');
    expect(swissToday(new Date('2026-06-30T21:59:59Z'))).toBe('2026-06-30');
  });

  it('defaults to now', () => {
    const before = swissToday(Date.now());
    const today = swissToday();
    expect([before, swissToday(Date.now())]).toContain(today);
  });
});
