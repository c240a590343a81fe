/**
 * The Global check (issue 19; server/global-check/): a check saved and read back with its results
 * and the customer's own cover, listed on the customer, two checks compared, the live preview,
 * the prefill, the rules across fields (422 naming the field), who sees which checks, the PDF
 * report (downloaded and stored as a document) and a gap followed up as a reminder or a lead
 * (409 without a gap). Both engines.
 */
import dayjs from 'dayjs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { swissToday } from '../../src/schema/swiss-time.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';
import { pdfText } from './pdf-text.ts';

const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
type Row = Record<string, unknown>;
type Scenario = { need: number; cover: number; gap: number; benefits: Row[] };
let t: TestApp;
const users: Record<string, number> = {};
const unique = Math.random().toString(36).slice(2, 8);
const today = swissToday();
const lastYear = dayjs(today).subtract(1, 'year').format('YYYY-MM-DD');
let customer: Row;
let lifeContract: number;

const call = (as: string, method: string, url: string, payload?: unknown) =>
  t.request({ method: method as 'GET', url, payload: payload as never, as });
const data = <T = Row>(response: LightMyRequestResponse) => (response.json() as { data: T }).data;

async function created(as: string, url: string, payload: Row): Promise<Row> {
  const response = await call(as, 'POST', url, payload);
  expect(response.statusCode, response.body).toBe(201);
  return data(response);
}

function messages(response: LightMyRequestResponse, status = 422): Record<string, string[]> {
  expect(response.statusCode, response.body).toBe(status);
  const answer = response.json() as { error_keys?: Record<string, Array<{ message: string }>> };
  return Object.fromEntries(
    Object.entries(answer.error_keys ?? {}).map(([field, keys]) => [
      field,
      keys.map((k) => k.message),
    ]),
  );
}

/** A check body for the test customer: a 41-year-old employee, married, one child. */
const body = (extra: Row = {}): Row => ({
  customer_id: customer.id,
  topics: ['retirement', 'disability', 'death'],
  birth_date: '1985-03-10',
  sex: 'female',
  civil_status: 'married',
  employment_status: 'employed',
  employment_date: '2008-09-01',
  has_pension_missing_years: false,
  gross_income: 96000,
  need_share: 80,
  partner: { birth_date: '1983-07-01', sex: 'male', gross_income: 70000 },
  children: [{ first_name: 'Lina', birth_date: '2016-04-02', in_education: false }],
  ...extra,
});

const scenarios = (check: Row) =>
  (check.results as { scenarios: Record<string, Scenario> }).scenarios;

beforeAll(async () => {
  t = await createTestApp();
  for (const user of await t.database.db.selectFrom('users').select(['id', 'email']).execute())
    users[String(user.email)] = Number(user.id);
  customer = await created(ADMIN, '/api/customers', {
    first_name: 'Gabrielle',
    last_name: `Prévoyance${unique}`,
    date_of_birth: '1985-03-10',
    gender: 'female',
    marital_status: 'married',
    partnership_date: '2012-05-19',
    assigned_to: users[CONSULTANT],
    correspondence_languages: ['fr'],
  });
  await created(ADMIN, '/api/household-members', {
    customer_id: customer.id,
    relation: 'spouse',
    first_name: 'Marc',
    last_name: `Prévoyance${unique}`,
    gender: 'male',
    date_of_birth: '1983-07-01',
  });
  await created(ADMIN, '/api/household-members', {
    customer_id: customer.id,
    relation: 'child',
    first_name: 'Lina',
    last_name: `Prévoyance${unique}`,
    date_of_birth: '2016-04-02',
  });
  // Her own contracts (written directly: the catalogue's rules have their own tests): a 3b life
  // insurance with a disability pension and a death capital, and an ended 3a that counts nothing.
  const company = await t.database.db
    .selectFrom('companies')
    .select('id')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const contract = (values: Row) =>
    t.database.db
      .insertInto('contracts')
      .values({
        customer_id: Number(customer.id),
        contract_type: 'closure',
        product_group: 'life',
        company_id: Number(company.id),
        status: 'active',
        ...values,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
  lifeContract = Number(
    (
      await contract({
        product_id: 5,
        payment_cycle: 'annual',
        start_date: '2020-01-01',
        insurance: JSON.stringify({ premium: 2400, term_years: 20 }),
        coverage: JSON.stringify({
          lines: [
            { coverage: 'Erwerbsunfähigkeitsrente', sum: 24000 },
            { coverage: 'Todesfallkapital', sum: 150000 },
            { coverage: 'Prämienbefreiung bei Erwerbsunfähigkeit', sum: 2400 },
          ],
        }),
      })
    ).id,
  );
  await contract({
    product_id: 4,
    payment_cycle: 'monthly',
    start_date: '2010-01-01',
    end_date: '2015-12-31',
    insurance: JSON.stringify({ premium: 500, term_years: 5 }),
  });
});
afterAll(async () => {
  await t?.close();
});

describe('the demo', () => {
  it('has saved checks of four customers, one checked twice a year apart', async () => {
    const rows = await t.database.db
      .selectFrom('global_checks')
      .select(['customer_id', 'check_date', 'results'])
      .execute();
    const byCustomer = new Map<number, string[]>();
    for (const row of rows) {
      const day =
        (row.check_date as unknown) instanceof Date
          ? (row.check_date as unknown as Date).toISOString()
          : String(row.check_date);
      byCustomer.set(row.customer_id, [
        ...(byCustomer.get(row.customer_id) ?? []),
        day.slice(0, 10),
      ]);
      expect(row.results).toHaveProperty('scenarios.retirement.gap');
    }
    expect(byCustomer.size).toBe(4);
    const twice = [...byCustomer.values()].find((days) => days.length === 2);
    expect(twice?.sort()).toEqual([lastYear, today]);
  });
});

describe('saving a check', () => {
  it('computes the own cover and the results, and reads them back', async () => {
    const check = await created(CONSULTANT, '/api/global-checks', body());
    expect(check).toMatchObject({
      check_date: today,
      calculation_type: 'with_contracts',
      disability_degree: 100,
    });
    // The 3b: a disability pension (24,000 / 12), a death capital at 6.8 % (150,000 × 0.068 /
    // 12 = 850) and its savings (2,400 × 20 × 0.068 / 12 = 272); the waiver and the ended 3a
    // count nothing.
    expect(check.own_cover).toEqual([
      expect.objectContaining({
        contract_id: lifeContract,
        kind: 'disability',
        monthly: 2000,
        basis: 'pension',
      }),
      expect.objectContaining({ kind: 'life', monthly: 850, basis: 'capital', capital: 150000 }),
      expect.objectContaining({ kind: 'pillar3a', monthly: 272, basis: 'savings', capital: 48000 }),
    ]);
    const results = check.results as Row;
    expect(results).toMatchObject({ year: Number(today.slice(0, 4)), as_of: today });
    expect(Object.keys(results.scenarios as Row)).toEqual([
      'retirement',
      'disease_disability',
      'accident_disability',
      'disease_death',
      'accident_death',
    ]);
    const all = scenarios(check);
    // The need: 80 % of 96,000 / 12.
    expect(all.retirement.need).toBe(6400);
    expect(all.disease_disability).toMatchObject({ scenario: 'diseaseDisability' });
    expect(all.disease_disability.benefits).toContainEqual(
      expect.objectContaining({
        source: 'own',
        kind: 'disability',
        monthly: 2000,
        contract_id: lifeContract,
      }),
    );
    expect(all.disease_death.benefits).toContainEqual(
      expect.objectContaining({ source: 'own', kind: 'death', monthly: 850 }),
    );
    expect((all.disease_disability as Row).waiting_period).toMatchObject({
      source: 'ktg',
      from_day: 31,
      days: 690,
    });
    for (const scenario of Object.values(all))
      expect(scenario.gap).toBe(Math.max(0, scenario.need - scenario.cover) || scenario.gap);
    const read = data(await call(CONSULTANT, 'GET', `/api/global-checks/${check.id}`));
    expect(read).toEqual(check);
  });

  it('counts no own cover for a legal calculation', async () => {
    const check = await created(ADMIN, '/api/global-checks', body({ calculation_type: 'legal' }));
    expect(check.own_cover).toEqual([]);
    for (const scenario of Object.values(scenarios(check)))
      expect(scenario.benefits.filter((line) => line.source === 'own')).toEqual([]);
  });

  it('lists the checks on the customer, newest first, and compares two', async () => {
    const before = await created(ADMIN, '/api/global-checks', body({ gross_income: 80000 }));
    // A year earlier (the day is the server's: set here as an older check would have it).
    await t.database.db
      .updateTable('global_checks')
      .set({ check_date: lastYear } as never)
      .where('id', '=', Number(before.id))
      .execute();
    const after = await created(ADMIN, '/api/global-checks', body({ gross_income: 120000 }));
    const listed = data<Row[]>(
      await call(CONSULTANT, 'GET', `/api/global-checks?customer_id=${String(customer.id)}`),
    );
    expect(listed.length).toBeGreaterThanOrEqual(4);
    expect(listed.map((row) => row.id)).toContain(after.id);
    expect(listed.at(-1)?.id).toBe(before.id);
    // Compared: the higher income needs more.
    expect(scenarios(after).retirement.need).toBe(8000);
    expect(scenarios(before).retirement.need).toBeLessThan(scenarios(after).retirement.need);
  });

  it('recomputes on update (the day, the cover, the results)', async () => {
    const check = await created(ADMIN, '/api/global-checks', body());
    const changed = data(
      await call(ADMIN, 'PATCH', `/api/global-checks/${check.id}`, { need_share: 60 }),
    );
    expect(scenarios(changed).retirement.need).toBe(4800);
    expect(changed.check_date).toBe(today);
  });
});

describe('the live preview and the prefill', () => {
  it('answers the results and own cover without saving', async () => {
    const count = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('global_checks')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const response = await call(CONSULTANT, 'POST', '/api/global-checks/preview', {
      ...body(),
      // Read-only fields a client sends back are ignored.
      check_date: '2000-01-01',
      own_cover: [],
    });
    expect(response.statusCode, response.body).toBe(200);
    const answer = data<{ results: Row; own_cover: Row[] }>(response);
    expect(answer.own_cover).toHaveLength(3);
    expect((answer.results.scenarios as Record<string, Scenario>).retirement.need).toBe(6400);
    expect(await count()).toBe(before);
    expect(
      messages(
        await call(CONSULTANT, 'POST', '/api/global-checks/preview', body({ gap_years: 3 })),
      ),
    ).toEqual({ gap_years: ['app.errors.gapYearsWithoutFlag'] });
  });

  it('prefills from the customer, the household and the last check', async () => {
    const response = await call(
      CONSULTANT,
      'GET',
      `/api/customers/${String(customer.id)}/global-check-defaults`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const prefill = data(response);
    expect(prefill).toMatchObject({
      customer_id: customer.id,
      birth_date: '1985-03-10',
      sex: 'female',
      civil_status: 'married',
      employment_status: 'employed',
      partner: { birth_date: '1983-07-01', sex: 'male', married_since: '2012-05-19' },
      children: [{ first_name: 'Lina', birth_date: '2016-04-02', in_education: false }],
    });
    expect(prefill.gross_income).toEqual(expect.any(Number));
    // The prefill is a valid create body.
    const check = await created(CONSULTANT, '/api/global-checks', prefill);
    expect(check.results).toBeTruthy();
  });
});

describe('bad input', () => {
  it('refuses missing required fields and an income out of range, naming the fields', async () => {
    const { birth_date: _birth, sex: _sex, ...missing } = body();
    const refused = messages(await call(ADMIN, 'POST', '/api/global-checks', missing));
    expect(Object.keys(refused).sort()).toEqual(['birth_date', 'sex']);
    expect(
      messages(await call(ADMIN, 'POST', '/api/global-checks', body({ gross_income: 2_000_000 }))),
    ).toEqual({ gross_income: ['app.errors.maximum'] });
    expect(
      messages(await call(ADMIN, 'POST', '/api/global-checks', body({ need_share: 30 }))),
    ).toEqual({ need_share: ['app.errors.minimum'] });
  });

  it('checks the rules across fields', async () => {
    const post = async (extra: Row) =>
      messages(await call(ADMIN, 'POST', '/api/global-checks', body(extra)));
    expect(await post({ gap_years: 4 })).toEqual({
      gap_years: ['app.errors.gapYearsWithoutFlag'],
    });
    expect(await post({ has_pension_missing_years: true })).toEqual({
      gap_years: ['app.errors.required'],
    });
    expect(await post({ gross_income: 0 })).toEqual({
      gross_income: ['app.errors.incomeRequired'],
    });
    expect(await post({ employment_date: '1999-01-01' })).toEqual({
      employment_date: ['app.errors.employmentBefore15'],
    });
    expect(await post({ employment_date: '2999-01-01' })).toEqual({
      employment_date: ['app.errors.notInFuture'],
    });
    expect(await post({ children: [{ birth_date: '1990-01-01' }] })).toEqual({
      'children.0.birth_date': ['app.errors.childTooEarly'],
    });
    expect(await post({ partner: { gross_income: 5_000_000 } })).toHaveProperty(
      'partner.gross_income',
    );
    // Not employed: no income is fine.
    await created(
      ADMIN,
      '/api/global-checks',
      body({ employment_status: 'not_employed', gross_income: 0 }),
    );
    // An update is checked merged with the stored check.
    const check = await created(ADMIN, '/api/global-checks', body());
    expect(
      messages(await call(ADMIN, 'PATCH', `/api/global-checks/${check.id}`, { gross_income: 0 })),
    ).toEqual({ gross_income: ['app.errors.incomeRequired'] });
  });
});

describe('who sees which checks', () => {
  it('shows a consultant the checks of their customers, not another consultant’s', async () => {
    const check = await created(ADMIN, '/api/global-checks', body());
    const id = String(check.id);
    expect((await call(CONSULTANT, 'GET', `/api/global-checks/${id}`)).statusCode).toBe(200);
    for (const [method, url, payload] of [
      ['GET', `/api/global-checks/${id}`],
      ['GET', `/api/global-checks/${id}/report.pdf`],
      ['POST', `/api/global-checks/${id}/report`, {}],
      ['POST', `/api/global-checks/${id}/follow-up`, { scenario: 'retirement', kind: 'reminder' }],
      ['GET', `/api/customers/${String(customer.id)}/global-check-defaults`],
      ['POST', '/api/global-checks/preview', body()],
    ] as const)
      expect((await call(CONSULTANT2, method, url, payload)).statusCode, url).toBe(404);
    expect(
      data<Row[]>(
        await call(CONSULTANT2, 'GET', `/api/global-checks?customer_id=${String(customer.id)}`),
      ),
    ).toEqual([]);
    expect((await call(CONSULTANT2, 'POST', '/api/global-checks', body())).statusCode).toBe(422);
  });
});

describe('the report and the follow-up', () => {
  it('answers the PDF report in the customer’s language, or the one asked for', async () => {
    const check = await created(ADMIN, '/api/global-checks', body());
    const response = await call(ADMIN, 'GET', `/api/global-checks/${check.id}/report.pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const french = pdfText(response.rawPayload);
    expect(french).toContain('Check global');
    expect(french).toContain('Invalidité après maladie');
    expect(french).toContain("CHF 6'400");
    const german = pdfText(
      (await call(ADMIN, 'GET', `/api/global-checks/${check.id}/report.pdf?language=de`))
        .rawPayload,
    );
    expect(german).toContain('Global Check');
    expect(german).toContain('Lücke');
    expect(german).toContain('Erwerbsunfähigkeitsrente');
  });

  it('stores the report as a document of the customer', async () => {
    const check = await created(CONSULTANT, '/api/global-checks', body());
    const stored = await created(CONSULTANT, `/api/global-checks/${check.id}/report`, {
      language: 'it',
    });
    expect(stored).toMatchObject({
      customer_id: customer.id,
      mime_type: 'application/pdf',
      original_name: `global-check-${String(check.id)}.pdf`,
      uploaded_by: users[CONSULTANT],
    });
    expect(String(stored.document_name)).toContain('Check globale');
    const file = await call(CONSULTANT, 'GET', `/api/documents/${String(stored.id)}/download`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfText(file.rawPayload)).toContain('Lacuna');
  });

  it('turns a gap into a reminder for the consultant or a lead, and refuses without a gap', async () => {
    const check = await created(ADMIN, '/api/global-checks', body());
    const gap = scenarios(check).disease_death.gap;
    expect(gap).toBeGreaterThan(0);
    const reminder = await call(ADMIN, 'POST', `/api/global-checks/${check.id}/follow-up`, {
      scenario: 'diseaseDeath',
      kind: 'reminder',
    });
    expect(reminder.statusCode, reminder.body).toBe(201);
    const answer = reminder.json() as { data: Row; resource: string };
    expect(answer.resource).toBe('reminders');
    const week = new Date(`${today}T12:00:00Z`);
    week.setUTCDate(week.getUTCDate() + 7);
    expect(answer.data).toMatchObject({
      client_id: customer.id,
      user_id: users[CONSULTANT],
      status: 'open',
      category: 'follow_up',
      due_date: week.toISOString().slice(0, 10),
    });
    expect(String(answer.data.subject)).toContain('CHF');
    const dated = await call(ADMIN, 'POST', `/api/global-checks/${check.id}/follow-up`, {
      scenario: 'disease_death',
      kind: 'reminder',
      due_date: '2030-01-15',
    });
    expect((dated.json() as { data: Row }).data.due_date).toBe('2030-01-15');

    const lead = await call(CONSULTANT, 'POST', `/api/global-checks/${check.id}/follow-up`, {
      scenario: 'disease_death',
      kind: 'lead',
    });
    expect(lead.statusCode, lead.body).toBe(201);
    expect(lead.json()).toMatchObject({
      resource: 'leads',
      data: { customer_id: customer.id, assigned_to: users[CONSULTANT], status: 'new' },
    });

    // Not employed without income: no need, no gap anywhere.
    const none = await created(
      ADMIN,
      '/api/global-checks',
      body({ employment_status: 'not_employed', gross_income: 0 }),
    );
    const refused = await call(ADMIN, 'POST', `/api/global-checks/${none.id}/follow-up`, {
      scenario: 'retirement',
      kind: 'lead',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ key: 'app.errors.globalCheckNoGap' });
    expect(
      messages(
        await call(ADMIN, 'POST', `/api/global-checks/${check.id}/follow-up`, {
          scenario: 'nothing',
          kind: 'lead',
        }),
      ),
    ).toHaveProperty('scenario');
  });
});
