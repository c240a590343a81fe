/**
 * Demo car comparisons (issue 18): every demo staff user's offer credentials for the local
 * stand-in service (server/comparison/stand-in.ts, started with the demo), and car-comparison
 * drafts of six of the consultants' customers in every state — one started by the customer through
 * a link and left after two steps, one open at the drivers, one complete but not compared, two
 * compared (with the stand-in's sample tariffs, labelled as such), and one whose two cheapest
 * results became offers (source comparison: one draft, one sent).
 */
import dayjs from 'dayjs';
import { toSnakeDeep } from '../../src/schema/case.ts';
import {
  CAR_PRODUCT_ID,
  type ComparisonDraftFields,
  draftSummary,
} from '../../src/schema/comparison.ts';
import { offerAnnualPremium } from '../../src/schema/offers.ts';
import { encrypt, offerKey } from '../account/secrets.ts';
import type { DB } from '../db/index.ts';
import { sampleQuotes, STAND_IN_LABEL, STAND_IN_PASSWORD } from '../comparison/stand-in.ts';

const json = (value: unknown) => JSON.stringify(toSnakeDeep(value));

export async function seedDemoComparisons(db: DB, now: number = Date.now()): Promise<void> {
  const today = dayjs(now);
  const iso = (day: dayjs.Dayjs) => day.format('YYYY-MM-DD');
  const staff = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('role', 'in', ['ADMIN', 'BACKOFFICE', 'BACKOFFICE-CALLCENTER', 'CONSULTANT'])
    .execute();
  const key = await offerKey(db);
  if (staff.length > 0)
    await db
      .insertInto('offer_credentials')
      .values(
        staff.map((user) => ({
          user_id: Number(user.id),
          username_encrypted: encrypt(key, String(user.email), `offer-username:${user.id}`),
          password_encrypted: encrypt(key, STAND_IN_PASSWORD, `offer-password:${user.id}`),
        })),
      )
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();

  const customers = await db
    .selectFrom('customers')
    .select([
      'id',
      'assigned_to',
      'first_name',
      'last_name',
      'gender',
      'date_of_birth',
      'nationality',
      'permit_type',
      'street',
      'address_number',
      'zip',
      'city',
    ])
    .where('assigned_to', 'is not', null)
    .where('is_company', '=', false)
    .where('date_of_birth', 'is not', null)
    .where('zip', 'is not', null)
    .orderBy('id')
    .limit(6)
    .execute();
  const cars: [string, string, number, number, number][] = [
    ['Volkswagen', 'Golf 1.5 TSI Life', 2021, 4, 38_500],
    ['Škoda', 'Octavia Combi 2.0 TDI 4x4', 2019, 9, 96_000],
    ['Tesla', 'Model 3 Long Range', 2023, 2, 21_000],
    ['Toyota', 'Yaris Hybrid', 2022, 6, 17_800],
    ['BMW', 'X3 xDrive20d', 2020, 11, 64_000],
    ['Renault', 'Clio TCe 90', 2018, 3, 88_000],
  ];
  const cantons = ['ZH', 'BE', 'VD', 'AG', 'GE', 'LU'];
  const plan = ['link-open', 'open', 'complete', 'compared', 'compared', 'offered'] as const;
  const dateText = (value: unknown) =>
    value instanceof Date ? dayjs(value).format('YYYY-MM-DD') : String(value).slice(0, 10);

  // The sample insurers' companies (matched by their German name, as the stand-in names them).
  const companies = await db.selectFrom('companies').select(['id', 'name_de']).execute();

  for (const [index, customer] of customers.entries()) {
    const state = plan[index]!;
    const [manufacturer, type, year, month, km] = cars[index]!;
    const birthdate = dateText(customer.date_of_birth);
    const licence = dayjs(birthdate).add(18, 'year').add(7, 'month');
    const fields: ComparisonDraftFields = {
      car: {
        manufacturer,
        type,
        firstRegistrationYear: year,
        firstRegistrationMonth: month,
        kilometres: km,
        extrasValuation: index % 2 === 0 ? 2500 : 0,
        purchaseYear: year + (index % 3 === 0 ? 1 : 0),
      },
      canton: cantons[index],
      yearlyKm: [12_000, 18_000, 9_000, 15_000, 22_000, 7_000][index],
      usage: (['private', 'way_to_work', 'private', 'work', 'way_to_work', 'private'] as const)[
        index
      ],
      garageType: (
        ['private_garage', 'shared_garage', 'carport', 'none', 'private_garage', 'none'] as const
      )[index],
      driver: {
        title: customer.gender === 'female' ? 'ms' : 'mr',
        firstName: customer.first_name ?? undefined,
        lastName: customer.last_name ?? undefined,
        birthdate,
        nationality: customer.nationality ?? 'CH',
        ...(customer.nationality && customer.nationality !== 'CH'
          ? { permit: customer.permit_type ?? 'C' }
          : {}),
        street: [customer.street, customer.address_number].filter(Boolean).join(' ') || undefined,
        postcode: /^\d{4}$/.test(String(customer.zip)) ? String(customer.zip) : '8001',
        city: customer.city ?? 'Zürich',
        licenceDate: iso(licence.isAfter(today) ? today.subtract(1, 'year') : licence),
        isMain: true,
      },
      otherUsers: [],
      under25Usage: dayjs(birthdate).add(25, 'year').isAfter(today),
      coverage: {
        leased: index === 2,
        basic:
          index === 2 || index === 4 ? 'full_casco' : index === 5 ? 'liability' : 'partial_casco',
        deductiblePartial: 200,
        ...(index === 2 || index === 4 ? { deductibleFull: 1000 } : {}),
        garage: index % 2 === 0,
        bonusProtection: index === 2 || index === 4 ? 'liability_full_casco' : 'liability',
        valuableItems: index === 3 ? 3000 : 0,
        parkingExtra: index !== 5,
        unlimitedDamage: true,
        currentDamage: false,
        passengerAccident: index % 2 === 1,
        startDate: iso(today.add(1, 'month').startOf('month')),
        previousInsurer: ['AXA', 'Die Mobiliar', 'Allianz Suisse', 'Generali', 'Helvetia', 'TCS'][
          index
        ],
      },
      history: {
        cancelledContract: false,
        rejectedApplication: false,
        damageOrFinesOver250: index === 4,
      },
    };
    if (fields.coverage?.basic === 'liability') delete fields.coverage.deductiblePartial;
    const stepsDone = state === 'link-open' ? 2 : state === 'open' ? 2 : 5;
    const kept: ComparisonDraftFields =
      stepsDone === 2
        ? {
            car: fields.car,
            canton: fields.canton,
            yearlyKm: fields.yearlyKm,
            usage: fields.usage,
            garageType: fields.garageType,
            ...(state === 'open' ? { driver: { ...fields.driver, licenceDate: undefined } } : {}),
          }
        : fields;
    const compared = state === 'compared' || state === 'offered';
    const quotes = compared ? sampleQuotes(fields, iso(today)) : [];
    const priced = quotes
      .map((quote) => ({
        ...quote,
        companyId:
          Number(companies.find((company) => company.name_de === quote.insurer)?.id) || null,
      }))
      .sort((a, b) => a.annualPremium - b.annualPremium);
    const results = compared
      ? {
          service: 'GS CRM stand-in',
          sample: true,
          label: STAND_IN_LABEL,
          quotes: priced,
        }
      : {};
    const updated = today.subtract(6 - index, 'day').toDate();
    const draft = await db
      .insertInto('car_comparison_drafts')
      .values({
        customer_id: Number(customer.id),
        summary: draftSummary(kept),
        status: state === 'link-open' ? 'open' : state,
        steps_done: stepsDone,
        started_via: state === 'link-open' ? 'link' : 'staff',
        created_by: Number(customer.assigned_to),
        car: json(kept.car ?? {}),
        canton: kept.canton ?? null,
        yearly_km: kept.yearlyKm ?? null,
        usage: kept.usage ?? null,
        garage_type: kept.garageType ?? null,
        driver: json(JSON.parse(JSON.stringify(kept.driver ?? {}))),
        other_users: json(kept.otherUsers ?? []),
        under25_usage: kept.under25Usage ?? null,
        coverage: json(kept.coverage ?? {}),
        history: json(kept.history ?? {}),
        results: json(results),
        compared_at: compared ? updated : null,
        created_at: today.subtract(8 - index, 'day').toDate(),
        updated_at: updated,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (state !== 'offered') continue;
    const chosen = priced.filter((quote) => quote.companyId).slice(0, 2);
    for (const [rank, quote] of chosen.entries()) {
      await db
        .insertInto('offers')
        .values({
          customer_id: Number(customer.id),
          consultant_id: Number(customer.assigned_to),
          company_id: Number(quote.companyId),
          product_id: CAR_PRODUCT_ID,
          premium: quote.annualPremium,
          payment_cycle: 'annual',
          annual_premium: offerAnnualPremium(quote.annualPremium, 'annual'),
          cover_summary: `${quote.insurer} – ${quote.product}: Haftpflicht CHF ${quote.premiums.liability}, Teilkasko CHF ${quote.premiums.partialCasco}, Zusatzdeckungen CHF ${quote.premiums.addOns}`,
          start_date: fields.coverage?.startDate ?? null,
          valid_until: iso(today.add(30, 'day')),
          status: rank === 0 ? 'sent' : 'draft',
          sent_at: rank === 0 ? updated : null,
          source: 'comparison',
          comparison_draft_id: Number(draft.id),
          comparison_quote: json(quote),
        })
        .execute();
    }
  }
}
