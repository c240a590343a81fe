/**
 * Reminders, tasks and notifications (issue 15): a reminder due today set for oneself from the
 * customer's reminders tab is in the reminders list (its default filter) and on the tasks page,
 * is resolved there in one click and leaves the open list; the bell counts a notification created
 * for the user and, opened from the notifications page, it is marked read and its link followed;
 * the customers list's open-issue filter narrows the list. With SHOTS=<folder>, screenshots at
 * 1366×768.
 */
import { type APIRequestContext, expect as baseExpect, type Page, test } from '@playwright/test';
import { login, PASSWORD } from './helpers.ts';

// The machine is shared with the other browser tests: pages may take a while.
const expect = baseExpect.configure({ timeout: 25_000 });
const ADMIN = 'admin@demo.gscrm.ch';
const CONSULTANT = 'consultant@demo.gscrm.ch';
const SHOTS = process.env.SHOTS;

test.use({ viewport: { width: 1366, height: 768 } });
// Several pages per test, on a machine the other browser tests share.
test.setTimeout(150_000);

type Row = Record<string, unknown> & { id: number };

async function tokenOf(request: APIRequestContext, email = ADMIN) {
  const answer = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(answer.ok()).toBe(true);
  const body = (await answer.json()) as { token: string; user?: { id: number } };
  return body.token;
}

async function api<T>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST',
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

async function newCustomer(request: APIRequestContext, token: string, lastName: string) {
  return api<Row>(request, token, 'POST', 'customers', {
    first_name: 'Rita',
    last_name: lastName,
    is_company: false,
    country: 'CH',
  });
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

const swissToday = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zurich' }).format(new Date());

test('a reminder due today: reminders list, tasks page, resolved in one click', async ({
  page,
  request,
}) => {
  const stamp = Date.now().toString(36);
  const token = await tokenOf(request);
  const customer = await newCustomer(request, token, `Pendenz${stamp}`);
  await login(page, ADMIN);

  // From the customer's reminders tab: the form opens with the customer filled in, due today.
  await page.goto(`/admin/customers/${customer.id}?tab=reminders`);
  await expect(page.getByTestId('customer-reminders')).toBeVisible();
  await page.getByTestId('customer-reminder-new').click();
  await expect(page).toHaveURL(new RegExp(`/admin/reminders/new\\?clientId=${customer.id}$`));
  await expect(page.locator('input[name="clientId"]')).toHaveValue(`Rita Pendenz${stamp}`);
  const subject = `Offerte nachfassen ${stamp}`;
  await page.locator('input[name="subject"]').fill(subject);
  await shot(page, 'reminder-form');
  await page.getByTestId('reminder-save').click();
  await expect(page).toHaveURL(/\/admin\/reminders\/\d+$/);
  await expect(page.getByTestId('reminder-title')).toHaveText(subject);
  const id = Number(/\/(\d+)$/.exec(new URL(page.url()).pathname)?.[1]);
  const saved = await api<Row>(request, token, 'GET', `reminders/${id}`);
  expect(saved).toMatchObject({
    subject,
    status: 'open',
    due_date: swissToday(),
    client_id: customer.id,
    category: 'call',
  });
  expect(saved.user_id).toBe(saved.assigner_id);
  await shot(page, 'reminder-show');

  // The list opens on the open reminders due up to today, mine.
  await page.goto('/admin/reminders');
  await expect(page.getByTestId('reminders-whose-mine')).toHaveAttribute('aria-pressed', 'true');
  const list = page.getByTestId('reminder-list');
  await expect(list).toContainText(subject);
  await shot(page, 'reminder-list');

  // The customer tab lists it too.
  await page.goto(`/admin/customers/${customer.id}?tab=reminders`);
  await expect(page.getByTestId(`customer-reminder-${id}`)).toContainText(subject);

  // The tasks page: under reminders due; resolved in one click, it leaves the section.
  await page.goto('/admin/tasks');
  const section = page.getByTestId('task-section-reminders_due');
  await expect(section.getByTestId(`task-reminder-${id}`)).toContainText(subject);
  await shot(page, 'tasks');
  await section.getByTestId(`task-resolve-${id}`).click();
  await expect(section.getByTestId(`task-reminder-${id}`)).toHaveCount(0);
  const resolved = await api<Row>(request, token, 'GET', `reminders/${id}`);
  expect(resolved.status).toBe('resolved');
  expect(resolved.resolved_at).toBeTruthy();

  // It has left the open list (beside another one still open); the "resolved" filter shows it
  // with "reopen" (its assigner).
  const other = `Rückruf ${stamp}`;
  await api<Row>(request, token, 'POST', 'reminders', { subject: other, due_date: swissToday() });
  await page.goto('/admin/reminders');
  await expect(page.getByTestId('reminder-list')).toContainText(other);
  await expect(page.getByTestId('reminder-list')).not.toContainText(subject);
  await page.goto(
    `/admin/reminders?filter=${encodeURIComponent(JSON.stringify({ status: 'resolved', q: stamp }))}`,
  );
  await expect(page.getByTestId('reminder-list')).toContainText(subject);
  await expect(page.getByTestId(`reminder-open-${id}`)).toBeVisible();
  await expect(page.getByTestId(`reminder-resolved-${id}`)).toHaveCount(0);
});

test('the bell counts unread notifications; opening one marks it read and follows its link', async ({
  page,
  request,
}) => {
  const stamp = Date.now().toString(36);
  const token = await tokenOf(request);
  const me = await api<Row>(request, token, 'GET', 'auth/me');
  const unread = async () => {
    const answer = await request.get(`/api/notifications?unread=true&user_id=${me.id}&per_page=1`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    return ((await answer.json()) as { meta: { total: number } }).meta.total;
  };
  await login(page, ADMIN);
  await page.goto('/admin/dashboard');
  const bell = page.getByTestId('notifications-bell');
  // The job queue may notify of a reminder falling due meanwhile: once the page is loaded anew,
  // the bell shows what the API counts.
  const inStep = () =>
    expect
      .poll(
        async () => {
          const counted = await unread();
          if ((await bell.getAttribute('data-count')) === String(counted)) return counted;
          await page.reload();
          await expect(bell).toBeVisible();
          await page.waitForLoadState('networkidle');
          return (await bell.getAttribute('data-count')) === String(await unread()) ? counted : -1;
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThanOrEqual(0);
  await inStep();
  const before = await unread();

  const title = `Erinnerung fällig ${stamp}`;
  const created = await api<Row>(request, token, 'POST', 'notifications', {
    user_id: me.id,
    title,
    body: 'Kunde anrufen',
    link: '/admin/tasks',
  });
  // Asked again when the window regains focus (and every minute).
  await page.reload();
  await expect
    .poll(async () => Number(await bell.getAttribute('data-count')))
    .toBeGreaterThanOrEqual(before + 1);
  await inStep();
  await shot(page, 'dashboard');

  await bell.click();
  await expect(page).toHaveURL(/\/admin\/notifications$/);
  const item = page.getByTestId('notification-item').filter({ hasText: title });
  await expect(item).toHaveAttribute('data-read', 'false');
  await shot(page, 'notifications');
  const counted = Number(await bell.getAttribute('data-count'));
  await item.getByTestId('notification-link').click();
  await expect(page).toHaveURL(/\/admin\/tasks$/);
  await expect
    .poll(
      async () => (await api<Row>(request, token, 'GET', `notifications/${created.id}`)).read_at,
    )
    .toBeTruthy();
  // The bell follows at once (no reload): one fewer, unless another one arrived meanwhile.
  await expect
    .poll(async () => {
      const shown = Number(await bell.getAttribute('data-count'));
      return shown < counted || (await unread()) >= counted;
    })
    .toBe(true);
});

test('a consultant: the bell opens the newest unread, the dashboard shows the reminders due', async ({
  page,
  request,
}) => {
  const stamp = Date.now().toString(36);
  const adminToken = await tokenOf(request);
  const token = await tokenOf(request, CONSULTANT);
  const me = await api<Row>(request, token, 'GET', 'auth/me');
  const subject = `Police prüfen ${stamp}`;
  await api<Row>(request, token, 'POST', 'reminders', { subject, due_date: swissToday() });
  const title = `Neuer Termin ${stamp}`;
  await api<Row>(request, adminToken, 'POST', 'notifications', {
    user_id: me.id,
    title,
    link: '/consultant/reminders',
  });
  // The dashboard shows the first five, oldest due first (the demo data has older ones).
  const tasks = await api<{ sections: Array<{ key: string; total: number; items: Row[] }> }>(
    request,
    token,
    'GET',
    'tasks?limit=5',
  );
  const due = tasks.sections.find((section) => section.key === 'reminders_due');
  expect(due?.total).toBeGreaterThan(0);
  await login(page, CONSULTANT);
  await page.goto('/consultant/dashboard');
  const card = page.getByTestId('dashboard-reminders_due');
  await expect(card.getByTestId('dashboard-reminders_due-total')).toHaveText(String(due?.total));
  for (const item of due?.items ?? []) {
    await expect(card.getByTestId(`task-reminder-${item.id}`)).toContainText(String(item.subject));
  }
  await expect(page.getByTestId('dashboard-today-appointments')).toBeVisible();
  await shot(page, 'dashboard-consultant');
  await page.getByTestId('notifications-bell').click();
  const list = page.getByTestId('bell-list');
  await expect(list).toContainText(title);
  await shot(page, 'bell-consultant');
  await list.getByText(title).click();
  await expect(page).toHaveURL(/\/consultant\/reminders/);
  await expect(page.getByTestId('reminders-whose-mine')).toHaveAttribute('aria-pressed', 'true');
  await expect
    .poll(async () => {
      const mine = await api<Row[]>(request, token, 'GET', 'notifications?per_page=100');
      return Boolean(mine.find((notification) => notification.title === title)?.read_at);
    })
    .toBe(true);
  await shot(page, 'reminders-consultant');
});

test('the customers list: the open-issue filter narrows it', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const token = await tokenOf(request);
  const due = await newCustomer(request, token, `Offen${stamp}`);
  const later = await newCustomer(request, token, `Später${stamp}`);
  const none = await newCustomer(request, token, `Ohne${stamp}`);
  await api<Row>(request, token, 'POST', 'reminders', {
    subject: 'Fällig',
    due_date: swissToday(),
    client_id: due.id,
  });
  await api<Row>(request, token, 'POST', 'reminders', {
    subject: 'Später',
    due_date: '2099-01-01',
    client_id: later.id,
  });
  await login(page, ADMIN);
  const names = [`Rita Offen${stamp}`, `Rita Später${stamp}`, `Rita Ohne${stamp}`];
  const open = async (filter: Record<string, unknown>) => {
    const displayed = Object.fromEntries(Object.keys(filter).map((key) => [key, true]));
    await page.goto(
      `/admin/customers?filter=${encodeURIComponent(JSON.stringify(filter))}&displayedFilters=${encodeURIComponent(JSON.stringify(displayed))}`,
    );
  };
  await open({ q: stamp });
  for (const name of names) await expect(page.getByText(name)).toBeVisible();

  await open({ q: stamp, openIssue: 'open-due' });
  await expect(page.getByText(names[0])).toBeVisible();
  await expect(page.getByText(names[1])).toHaveCount(0);
  await expect(page.getByText(names[2])).toHaveCount(0);
  await shot(page, 'customers-open-issue');

  // Chosen in the filter's select: "none" leaves only the customer without reminders.
  await page.locator('input[name="openIssue"]').locator('..').getByRole('combobox').click();
  await page.getByRole('option', { name: 'Keine', exact: true }).click();
  await expect(page.getByText(names[2])).toBeVisible();
  await expect(page.getByText(names[0])).toHaveCount(0);
  await expect(page.getByText(names[1])).toHaveCount(0);
  expect(none.id).toBeGreaterThan(0);
});
