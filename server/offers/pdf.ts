/**
 * An offer as PDF (pdf-lib; issue 18), to hand or send to the customer: the brokerage's heading,
 * the customer and their address, the insurer and product, the premium per payment and a year,
 * the cover's start, the validity and the cover summary, the consultant. A4 portrait, in the
 * language asked for, else the customer's first correspondence language, else German. Text through
 * ../pdf/text.ts (what the standard fonts cannot write, simplified).
 */
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { type Language, languageOf } from '../customers/labels.ts';
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import { releaseLabel } from '../i18n/source.ts';
import { swissNumber, wrap, writable } from '../pdf/text.ts';

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const GREY = rgb(0.45, 0.45, 0.45);

const day = (value: unknown, language: Language) => {
  if (!value) return '';
  const date = new Date(`${String(value).slice(0, 10)}T12:00:00Z`);
  return Number.isNaN(date.getTime())
    ? ''
    : new Intl.DateTimeFormat(`${language}-CH`, {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(date);
};

export async function offerPdf(
  db: DB,
  offer: ResourceRow,
  asked?: Language,
): Promise<{ pdf: Buffer; fileName: string }> {
  const customer = await db
    .selectFrom('customers')
    .selectAll()
    .where('id', '=', Number(offer.customer_id))
    .executeTakeFirst();
  const languages = (customer?.correspondence_languages as string[] | null) ?? [];
  const language = asked ?? languageOf(languages[0]);
  const t = (key: string) => releaseLabel(`app.offers.pdf.${key}`, language);
  const field = (name: string) => releaseLabel(`resources.offers.fields.${name}`, language);
  const company = await db
    .selectFrom('companies')
    .selectAll()
    .where('id', '=', Number(offer.company_id))
    .executeTakeFirst();
  const product = await db
    .selectFrom('products')
    .select('key')
    .where('id', '=', Number(offer.product_id))
    .executeTakeFirst();
  const consultant = offer.consultant_id
    ? await db
        .selectFrom('users')
        .select(['first_name', 'last_name', 'email', 'phone'])
        .where('id', '=', Number(offer.consultant_id))
        .executeTakeFirst()
    : undefined;
  const companyName = company
    ? String((company as Record<string, unknown>)[`name_${language}`] ?? company.name_de ?? '') ||
      String(company.name_de)
    : '';

  const document = await PDFDocument.create();
  document.setTitle(`${t('title')} #${String(offer.id)}`);
  document.setCreator('GS CRM');
  const regular = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  const page = document.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - MARGIN;
  const draw = (text: string, x: number, size: number, font = regular, color = rgb(0, 0, 0)) =>
    page.drawText(writable(font, text), { x, y, size, font, color });

  draw('GS CRM', MARGIN, 10, bold, GREY);
  y -= 40;
  // The customer's address block.
  const name = customer
    ? [customer.organization, [customer.first_name, customer.last_name].filter(Boolean).join(' ')]
        .filter((part) => part && String(part).trim())
        .map(String)
    : [];
  const street = customer
    ? [customer.street, customer.address_number].filter(Boolean).join(' ')
    : '';
  const place = customer ? [customer.zip, customer.city].filter(Boolean).join(' ') : '';
  for (const line of [...name, street, place].filter(Boolean)) {
    draw(line, MARGIN, 11);
    y -= 14;
  }
  y -= 30;
  draw(`${t('title')} #${String(offer.id)}`, MARGIN, 18, bold);
  y -= 18;
  draw(`${t('date')}: ${day(new Date().toISOString(), language)}`, MARGIN, 10, regular, GREY);
  y -= 30;

  const cycle = releaseLabel(`enums.paymentCycle.${String(offer.payment_cycle)}`, language);
  const facts: Array<[string, string]> = [
    [field('companyId'), companyName],
    [field('productId'), product ? releaseLabel(`products.${product.key}`, language) : ''],
    [field('premium'), `CHF ${swissNumber(Number(offer.premium), 2)} (${cycle})`],
    [field('annualPremium'), `CHF ${swissNumber(Number(offer.annual_premium ?? 0), 2)}`],
  ];
  if (offer.start_date) facts.push([field('startDate'), day(offer.start_date, language)]);
  if (offer.valid_until) facts.push([field('validUntil'), day(offer.valid_until, language)]);
  for (const [caption, value] of facts) {
    draw(`${caption}:`, MARGIN, 11, bold);
    draw(value, MARGIN + 160, 11);
    y -= 18;
  }
  if (offer.cover_summary) {
    y -= 12;
    draw(field('coverSummary'), MARGIN, 12, bold);
    y -= 16;
    const text = writable(regular, String(offer.cover_summary));
    for (const line of wrap(regular, text, PAGE.width - 2 * MARGIN, 10)) {
      if (y < MARGIN + 80) break;
      draw(line, MARGIN, 10);
      y -= 13;
    }
  }
  y -= 24;
  draw(t('notice'), MARGIN, 9, regular, GREY);
  if (consultant) {
    y -= 30;
    draw(t('consultant'), MARGIN, 10, bold);
    y -= 14;
    draw(`${consultant.first_name} ${consultant.last_name}`, MARGIN, 10);
    for (const contact of [consultant.email, consultant.phone].filter(Boolean)) {
      y -= 13;
      draw(String(contact), MARGIN, 10, regular, GREY);
    }
  }
  return {
    pdf: Buffer.from(await document.save()),
    fileName: `offer-${String(offer.id)}.pdf`,
  };
}
