/**
 * The back office's reports (issue 16), on both engines: the figures of every report exact on
 * records inserted here (in 2012, before any demo record), per lead source and Swiss month, with
 * the boundaries of Swiss days and months; the conversion lead → appointment → closure; who may
 * run which report (403); bad input (400/422 naming the field); the CSV and XLSX exports read back
 * to the same figures, headers in the user's language.
 */
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EXTERNAL_USER } from '../../server/demo/identity.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';

const BACKOFFICE = 'backoffice@demo.gscrm.ch';
const CALLCENTER = 'callcenter@demo.gscrm.ch';
const Q1 = 'from=2012-01-01&until=2012-03-31';

type Figures = Record<string, number>;
interface ReportAnswer {
  kind: string;
  date_basis: string;
  measures: string[];
  months: string[];
  sources: Array<{ id: number | null; name: string | null }>;
  rows: Array<Figures & { lead_source: number | null; month: string }>;
  by_source: Array<Figures & { lead_source: number | null }>;
  by_month: Array<Figures & { month: string }>;
  totals: Figures;
}

let t: TestApp;
/** The two lead sources of the test: alpha seen by everyone, beta hidden from the back office. */
let alpha: number;
let beta: number;
const customers: Record<string, number> = {};
const leads: Record<string, number> = {};

const get = (url: string, as: string) => t.request({ method: 'GET', url, as });

async function report(kind: string, query: string, as = ADMIN): Promise<ReportAnswer> {
  const response = await get(`/api/reports/${kind}?${query}`, as);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { data: ReportAnswer }).data;
}

/** The figures of one lead source (by_source), without the key. */
function ofSource(answer: ReportAnswer, id: number | null): Figures | undefined {
  const row = answer.by_source.find((candidate) => candidate.lead_source === id);
  if (!row) return undefined;
  const { lead_source: _source, ...figures } = row;
  return figures;
}

/** The rows as `<source>|<month>` → figures. */
function cells(answer: ReportAnswer): Record<string, Figures> {
  return Object.fromEntries(
    answer.rows.map(({ lead_source, month, ...figures }) => [
      `${lead_source === alpha ? 'alpha' : lead_source === beta ? 'beta' : lead_source}|${month}`,
      figures,
    ]),
  );
}

/** The error keys of a refusal by field. */
function refusal(response: LightMyRequestResponse, status: number): Record<string, string[]> {
  expect(response.statusCode, response.body).toBe(status);
  const answer = response.json() as { error_keys?: Record<string, Array<{ message: string }>> };
  return Object.fromEntries(
    Object.entries(answer.error_keys ?? {}).map(([field, keys]) => [
      field,
      keys.map((key) => key.message),
    ]),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  const source = async (name: string, roles: string[]) =>
    Number(
      (
        await db
          .insertInto('lead_sources')
          .values({ name_de: name, group: 'other', visible_roles: JSON.stringify(roles) })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  alpha = await source('Reportquelle Alpha', ['BACKOFFICE-CALLCENTER']);
  beta = await source('Reportquelle Beta', ['ADMIN', 'CONSULTANT']);

  // Customers: created_at in UTC; the comments give the Swiss day (CET +1 until 25 March 2012,
  // CEST +2 after).
  const customer = async (
    key: string,
    leadSource: number | null,
    createdAt: string,
    company = false,
  ) => {
    const row = await db
      .insertInto('customers')
      .values({
        first_name: 'Report',
        last_name: `Kunde ${key}`,
        organization: company ? `Report AG ${key}` : null,
        is_company: company,
        lead_source: leadSource,
        created_at: new Date(createdAt),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    customers[key] = Number(row.id);
  };
  await customer('c1', alpha, '2012-01-10T10:00:00Z'); // January
  await customer('c2', alpha, '2012-01-31T23:30:00Z', true); // 1 February 00:30
  await customer('c3', alpha, '2012-02-15T12:00:00Z');
  await customer('c4', beta, '2012-02-20T12:00:00Z');
  await customer('c5', null, '2012-03-05T12:00:00Z');
  await customer('c6', alpha, '2011-12-31T22:59:00Z'); // 31 December 23:59: before the range
  await customer('c7', alpha, '2012-03-31T22:30:00Z'); // 1 April 00:30 (CEST): after it

  // Contracts (product 10): the lead source is the customer's.
  const contract = async (
    customerKey: string,
    type: 'closure' | 'non-closure',
    signingDate: string | null,
    createdAt: string,
    premium: number | null,
  ) =>
    db
      .insertInto('contracts')
      .values({
        customer_id: customers[customerKey],
        contract_type: type,
        product_id: 10,
        signing_date: signingDate,
        annual_premium: premium,
        created_at: new Date(createdAt),
      })
      .execute();
  await contract('c1', 'closure', '2012-02-10', '2012-06-01T10:00:00Z', 1200.5); // k1
  await contract('c3', 'non-closure', null, '2012-03-10T12:00:00Z', 999); // k2
  await contract('c4', 'closure', '2012-01-05', '2012-01-05T09:00:00Z', 800); // k3
  await contract('c1', 'closure', '2011-12-20', '2012-01-15T10:00:00Z', 300); // k4
  await contract('c3', 'closure', '2011-11-01', '2011-11-02T10:00:00Z', 50); // k5: before lead L2
  await contract('c4', 'closure', null, '2012-05-01T10:00:00Z', 70); // k6: after lead L4
  await contract('c6', 'closure', '2012-05-01', '2012-05-01T10:00:00Z', 60); // k7

  const lead = async (
    key: string,
    leadSource: number,
    createdAt: string,
    customerKey: string | null,
  ) => {
    const row = await db
      .insertInto('leads')
      .values({
        last_name: `Lead ${key}`,
        lead_source: leadSource,
        customer_id: customerKey ? customers[customerKey] : null,
        status: 'new',
        created_at: new Date(createdAt),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    leads[key] = Number(row.id);
  };
  await lead('L1', alpha, '2012-01-05T10:00:00Z', 'c1');
  await lead('L2', alpha, '2012-02-01T10:00:00Z', null);
  await lead('L3', alpha, '2012-02-15T10:00:00Z', null);
  await lead('L4', beta, '2012-03-01T10:00:00Z', 'c4');
  await lead('L5', alpha, '2012-04-01T10:00:00Z', null); // after the range
  await lead('L6', alpha, '2012-03-20T10:00:00Z', 'c6'); // a closure later, but no appointment

  const appointment = async (
    clientKey: string,
    leadKey: string | null,
    createdAt: string,
    start: string,
    status: number,
  ) => {
    const startAt = new Date(start);
    const row = await db
      .insertInto('appointments')
      .values({
        client_id: customers[clientKey],
        lead_id: leadKey ? leads[leadKey] : null,
        created_at: new Date(createdAt),
        date_start: startAt,
        date_end: new Date(startAt.getTime() + 3600_000),
        status,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  };
  await appointment('c1', null, '2012-01-20T10:00:00Z', '2012-04-02T08:00:00Z', 2); // a1
  await appointment('c1', 'L1', '2012-01-06T10:00:00Z', '2012-01-12T09:00:00Z', 10); // a2
  const a3 = await appointment('c3', null, '2012-02-03T10:00:00Z', '2012-02-10T09:00:00Z', 5);
  await appointment('c4', 'L4', '2012-03-02T10:00:00Z', '2012-03-31T22:30:00Z', 3); // a4: 1 April
  await appointment('c2', 'L4', '2012-02-25T10:00:00Z', '2012-02-28T10:00:00Z', 6); // a5
  // L2 names its appointment (a3) without a3 naming it.
  await db.updateTable('leads').set({ appointment_id: a3 }).where('id', '=', leads.L2).execute();
});

afterAll(async () => {
  await t?.close();
});

describe('the figures', () => {
  it('clients: created in the Swiss days from..until, per lead source and Swiss month', async () => {
    const answer = await report('clients', Q1);
    expect(answer.measures).toEqual(['count', 'companies']);
    expect(answer.months).toEqual(['2012-01', '2012-02', '2012-03']);
    expect(cells(answer)).toEqual({
      'alpha|2012-01': { count: 1, companies: 0 },
      'alpha|2012-02': { count: 2, companies: 1 },
      'beta|2012-02': { count: 1, companies: 0 },
      'null|2012-03': { count: 1, companies: 0 },
    });
    expect(ofSource(answer, alpha)).toEqual({ count: 3, companies: 1 });
    expect(answer.by_month).toEqual([
      { month: '2012-01', count: 1, companies: 0 },
      { month: '2012-02', count: 3, companies: 1 },
      { month: '2012-03', count: 1, companies: 0 },
    ]);
    expect(answer.totals).toEqual({ count: 5, companies: 1 });
    // Names of the sources, sorted; records without a source last.
    expect(answer.sources).toEqual([
      { id: alpha, name: 'Reportquelle Alpha' },
      { id: beta, name: 'Reportquelle Beta' },
      { id: null, name: null },
    ]);
  });

  it('a lead-source filter keeps only those sources; the range keeps its empty months', async () => {
    const answer = await report('clients', `${Q1}&lead_sources=${alpha}`);
    expect(answer.totals).toEqual({ count: 3, companies: 1 });
    expect(answer.by_month.map((row) => row.count)).toEqual([1, 2, 0]);
    expect(answer.sources.map((source) => source.id)).toEqual([alpha]);
    // One day: the Swiss 1 February holds the customer created at 23:30 UTC on 31 January.
    const day = await report('clients', `from=2012-02-01&until=2012-02-01&lead_sources=${alpha}`);
    expect(day.totals.count).toBe(1);
    expect(day.months).toEqual(['2012-02']);
  });

  it('contracts: by signing date (else the day entered) or by the day entered', async () => {
    const sources = `lead_sources=${alpha}&lead_sources=${beta}`;
    const signing = await report('contracts', `${Q1}&${sources}`);
    expect(signing.date_basis).toBe('signing');
    expect(cells(signing)).toEqual({
      'alpha|2012-02': { count: 1, closures: 1, non_closures: 0, closure_premium: 1200.5 },
      'alpha|2012-03': { count: 1, closures: 0, non_closures: 1, closure_premium: 0 },
      'beta|2012-01': { count: 1, closures: 1, non_closures: 0, closure_premium: 800 },
    });
    expect(signing.totals).toEqual({
      count: 3,
      closures: 2,
      non_closures: 1,
      closure_premium: 2000.5,
    });
    const created = await report('contracts', `${Q1}&${sources}&date_basis=created`);
    expect(cells(created)).toEqual({
      'alpha|2012-01': { count: 1, closures: 1, non_closures: 0, closure_premium: 300 },
      'alpha|2012-03': { count: 1, closures: 0, non_closures: 1, closure_premium: 0 },
      'beta|2012-01': { count: 1, closures: 1, non_closures: 0, closure_premium: 800 },
    });
    expect(created.totals.closure_premium).toBe(1100);
  });

  it("appointments: by date entered or appointment date; the lead's source before the client's", async () => {
    const sources = `lead_sources=${alpha}&lead_sources=${beta}`;
    const created = await report('appointments', `${Q1}&${sources}`);
    expect(created.date_basis).toBe('created');
    expect(cells(created)).toEqual({
      'alpha|2012-01': { count: 2, from_leads: 1, took_place: 2, cancelled: 0 },
      'alpha|2012-02': { count: 1, from_leads: 0, took_place: 0, cancelled: 1 },
      // a5: the client's source is alpha, the lead's (L4) beta.
      'beta|2012-02': { count: 1, from_leads: 1, took_place: 0, cancelled: 1 },
      'beta|2012-03': { count: 1, from_leads: 1, took_place: 0, cancelled: 0 },
    });
    expect(created.totals).toEqual({ count: 5, from_leads: 3, took_place: 2, cancelled: 2 });
    const held = await report('appointments', `${Q1}&${sources}&date_basis=appointment`);
    expect(held.date_basis).toBe('appointment');
    // a4 starts at 00:30 on 1 April in Switzerland, a1 on 2 April: both after the range.
    expect(cells(held)).toEqual({
      'alpha|2012-01': { count: 1, from_leads: 1, took_place: 1, cancelled: 0 },
      'alpha|2012-02': { count: 1, from_leads: 0, took_place: 0, cancelled: 1 },
      'beta|2012-02': { count: 1, from_leads: 1, took_place: 0, cancelled: 1 },
    });
    const april = await report(
      'appointments',
      `from=2012-04-01&until=2012-04-01&${sources}&date_basis=appointment`,
    );
    expect(april.totals.count).toBe(1);
  });

  it('leads: the conversion lead → appointment → closure per lead source', async () => {
    const answer = await report('leads', `${Q1}&lead_sources=${alpha}&lead_sources=${beta}`);
    expect(answer.measures).toEqual(['count', 'with_appointment', 'with_closure']);
    expect(cells(answer)).toEqual({
      // L1: booked (a2), and c1's closure k1 is signed after the lead.
      'alpha|2012-01': { count: 1, with_appointment: 1, with_closure: 1 },
      // L2: names a3; c3's only closure (k5) is older than the lead. L3: nothing.
      'alpha|2012-02': { count: 2, with_appointment: 1, with_closure: 0 },
      // L6: its customer signs a closure later, but no appointment came from it.
      'alpha|2012-03': { count: 1, with_appointment: 0, with_closure: 0 },
      // L4: two appointments; c4's closure k6 entered after it (k3 was before).
      'beta|2012-03': { count: 1, with_appointment: 1, with_closure: 1 },
    });
    expect(ofSource(answer, alpha)).toEqual({ count: 4, with_appointment: 2, with_closure: 1 });
    expect(ofSource(answer, beta)).toEqual({ count: 1, with_appointment: 1, with_closure: 1 });
    expect(answer.totals).toEqual({ count: 5, with_appointment: 3, with_closure: 2 });
  });
});

describe('who may run which report', () => {
  it('answers 403 to consultants, to back-office accounts for reports not listed, to external users', async () => {
    expect((await get(`/api/reports/clients?${Q1}`, CONSULTANT)).statusCode).toBe(403);
    expect((await get(`/api/reports/clients/export?${Q1}`, CONSULTANT)).statusCode).toBe(403);
    // The demo back office runs clients and contracts; the call centre none.
    expect((await get(`/api/reports/clients?${Q1}`, BACKOFFICE)).statusCode).toBe(200);
    expect((await get(`/api/reports/contracts?${Q1}`, BACKOFFICE)).statusCode).toBe(200);
    expect((await get(`/api/reports/leads?${Q1}`, BACKOFFICE)).statusCode).toBe(403);
    expect((await get(`/api/reports/appointments/export?${Q1}`, BACKOFFICE)).statusCode).toBe(403);
    expect((await get(`/api/reports/clients?${Q1}`, CALLCENTER)).statusCode).toBe(403);
    // A user without reports learns nothing from the validation either.
    expect((await get('/api/reports/nothing?from=bad', CALLCENTER)).statusCode).toBe(403);
    expect((await get(`/api/reports/clients?${Q1}`, DEMO_EXTERNAL_USER.email)).statusCode).toBe(
      403,
    );
    expect((await t.request({ method: 'GET', url: `/api/reports/clients?${Q1}` })).statusCode).toBe(
      401,
    );
  });

  it("follows a change of the account's reports at once, and tells the browser", async () => {
    await t.app.db
      .updateTable('users')
      .set({ reports: JSON.stringify(['leads']) })
      .where('email', '=', CALLCENTER)
      .execute();
    try {
      expect((await get(`/api/reports/leads?${Q1}`, CALLCENTER)).statusCode).toBe(200);
      expect((await get(`/api/reports/clients?${Q1}`, CALLCENTER)).statusCode).toBe(403);
      const me = await get('/api/auth/me', CALLCENTER);
      expect(me.json().data.reports).toEqual(['leads']);
    } finally {
      await t.app.db
        .updateTable('users')
        .set({ reports: JSON.stringify([]) })
        .where('email', '=', CALLCENTER)
        .execute();
    }
    expect((await get(`/api/reports/leads?${Q1}`, CALLCENTER)).statusCode).toBe(403);
    expect((await get('/api/auth/me', ADMIN)).json().data.reports).toEqual([
      'clients',
      'contracts',
      'appointments',
      'leads',
    ]);
    expect((await get('/api/auth/me', CONSULTANT)).json().data.reports).toEqual([]);
  });

  it('counts only the lead sources the user may see; naming a hidden one is 422', async () => {
    // The call centre sees Alpha (its role is named) but not Beta; the back office manages lead
    // sources (manage-companies) and sees both, as on the lead sources screen.
    await t.app.db
      .updateTable('users')
      .set({ reports: JSON.stringify(['clients']) })
      .where('email', '=', CALLCENTER)
      .execute();
    try {
      const answer = await report('clients', Q1, CALLCENTER);
      expect(cells(answer)).toEqual({
        'alpha|2012-01': { count: 1, companies: 0 },
        'alpha|2012-02': { count: 2, companies: 1 },
        'null|2012-03': { count: 1, companies: 0 },
      });
      expect(answer.totals.count).toBe(4);
      const hidden = await get(`/api/reports/clients?${Q1}&lead_sources=${beta}`, CALLCENTER);
      expect(refusal(hidden, 422)).toEqual({ lead_sources: ['app.errors.leadSourceHidden'] });
    } finally {
      await t.app.db
        .updateTable('users')
        .set({ reports: JSON.stringify([]) })
        .where('email', '=', CALLCENTER)
        .execute();
    }
    const office = await report('clients', Q1, BACKOFFICE);
    expect(Object.keys(cells(office)).some((key) => key.startsWith('beta|'))).toBe(true);
    expect(office.totals.count).toBeGreaterThan(4);
    const named = await get(`/api/reports/clients?${Q1}&lead_sources=${beta}`, BACKOFFICE);
    expect(named.statusCode, named.body).toBe(200);
  });
});

describe('bad input', () => {
  it('answers 400 naming a malformed field, 422 naming one that does not fit', async () => {
    const url = (query: string, kind = 'clients') => `/api/reports/${kind}?${query}`;
    expect(Object.keys(refusal(await get(url('from=2012-13-01'), ADMIN), 400))).toEqual(['from']);
    expect(Object.keys(refusal(await get(url('until=yesterday'), ADMIN), 400))).toEqual(['until']);
    expect(Object.keys(refusal(await get(url('lead_sources=abc'), ADMIN), 400))).toEqual([
      'lead_sources',
    ]);
    expect(Object.keys(refusal(await get(url('lead_sources=0'), ADMIN), 400))).toEqual([
      'lead_sources',
    ]);
    expect(Object.keys(refusal(await get(url('date_basis=closing'), ADMIN), 400))).toEqual([
      'date_basis',
    ]);
    expect(Object.keys(refusal(await get(url('color=red'), ADMIN), 400))).toEqual(['color']);
    expect(Object.keys(refusal(await get(url('', 'everything'), ADMIN), 400))).toEqual(['kind']);
    expect(
      Object.keys(refusal(await get(`/api/reports/leads/export?format=pdf`, ADMIN), 400)),
    ).toEqual(['format']);

    expect(refusal(await get(url('from=2012-03-01&until=2012-02-28'), ADMIN), 422)).toEqual({
      until: ['app.errors.notBeforeFrom'],
    });
    expect(refusal(await get(url('date_basis=appointment'), ADMIN), 422)).toEqual({
      date_basis: ['app.errors.enum'],
    });
    expect(refusal(await get(url('lead_sources=2000000000'), ADMIN), 422)).toEqual({
      lead_sources: ['app.errors.unknownReference'],
    });
    expect(
      refusal(await get(`/api/reports/leads/export?from=2012-03-01&until=2012-02-01`, ADMIN), 422),
    ).toEqual({ until: ['app.errors.notBeforeFrom'] });
  });
});

describe('the exports', () => {
  it('CSV: one line per lead source and month and the totals, the same figures', async () => {
    const filter = `${Q1}&lead_sources=${alpha}&lead_sources=${beta}`;
    const answer = await report('leads', filter);
    const response = await get(`/api/reports/leads/export?format=csv&${filter}`, ADMIN);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /attachment; filename="report-leads-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    expect(response.body.charCodeAt(0)).toBe(0xfeff);
    const lines = parse(response.body.slice(1), { delimiter: ';' }) as string[][];
    expect(lines[0]).toEqual(['Lead-Quelle', 'Monat', 'Leads', 'mit Termin', 'mit Abschluss']);
    const name = (id: number | null) => answer.sources.find((source) => source.id === id)?.name;
    expect(lines.slice(1, -1)).toEqual(
      answer.rows.map((row) => [
        name(row.lead_source),
        row.month,
        String(row.count),
        String(row.with_appointment),
        String(row.with_closure),
      ]),
    );
    expect(lines[lines.length - 1]).toEqual(['Total', '', '5', '3', '2']);
  });

  it('CSV in another language, amounts with two decimals, records without a source named', async () => {
    const response = await get(
      `/api/reports/contracts/export?format=csv&language=fr&${Q1}&date_basis=created`,
      ADMIN,
    );
    expect(response.statusCode, response.body).toBe(200);
    const lines = parse(response.body.slice(1), { delimiter: ';' }) as string[][];
    expect(lines[0]).toEqual([
      'Source du lead',
      'Mois',
      'Contrats',
      'Conclusions',
      'Non-conclusions',
      'Prime annuelle des conclusions (CHF)',
    ]);
    expect(lines).toContainEqual(['Reportquelle Alpha', '2012-01', '1', '1', '0', '300.00']);
    const clients = await get(`/api/reports/clients/export?language=en&${Q1}`, ADMIN);
    const clientLines = parse(clients.body.slice(1), { delimiter: ';' }) as string[][];
    expect(clientLines[0]).toEqual(['Lead source', 'Month', 'New customers', 'of which companies']);
    expect(clientLines).toContainEqual(['No lead source', '2012-03', '1', '0']);
    expect(clientLines[clientLines.length - 1]).toEqual(['Total', '', '5', '1']);
  });

  it('XLSX: by lead source (with the rates), by month and the lines, the same figures', async () => {
    const filter = `${Q1}&lead_sources=${alpha}&lead_sources=${beta}`;
    const answer = await report('leads', filter);
    const response = await get(`/api/reports/leads/export?format=xlsx&${filter}`, ADMIN);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers['content-disposition']).toMatch(/filename="report-leads-.*\.xlsx"/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      'Nach Lead-Quelle',
      'Nach Monat',
      'Lead-Quelle und Monat',
    ]);
    const values = (sheet: ExcelJS.Worksheet) => {
      const rows: unknown[][] = [];
      sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      return rows;
    };
    const [bySource, byMonth, detail] = workbook.worksheets.map(values);
    expect(bySource[0]).toEqual([
      'Lead-Quelle',
      'Leads',
      'mit Termin',
      'mit Abschluss',
      'Terminquote',
      'Abschlussquote',
    ]);
    expect(workbook.worksheets[0].getRow(1).font?.bold).toBe(true);
    expect(bySource.slice(1)).toEqual([
      ['Reportquelle Alpha', 4, 2, 1, 0.5, 0.5],
      ['Reportquelle Beta', 1, 1, 1, 1, 1],
      ['Total', 5, 3, 2, 0.6, 2 / 3],
    ]);
    expect(workbook.worksheets[0].getColumn(5).numFmt).toBe('0.0%');
    expect(byMonth.slice(1).map((row) => row.slice(0, 4))).toEqual([
      ...answer.by_month.map((row) => [
        row.month,
        row.count,
        row.with_appointment,
        row.with_closure,
      ]),
      ['Total', 5, 3, 2],
    ]);
    expect(detail.slice(1, -1)).toEqual(
      answer.rows.map((row) => [
        answer.sources.find((source) => source.id === row.lead_source)?.name,
        row.month,
        row.count,
        row.with_appointment,
        row.with_closure,
      ]),
    );
  });

  it('XLSX of contracts: the premium a number in CHF format', async () => {
    const response = await get(
      `/api/reports/contracts/export?format=xlsx&${Q1}&lead_sources=${alpha}&lead_sources=${beta}`,
      ADMIN,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(2).values).toEqual([undefined, 'Reportquelle Alpha', 2, 1, 1, 1200.5]);
    expect(sheet.getColumn(5).numFmt).toBe('#,##0.00');
    expect(sheet.getRow(4).getCell(5).value).toBe(2000.5);
  });
});
