/**
 * Login throttling that cannot be raced and cannot lock the owner out (issue 10), on both engines.
 * Contract assumed here:
 * - at most `perAccount` (100) evaluated passwords per account per hour, whatever the parallelism
 *   or the client addresses; an evaluated wrong password answers 401 and writes `login.failed`;
 * - `TRUST_PROXY` (read when the app is built) takes proxy addresses/CIDRs or a hop count, never
 *   "trust everything": with `127.0.0.1` the client address is the entry that proxy appended to
 *   X-Forwarded-For; with `1` it is the last entry; entries a client wrote itself never count;
 * - the owner keeps a way in: the reset mail (forgot-password → link → new password) clears the
 *   account's budget, and an address the account signed in from before has a budget of its own;
 * - the per-address limit does not lock out an office: failures for other accounts from one
 *   address do not stop a correct sign-in of a further account from it (delays are allowed; they
 *   must be small in tests).
 * Evaluated attempts are counted from the answers (401) and the audit log (`login.failed`).
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_PASSWORD, type TestApp, type TestClient } from './harness.ts';

type Throttle = { perAccount: number; perAddress: number };
const NEW_PASSWORD = 'Throttle-Reset#2026';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const login = (
  client: TestClient,
  email: string,
  password: string,
  options: Partial<InjectOptions> = {},
): Promise<LightMyRequestResponse> =>
  client.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    ...options,
  });

/** An app on the same database built with TRUST_PROXY set (restored afterwards). */
async function behindProxy(trustProxy: string, throttle: Throttle): Promise<TestClient> {
  const before = process.env.TRUST_PROXY;
  process.env.TRUST_PROXY = trustProxy;
  try {
    return await t.variant({ throttle });
  } finally {
    if (before === undefined) delete process.env.TRUST_PROXY;
    else process.env.TRUST_PROXY = before;
  }
}

async function failedLogins(email: string): Promise<number> {
  const row = await t.database.db
    .selectFrom('audit_log')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('event', '=', 'login.failed')
    .where(sql`details->>'email'`, '=', email)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

async function attemptAddresses(email: string): Promise<string[]> {
  const rows = await t.database.db
    .selectFrom('login_attempts')
    .select('ip')
    .where('email', '=', email)
    .orderBy('id')
    .execute();
  return rows.map((row) => String(row.ip));
}

describe('the account budget cannot be raced', () => {
  it('150 parallel wrong passwords on one account: at most 100 are evaluated', async () => {
    const account = 'employee@demo.gscrm.ch';
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, index) =>
        login(t, account, `Wrong-${index}!`, { remoteAddress: `198.18.${index}.1` }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    const evaluated = statuses.filter((status) => status === 401).length;
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
    expect(evaluated, `${evaluated} answered 401`).toBeLessThanOrEqual(100);
    expect(await failedLogins(account)).toBeLessThanOrEqual(100);
  }, 180_000);
});

describe('X-Forwarded-For is believed only from the trusted proxy', () => {
  it('TRUST_PROXY=127.0.0.1: the client is the address the proxy appended', async () => {
    const client = await behindProxy('127.0.0.1', { perAccount: 10_000, perAddress: 10_000 });
    const account = 'proxied.nobody@example.ch';
    for (let index = 0; index < 5; index++) {
      const answer = await login(client, account, 'Wrong-1!', {
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': `10.77.${index}.1, 198.51.100.7` },
      });
      expect(answer.statusCode).toBe(401);
    }
    expect(await attemptAddresses(account)).toEqual(Array(5).fill('198.51.100.7'));
  });

  it('TRUST_PROXY=127.0.0.1: a client that is not the proxy cannot choose its address', async () => {
    const client = await behindProxy('127.0.0.1', { perAccount: 10_000, perAddress: 10_000 });
    const account = 'direct.nobody@example.ch';
    for (let index = 0; index < 5; index++) {
      await login(client, account, 'Wrong-1!', {
        remoteAddress: '203.0.113.9',
        headers: { 'x-forwarded-for': `10.78.${index}.1` },
      });
    }
    expect(await attemptAddresses(account)).toEqual(Array(5).fill('203.0.113.9'));
  });

  it('TRUST_PROXY=1 is one hop, not "trust everything": rotated left entries gain nothing', async () => {
    const client = await behindProxy('1', { perAccount: 10_000, perAddress: 10_000 });
    const account = 'hop.nobody@example.ch';
    for (let index = 0; index < 5; index++) {
      await login(client, account, 'Wrong-1!', {
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': `10.79.${index}.1, 198.51.100.8` },
      });
    }
    expect(await attemptAddresses(account)).toEqual(Array(5).fill('198.51.100.8'));
  });

  it('rotating forwarded addresses through the proxy gains no attempts on an account', async () => {
    const client = await behindProxy('127.0.0.1', { perAccount: 10, perAddress: 10_000 });
    const account = 'callcenter@demo.gscrm.ch';
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, index) =>
        login(client, account, `Wrong-${index}!`, {
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': `198.51.${index}.20` },
        }),
      ),
    );
    const evaluated = answers.filter((answer) => answer.statusCode === 401).length;
    expect(evaluated, 'evaluated wrong passwords').toBeLessThanOrEqual(10);
    expect(await failedLogins(account)).toBeLessThanOrEqual(10);
  });
});

describe('the owner keeps a way in', () => {
  it('after the account budget is spent, the reset mail clears it and the new password signs in', async () => {
    const client = await t.variant({ throttle: { perAccount: 5, perAddress: 10_000 } });
    const account = 'partner@demo.gscrm.ch';
    for (let index = 0; index < 6; index++)
      await login(client, account, `Wrong-${index}!`, { remoteAddress: `203.0.113.${index + 1}` });
    const locked = await login(client, account, DEMO_PASSWORD, { remoteAddress: '203.0.113.99' });
    expect(locked.statusCode, 'the budget is spent').toBe(429);

    const forgot = await client.app.inject({
      method: 'POST',
      url: '/api/account/forgot-password',
      payload: { email: account },
      remoteAddress: '192.0.2.44',
    });
    expect(forgot.statusCode, forgot.body).toBe(202);
    const mail = await t.database.db
      .selectFrom('outbox')
      .select('body')
      .where('to_address', '=', account)
      .where('kind', '=', 'password-reset')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const token = /\/change-password\?token=([A-Za-z0-9_%-]+)/.exec(String(mail.body))?.[1];
    expect(token, 'a link in the mail').toBeDefined();
    const reset = await client.app.inject({
      method: 'POST',
      url: '/api/account/reset-password',
      payload: {
        token: decodeURIComponent(token ?? ''),
        new_password: NEW_PASSWORD,
        confirm_password: NEW_PASSWORD,
      },
      remoteAddress: '192.0.2.44',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const signedIn = await login(client, account, NEW_PASSWORD, { remoteAddress: '192.0.2.44' });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
  });

  it('a correct password from an address the account signed in from before still works', async () => {
    const client = await t.variant({ throttle: { perAccount: 5, perAddress: 10_000 } });
    const account = 'backoffice@demo.gscrm.ch';
    const home = '192.0.2.10';
    expect((await login(client, account, DEMO_PASSWORD, { remoteAddress: home })).statusCode).toBe(
      200,
    );
    for (let index = 0; index < 6; index++)
      await login(client, account, `Wrong-${index}!`, { remoteAddress: `203.0.113.${50 + index}` });
    const stranger = await login(client, account, `Wrong-x!`, { remoteAddress: '203.0.113.70' });
    expect(stranger.statusCode, 'strangers are throttled').toBe(429);
    const owner = await login(client, account, DEMO_PASSWORD, { remoteAddress: home });
    expect(owner.statusCode, owner.body).toBe(200);
  });

  it('failures for other accounts from one address do not lock out a further account (no office-wide lockout)', async () => {
    const perAddress = 30;
    const client = await t.variant({ throttle: { perAccount: 100, perAddress } });
    const office = '198.51.100.60';
    for (let batch = 0; batch < perAddress; batch += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          login(client, `colleague${batch + index}@example.ch`, 'Wrong-1!', {
            remoteAddress: office,
          }),
        ),
      );
    }
    const colleague = await login(client, 'consultant2@demo.gscrm.ch', DEMO_PASSWORD, {
      remoteAddress: office,
    });
    expect(colleague.statusCode, colleague.body).toBe(200);
  }, 60_000);
});

describe('per address: progressive delays, never a lock', () => {
  const atsOf = async (ip: string) => {
    const rows = await t.database.db
      .selectFrom('login_attempts')
      .select(sql<number>`extract(epoch from at) * 1000`.as('ms'))
      .where('ip', '=', ip)
      .where('success', '=', false)
      .orderBy('at')
      .execute();
    return rows.map((row) => Number(row.ms));
  };

  it('beyond its failures an address waits longer after each one; too long a wait answers 429 with Retry-After', async () => {
    const delay = { baseMs: 100, maxMs: 100_000, waitMs: 10_000 };
    const client = await t.variant({ throttle: { perAccount: 10_000, perAddress: 2, delay } });
    const address = '198.51.100.90';
    const statuses: number[] = [];
    for (let index = 0; index < 4; index++)
      statuses.push(
        (await login(client, `spaced${index}@example.ch`, 'Wrong-1!', { remoteAddress: address }))
          .statusCode,
      );
    // Failures 3 and 4 came at least 100 and 200 ms after the one before (waited out server-side).
    expect(statuses).toEqual([401, 401, 401, 401]);
    const ats = await atsOf(address);
    expect(ats).toHaveLength(4);
    expect(ats[2] - ats[1], 'third attempt after the first delay').toBeGreaterThanOrEqual(99);
    expect(ats[3] - ats[2], 'fourth attempt after a doubled delay').toBeGreaterThanOrEqual(199);

    // A delay longer than the server waits out (here a minute) answers 429 with Retry-After.
    const strict = await t.variant({
      throttle: { perAccount: 10_000, perAddress: 2, delay: { baseMs: 60_000, waitMs: 250 } },
    });
    const refused = await login(strict, 'spaced9@example.ch', 'Wrong-1!', {
      remoteAddress: address,
    });
    expect(refused.statusCode, refused.body).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(30);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(await atsOf(address), 'a refused attempt is not evaluated').toHaveLength(4);
  });

  it('parallel attempts of one address over its limit queue one behind the other', async () => {
    const client = await t.variant({
      throttle: {
        perAccount: 10_000,
        perAddress: 1,
        delay: { baseMs: 50, maxMs: 50, waitMs: 1_000 },
      },
    });
    const address = '198.51.100.91';
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        login(client, `queued${index}@example.ch`, 'Wrong-1!', { remoteAddress: address }),
      ),
    );
    expect(answers.every((answer) => [401, 429].includes(answer.statusCode))).toBe(true);
    const ats = await atsOf(address);
    for (let index = 2; index < ats.length; index++)
      expect(ats[index] - ats[index - 1], `gap before attempt ${index + 1}`).toBeGreaterThanOrEqual(
        49,
      );
  });

  it('correct passwords never count against an address', async () => {
    const client = await t.variant({
      throttle: { perAccount: 10_000, perAddress: 2, delay: { baseMs: 60_000 } },
    });
    const address = '198.51.100.92';
    for (let index = 0; index < 3; index++) {
      const answer = await login(client, 'consultant@demo.gscrm.ch', DEMO_PASSWORD, {
        remoteAddress: address,
      });
      expect(answer.statusCode, answer.body).toBe(200);
    }
    for (let index = 0; index < 2; index++)
      expect(
        (await login(client, 'nobody@example.ch', 'Wrong-1!', { remoteAddress: address }))
          .statusCode,
      ).toBe(401);
    expect(
      (await login(client, 'nobody@example.ch', 'Wrong-1!', { remoteAddress: address })).statusCode,
    ).toBe(429);
  });
});

describe('TRUST_PROXY is addresses or a hop count', () => {
  it('refuses "true" and anything that is not an address, a CIDR or a hop count', async () => {
    for (const value of ['true', '*', '10.0.0.0/33', 'proxy.example.ch'])
      await expect(behindProxy(value, { perAccount: 100, perAddress: 300 }), value).rejects.toThrow(
        /TRUST_PROXY/,
      );
  });
});
