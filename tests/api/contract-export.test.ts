/**
 * Contract exports (issue 14), on both engines: `GET /api/contracts/export` (the current list as
 * CSV, contract-simple-export) and `GET /api/contracts/report` (the export page, CSV or XLSX,
 * contract-export-page) — the rows are exactly the list's (filters, search, assignment, date
 * ranges, sort), values readable in the user's language, a consultant exports only what it sees,
 * and the permissions are enforced.
 */
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';

const BACKOFFICE = 'backoffice@demo.gscrm.ch';
const CALLCENTER = 'callcenter@demo.gscrm.ch';
const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
let t: TestApp;
let mine: number;
let customerId: number;

/** The CSV's records (BOM removed), header first. */
function csvRows(body: string): string[][] {
  expect(body.charCodeAt(0)).toBe(0xfeff);
  return parse(body.slice(1), { delimiter: ';' }) as string[][];
}

const get = (url: string, as: string) => t.request({ method: 'GET', url, as });

/** Ids of the list with the same parameters (per_page 500: the filters keep it under a page). */
async function listIds(query: string, as: string): Promise<number[]> {
  const response = await get(`/api/contracts?per_page=500&${query}`, as);
  expect(response.statusCode, response.body).toBe(200);
  const answer = response.json() as { data: Array<{ id: number }>; meta: { total: number } };
  expect(answer.meta.total).toBeLessThanOrEqual(500);
  return answer.data.map((row) => row.id);
}

const column = (rows: string[][], label: string) => {
  const at = rows[0].indexOf(label);
  expect(at, `column ${label} in ${rows[0].join(' | ')}`).toBeGreaterThanOrEqual(0);
  return rows.slice(1).map((row) => row[at]);
};

beforeAll(async () => {
  t = await createTestApp();
  // consultant@ may export the list (an additional permission); consultant2@ may not.
  await t.app.db
    .updateTable('users')
    .set({ additional_permissions: JSON.stringify(['contract-simple-export']) })
    .where('email', '=', CONSULTANT)
    .execute();
  const created = await t.request({
    method: 'POST',
    url: '/api/customers',
    as: CONSULTANT,
    payload: { first_name: 'Xaver', last_name: 'Exportmann' },
  });
  expect(created.statusCode, created.body).toBe(201);
  customerId = created.json().data.id;
  const css = await t.app.db
    .selectFrom('companies')
    .select('id')
    .where('name_de', '=', 'CSS')
    .executeTakeFirstOrThrow();
  const row = await t.app.db
    .insertInto('contracts')
    .values({
      customer_id: customerId,
      contract_type: 'closure',
      product_id: 1,
      product_group: 'health',
      company_id: Number(css.id),
      contract_number: 'EXP-1',
      status: 'active',
      payment_cycle: 'monthly',
      signing_date: '2019-11-20',
      start_date: '2020-01-01',
      insurance: JSON.stringify({
        sub_product_id: 2,
        sub_product_variant_id: 6,
        deductible: 1000,
        premium: 400,
      }),
      supplementary_insurances: JSON.stringify([{ sub_product_id: 7, premium_month: 25.5 }]),
      annual_premium: 5106,
      production_sum: 5106,
      total_commission: 70,
      protocol_missing: true,
      note: 'Semikolon; und "Anführungszeichen"',
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  mine = Number(row.id);
});

afterAll(async () => {
  await t?.close();
});

describe('GET /api/contracts/export (the current list as CSV)', () => {
  it('answers the rows of the list with its filters, one per contract, as a CSV download', async () => {
    const query = 'contract_type=closure&product_id=1';
    const response = await get(`/api/contracts/export?${query}`, ADMIN);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="contracts-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = csvRows(response.body);
    const ids = column(rows, 'ID').map(Number);
    expect(ids.length).toBeGreaterThan(10);
    expect(new Set(ids)).toEqual(new Set(await listIds(query, ADMIN)));
    // The list's default order (created desc, then id desc).
    expect(ids).toEqual(await listIds(query, ADMIN));
  });

  it('answers readable values in the user language', async () => {
    const rows = csvRows((await get(`/api/contracts/export?id=${mine}`, ADMIN)).body);
    expect(rows).toHaveLength(2);
    const value = (label: string) => column(rows, label)[0];
    expect(value('Vertragsnummer')).toBe('EXP-1');
    expect(value('Kunde')).toBe('Xaver Exportmann');
    expect(value('Produkt')).toBe('Grundversicherung (KVG)');
    expect(value('Produktgruppe')).toBe('Gesundheit');
    expect(value('Modell / Teilprodukt')).toBe('Hausarztmodell');
    expect(value('Variante')).toBe('Franchise CHF 1000');
    expect(value('Franchise (CHF)')).toBe('1000.00');
    expect(value('Zusatzversicherungen')).toBe('Zahnversicherung 25.50');
    expect(value('Versicherer')).toBe('CSS');
    expect(value('Status')).toBe('Aktiv');
    expect(value('Zahlungsweise')).toBe('Monatlich');
    expect(value('Unterschriftsdatum')).toBe('20.11.2019');
    expect(value('Beginn')).toBe('01.01.2020');
    expect(value('Ablauf')).toBe('');
    expect(value('Jahresprämie')).toBe('5106.00');
    expect(value('Beratungsprotokoll fehlt')).toBe('ja');
    expect(value('Notiz')).toBe('Semikolon; und "Anführungszeichen"');
    // The call centre (Italian) reads Italian labels and values.
    const italian = csvRows((await get(`/api/contracts/export?id=${mine}`, CALLCENTER)).body);
    expect(column(italian, 'Assicuratore')).toEqual(['CSS']);
    expect(column(italian, 'Prodotto')).toEqual(['Assicurazione di base (LAMal)']);
    // The language on screen, when the client names it.
    const french = csvRows((await get(`/api/contracts/export?id=${mine}&language=fr`, ADMIN)).body);
    expect(column(french, 'Assureur')).toEqual(['CSS']);
  });

  it('applies search, sort, date ranges and the assignment like the list', async () => {
    const search = csvRows((await get('/api/contracts/export?search=EXP-1', ADMIN)).body);
    expect(column(search, 'ID').map(Number)).toEqual([mine]);
    const query =
      'contract_type=closure&product_id=7&sort=start_date&order=asc&start_date_gte=2023-01-01';
    const sorted = csvRows((await get(`/api/contracts/export?${query}`, ADMIN)).body);
    const ids = column(sorted, 'ID').map(Number);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toEqual(await listIds(query, ADMIN));
    const starts = column(sorted, 'Beginn').map((d) => d.split('.').reverse().join('-'));
    expect([...starts].sort()).toEqual(starts);
    expect(starts.every((start) => start >= '2023-01-01')).toBe(true);
    const unassigned = csvRows(
      (await get('/api/contracts/export?assignment=unassigned&product_id=1', ADMIN)).body,
    );
    expect(column(unassigned, 'Berater').every((name) => name === '')).toBe(true);
    expect(column(unassigned, 'ID').map(Number)).toEqual(
      await listIds('assignment=unassigned&product_id=1', ADMIN),
    );
  });

  it('reads past one batch without skipping or repeating a row, by keys and by offset', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/customers',
      as: ADMIN,
      payload: { first_name: 'Berta', last_name: 'Vielvertrag' },
    });
    const bulkCustomer = created.json().data.id as number;
    // One statement: every row has the same created_at, so only the id orders them.
    const inserted = await t.app.db
      .insertInto('contracts')
      .values(
        Array.from({ length: 2300 }, (_, at) => ({
          customer_id: bulkCustomer,
          contract_type: 'closure',
          product_id: 13,
          product_group: 'property_casualty',
          status: 'active',
          start_date: at % 3 === 0 ? null : `20${10 + (at % 15)}-01-01`,
        })) as never,
      )
      .returning('id')
      .execute();
    const expected = inserted.map((row) => Number(row.id)).sort((a, b) => b - a);
    for (const sort of ['', '&sort=start_date&order=asc']) {
      const rows = csvRows(
        (await get(`/api/contracts/export?customer_id=${bulkCustomer}${sort}`, ADMIN)).body,
      );
      const ids = column(rows, 'ID').map(Number);
      expect(ids).toHaveLength(2300);
      expect(new Set(ids).size).toBe(2300);
      if (!sort) expect(ids).toEqual(expected);
    }
  });

  it('exports only the contracts the consultant sees', async () => {
    const query = 'product_id=1';
    const rows = csvRows((await get(`/api/contracts/export?${query}`, CONSULTANT)).body);
    const ids = column(rows, 'ID').map(Number);
    expect(ids).toContain(mine);
    expect(ids).toEqual(await listIds(query, CONSULTANT));
    const all = await listIds(query, ADMIN);
    expect(ids.length).toBeLessThan(all.length);
  });

  it('needs contract-simple-export, and offers CSV only', async () => {
    expect((await get('/api/contracts/export', CONSULTANT2)).statusCode).toBe(403);
    expect((await get('/api/contracts/export', 'employee@demo.gscrm.ch')).statusCode).toBe(403);
    expect((await get('/api/contracts/export?product_id=1', CALLCENTER)).statusCode).toBe(200);
    expect((await get('/api/contracts/export?format=xlsx', ADMIN)).statusCode).toBe(400);
    expect((await get('/api/contracts/export?status=bogus', ADMIN)).statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: '/api/contracts/export' })).statusCode).toBe(401);
  });
});

describe('GET /api/contracts/report (the export page: CSV or XLSX)', () => {
  it('answers an XLSX workbook with real dates and CHF amounts, the rows of the filters', async () => {
    const query =
      'contract_type=closure&product_id=1&signing_date_gte=2015-01-01&signing_date_lte=2022-12-31';
    const response = await t.request({
      method: 'GET',
      url: `/api/contracts/report?format=xlsx&${query}`,
      as: BACKOFFICE,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers['content-disposition']).toMatch(/filename="contracts-.*\.xlsx"/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.name).toBe('Verträge');
    const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    expect(header).toContain('Unterschriftsdatum');
    expect(sheet.getRow(1).font?.bold).toBe(true);
    const at = (label: string) => header.indexOf(label) + 1;
    const rows: ExcelJS.Row[] = [];
    sheet.eachRow((row, number) => {
      if (number > 1) rows.push(row);
    });
    const ids = rows.map((row) => Number(row.getCell(1).value));
    expect(ids.length).toBeGreaterThan(5);
    expect(ids).toEqual(await listIds(query, BACKOFFICE));
    const own = rows.find((row) => row.getCell(1).value === mine);
    expect(own).toBeDefined();
    // Real dates and numbers, formatted.
    const signing = own?.getCell(at('Unterschriftsdatum'));
    expect(signing?.value).toEqual(new Date('2019-11-20T00:00:00Z'));
    expect(signing?.numFmt).toBe('dd.mm.yyyy');
    const premium = own?.getCell(at('Jahresprämie'));
    expect(premium?.value).toBe(5106);
    expect(premium?.numFmt).toBe('#,##0.00');
    expect(own?.getCell(at('Versicherer')).value).toBe('CSS');
    expect(own?.getCell(at('Produkt')).value).toBe('Grundversicherung (KVG)');
    expect(own?.getCell(at('Notiz')).value).toBe('Semikolon; und "Anführungszeichen"');
    // Every row's signing date inside the range.
    for (const row of rows) {
      const value = row.getCell(at('Unterschriftsdatum')).value as Date;
      expect(
        value >= new Date('2015-01-01') && value <= new Date('2022-12-31'),
        String(value),
      ).toBe(true);
    }
  });

  it('answers CSV too, and needs contract-export-page', async () => {
    const csv = await get(`/api/contracts/report?format=csv&id=${mine}`, ADMIN);
    expect(csv.statusCode).toBe(200);
    expect(column(csvRows(csv.body), 'ID')).toEqual([String(mine)]);
    expect((await get('/api/contracts/report?format=xlsx', CALLCENTER)).statusCode).toBe(403);
    expect((await get('/api/contracts/report?format=xlsx', CONSULTANT)).statusCode).toBe(403);
    expect((await get('/api/contracts/report?format=pdf', ADMIN)).statusCode).toBe(400);
  });
});
