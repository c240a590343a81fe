/**
 * Personal-data requests (issue 11, nFADP): the export zip holds the person's records, documents
 * (list and files) and history; erasure removes or pseudonymises in one transaction — an injected
 * failure midway leaves every row, file and history entry as it was; admins only, 404 for a person
 * that is not there.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBuffer, type Entry } from 'yauzl';
import { declarePersonalData } from '../../server/customers/personal-data.ts';
import { savePreferences } from '../../server/account/preferences.ts';
import { notifyUser } from '../../server/notifications/notify.ts';
import { getStorage } from '../../server/storage/index.ts';
import { ADMIN, CONSULTANT, createTestApp, type TestApp } from './harness.ts';
import { multipart, PDF } from './multipart.ts';

type Row = Record<string, unknown>;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const send = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Row, as = ADMIN) =>
  t.request({ method, url, payload, as });

function data(response: LightMyRequestResponse, status = 200): Row {
  expect(response.statusCode, response.body).toBe(status);
  return (response.json() as { data: Row }).data;
}

/** A customer with an e-mail, a household member and one uploaded PDF. */
async function person(lastName: string) {
  const customer = data(
    await send('POST', '/api/customers', {
      first_name: 'Petra',
      last_name: lastName,
      email: `${lastName.toLowerCase()}@example.ch`,
    }),
    201,
  );
  await send('PATCH', `/api/customers/${customer.id}`, { city: 'Luzern' });
  const member = data(
    await send('POST', '/api/household-members', {
      customer_id: customer.id,
      first_name: 'Tim',
      last_name: lastName,
      relation: 'child',
    }),
    201,
  );
  const form = multipart([{ name: 'file', filename: 'vertrag.pdf', content: PDF }]);
  const document = data(
    await t.request({
      method: 'POST',
      url: `/api/customers/${customer.id}/documents`,
      payload: form.payload,
      headers: form.headers,
      as: ADMIN,
    }),
    201,
  );
  return { customer, member, document, file: String(document.document_file) };
}

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
      zip.readEntry();
    });
  });
}

/** What is stored about a customer: rows, the file, and erased values in its history. */
async function stateOf(customerId: unknown, file: string) {
  const db = t.database.db;
  const id = Number(customerId);
  const customer = await db
    .selectFrom('customers')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  const members = await db
    .selectFrom('household_members')
    .select('id')
    .where('customer_id', '=', id)
    .execute();
  const documents = await db
    .selectFrom('documents')
    .select('id')
    .where('customer_id', '=', id)
    .execute();
  const history = await db
    .selectFrom('audit_log')
    .select(['changes'])
    .where((eb) =>
      eb.or([
        eb.and([eb('resource', '=', 'customers'), eb('record_id', '=', String(id))]),
        eb.and([eb('parent_resource', '=', 'customers'), eb('parent_id', '=', String(id))]),
      ]),
    )
    .execute();
  return {
    customer,
    members: members.length,
    documents: documents.length,
    fileStored: await getStorage().exists(file),
    history: JSON.stringify(history),
  };
}

describe('export', () => {
  it("zips the customer's records, documents and history with the files", async () => {
    const { customer, member, document } = await person('Export');
    const response = await send('GET', `/api/customers/${customer.id}/personal-data`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('application/zip');
    expect(String(response.headers['content-disposition'])).toContain('attachment');
    const entries = await unzip(response.rawPayload);
    const manifest = JSON.parse(String(entries.get('personal-data.json'))) as {
      records: Record<string, Row[]>;
      files: string[];
      history: Row[];
    };
    expect(manifest.records.customers[0]).toMatchObject({
      id: customer.id,
      email: 'export@example.ch',
    });
    expect(manifest.records.household_members.map((row) => row.id)).toEqual([member.id]);
    expect(manifest.records.documents.map((row) => row.id)).toEqual([document.id]);
    const fileName = `documents/${String(document.id)}-vertrag.pdf`;
    expect(manifest.files).toEqual([fileName]);
    expect(entries.get(fileName)?.equals(PDF)).toBe(true);
    // Creation, the city change, the member and the document.
    const actions = manifest.history.map((row) => `${String(row.resource)} ${String(row.action)}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        'customers create',
        'customers update',
        'household_members create',
        'documents create',
      ]),
    );
  });

  it('exports a household member; admins only; 404 for nobody', async () => {
    const { member } = await person('Mitglied');
    const response = await send('GET', `/api/household-members/${member.id}/personal-data`);
    expect(response.statusCode).toBe(200);
    const manifest = JSON.parse(
      String((await unzip(response.rawPayload)).get('personal-data.json')),
    ) as { records: Record<string, Row[]> };
    expect(manifest.records.household_members[0]).toMatchObject({
      id: member.id,
      first_name: 'Tim',
    });
    expect(
      (
        await send(
          'GET',
          `/api/household-members/${member.id}/personal-data`,
          undefined,
          CONSULTANT,
        )
      ).statusCode,
    ).toBe(403);
    expect((await send('GET', '/api/customers/2000000000/personal-data')).statusCode).toBe(404);
    expect((await send('POST', '/api/customers/2000000000/erase')).statusCode).toBe(404);
  });
});

describe('erasure', () => {
  it('an injected failure midway leaves every row, file and history entry', async () => {
    const { customer, file } = await person('Fehler');
    const before = await stateOf(customer.id, file);
    expect(before).toMatchObject({ members: 1, documents: 1, fileStored: true });
    // A feature whose hook fails after documents and members were deleted in the transaction.
    const withdraw = declarePersonalData({
      name: 'failing',
      retain: () => Promise.reject(new Error('injected failure')),
    });
    try {
      const response = await send('POST', `/api/customers/${customer.id}/erase`);
      expect(response.statusCode).toBe(500);
    } finally {
      withdraw();
    }
    expect(await stateOf(customer.id, file)).toEqual(before);
    const events = await t.database.db
      .selectFrom('audit_log')
      .select('id')
      .where('event', '=', 'personal-data.erased')
      .where('record_id', '=', String(customer.id))
      .execute();
    expect(events).toEqual([]);
  });

  it('removes the person, its documents, members and files; the history keeps who and when', async () => {
    const { customer, file } = await person('Weg');
    const erased = await send('POST', `/api/customers/${customer.id}/erase`);
    expect(data(erased)).toMatchObject({
      documents: 1,
      household_members: 1,
      files: 1,
      pseudonymised: false,
    });
    const after = await stateOf(customer.id, file);
    expect(after).toMatchObject({
      customer: undefined,
      members: 0,
      documents: 0,
      fileStored: false,
    });
    expect(after.history).not.toContain('weg@example.ch');
    expect(after.history).not.toContain('Luzern');
    expect(after.history).toContain('[erased]');
    const event = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('event', '=', 'personal-data.erased')
      .where('record_id', '=', String(customer.id))
      .executeTakeFirstOrThrow();
    expect(event.request_id).toBe(String(erased.headers['x-request-id']));
    expect(JSON.stringify(event.details)).not.toContain('Weg');
    expect((await send('GET', `/api/customers/${customer.id}`)).statusCode).toBe(404);
  });

  it('exports the notifications and mails about the customer; erasure deletes them and their history', async () => {
    const { customer } = await person('Gemeldet');
    const consultant = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', CONSULTANT)
      .executeTakeFirstOrThrow();
    await savePreferences(t.database.db, consultant.id, { notification_emails: true });
    // One about this customer (a notification and, as the consultant asked, its mail), one not.
    const about = await notifyUser(t.database.db, {
      kind: 'reminder-due',
      userId: consultant.id,
      values: { subject: 'Police Gemeldet', due: '01.12.2026', customer: ' (Petra Gemeldet)' },
      customerId: Number(customer.id),
    });
    const other = await notifyUser(t.database.db, {
      kind: 'reminder-due',
      userId: consultant.id,
      values: { subject: 'Police Andere', due: '01.12.2026', customer: '' },
    });
    await t.database.db
      .updateTable('notifications')
      .set({ read_at: new Date() })
      .where('id', '=', Number(about))
      .execute();

    const entries = await unzip(
      (await send('GET', `/api/customers/${customer.id}/personal-data`)).rawPayload,
    );
    const manifest = JSON.parse(String(entries.get('personal-data.json'))) as {
      records: { notifications: Row[]; mails: Row[] };
    };
    expect(manifest.records.notifications.map((row) => row.id)).toEqual([about]);
    expect(manifest.records.notifications[0]?.title).toContain('Police Gemeldet');
    expect(manifest.records.mails).toHaveLength(1);
    expect(manifest.records.mails[0]?.body).toContain('Petra Gemeldet');

    const summary = data(await send('POST', `/api/customers/${customer.id}/erase`));
    expect(summary).toMatchObject({ notifications: 1, mails: 1 });
    const db = t.database.db;
    const notices = await db
      .selectFrom('notifications')
      .select('id')
      .where('id', 'in', [Number(about), Number(other)])
      .execute();
    expect(notices.map((row) => row.id)).toEqual([other]);
    const mails = await db
      .selectFrom('outbox')
      .select('subject')
      .where('to_address', '=', CONSULTANT)
      .execute();
    expect(mails.map((row) => row.subject).join()).not.toContain('Gemeldet');
    expect(mails.map((row) => row.subject).join()).toContain('Police Andere');
    const history = await db
      .selectFrom('audit_log')
      .select('changes')
      .where('resource', '=', 'notifications')
      .where('record_id', '=', String(about))
      .execute();
    expect(history.length).toBeGreaterThan(0);
    expect(JSON.stringify(history)).not.toContain('Gemeldet');
  });

  it('keeps and pseudonymises the customer while a feature must keep records about it', async () => {
    const { customer, file } = await person('Behalten');
    const withdraw = declarePersonalData({
      name: 'contracts',
      retain: () => Promise.resolve([{ table: 'contracts', kept: 2 }]),
    });
    try {
      const summary = data(await send('POST', `/api/customers/${customer.id}/erase`));
      expect(summary).toMatchObject({
        pseudonymised: true,
        kept: [{ hook: 'contracts', table: 'contracts', kept: 2 }],
      });
    } finally {
      withdraw();
    }
    const after = await stateOf(customer.id, file);
    expect(after.customer).toMatchObject({
      first_name: `erased-customers-${String(customer.id)}`,
      email: null,
      city: null,
    });
    expect(after).toMatchObject({ members: 0, documents: 0, fileStored: false });
    expect(after.history).not.toContain('behalten@example.ch');
  });

  it('admins only', async () => {
    const { member } = await person('Nur');
    expect(
      (await send('POST', `/api/household-members/${member.id}/erase`, undefined, CONSULTANT))
        .statusCode,
    ).toBe(403);
    const erased = await send('POST', `/api/household-members/${member.id}/erase`);
    expect(data(erased)).toMatchObject({ pseudonymised: false });
    expect((await send('GET', `/api/household-members/${member.id}`)).statusCode).toBe(404);
  });
});
