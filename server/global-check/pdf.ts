/**
 * A Global check as PDF report (pdf-lib; issue 19), for the customer: the brokerage's heading, the
 * customer, the day of the check, its inputs, then per scenario of the check's topics the
 * benefits by source (CHF a month), the earnings still made, the cover, the need and the gap, the
 * waiting period of the disability scenarios, the customer's own contracts counted, and the notice
 * that this is an estimate. A4 portrait, in the language asked for, else the customer's first
 * correspondence language, else German; texts through releaseLabel (app.globalCheck.pdf.*, the
 * enums), amounts the Swiss way (CHF 1'234).
 */
import { type PDFFont, PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import type {
  Benefit,
  GlobalCheckResult,
  ScenarioKind,
  ScenarioResult,
} from '../../src/schema/pension/gap.ts';
import { SCENARIOS } from '../../src/schema/pension/gap.ts';
import { toCamelDeep } from '../../src/schema/case.ts';
import { type Language, languageOf } from '../customers/labels.ts';
import { dateText } from '../customers/rules.ts';
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import { releaseLabel } from '../i18n/source.ts';
import { longDate, swissNumber, wrap, writable } from '../pdf/text.ts';

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const GREY = rgb(0.45, 0.45, 0.45);
const RED = rgb(0.7, 0.1, 0.1);
const AMOUNT_RIGHT = PAGE.width - MARGIN;

/** The scenarios a topic covers (a check without topics reports all five). */
const TOPIC_SCENARIOS: Record<string, readonly ScenarioKind[]> = {
  retirement: ['retirement'],
  disability: ['diseaseDisability', 'accidentDisability'],
  death: ['diseaseDeath', 'accidentDeath'],
};

const json = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

/** A day in the language's long form (28. November 2026; French as English, spec §1). */
export function longDay(value: unknown, language: Language): string {
  return longDate(dateText(value), language);
}

export const chf = (value: number) => `CHF ${swissNumber(Math.round(value))}`;

/** The scenarios of the check's topics, in the tabs' order. */
export function reportedScenarios(topics: unknown): ScenarioKind[] {
  const chosen = Array.isArray(json(topics)) ? (json(topics) as string[]) : [];
  if (chosen.length === 0) return [...SCENARIOS];
  const wanted = new Set(chosen.flatMap((topic) => TOPIC_SCENARIOS[topic] ?? []));
  return SCENARIOS.filter((scenario) => wanted.has(scenario));
}

export async function globalCheckPdf(
  db: DB,
  check: ResourceRow,
  asked?: Language,
): Promise<{ pdf: Buffer; fileName: string; language: Language; title: string }> {
  const customer = await db
    .selectFrom('customers')
    .selectAll()
    .where('id', '=', Number(check.customer_id))
    .executeTakeFirst();
  const languages = (customer?.correspondence_languages as string[] | null) ?? [];
  const language = asked ?? languageOf(languages[0]);
  const t = (key: string, args: Record<string, string> = {}) =>
    Object.entries(args).reduce(
      (text, [name, value]) => text.replaceAll(`{{${name}}}`, value),
      releaseLabel(`app.globalCheck.pdf.${key}`, language),
    );
  const field = (name: string) => releaseLabel(`resources.global-checks.fields.${name}`, language);
  const enumLabel = (name: string, value: unknown) =>
    releaseLabel(`enums.${name}.${String(value)}`, language);
  const scenarioLabel = (scenario: string) => enumLabel('globalCheckScenario', scenario);
  const results = toCamelDeep(json(check.results) ?? {}) as Partial<GlobalCheckResult>;
  const children = (json(check.children) as Array<Record<string, unknown>> | null) ?? [];
  const partner = (json(check.partner) as Record<string, unknown> | null) ?? {};
  const ownCover = (json(check.own_cover) as Array<Record<string, unknown>> | null) ?? [];
  const name = customer
    ? [customer.organization, [customer.first_name, customer.last_name].filter(Boolean).join(' ')]
        .filter((part) => part && String(part).trim())
        .map(String)
        .join(', ')
    : '';

  const document = await PDFDocument.create();
  const title = `${t('title')} ${longDay(check.check_date, language)}`;
  document.setTitle(`${title} — ${name}`);
  document.setCreator('GS CRM');
  const regular = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  let page = document.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - MARGIN;
  const newPage = () => {
    page = document.addPage([PAGE.width, PAGE.height]);
    y = PAGE.height - MARGIN;
  };
  const room = (needed: number) => {
    if (y - needed < MARGIN) newPage();
  };
  const draw = (text: string, x: number, size: number, font = regular, color = rgb(0, 0, 0)) =>
    page.drawText(writable(font, text), { x, y, size, font, color });
  const drawRight = (text: string, right: number, size: number, font: PDFFont = regular) => {
    const shown = writable(font, text);
    page.drawText(shown, { x: right - font.widthOfTextAtSize(shown, size), y, size, font });
  };
  const paragraph = (text: string, size: number, color = rgb(0, 0, 0)) => {
    for (const line of wrap(regular, writable(regular, text), PAGE.width - 2 * MARGIN, size)) {
      room(size + 4);
      draw(line, MARGIN, size, regular, color);
      y -= size + 3;
    }
  };

  draw('GS CRM', MARGIN, 10, bold, GREY);
  y -= 36;
  draw(t('title'), MARGIN, 20, bold);
  y -= 22;
  draw(name, MARGIN, 12);
  y -= 16;
  draw(`${t('date')}: ${longDay(check.check_date, language)}`, MARGIN, 10, regular, GREY);
  y -= 28;

  // The inputs.
  draw(t('inputs'), MARGIN, 13, bold);
  y -= 18;
  const facts: Array<[string, string]> = [
    [field('birthDate'), longDay(check.birth_date, language)],
    [field('sex'), enumLabel('gender', check.sex)],
    [field('civilStatus'), enumLabel('maritalStatus', check.civil_status)],
    [field('employmentStatus'), enumLabel('employmentStatus', check.employment_status)],
    [field('grossIncome'), `${chf(Number(check.gross_income ?? 0))} ${t('perYear')}`],
    [field('needShare'), `${String(check.need_share ?? 80)} %`],
    [field('disabilityDegree'), `${String(check.disability_degree ?? 100)} %`],
    [
      field('calculationType'),
      enumLabel('globalCheckCalculation', check.calculation_type ?? 'with_contracts'),
    ],
  ];
  if (check.employment_date)
    facts.push([field('employmentDate'), longDay(check.employment_date, language)]);
  if (check.has_pension_missing_years)
    facts.push([field('gapYears'), String(check.gap_years ?? 0)]);
  if (check.bvg_savings !== null && check.bvg_savings !== undefined)
    facts.push([field('bvgSavings'), chf(Number(check.bvg_savings))]);
  if (partner.birth_date)
    facts.push([
      releaseLabel('resources.global-checks.fields.partner._label', language),
      [
        longDay(partner.birth_date, language),
        partner.gross_income !== null && partner.gross_income !== undefined
          ? `${chf(Number(partner.gross_income))} ${t('perYear')}`
          : '',
      ]
        .filter(Boolean)
        .join(', '),
    ]);
  children.forEach((child, index) =>
    facts.push([
      `${t('child', { number: String(index + 1) })}`,
      [child.first_name, longDay(child.birth_date, language)].filter(Boolean).join(', '),
    ]),
  );
  for (const [caption, value] of facts) {
    room(16);
    draw(`${caption}:`, MARGIN, 10, bold);
    draw(value, MARGIN + 190, 10);
    y -= 15;
  }
  if (results.figuresYear) {
    y -= 4;
    paragraph(
      t('figures', {
        year: String(results.figuresYear),
        start: longDay(results.retirementStart, language),
      }),
      9,
      GREY,
    );
  }

  const benefitLabel = (benefit: Benefit) => {
    const who =
      benefit.beneficiary === 'child'
        ? t('child', { number: String((benefit.child ?? 0) + 1) })
        : enumLabel('pensionBeneficiary', benefit.beneficiary);
    const notes = (benefit.notes ?? []).map((note) => enumLabel('pensionNote', note));
    return `${enumLabel('pensionSource', benefit.source)} – ${enumLabel('pensionKind', benefit.kind)} (${who})${
      notes.length ? ` · ${notes.join(', ')}` : ''
    }`;
  };
  const row = (label: string, amount: number, font = regular, color = rgb(0, 0, 0)) => {
    room(14);
    const lines = wrap(font, writable(font, label), AMOUNT_RIGHT - MARGIN - 110, 10);
    lines.forEach((line, index) => {
      if (index > 0) {
        y -= 12;
        room(14);
      }
      draw(line, MARGIN + 8, 10, font, color);
    });
    drawRight(chf(amount), AMOUNT_RIGHT, 10, font);
    y -= 14;
  };

  const scenarios = results.scenarios as Record<ScenarioKind, ScenarioResult> | undefined;
  for (const kind of reportedScenarios(check.topics)) {
    const scenario = scenarios?.[kind];
    if (!scenario) continue;
    y -= 14;
    room(90);
    draw(scenarioLabel(kind), MARGIN, 13, bold);
    drawRight(t('perMonth'), AMOUNT_RIGHT, 9, regular);
    y -= 18;
    if (scenario.benefits.length === 0) {
      room(14);
      draw(t('noBenefits'), MARGIN + 8, 10, regular, GREY);
      y -= 14;
    }
    for (const benefit of scenario.benefits) row(benefitLabel(benefit), benefit.monthly);
    if (scenario.remainingEarnings > 0) row(t('remainingEarnings'), scenario.remainingEarnings);
    row(t('cover'), scenario.cover, bold);
    row(t('need'), scenario.need, bold);
    row(t('gap'), scenario.gap, bold, scenario.gap > 0 ? RED : rgb(0, 0, 0));
    const waiting = scenario.waitingPeriod;
    if (waiting) {
      y -= 4;
      const source = waiting.source ? enumLabel('pensionSource', waiting.source) : t('waitingNone');
      paragraph(
        t(waiting.days ? 'waitingDays' : 'waitingOpen', {
          source,
          from: String(waiting.fromDay),
          days: String(waiting.days ?? ''),
          cover: chf(waiting.cover),
          gap: chf(waiting.gap),
        }),
        9,
        GREY,
      );
    }
  }

  if (ownCover.length > 0) {
    y -= 14;
    room(40);
    draw(t('ownCover'), MARGIN, 13, bold);
    y -= 18;
    for (const line of ownCover)
      row(
        `${enumLabel('ownCoverKind', line.kind)} – ${t('contract', { id: String(line.contract_id) })}${
          line.coverage ? ` (${String(line.coverage)})` : ''
        }`,
        Number(line.monthly ?? 0),
      );
  }
  y -= 16;
  paragraph(t('notice'), 9, GREY);
  return {
    pdf: Buffer.from(await document.save()),
    fileName: `global-check-${String(check.id)}.pdf`,
    language,
    title,
  };
}
