/**
 * A feedback's image (issue 15, SPEC §3 Feedback `image`), on both engines:
 * POST|GET|DELETE /api/feedbacks/:id/image through the storage interface (a temporary folder
 * here) — a phone's photo (JPEG, PNG, WebP, HEIC) checked by content, served inline with its type,
 * nosniff and no-store; replaced and removed with the old file gone; visible exactly as the
 * feedback's appointment (another consultant: 404, nothing stored); another type 415 and too large
 * 413, both naming `file`, translated, nothing kept; the history records each change; the
 * personal-data export carries the image and the erasure removes its file.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fromBuffer, type Entry } from 'yauzl';

import { ADMIN, CONSULTANT, createTestApp, type TestApp, temporaryStorage } from './harness.ts';
import { EXE, type FilePart, multipart, PDF, PNG } from './multipart.ts';

// A small limit (read when the app registers its routes), so a real file can exceed it.
vi.stubEnv('FEEDBACK_IMAGE_MAX_BYTES', String(64 * 1024));

const folder = temporaryStorage('feedback-images');
const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
type Row = Record<string, unknown>;
interface ErrorAnswer {
  key?: string;
  errors?: Record<string, string[]>;
  error_keys?: Record<string, Array<{ message: string }>>;
}

/** The start of a JPEG (JFIF), of a WebP and of an iPhone's HEIC: what file-type reads. */
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0'),
  Buffer.alloc(64, 0x11),
  Buffer.from([0xff, 0xd9]),
]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x24, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(40, 0x22),
]);
const HEIC = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypheic'),
  Buffer.from([0, 0, 0, 0]),
  Buffer.from('mif1heic'),
  Buffer.alloc(64, 0x33),
]);
/** The first bytes of a GIF: an image, but not one a feedback takes. */
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(40, 0)]);

let t: TestApp;
const users: Record<string, number> = {};
const unique = Math.random().toString(36).slice(2, 8);

const call = (as: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Row) =>
  t.request({ method, url, payload, as });
const data = <T = Row>(response: LightMyRequestResponse, status = 200): T => {
  expect(response.statusCode, response.body).toBe(status);
  return (response.json() as { data: T }).data;
};
const send = (id: unknown, file: Omit<FilePart, 'name'>, as = CONSULTANT) => {
  const body = multipart([{ name: 'file', ...file }]);
  return t.request({
    method: 'POST',
    url: `/api/feedbacks/${String(id)}/image`,
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

/** A refused file: the status, `file` named, and the translation key of the message. */
function refusedFile(response: LightMyRequestResponse, status: number): string {
  expect(response.statusCode, response.body).toBe(status);
  const answer = response.json() as ErrorAnswer;
  expect(Object.keys(answer.errors ?? {})).toEqual(['file']);
  expect(answer.error_keys?.file?.[0]?.message).toBe(answer.key);
  return String(answer.key);
}

/** A customer of `as` with an appointment that began an hour ago and its feedback. */
async function feedbackOf(as = CONSULTANT, lastName = `Bild${unique}`) {
  const customer = data(
    await call(as, 'POST', '/api/customers', { first_name: 'Foto', last_name: lastName }),
    201,
  );
  const appointment = data(
    await call(as, 'POST', '/api/appointments', {
      client_id: customer.id,
      consultant_id: users[as],
      // Yesterday morning: past, and on one Swiss day whenever the test runs.
      date_start: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10) + 'T08:00:00.000Z',
      date_end: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10) + 'T08:30:00.000Z',
    }),
    201,
  );
  const outcome = data<{ feedback: Row }>(
    await call(as, 'POST', `/api/appointments/${String(appointment.id)}/feedback`, {
      has_taken_place: true,
      status: 2,
      note: 'Formular unterschrieben',
    }),
    201,
  );
  return { customer, appointment, feedback: outcome.feedback };
}

/** The audit rows a response's request wrote (by its X-Request-Id). */
const auditOf = (response: LightMyRequestResponse) =>
  t.database.db
    .selectFrom('audit_log')
    .select(['resource', 'action', 'record_id', 'parent_resource', 'user_id', 'changes'])
    .where('request_id', '=', String(response.headers['x-request-id']))
    .execute();

/** The zip's entries by name, with their bytes. */
function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
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
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

beforeAll(async () => {
  t = await createTestApp();
  for (const user of await t.database.db.selectFrom('users').select(['id', 'email']).execute())
    users[String(user.email)] = Number(user.id);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await t?.close();
});

describe('POST|GET|DELETE /api/feedbacks/:id/image', () => {
  it('stores a photo, serves it inline with its type, replaces and removes it, with history', async () => {
    const { feedback } = await feedbackOf();
    const url = `/api/feedbacks/${String(feedback.id)}/image`;
    expect(feedback.image).toBeNull();

    const set = await send(feedback.id, { filename: 'IMG_0001.png', content: PNG });
    const first = data(set);
    expect(first).toMatchObject({ id: feedback.id, version: 2, note: 'Formular unterschrieben' });
    const firstKey = String(first.image);
    expect(firstKey).toMatch(/^feedback-images\/[0-9a-f-]{36}\.png$/);
    expect(storedFiles()).toContain(firstKey);
    // As the generic route answers it.
    expect(data(await call(CONSULTANT, 'GET', `/api/feedbacks/${String(feedback.id)}`))).toEqual(
      first,
    );
    const audit = await auditOf(set);
    expect(audit).toEqual([
      expect.objectContaining({
        resource: 'feedbacks',
        action: 'update',
        record_id: String(feedback.id),
        parent_resource: 'appointments',
        user_id: users[CONSULTANT],
      }),
    ]);
    expect((audit[0].changes as Row).image).toEqual({ old: null, new: firstKey });

    const image = await call(CONSULTANT, 'GET', url);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.headers['cache-control']).toBe('private, no-store');
    expect(image.headers['content-disposition']).toMatch(
      new RegExp(`^inline; filename="feedback-${String(feedback.id)}\\.png"`),
    );
    expect(image.rawPayload).toEqual(PNG);
    // The back office sees what the consultant's appointment shows.
    expect((await call(ADMIN, 'GET', url)).statusCode).toBe(200);

    // Replaced by a JPEG: the PNG's file is gone, the new one served as a JPEG.
    const replaced = data(await send(feedback.id, { filename: 'IMG_0002.JPG', content: JPEG }));
    const secondKey = String(replaced.image);
    expect(secondKey).toMatch(/^feedback-images\/.+\.jpg$/);
    expect(storedFiles()).not.toContain(firstKey);
    expect(storedFiles()).toContain(secondKey);
    const jpeg = await call(CONSULTANT, 'GET', url);
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    expect(jpeg.rawPayload).toEqual(JPEG);

    const removed = await call(CONSULTANT, 'DELETE', url);
    expect(data(removed)).toMatchObject({ image: null, version: 4 });
    expect(((await auditOf(removed))[0].changes as Row).image).toEqual({
      old: secondKey,
      new: null,
    });
    expect(storedFiles()).not.toContain(secondKey);
    const none = await call(CONSULTANT, 'GET', url);
    expect(none.statusCode).toBe(404);
    expect((none.json() as ErrorAnswer).key).toBe('app.errors.noFeedbackImage');
    // Removing what is not there: the record as it is, no history.
    const again = await call(CONSULTANT, 'DELETE', url);
    expect(data(again)).toMatchObject({ image: null, version: 4 });
    expect(await auditOf(again)).toEqual([]);
  });

  it("takes a phone's WebP and HEIC, served with their types", async () => {
    for (const [content, filename, extension, type] of [
      [WEBP, 'photo.webp', 'webp', 'image/webp'],
      [HEIC, 'IMG_4711.HEIC', 'heic', 'image/heic'],
    ] as const) {
      const { feedback } = await feedbackOf();
      const stored = data(await send(feedback.id, { filename, content }));
      expect(String(stored.image)).toMatch(new RegExp(`\\.${extension}$`));
      const served = await call(CONSULTANT, 'GET', `/api/feedbacks/${String(feedback.id)}/image`);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(type);
      expect(served.rawPayload).toEqual(content);
    }
  });

  it('is visible exactly as the appointment: another consultant gets 404 and stores nothing', async () => {
    const { feedback } = await feedbackOf();
    const url = `/api/feedbacks/${String(feedback.id)}/image`;
    const before = storedFiles();
    expect(
      (await send(feedback.id, { filename: 'x.png', content: PNG }, CONSULTANT2)).statusCode,
    ).toBe(404);
    expect(storedFiles()).toEqual(before);
    const key = String(data(await send(feedback.id, { filename: 'x.png', content: PNG })).image);
    const hidden = await call(CONSULTANT2, 'GET', url);
    expect(hidden.statusCode).toBe(404);
    expect((hidden.json() as ErrorAnswer).key).toBe('app.errors.notFound');
    expect((await call(CONSULTANT2, 'DELETE', url)).statusCode).toBe(404);
    expect(storedFiles()).toContain(key);
    expect(
      data(await call(CONSULTANT, 'GET', `/api/feedbacks/${String(feedback.id)}`)),
    ).toMatchObject({ image: key });
    // A feedback that does not exist.
    expect((await send(2_000_000_000, { filename: 'x.png', content: PNG })).statusCode).toBe(404);
    expect((await call(CONSULTANT, 'GET', '/api/feedbacks/2000000000/image')).statusCode).toBe(404);
  });

  it('refuses another type (415) and a file too large (413), naming the file; nothing is kept', async () => {
    const { feedback } = await feedbackOf();
    const kept = String(data(await send(feedback.id, { filename: 'ok.png', content: PNG })).image);
    const before = storedFiles();
    expect(refusedFile(await send(feedback.id, { filename: 'scan.pdf', content: PDF }), 415)).toBe(
      'app.errors.fileType',
    );
    expect(refusedFile(await send(feedback.id, { filename: 'anim.gif', content: GIF }), 415)).toBe(
      'app.errors.fileType',
    );
    expect(refusedFile(await send(feedback.id, { filename: 'photo.jpg', content: EXE }), 415)).toBe(
      'app.errors.fileType',
    );
    const text = 'Kein Foto, nur Text.\n';
    expect(refusedFile(await send(feedback.id, { filename: 'photo', content: text }), 415)).toBe(
      'app.errors.fileTypeUnknown',
    );
    // A PNG whose name claims a JPEG.
    expect(refusedFile(await send(feedback.id, { filename: 'photo.jpg', content: PNG }), 415)).toBe(
      'app.errors.fileContent',
    );
    const large = Buffer.concat([PNG, Buffer.alloc(80 * 1024, 0x44)]);
    expect(refusedFile(await send(feedback.id, { filename: 'big.png', content: large }), 413)).toBe(
      'app.errors.fileTooLarge',
    );
    // Not a form at all.
    const json = await call(CONSULTANT, 'POST', `/api/feedbacks/${String(feedback.id)}/image`, {
      file: 'x',
    });
    expect(json.statusCode).toBe(415);
    expect((json.json() as ErrorAnswer).key).toBe('app.errors.multipartFile');
    // A form without the file.
    const empty = multipart([['note', 'kein Bild']]);
    const missing = await t.request({
      method: 'POST',
      url: `/api/feedbacks/${String(feedback.id)}/image`,
      payload: empty.payload,
      headers: empty.headers,
      as: CONSULTANT,
    });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys((missing.json() as ErrorAnswer).errors ?? {})).toEqual(['file']);

    expect(storedFiles()).toEqual(before);
    expect(
      data(await call(CONSULTANT, 'GET', `/api/feedbacks/${String(feedback.id)}`)),
    ).toMatchObject({ image: kept, version: 2 });
  });

  it('says which types it takes, by keys translated in every language', async () => {
    const { feedback } = await feedbackOf();
    const response = await send(feedback.id, { filename: 'scan.pdf', content: PDF });
    const answer = response.json() as ErrorAnswer & {
      message: string;
      error_keys: Record<string, Array<{ message: string; args?: Row }>>;
    };
    expect(answer.message).toBe(
      'This type of file is not accepted (pdf). Allowed: jpg, png, webp, heic.',
    );
    expect(answer.error_keys.file[0]).toEqual({
      message: 'app.errors.fileType',
      args: { type: 'pdf', allowed: 'jpg, png, webp, heic' },
    });
    for (const language of ['de', 'en', 'fr', 'it']) {
      const texts = JSON.parse(
        fs.readFileSync(path.join('locales', `${language}.json`), 'utf8'),
      ) as { app: { errors: Record<string, string> } };
      for (const code of ['fileType', 'fileTooLarge', 'noFeedbackImage'])
        expect(texts.app.errors[code], `${language} ${code}`).toBeTruthy();
    }
  });
});

describe('personal-data requests', () => {
  it('the export carries the image; the erasure removes its file', async () => {
    const { customer, feedback } = await feedbackOf(CONSULTANT, `Vergessen${unique}`);
    const key = String(data(await send(feedback.id, { filename: 'form.png', content: PNG })).image);
    expect(storedFiles()).toContain(key);

    const exported = await call(
      ADMIN,
      'GET',
      `/api/customers/${String(customer.id)}/personal-data`,
    );
    expect(exported.statusCode, exported.body).toBe(200);
    const entries = await unzip(exported.rawPayload);
    const name = `feedbacks/${String(feedback.id)}-image.png`;
    expect(entries.get(name)).toEqual(PNG);
    const manifest = JSON.parse(String(entries.get('personal-data.json'))) as {
      files: string[];
      features: { appointments: { feedbacks: Row[] } };
    };
    expect(manifest.files).toContain(name);
    expect(manifest.features.appointments.feedbacks).toEqual([
      expect.objectContaining({ id: feedback.id, image: key }),
    ]);

    const erased = await call(ADMIN, 'POST', `/api/customers/${String(customer.id)}/erase`);
    expect(data(erased)).toMatchObject({ files: 1 });
    expect(storedFiles()).not.toContain(key);
    expect(
      await t.database.db
        .selectFrom('feedbacks')
        .select('id')
        .where('id', '=', Number(feedback.id))
        .execute(),
    ).toEqual([]);
  });
});
