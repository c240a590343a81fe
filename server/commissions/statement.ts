/**
 * A payout's statement as PDF (pdf-lib; issue 17): the user, the month, the payout's number,
 * status and dates, then its lines — day written, contract, customer, kind, the explanation (the
 * engine's steps translated with their figures, and the reason of a correction) and the amount —
 * and the total. A4 portrait, the table's head repeated on every page, page numbers. In the
 * language asked for, else the payout user's (a statement is theirs to read).
 * Text through ../pdf/text.ts (what the standard fonts cannot write, simplified).
 */
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { wrap as wrapText, writable } from '../pdf/text.ts';
import { type Language, languageOf } from '../customers/labels.ts';
import type { DB } from '../db/index.ts';
import type { ResourceRow } from '../db/resource.ts';
import { chf, dayName, explainTexts, label, monthName, personName } from './payout-texts.ts';

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 40;
const SIZE = 8;
const LEADING = 10;
const PADDING = 3;
const GREY = rgb(0.45, 0.45, 0.45);
const RULE = rgb(0.8, 0.8, 0.8);

/** The table's columns (widths in points, together the page's width inside the margins). */
const COLUMNS = [
  { key: 'date', width: 58 },
  { key: 'contract', width: 68 },
  { key: 'customer', width: 88 },
  { key: 'kind', width: 62 },
  { key: 'explain', width: 169 },
  { key: 'amount', width: 70, right: true },
] as const;

type Cell = (typeof COLUMNS)[number]['key'];

export interface Statement {
  pdf: Buffer;
  fileName: string;
}

const wrap = (font: PDFFont, text: string, width: number, size = SIZE) =>
  wrapText(font, text, width, size);

/** The statement of a (visible) payout. */
export async function payoutStatement(
  db: DB,
  payout: ResourceRow,
  asked?: Language,
): Promise<Statement> {
  const user = await db
    .selectFrom('users')
    .select(['first_name', 'last_name', 'email', 'language'])
    .where('id', '=', Number(payout.user_id))
    .executeTakeFirst();
  const language = asked ?? languageOf(user?.language);
  const lines = await db
    .selectFrom('commission_lines')
    .select([
      'id',
      'created_at',
      'period',
      'kind',
      'contract_number',
      'customer_name',
      'explain',
      'reason',
      'amount',
    ])
    .where('payout_id', '=', Number(payout.id))
    .orderBy('period')
    .orderBy('created_at')
    .orderBy('id')
    .execute();

  const t = (key: string) => label(`app.payouts.statement.${key}`, language);
  const name = personName(user);
  const period = String(payout.period);
  const document = await PDFDocument.create();
  document.setTitle(`${t('title')} ${name} ${period}`);
  document.setAuthor('GS CRM');
  document.setCreator('GS CRM');
  document.setLanguage(language);
  const regular = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  const text = (font: PDFFont, value: string) => writable(font, value);

  let page: PDFPage = document.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - MARGIN;
  const draw = (value: string, x: number, size: number, font = regular, color = rgb(0, 0, 0)) =>
    page.drawText(text(font, value), { x, y, size, font, color });

  // The head: title, person, month, the payout's facts.
  draw(t('title'), MARGIN, 16, bold);
  y -= 24;
  draw(name, MARGIN, 11, bold);
  y -= 14;
  if (user?.email) {
    draw(user.email, MARGIN, 9, regular, GREY);
    y -= 14;
  }
  const facts: Array<[string, string]> = [
    [t('period'), monthName(period, language)],
    [t('payout'), `#${String(payout.id)}`],
    [t('status'), label(`enums.payoutStatus.${String(payout.status ?? 'new')}`, language)],
    [t('created'), dayName(payout.created_at as Date, language)],
  ];
  if (payout.approved_at)
    facts.push([t('approved'), dayName(payout.approved_at as Date, language)]);
  if (payout.paid_at) facts.push([t('paid'), dayName(payout.paid_at as Date, language)]);
  for (const [caption, value] of facts) {
    draw(`${caption}:`, MARGIN, 9, bold);
    draw(value, MARGIN + 90, 9);
    y -= 12;
  }
  if (payout.note) {
    for (const line of wrap(
      regular,
      text(regular, String(payout.note)),
      PAGE.width - 2 * MARGIN,
      9,
    )) {
      draw(line, MARGIN, 9, regular, GREY);
      y -= 12;
    }
  }
  y -= 10;

  const header = () => {
    let x = MARGIN;
    for (const column of COLUMNS) {
      const caption = text(bold, t(`column.${column.key}`));
      const at =
        'right' in column
          ? x + column.width - PADDING - bold.widthOfTextAtSize(caption, SIZE)
          : x + PADDING;
      page.drawText(caption, { x: at, y, size: SIZE, font: bold });
      x += column.width;
    }
    y -= 4;
    page.drawLine({
      start: { x: MARGIN, y },
      end: { x: PAGE.width - MARGIN, y },
      thickness: 0.8,
      color: rgb(0, 0, 0),
    });
    y -= LEADING;
  };
  const newPage = () => {
    page = document.addPage([PAGE.width, PAGE.height]);
    y = PAGE.height - MARGIN;
    draw(`${t('title')} — ${name} — ${monthName(period, language)}`, MARGIN, 8, regular, GREY);
    y -= 18;
    header();
  };
  header();

  for (const line of lines) {
    const explain = explainTexts(line.explain, language);
    if (line.reason) explain.push(`${t('reason')}: ${line.reason}`);
    const cells: Record<Cell, string> = {
      date: dayName(line.created_at as Date, language),
      contract: line.contract_number ?? '',
      customer: line.customer_name ?? '',
      kind: label(`enums.commissionLineKind.${line.kind}`, language),
      explain: explain.join('\n'),
      amount: chf(Number(line.amount)),
    };
    const wrapped = COLUMNS.map((column) =>
      wrap(regular, text(regular, cells[column.key]), column.width - 2 * PADDING),
    );
    const height = Math.max(...wrapped.map((cell) => cell.length)) * LEADING;
    if (y - height < MARGIN + 30) newPage();
    let x = MARGIN;
    COLUMNS.forEach((column, at) => {
      let lineY = y;
      for (const part of wrapped[at] ?? []) {
        const left =
          'right' in column
            ? x + column.width - PADDING - regular.widthOfTextAtSize(part, SIZE)
            : x + PADDING;
        page.drawText(part, { x: left, y: lineY, size: SIZE, font: regular });
        lineY -= LEADING;
      }
      x += column.width;
    });
    y -= height;
    page.drawLine({
      start: { x: MARGIN, y: y + LEADING - 3 },
      end: { x: PAGE.width - MARGIN, y: y + LEADING - 3 },
      thickness: 0.4,
      color: RULE,
    });
    y -= 2;
  }

  // The total, right-aligned under the amounts.
  if (y < MARGIN + 40) newPage();
  y -= 8;
  const total = text(
    bold,
    `${t('total')} (${lines.length} ${t('lines')}): ${chf(Number(payout.total ?? 0))}`,
  );
  page.drawText(total, {
    x: PAGE.width - MARGIN - PADDING - bold.widthOfTextAtSize(total, 10),
    y,
    size: 10,
    font: bold,
  });

  const pages = document.getPages();
  pages.forEach((each, at) => {
    const number = text(
      regular,
      t('page')
        .replace('{{page}}', String(at + 1))
        .replace('{{pages}}', String(pages.length)),
    );
    each.drawText(number, {
      x: PAGE.width - MARGIN - regular.widthOfTextAtSize(number, 8),
      y: MARGIN / 2,
      size: 8,
      font: regular,
      color: GREY,
    });
  });

  const bytes = await document.save();
  return {
    pdf: Buffer.from(bytes),
    fileName: `payout-${String(payout.id)}-${period}.pdf`,
  };
}
