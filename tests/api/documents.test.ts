/**
 * Documents and avatars (issue 6), on both engines: upload through the storage interface (a
 * temporary folder here), type checked by content, size limit, server-chosen names, download as
 * an attachment, access like the customer's, clean-up of stored files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { ADMIN, CONSULTANT, createTestApp, type TestApp, temporaryStorage } from './harness.ts';
import { EXE, multipart, PDF, PNG } from './multipart.ts';

// Small limits (read when the app registers its routes), so real files can exceed them.
vi.stubEnv('DOCUMENT_MAX_BYTES', String(256 * 1024));
vi.stubEnv('AVATAR_MAX_BYTES', String(64 * 1024));

const folder = temporaryStorage('documents');
const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
type Row = Record<string, unknown>;
let t: TestApp;
let customerId: number;
let otherCustomerId: number;

const upload = (id: number, parts: Parameters<typeof multipart>[0], as = CONSULTANT) => {
  const body = multipart(parts);
  return t.request({
    method: 'POST',
    url: `/api/customers/${id}/documents`,
    payload: body.payload,
    headers: body.headers,
    as,
  });
};
const storedFiles = (): string[] =>
  fs.existsSync(folder)
    ? fs
        .readdirSync(folder, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    : [];
function expectFileError(
  response: { statusCode: number; body: string; json(): unknown },
  status: number,
) {
  expect(response.statusCode, response.body).toBe(status);
  const answer = response.json() as { message: string; errors?: Record<string, string[]> };
  expect(Object.keys(answer.errors ?? {})).toContain('file');
  return answer.message;
}

beforeAll(async () => {
  t = await createTestApp();
  const users = await t.database.db.selectFrom('users').select(['id', 'email']).execute();
  const id = (email: string) => Number(users.find((user) => user.email === email)?.id);
  const mine = await t.database.db
    .selectFrom('customers')
    .select('id')
    .where('assigned_to', '=', id(CONSULTANT))
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const theirs = await t.database.db
    .selectFrom('customers')
    .select('id')
    .where('assigned_to', '=', id(CONSULTANT2))
    .orderBy('id')
    .executeTakeFirstOrThrow();
  customerId = Number(mine.id);
  otherCustomerId = Number(theirs.id);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await t?.close();
});

describe('upload and download', () => {
  it('stores a PDF under a server-chosen name and serves it back as an attachment', async () => {
    const response = await upload(customerId, [
      ['document_name', 'Police Hausrat 2026'],
      ['document_type', 'policy'],
      {
        name: 'file',
        filename: '../../etc/Police Hausrat.pdf',
        content: PDF,
        contentType: 'text/plain',
      },
    ]);
    expect(response.statusCode, response.body).toBe(201);
    const document = (response.json() as { data: Row }).data;
    expect(document).toMatchObject({
      customer_id: customerId,
      document_name: 'Police Hausrat 2026',
      document_type: 'policy',
      document_related_to: 'customer',
      original_name: 'Police Hausrat.pdf',
      mime_type: 'application/pdf',
      size_bytes: PDF.length,
    });
    expect(String(document.document_file)).toMatch(/^documents\/[0-9a-f-]{36}\.pdf$/);
    expect(storedFiles()).toContain(String(document.document_file));
    expect(fs.readFileSync(path.join(folder, String(document.document_file)))).toEqual(PDF);

    const download = await t.request({
      method: 'GET',
      url: `/api/documents/${document.id}/download`,
      as: CONSULTANT,
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload).toEqual(PDF);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="Police Hausrat 2026.pdf"; filename*=UTF-8''Police%20Hausrat%202026.pdf`,
    );
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['cache-control']).toContain('no-store');
  });

  it('names the download after the document, with non-ASCII names encoded', async () => {
    const response = await upload(customerId, [
      { name: 'file', filename: 'Schadenmeldung Küche.png', content: PNG },
    ]);
    expect(response.statusCode, response.body).toBe(201);
    const document = (response.json() as { data: Row }).data;
    expect(document.document_name).toBe('Schadenmeldung Küche');
    expect(document.document_type).toBe('other');
    const download = await t.request({
      method: 'GET',
      url: `/api/documents/${document.id}/download`,
      as: ADMIN,
    });
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="Schadenmeldung Kuche.png"; filename*=UTF-8''Schadenmeldung%20K%C3%BCche.png`,
    );
  });

  it('refuses files by content: text, executables, a PNG named .pdf, an empty file', async () => {
    const before = storedFiles().length;
    expect(
      expectFileError(
        await upload(customerId, [{ name: 'file', filename: 'notes.pdf', content: 'just text' }]),
        415,
      ),
    ).toContain('not accepted');
    expectFileError(
      await upload(customerId, [{ name: 'file', filename: 'setup.pdf', content: EXE }]),
      415,
    );
    expect(
      expectFileError(
        await upload(customerId, [{ name: 'file', filename: 'invoice.pdf', content: PNG }]),
        415,
      ),
    ).toContain('PNG');
    expectFileError(
      await upload(customerId, [{ name: 'file', filename: 'empty.pdf', content: Buffer.alloc(0) }]),
      422,
    );
    expect(storedFiles().length).toBe(before);
  });

  it('refuses a file over the size limit (413) and keeps nothing', async () => {
    const before = storedFiles().length;
    const big = Buffer.concat([PDF, Buffer.alloc(300 * 1024, 0x20)]);
    expect(
      expectFileError(
        await upload(customerId, [{ name: 'file', filename: 'big.pdf', content: big }]),
        413,
      ),
    ).toContain('too large');
    expect(storedFiles().length).toBe(before);
    const count = await t.database.db
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('original_name', '=', 'big.pdf')
      .executeTakeFirstOrThrow();
    expect(Number(count.count)).toBe(0);
  });

  it('refuses a missing file, a bad document type and a request that is not multipart', async () => {
    const before = storedFiles().length;
    expectFileError(await upload(customerId, [['document_name', 'Ohne Datei']]), 422);
    const badType = await upload(customerId, [
      ['document_type', 'holiday_photos'],
      { name: 'file', filename: 'a.pdf', content: PDF },
    ]);
    expect(badType.statusCode, badType.body).toBe(422);
    expect(Object.keys((badType.json() as { errors: Row }).errors)).toContain('document_type');
    const json = await t.request({
      method: 'POST',
      url: `/api/customers/${customerId}/documents`,
      payload: { file: 'x' },
      as: CONSULTANT,
    });
    expect(json.statusCode).toBe(415);
    expect(storedFiles().length).toBe(before);
  });
});

describe('access like the customer', () => {
  it("refuses uploads to and downloads of another consultant's customer (404)", async () => {
    expect(
      (await upload(otherCustomerId, [{ name: 'file', filename: 'a.pdf', content: PDF }]))
        .statusCode,
    ).toBe(404);
    const theirs = await upload(
      otherCustomerId,
      [{ name: 'file', filename: 'b.pdf', content: PDF }],
      CONSULTANT2,
    );
    expect(theirs.statusCode, theirs.body).toBe(201);
    const id = (theirs.json() as { data: Row }).data.id;
    const url = `/api/documents/${id}/download`;
    expect((await t.request({ method: 'GET', url, as: CONSULTANT })).statusCode).toBe(404);
    expect(
      (await t.request({ method: 'GET', url: `/api/documents/${id}`, as: CONSULTANT })).statusCode,
    ).toBe(404);
    expect((await t.request({ method: 'GET', url, as: CONSULTANT2 })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url, as: ADMIN })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });

  it('removes the stored file with its document, and keeps customers with documents (409)', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/customers',
      payload: { first_name: 'Mit', last_name: 'Dokument' },
      as: CONSULTANT,
    });
    const customer = (created.json() as { data: Row }).data;
    const response = await upload(Number(customer.id), [
      { name: 'file', filename: 'c.pdf', content: PDF },
    ]);
    const document = (response.json() as { data: Row }).data;
    expect(storedFiles()).toContain(String(document.document_file));
    const refused = await t.request({
      method: 'DELETE',
      url: `/api/customers/${customer.id}`,
      as: CONSULTANT,
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toContain('documents');
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/documents/${document.id}`,
      as: CONSULTANT,
    });
    expect(deleted.statusCode).toBe(200);
    expect(storedFiles()).not.toContain(String(document.document_file));
    expect(
      (await t.request({ method: 'DELETE', url: `/api/customers/${customer.id}`, as: CONSULTANT }))
        .statusCode,
    ).toBe(200);
  });

  it('answers 404 for the download of a document without a file', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/documents',
      payload: { customer_id: customerId, document_name: 'Original im Archiv' },
      as: CONSULTANT,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { data: Row }).data.id;
    const download = await t.request({
      method: 'GET',
      url: `/api/documents/${id}/download`,
      as: CONSULTANT,
    });
    expect(download.statusCode).toBe(404);
    expect(download.json().message).toContain('no file');
  });
});

describe('avatar', () => {
  it('refuses a picture cut short with a clear error naming the file, never a 500', async () => {
    // Its signature alone, or with half a header: file-type runs out of bytes.
    for (const length of [8, 12]) {
      const body = multipart([
        { name: 'file', filename: 'cut.png', content: PNG.subarray(0, length) },
      ]);
      const response = await t.request({
        method: 'POST',
        url: `/api/customers/${customerId}/avatar`,
        payload: body.payload,
        headers: body.headers,
        as: CONSULTANT,
      });
      expect(expectFileError(response, 415), `${length} bytes`).toBeTruthy();
    }
  });

  it('stores a picture, serves it, replaces and removes it', async () => {
    const body = multipart([{ name: 'file', filename: 'me.png', content: PNG }]);
    const url = `/api/customers/${customerId}/avatar`;
    const set = await t.request({
      method: 'POST',
      url,
      payload: body.payload,
      headers: body.headers,
      as: CONSULTANT,
    });
    expect(set.statusCode, set.body).toBe(200);
    const first = String((set.json() as { data: Row }).data.avatar);
    expect(first).toMatch(/^avatars\/.+\.png$/);
    const image = await t.request({ method: 'GET', url, as: CONSULTANT });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload).toEqual(PNG);
    expect((await t.request({ method: 'GET', url, as: CONSULTANT2 })).statusCode).toBe(404);

    const pdf = multipart([{ name: 'file', filename: 'me.pdf', content: PDF }]);
    expectFileError(
      await t.request({
        method: 'POST',
        url,
        payload: pdf.payload,
        headers: pdf.headers,
        as: CONSULTANT,
      }),
      415,
    );
    const again = await t.request({
      method: 'POST',
      url,
      payload: body.payload,
      headers: body.headers,
      as: CONSULTANT,
    });
    const second = String((again.json() as { data: Row }).data.avatar);
    expect(second).not.toBe(first);
    expect(storedFiles()).not.toContain(first);
    const removed = await t.request({ method: 'DELETE', url, as: CONSULTANT });
    expect((removed.json() as { data: Row }).data.avatar).toBeNull();
    expect(storedFiles()).not.toContain(second);
    expect((await t.request({ method: 'GET', url, as: CONSULTANT })).statusCode).toBe(404);
  });
});
