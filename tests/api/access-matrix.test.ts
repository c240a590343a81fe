/**
 * Every API route × every role, built from the app's own route table (`app.routeTable`, recorded
 * as routes register): each route must have a rule here — generic resource routes take theirs from
 * the schema's x-permissions, every hand-written route is listed in RULES below — so a new route
 * without a rule fails this test. Each route is then called without a token (401 unless public) and
 * as each demo role and an external user: refused exactly when the rule says (403), and never a
 * server error. Calls use an id that does not exist and empty bodies, so nothing is changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EXTERNAL_USER } from '../../server/demo/identity.ts';
import type { RouteInfo } from '../../server/access/control.ts';
import { isAllowed, type Principal, permissionsOf } from '../../server/auth/permissions.ts';
import { loadResourceModels } from '../../server/schemas.ts';
import type { AccessRule } from '../../src/schema/vocabulary.ts';
import { createTestApp, type TestApp } from './harness.ts';

interface Rule {
  access: AccessRule | 'public';
  /** External users (sub-broker accounts) may call it (config.external). */
  external?: boolean;
  /** The handler also limits it to these roles (answering 403 to others). */
  roles?: string[];
}

/**
 * The rule of every hand-written /api route. Add a line here with a new route: who may call it
 * (config.access) and whether external users may (config.external).
 */
const IMPORT_ROLES = ['ADMIN', 'BACKOFFICE', 'BACKOFFICE-CALLCENTER'];

const RULES: Record<string, Rule> = {
  // system
  'GET /api/health': { access: 'public' },
  'GET /api/config': { access: 'public' },
  // sessions (issue 3)
  'POST /api/auth/login': { access: 'public' },
  'POST /api/auth/logout': { access: 'authenticated', external: true },
  'GET /api/auth/me': { access: 'authenticated', external: true },
  // account flows (issue 3)
  'POST /api/account/register': { access: 'public' },
  'POST /api/account/forgot-password': { access: 'public' },
  'POST /api/account/reset-password': { access: 'public' },
  'GET /api/account/settings': { access: 'authenticated', external: true },
  'PUT /api/account/settings': { access: 'authenticated', external: true },
  'POST /api/account/password': { access: 'authenticated', external: true },
  'GET /api/account/offer-credentials': { access: 'authenticated' },
  'PUT /api/account/offer-credentials': { access: 'authenticated' },
  // user administration and mail (issue 3)
  'POST /api/users/:id/approve': { access: 'manage-users' },
  'POST /api/users/:id/reject': { access: 'manage-users' },
  'POST /api/users/:id/send-password-link': { access: 'manage-users' },
  'POST /api/users/:id/revoke-sessions': { access: 'manage-users' },
  'GET /api/mail/outbox': { access: 'manage-users' },
  'GET /api/mail/outbox/:id': { access: 'manage-users' },
  'GET /api/jobs': { access: 'manage-users' },
  'POST /api/jobs/:id/retry': { access: 'manage-users' },
  // translations
  'GET /api/localizations/languages': { access: 'public' },
  'GET /api/localizations/translations': { access: 'public' },
  'GET /api/localizations/texts/:language': { access: 'public' },
  'GET /api/localizations/translations/all': { access: 'manage-translation-keys' },
  'PUT /api/localizations/translations/:id': { access: 'manage-translation-keys' },
  'POST /api/localizations/missing': { access: 'authenticated' },
  'GET /api/localizations/missing': { access: 'manage-translation-keys' },
  'DELETE /api/localizations/missing': { access: 'manage-translation-keys' },
  // customers
  // Reachable by external users' tokens, but the handler answers 403 to every role but these.
  'GET /api/customers/duplicates': {
    access: 'authenticated',
    external: true,
    roles: ['ADMIN', 'BACKOFFICE', 'BACKOFFICE-CALLCENTER', 'CONSULTANT'],
  },
  // The handler limits merging to ADMIN and BACKOFFICE after validating the body (customers tests).
  'POST /api/customers/:id/merge': { access: 'authenticated' },
  'POST /api/customers/:id/documents': { access: 'authenticated', external: true },
  'GET /api/documents/:id/download': { access: 'authenticated', external: true },
  'POST /api/customers/:id/avatar': { access: 'authenticated', external: true },
  'GET /api/customers/:id/avatar': { access: 'authenticated', external: true },
  'DELETE /api/customers/:id/avatar': { access: 'authenticated', external: true },
  'POST /api/household-members/:id/convert': { access: 'authenticated', external: true },
  'POST /api/customers/import/preview': { access: 'authenticated', roles: IMPORT_ROLES },
  'POST /api/customers/import': { access: 'authenticated', roles: IMPORT_ROLES },
  'GET /api/customers/export': { access: 'authenticated', external: true },
  // CSV import of leads (issue 16): the same office roles as the customer import
  'POST /api/leads/import/preview': { access: 'authenticated', roles: IMPORT_ROLES },
  'POST /api/leads/import': { access: 'authenticated', roles: IMPORT_ROLES },
  // contracts (issue 14): the household coverage view (404 outside the customer's scope), the
  // exports (permissions of server/auth/permissions.ts)
  'GET /api/customers/:id/coverage': { access: 'authenticated', external: true },
  'GET /api/contracts/export': { access: 'contract-simple-export' },
  'GET /api/contracts/report': { access: 'contract-export-page' },
  // history (issue 11): without a record, the whole log for manage-users (demo: admins only)
  'GET /api/audit': { access: 'authenticated', roles: ['ADMIN'] },
  // personal-data requests (issue 11): the handlers answer admins only
  'GET /api/customers/:id/personal-data': { access: 'authenticated', roles: ['ADMIN'] },
  'GET /api/household-members/:id/personal-data': { access: 'authenticated', roles: ['ADMIN'] },
  'POST /api/customers/:id/erase': { access: 'authenticated', roles: ['ADMIN'] },
  'POST /api/household-members/:id/erase': { access: 'authenticated', roles: ['ADMIN'] },
  // appointments (issue 15): the double-booking check and the feedback call answer within the
  // caller's scope (nothing or 404 outside it)
  'GET /api/appointments/overlaps': { access: 'authenticated' },
  'POST /api/appointments/:id/feedback': { access: 'authenticated' },
  // the feedback's image: visible as the feedback's appointment (404 outside the caller's scope)
  'POST /api/feedbacks/:id/image': { access: 'authenticated' },
  'GET /api/feedbacks/:id/image': { access: 'authenticated' },
  'DELETE /api/feedbacks/:id/image': { access: 'authenticated' },
  // tasks (issue 15): the signed-in user's worklist, sections by role
  'GET /api/tasks': { access: 'authenticated' },
  // the lead board (issue 16): within the caller's scope of leads (404 outside it)
  'POST /api/leads/:id/move': { access: 'authenticated' },
  'POST /api/leads/:id/call-attempts': { access: 'authenticated' },
  'POST /api/leads/:id/convert': { access: 'authenticated' },
  // reports (issue 16): the handler answers 403 unless the account runs that report
  // (users.reports; ADMIN all; the demo back office clients and contracts, the call centre none)
  'GET /api/reports/:kind': { access: 'authenticated', roles: ['ADMIN', 'BACKOFFICE'] },
  'GET /api/reports/:kind/export': { access: 'authenticated', roles: ['ADMIN', 'BACKOFFICE'] },
  // commissions (issue 17): the engine's calls by their permissions; the summary and the
  // leaderboard for everyone signed in (their own lines unless manage-commissions); a statement
  // as its payout (own or manage-commissions, 404 otherwise)
  'POST /api/commission-rules/test': { access: 'manage-commission-rules' },
  'POST /api/commissions/recompute': { access: 'manage-commissions' },
  'GET /api/commission-lines/summary': { access: 'authenticated' },
  'POST /api/commission-lines/:id/reverse': { access: 'manage-commissions' },
  'POST /api/payouts/run': { access: 'manage-commissions' },
  'POST /api/payouts/:id/approve': { access: 'manage-commissions' },
  'POST /api/payouts/:id/pay': { access: 'manage-commissions' },
  'GET /api/payouts/:id/statement.pdf': { access: 'authenticated' },
  'GET /api/payouts/export': { access: 'manage-commissions' },
  // offers (issue 18): an offer the caller sees (404 outside their scope)
  'POST /api/offers/:id/accept': { access: 'authenticated' },
  'POST /api/offers/:id/decline': { access: 'authenticated' },
  'GET /api/offers/:id/offer.pdf': { access: 'authenticated' },
  // the car comparison (issue 18): a staff session that sees the customer or the customer's link
  // token (404 otherwise, tests/api/comparison.test.ts); the links for staff who see the customer
  'GET /api/fs24/:customerId': { access: 'public' },
  'POST /api/fs24/:customerId/drafts': { access: 'public' },
  'GET /api/fs24/:customerId/drafts/:draftId': { access: 'public' },
  'PATCH /api/fs24/:customerId/drafts/:draftId': { access: 'public' },
  'POST /api/fs24/:customerId/drafts/:draftId/compare': { access: 'public' },
  'POST /api/fs24/:customerId/drafts/:draftId/offers': { access: 'public' },
  'POST /api/customers/:id/comparison-links': { access: 'authenticated' },
  'GET /api/customers/:id/comparison-links': { access: 'authenticated' },
  'DELETE /api/comparison-links/:id': { access: 'authenticated' },
  // the Global check (issue 19): a customer or check the caller sees (404 otherwise,
  // tests/api/global-checks.test.ts)
  'GET /api/customers/:id/global-check-defaults': { access: 'authenticated' },
  'POST /api/global-checks/preview': { access: 'authenticated' },
  'GET /api/global-checks/:id/report.pdf': { access: 'authenticated' },
  'POST /api/global-checks/:id/report': { access: 'authenticated' },
  'POST /api/global-checks/:id/follow-up': { access: 'authenticated' },
  'GET /api/leaderboard': { access: 'authenticated' },
  // signatures (issue 19): staff ask and revoke for a document / request they see (404 otherwise);
  // the signer has no account, only the link's token (404 without this request's token,
  // tests/api/signatures.test.ts)
  'POST /api/documents/:id/signature-requests': { access: 'authenticated' },
  'POST /api/signature-requests/:id/revoke': { access: 'authenticated' },
  'GET /api/public/signatures/:id': { access: 'public' },
  'GET /api/public/signatures/:id/document': { access: 'public' },
  'POST /api/public/signatures/:id/sign': { access: 'public' },
};

const ACTION = { GET: 'read', POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };
const UNKNOWN_ID = '2000000000';

interface Caller {
  name: string;
  email: string;
  principal: Principal;
}

const models = loadResourceModels();
let t: TestApp;
let routes: RouteInfo[];
let callers: Caller[];
const tokens = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp();
  await t.app.ready();
  routes = t.app.routeTable.filter(
    (route) => route.method !== 'HEAD' && !route.url.startsWith('/api/docs'),
  );
  const emails: Record<string, string> = {
    ADMIN: 'admin@demo.gscrm.ch',
    BACKOFFICE: 'backoffice@demo.gscrm.ch',
    'BACKOFFICE-CALLCENTER': 'callcenter@demo.gscrm.ch',
    CONSULTANT: 'consultant@demo.gscrm.ch',
    EMPLOYEE: 'employee@demo.gscrm.ch',
    PARTNER: 'partner@demo.gscrm.ch',
    'external user': DEMO_EXTERNAL_USER.email,
  };
  callers = [];
  for (const [name, email] of Object.entries(emails)) {
    const row = await t.database.db
      .selectFrom('users as u')
      .leftJoin('external_users as e', 'e.user_id', 'u.id')
      .select(['u.id', 'u.role', 'e.sub_broker_id'])
      .where('u.email', '=', email)
      .executeTakeFirstOrThrow();
    const external = row.sub_broker_id !== null;
    callers.push({
      name,
      email,
      principal: {
        id: Number(row.id),
        role: String(row.role),
        permissions: external ? [] : permissionsOf(row.role),
        subBrokerId: external ? Number(row.sub_broker_id) : null,
      },
    });
    tokens.set(email, await t.login(email));
  }
});
afterAll(async () => {
  await t?.close();
});

const key = (route: RouteInfo) => `${route.method} ${route.url}`;

function ruleOf(route: RouteInfo): Rule | undefined {
  if (route.resource) {
    const model = models.find((candidate) => candidate.name === route.resource)!;
    const action = ACTION[route.method as keyof typeof ACTION] as keyof typeof model.permissions;
    // Generic routes: external users reach them (their scope applies) but delete nothing.
    return { access: model.permissions[action], external: true };
  }
  return RULES[key(route)];
}

/** May this caller pass the access rules of the route (server/app.ts, server/access/control.ts)? */
function allowed(route: RouteInfo, rule: Rule, principal: Principal): boolean {
  if (!isAllowed(rule.access, principal)) return false;
  if (rule.roles && (principal.subBrokerId || !rule.roles.includes(principal.role))) return false;
  if (principal.subBrokerId && rule.access !== 'public') {
    return Boolean(rule.external) && route.method !== 'DELETE';
  }
  return true;
}

const concrete = (url: string) =>
  url
    .replace(/:id\b/g, UNKNOWN_ID)
    .replace(/:[a-zA-Z_]+/g, 'x')
    .replace(/\*/g, 'x');

async function send(route: RouteInfo, token?: string) {
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  return t.app.inject({
    method: route.method as 'GET',
    url: concrete(route.url),
    payload: hasBody ? {} : undefined,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

describe('the route table', () => {
  it('has routes of every kind', () => {
    expect(routes.length).toBeGreaterThan(models.length * 6);
    expect(routes.some((route) => route.resource === 'users')).toBe(true);
    expect(routes.some((route) => key(route) === 'POST /api/auth/login')).toBe(true);
  });

  it('gives every route a rule, and each hand-written route the rule listed here', () => {
    const missing = routes.filter((route) => !ruleOf(route)).map(key);
    expect(missing, 'routes without a rule in tests/api/access-matrix.test.ts').toEqual([]);
    const declared = routes.map((route) => ({
      route: key(route),
      access: route.access,
      external: route.resource ? true : route.external,
    }));
    const expected = routes.map((route) => ({
      route: key(route),
      access: ruleOf(route)?.access,
      external: route.resource ? true : Boolean(ruleOf(route)?.external),
    }));
    expect(declared).toEqual(expected);
  });

  it('lists no route in RULES that does not exist', () => {
    const known = new Set(routes.map(key));
    expect(Object.keys(RULES).filter((route) => !known.has(route))).toEqual([]);
  });
});

describe('every route × every role', () => {
  it('answers 401 without a token, except on public routes', async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      const rule = ruleOf(route);
      if (!rule) continue;
      const response = await send(route);
      const open = rule.access === 'public';
      if (open ? response.statusCode === 401 : response.statusCode !== 401) {
        wrong.push(`${key(route)} → ${response.statusCode}`);
      }
      if (response.statusCode >= 500) wrong.push(`${key(route)} → ${response.statusCode} (error)`);
    }
    expect(wrong).toEqual([]);
  });

  it('refuses (403) exactly the callers the rule refuses, and fails for nobody (no 5xx)', async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const route of routes) {
      const rule = ruleOf(route);
      if (!rule) continue;
      for (const caller of callers) {
        // Signing out ends the token: use a fresh one.
        const token =
          key(route) === 'POST /api/auth/logout'
            ? await t.login(caller.email)
            : tokens.get(caller.email)!;
        const response = await send(route, token);
        const expectAllowed = allowed(route, rule, caller.principal);
        const status = response.statusCode;
        checked++;
        if (status >= 500) wrong.push(`${caller.name}: ${key(route)} → ${status} ${response.body}`);
        else if (status === 401) wrong.push(`${caller.name}: ${key(route)} → 401`);
        else if (expectAllowed && status === 403)
          wrong.push(`${caller.name}: ${key(route)} → 403, expected to pass`);
        else if (!expectAllowed && status !== 403)
          wrong.push(`${caller.name}: ${key(route)} → ${status}, expected 403`);
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBe(routes.length * callers.length);
  });

  it('matches the route sets: users and settings for every staff role, administration for managers', () => {
    // A few rows spelt out, so the matrix above is readable as a table of the brokerage's rules.
    const table = (url: string, method = 'GET') => {
      const route = routes.find((candidate) => key(candidate) === `${method} ${url}`)!;
      const rule = ruleOf(route)!;
      return Object.fromEntries(
        callers.map((caller) => [caller.name, allowed(route, rule, caller.principal)]),
      );
    };
    expect(table('/api/users', 'POST')).toEqual({
      ADMIN: true,
      BACKOFFICE: false,
      'BACKOFFICE-CALLCENTER': false,
      CONSULTANT: false,
      EMPLOYEE: false,
      PARTNER: false,
      'external user': false,
    });
    expect(table('/api/sub-brokers', 'POST')).toEqual({
      ADMIN: true,
      BACKOFFICE: true,
      'BACKOFFICE-CALLCENTER': false,
      CONSULTANT: false,
      EMPLOYEE: false,
      PARTNER: false,
      'external user': false,
    });
    expect(table('/api/account/settings', 'PUT')).toEqual({
      ADMIN: true,
      BACKOFFICE: true,
      'BACKOFFICE-CALLCENTER': true,
      CONSULTANT: true,
      EMPLOYEE: true,
      PARTNER: true,
      'external user': true,
    });
    expect(table('/api/account/offer-credentials')).toMatchObject({
      CONSULTANT: true,
      'external user': false,
    });
    expect(table('/api/customers/:id', 'DELETE')).toMatchObject({
      CONSULTANT: true,
      'external user': false,
    });
  });
});
