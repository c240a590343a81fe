/**
 * The reports page's pure pieces (./model.ts) and who runs which report (src/schema/reports.ts).
 */
import { describe, expect, it } from 'vitest';
import { REPORT_KINDS, reportsOf } from '../../schema/reports.ts';
import {
  CHART_SOURCES,
  chartSeries,
  defaultPeriod,
  measureOf,
  monthLabel,
  type ReportAnswer,
  reportQuery,
} from './model.ts';

describe('reportsOf', () => {
  it('gives ADMIN every report, the back office those listed, everyone else none', () => {
    expect(reportsOf('ADMIN', [], false)).toEqual([...REPORT_KINDS]);
    expect(reportsOf('BACKOFFICE', ['leads', 'clients', 'bogus'], false)).toEqual([
      'clients',
      'leads',
    ]);
    expect(reportsOf('BACKOFFICE-CALLCENTER', ['appointments'], false)).toEqual(['appointments']);
    expect(reportsOf('BACKOFFICE', null, false)).toEqual([]);
    expect(reportsOf('CONSULTANT', ['clients'], false)).toEqual([]);
    expect(reportsOf('ADMIN', ['clients'], true)).toEqual([]);
  });
});

describe('the query', () => {
  it('names the period, the basis the kind offers and every lead source', () => {
    const query = reportQuery({
      kind: 'appointments',
      from: '2026-01-01',
      until: '2026-03-31',
      basis: 'appointment',
      sources: [3, 7],
    });
    expect(query.toString()).toBe(
      'from=2026-01-01&until=2026-03-31&date_basis=appointment&lead_sources=3&lead_sources=7',
    );
    // A basis the kind does not offer is left out (the server's default applies).
    expect(
      reportQuery({
        kind: 'clients',
        from: '',
        until: '',
        basis: 'appointment',
        sources: [],
      }).toString(),
    ).toBe('');
  });

  it('defaults to the last twelve months, from the first of the month', () => {
    expect(defaultPeriod('2026-11-28')).toEqual({ from: '2025-12-01', until: '2026-11-28' });
    expect(defaultPeriod('2026-01-31')).toEqual({ from: '2025-02-01', until: '2026-01-31' });
  });

  it('reads the measures of the answer', () => {
    expect(measureOf('with_appointment')).toBe('withAppointment');
    expect(measureOf('count')).toBe('count');
  });
});

describe('the chart', () => {
  const answer = (sources: number): ReportAnswer => {
    const ids = Array.from({ length: sources }, (_, at) => at + 1);
    const rows = ids.flatMap((id) => [
      { leadSource: id, month: '2026-01', count: id },
      { leadSource: id, month: '2026-03', count: 1 },
    ]);
    return {
      kind: 'clients',
      dateBasis: 'created',
      from: '2026-01-01',
      until: '2026-03-31',
      measures: ['count', 'companies'],
      months: ['2026-01', '2026-02', '2026-03'],
      sources: ids.map((id) => ({ id, name: `S${id}` })),
      rows,
      bySource: ids.map((id) => ({ leadSource: id, count: id + 1 })),
      byMonth: [],
      totals: {},
    };
  };

  it('has one series per lead source, largest first, each month in order (empty ones 0)', () => {
    expect(chartSeries(answer(3), 'count')).toEqual([
      { id: '3', sourceIds: [3], data: [3, 0, 1] },
      { id: '2', sourceIds: [2], data: [2, 0, 1] },
      { id: '1', sourceIds: [1], data: [1, 0, 1] },
    ]);
  });

  it('sums the smallest sources into one series beyond CHART_SOURCES', () => {
    const series = chartSeries(answer(CHART_SOURCES + 2), 'count');
    expect(series).toHaveLength(CHART_SOURCES);
    const others = series[series.length - 1];
    expect(others.id).toBe('others');
    expect(others.sourceIds).toEqual([3, 2, 1]);
    expect(others.data).toEqual([6, 0, 3]);
    // Every record is in one series.
    const total = series.reduce((sum, entry) => sum + entry.data.reduce((a, b) => a + b, 0), 0);
    const expected = answer(CHART_SOURCES + 2).rows.reduce((sum, row) => sum + (row.count ?? 0), 0);
    expect(total).toBe(expected);
  });

  it('names months in the user language', () => {
    expect(monthLabel('2026-03', 'de')).toMatch(/^März 26$/);
    expect(monthLabel('2026-03', 'en')).toMatch(/^Mar 26$/);
  });
});
