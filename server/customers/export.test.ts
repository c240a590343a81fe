/** Times in the customer export are Swiss local time (./export.ts). */
import { describe, expect, it } from 'vitest';
import { exportDate, exportFileName, exportTimestamp, startOfDay } from './export.ts';

describe('export times', () => {
  it('write timestamps as Zurich local time with the offset, winter and summer', () => {
    expect(exportTimestamp(new Date('2026-11-22T16:11:22Z'))).toBe('2026-11-22T17:11:22+01:00');
    expect(exportTimestamp('2026-07-01T22:30:00.000Z')).toBe('2026-07-02T00:30:00+02:00');
  });

  it('write dates as dd.mm.yyyy on their calendar day', () => {
    expect(exportDate('1967-03-23')).toBe('23.03.1967');
    expect(exportDate(new Date('1985-12-31T00:00:00Z'))).toBe('31.12.1985');
    expect(exportDate(null)).toBe('');
  });

  it('filter by Swiss days: midnight in Zurich, across the change to summer time', () => {
    expect(startOfDay('2026-01-15').toISOString()).toBe('2026-01-14T23:00:00.000Z');
    expect(startOfDay('2026-07-15').toISOString()).toBe('2026-07-14T22:00:00.000Z');
    expect(startOfDay('2026-03-28', 1).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfDay('2026-03-29', 1).toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });

  it("name the file by the export's Swiss date", () => {
    expect(exportFileName(new Date('2026-12-31T23:30:00Z'))).toBe('customers-2027-01-01.csv');
  });
});
