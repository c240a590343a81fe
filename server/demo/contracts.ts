/**
 * Demo book of contracts (issue 14), over the demo customers of ./customers.ts and both demo
 * consultants: health (KVG basic with model and deductible, VVG supplementary lines), life (3a, 3b),
 * P&C (car, liability, household contents with coverage lines, legal, building), finance (mortgages
 * with amount and interest rate), broker mandates (product 28), non-closures with their reasons,
 * previous insurances, ended contracts as history, documents on contracts (records without a file:
 * paper originals) and a signed advice protocol (signedOn: the contract's signing day) on most
 * health closures, so `protocolMissing` is
 * both true and false. Some household members are insured, and some households have gaps (the
 * first customer's household lacks household contents and cover for its last member).
 *
 * Deterministic (same data on every start). Rows are written in batches; the figures come from
 * contractFigures and productGroup/protocolMissing are set as the write hooks set them.
 *
 * The demo insurers' catalogue (./index.ts) offers no mortgage and no broker mandate: the insurers
 * that do in reality get them here (mortgage: AXA, Swiss Life, Baloise, Zürich; the broker mandate:
 * every partner insurer, which accepts the brokerage as the customer's broker).
 */
import type { Insertable } from 'kysely';
import type { ContractsTable, DocumentsTable } from '../../src/types/database.ts';
import { BROKER_MANDATE_PRODUCT_ID, type ProductGroup } from '../../src/schema/catalogue.ts';
import { contractFigures, type PaymentCycle } from '../contracts/figures.ts';
import type { DB } from '../db/index.ts';
import { random } from './random.ts';

const MORTGAGE = 24;
const MORTGAGE_LENDERS = ['AXA', 'Swiss Life', 'Baloise', 'Zürich Versicherung'];

/** The day the demo book is written relative to (it does not move with the clock). */
const BOOK_DAY = '2026-11-01';
const BOOK_YEAR = 2026;

const pad = (n: number) => String(n).padStart(2, '0');
const day = (year: number, month: number, date = 1) => `${year}-${pad(month)}-${pad(date)}`;
/** The day `months` before a date (same day of month, 1st to 28th only here). */
const monthsBefore = (date: string, months: number) => {
  const [y, m, d] = date.split('-').map(Number);
  const total = y * 12 + (m - 1) - months;
  return day(Math.floor(total / 12), (total % 12) + 1, Math.min(d, 28));
};

type ContractValues = Insertable<ContractsTable>;

interface Person {
  memberId: number | null;
  birth: string | null;
  child: boolean;
  inHousehold: boolean;
}

export async function seedDemoContracts(db: DB): Promise<void> {
  const companies = await db
    .selectFrom('companies')
    .select(['id', 'name_de', 'is_partner', 'products'])
    .orderBy('id')
    .execute();
  for (const company of companies) {
    const products = new Set((company.products ?? []) as number[]);
    const before = products.size;
    if (MORTGAGE_LENDERS.includes(company.name_de)) products.add(MORTGAGE);
    if (company.is_partner) products.add(BROKER_MANDATE_PRODUCT_ID);
    if (products.size !== before) {
      await db
        .updateTable('companies')
        .set({ products: JSON.stringify([...products]) })
        .where('id', '=', company.id)
        .execute();
      company.products = [...products];
    }
  }
  const offering = (product: number) =>
    companies
      .filter((company) => ((company.products ?? []) as number[]).includes(product))
      .map((company) => Number(company.id));
  const healthInsurers = offering(1);
  const supplementaryInsurers = offering(2);
  const lifeInsurers = offering(4);
  const pncInsurers = offering(10);
  const carInsurers = offering(7);
  const legalInsurers = offering(9);
  const lenders = offering(MORTGAGE);
  const mandateInsurers = offering(BROKER_MANDATE_PRODUCT_ID);
  const buildingInsurers = offering(17);

  const customers = await db
    .selectFrom('customers')
    .select(['id', 'assigned_to', 'is_company', 'date_of_birth', 'organization', 'nationality'])
    .orderBy('id')
    .execute();
  const members = await db
    .selectFrom('household_members')
    .select(['id', 'customer_id', 'relation', 'date_of_birth', 'same_household'])
    .orderBy('id')
    .execute();

  const rnd = random(20261114);
  const contracts: ContractValues[] = [];
  /** Per contract (same index): documents to attach once it has an id. */
  const documents: Array<Array<Omit<Insertable<DocumentsTable>, 'customer_id' | 'contract_id'>>> =
    [];
  let number = 4100;

  const add = (
    values: ContractValues & { product_group: ProductGroup },
    docs: Array<Omit<Insertable<DocumentsTable>, 'customer_id' | 'contract_id'>> = [],
  ) => {
    const cycle = (values.payment_cycle ?? 'monthly') as PaymentCycle;
    const json = (value: unknown) => (value === undefined ? undefined : JSON.parse(String(value)));
    const insurance = json(values.insurance) as
      { premium?: number; term_years?: number } | undefined;
    const supplementary = json(values.supplementary_insurances) as
      Array<{ premium_month?: number }> | undefined;
    const coverage = json(values.coverage) as
      { amount?: number; lines?: Array<{ premium?: number }> } | undefined;
    const figures = contractFigures({
      productGroup: values.product_group,
      paymentCycle: cycle,
      insurance: { premium: insurance?.premium, termYears: insurance?.term_years },
      supplementaryInsurances: supplementary?.map((line) => ({ premiumMonth: line.premium_month })),
      coverage,
    });
    const closure = (values.contract_type ?? 'closure') === 'closure';
    contracts.push({
      ...values,
      contract_number: closure ? `GS-${BOOK_YEAR - 1}-${++number}` : null,
      annual_premium: figures.annualPremium,
      production_sum: figures.productionSum,
      // Nobody earns anything yet: the commission engine settles the demo book afterwards.
      total_commission: figures.totalCommission,
      protocol_missing:
        closure &&
        values.product_group === 'health' &&
        !docs.some((doc) => doc.document_type === 'advice_protocol'),
    });
    // Protocols are signed on the day the contract was.
    const signedOn = String(values.signing_date ?? BOOK_DAY);
    documents.push(
      docs.map((doc) =>
        doc.document_type === 'advice_protocol' ? { ...doc, signed_on: signedOn } : doc,
      ),
    );
  };

  customers.forEach((customer, index) => {
    const customerId = Number(customer.id);
    const consultant = customer.assigned_to === null ? null : Number(customer.assigned_to);
    const base = {
      customer_id: customerId,
      consultant_id: consultant,
      category: customer.is_company ? 'business' : 'private',
      business_name: customer.is_company ? customer.organization : null,
    };
    const started = () => day(rnd.int(2014, BOOK_YEAR - 1), rnd.pick([1, 1, 1, 4, 7, 10]));
    const signed = (start: string) => {
      const signing = monthsBefore(start, rnd.int(1, 3));
      return signing > BOOK_DAY ? BOOK_DAY : signing;
    };
    const paperDoc = (type: string, name: string) => ({
      document_name: name,
      document_type: type,
      document_related_to: 'contract',
      uploaded_by: consultant,
    });

    if (customer.is_company) {
      // Business cover: liability and contents of the business.
      const start = started();
      const liabilityPremium = rnd.int(600, 2400);
      add(
        {
          ...base,
          product_id: 10,
          product_group: 'property_casualty',
          company_id: rnd.pick(pncInsurers),
          status: 'active',
          payment_cycle: 'annual',
          signing_date: signed(start),
          start_date: start,
          insurance: JSON.stringify({ premium: 0 }),
          coverage: JSON.stringify({
            lines: [
              {
                coverage: 'Betriebshaftpflicht',
                sum: 5_000_000,
                deductible: 500,
                premium: liabilityPremium,
              },
              {
                coverage: 'Produktehaftpflicht',
                sum: 2_000_000,
                deductible: 1000,
                premium: rnd.int(200, 800),
              },
            ],
            closure_type: 'new_business',
            insurance_group_type: 'collective',
          }),
        },
        [paperDoc('policy', 'Police Betriebshaftpflicht')],
      );
      return;
    }

    const customerMembers = members.filter((member) => Number(member.customer_id) === customerId);
    const people: Person[] = [
      {
        memberId: null,
        birth: customer.date_of_birth ? String(customer.date_of_birth).slice(0, 10) : null,
        child: false,
        inHousehold: true,
      },
      ...customerMembers.map((member) => ({
        memberId: Number(member.id),
        birth: member.date_of_birth ? String(member.date_of_birth).slice(0, 10) : null,
        child: member.relation === 'child' || member.relation === 'stepchild',
        inHousehold: member.same_household !== false,
      })),
    ];
    const age = (person: Person) =>
      person.birth ? BOOK_YEAR - Number(person.birth.slice(0, 4)) : 40;
    // The first customer's household shows gaps: its last member is left uninsured.
    const showcase = index === 0;
    const family = people.filter((person) => person.inHousehold);
    const healthInsurer = rnd.pick(healthInsurers);

    family.forEach((person, at) => {
      if (showcase && at === family.length - 1 && at > 0) return;
      if (!showcase && person.memberId !== null && rnd.chance(0.15)) return;
      const child = age(person) < 19;
      const start = child && person.birth ? person.birth.slice(0, 8) + '01' : started();
      const model = rnd.pick([1, 2, 3, 4]);
      // The catalogue's deductible variants belong to the standard model (sub-product 1).
      const level = rnd.pick([300, 1000, 2500] as const);
      const variant = child || model !== 1 ? undefined : { 300: 5, 1000: 6, 2500: 7 }[level];
      const deductible = child ? rnd.pick([0, 0, 100]) : level;
      const premium = child ? rnd.int(95, 135) : rnd.int(290, 560) - (deductible >= 2500 ? 90 : 0);
      const previous = rnd.chance(0.4)
        ? rnd.pick(healthInsurers.filter((id) => id !== healthInsurer))
        : null;
      const protocol = showcase ? at === 0 : rnd.chance(0.7);
      const docs = [
        paperDoc('policy', 'Police Grundversicherung'),
        ...(protocol
          ? [paperDoc('advice_protocol', 'Beratungsprotokoll KVG (unterschrieben)')]
          : []),
      ];
      add(
        {
          ...base,
          household_member_id: person.memberId,
          product_id: 1,
          product_group: 'health',
          company_id: healthInsurer,
          status: 'active',
          payment_cycle: 'monthly',
          signing_date: signed(start),
          start_date: start,
          insurance: JSON.stringify({
            sub_product_id: model,
            ...(variant ? { sub_product_variant_id: variant } : {}),
            deductible,
            premium,
          }),
          previous_insurance: previous
            ? JSON.stringify({
                previous_companies: [previous],
                termination_responsible: rnd.pick(['customer', 'consultant', 'back_office']),
                reason: 'Prämienerhöhung',
                termination_date: day(Number(start.slice(0, 4)) - 1, 11, 28),
              })
            : '{}',
        },
        docs,
      );
      if (rnd.chance(0.65) || showcase) {
        const lines = [
          {
            sub_product_id: 5,
            sub_product_variant_id: rnd.pick([1, 2, 3]),
            premium_month: rnd.int(18, 140),
          },
          ...(rnd.chance(0.6) ? [{ sub_product_id: 6, premium_month: rnd.int(12, 45) }] : []),
          ...(rnd.chance(0.3)
            ? [{ sub_product_id: 7, premium_month: rnd.int(20, 60), note: 'Zahnkorrektur bis 20' }]
            : []),
        ];
        add(
          {
            ...base,
            household_member_id: person.memberId,
            product_id: 2,
            product_group: 'health',
            company_id: rnd.pick(supplementaryInsurers),
            status: rnd.chance(0.1) ? 'application' : 'active',
            payment_cycle: 'monthly',
            signing_date: signed(start),
            start_date: start,
            supplementary_insurances: JSON.stringify(lines),
          },
          rnd.chance(0.6) || (showcase && at === 0)
            ? [paperDoc('advice_protocol', 'Beratungsprotokoll VVG (unterschrieben)')]
            : [],
        );
      }
    });

    const adult = people[0];
    const adultAge = age(adult);
    // Life: pillar 3a for about half the working-age customers, 3b for some.
    if (adultAge >= 18 && adultAge < 65 && (showcase || rnd.chance(0.45))) {
      const start = started();
      // Paid in until the reference age (65): the term runs from the start to that year.
      const retirement = BOOK_YEAR + 65 - adultAge;
      const term = Math.max(1, retirement - Number(start.slice(0, 4)));
      const premium = rnd.pick([250, 300, 400, 500, 604]);
      add(
        {
          ...base,
          product_id: 4,
          product_group: 'life',
          company_id: rnd.pick(lifeInsurers),
          status: 'active',
          payment_cycle: 'monthly',
          signing_date: signed(start),
          start_date: start,
          end_date: day(retirement, 12, 31),
          insurance: JSON.stringify({ sub_product_id: 13, premium, term_years: term }),
        },
        [paperDoc('application', 'Antrag Säule 3a'), paperDoc('policy', 'Police Säule 3a')],
      );
    }
    if (adultAge >= 25 && rnd.chance(0.2)) {
      const term = rnd.pick([10, 15, 20]);
      // Still running: started less than its term ago.
      const start = day(rnd.int(Math.max(2014, BOOK_YEAR - term + 1), BOOK_YEAR - 1), 1);
      const premium = rnd.pick([1200, 2400, 3600]);
      add({
        ...base,
        product_id: 5,
        product_group: 'life',
        company_id: rnd.pick(lifeInsurers),
        status: 'active',
        payment_cycle: 'annual',
        signing_date: signed(start),
        start_date: start,
        end_date: day(Number(start.slice(0, 4)) + term, 12, 31),
        insurance: JSON.stringify({ premium, term_years: term }),
      });
    }

    // P&C: liability, household contents (or both in one), car, legal protection.
    const combined = !showcase && rnd.chance(0.2);
    if (combined || showcase || rnd.chance(0.6)) {
      const start = started();
      const contents = rnd.pick([60_000, 80_000, 120_000, 150_000]);
      const lines = [
        {
          coverage: 'Privathaftpflicht',
          sum: 5_000_000,
          deductible: 200,
          premium: rnd.int(90, 160),
        },
        ...(combined
          ? [
              {
                coverage: 'Hausrat Feuer/Elementar/Wasser',
                sum: contents,
                deductible: 200,
                premium: rnd.int(150, 260),
              },
              {
                coverage: 'Diebstahl auswärts',
                sum: 5000,
                deductible: 200,
                premium: rnd.int(40, 90),
              },
            ]
          : []),
      ];
      add(
        {
          ...base,
          product_id: combined ? 11 : 10,
          product_group: 'property_casualty',
          company_id: rnd.pick(pncInsurers),
          status: 'active',
          payment_cycle: 'annual',
          signing_date: signed(start),
          start_date: start,
          coverage: JSON.stringify({
            lines,
            closure_type: 'new_business',
            insurance_group_type: 'family',
          }),
        },
        [paperDoc('policy', combined ? 'Police Hausrat/Haftpflicht' : 'Police Privathaftpflicht')],
      );
    }
    if (!combined && !showcase && rnd.chance(0.5)) {
      const start = started();
      const lines = [
        {
          coverage: 'Hausrat Feuer/Elementar/Wasser',
          sum: rnd.pick([50_000, 90_000, 140_000]),
          deductible: 200,
          premium: rnd.int(140, 280),
        },
        { coverage: 'Glasbruch Mobiliar', sum: 5000, deductible: 0, premium: rnd.int(30, 60) },
      ];
      add({
        ...base,
        product_id: 13,
        product_group: 'property_casualty',
        company_id: rnd.pick(pncInsurers),
        status: 'active',
        payment_cycle: 'annual',
        signing_date: signed(start),
        start_date: start,
        coverage: JSON.stringify({
          lines,
          closure_type: 'replacement',
          insurance_group_type: 'family',
        }),
      });
    }
    if (showcase || rnd.chance(0.5)) {
      const year = rnd.int(BOOK_YEAR - 4, BOOK_YEAR - 1);
      const month = rnd.int(1, 12);
      const start = day(year, month);
      const full = rnd.chance(0.5);
      // Renewed each year: it ends on its anniversary within the next two years.
      let carEnd = day(BOOK_YEAR + rnd.int(0, 1), month);
      if (carEnd <= BOOK_DAY) carEnd = day(BOOK_YEAR + 1, month);
      const lines = [
        {
          coverage: 'Motorfahrzeughaftpflicht',
          sum: 100_000_000,
          deductible: 0,
          premium: rnd.int(420, 780),
        },
        full
          ? {
              coverage: 'Vollkasko',
              sum: rnd.int(25, 60) * 1000,
              deductible: 1000,
              premium: rnd.int(500, 1100),
            }
          : {
              coverage: 'Teilkasko',
              sum: rnd.int(15, 35) * 1000,
              deductible: 300,
              premium: rnd.int(160, 320),
            },
        ...(rnd.chance(0.4)
          ? [{ coverage: 'Parkschaden', sum: 5000, deductible: 200, premium: rnd.int(60, 120) }]
          : []),
      ];
      add({
        ...base,
        product_id: 7,
        product_group: 'property_casualty',
        company_id: rnd.pick(carInsurers),
        status: 'active',
        payment_cycle: rnd.pick(['annual', 'semi_annual'] as const),
        signing_date: signed(start),
        start_date: start,
        end_date: carEnd,
        insurance: JSON.stringify({ sub_product_id: full ? 11 : 10 }),
        coverage: JSON.stringify({
          lines,
          closure_type: 'new_business',
          insurance_group_type: 'individual',
        }),
      });
    }
    if (rnd.chance(0.25)) {
      const start = started();
      const premium = rnd.int(240, 420);
      add({
        ...base,
        product_id: 9,
        product_group: 'property_casualty',
        company_id: rnd.pick(legalInsurers),
        status: 'active',
        payment_cycle: 'annual',
        signing_date: signed(start),
        start_date: start,
        coverage: JSON.stringify({
          lines: [
            { coverage: 'Privat- und Verkehrsrechtsschutz', sum: 600_000, deductible: 0, premium },
          ],
        }),
      });
    }
    // Home owners: a mortgage and the building's insurance.
    if (!showcase && adultAge >= 30 && rnd.chance(0.12)) {
      const fixedFor = rnd.pick([5, 10]);
      const start = day(rnd.int(BOOK_YEAR - fixedFor + 1, BOOK_YEAR - 1), rnd.pick([1, 4, 7, 10]));
      const amount = rnd.int(45, 95) * 10_000;
      const rate = rnd.pick([1.15, 1.35, 1.55, 1.8, 2.05]);
      add(
        {
          ...base,
          product_id: MORTGAGE,
          product_group: 'finance',
          company_id: rnd.pick(lenders),
          status: 'active',
          payment_cycle: 'quarterly',
          signing_date: signed(start),
          start_date: start,
          end_date: day(Number(start.slice(0, 4)) + fixedFor, Number(start.slice(5, 7))),
          coverage: JSON.stringify({ amount, interest_rate: rate, closure_type: 'new_business' }),
        },
        [paperDoc('contract', 'Hypothekarvertrag Festhypothek')],
      );
      const premium = rnd.int(450, 1200);
      add({
        ...base,
        product_id: 17,
        product_group: 'property_casualty',
        company_id: rnd.pick(buildingInsurers),
        status: 'active',
        payment_cycle: 'annual',
        signing_date: signed(start),
        start_date: start,
        coverage: JSON.stringify({
          lines: [
            { coverage: 'Gebäudewasser und Glas', sum: amount * 1.5, deductible: 500, premium },
          ],
        }),
      });
    }
    // An ended contract as history: a car sold, a supplementary insurance cancelled.
    if (rnd.chance(0.2)) {
      const start = day(rnd.int(2012, 2018), 1);
      const premium = rnd.int(40, 90);
      add({
        ...base,
        product_id: 2,
        product_group: 'health',
        company_id: rnd.pick(supplementaryInsurers),
        status: 'terminated',
        payment_cycle: 'monthly',
        signing_date: signed(start),
        start_date: start,
        end_date: day(rnd.int(2019, 2024), 12, 31),
        supplementary_insurances: JSON.stringify([{ sub_product_id: 8, premium_month: premium }]),
        previous_insurance: JSON.stringify({
          termination_responsible: 'customer',
          termination_note: 'Gekündigt per Jahresende',
        }),
      });
    }
    // The broker mandate: most assigned customers signed one.
    if (consultant !== null && rnd.chance(0.6)) {
      const start = started();
      add(
        {
          ...base,
          product_id: BROKER_MANDATE_PRODUCT_ID,
          product_group: 'other',
          company_id: rnd.pick(mandateInsurers),
          status: 'active',
          broker_mandate: true,
          payment_cycle: 'annual',
          signing_date: signed(start),
          start_date: start,
        },
        [paperDoc('mandate', 'Maklermandat (unterschrieben)')],
      );
    }
    // Advice that did not end in a contract.
    if (rnd.chance(0.25)) {
      const product = rnd.pick([2, 4, 7, 13]);
      const group: ProductGroup =
        product === 2 ? 'health' : product === 4 ? 'life' : 'property_casualty';
      add({
        ...base,
        contract_type: 'non-closure',
        product_id: product,
        product_group: group,
        company_id:
          product === 2
            ? rnd.pick(supplementaryInsurers)
            : rnd.pick(product === 4 ? lifeInsurers : pncInsurers),
        status: null,
        signing_date: null,
        reason: rnd.pick([
          'price',
          'stayed_with_insurer',
          'health_questions',
          'no_need',
          'postponed',
        ]),
        note: 'Offerte besprochen, Kunde meldet sich.',
      });
    }
  });

  const ids: number[] = [];
  for (let at = 0; at < contracts.length; at += 500) {
    const rows = await db
      .insertInto('contracts')
      .values(contracts.slice(at, at + 500))
      .returning('id')
      .execute();
    ids.push(...rows.map((row) => Number(row.id)));
  }
  const documentRows = documents.flatMap((docs, at) =>
    docs.map((doc) => ({
      ...doc,
      customer_id: Number(contracts[at].customer_id),
      contract_id: ids[at],
    })),
  );
  for (let at = 0; at < documentRows.length; at += 500) {
    await db
      .insertInto('documents')
      .values(documentRows.slice(at, at + 500))
      .execute();
  }
}
