/**
 * Documents signed online (issue 19; server/signatures/): a request made for a PDF broker mandate
 * (link answered once, mailed to the outbox), the public page's context and document with the
 * token, the signing (stamped PDF stored as a new document beside the original, request closed
 * with its audit, the contract's broker mandate set or its advice protocol counted, the consultant
 * notified), and the token rules: guessed, of another request, reused, revoked, replaced,
 * expired, document gone or changed — and bad input on both sides, who sees the requests, and two
 * signatures at once. Both engines.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { PDFDocument, PDFHexString, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Entry, fromBuffer } from 'yauzl';
import { expireRequests, signatureMaxBytes, TOKEN_HEADER } from '../../server/signatures/index.ts';
import { getStorage } from '../../server/storage/index.ts';
import { swissToday } from '../../src/schema/swiss-time.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp, temporaryStorage } from './harness.ts';
import { multipart, PNG } from './multipart.ts';
import { pdfText } from './pdf-text.ts';

// The size limit, small here so a real file can exceed it (read when a document is checked).
vi.stubEnv('SIGNATURE_MAX_BYTES', String(300_000));

const folder = temporaryStorage('signatures');
const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
type Row = Record<string, unknown>;
interface Made {
  data: Row;
  token: string;
  url: string;
  mailed: boolean;
}
interface ErrorAnswer {
  message: string;
  key: string;
  args?: Record<string, unknown>;
  errors?: Record<string, string[]>;
  error_keys?: Record<string, Array<{ message: string }>>;
}

let t: TestApp;
const users: Record<string, number> = {};
const unique = Math.random().toString(36).slice(2, 8);
let customer: Row;
let theirs: Row;
let insurer: number;
let counter = 0;

const call = (as: string | undefined, method: string, url: string, payload?: unknown) =>
  t.request({ method: method as 'GET', url, payload: payload as never, as });
const data = <T = Row>(response: LightMyRequestResponse) => (response.json() as { data: T }).data;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The public routes with a token (no session). */
const asSigner = (
  token: string | undefined,
  method: string,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) =>
  t.request({
    method: method as 'GET',
    url,
    payload: payload as never,
    headers: token === undefined ? headers : { ...headers, [TOKEN_HEADER]: token },
  });

const context = (token: string | undefined, id: unknown) =>
  asSigner(token, 'GET', `/api/public/signatures/${String(id)}`);
const pdfOf = (token: string | undefined, id: unknown) =>
  asSigner(token, 'GET', `/api/public/signatures/${String(id)}/document`);

const signature = {
  width: 400,
  height: 150,
  strokes: [
    [20, 100, 60, 40, 100, 110, 140, 50, 180, 105],
    [200, 80, 260, 60, 320, 90, 380, 70],
  ],
};
const signing = (extra: Row = {}): Row => ({
  name: 'Sophie Signature',
  place: 'Lausanne',
  consent: true,
  signature,
  ...extra,
});
const sign = (
  token: string | undefined,
  id: unknown,
  body: Row = signing(),
  headers: Record<string, string> = {},
) => asSigner(token, 'POST', `/api/public/signatures/${String(id)}/sign`, body, headers);

async function aPdf(title: string, pages = 1, padding = 0): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let page = 1; page <= pages; page++)
    document
      .addPage([595.28, 841.89])
      .drawText(`${title} ${page}`, { x: 50, y: 780, size: 16, font });
  const bytes = Buffer.from(await document.save());
  // A comment after the end: still a PDF pdf-lib reads, only larger.
  return padding > 0
    ? Buffer.concat([bytes, Buffer.from(`%${'x'.repeat(padding)}\n`, 'latin1')])
    : bytes;
}

/** A PDF whose trailer names an encryption dictionary: pdf-lib refuses to open it. */
async function anEncryptedPdf(): Promise<Buffer> {
  const document = await PDFDocument.create();
  document.addPage();
  const zeros = PDFHexString.of('00'.repeat(32));
  document.context.trailerInfo.Encrypt = document.context.register(
    document.context.obj({ Filter: 'Standard', V: 1, R: 2, P: -4, O: zeros, U: zeros }),
  );
  return Buffer.from(await document.save({ useObjectStreams: false }));
}

async function upload(
  fields: Array<[string, string]>,
  content: Buffer,
  options: { filename?: string; contentType?: string; as?: string; customerId?: unknown } = {},
): Promise<Row> {
  const form = multipart([
    ...fields,
    {
      name: 'file',
      filename: options.filename ?? 'mandat.pdf',
      contentType: options.contentType ?? 'application/pdf',
      content,
    },
  ]);
  const response = await t.request({
    method: 'POST',
    url: `/api/customers/${String(options.customerId ?? customer.id)}/documents`,
    payload: form.payload,
    headers: form.headers,
    as: options.as ?? CONSULTANT,
  });
  expect(response.statusCode, response.body).toBe(201);
  return data(response);
}

/** A PDF document of `type` with a name of its own; answers the record and the file's bytes. */
async function aDocument(
  type = 'mandate',
  fields: Array<[string, string]> = [],
  content?: Buffer,
): Promise<{ document: Row; bytes: Buffer }> {
  const name = `Dokument ${unique} ${++counter}`;
  const bytes = content ?? (await aPdf(name));
  const document = await upload(
    [['document_type', type], ['document_name', name], ...fields],
    bytes,
  );
  return { document, bytes };
}

const ask = (documentId: unknown, body: Row = {}, as = CONSULTANT) =>
  call(as, 'POST', `/api/documents/${String(documentId)}/signature-requests`, {
    signer_name: 'Sophie Signature',
    ...body,
  });

async function made(documentId: unknown, body: Row = {}, as = CONSULTANT): Promise<Made> {
  const response = await ask(documentId, body, as);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Made;
}

/** A mandate asked for signature: the document, its bytes and the request. */
async function anOpenRequest(body: Row = {}) {
  const { document, bytes } = await aDocument('mandate');
  return { document, bytes, ...(await made(document.id, body)) };
}

/** The field errors of a 422 (or `status`) with their keys. */
function refused(response: LightMyRequestResponse, status = 422): Record<string, string[]> {
  expect(response.statusCode, response.body).toBe(status);
  const answer = response.json() as ErrorAnswer;
  return Object.fromEntries(
    Object.entries(answer.error_keys ?? {}).map(([field, keys]) => [
      field,
      keys.map((key) => key.message),
    ]),
  );
}

/**
 * A refusal of the link: its status and key, and nothing of the document or the person in it (a
 * link may be forwarded, guessed or seen over a shoulder).
 */
function linkRefused(
  response: LightMyRequestResponse,
  status: number,
  code: string,
  request?: { data: Row },
) {
  expect(response.statusCode, response.body).toBe(status);
  const answer = response.json() as ErrorAnswer;
  expect(answer.key).toBe(`app.errors.${code}`);
  expect(response.headers['content-type']).toContain('application/json');
  for (const secret of [
    request?.data.document_name,
    request?.data.signer_name,
    String(customer.last_name),
    'Sophie',
  ])
    if (secret) expect(response.body).not.toContain(String(secret));
}

const stored = (id: unknown) =>
  t.database.db
    .selectFrom('signature_requests')
    .selectAll()
    .where('id', '=', Number(id))
    .executeTakeFirstOrThrow();

const versionsOf = (documentId: unknown) =>
  t.database.db
    .selectFrom('documents')
    .selectAll()
    .where('original_document_id', '=', Number(documentId))
    .execute();

/** A valid health closure (basic + supplementary) of `owner`. */
const health = (owner: Row, extra: Row = {}): Row => ({
  customer_id: owner.id,
  contract_type: 'closure',
  product_id: 3,
  company_id: insurer,
  contract_number: `S-${unique}-${Math.random().toString(36).slice(2, 7)}`,
  payment_cycle: 'monthly',
  signing_date: '2024-12-01',
  start_date: '2025-01-01',
  insurance: { sub_product_id: 1, sub_product_variant_id: 5, premium: 300, deductible: 300 },
  supplementary_insurances: [{ sub_product_id: 5, sub_product_variant_id: 2, premium_month: 50 }],
  ...extra,
});

async function created(as: string, url: string, payload: Row): Promise<Row> {
  const response = await call(as, 'POST', url, payload);
  expect(response.statusCode, response.body).toBe(201);
  return data(response);
}

/** Files in the storage folder (relative keys). */
const storedFiles = (): string[] =>
  fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .map((file) => file.split(path.sep).join('/'));

/** The day as the stamp writes it in a language (French in the English form: spec §1). */
const longDay = (day: string, locale: string) =>
  new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T12:00:00Z`));

beforeAll(async () => {
  t = await createTestApp();
  for (const user of await t.database.db.selectFrom('users').select(['id', 'email']).execute())
    users[String(user.email)] = Number(user.id);
  customer = await created(ADMIN, '/api/customers', {
    first_name: 'Sophie',
    last_name: `Signature${unique}`,
    date_of_birth: '1980-02-01',
    assigned_to: users[CONSULTANT],
    correspondence_languages: ['fr'],
  });
  theirs = await created(CONSULTANT2, '/api/customers', {
    first_name: 'Fremd',
    last_name: `Kunde${unique}`,
  });
  insurer = Number(
    (
      await created(ADMIN, '/api/companies', {
        name_de: `Signaturversicherung ${unique}`,
        products: [1, 2, 3, 4, 7, 24, 28],
      })
    ).id,
  );
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await t?.close();
});

describe('signature requests', () => {
  it('a broker mandate is signed through its link, once', async () => {
    const original = await upload([['document_type', 'mandate']], await aPdf('Maklermandat'));
    const made = await call(
      CONSULTANT,
      'POST',
      `/api/documents/${String(original.id)}/signature-requests`,
      {
        signer_name: 'Sophie Signature',
        signer_email: 'sophie@example.ch',
      },
    );
    expect(made.statusCode, made.body).toBe(201);
    const answer = made.json() as { data: Row; token: string; url: string; mailed: boolean };
    expect(answer.data.language).toBe('fr');
    expect(answer.data.status).toBe('open');
    expect(answer.url).toContain(`/attach-signatures/${String(answer.data.id)}?lang=fr&token=`);
    expect(answer.mailed).toBe(true);
    const id = Number(answer.data.id);

    const page = await asSigner(answer.token, 'GET', `/api/public/signatures/${id}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(data(page).signer_name).toBe('Sophie Signature');
    const pdf = await asSigner(answer.token, 'GET', `/api/public/signatures/${id}/document`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');

    const signed = await asSigner(answer.token, 'POST', `/api/public/signatures/${id}/sign`, {
      name: 'Sophie Signature',
      place: 'Lausanne',
      consent: true,
      signature,
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const request = data(await call(CONSULTANT, 'GET', `/api/signature-requests/${id}`));
    expect(request.status).toBe('signed');
    expect(request.signed_place).toBe('Lausanne');
    const version = data(
      await call(CONSULTANT, 'GET', `/api/documents/${String(request.signed_document_id)}`),
    );
    expect(version.original_document_id).toBe(original.id);
    const file = await call(CONSULTANT, 'GET', `/api/documents/${String(version.id)}/download`);
    expect(file.statusCode).toBe(200);
    const text = pdfText(file.rawPayload);
    expect(text).toContain('Signature électronique');
    expect(text).toContain('Lausanne');

    const again = await asSigner(answer.token, 'POST', `/api/public/signatures/${id}/sign`, {
      name: 'Sophie Signature',
      place: 'Lausanne',
      consent: true,
      signature,
    });
    expect(again.statusCode).toBe(410);
    expect((again.json() as { key: string }).key).toBe('app.errors.signatureLinkUsed');
  });

  it('the link is answered once and only its hash is stored; the page shows what it needs', async () => {
    const { document, data: request, token, url } = await anOpenRequest({ days: 60 });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url).toBe(`/attach-signatures/${String(request.id)}?lang=fr&token=${token}`);
    expect(request).toMatchObject({
      customer_id: customer.id,
      document_id: document.id,
      document_name: document.document_name,
      document_type: 'mandate',
      signer_name: 'Sophie Signature',
      signer_email: null,
      status: 'open',
      created_by: users[CONSULTANT],
      signed_at: null,
      signed_document_id: null,
    });
    const days = (Date.parse(String(request.expires_at)) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(59.9);
    expect(days).toBeLessThanOrEqual(60);
    // The secret is nowhere in the request's answers, row or history: only its hash, in its table.
    const read = await call(CONSULTANT, 'GET', `/api/signature-requests/${String(request.id)}`);
    expect(read.body).not.toContain(token);
    const tokens = await t.database.db
      .selectFrom('signature_tokens')
      .selectAll()
      .where('request_id', '=', Number(request.id))
      .execute();
    expect(tokens).toHaveLength(1);
    expect(tokens[0].token_hash).not.toContain(token);
    const history = await t.database.db
      .selectFrom('audit_log')
      .select('changes')
      .where('resource', 'in', ['signature_requests', 'signature_tokens'])
      .execute();
    expect(JSON.stringify(history)).not.toContain(token);

    const page = await context(token, request.id);
    expect(page.statusCode, page.body).toBe(200);
    expect(data(page)).toMatchObject({
      id: request.id,
      document_name: document.document_name,
      document_type: 'mandate',
      signer_name: 'Sophie Signature',
      language: 'fr',
      customer_name: `Sophie Signature${unique}`,
      sender_email: CONSULTANT,
    });
    const file = await pdfOf(token, request.id);
    expect(file.statusCode).toBe(200);
    expect(file.headers['cache-control']).toBe('private, no-store');
    expect(sha256(file.rawPayload)).toBe(request.document_hash);
  });

  it('a signed advice protocol counts for its health closure', async () => {
    const contract = await created(CONSULTANT, '/api/contracts', health(customer));
    const contractUrl = `/api/contracts/${String(contract.id)}`;
    const missing = async () => data(await call(CONSULTANT, 'GET', contractUrl)).protocol_missing;
    expect(await missing()).toBe(true);
    const { document } = await aDocument('advice_protocol', [
      ['contract_id', String(contract.id)],
      ['document_related_to', 'contract'],
    ]);
    // Not signed: it does not count yet, nor once it is only asked for.
    expect(document.signed_on).toBeNull();
    expect(await missing()).toBe(true);
    const request = await made(document.id, { signer_name: 'Sophie Signature' });
    expect(request.data).toMatchObject({
      contract_id: contract.id,
      document_type: 'advice_protocol',
    });
    expect(await missing()).toBe(true);

    const signed = await sign(request.token, request.data.id);
    expect(signed.statusCode, signed.body).toBe(200);
    expect(data(signed)).toMatchObject({ id: request.data.id, status: 'signed' });
    expect(await missing()).toBe(false);
    const [version] = await versionsOf(document.id);
    const read = data(await call(CONSULTANT, 'GET', `/api/documents/${String(version.id)}`));
    expect(read).toMatchObject({
      original_document_id: document.id,
      contract_id: contract.id,
      customer_id: customer.id,
      document_type: 'advice_protocol',
      document_related_to: 'contract',
      signed_on: swissToday(),
      mime_type: 'application/pdf',
      document_name: `${String(document.document_name)} – signé`,
    });
    // The original stays as it was: unsigned, beside its signed version.
    const original = data(await call(CONSULTANT, 'GET', `/api/documents/${String(document.id)}`));
    expect(original).toMatchObject({ signed_on: null, original_document_id: null });
    const listed = data<Row[]>(
      await call(CONSULTANT, 'GET', `/api/documents?original_document_id=${String(document.id)}`),
    );
    expect(listed.map((row) => row.id)).toEqual([version.id]);
  });

  it('a signed broker mandate puts its contract under the mandate', async () => {
    const contract = await created(CONSULTANT, '/api/contracts', health(customer));
    expect(contract.broker_mandate).toBe(false);
    const { document } = await aDocument('mandate', [['contract_id', String(contract.id)]]);
    const request = await made(document.id);
    expect(request.data.contract_id).toBe(contract.id);
    const before = data(await call(CONSULTANT, 'GET', `/api/contracts/${String(contract.id)}`));
    expect(before.broker_mandate).toBe(false);

    const signed = await sign(request.token, request.data.id);
    expect(signed.statusCode, signed.body).toBe(200);
    const after = data(await call(CONSULTANT, 'GET', `/api/contracts/${String(contract.id)}`));
    expect(after.broker_mandate).toBe(true);
    expect(Number(after.version)).toBeGreaterThan(Number(before.version));
    // A mandate without a contract changes no contract.
    const loose = await anOpenRequest();
    const contracts = async () =>
      (
        await t.database.db
          .selectFrom('contracts')
          .select(['id', 'version', 'broker_mandate'])
          .where('customer_id', '=', Number(customer.id))
          .orderBy('id')
          .execute()
      ).map((row) => JSON.stringify(row));
    const unchanged = await contracts();
    expect((await sign(loose.token, loose.data.id)).statusCode).toBe(200);
    expect(await contracts()).toEqual(unchanged);
  });

  it('stamps the signature into a copy: one page more, the signer, place, day and hash; the original unchanged', async () => {
    const title = `Antrag ${unique}`;
    const { document, bytes } = await aDocument('application', [], await aPdf(title, 2));
    const originalUrl = `/api/documents/${String(document.id)}/download`;
    const before = await call(CONSULTANT, 'GET', originalUrl);
    expect(before.statusCode).toBe(200);
    expect(Buffer.compare(before.rawPayload, bytes)).toBe(0);
    const request = await made(document.id, { language: 'de', signer_name: 'Hans Muster' });
    expect(request.data.language).toBe('de');
    // The hash the link is bound to is the original file's.
    expect(request.data.document_hash).toBe(sha256(bytes));
    expect(request.data.document_hash).toBe(sha256(before.rawPayload));

    const agent = `Mozilla/5.0 (SignatureProbe ${unique}) Gecko/20100101`;
    const started = Date.now();
    const signed = await t.request({
      method: 'POST',
      url: `/api/public/signatures/${String(request.data.id)}/sign`,
      payload: signing({ name: '  Hans Muster  ', place: ' Zürich ' }),
      headers: { [TOKEN_HEADER]: request.token, 'user-agent': agent },
      remoteAddress: '198.51.100.23',
    });
    expect(signed.statusCode, signed.body).toBe(200);

    const row = data(
      await call(CONSULTANT, 'GET', `/api/signature-requests/${String(request.data.id)}`),
    );
    expect(row).toMatchObject({
      status: 'signed',
      signed_name: 'Hans Muster',
      signed_place: 'Zürich',
      signed_ip: '198.51.100.23',
      signed_user_agent: agent,
      document_id: document.id,
    });
    const signedAt = Date.parse(String(row.signed_at));
    expect(signedAt).toBeGreaterThanOrEqual(started - 1000);
    expect(signedAt).toBeLessThanOrEqual(Date.now() + 1000);
    const [version] = await versionsOf(document.id);
    expect(row.signed_document_id).toBe(version.id);
    expect(version.document_name).toBe(`${String(document.document_name)} – unterschrieben`);

    const download = await call(CONSULTANT, 'GET', `/api/documents/${String(version.id)}/download`);
    expect(download.statusCode).toBe(200);
    const signedBytes = download.rawPayload;
    expect(row.signed_hash).toBe(sha256(signedBytes));
    expect(Number(version.size_bytes)).toBe(signedBytes.length);
    const original = await PDFDocument.load(bytes);
    const copy = await PDFDocument.load(signedBytes);
    expect(original.getPageCount()).toBe(2);
    expect(copy.getPageCount()).toBe(original.getPageCount() + 1);

    const text = pdfText(signedBytes);
    const day = longDay(swissToday(), 'de-CH');
    // The original's pages are still there, each with its foot line.
    expect(text).toContain(`${title} 1`);
    expect(text).toContain(`${title} 2`);
    expect(text).toContain(`Elektronisch unterschrieben von Hans Muster am ${day} (siehe Seite 3)`);
    expect(text).toContain('Elektronische Unterschrift');
    expect(text).toContain(`Zürich, ${day}`);
    expect(text).toContain(String(document.document_name));
    expect(text).toContain(`#${String(request.data.id)}`);
    expect(text).toContain('198.51.100.23');
    expect(text).toContain(agent);
    expect(text).toContain(sha256(bytes));
    expect(text).not.toContain('Signature électronique');

    // The original's file and record are untouched.
    const after = await call(CONSULTANT, 'GET', originalUrl);
    expect(Buffer.compare(after.rawPayload, bytes)).toBe(0);
    expect(sha256(after.rawPayload)).toBe(request.data.document_hash);
    const originalRow = data(
      await call(CONSULTANT, 'GET', `/api/documents/${String(document.id)}`),
    );
    expect(originalRow).toMatchObject({
      document_file: document.document_file,
      size_bytes: document.size_bytes,
      signed_on: null,
    });
  });

  it('writes the day in the request language: French in the English form (spec §1)', async () => {
    const { document } = await aDocument('mandate');
    const request = await made(document.id);
    expect(request.data.language).toBe('fr');
    expect((await sign(request.token, request.data.id)).statusCode).toBe(200);
    const [version] = await versionsOf(document.id);
    const text = pdfText(
      (await call(CONSULTANT, 'GET', `/api/documents/${String(version.id)}/download`)).rawPayload,
    );
    const day = longDay(swissToday(), 'en-GB');
    expect(text).toContain(`Lausanne, le ${day}`);
    expect(text).toContain(`Signé électroniquement par Sophie Signature le ${day}`);
    expect(version.document_name).toBe(`${String(document.document_name)} – signé`);
  });

  it('notifies the sender and the consultant of the customer, once each', async () => {
    const notifications = (userId: number) =>
      t.database.db
        .selectFrom('notifications')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute();
    const mine = await anOpenRequest();
    const before = await notifications(users[CONSULTANT]);
    const othersBefore = await notifications(users[CONSULTANT2]);
    expect((await sign(mine.token, mine.data.id)).statusCode).toBe(200);
    const after = await notifications(users[CONSULTANT]);
    // The consultant sent it and is the customer's consultant: one notification.
    expect(after).toHaveLength(before.length + 1);
    const notice = after.at(-1)!;
    expect(notice.link).toMatch(new RegExp(`/customers/${String(customer.id)}\\?tab=documents$`));
    expect(notice.title).toContain(String(mine.data.document_name));
    expect(notice.body).toContain('Sophie Signature');
    expect(notice.body).toContain('Lausanne');

    // Sent by the admin: the admin and the consultant each hear of it.
    const { document } = await aDocument('mandate');
    const byAdmin = await made(document.id, {}, ADMIN);
    const adminBefore = await notifications(users[ADMIN]);
    const consultantBefore = await notifications(users[CONSULTANT]);
    expect((await sign(byAdmin.token, byAdmin.data.id)).statusCode).toBe(200);
    const adminAfter = await notifications(users[ADMIN]);
    expect(adminAfter).toHaveLength(adminBefore.length + 1);
    expect(adminAfter.at(-1)!.link).toMatch(
      new RegExp(`/customers/${String(customer.id)}\\?tab=documents$`),
    );
    expect(await notifications(users[CONSULTANT])).toHaveLength(consultantBefore.length + 1);
    // Nobody else.
    expect(await notifications(users[CONSULTANT2])).toEqual(othersBefore);
  });

  it('audits the signing with the signer’s address and browser, as the link', async () => {
    const request = await anOpenRequest();
    const agent = `AuditProbe/${unique}`;
    const signed = await t.request({
      method: 'POST',
      url: `/api/public/signatures/${String(request.data.id)}/sign`,
      payload: signing(),
      headers: { [TOKEN_HEADER]: request.token, 'user-agent': agent },
      remoteAddress: '203.0.113.9',
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const requestId = String(signed.headers['x-request-id']);
    const rows = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('request_id', '=', requestId)
      .orderBy('id')
      .execute();
    const update = rows.find(
      (row) => row.resource === 'signature_requests' && row.record_id === String(request.data.id),
    );
    expect(update).toMatchObject({ action: 'update' });
    expect((update!.changes as Row).status).toEqual({ old: 'open', new: 'signed' });
    const [version] = await versionsOf(request.document.id);
    const insert = rows.find(
      (row) => row.resource === 'documents' && row.record_id === String(version.id),
    );
    expect(insert).toMatchObject({ action: 'create' });
    // Every row of the signing: no user, the link as actor, the signer's address and browser.
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows)
      expect(row).toMatchObject({
        user_id: null,
        actor: `signature:${String(request.data.id)}`,
        ip: '203.0.113.9',
        user_agent: agent,
      });
  });

  it('two signatures at once with the same link: one is stored, the other finds it used', async () => {
    const request = await anOpenRequest();
    const filesBefore = storedFiles().length;
    const answers = await Promise.all([
      sign(request.token, request.data.id, signing({ place: 'Bern' })),
      sign(request.token, request.data.id, signing({ place: 'Basel' })),
    ]);
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses, answers.map((answer) => answer.body).join('\n')).toEqual([200, 410]);
    const loser = answers.find((answer) => answer.statusCode === 410)!;
    linkRefused(loser, 410, 'signatureLinkUsed', request);
    const versions = await versionsOf(request.document.id);
    expect(versions).toHaveLength(1);
    const row = await stored(request.data.id);
    expect(row.status).toBe('signed');
    expect(row.signed_document_id).toBe(versions[0].id);
    // The stored version is the winner's: its place is the one recorded.
    expect(['Bern', 'Basel']).toContain(row.signed_place);
    const file = await call(CONSULTANT, 'GET', `/api/documents/${String(versions[0].id)}/download`);
    expect(sha256(file.rawPayload)).toBe(row.signed_hash);
    expect(pdfText(file.rawPayload)).toContain(`${String(row.signed_place)}, le `);
    // The loser's stamped file is not left behind: one file more, the signed version's.
    expect(storedFiles()).toHaveLength(filesBefore + 1);
    expect(storedFiles()).toContain(String(versions[0].document_file));
  });
});

describe('the link’s token', () => {
  it('without this request’s token: 404, nothing said', async () => {
    const a = await anOpenRequest();
    const b = await anOpenRequest();
    const guessed = randomBytes(32).toString('base64url');
    expect(guessed).toHaveLength(43);
    for (const [token, id] of [
      [undefined, a.data.id],
      ['', a.data.id],
      ['short', a.data.id],
      [guessed, a.data.id],
      [a.token, b.data.id],
      [b.token, a.data.id],
      [a.token, 2_000_000_000],
    ] as const) {
      linkRefused(await context(token, id), 404, 'signatureLinkInvalid', a);
      linkRefused(await pdfOf(token, id), 404, 'signatureLinkInvalid', a);
      linkRefused(await sign(token, id), 404, 'signatureLinkInvalid', a);
    }
    // Nothing changed: both are still open, and still open with their own token.
    for (const request of [a, b]) {
      expect((await stored(request.data.id)).status).toBe('open');
      expect(await versionsOf(request.document.id)).toHaveLength(0);
      expect((await context(request.token, request.data.id)).statusCode).toBe(200);
    }
    // A staff session is no token.
    linkRefused(
      await t.request({
        method: 'GET',
        url: `/api/public/signatures/${String(a.data.id)}`,
        as: ADMIN,
      }),
      404,
      'signatureLinkInvalid',
      a,
    );
  });

  it('once signed: 410 used, on every public route', async () => {
    const request = await anOpenRequest();
    expect((await sign(request.token, request.data.id)).statusCode).toBe(200);
    linkRefused(await context(request.token, request.data.id), 410, 'signatureLinkUsed', request);
    linkRefused(await pdfOf(request.token, request.data.id), 410, 'signatureLinkUsed', request);
    linkRefused(await sign(request.token, request.data.id), 410, 'signatureLinkUsed', request);
    expect(await versionsOf(request.document.id)).toHaveLength(1);
    // A signed request cannot be revoked.
    const revoke = await call(
      CONSULTANT,
      'POST',
      `/api/signature-requests/${String(request.data.id)}/revoke`,
    );
    expect(refused(revoke, 409)).toEqual({ status: ['app.errors.signatureNotOpen'] });
    expect((revoke.json() as ErrorAnswer).key).toBe('app.errors.signatureNotOpen');
    expect((await stored(request.data.id)).status).toBe('signed');
  });

  it('revoked: 410 revoked, on every public route; revoked once only', async () => {
    const request = await anOpenRequest();
    const url = `/api/signature-requests/${String(request.data.id)}/revoke`;
    const revoked = await call(CONSULTANT, 'POST', url);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(data(revoked)).toMatchObject({ id: request.data.id, status: 'revoked' });
    expect(data(revoked).revoked_at).not.toBeNull();
    linkRefused(
      await context(request.token, request.data.id),
      410,
      'signatureLinkRevoked',
      request,
    );
    linkRefused(await pdfOf(request.token, request.data.id), 410, 'signatureLinkRevoked', request);
    linkRefused(await sign(request.token, request.data.id), 410, 'signatureLinkRevoked', request);
    expect(await versionsOf(request.document.id)).toHaveLength(0);
    expect(refused(await call(CONSULTANT, 'POST', url), 409)).toEqual({
      status: ['app.errors.signatureNotOpen'],
    });
  });

  it('a new request for the same document revokes the open one', async () => {
    const first = await anOpenRequest();
    const second = await made(first.document.id, { signer_name: 'Sophie Signature' });
    expect(second.data.id).not.toBe(first.data.id);
    expect(second.token).not.toBe(first.token);
    const old = await stored(first.data.id);
    expect(old.status).toBe('revoked');
    expect(old.revoked_at).not.toBeNull();
    linkRefused(await context(first.token, first.data.id), 410, 'signatureLinkRevoked', first);
    linkRefused(await sign(first.token, first.data.id), 410, 'signatureLinkRevoked', first);
    expect((await context(second.token, second.data.id)).statusCode).toBe(200);
    expect((await sign(second.token, second.data.id)).statusCode).toBe(200);
    expect(await versionsOf(first.document.id)).toHaveLength(1);
    // Another document's request is not touched.
    const other = await anOpenRequest();
    await made((await aDocument('mandate')).document.id);
    expect((await stored(other.data.id)).status).toBe('open');
  });

  it('expired: 410 expired at once, expired in the answers, stored by the hourly pass', async () => {
    const request = await anOpenRequest();
    const open = await anOpenRequest();
    await t.database.db
      .updateTable('signature_requests')
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where('id', '=', Number(request.data.id))
      .execute();
    linkRefused(
      await context(request.token, request.data.id),
      410,
      'signatureLinkExpired',
      request,
    );
    linkRefused(await pdfOf(request.token, request.data.id), 410, 'signatureLinkExpired', request);
    linkRefused(await sign(request.token, request.data.id), 410, 'signatureLinkExpired', request);
    expect(await versionsOf(request.document.id)).toHaveLength(0);
    // The answers say so before the pass stores it.
    expect((await stored(request.data.id)).status).toBe('open');
    const url = `/api/signature-requests/${String(request.data.id)}`;
    expect(data(await call(CONSULTANT, 'GET', url)).status).toBe('expired');
    const listed = data<Row[]>(
      await call(CONSULTANT, 'GET', `/api/signature-requests?id=${String(request.data.id)}`),
    );
    expect(listed.map((row) => row.status)).toEqual(['expired']);
    expect(refused(await call(CONSULTANT, 'POST', `${url}/revoke`), 409)).toEqual({
      status: ['app.errors.signatureNotOpen'],
    });

    expect(await expireRequests(t.database.db)).toBe(1);
    expect((await stored(request.data.id)).status).toBe('expired');
    expect((await stored(open.data.id)).status).toBe('open');
    expect(await expireRequests(t.database.db)).toBe(0);
    expect(data(await call(CONSULTANT, 'GET', url)).status).toBe('expired');
    linkRefused(
      await context(request.token, request.data.id),
      410,
      'signatureLinkExpired',
      request,
    );
    expect((await context(open.token, open.data.id)).statusCode).toBe(200);
  });

  // The answers present an open request past its expiry as `expired` before the hourly pass
  // stores it; the list's `status` filter (a listConditions hook) counts it the same way.
  it('the list’s status filter agrees with the status it answers', async () => {
    const request = await anOpenRequest();
    await t.database.db
      .updateTable('signature_requests')
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where('id', '=', Number(request.data.id))
      .execute();
    const list = async (status: string) =>
      data<Row[]>(
        await call(
          CONSULTANT,
          'GET',
          `/api/signature-requests?id=${String(request.data.id)}&status=${status}`,
        ),
      ).map((row) => row.status);
    const open = await list('open');
    const expired = await list('expired');
    await expireRequests(t.database.db);
    expect({ open, expired }).toEqual({ open: [], expired: ['expired'] });
  });

  it('the document deleted: 410 gone; the request keeps its row without the document', async () => {
    const request = await anOpenRequest();
    const deleted = await call(
      CONSULTANT,
      'DELETE',
      `/api/documents/${String(request.document.id)}`,
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
    linkRefused(
      await context(request.token, request.data.id),
      410,
      'signatureDocumentGone',
      request,
    );
    linkRefused(await pdfOf(request.token, request.data.id), 410, 'signatureDocumentGone', request);
    linkRefused(await sign(request.token, request.data.id), 410, 'signatureDocumentGone', request);
    const row = await stored(request.data.id);
    expect(row).toMatchObject({
      document_id: null,
      document_name: request.data.document_name,
      document_hash: request.data.document_hash,
      signed_document_id: null,
    });
    expect(await versionsOf(request.document.id)).toHaveLength(0);
  });

  it('the file changed behind the link: 410 changed, nothing signed', async () => {
    const request = await anOpenRequest();
    const key = String(request.document.document_file);
    const other = await aPdf(`Anderes ${unique}`);
    await getStorage().put(key, Readable.from([other]));
    // The document's own download has the new bytes: the link no longer opens them.
    const download = await call(
      CONSULTANT,
      'GET',
      `/api/documents/${String(request.document.id)}/download`,
    );
    expect(sha256(download.rawPayload)).toBe(sha256(other));
    expect(sha256(other)).not.toBe(request.data.document_hash);
    linkRefused(
      await pdfOf(request.token, request.data.id),
      410,
      'signatureDocumentChanged',
      request,
    );
    linkRefused(
      await sign(request.token, request.data.id),
      410,
      'signatureDocumentChanged',
      request,
    );
    expect((await stored(request.data.id)).status).toBe('open');
    expect(await versionsOf(request.document.id)).toHaveLength(0);
    // The bytes it was made for back in place: the link signs again.
    await getStorage().put(key, Readable.from([request.bytes]));
    expect((await sign(request.token, request.data.id)).statusCode).toBe(200);
  });
});

describe('bad input on signing', () => {
  it('is refused with 422 naming the field; the request stays open and nothing is stored', async () => {
    const request = await anOpenRequest();
    const filesBefore = storedFiles().length;
    const cases: Array<[Row, string, string | undefined]> = [
      [signing({ signature: { ...signature, strokes: [] } }), 'signature', 'signatureEmpty'],
      // A tap: a dot, then a tiny slip of the finger.
      [
        signing({ signature: { ...signature, strokes: [[50, 50]] } }),
        'signature',
        'signatureEmpty',
      ],
      [
        signing({ signature: { ...signature, strokes: [[50, 50, 60, 55, 70, 50]] } }),
        'signature',
        'signatureEmpty',
      ],
      [signing({ consent: false }), 'consent', 'signatureConsent'],
      [signing({ name: '   ' }), 'name', 'required'],
      [signing({ place: ' \t ' }), 'place', 'required'],
      [signing({ name: '' }), 'name', undefined],
      [signing({ place: undefined }), 'place', undefined],
      [signing({ consent: undefined }), 'consent', undefined],
      [signing({ signature: undefined }), 'signature', undefined],
      // The schema's bounds.
      [
        signing({ signature: { ...signature, strokes: [Array.from({ length: 6001 }, () => 10)] } }),
        'signature',
        undefined,
      ],
      [
        signing({
          signature: { ...signature, strokes: Array.from({ length: 301 }, () => [1, 1, 100, 100]) },
        }),
        'signature',
        undefined,
      ],
      [
        signing({ signature: { ...signature, strokes: [[20, 100, 5101, 40]] } }),
        'signature',
        undefined,
      ],
      [
        signing({ signature: { ...signature, strokes: [[-101, 100, 300, 40]] } }),
        'signature',
        undefined,
      ],
      [signing({ signature: { ...signature, width: 10 } }), 'signature', undefined],
      [signing({ signature: { ...signature, height: 5001 } }), 'signature', undefined],
      [signing({ signature: { ...signature, strokes: [['a', 'b']] } }), 'signature', undefined],
      [signing({ name: 'x'.repeat(201) }), 'name', undefined],
      [signing({ place: 'x'.repeat(101) }), 'place', undefined],
      // More points than a signature has, each stroke within its own bound.
      [
        signing({
          signature: {
            ...signature,
            strokes: Array.from({ length: 11 }, () =>
              Array.from({ length: 6000 }, (_, i) => (i % 2 ? 20 : i % 400)),
            ),
          },
        }),
        'signature',
        'maxItems',
      ],
    ];
    for (const [body, field, code] of cases) {
      const response = await sign(request.token, request.data.id, body);
      const keys = refused(response);
      const fields = Object.keys(keys).map((name) => name.split('.')[0]);
      expect(fields, `${field}: ${response.body}`).toContain(field);
      if (code) expect(keys[field], response.body).toContain(`app.errors.${code}`);
    }
    const empty = refused(
      await sign(
        request.token,
        request.data.id,
        signing({ signature: { ...signature, strokes: [] } }),
      ),
    );
    expect(empty).toEqual({ signature: ['app.errors.signatureEmpty'] });
    const answer = (
      await sign(
        request.token,
        request.data.id,
        signing({ signature: { ...signature, strokes: [] } }),
      )
    ).json() as ErrorAnswer;
    expect(answer.key).toBe('app.errors.signatureEmpty');
    expect(
      refused(await sign(request.token, request.data.id, signing({ consent: false }))),
    ).toEqual({ consent: ['app.errors.signatureConsent'] });
    expect(
      refused(await sign(request.token, request.data.id, signing({ name: ' ', place: ' ' }))),
    ).toEqual({ name: ['app.errors.required'], place: ['app.errors.required'] });

    const row = await stored(request.data.id);
    expect(row).toMatchObject({ status: 'open', signed_at: null, signed_document_id: null });
    expect(await versionsOf(request.document.id)).toHaveLength(0);
    expect(storedFiles()).toHaveLength(filesBefore);
    // Still signable.
    expect((await sign(request.token, request.data.id)).statusCode).toBe(200);
  });
});

describe('bad input on asking', () => {
  it('limits the size as configured', () => {
    expect(signatureMaxBytes()).toBe(300_000);
  });

  it('refuses a document that cannot be signed (422 naming document), making no request', async () => {
    const count = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('signature_requests')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const outbox = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('outbox')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = { requests: await count(), mails: await outbox() };
    const refusedDocument = async (document: Row, code: string) => {
      const response = await ask(document.id, { signer_email: 'sophie@example.ch' });
      expect(refused(response), response.body).toEqual({ document: [`app.errors.${code}`] });
      expect((response.json() as ErrorAnswer).key).toBe(`app.errors.${code}`);
      return response.json() as ErrorAnswer;
    };

    // Not a kind of document that is signed.
    for (const type of ['other', 'policy', 'id_document']) {
      const { document } = await aDocument(type);
      const answer = await refusedDocument(document, 'signatureDocumentType');
      expect(answer.args).toMatchObject({ type });
    }
    // Not a PDF: an image, or no file at all.
    const image = await upload([['document_type', 'mandate']], PNG, {
      filename: 'mandat.png',
      contentType: 'image/png',
    });
    expect(image.mime_type).toBe('image/png');
    await refusedDocument(image, 'signatureNotPdf');
    const noFile = await created(CONSULTANT, '/api/documents', {
      customer_id: customer.id,
      document_name: `Ohne Datei ${unique}`,
      document_type: 'mandate',
    });
    await refusedDocument(noFile, 'signatureNotPdf');
    // A PDF pdf-lib cannot open: encrypted, damaged, without pages.
    const encrypted = await upload([['document_type', 'mandate']], await anEncryptedPdf());
    expect(encrypted.mime_type).toBe('application/pdf');
    await refusedDocument(encrypted, 'signaturePdfUnreadable');
    const garbage = Buffer.concat([
      Buffer.from('%PDF-1.4\n'),
      Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 7919) % 256)),
    ]);
    const damaged = await upload([['document_type', 'application']], garbage);
    expect(damaged.mime_type).toBe('application/pdf');
    await refusedDocument(damaged, 'signaturePdfUnreadable');
    const empty = await upload(
      [['document_type', 'advice_protocol']],
      Buffer.from(
        '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
      ),
    );
    await refusedDocument(empty, 'signaturePdfUnreadable');
    // Too large: the file itself, the size its record states, and a file larger than stated.
    const large = await upload([['document_type', 'mandate']], await aPdf('Gross', 1, 310_000));
    expect(Number(large.size_bytes)).toBeGreaterThan(signatureMaxBytes());
    const answer = await refusedDocument(large, 'signatureTooLarge');
    expect(answer.message).toContain('0.3 MB');
    const stated = (await aDocument('mandate')).document;
    await t.database.db
      .updateTable('documents')
      .set({ size_bytes: signatureMaxBytes() + 1 })
      .where('id', '=', Number(stated.id))
      .execute();
    await refusedDocument(stated, 'signatureTooLarge');
    const understated = await upload(
      [['document_type', 'mandate']],
      await aPdf('Gross', 1, 310_000),
    );
    await t.database.db
      .updateTable('documents')
      .set({ size_bytes: 1000 })
      .where('id', '=', Number(understated.id))
      .execute();
    await refusedDocument(understated, 'signatureTooLarge');
    // Just below the limit it is signable.
    const fits = await upload([['document_type', 'mandate']], await aPdf('Knapp', 1, 290_000));
    expect(Number(fits.size_bytes)).toBeLessThanOrEqual(signatureMaxBytes());
    const ok = await made(fits.id);
    expect((await sign(ok.token, ok.data.id)).statusCode).toBe(200);

    expect(await count()).toBe(before.requests + 1);
    expect(await outbox()).toBe(before.mails);
  });

  it('refuses bad fields of the request (422 naming them), making no request', async () => {
    const { document } = await aDocument('mandate');
    const cases: Array<[Row, string, string | undefined]> = [
      [{ signer_name: '   ' }, 'signer_name', 'required'],
      [{ signer_name: '' }, 'signer_name', undefined],
      [{ signer_name: undefined }, 'signer_name', undefined],
      [{ signer_name: 'x'.repeat(201) }, 'signer_name', undefined],
      [{ signer_email: 'not an address' }, 'signer_email', undefined],
      [{ signer_email: 'sophie@' }, 'signer_email', undefined],
      [{ language: 'es' }, 'language', undefined],
      [{ days: 0 }, 'days', undefined],
      [{ days: 61 }, 'days', undefined],
      [{ days: 1.5 }, 'days', undefined],
      [{ document_id: 5 }, 'document_id', undefined],
    ];
    for (const [body, field, code] of cases) {
      const response = await ask(document.id, body);
      const keys = refused(response);
      expect(Object.keys(keys), response.body).toContain(field);
      if (code) expect(keys[field]).toContain(`app.errors.${code}`);
    }
    const requests = await t.database.db
      .selectFrom('signature_requests')
      .select('id')
      .where('document_id', '=', Number(document.id))
      .execute();
    expect(requests).toHaveLength(0);
    // The bounds themselves are accepted.
    for (const days of [1, 60]) {
      const request = await made(document.id, { days });
      const left = (Date.parse(String(request.data.expires_at)) - Date.now()) / 86_400_000;
      expect(left).toBeGreaterThan(days - 0.1);
      expect(left).toBeLessThanOrEqual(days);
    }
  });

  it('a document the user cannot see, or none: 404', async () => {
    const { document } = await aDocument('mandate');
    const response = await ask(document.id, {}, CONSULTANT2);
    expect(response.statusCode, response.body).toBe(404);
    expect(response.body).not.toContain(String(document.document_name));
    const theirDocument = await upload([['document_type', 'mandate']], await aPdf('Fremd'), {
      as: CONSULTANT2,
      customerId: theirs.id,
    });
    expect((await ask(theirDocument.id)).statusCode).toBe(404);
    expect((await ask(2_000_000_000)).statusCode).toBe(404);
    const requests = await t.database.db
      .selectFrom('signature_requests')
      .select('id')
      .where('document_id', 'in', [Number(document.id), Number(theirDocument.id)])
      .execute();
    expect(requests).toHaveLength(0);
    // The admin may ask for either.
    expect((await ask(theirDocument.id, {}, ADMIN)).statusCode).toBe(201);
  });
});

describe('the mail to the signer', () => {
  const mailsTo = (address: string) =>
    t.database.db
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', address)
      .orderBy('id')
      .execute();

  it('is written to the outbox in the request language, with the link', async () => {
    const address = `signer.${unique}@example.ch`;
    const { document } = await aDocument('mandate');
    const request = await made(document.id, { signer_email: address });
    expect(request.mailed).toBe(true);
    expect(request.data.signer_email).toBe(address);
    const [mail] = await mailsTo(address);
    expect(mail).toBeDefined();
    expect(mail.subject).toBe(`Merci de signer : ${String(document.document_name)}`);
    expect(mail.body).toContain(
      `/attach-signatures/${String(request.data.id)}?lang=fr&token=${request.token}`,
    );
    expect(mail.body).toContain('Bonjour Sophie Signature');

    const italian = `firma.${unique}@example.ch`;
    const other = await aDocument('application');
    const inItalian = await made(other.document.id, { signer_email: italian, language: 'it' });
    const [mailIt] = await mailsTo(italian);
    expect(mailIt.subject).toBe(`Da firmare: ${String(other.document.document_name)}`);
    expect(mailIt.body).toContain(
      `/attach-signatures/${String(inItalian.data.id)}?lang=it&token=${inItalian.token}`,
    );
    expect(inItalian.url).toBe(
      `/attach-signatures/${String(inItalian.data.id)}?lang=it&token=${inItalian.token}`,
    );
  });

  it('is not written without an address: the consultant passes the link on', async () => {
    const count = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('outbox')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('kind', '=', 'signature-request')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const request = await anOpenRequest();
    expect(request.mailed).toBe(false);
    expect(request.data.signer_email).toBeNull();
    expect(await count()).toBe(before);
    const blank = await made((await aDocument('mandate')).document.id, { signer_email: undefined });
    expect(blank.mailed).toBe(false);
    expect(await count()).toBe(before);
  });
});

describe('who sees the requests', () => {
  it('the consultant of the customer and the admin; not another consultant', async () => {
    const request = await anOpenRequest();
    const url = `/api/signature-requests/${String(request.data.id)}`;
    expect((await call(CONSULTANT, 'GET', url)).statusCode).toBe(200);
    expect((await call(ADMIN, 'GET', url)).statusCode).toBe(200);
    const hidden = await call(CONSULTANT2, 'GET', url);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.body).not.toContain(String(request.data.document_name));
    const listIds = async (as: string, query = '') =>
      data<Row[]>(await call(as, 'GET', `/api/signature-requests?per_page=100${query}`)).map(
        (row) => row.id,
      );
    expect(await listIds(CONSULTANT, `&customer_id=${String(customer.id)}`)).toContain(
      request.data.id,
    );
    expect(await listIds(ADMIN, `&customer_id=${String(customer.id)}`)).toContain(request.data.id);
    expect(await listIds(CONSULTANT2)).not.toContain(request.data.id);
    expect(await listIds(CONSULTANT2, `&id=${String(request.data.id)}`)).toEqual([]);
    expect(await listIds(CONSULTANT2, `&customer_id=${String(customer.id)}`)).toEqual([]);
    // Nor revokes it.
    const revoke = await call(CONSULTANT2, 'POST', `${url}/revoke`);
    expect(revoke.statusCode).toBe(404);
    expect((await stored(request.data.id)).status).toBe('open');
    // The admin may.
    expect((await call(ADMIN, 'POST', `${url}/revoke`)).statusCode).toBe(200);
  });

  it('nobody writes a request through the generic routes', async () => {
    const request = await anOpenRequest();
    const url = `/api/signature-requests/${String(request.data.id)}`;
    for (const [method, target, body] of [
      ['POST', '/api/signature-requests', { signer_name: 'X', language: 'de' }],
      ['PATCH', url, { signer_name: 'X' }],
      ['PUT', url, { signer_name: 'X', language: 'de' }],
      ['DELETE', url, undefined],
    ] as const)
      expect((await call(ADMIN, method, target, body)).statusCode).toBe(403);
    expect(await stored(request.data.id)).toMatchObject({
      signer_name: 'Sophie Signature',
      status: 'open',
    });
  });
});

describe('personal data', () => {
  /** A customer of the consultant with a mandate signed online by her (a mail was sent). */
  async function signedPerson(tag: string) {
    const person = await created(ADMIN, '/api/customers', {
      first_name: 'Erika',
      last_name: `Löschbar${tag}${unique}`,
      assigned_to: users[CONSULTANT],
    });
    const marks = {
      email: `erika.${tag}.${unique}@example.ch`,
      name: `Erika Löschbar${tag}${unique}`,
      place: `Ortschaft${tag}${unique}`,
    };
    const document = await upload(
      [['document_type', 'mandate']],
      await aPdf(`Mandat ${tag} ${unique}`),
      { customerId: person.id },
    );
    const request = await made(document.id, { signer_name: marks.name, signer_email: marks.email });
    const signed = await sign(
      request.token,
      request.data.id,
      signing({ name: marks.name, place: marks.place }),
    );
    expect(signed.statusCode, signed.body).toBe(200);
    return { person, document, request, marks };
  }

  /** The zip's entries by name. */
  const unzip = (buffer: Buffer): Promise<Map<string, Buffer>> =>
    new Promise((resolve, reject) => {
      fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
        if (error || !zip) return reject(error ?? new Error('no zip'));
        const entries = new Map<string, Buffer>();
        zip.on('entry', (entry: Entry) => {
          zip.openReadStream(entry, (streamError, stream) => {
            if (streamError || !stream) return reject(streamError ?? new Error('no stream'));
            const chunks: Buffer[] = [];
            stream.on('data', (chunk: Buffer) => chunks.push(chunk));
            stream.on('end', () => {
              entries.set(entry.fileName, Buffer.concat(chunks));
              zip.readEntry();
            });
          });
        });
        zip.on('end', () => resolve(entries));
        zip.readEntry();
      });
    });

  it('the export carries the requests and both files; erasure removes them with the link', async () => {
    const { person, document, request } = await signedPerson('a');
    const exported = await call(ADMIN, 'GET', `/api/customers/${String(person.id)}/personal-data`);
    expect(exported.statusCode).toBe(200);
    const entries = await unzip(exported.rawPayload);
    const manifest = JSON.parse(String(entries.get('personal-data.json'))) as {
      records: { documents: Row[]; mails: Row[] };
      features: Record<string, Record<string, Row[]>>;
    };
    const [row] = manifest.features['signature-requests']['signature-requests'];
    expect(row).toMatchObject({
      id: request.data.id,
      status: 'signed',
      signer_email: request.data.signer_email,
      signed_name: request.data.signer_name,
    });
    expect(JSON.stringify(manifest)).not.toContain(request.token);
    // The mail that carried the link is the customer's data; its secret is not.
    const mail = manifest.records.mails.find((entry) => entry.kind === 'signature-request');
    expect(mail?.body).toContain(`/attach-signatures/${String(request.data.id)}?`);
    expect(mail?.body).toContain('token=[secret]');
    const [version] = await versionsOf(document.id);
    expect(manifest.records.documents.map((entry) => entry.id).sort()).toEqual(
      [document.id, version.id].sort(),
    );
    expect([...entries.keys()].filter((name) => name.startsWith('documents/'))).toHaveLength(2);

    const erased = await call(ADMIN, 'POST', `/api/customers/${String(person.id)}/erase`);
    expect(erased.statusCode, erased.body).toBe(200);
    const left = await t.database.db
      .selectFrom('signature_requests')
      .select('id')
      .where('customer_id', '=', Number(person.id))
      .execute();
    expect(left).toHaveLength(0);
    const tokens = await t.database.db
      .selectFrom('signature_tokens')
      .select('request_id')
      .where('request_id', '=', Number(request.data.id))
      .execute();
    expect(tokens).toHaveLength(0);
    const documents = await t.database.db
      .selectFrom('documents')
      .select('id')
      .where('id', 'in', [Number(document.id), Number(version.id)])
      .execute();
    expect(documents).toHaveLength(0);
    linkRefused(await context(request.token, request.data.id), 404, 'signatureLinkInvalid');
  });

  // The requests' history names the customer as its parent (customerId is required: the audit
  // trigger is gscrm_audit_row('id', 'customers', 'customer_id', '')), so the signer's name,
  // e-mail, place and browser are in the customer's export and erased with the customer.
  // The notifications of the sender and the consultant, and the mail to the signer, name them
  // too: they carry the customer's id, so the erasure deletes them and scrubs their history.
  it('erasing the customer leaves nothing of the signer in the history, notifications or mails', async () => {
    const { person, marks } = await signedPerson('b');
    const traced = (row: unknown) =>
      Object.values(marks).some((value) => JSON.stringify(row).includes(value));
    const db = t.database.db;
    const notices = () => db.selectFrom('notifications').select(['title', 'body']).execute();
    const mails = () => db.selectFrom('outbox').select(['to_address', 'subject', 'body']).execute();
    expect((await notices()).filter(traced).length).toBeGreaterThan(0);
    expect((await mails()).filter(traced).length).toBeGreaterThan(0);

    const erased = await call(ADMIN, 'POST', `/api/customers/${String(person.id)}/erase`);
    expect(erased.statusCode, erased.body).toBe(200);
    const history = await db
      .selectFrom('audit_log')
      .select(['resource', 'record_id', 'changes'])
      .where('resource', 'in', ['signature_requests', 'notifications'])
      .execute();
    const traces = history.filter((row) => traced(row.changes));
    expect(traces.map((row) => `${String(row.resource)} ${String(row.record_id)}`)).toEqual([]);
    expect((await notices()).filter(traced)).toEqual([]);
    expect((await mails()).filter(traced)).toEqual([]);
  });
});
