/**
 * Payouts (issue 17), on both engines: a payout gathers exactly its user's ready lines up to its
 * month (and freezes them), nothing to pay and a second payout of a month are refused, new →
 * approved → paid with the wrong steps refused (409), a frozen payout cannot be changed or
 * deleted, deleting a new one gives its lines back, the monthly run, who sees which payout and
 * statement, the statement PDF and the month's CSV/XLSX read back, and two payouts created at
 * once for one user never share a line. The ledger's lines are written here directly (the
 * engine is tested on its own), in months of 2001–2003, before any demo line.
 */
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';
import { expectSumsMatchLines } from './ledger-sums.ts';
import { pdfText } from './pdf-text.ts';

const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
const BACKOFFICE = 'backoffice@demo.gscrm.ch';

type Row = Record<string, unknown>;

let t: TestApp;
const users: Record<string, number> = {};

interface LineInput {
  user: string;
  period: string;
  amount: number;
  status?: string;
  kind?: string;
  contractNumber?: string;
  customerName?: string;
  explain?: Array<{ key: string; params?: Record<string, unknown> }>;
  reason?: string;
}

async function line(input: LineInput): Promise<number> {
  const row = await t.app.db
    .insertInto('commission_lines')
    .values({
      user_id: users[input.user],
      kind: input.kind ?? 'consultant',
      period: input.period,
      amount: input.amount,
      status: input.status ?? 'ready_present',
      contract_number: input.contractNumber ?? null,
      customer_name: input.customerName ?? null,
      explain: JSON.stringify(input.explain ?? []),
      reason: input.reason ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

const linesByIds = (ids: number[]) =>
  t.app.db
    .selectFrom('commission_lines')
    .select(['id', 'status', 'payout_id'])
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  as = ADMIN,
  payload?: object,
) => t.request({ method, url, as, ...(payload ? { payload } : {}) });

async function created(userEmail: string, period: string, note?: string): Promise<Row> {
  const response = await call('POST', '/api/payouts', ADMIN, {
    user_id: users[userEmail],
    period,
    ...(note ? { note } : {}),
  });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { data: Row }).data;
}

/** The error keys of a refusal by field ('_' for the answer's own key). */
function refusal(response: LightMyRequestResponse, status: number): Record<string, string[]> {
  expect(response.statusCode, response.body).toBe(status);
  const answer = response.json() as {
    key: string;
    error_keys?: Record<string, Array<{ message: string }>>;
  };
  return {
    _: [answer.key],
    ...Object.fromEntries(
      Object.entries(answer.error_keys ?? {}).map(([field, keys]) => [
        field,
        keys.map((key) => key.message),
      ]),
    ),
  };
}

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.app.db.selectFrom('users').select(['id', 'email']).execute();
  for (const row of rows) users[row.email] = Number(row.id);
});

afterAll(async () => {
  await t?.close();
});

describe('creating a payout', () => {
  it("gathers exactly the user's ready lines up to its month, frozen, with their total", async () => {
    const taken = [
      await line({ user: CONSULTANT, period: '2001-01', amount: 1000 }),
      await line({ user: CONSULTANT, period: '2001-02', amount: 2052, kind: 'bonus' }),
      await line({ user: CONSULTANT, period: '2001-02', amount: -300, kind: 'correction' }),
    ];
    const left = [
      await line({ user: CONSULTANT, period: '2001-03', amount: 500 }), // a later month
      await line({ user: CONSULTANT, period: '2001-01', amount: 700, status: 'pending' }),
      await line({ user: CONSULTANT, period: '2001-01', amount: 300, status: 'paid' }),
      await line({ user: CONSULTANT, period: '2001-01', amount: 400, status: 'reversed' }),
      await line({ user: CONSULTANT2, period: '2001-01', amount: 995 }), // someone else's
    ];
    const payout = await created(CONSULTANT, '2001-02', 'Februar');
    expect(payout).toMatchObject({
      user_id: users[CONSULTANT],
      period: '2001-02',
      status: 'new',
      // 1000 + 2052 - 300 = 2752 centimes, rounded to 0.05 CHF
      total: 2750,
      line_count: 3,
      note: 'Februar',
      approved_at: null,
      paid_at: null,
    });
    expect(await linesByIds(taken)).toEqual(
      taken.map((id) => ({ id, status: 'in_payout', payout_id: payout.id })),
    );
    const untouched = await linesByIds(left);
    expect(untouched.map((row) => [row.status, row.payout_id])).toEqual([
      ['ready_present', null],
      ['pending', null],
      ['paid', null],
      ['reversed', null],
      ['ready_present', null],
    ]);
    // The lines of the payout, as the ledger's list filters them.
    const list = await call('GET', `/api/commission-lines?payout_id=${String(payout.id)}`);
    if (list.statusCode === 200)
      expect((list.json() as { data: Row[] }).data.map((row) => row.id).sort()).toEqual(
        [...taken].sort(),
      );
  });

  it('is refused when the user has nothing ready up to that month (422 on user_id)', async () => {
    await line({ user: CONSULTANT2, period: '2000-06', amount: 800, status: 'pending' });
    await line({ user: CONSULTANT2, period: '2000-07', amount: 800 }); // after the month
    const response = await call('POST', '/api/payouts', ADMIN, {
      user_id: users[CONSULTANT2],
      period: '2000-06',
    });
    expect(refusal(response, 422)).toMatchObject({ user_id: ['app.errors.payoutNothingToPay'] });
    const count = await t.app.db
      .selectFrom('payouts')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', users[CONSULTANT2] as number)
      .where('period', '=', '2000-06')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('is refused for a month the user has a payout for (422 on period), lines left alone', async () => {
    const ready = await line({ user: CONSULTANT, period: '2001-02', amount: 150 });
    const response = await call('POST', '/api/payouts', ADMIN, {
      user_id: users[CONSULTANT],
      period: '2001-02',
    });
    expect(refusal(response, 422)).toMatchObject({ period: ['app.errors.payoutExists'] });
    expect(await linesByIds([ready])).toEqual([
      { id: ready, status: 'ready_present', payout_id: null },
    ]);
  });

  it('refuses an unknown user and a malformed month', async () => {
    expect(
      refusal(
        await call('POST', '/api/payouts', ADMIN, { user_id: 999999, period: '2001-02' }),
        422,
      ),
    ).toMatchObject({ user_id: ['app.errors.unknownReference'] });
    expect(
      (await call('POST', '/api/payouts', ADMIN, { user_id: users[CONSULTANT], period: '2001-13' }))
        .statusCode,
    ).toBe(422);
  });
});

describe('new → approved → paid', () => {
  it('approves, pays (its lines become paid) and refuses the wrong steps', async () => {
    const ids = [
      await line({ user: CONSULTANT2, period: '2001-04', amount: 12000 }),
      await line({ user: CONSULTANT2, period: '2001-04', amount: 3000, kind: 'team_lead' }),
    ];
    const payout = await created(CONSULTANT2, '2001-04');
    // With consultant2's lines of 2000-07 (800) and 2001-01 (995) left ready above.
    expect(payout).toMatchObject({ total: 12000 + 3000 + 800 + 995, line_count: 4 });
    const id = String(payout.id);

    // Paying a new payout: not yet.
    expect(refusal(await call('POST', `/api/payouts/${id}/pay`), 409)._).toEqual([
      'app.errors.payoutWrongStatus',
    ]);
    // The note may change while new; the person and the month may not.
    const noted = await call('PATCH', `/api/payouts/${id}`, ADMIN, { note: 'geprüft' });
    expect(noted.statusCode, noted.body).toBe(200);
    expect(noted.json()).toMatchObject({ data: { note: 'geprüft', status: 'new', total: 16795 } });
    expect(
      refusal(await call('PATCH', `/api/payouts/${id}`, ADMIN, { period: '2001-05' }), 422),
    ).toMatchObject({ period: ['app.errors.readOnly'] });
    // A stale version: 409 with the current record, nothing done.
    const stale = await call('POST', `/api/payouts/${id}/approve`, ADMIN, { version: 1 });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json()).toMatchObject({
      key: 'app.errors.versionConflict',
      current: { status: 'new' },
    });

    const approved = await call('POST', `/api/payouts/${id}/approve`, ADMIN, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.headers.etag).toBe(
      `"${String((approved.json() as { data: Row }).data.version)}"`,
    );
    const approvedRow = (approved.json() as { data: Row }).data;
    expect(approvedRow).toMatchObject({ status: 'approved', approved_by: users[ADMIN] });
    expect(typeof approvedRow.approved_at).toBe('string');
    expect(await linesByIds(ids)).toEqual(
      ids.map((line) => ({ id: line, status: 'in_payout', payout_id: payout.id })),
    );
    // Approved: frozen.
    expect(refusal(await call('POST', `/api/payouts/${id}/approve`), 409)._).toEqual([
      'app.errors.payoutWrongStatus',
    ]);
    const patch = await call('PATCH', `/api/payouts/${id}`, ADMIN, { note: 'später' });
    expect(refusal(patch, 409)._).toEqual(['app.errors.payoutFrozen']);
    expect(refusal(await call('DELETE', `/api/payouts/${id}`), 409)._).toEqual([
      'app.errors.payoutFrozen',
    ]);

    const paid = await t.request({
      method: 'POST',
      url: `/api/payouts/${id}/pay`,
      as: BACKOFFICE, // manage-commissions by the role
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect((paid.json() as { data: Row }).data).toMatchObject({
      status: 'paid',
      paid_by: users[BACKOFFICE],
      note: 'geprüft',
    });
    expect(await linesByIds(ids)).toEqual(
      ids.map((line) => ({ id: line, status: 'paid', payout_id: payout.id })),
    );
    expect(refusal(await call('POST', `/api/payouts/${id}/pay`), 409)._).toEqual([
      'app.errors.payoutWrongStatus',
    ]);
    expect(refusal(await call('DELETE', `/api/payouts/${id}`), 409)._).toEqual([
      'app.errors.payoutFrozen',
    ]);
    // Each step is in the payout's history, by the one who took it.
    const history = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'user_id', 'changes'])
      .where('resource', '=', 'payouts')
      .where('record_id', '=', id)
      .orderBy('id')
      .execute();
    expect(history.map((entry) => [entry.action, entry.user_id])).toEqual([
      ['create', users[ADMIN]],
      ['update', users[ADMIN]], // the note
      ['update', users[ADMIN]], // approved
      ['update', users[BACKOFFICE]], // paid
    ]);
  });

  it('answers 404 for a payout that does not exist', async () => {
    expect((await call('POST', '/api/payouts/999999/approve')).statusCode).toBe(404);
  });
});

describe('deleting a payout', () => {
  it('gives the lines of a new payout back, ready for the next one', async () => {
    const ids = [
      await line({ user: CONSULTANT2, period: '2001-06', amount: 500 }),
      await line({ user: CONSULTANT2, period: '2001-07', amount: 600 }),
    ];
    const payout = await created(CONSULTANT2, '2001-07');
    expect(payout.line_count).toBe(2);
    const removed = await call('DELETE', `/api/payouts/${String(payout.id)}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await call('GET', `/api/payouts/${String(payout.id)}`)).statusCode).toBe(404);
    expect(await linesByIds(ids)).toEqual(
      ids.map((id) => ({ id, status: 'ready_present', payout_id: null })),
    );
    // The month is free again and gathers the same lines.
    const again = await created(CONSULTANT2, '2001-07');
    expect(again).toMatchObject({ total: 1100, line_count: 2 });
  });
});

describe('the monthly run', () => {
  it('creates one payout per user with ready lines up to the month and none for it yet', async () => {
    const first = await line({ user: CONSULTANT, period: '2002-01', amount: 4000 });
    const second = await line({ user: CONSULTANT2, period: '2001-12', amount: 2500 });
    const later = await line({ user: CONSULTANT2, period: '2009-02', amount: 100 });
    // The consultant's ready line of 2001-03 (above) is up to 2002-01 too.
    const response = await call('POST', '/api/payouts/run', ADMIN, { period: '2002-01' });
    expect(response.statusCode, response.body).toBe(200);
    const answer = (response.json() as { data: { created: number; payouts: Row[] } }).data;
    expect(answer.created).toBe(2);
    const byUser = Object.fromEntries(answer.payouts.map((row) => [row.user_id, row]));
    expect(byUser[users[CONSULTANT] as number]).toMatchObject({
      period: '2002-01',
      status: 'new',
      total: 4000 + 500 + 150, // 2001-03's 500 and the 150 of 2001-02 left ready above
      line_count: 3,
    });
    expect(byUser[users[CONSULTANT2] as number]).toMatchObject({ total: 2500, line_count: 1 });
    const lines = await linesByIds([first, second, later]);
    expect(lines.map((row) => row.status)).toEqual(['in_payout', 'in_payout', 'ready_present']);
    // Again: nothing left to create for that month.
    const again = await call('POST', '/api/payouts/run', ADMIN, { period: '2002-01' });
    expect(again.json()).toEqual({ data: { created: 0, payouts: [] } });
    expect(
      (await call('POST', '/api/payouts/run', CONSULTANT, { period: '2002-01' })).statusCode,
    ).toBe(403);
    expect((await call('POST', '/api/payouts/run', ADMIN, { period: '2002' })).statusCode).toBe(
      422,
    );
  });
});

describe('who sees which payout', () => {
  it('shows a consultant their own payouts only; others are 404, writes 403', async () => {
    const list = await call('GET', '/api/payouts?per_page=500', CONSULTANT);
    expect(list.statusCode, list.body).toBe(200);
    const rows = (list.json() as { data: Row[] }).data;
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => row.user_id))).toEqual(new Set([users[CONSULTANT]]));
    const others = await t.app.db
      .selectFrom('payouts')
      .select('id')
      .where('user_id', '=', users[CONSULTANT2] as number)
      .executeTakeFirstOrThrow();
    const other = String(others.id);
    expect((await call('GET', `/api/payouts/${other}`, CONSULTANT)).statusCode).toBe(404);
    expect((await call('GET', `/api/payouts/${other}/statement.pdf`, CONSULTANT)).statusCode).toBe(
      404,
    );
    const own = String(rows[0]?.id);
    expect((await call('GET', `/api/payouts/${own}/statement.pdf`, CONSULTANT)).statusCode).toBe(
      200,
    );
    expect((await call('PATCH', `/api/payouts/${own}`, CONSULTANT, { note: 'x' })).statusCode).toBe(
      403,
    );
    expect((await call('POST', `/api/payouts/${own}/approve`, CONSULTANT)).statusCode).toBe(403);
    expect((await call('GET', '/api/payouts/export?period=2002-01', CONSULTANT)).statusCode).toBe(
      403,
    );
    // The back office sees everyone's.
    const all = await call('GET', '/api/payouts?per_page=500', BACKOFFICE);
    const everyone = new Set((all.json() as { data: Row[] }).data.map((row) => row.user_id));
    expect(everyone.has(users[CONSULTANT2])).toBe(true);
  });
});

describe('the statement', () => {
  let payoutId: string;
  beforeAll(async () => {
    await line({
      user: CONSULTANT2,
      period: '2003-01',
      amount: 30000,
      contractNumber: 'KV-2003-0001',
      customerName: 'Zoë Müller-Łukasiewicz',
      explain: [
        {
          key: 'app.commissions.explain.rule',
          params: { rule: 'KVG Grundversicherung', version: 2 },
        },
        { key: 'app.commissions.explain.stars', params: { stars: 2, rate: 150, amount: 300 } },
        { key: 'app.commissions.explain.passOnDeducted', params: { percent: 30, amount: 90 } },
      ],
    });
    await line({
      user: CONSULTANT2,
      period: '2003-01',
      amount: -5000,
      kind: 'correction',
      reason: 'Doppelt erfasst',
    });
    payoutId = String((await created(CONSULTANT2, '2003-01')).id);
  });

  it("is a PDF in the payout user's language with the user, lines, explanations and total", async () => {
    const response = await call('GET', `/api/payouts/${payoutId}/statement.pdf`);
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="payout-${payoutId}-2003-01.pdf"`,
    );
    const bytes = response.rawPayload;
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBe(1);
    // consultant2's language is French (the demo's), unless the demo says otherwise.
    const language = (
      await t.app.db
        .selectFrom('users')
        .select('language')
        .where('id', '=', users[CONSULTANT2] as number)
        .executeTakeFirstOrThrow()
    ).language;
    const text = pdfText(bytes);
    const title = {
      de: 'Provisionsabrechnung',
      fr: 'Décompte de commissions',
      it: 'Rendiconto delle provvigioni',
      en: 'Commission statement',
    }[(language ?? 'de') as 'de'];
    expect(pdf.getTitle()).toContain(title);
    expect(text).toContain(title);
    const me = await t.app.db
      .selectFrom('users')
      .select(['first_name', 'last_name'])
      .where('id', '=', users[CONSULTANT2] as number)
      .executeTakeFirstOrThrow();
    expect(pdf.getTitle()).toContain(`${me.first_name} ${me.last_name}`);
    expect(text).toContain(`${me.first_name} ${me.last_name}`);
    expect(text).toContain('KV-2003-0001');
    // Written in Windows-1252: ë and ü stay, Ł loses its stroke.
    expect(text).toContain('Zoë Müller-Lukasiewicz');
    expect(text).toContain('CHF 300.00');
    expect(text).toContain('CHF -50.00');
    expect(text).toContain('Doppelt erfasst');
    expect(text).toContain('CHF 250.00'); // the total
    // The explain texts' minus sign (U+2212) is not in Windows-1252: written as a hyphen.
    expect(text).toContain('- CHF 90.00');
    expect(text).not.toContain('?');
  });

  it('takes another language when asked, and runs over pages', async () => {
    const english = pdfText(
      (await call('GET', `/api/payouts/${payoutId}/statement.pdf?language=en`)).rawPayload,
    );
    expect(english).toContain('Commission statement');
    expect(english).toContain('January 2003');
    expect(english).toContain('2 stars × CHF 150.00 per star = CHF 300.00');
    expect(english).toContain('Page 1 of 1');
    for (let at = 0; at < 70; at += 1)
      await line({
        user: CONSULTANT,
        period: '2003-02',
        amount: 1000 + at * 5,
        contractNumber: `LONG-${at}`,
        explain: [{ key: 'app.commissions.explain.flat', params: { amount: 10 + at / 20 } }],
      });
    const long = await created(CONSULTANT, '2003-02');
    const response = await call('GET', `/api/payouts/${String(long.id)}/statement.pdf?language=de`);
    const pdf = await PDFDocument.load(response.rawPayload);
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(2);
    const text = pdfText(response.rawPayload);
    expect(text).toContain('LONG-0');
    expect(text).toContain('LONG-69');
    expect(text).toContain(`Seite 2 von ${pdf.getPageCount()}`);
  });
});

describe("the month's export", () => {
  it('is a CSV of the payouts, then their lines', async () => {
    const response = await call('GET', '/api/payouts/export?period=2002-01&format=csv&language=en');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="payouts-2002-01.csv"',
    );
    expect(response.body.startsWith('\uFEFF')).toBe(true);
    expect(response.body).toContain('\r\n');
    const rows = parse(response.body.slice(1), {
      delimiter: ';',
      relax_column_count: true,
    }) as string[][];
    const gap = rows.findIndex((row) => row.every((cell) => cell === ''));
    const payouts = rows.slice(0, gap);
    const lines = rows.slice(gap + 1);
    expect(payouts[0]).toEqual([
      'Payout',
      'Person',
      'E-mail',
      'Month',
      'Status',
      'Lines',
      'Total (CHF)',
      'Approved on',
      'Paid on',
      'Note',
    ]);
    expect(payouts).toHaveLength(4); // header, two payouts, totals
    const emails = payouts.slice(1, 3).map((row) => row[2]);
    expect(emails.sort()).toEqual([CONSULTANT, CONSULTANT2].sort());
    const mine = payouts.find((row) => row[2] === CONSULTANT) as string[];
    expect(mine.slice(3, 7)).toEqual(['2002-01', 'New', '3', '46.50']);
    expect(payouts[3]?.slice(0, 7)).toEqual(['Total', '', '', '2002-01', '', '4', '71.50']);
    expect(lines[0]?.slice(0, 6)).toEqual(['Payout', 'Person', 'Line', 'Date', 'Month', 'Kind']);
    expect(lines).toHaveLength(5); // header, four lines
    const amounts = lines.slice(1).map((row) => row[9]);
    expect(amounts.sort()).toEqual(['1.50', '25.00', '40.00', '5.00'].sort());
    const months = lines.slice(1).map((row) => row[4]);
    expect(months.sort()).toEqual(['2001-02', '2001-03', '2001-12', '2002-01']);
  });

  it('is an XLSX with a sheet of payouts and a sheet of lines', async () => {
    const response = await call(
      'GET',
      '/api/payouts/export?period=2002-01&format=xlsx&language=de',
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Auszahlungen', 'Zeilen']);
    const values = (sheet: ExcelJS.Worksheet) => {
      const out: unknown[][] = [];
      sheet.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
      return out;
    };
    const [payouts, lines] = workbook.worksheets.map(values) as [unknown[][], unknown[][]];
    expect(payouts[0]?.slice(0, 7)).toEqual([
      'Auszahlung',
      'Person',
      'E-Mail',
      'Monat',
      'Status',
      'Zeilen',
      'Total (CHF)',
    ]);
    expect(payouts).toHaveLength(4);
    expect(payouts[3]?.[6]).toBe(71.5);
    const mine = payouts.find((row) => row[2] === CONSULTANT) as unknown[];
    expect(mine.slice(3, 7)).toEqual(['2002-01', 'Neu', 3, 46.5]);
    expect(lines).toHaveLength(5);
    expect(lines[1]?.[3]).toBeInstanceOf(Date);
    expect(
      lines
        .slice(1)
        .map((row) => row[9])
        .sort(),
    ).toEqual([1.5, 25, 40, 5].sort());
  });

  it('of a month without payouts has the headers and a zero total only', async () => {
    const response = await call('GET', '/api/payouts/export?period=1999-01&language=en');
    const rows = parse(response.body.slice(1), {
      delimiter: ';',
      relax_column_count: true,
    }) as string[][];
    expect(rows.map((row) => row[0])).toEqual(['Payout', 'Total', '', 'Payout']);
    expect(rows[1]?.[6]).toBe('0.00');
  });
});

describe('two payouts created at once for one user', () => {
  it('never share a line, and one month gets one payout', async () => {
    const ids: number[] = [];
    for (const period of ['2003-04', '2003-05', '2003-06'])
      for (let at = 0; at < 5; at += 1)
        ids.push(await line({ user: CONSULTANT2, period, amount: 100 + at * 5 }));
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all(
        ['2003-05', '2003-06', '2003-06'].map((period) =>
          call('POST', '/api/payouts', ADMIN, { user_id: users[CONSULTANT2], period }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode);
      // 2003-06 once at most; the other one finds it taken.
      expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(1);
      const made = answers
        .filter((answer) => answer.statusCode === 201)
        .map((answer) => (answer.json() as { data: Row }).data);
      for (const answer of answers.filter((one) => one.statusCode !== 201)) {
        const keys = refusal(answer, 422);
        expect([...(keys.period ?? []), ...(keys.user_id ?? [])].length).toBe(1);
      }
      expect(made.filter((row) => row.period === '2003-06').length).toBeLessThanOrEqual(1);
      const lines = await linesByIds(ids);
      // Every line in at most one payout, and each payout's count and total its own lines'.
      for (const row of made) {
        const own = lines.filter((one) => one.payout_id === row.id);
        expect(own.length).toBe(row.line_count);
      }
      expect(made.reduce((sum, row) => sum + Number(row.line_count), 0)).toBe(
        lines.filter((one) => one.status === 'in_payout').length,
      );
      expect(lines.every((one) => (one.status === 'in_payout') === (one.payout_id !== null))).toBe(
        true,
      );
      // Give them back for the next round.
      for (const row of made) {
        const removed = await call('DELETE', `/api/payouts/${String(row.id)}`);
        expect(removed.statusCode, removed.body).toBe(200);
      }
    }
  });
});

describe("the ledger's totals", () => {
  it('follow the lines through payouts gathered, approved, paid and deleted', async () => {
    await expectSumsMatchLines(t, 3);
  });
});
