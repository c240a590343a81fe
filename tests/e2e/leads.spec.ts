/**
 * The lead board (issue 16): a card dragged with the mouse to another column (one move, checked
 * through the API, the counts follow); a card moved with the keyboard (the grip picked up with
 * Space, the arrows, Space to drop) with what a screen reader hears; a card dropped into Done
 * closed with a reason, and one put back when the question is cancelled; "appointment set" for a
 * prospect: the customer made first, then the appointment form prefilled, and saving it closes
 * the lead; a move the server refuses (the lead changed meanwhile) goes back with the reason; the
 * list view through the switch, kept as the user's preference. Every test works on leads of its
 * own, named with a stamp the board's search finds (the demo leads stay out of the way). With
 * SHOTS=<folder>, screenshots at 1366×768.
 */
import { type APIRequestContext, expect as baseExpect, type Page, test } from '@playwright/test';
import { listRows, login, PASSWORD } from './helpers.ts';

const ADMIN = 'admin@demo.gscrm.ch';
const SHOTS = process.env.SHOTS;
/** Boards and lists can take a while on a busy machine. */
const expect = baseExpect.configure({ timeout: 30_000 });

test.use({ viewport: { width: 1366, height: 768 } });

type Row = Record<string, unknown> & { id: number };

async function tokenOf(request: APIRequestContext, email = ADMIN): Promise<string> {
  const answer = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { token: string }).token;
}

async function api<T>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT',
  path: string,
  data?: unknown,
): Promise<T> {
  const answer = await request.fetch(`/api/${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}` },
    data,
  });
  expect(answer.ok(), `${method} ${path}: ${await answer.text()}`).toBe(true);
  return ((await answer.json()) as { data: T }).data;
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/** Leads of this test: one per name, in New Leads (those listed in `toDo` then in To Do). */
async function makeLeads(
  request: APIRequestContext,
  token: string,
  stamp: string,
  names: string[],
  toDo: string[] = [],
): Promise<Record<string, Row>> {
  const sources = await api<Row[]>(request, token, 'GET', 'lead-sources?per_page=50');
  // A source the call centre sees too (a lead may be assigned to it).
  const source =
    sources.find((candidate) =>
      (candidate.visible_roles as string[] | null)?.includes('BACKOFFICE-CALLCENTER'),
    ) ?? sources[0];
  const leads: Record<string, Row> = {};
  for (const first of [...names, ...toDo]) {
    const lead = await api<Row>(request, token, 'POST', 'leads', {
      first_name: first,
      last_name: `Board${stamp}`,
      lead_source: source.id,
      street: 'Seeweg 7',
      zip: '8001',
      city: 'Zürich',
      status: 'new',
    });
    leads[first] = toDo.includes(first)
      ? await api<Row>(request, token, 'POST', `leads/${lead.id}/move`, {
          status: 'to do',
          after_id: null,
          version: lead.version,
        })
      : lead;
  }
  return leads;
}

const column = (page: Page, slug: string) => page.getByTestId(`lead-column-${slug}`);
const card = (page: Page, id: number) =>
  page.locator(`[data-testid="lead-card"][data-lead-id="${id}"]`);

const STATUSES = ['new', 'not reached', 'to do', 'closed'];

/**
 * The board showing only this test's leads (the search finds the stamp; the filter stays with the
 * browser, so a second visit may start with it), every column loaded.
 */
async function openBoard(page: Page, stamp: string) {
  const answered = Promise.all(
    STATUSES.map((status) =>
      page.waitForResponse((answer) => {
        const url = new URL(answer.url());
        return (
          url.pathname === '/api/leads' &&
          url.searchParams.get('search') === stamp &&
          url.searchParams.get('status') === status
        );
      }),
    ),
  );
  await page.goto('/admin/leads');
  await expect(page.getByTestId('lead-board')).toBeVisible();
  const search = page.getByTestId('leads-search');
  if ((await search.inputValue()) !== stamp) await search.fill(stamp);
  await answered;
  for (const status of STATUSES) {
    await expect(page.getByTestId(`lead-column-${status.replace(' ', '-')}-count`)).not.toHaveText(
      '…',
    );
  }
}

/**
 * Drags a card with the mouse (in small steps, as a hand does) onto another card's upper part (or
 * its lower half) or a column's head (the top of the column), and holds it there.
 */
async function drag(
  page: Page,
  from: ReturnType<Page['locator']>,
  to: ReturnType<Page['locator']>,
  lowerHalf = false,
) {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) throw new Error('drag: no box');
  await page.mouse.move(a.x + a.width / 2, a.y + 12);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + 22, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, lowerHalf ? b.y + b.height - 14 : b.y + 20, {
    steps: 16,
  });
  await page.waitForTimeout(150);
}

test('a card dragged with the mouse moves to the column it is dropped on, in one request', async ({
  page,
  request,
}) => {
  const stamp = `m${Date.now().toString(36)}`;
  const token = await tokenOf(request);
  const leads = await makeLeads(request, token, stamp, ['Anna', 'Bruno'], ['Zora']);
  await login(page, ADMIN);
  await openBoard(page, stamp);
  await expect(page.getByTestId('lead-column-new-count')).toHaveText('2');
  await expect(page.getByTestId('lead-column-to-do-count')).toHaveText('1');
  await expect(column(page, 'new').getByTestId('lead-card')).toHaveCount(2);
  await shot(page, 'leads-board');

  const moves: string[] = [];
  page.on('request', (sent) => {
    if (sent.url().includes('/move')) moves.push(sent.postData() ?? '');
  });
  await drag(page, card(page, leads.Anna.id), column(page, 'to-do'));
  await shot(page, 'leads-board-dragging');
  await page.mouse.up();

  // Dropped on the column's head: on top of it.
  await expect(column(page, 'to-do').getByTestId('lead-card').first()).toHaveAttribute(
    'data-lead-id',
    String(leads.Anna.id),
  );
  await expect(page.getByTestId('lead-column-new-count')).toHaveText('1');
  await expect(page.getByTestId('lead-column-to-do-count')).toHaveText('2');
  await expect
    .poll(async () => (await api<Row>(request, token, 'GET', `leads/${leads.Anna.id}`)).status)
    .toBe('to do');
  expect(moves).toHaveLength(1);
  expect(JSON.parse(moves[0])).toEqual({
    status: 'to do',
    after_id: null,
    version: leads.Anna.version,
  });

  // Dropped on the lower half of a card in another column: right below it.
  await drag(page, card(page, leads.Bruno.id), card(page, leads.Zora.id), true);
  await page.mouse.up();
  await expect(column(page, 'to-do').getByTestId('lead-card')).toHaveCount(3);
  await expect
    .poll(() =>
      column(page, 'to-do')
        .getByTestId('lead-card')
        .evaluateAll((cards) => cards.map((element) => element.getAttribute('data-lead-id'))),
    )
    .toEqual([leads.Anna.id, leads.Zora.id, leads.Bruno.id].map(String));
  await expect.poll(() => moves.length).toBe(2);
  expect(JSON.parse(moves[1])).toMatchObject({ status: 'to do', after_id: leads.Zora.id });

  // The board read again says the same.
  await openBoard(page, stamp);
  await expect
    .poll(() =>
      column(page, 'to-do')
        .getByTestId('lead-card')
        .evaluateAll((cards) => cards.map((element) => element.getAttribute('data-lead-id'))),
    )
    .toEqual([leads.Anna.id, leads.Zora.id, leads.Bruno.id].map(String));
  await expect(page.getByTestId('lead-column-new-count')).toHaveText('0');
});

test('a card moves with the keyboard, and a screen reader hears where it is', async ({
  page,
  request,
}) => {
  const stamp = `k${Date.now().toString(36)}`;
  const token = await tokenOf(request);
  const leads = await makeLeads(request, token, stamp, ['Beat', 'Carla']);
  await login(page, ADMIN);
  await openBoard(page, stamp);
  await expect(column(page, 'new').getByTestId('lead-card')).toHaveCount(2);

  const grip = card(page, leads.Beat.id).getByTestId('lead-card-grip');
  await grip.focus();
  await page.keyboard.press('Space');
  const live = page.locator('[id^="DndLiveRegion"]');
  await expect(live).toContainText(`Beat Board${stamp}`);
  await page.keyboard.press('ArrowRight');
  await expect(live).toContainText('Nicht erreicht');
  await page.keyboard.press('Space');
  await expect(live).toContainText(`Lead Beat Board${stamp} wurde in Nicht erreicht abgelegt`);

  await expect(
    column(page, 'not-reached').locator(`[data-lead-id="${leads.Beat.id}"]`),
  ).toBeVisible();
  await expect
    .poll(async () => (await api<Row>(request, token, 'GET', `leads/${leads.Beat.id}`)).status)
    .toBe('not reached');
  // Focus went back to the card's grip: the next card can be taken without the mouse.
  await expect(card(page, leads.Beat.id).getByTestId('lead-card-grip')).toBeFocused();
});

test('a card dropped into Done is closed with the reason chosen; cancelling puts it back', async ({
  page,
  request,
}) => {
  const stamp = `c${Date.now().toString(36)}`;
  const token = await tokenOf(request);
  const leads = await makeLeads(request, token, stamp, ['Dora', 'Emil']);
  await login(page, ADMIN);
  await openBoard(page, stamp);
  await expect(column(page, 'new').getByTestId('lead-card')).toHaveCount(2);

  // Cancelled: back in New Leads, nothing sent.
  const moves: string[] = [];
  page.on('request', (sent) => {
    if (sent.url().includes('/move')) moves.push(sent.postData() ?? '');
  });
  await drag(page, card(page, leads.Emil.id), column(page, 'closed'));
  await page.mouse.up();
  const dialog = page.getByTestId('lead-close-dialog');
  await expect(dialog).toBeVisible();
  await page.getByTestId('lead-close-cancel').click();
  await expect(dialog).toBeHidden();
  await expect(column(page, 'new').locator(`[data-lead-id="${leads.Emil.id}"]`)).toBeVisible();
  await expect(page.getByTestId('lead-column-closed-count')).toHaveText('0');
  expect(moves).toEqual([]);

  // Closed as "not interested".
  await drag(page, card(page, leads.Dora.id), column(page, 'closed'));
  await page.mouse.up();
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('lead-close-submit')).toBeDisabled();
  // Blacklist explains itself and wants a tick before it is sent.
  await page.getByTestId('lead-close-blacklist').click();
  await expect(page.getByTestId('lead-close-blacklist-warning')).toContainText('nie mehr');
  await expect(page.getByTestId('lead-close-submit')).toBeDisabled();
  await shot(page, 'leads-close-dialog');
  await page.getByTestId('lead-close-not_interested').click();
  await page.getByTestId('lead-close-submit').click();
  await expect(dialog).toBeHidden();
  const closed = column(page, 'closed').locator(`[data-lead-id="${leads.Dora.id}"]`);
  await expect(closed).toBeVisible();
  await expect(closed).toContainText('Kein Interesse');
  await expect(page.getByTestId('lead-column-closed-count')).toHaveText('1');
  await expect
    .poll(async () => {
      const stored = await api<Row>(request, token, 'GET', `leads/${leads.Dora.id}`);
      return [stored.status, stored.close_status];
    })
    .toEqual(['closed', 'not_interested']);
  expect(moves).toHaveLength(1);
});

test('"appointment set" for a prospect: the customer first, then the appointment form closes the lead', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const stamp = `a${Date.now().toString(36)}`;
  const token = await tokenOf(request);
  const leads = await makeLeads(request, token, stamp, ['Fabio']);
  expect(leads.Fabio.customer_id).toBeNull();
  await login(page, ADMIN);
  await openBoard(page, stamp);

  await drag(page, card(page, leads.Fabio.id), column(page, 'closed'));
  await page.mouse.up();
  await page.getByTestId('lead-close-appointment_set').click();
  await page.getByTestId('lead-close-submit').click();
  // Not closed by the drop: the appointment will close it.
  await expect(column(page, 'new').locator(`[data-lead-id="${leads.Fabio.id}"]`)).toBeVisible();
  await expect(page.getByTestId('lead-convert-dialog')).toContainText(`Fabio Board${stamp}`);
  await page.getByTestId('lead-convert-submit').click();

  await expect(page).toHaveURL(/\/admin\/appointments\/new\?/);
  const converted = await api<Row>(request, token, 'GET', `leads/${leads.Fabio.id}`);
  expect(converted.customer_id).toEqual(expect.any(Number));
  await expect(page.getByTestId('appointment-from-lead')).toContainText(`Fabio Board${stamp}`);
  await expect(page.locator('input[name="clientId"]')).toHaveValue(`Fabio Board${stamp}`);
  await expect(page.locator('input[name="street"]')).toHaveValue('Seeweg 7');
  await expect(page.locator('input[name="city"]')).toHaveValue('Zürich');
  const tomorrow = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Zurich',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(Date.now() + 86_400_000));
  for (const [name, digits] of [
    ['date', tomorrow.split('-').reverse().join('')],
    ['startTime', '1400'],
  ]) {
    await page.locator(`input[name="${name}"]`).click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(digits);
    await page.keyboard.press('Tab');
  }
  await expect(page.locator('input[name="endTime"]')).toHaveValue('15:00');
  await shot(page, 'leads-appointment-form');
  await page.getByTestId('appointment-save').click();
  await expect(page).toHaveURL(/\/admin\/appointments\/\d+$/);
  const appointmentId = Number(/\/(\d+)$/.exec(new URL(page.url()).pathname)?.[1]);

  const stored = await api<Row>(request, token, 'GET', `leads/${leads.Fabio.id}`);
  expect(stored).toMatchObject({
    status: 'closed',
    close_status: 'appointment_set',
    appointment_id: appointmentId,
    customer_id: converted.customer_id,
  });
  expect(await api<Row>(request, token, 'GET', `appointments/${appointmentId}`)).toMatchObject({
    lead_id: leads.Fabio.id,
    client_id: converted.customer_id,
  });

  // The board has it in Done, and the lead's page links the appointment.
  await openBoard(page, stamp);
  await expect(column(page, 'closed').locator(`[data-lead-id="${leads.Fabio.id}"]`)).toContainText(
    'Termin vereinbart',
  );
  await card(page, leads.Fabio.id).getByTestId('lead-card-link').click();
  await expect(page.getByTestId('lead-show')).toBeVisible();
  await expect(page.getByTestId('lead-appointment-link')).toBeVisible();
  await shot(page, 'leads-show');
});

test('a move the server refuses goes back, with the reason', async ({ page, request }) => {
  const stamp = `r${Date.now().toString(36)}`;
  const token = await tokenOf(request);
  const leads = await makeLeads(request, token, stamp, ['Gina']);
  await login(page, ADMIN);
  await openBoard(page, stamp);
  await expect(card(page, leads.Gina.id)).toBeVisible();

  // Someone else changes the lead after the board was read: the board's version is stale.
  await api<Row>(request, token, 'PATCH', `leads/${leads.Gina.id}`, { notes: 'Rückruf am Abend' });
  const refused = page.waitForResponse((answer) => answer.url().includes('/move'));
  await drag(page, card(page, leads.Gina.id), column(page, 'not-reached'));
  await page.mouse.up();
  expect((await refused).status()).toBe(409);

  await expect(page.getByText('Die Verschiebung wurde nicht gespeichert')).toBeVisible();
  await expect(page.getByText('Jemand anders hat diesen Lead inzwischen geändert')).toBeVisible();
  await expect(column(page, 'new').locator(`[data-lead-id="${leads.Gina.id}"]`)).toBeVisible();
  await expect(column(page, 'not-reached').getByTestId('lead-card')).toHaveCount(0);
  await expect(page.getByTestId('lead-column-not-reached-count')).toHaveText('0');
  expect((await api<Row>(request, token, 'GET', `leads/${leads.Gina.id}`)).status).toBe('new');
  await shot(page, 'leads-move-refused');

  // The card now has the lead as it is, so the next move goes through.
  await drag(page, card(page, leads.Gina.id), column(page, 'not-reached'));
  await page.mouse.up();
  await expect
    .poll(async () => (await api<Row>(request, token, 'GET', `leads/${leads.Gina.id}`)).status)
    .toBe('not reached');
});

test('the list view through the switch, kept as the preference', async ({ page, request }) => {
  const stamp = `l${Date.now().toString(36)}`;
  const token = await tokenOf(request);
  const leads = await makeLeads(request, token, stamp, ['Hanna', 'Ivo']);
  const { user: callCentre } = (await (
    await request.post('/api/auth/login', {
      data: { email: 'callcenter@demo.gscrm.ch', password: PASSWORD },
    })
  ).json()) as { user: Row };
  const assigned = await api<Row>(request, token, 'PATCH', `leads/${leads.Ivo.id}`, {
    assigned_to: callCentre.id,
    version: leads.Ivo.version,
  });
  await api<Row>(request, token, 'POST', `leads/${leads.Ivo.id}/move`, {
    status: 'closed',
    after_id: null,
    version: assigned.version,
    close_status: 'invalid',
  });
  const callCentreName = `${String(callCentre.first_name)} ${String(callCentre.last_name)}`;
  await login(page, ADMIN);
  try {
    await openBoard(page, stamp);
    await page.getByTestId('leads-view-list').click();
    await expect(page.getByTestId('leads-page')).toHaveAttribute('data-view', 'list');
    const rows = listRows(page.getByTestId('leads-list'));
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: `Hanna Board${stamp}` })).toContainText('Neue Leads');
    await expect(rows.filter({ hasText: `Ivo Board${stamp}` })).toContainText('Ungültig');
    await expect(rows.filter({ hasText: `Ivo Board${stamp}` })).toContainText(callCentreName);
    // The assignee filter: nobody, then one user, then everyone again.
    const assignee = page.getByRole('combobox', { name: 'Zugewiesen an' });
    await assignee.click();
    await page.getByRole('option', { name: 'Nicht zugewiesen' }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`Hanna Board${stamp}`);
    await assignee.click();
    await page.getByRole('option', { name: callCentreName }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`Ivo Board${stamp}`);
    await assignee.click();
    await page.getByRole('option', { name: 'Alle Personen' }).click();
    await expect(rows).toHaveCount(2);
    // The status filter of the list.
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Erledigt' }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`Ivo Board${stamp}`);
    await shot(page, 'leads-list');
    await expect
      .poll(async () => (await api<Row>(request, token, 'GET', 'account/settings')).leads_view)
      .toBe('list');

    // The preference opens the list next time.
    await page.reload();
    await expect(page.getByTestId('leads-page')).toHaveAttribute('data-view', 'list');
    await rows
      .filter({ hasText: `Ivo Board${stamp}` })
      .locator('td')
      .first()
      .click();
    await expect(page).toHaveURL(new RegExp(`/admin/leads/${leads.Ivo.id}$`));
    await expect(page.getByTestId('lead-title')).toHaveText(`Ivo Board${stamp}`);
  } finally {
    await api(request, token, 'PUT', 'account/settings', { leads_view: 'kanban' });
  }
});
