/**
 * Demo offers (issue 18): for the dozen newest of the consultants' customers, offers in every status —
 * drafts and sent ones still valid, expired ones, declined ones with their reason (one recorded as
 * a non-closure), and accepted ones linked to a closure of the same customer, product and insurer
 * made for it. Car, household and legal-protection offers of insurers that offer the product,
 * premiums and covers that read like real ones.
 */
import dayjs from 'dayjs';
import type { Insertable } from 'kysely';
import { offerAnnualPremium, type OfferStatus } from '../../src/schema/offers.ts';
import type { PaymentCycle } from '../../src/schema/figures.ts';
import type { OffersTable } from '../../src/types/database.ts';
import { contractFigures } from '../contracts/figures.ts';
import type { DB } from '../db/index.ts';
import { random } from './random.ts';

const CAR = 7;
const HOUSEHOLD = 13;
const LEGAL = 9;

interface Kind {
  product: number;
  premium: [number, number];
  cycle: PaymentCycle;
  covers: string[];
}

const KINDS: Kind[] = [
  {
    product: CAR,
    premium: [650, 1900],
    cycle: 'annual',
    covers: [
      'Haftpflicht CHF 100 Mio., Teilkasko (Selbstbehalt CHF 200), Parkschaden, Bonusschutz',
      'Haftpflicht CHF 100 Mio., Vollkasko (Selbstbehalt CHF 1000), Teilkasko (CHF 0), Insassenunfall',
    ],
  },
  {
    product: HOUSEHOLD,
    premium: [180, 520],
    cycle: 'annual',
    covers: [
      'Hausrat CHF 80 000, einfacher Diebstahl auswärts CHF 2000, Glasbruch',
      'Hausrat CHF 120 000, Wertsachen CHF 10 000, Selbstbehalt CHF 200',
    ],
  },
  {
    product: LEGAL,
    premium: [14, 32],
    cycle: 'monthly',
    covers: ['Privat- und Verkehrsrechtsschutz, CHF 300 000 je Fall, weltweit'],
  },
];

const PLAN: OfferStatus[] = ['draft', 'sent', 'sent', 'accepted', 'declined', 'expired'];
const REASONS = ['price', 'stayed_with_insurer', 'postponed'];

export async function seedDemoOffers(db: DB, now: number = Date.now()): Promise<void> {
  const rnd = random(2026112818);
  const today = dayjs(now);
  const companies = await db
    .selectFrom('companies')
    .select(['id', 'products'])
    .orderBy('id')
    .execute();
  const insurersOf = (product: number) =>
    companies
      .filter((company) => ((company.products ?? []) as number[]).includes(product))
      .map((company) => Number(company.id));
  const customers = await db
    .selectFrom('customers')
    .select(['id', 'assigned_to'])
    .where('assigned_to', 'is not', null)
    .where('is_company', '=', false)
    // The newest customers: the first ones' households are the coverage view's examples (their
    // gaps: server/demo/contracts.ts), which an accepted offer's closure would fill.
    .orderBy('id', 'desc')
    .limit(12)
    .execute();
  const pick = rnd.pick;
  const fraction = () => rnd.int(0, 1000) / 1000;
  const rows: Array<Insertable<OffersTable>> = [];
  const closures: Array<{ index: number; values: Record<string, unknown> }> = [];
  customers.forEach((customer, at) => {
    const statuses = [PLAN[at % PLAN.length]!, PLAN[(at + 3) % PLAN.length]!];
    statuses.forEach((status, nth) => {
      const kind = KINDS[(at + nth) % KINDS.length]!;
      const insurers = insurersOf(kind.product);
      if (insurers.length === 0) return;
      const company = pick(insurers);
      const premium =
        Math.round((kind.premium[0] + fraction() * (kind.premium[1] - kind.premium[0])) * 20) / 20;
      const created = today.subtract(rnd.int(5, 55), 'day');
      const validUntil =
        status === 'expired' ? today.subtract(3 + at, 'day') : created.add(60, 'day');
      const decided = status === 'accepted' || status === 'declined';
      const row: Insertable<OffersTable> = {
        customer_id: customer.id,
        consultant_id: customer.assigned_to,
        company_id: company,
        product_id: kind.product,
        premium,
        payment_cycle: kind.cycle,
        annual_premium: offerAnnualPremium(premium, kind.cycle),
        cover_summary: pick(kind.covers),
        start_date: created.add(1, 'month').startOf('month').format('YYYY-MM-DD'),
        valid_until: validUntil.format('YYYY-MM-DD'),
        status,
        source: 'manual',
        created_at: created.toDate(),
        sent_at: status === 'draft' ? null : created.add(1, 'day').toDate(),
        decided_at: decided ? created.add(8, 'day').toDate() : null,
        decline_reason: status === 'declined' ? pick(REASONS) : null,
      };
      if (status === 'accepted' || (status === 'declined' && at % 2 === 0))
        closures.push({
          index: rows.length,
          values: {
            customer_id: customer.id,
            consultant_id: customer.assigned_to,
            company_id: company,
            product_id: kind.product,
            contract_type: status === 'accepted' ? 'closure' : 'non-closure',
            product_group: 'property_casualty',
            ...(status === 'accepted'
              ? {
                  status: 'application',
                  payment_cycle: kind.cycle,
                  signing_date: created.add(8, 'day').format('YYYY-MM-DD'),
                  start_date: row.start_date,
                  insurance: JSON.stringify({ premium }),
                }
              : { reason: row.decline_reason }),
            note: `Aus Offerte`,
          },
        });
      rows.push(row);
    });
  });
  if (rows.length === 0) return;
  const inserted = await db.insertInto('offers').values(rows).returning('id').execute();
  for (const { index, values } of closures) {
    const offerId = inserted[index]!.id;
    // The figures as the contracts' write hooks compute them (server/contracts/figures.ts).
    const premium = values.insurance
      ? (JSON.parse(String(values.insurance)) as { premium: number }).premium
      : undefined;
    const figures = contractFigures({
      productGroup: 'property_casualty',
      paymentCycle: (values.payment_cycle ?? 'monthly') as PaymentCycle,
      insurance: { premium },
    });
    Object.assign(values, {
      annual_premium: figures.annualPremium,
      production_sum: figures.productionSum,
      total_commission: figures.totalCommission,
      protocol_missing: false,
    });
    const contract = await db
      .insertInto('contracts')
      .values({ ...values, note: `Aus Offerte #${offerId}` } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('offers')
      .set({ contract_id: contract.id })
      .where('id', '=', offerId)
      .execute();
  }
}
