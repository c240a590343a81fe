/**
 * The household coverage view (issue 14), on both engines: `GET /api/customers/:id/coverage` —
 * people rows (customer and household members), cells of covering closures only (active or
 * applied for, not ended; no non-closures), premium per month, termination deadlines, the gap
 * rules, the household's totals, and visibility (404 for a customer the user does not see).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { swissToday } from '../../server/contracts/coverage.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';

const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
let t: TestApp;
let customerId: number;
let spouseId: number;
let childId: number;
let grandmotherId: number;
let css: number;
let axa: number;

interface Contract {
  id: number;
  product: string;
  company: string | null;
  premium_month: number;
  start_date: string | null;
  end_date: string | null;
  termination_deadline: string | null;
  status: string;
}
interface Coverage {
  customer_id: number;
  premium_month: number;
  broker_mandate: boolean;
  columns: string[];
  people: Array<{
    key: string;
    kind: string;
    id: number;
    name: string;
    age: number | null;
    in_household: boolean;
    premium_month: number;
    cells: Array<{ column: string; contracts: Contract[] }>;
  }>;
  gaps: Array<{ rule: string; column: string; person?: string }>;
}

const today = swissToday();
const year = Number(today.slice(0, 4));
const future = `${year + 1}-06-30`;
const past = `${year - 1}-12-31`;

async function contract(values: Record<string, unknown>): Promise<number> {
  const row = await t.app.db
    .insertInto('contracts')
    .values({
      customer_id: customerId,
      contract_type: 'closure',
      status: 'active',
      start_date: '2020-01-01',
      ...values,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

const coverage = async (id: number, as: string) =>
  t.request({ method: 'GET', url: `/api/customers/${id}/coverage`, as });

let basicId: number;
let carId: number;
let endedId: number;
let nonClosureId: number;

beforeAll(async () => {
  t = await createTestApp();
  const created = await t.request({
    method: 'POST',
    url: '/api/customers',
    as: CONSULTANT,
    payload: { first_name: 'Regula', last_name: 'Coverage', date_of_birth: '1980-03-15' },
  });
  expect(created.statusCode, created.body).toBe(201);
  customerId = created.json().data.id;
  const member = async (payload: Record<string, unknown>) => {
    const response = await t.request({
      method: 'POST',
      url: '/api/household-members',
      as: CONSULTANT,
      payload: { customer_id: customerId, last_name: 'Coverage', ...payload },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.id as number;
  };
  spouseId = await member({ first_name: 'Ueli', relation: 'spouse', date_of_birth: '1978-07-01' });
  childId = await member({ first_name: 'Nina', relation: 'child', date_of_birth: '2015-05-05' });
  grandmotherId = await member({
    first_name: 'Rosa',
    relation: 'parent',
    date_of_birth: '1940-01-01',
    same_household: false,
  });
  const company = async (name: string) =>
    Number(
      (
        await t.app.db
          .selectFrom('companies')
          .select('id')
          .where('name_de', '=', name)
          .executeTakeFirstOrThrow()
      ).id,
    );
  css = await company('CSS');
  axa = await company('AXA');
  basicId = await contract({
    product_id: 1,
    product_group: 'health',
    company_id: css,
    annual_premium: 4800,
    insurance: JSON.stringify({ sub_product_id: 2, deductible: 2500, premium: 400 }),
  });
  await contract({
    product_id: 1,
    product_group: 'health',
    company_id: css,
    household_member_id: spouseId,
    annual_premium: 5400,
    status: 'application',
  });
  await contract({
    product_id: 4,
    product_group: 'life',
    company_id: axa,
    annual_premium: 7258.2,
    end_date: '2045-12-31',
  });
  await contract({
    product_id: 10,
    product_group: 'property_casualty',
    company_id: axa,
    annual_premium: 120,
  });
  carId = await contract({
    product_id: 7,
    product_group: 'property_casualty',
    company_id: axa,
    household_member_id: spouseId,
    annual_premium: 960,
    end_date: future,
  });
  await contract({ product_id: 28, product_group: 'other', company_id: css, annual_premium: 0 });
  // Not cover: ended, terminated, a non-closure.
  endedId = await contract({
    product_id: 13,
    product_group: 'property_casualty',
    company_id: axa,
    annual_premium: 300,
    end_date: past,
  });
  await contract({
    product_id: 13,
    product_group: 'property_casualty',
    company_id: axa,
    annual_premium: 300,
    status: 'terminated',
  });
  nonClosureId = await contract({
    product_id: 13,
    product_group: 'property_casualty',
    contract_type: 'non-closure',
    status: null,
    reason: 'price',
    household_member_id: childId,
  });
});

afterAll(async () => {
  await t?.close();
});

describe('GET /api/customers/:id/coverage', () => {
  it('answers the household as rows and the covering closures as cells', async () => {
    const response = await coverage(customerId, CONSULTANT);
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data as Coverage;
    expect(data.customer_id).toBe(customerId);
    expect(data.people.map((person) => [person.kind, person.id, person.in_household])).toEqual([
      ['customer', customerId, true],
      ['member', spouseId, true],
      ['member', childId, true],
      ['member', grandmotherId, false],
    ]);
    expect(data.people[0].name).toBe('Regula Coverage');
    expect(data.people[2].age).toBe(ageOf('2015-05-05'));
    // The always-shown columns; optional ones (building, finance, other) only when used.
    expect(data.columns).toEqual([
      'health_basic',
      'health_supplementary',
      'pillar_3a',
      'pillar_3b',
      'liability',
      'household_contents',
      'car',
      'legal',
    ]);
    const cell = (person: number, column: string) =>
      data.people[person].cells.find((c) => c.column === column)?.contracts ?? [];
    const [basic] = cell(0, 'health_basic');
    expect(basic).toMatchObject({
      id: basicId,
      product: 'Grundversicherung (KVG)',
      sub_product: 'Hausarztmodell',
      company: 'CSS',
      premium_month: 400,
      start_date: '2020-01-01',
      end_date: null,
      status: 'active',
    });
    // KVG basic: notice by 30 November for 1 January.
    expect(basic.termination_deadline).toBe(
      today <= `${year}-11-30` ? `${year}-11-30` : `${year + 1}-11-30`,
    );
    expect(cell(1, 'health_basic')[0]).toMatchObject({ status: 'application', premium_month: 450 });
    expect(cell(0, 'pillar_3a')[0]).toMatchObject({ premium_month: 604.85, company: 'AXA' });
    // Car: 3 months before its end.
    expect(cell(1, 'car')[0]).toMatchObject({
      id: carId,
      end_date: future,
      termination_deadline: `${year + 1}-03-30`,
    });
    const all = data.people.flatMap((person) => person.cells.flatMap((c) => c.contracts));
    const ids = all.map((c) => c.id);
    expect(ids).not.toContain(endedId);
    expect(ids).not.toContain(nonClosureId);
    expect(cell(0, 'household_contents')).toEqual([]);
    // The broker mandate is the household's flag, not a cell.
    expect(data.broker_mandate).toBe(true);
  });

  it('answers the gaps of the rules: basic health for everybody in the household, liability and contents once, 3a for adults of working age', async () => {
    const data = (await coverage(customerId, CONSULTANT)).json().data as Coverage;
    expect(data.gaps).toEqual([
      { rule: 'no_health_basic', column: 'health_basic', person: `member-${childId}` },
      { rule: 'no_household_contents', column: 'household_contents' },
      { rule: 'no_pillar_3a', column: 'pillar_3a', person: `member-${spouseId}` },
    ]);
  });

  it("answers each person's and the household's premium per month", async () => {
    const data = (await coverage(customerId, CONSULTANT)).json().data as Coverage;
    // 400 + 604.85 + 10 (liability) = 1014.85; spouse 450 + 80 (car) = 530.
    expect(data.people.map((person) => person.premium_month)).toEqual([1014.85, 530, 0, 0]);
    expect(data.premium_month).toBe(1544.85);
  });

  it('answers 404 for a customer the user does not see, and for an unknown one', async () => {
    expect((await coverage(customerId, CONSULTANT2)).statusCode).toBe(404);
    expect((await coverage(2_000_000_000, ADMIN)).statusCode).toBe(404);
    expect((await coverage(customerId, ADMIN)).statusCode).toBe(200);
    expect(
      (await t.request({ method: 'GET', url: `/api/customers/${customerId}/coverage` })).statusCode,
    ).toBe(401);
    expect((await coverage(0, ADMIN)).statusCode).toBe(400);
  });

  it('answers in the user language', async () => {
    const data = (await coverage(customerId, CONSULTANT2.replace('2', ''))).json().data as Coverage;
    expect(data.people[0].cells[0].contracts[0].product).toBe('Grundversicherung (KVG)');
    const callcenter = (await coverage(customerId, 'callcenter@demo.gscrm.ch')).json()
      .data as Coverage;
    expect(callcenter.people[0].cells[0].contracts[0].product).toMatch(/LAMal/);
    // The language on screen, when the client names it.
    const french = (
      await t.request({
        method: 'GET',
        url: `/api/customers/${customerId}/coverage?language=fr`,
        as: CONSULTANT,
      })
    ).json().data as Coverage;
    expect(french.people[0].cells[0].contracts[0]).toMatchObject({
      product: 'Assurance de base (LAMal)',
      sub_product: 'Modèle médecin de famille',
    });
    expect(
      (
        await t.request({
          method: 'GET',
          url: `/api/customers/${customerId}/coverage?language=xx`,
          as: CONSULTANT,
        })
      ).statusCode,
    ).toBe(400);
  });

  it('shows the demo book: a household of the first customer with gaps', async () => {
    const first = await t.app.db
      .selectFrom('customers')
      .select('id')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const data = (await coverage(Number(first.id), CONSULTANT)).json().data as Coverage;
    expect(data.gaps.length).toBeGreaterThan(0);
    expect(data.people[0].cells.find((c) => c.column === 'health_basic')?.contracts.length).toBe(1);
  });
});

describe('the demo book (server/demo/contracts.ts)', () => {
  it('passes the write rules of the contracts, with the figures the server computes', async () => {
    const columns = [
      'id',
      'annual_premium',
      'production_sum',
      'total_commission',
      'protocol_missing',
      'product_group',
    ] as const;
    const demo = await t.app.db
      .selectFrom('contracts')
      .select(columns)
      .where('customer_id', '!=', customerId)
      .orderBy('id')
      .execute();
    expect(demo.length).toBeGreaterThan(300);
    const refused: string[] = [];
    for (const row of demo) {
      // A change that touches no rule: the hooks check the whole merged record and recompute.
      const response = await t.request({
        method: 'PATCH',
        url: `/api/contracts/${row.id}`,
        payload: { alt_contract_number: `D-${row.id}` },
        as: ADMIN,
      });
      if (response.statusCode !== 200) refused.push(`${row.id}: ${response.body}`);
    }
    expect(refused).toEqual([]);
    const after = await t.app.db
      .selectFrom('contracts')
      .select(columns)
      .where('customer_id', '!=', customerId)
      .orderBy('id')
      .execute();
    expect(after).toEqual(demo);
    // Health closures with and without a signed advice protocol.
    const health = demo.filter((row) => row.product_group === 'health');
    expect(health.some((row) => row.protocol_missing === true)).toBe(true);
    expect(health.some((row) => row.protocol_missing === false)).toBe(true);
  }, 120_000);
});

function ageOf(birth: string): number {
  const [by, bm, bd] = birth.split('-').map(Number);
  const [ty, tm, td] = today.split('-').map(Number);
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}
