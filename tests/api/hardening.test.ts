/**
 * The smaller defects of issue 10, one API test each, on both engines: the outbox must not hand a
 * reset link of a stronger account to a user manager; the duplicates check must not be an
 * existence oracle; URL fields refuse `javascript:` and protocol-relative links; ownership fields
 * are set by the access layer only; security headers; weak passwords.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../src/schema/permissions.ts';
import { outboxAnswer } from '../../server/mail/outbox.ts';
import { ADMIN, CONSULTANT, createTestApp, DEMO_PASSWORD, type TestApp } from './harness.ts';

type Row = Record<string, unknown>;
const BACKOFFICE = 'backoffice@demo.gscrm.ch';
const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
const EMPLOYEE = 'employee@demo.gscrm.ch';
const PARTNER = 'partner@demo.gscrm.ch';
const CALLCENTER = 'callcenter@demo.gscrm.ch';
const EXTERNAL = 'external@demo.gscrm.ch';

let t: TestApp;
const ids: Record<string, number> = {};
beforeAll(async () => {
  t = await createTestApp();
  const users = await t.database.db.selectFrom('users').select(['id', 'email']).execute();
  for (const user of users) ids[String(user.email)] = Number(user.id);
});
afterAll(async () => {
  await t?.close();
});

let address = 0;
/** An anonymous request from an address of its own (per-address throttles stay apart). */
const anonymous = (options: InjectOptions) =>
  t.app.inject({
    ...options,
    remoteAddress: `10.42.${Math.floor(++address / 250)}.${address % 250}`,
  });
const call = (as: string, method: string, url: string, payload?: unknown) =>
  t.request({ method: method as 'GET', url, payload: payload as never, as });
const data = (response: LightMyRequestResponse) => (response.json() as { data: Row }).data;
const errorKeys = (response: LightMyRequestResponse) =>
  Object.keys((response.json() as { errors?: Row }).errors ?? {});

function expect422(response: LightMyRequestResponse, field: string): void {
  expect(response.statusCode, response.body).toBe(422);
  expect(errorKeys(response), response.body).toContain(field);
}

/** A reset or invitation token, as it appears in a link (`…/change-password?token=…`). */
const LINK_TOKEN = /token=([A-Za-z0-9_%-]{16,})/g;

describe('the outbox hands no stronger account’s link to a user manager', () => {
  it('a BACKOFFICE user given manage-users cannot read the admin’s reset link', async () => {
    const granted = await call(ADMIN, 'PATCH', `/api/users/${ids[BACKOFFICE]}`, {
      additional_permissions: ['manage-users'],
    });
    expect(granted.statusCode, granted.body).toBe(200);
    const forgot = await anonymous({
      method: 'POST',
      url: '/api/account/forgot-password',
      payload: { email: ADMIN },
    });
    expect(forgot.statusCode).toBe(202);
    const mailed = await t.database.db
      .selectFrom('outbox')
      .select('id')
      .where('to_address', '=', ADMIN)
      .where('kind', '=', 'password-reset')
      .execute();
    expect(mailed.length, 'the reset mail exists').toBeGreaterThan(0);

    const token = await t.login(BACKOFFICE);
    const read = (url: string) =>
      t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    const answers = [
      await read(`/api/mail/outbox?to=${encodeURIComponent(ADMIN)}&per_page=200`),
      await read('/api/mail/outbox?per_page=200'),
      ...(await Promise.all(mailed.map((mail) => read(`/api/mail/outbox/${mail.id}`)))),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBeLessThan(500);
      const found = [...answer.body.matchAll(LINK_TOKEN)].map((match) => match[1]);
      expect(found, `a usable link in ${answer.body.slice(0, 300)}`).toEqual([]);
    }
  });
});

describe('the outbox shows a link only where it gives nothing new (demo mode)', () => {
  it('an admin reads the reset link of an account with fewer rights, and that is audited', async () => {
    const forgot = await anonymous({
      method: 'POST',
      url: '/api/account/forgot-password',
      payload: { email: CONSULTANT },
    });
    expect(forgot.statusCode).toBe(202);
    const list = await call(
      ADMIN,
      'GET',
      `/api/mail/outbox?to=${encodeURIComponent(CONSULTANT)}&kind=password-reset`,
    );
    expect(list.statusCode, list.body).toBe(200);
    const [mail] = (list.json() as { data: Row[] }).data;
    expect(String(mail.body)).toMatch(/\/change-password\?token=[A-Za-z0-9_-]{43}/);
    expect(mail.redacted).toBe(false);
    const shown = await t.database.db
      .selectFrom('audit_log')
      .select('details')
      .where('event', '=', 'outbox.link.shown')
      .where('user_id', '=', ids[ADMIN])
      .execute();
    expect(JSON.stringify(shown.map((row) => row.details))).toContain(String(mail.id));
  });

  it('nobody reads their own link (the stronger account: above); with SMTP nobody reads any', async () => {
    const own = await call(ADMIN, 'GET', `/api/mail/outbox?to=${encodeURIComponent(ADMIN)}`);
    const ownMails = (own.json() as { data: Row[] }).data;
    expect(ownMails.some((mail) => mail.kind === 'password-reset')).toBe(true);
    expect([...own.body.matchAll(LINK_TOKEN)]).toEqual([]);
    expect(
      ownMails.filter((mail) => mail.kind === 'password-reset').map((m) => m.redacted),
    ).not.toContain(false);

    const rows = await t.database.db.selectFrom('outbox').selectAll().execute();
    expect(rows.some((row) => /token=[A-Za-z0-9_%-]{16,}/.test(String(row.body)))).toBe(true);
    const admin = { id: ids[ADMIN], role: 'ADMIN', permissions: [...PERMISSIONS] };
    const delivered = await outboxAnswer(t.database.db, admin, rows, 'smtp', '127.0.0.1');
    expect(delivered.map((mail) => [...String(mail.body).matchAll(LINK_TOKEN)]).flat()).toEqual([]);
  });
});

describe('the duplicates check is no existence oracle', () => {
  const EMAIL = 'oracle.probe@example.ch';
  const ask = (as: string, email: string) =>
    call(as, 'GET', `/api/customers/duplicates?email=${encodeURIComponent(email)}`);
  let hidden: Row[] = [];

  beforeAll(async () => {
    for (let index = 0; index < 2; index++) {
      const response = await call(ADMIN, 'POST', '/api/customers', {
        first_name: 'Oracle',
        last_name: `Probe ${index}`,
        email: EMAIL,
        assigned_to: ids[CONSULTANT2],
      });
      expect(response.statusCode, response.body).toBe(201);
      hidden.push(data(response));
    }
  });

  it('a consultant learns only "a possible duplicate exists": no count, no ids', async () => {
    const two = await ask(CONSULTANT, EMAIL);
    expect(two.statusCode, two.body).toBe(200);
    const answer = two.json() as Row;
    expect(typeof answer.hidden, `a count of hidden matches: ${two.body}`).not.toBe('number');
    for (const record of hidden) expect(two.body).not.toContain(`"id":${record.id}`);
    // One match or two: the same answer.
    await call(ADMIN, 'DELETE', `/api/customers/${hidden[1].id}`);
    hidden = hidden.slice(0, 1);
    const one = await ask(CONSULTANT, EMAIL);
    expect(one.json()).toEqual(answer);
    // …but still a signal, different from an address nobody has.
    const none = await ask(CONSULTANT, 'nobody.at.all@example.ch');
    expect(none.json()).not.toEqual(answer);
  });

  it('EMPLOYEE and PARTNER (no customer access) get 403', async () => {
    for (const user of [EMPLOYEE, PARTNER]) {
      const response = await ask(user, EMAIL);
      expect(response.statusCode, `${user}: ${response.body}`).toBe(403);
    }
  });

  it('an external user gets 403 or an answer that reveals nothing', async () => {
    const response = await ask(EXTERNAL, EMAIL);
    if (response.statusCode === 403) return;
    expect(response.statusCode, response.body).toBe(200);
    const none = await ask(EXTERNAL, 'nobody.at.all@example.ch');
    expect(response.json(), 'the same answer as for an address nobody has').toEqual(none.json());
  });
});

describe('URL fields', () => {
  const UNSAFE = [
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'vbscript:msgbox(1)',
  ];

  it('avatar fields refuse javascript:, data: and vbscript: URLs (422 naming avatar)', async () => {
    const company = await t.database.db
      .selectFrom('companies')
      .select('id')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    for (const url of [`/api/users/${ids[EMPLOYEE]}`, `/api/companies/${company.id}`]) {
      for (const avatar of UNSAFE) expect422(await call(ADMIN, 'PATCH', url, { avatar }), 'avatar');
      const safe = await call(ADMIN, 'PATCH', url, { avatar: 'https://example.ch/face.png' });
      expect(safe.statusCode, safe.body).toBe(200);
    }
  });

  it('notification links refuse protocol-relative URLs; app paths pass', async () => {
    const notify = (link: string) =>
      call(ADMIN, 'POST', '/api/notifications', {
        user_id: ids[CONSULTANT],
        title: 'Link probe',
        link,
      });
    for (const link of ['//evil.example/phish', '///evil.example/phish'])
      expect422(await notify(link), 'link');
    for (const link of ['/admin/customers/1', '/consultant/customers?filter=open']) {
      const response = await notify(link);
      expect(response.statusCode, `${link}: ${response.body}`).toBe(201);
    }
  });

  it('refuses the tricks browsers read as another site or as script', async () => {
    const company = await t.database.db
      .selectFrom('companies')
      .select('id')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const url = `/api/companies/${company.id}`;
    for (const avatar of [
      '//evil.example/face.png', // protocol-relative
      'https://bank.example@evil.example/face.png', // credentials hiding the host
      'https:\\\\evil.example\\face.png', // backslashes, read as slashes
      'https://exa mple.ch/face.png',
      ' https://example.ch/face.png',
      '/avatars/face.png', // a path is not a web address
      'ftp://example.ch/face.png',
    ])
      expect422(await call(ADMIN, 'PATCH', url, { avatar }), 'avatar');
    for (const avatar of ['http://example.ch/face.png', 'HTTPS://EXAMPLE.CH/a?b=c#d']) {
      const ok = await call(ADMIN, 'PATCH', url, { avatar });
      expect(ok.statusCode, `${avatar}: ${ok.body}`).toBe(200);
    }
    const notify = (link: string) =>
      call(ADMIN, 'POST', '/api/notifications', { user_id: ids[CONSULTANT], title: 'Probe', link });
    for (const link of [
      '/\\evil.example',
      '/\t/evil.example',
      'https://example.ch/a',
      'admin/x',
      '',
    ])
      expect422(await notify(link), 'link');
  });
});

describe('ownership fields are the access layer’s', () => {
  it('a consultant cannot set sub_broker_id on a customer (422 naming it)', async () => {
    const broker = await t.database.db
      .selectFrom('sub_brokers')
      .select('id')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect422(
      await call(CONSULTANT, 'POST', '/api/customers', {
        first_name: 'Owner',
        last_name: 'Probe',
        sub_broker_id: broker.id,
      }),
      'sub_broker_id',
    );
    const own = await call(CONSULTANT, 'POST', '/api/customers', {
      first_name: 'Owner',
      last_name: 'Probe',
    });
    expect(own.statusCode, own.body).toBe(201);
    const url = `/api/customers/${data(own).id}`;
    expect422(await call(CONSULTANT, 'PATCH', url, { sub_broker_id: broker.id }), 'sub_broker_id');
    expect(data(await call(ADMIN, 'GET', url)).sub_broker_id).toBeNull();
  });

  it('an external user cannot set assigned_to (422 naming it)', async () => {
    expect422(
      await call(EXTERNAL, 'POST', '/api/customers', {
        first_name: 'Assigned',
        last_name: 'Probe',
        assigned_to: ids[CONSULTANT],
      }),
      'assigned_to',
    );
    const own = await call(EXTERNAL, 'POST', '/api/customers', {
      first_name: 'Assigned',
      last_name: 'Probe',
    });
    expect(own.statusCode, own.body).toBe(201);
    const url = `/api/customers/${data(own).id}`;
    expect422(await call(EXTERNAL, 'PATCH', url, { assigned_to: ids[CONSULTANT] }), 'assigned_to');
    expect(data(await call(ADMIN, 'GET', url)).assigned_to).toBeNull();
  });

  it('a complete record sent back unchanged passes; the back office sets both markers', async () => {
    const broker = await t.database.db
      .selectFrom('sub_brokers')
      .select('id')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const created = await call(ADMIN, 'POST', '/api/customers', {
      first_name: 'Both',
      last_name: 'Markers',
      assigned_to: ids[CONSULTANT],
      sub_broker_id: broker.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const record = data(created);
    expect(record).toMatchObject({ assigned_to: ids[CONSULTANT], sub_broker_id: broker.id });
    const url = `/api/customers/${record.id}`;
    // The consultant edits its customer: the whole record comes back, sub_broker_id unchanged.
    const { id: _id, created_at: _c, updated_at: _u, version: _v, ...form } = record;
    const saved = await call(CONSULTANT, 'PUT', url, { ...form, notes: 'edited' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect422(
      await call(CONSULTANT, 'PUT', url, { ...form, sub_broker_id: null }),
      'sub_broker_id',
    );
    expect422(
      await call(CONSULTANT, 'PUT', url, { ...form, assigned_to: ids[CONSULTANT2] }),
      'assigned_to',
    );
    const handedOver = await call(ADMIN, 'PATCH', url, {
      assigned_to: ids[CONSULTANT2],
      sub_broker_id: null,
    });
    expect(handedOver.statusCode, handedOver.body).toBe(200);
  });
});

describe('security headers', () => {
  function directives(csp: string | undefined): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const part of (csp ?? '').split(';')) {
      const [name, ...values] = part.trim().split(/\s+/);
      if (name) out.set(name.toLowerCase(), values);
    }
    return out;
  }

  function expectHeaders(response: LightMyRequestResponse, label: string): void {
    const headers = response.headers;
    const csp = directives(headers['content-security-policy'] as string | undefined);
    expect(csp.size, `${label}: Content-Security-Policy`).toBeGreaterThan(0);
    const scripts = csp.get('script-src') ?? csp.get('default-src');
    expect(scripts, `${label}: script-src or default-src`).toBeDefined();
    expect(scripts, `${label}: no inline scripts`).not.toContain("'unsafe-inline'");
    expect(csp.get('frame-ancestors'), `${label}: frame-ancestors`).toEqual(["'none'"]);
    expect(headers['x-content-type-options'], `${label}: nosniff`).toBe('nosniff');
    expect(headers['referrer-policy'], `${label}: Referrer-Policy`).toMatch(
      /^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/,
    );
  }

  it('/api answers: CSP without inline scripts, frame-ancestors none, nosniff, Referrer-Policy, no-store', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expectHeaders(health, '/api/health');
    expect(health.headers['cache-control'], '/api/health Cache-Control').toContain('no-store');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: CONSULTANT, password: DEMO_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control'], 'the token answer').toContain('no-store');
    const customers = await call(CONSULTANT, 'GET', '/api/customers');
    expect(customers.headers['cache-control'], 'customer data').toContain('no-store');
  });

  it('the web app’s answers carry the same headers', async () => {
    expectHeaders(await t.app.inject({ method: 'GET', url: '/' }), '/');
  });

  it('HSTS when PUBLIC_URL is https (read when the app is built)', async () => {
    const before = process.env.PUBLIC_URL;
    process.env.PUBLIC_URL = 'https://crm.example.ch';
    try {
      const secure = await t.variant({});
      const response = await secure.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.headers['strict-transport-security']).toMatch(/max-age=[1-9]\d*/);
    } finally {
      if (before === undefined) delete process.env.PUBLIC_URL;
      else process.env.PUBLIC_URL = before;
    }
  });

  it('no HSTS nor upgrade-insecure-requests on plain http (the demo on localhost)', async () => {
    const before = process.env.PUBLIC_URL;
    process.env.PUBLIC_URL = 'http://localhost:8080';
    try {
      const plain = await t.variant({});
      const response = await plain.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.headers['strict-transport-security']).toBeUndefined();
      expect(String(response.headers['content-security-policy'])).not.toContain('upgrade');
    } finally {
      if (before === undefined) delete process.env.PUBLIC_URL;
      else process.env.PUBLIC_URL = before;
    }
  });

  it('refused and unknown /api answers carry the headers and no-store too', async () => {
    const answers = [
      await t.app.inject({ method: 'GET', url: '/api/customers' }), // 401 in access control
      await t.app.inject({ method: 'GET', url: '/api/no-such-route' }), // 404
      await call(EMPLOYEE, 'GET', '/api/customers/duplicates?email=a%40b.ch'), // refused or not
    ];
    expect(answers[0].statusCode).toBe(401);
    expect(answers[1].statusCode).toBe(404);
    for (const answer of answers) {
      expectHeaders(answer, `${answer.statusCode} ${answer.body.slice(0, 60)}`);
      expect(answer.headers['cache-control']).toContain('no-store');
    }
  });

  it('the built web app: index, assets and the fallback carry the headers', async () => {
    // Imported here so this block stays the only part of the file these checks touch.
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { buildApp } = await import('../../server/app.ts');
    const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'gscrm-web-'));
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(
      path.join(webRoot, 'index.html'),
      '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head></html>',
    );
    fs.writeFileSync(path.join(webRoot, 'assets', 'app.js'), 'console.log(1);');
    const web = await buildApp({ database: t.database, models: t.app.models, webRoot });
    try {
      for (const url of ['/', '/admin/customers', '/assets/app.js']) {
        const response = await web.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
        expectHeaders(response, url);
      }
    } finally {
      await web.close();
      fs.rmSync(webRoot, { recursive: true, force: true });
    }
  });
});

describe('weak passwords are refused in every flow that sets one', () => {
  const COMMON = ['Password!', 'P@ssw0rd'];

  it('change password: common passwords and one’s own e-mail (422 naming new_password)', async () => {
    for (const [user, weak] of [
      [EMPLOYEE, COMMON[0]],
      [CALLCENTER, COMMON[1]],
      [PARTNER, 'Partner@demo.gscrm.ch'],
    ] as const) {
      const response = await call(user, 'POST', '/api/account/password', {
        old_password: DEMO_PASSWORD,
        new_password: weak,
        confirm_password: weak,
      });
      expect422(response, 'new_password');
    }
  });

  it('reset password: the same (422 naming new_password, the link stays usable)', async () => {
    const account = CONSULTANT2;
    const forgot = await anonymous({
      method: 'POST',
      url: '/api/account/forgot-password',
      payload: { email: account },
    });
    expect(forgot.statusCode).toBe(202);
    const mail = await t.database.db
      .selectFrom('outbox')
      .select('body')
      .where('to_address', '=', account)
      .where('kind', '=', 'password-reset')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const token = decodeURIComponent(
      /\/change-password\?token=([A-Za-z0-9_%-]+)/.exec(String(mail.body))?.[1] ?? '',
    );
    for (const weak of [...COMMON, 'Consultant2@demo.gscrm.ch']) {
      const response = await anonymous({
        method: 'POST',
        url: '/api/account/reset-password',
        payload: { token, new_password: weak, confirm_password: weak },
      });
      expect422(response, 'new_password');
    }
  });

  it('registration: the same (422 naming password); a strong one passes', async () => {
    const register = (email: string, password: string) =>
      anonymous({
        method: 'POST',
        url: '/api/account/register',
        payload: {
          first_name: 'Weak',
          last_name: 'Person',
          email,
          password,
          confirm_password: password,
        },
      });
    expect422(await register('weak.one@example.ch', COMMON[0]), 'password');
    expect422(await register('weak.two@example.ch', COMMON[1]), 'password');
    expect422(await register('weak.three@example.ch', 'Weak.three@example.ch'), 'password');
    const strong = await register('strong.one@example.ch', 'Tz7#qLm2!vRw-Kette');
    expect(strong.statusCode, strong.body).toBe(202);
  });

  it('names the problem (common or personal) and lets a passphrase with one’s own name pass', async () => {
    const register = (first: string, last: string, email: string, password: string) =>
      anonymous({
        method: 'POST',
        url: '/api/account/register',
        payload: {
          first_name: first,
          last_name: last,
          email,
          password,
          confirm_password: password,
        },
      });
    const messages = (response: LightMyRequestResponse) =>
      (response.json() as { errors?: Record<string, string[]> }).errors?.password ?? [];
    const common = await register('Lara', 'Keller', 'lara.keller@example.ch', 'Passwort1!');
    expect422(common, 'password');
    expect(messages(common).join(' ')).toMatch(/too easy to guess/);
    const personal = await register('Lara', 'Keller', 'lara.k@example.ch', 'Keller#Lara2026');
    expect422(personal, 'password');
    expect(messages(personal).join(' ')).toMatch(/your name or e-mail/);
    const passphrase = await register(
      'Lara',
      'Keller',
      'lara.keller2@example.ch',
      'Lara-liebt-grüne-Äpfel#7',
    );
    expect(passphrase.statusCode, passphrase.body).toBe(202);
  });
});
