/**
 * A local stand-in for the car-insurance comparison service (issue 18): the same protocol as the
 * real one (./adapter.ts: `POST /quotes`, HTTP Basic, `{ quotes: [...] }`), answering with sample
 * tariffs that say so (`sample: true` and a label the wizard shows) — never a real price. The demo
 * starts it with the app when FS24_URL is unset (server/main.ts); the API tests start their own and
 * switch its `mode` to see the adapter handle a slow service, garbage, a refusal or an error.
 *
 * The sample tariffs follow DOMAIN.md §4's drivers of price — cover, canton, yearly km, usage,
 * the youngest driver's age, a new driver, the car's age and value, the insurer history — with a
 * fixed factor per sample insurer, so the same draft always gets the same figures.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type ComparisonDraftFields,
  type ComparisonPerson,
  yearsBetween,
} from '../../src/schema/comparison.ts';
import { swissToday } from '../../src/schema/swiss-time.ts';

export type StandInMode = 'ok' | 'slow' | 'garbage' | 'wrong-shape' | 'error' | 'refuse';

export interface StandIn {
  url: string;
  /** What the next answers do: ok (sample tariffs), slow (wait `slowMs` first), garbage (not JSON), wrong-shape (JSON of another shape), error (500), refuse (401). */
  mode: StandInMode;
  slowMs: number;
  /** How many quote requests it answered. */
  requests: number;
  close(): Promise<void>;
}

/** The password the stand-in accepts (any non-empty user name); the demo's offer credentials. */
export const STAND_IN_PASSWORD = 'stand-in';

export const STAND_IN_LABEL =
  'GS CRM stand-in service: sample tariffs for demonstration, not real prices';

/** Sample insurers: names as in the demo's companies, and a fixed price factor each. */
const INSURERS: { name: string; factor: number; product: string; garageIncluded: boolean }[] = [
  { name: 'Smile', factor: 0.88, product: 'smile.car', garageIncluded: false },
  {
    name: 'Die Mobiliar',
    factor: 1.04,
    product: 'Motorfahrzeugversicherung',
    garageIncluded: true,
  },
  { name: 'AXA', factor: 1.0, product: 'Autoversicherung', garageIncluded: false },
  { name: 'Allianz Suisse', factor: 0.97, product: 'Autoversicherung', garageIncluded: false },
  { name: 'Zürich Versicherung', factor: 1.08, product: 'Auto Versicherung', garageIncluded: true },
  { name: 'Simpego', factor: 0.92, product: 'Autoversicherung', garageIncluded: false },
];

const CANTON_FACTOR: Record<string, number> = {
  GE: 1.25, VD: 1.15, TI: 1.15, BS: 1.12, ZH: 1.1, NE: 1.08, VS: 1.05, JU: 1.04, FR: 1.03,
  BL: 1.02, AG: 1.0, BE: 0.98, SO: 0.98, LU: 0.96, SG: 0.95, SZ: 0.95, ZG: 0.97, TG: 0.94,
  SH: 0.95, GR: 0.93, GL: 0.92, NW: 0.92, OW: 0.92, UR: 0.92, AR: 0.91, AI: 0.9,
}; // prettier-ignore

const round = (value: number) => Math.round(value * 20) / 20; // to 5 centimes

/** The sample quotes for a draft (deterministic). */
export function sampleQuotes(draft: ComparisonDraftFields, today = swissToday()) {
  const car = draft.car ?? {};
  const cover = draft.coverage ?? {};
  const history = draft.history ?? {};
  const drivers: ComparisonPerson[] = [draft.driver ?? {}, ...(draft.otherUsers ?? [])];
  const ages = drivers
    .map((person) => (person.birthdate ? yearsBetween(person.birthdate, today) : 40))
    .filter((age) => age >= 18);
  const youngest = ages.length > 0 ? Math.min(...ages) : 40;
  const newDriver = drivers.some(
    (person) => person.licenceDate && yearsBetween(person.licenceDate, today) < 2,
  );
  const carAge = Math.max(0, Number(today.slice(0, 4)) - (car.firstRegistrationYear ?? 2020));
  const km = draft.yearlyKm ?? 12_000;
  const risk =
    (CANTON_FACTOR[draft.canton ?? ''] ?? 1) *
    (youngest < 25 || draft.under25Usage ? 1.55 : youngest > 70 ? 1.2 : 1) *
    (newDriver ? 1.25 : 1) *
    (km > 25_000 ? 1.18 : km > 15_000 ? 1.08 : km < 8_000 ? 0.93 : 1) *
    (draft.usage === 'work' ? 1.15 : draft.usage === 'way_to_work' ? 1.04 : 1) *
    (history.cancelledContract || history.rejectedApplication ? 1.3 : 1) *
    (history.damageOrFinesOver250 ? 1.15 : 1);
  const value = Math.max(8_000, 45_000 * 0.88 ** carAge) + (car.extrasValuation ?? 0);
  const garageFactor = draft.garageType && draft.garageType !== 'none' ? 0.9 : 1;
  return INSURERS.map((insurer, index) => {
    const f = insurer.factor * risk;
    const liability = round(430 * f);
    const partialCasco =
      cover.basic === 'partial_casco' || cover.basic === 'full_casco'
        ? round(value * 0.006 * f * garageFactor * (cover.deductiblePartial === 0 ? 1.25 : 1))
        : 0;
    const fullCasco =
      cover.basic === 'full_casco'
        ? round(value * 0.022 * f * ((cover.deductibleFull ?? 1000) >= 2000 ? 0.82 : 1))
        : 0;
    const addOns: { code: string; included: boolean; premium: number }[] = [];
    const add = (wanted: boolean | undefined, code: string, premium: number, included = false) => {
      if (wanted) addOns.push({ code, included, premium: included ? 0 : round(premium) });
    };
    add(cover.parkingExtra, 'parking', 85 * insurer.factor);
    add(cover.unlimitedDamage, 'gross_negligence', 48 * insurer.factor, index % 3 === 1);
    add(cover.passengerAccident, 'passenger_accident', 36 * insurer.factor);
    add((cover.valuableItems ?? 0) > 0, 'personal_effects', (cover.valuableItems ?? 0) * 0.012);
    add(
      cover.bonusProtection !== undefined && cover.bonusProtection !== 'none',
      'bonus_protection',
      (cover.bonusProtection === 'liability_full_casco' ? 0.12 : 0.07) * (liability + fullCasco),
    );
    add(cover.garage, 'free_garage', 60 * insurer.factor, insurer.garageIncluded);
    addOns.push({
      code: 'assistance',
      included: index % 2 === 0,
      premium: index % 2 === 0 ? 0 : 39,
    });
    const addOnSum = round(addOns.reduce((sum, addOn) => sum + addOn.premium, 0));
    return {
      id: `sample-${index + 1}`,
      insurer: insurer.name,
      product: insurer.product,
      annualPremium: round(liability + partialCasco + fullCasco + addOnSum),
      premiums: { liability, partialCasco, fullCasco, addOns: addOnSum },
      deductibles: {
        partialCasco: partialCasco > 0 ? (cover.deductiblePartial ?? 200) : null,
        fullCasco: fullCasco > 0 ? (cover.deductibleFull ?? 1000) : null,
        youngDriver: youngest < 25 || draft.under25Usage ? 1000 + (index % 2) * 500 : null,
      },
      addOns,
    };
  });
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 1_000_000) request.destroy();
    });
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

function credentialsOf(request: IncomingMessage): { username: string; password: string } | null {
  const header = request.headers.authorization ?? '';
  if (!header.startsWith('Basic ')) return null;
  const text = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon < 0 ? null : { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** Starts the stand-in on 127.0.0.1 (port 0: any free one). */
export async function startStandIn(options: { port?: number } = {}): Promise<StandIn> {
  const state = { mode: 'ok' as StandInMode, slowMs: 30_000, requests: 0 };
  const timers = new Set<NodeJS.Timeout>();
  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const server: Server = createServer((request, response) => {
    void (async () => {
      if (request.method !== 'POST' || request.url !== '/quotes')
        return send(response, 404, { error: 'not found' });
      const credentials = credentialsOf(request);
      if (
        !credentials?.username ||
        credentials.password !== STAND_IN_PASSWORD ||
        state.mode === 'refuse'
      )
        return send(response, 401, { error: 'unknown offer credentials' });
      let draft: ComparisonDraftFields;
      try {
        draft =
          (JSON.parse(await readBody(request)) as { draft: ComparisonDraftFields }).draft ?? {};
      } catch {
        return send(response, 400, { error: 'not JSON' });
      }
      state.requests += 1;
      if (state.mode === 'slow') {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, state.slowMs);
          timers.add(timer);
          request.on('close', () => {
            clearTimeout(timer);
            resolve();
          });
        });
        if (response.destroyed) return;
      }
      if (state.mode === 'error') return send(response, 500, { error: 'internal error' });
      if (state.mode === 'garbage') {
        response.writeHead(200, { 'content-type': 'application/json' });
        return response.end('<html>502 Bad Gateway</html>');
      }
      if (state.mode === 'wrong-shape')
        return send(response, 200, { quotes: [{ id: 1, insurer: null, annualPremium: 'cheap' }] });
      return send(response, 200, {
        service: 'GS CRM stand-in',
        sample: true,
        label: STAND_IN_LABEL,
        quotes: sampleQuotes(draft),
      });
    })().catch(() => {
      if (!response.headersSent) send(response, 500, { error: 'internal error' });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    get mode() {
      return state.mode;
    },
    set mode(mode: StandInMode) {
      state.mode = mode;
    },
    get slowMs() {
      return state.slowMs;
    },
    set slowMs(ms: number) {
      state.slowMs = ms;
    },
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
