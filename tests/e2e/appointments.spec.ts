/**
 * Appointments (issue 15): booking for a customer (from `?clientId=`, the address taken from the
 * customer) → the appointment in the list and the calendar → feedback with a reminder, a
 * follow-up and a photo (a reminder due in the past refused beside its input first) → the reminder,
 * the follow-up and the photo exist through the API, the photo shows on the appointment's page
 * (full size on a click) and can be removed there; the reminder, due today, is on the
 * consultant's worklist (dashboard, reminders due) and resolved there in one click; dragging an appointment in the calendar moves it (one update,
 * checked through the API), and a drag based on a stale version goes back with the conflict
 * message. With SHOTS=<folder>, screenshots at 1366×768.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect as baseExpect, type Page, test } from '@playwright/test';
import { listRows, login, PASSWORD, restoreLanguage } from './helpers.ts';

const ADMIN = 'admin@demo.gscrm.ch';
const CONSULTANT = 'consultant@demo.gscrm.ch';
const SHOTS = process.env.SHOTS;
/** A phone's photo of a signed form (640×420 PNG). */
const PHOTO = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'feedback-photo.png',
);
/** Lists and the calendar can take a while on a busy machine. */
const expect = baseExpect.configure({ timeout: 30_000 });

test.use({ viewport: { width: 1366, height: 768 } });

type Row = Record<string, unknown> & { id: number };

async function tokenOf(
  request: APIRequestContext,
  email = ADMIN,
): Promise<{ token: string; user: Row }> {
  const answer = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(answer.ok()).toBe(true);
  return (await answer.json()) as { token: string; user: Row };
}

async function api<T>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST' | 'PATCH',
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

/** A day relative to today in Swiss local time: 'YYYY-MM-DD'. */
function swissDay(offsetDays: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Zurich',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(Date.now() + offsetDays * 86_400_000));
  return parts;
}

/** The instant of a Swiss local day and time ('HH:mm'), ISO 8601. */
function swissInstant(day: string, time: string): string {
  // Zurich is UTC+1 or UTC+2: the offset that gives back the same wall-clock time.
  for (const offset of ['+01:00', '+02:00']) {
    const candidate = new Date(`${day}T${time}:00${offset}`);
    const wall = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Zurich',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(candidate);
    if (wall === time) return candidate.toISOString();
  }
  throw new Error(`no Swiss time ${day} ${time}`);
}

/** 'YYYY-MM-DD' → the digits typed into a date input ('DDMMYYYY'). */
const typed = (day: string) => day.split('-').reverse().join('');

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/** Picks `option` in the autocomplete of field `name` (typing part of it first). */
async function pick(page: Page, name: string, option: string, typedText = option) {
  const input = page.locator(`input[name="${name}"]`);
  await input.click();
  await input.fill(typedText);
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(input).toHaveValue(option);
}

/** Types into a date or time picker (its sections take the digits). */
async function typeInto(page: Page, name: string, digits: string) {
  await page.locator(`input[name="${name}"]`).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(digits);
  await page.keyboard.press('Tab');
}

test('book an appointment for a customer, find it, give feedback with a reminder and a follow-up', async ({
  page,
  request,
}) => {
  // A long journey through four screens: more than the default minute on a busy machine.
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const { token } = await tokenOf(request);
  const { user: consultant } = await tokenOf(request, CONSULTANT);
  const consultantName = `${String(consultant.first_name)} ${String(consultant.last_name)}`;
  const lastName = `Termin${stamp}`;
  const customer = await api<Row>(request, token, 'POST', 'customers', {
    first_name: 'Vera',
    last_name: lastName,
    is_company: false,
    country: 'CH',
    street: 'Seeweg',
    address_number: '7',
    zip: '8001',
    city: 'Zürich',
  });
  const yesterday = swissDay(-1);
  await login(page, ADMIN);

  // Booking from the customer's link: the customer and its address are filled in.
  await page.goto(`/admin/appointments/new?clientId=${customer.id}`);
  await expect(page.locator('input[name="clientId"]')).toHaveValue(`Vera ${lastName}`);
  await expect(page.locator('input[name="street"]')).toHaveValue('Seeweg');
  await expect(page.locator('input[name="number"]')).toHaveValue('7');
  await expect(page.locator('input[name="city"]')).toHaveValue('Zürich');
  await expect(page.getByTestId('appointment-map-link')).toHaveAttribute(
    'href',
    'https://www.openstreetmap.org/search?query=Seeweg%207%2C%208001%20Z%C3%BCrich',
  );
  await pick(page, 'consultantId', consultantName, String(consultant.last_name));
  await typeInto(page, 'date', typed(yesterday));
  await typeInto(page, 'startTime', '0900');
  // The end follows the start (an hour later) until it is set.
  await expect(page.locator('input[name="endTime"]')).toHaveValue('10:00');
  await typeInto(page, 'endTime', '1030');
  await page.locator('textarea[name="comment"]').fill(`Zweiter Stock ${stamp}`);
  await shot(page, 'appointment-form');
  await page.getByTestId('appointment-save').click();
  await expect(page).toHaveURL(/\/admin\/appointments\/\d+$/);
  await expect(page.getByTestId('appointment-show')).toBeVisible();
  const id = Number(/\/(\d+)$/.exec(new URL(page.url()).pathname)?.[1]);
  await expect(page.getByTestId('appointment-start')).toHaveText(/09:00/);
  await expect(page.getByTestId('appointment-end')).toHaveText(/10:30/);
  await expect(page.getByTestId('appointment-status-chip')).toHaveText('Standard');
  const stored = await api<Row>(request, token, 'GET', `appointments/${id}`);
  expect(stored).toMatchObject({
    client_id: customer.id,
    consultant_id: consultant.id,
    date: yesterday,
    street: 'Seeweg',
    zip: '8001',
    status: 1,
  });
  expect(String(stored.start_time)).toMatch(/^09:00/);
  expect(String(stored.end_time)).toMatch(/^10:30/);

  // The list (the view switch) finds it by the customer's name.
  await page.goto('/admin/appointments');
  await page.getByTestId('appointments-view-list').click();
  await page.locator('input[name="q"]').fill(lastName);
  const row = page.locator('tbody tr', { hasText: `Vera ${lastName}` });
  await expect(row).toBeVisible();
  await expect(row).toContainText('09:00–10:30');
  await expect(row).toContainText('Standard');
  await shot(page, 'appointments-list');

  // The calendar shows it on its day.
  await page.getByTestId('appointments-view-calendar').click();
  await page.getByTestId('calendar-view-timeGridDay').click();
  await page.getByTestId('calendar-today').click();
  await page.getByTestId('calendar-prev').click();
  const event = page.locator('.fc-event', { hasText: lastName });
  await expect(event).toBeVisible();
  await expect(event).toContainText('09:00');
  await page.getByTestId('calendar-view-timeGridWeek').click();
  await shot(page, 'appointments-calendar-week');
  await event.click();
  await expect(page).toHaveURL(new RegExp(`/admin/appointments/${id}$`));

  // Feedback: a reminder due in the past is refused beside its input, then one for tomorrow.
  await page.getByTestId('appointment-feedback').click();
  const dialog = page.getByTestId('feedback-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Hat stattgefunden', { exact: true }).check();
  await dialog.locator('textarea[name="note"]').fill(`Gutes Gespräch ${stamp}`);
  // A photo of the signed form, previewed in the dialog.
  await dialog.getByTestId('feedback-image-input').setInputFiles(PHOTO);
  const preview = dialog.getByTestId('feedback-image-preview');
  await expect(preview).toBeVisible();
  await expect
    .poll(() => preview.evaluate((element) => (element as HTMLImageElement).naturalWidth))
    .toBe(640);
  await expect(dialog.getByTestId('feedback-image-hint')).toContainText('feedback-photo.png');
  await preview.scrollIntoViewIfNeeded();
  await shot(page, 'feedback-dialog-image');
  await dialog.locator('input[name="withReminder"]').check();
  await typeInto(page, 'reminder.dueDate', typed(yesterday));
  await dialog.locator('input[name="reminder.subject"]').fill(`Offerte senden ${stamp}`);
  await dialog.locator('input[name="withFollowUp"]').check();
  await expect(dialog.locator('input[name="followUp.address"]')).toHaveValue('Seeweg');
  await expect(dialog.locator('input[name="followUp.startTime"]')).toHaveValue('09:00');
  const nextWeek = swissDay(7);
  await typeInto(page, 'followUp.date', typed(nextWeek));
  await typeInto(page, 'followUp.startTime', '1400');
  await typeInto(page, 'followUp.endTime', '1500');
  await shot(page, 'feedback-dialog');
  await dialog.getByTestId('feedback-save').click();
  await expect(
    dialog.locator('.ra-input-reminder\\.dueDate, .MuiFormControl-root', {
      hasText: 'darf nicht in der Vergangenheit liegen',
    }),
  ).not.toHaveCount(0);
  // Nothing was written.
  expect((await api<Row>(request, token, 'GET', `appointments/${id}`)).feedback_id).toBeNull();
  // Due today: it is on the consultant's worklist at once (checked at the end).
  await typeInto(page, 'reminder.dueDate', typed(swissDay(0)));
  await dialog.getByTestId('feedback-save').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('appointment-section-feedback')).toBeVisible();
  await expect(page.getByTestId('feedback-note')).toContainText(`Gutes Gespräch ${stamp}`);
  await expect(page.getByTestId('appointment-status-chip')).toHaveText('Hat stattgefunden');
  await expect(page.getByTestId('appointment-feedback')).toHaveCount(0);
  await expect(page.getByTestId('feedback-reminder-link')).toHaveText(`Offerte senden ${stamp}`);
  // The photo (kept through the refused first save) in the feedback card, full size on a click.
  const thumbnail = page.getByTestId('feedback-image');
  await expect(thumbnail).toBeVisible();
  await expect
    .poll(() => thumbnail.evaluate((element) => (element as HTMLImageElement).naturalWidth))
    .toBe(640);
  await thumbnail.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await shot(page, 'appointment-show-feedback');
  await page.getByTestId('feedback-image-open').click();
  const full = page.getByTestId('feedback-image-full');
  await expect(full).toBeVisible();
  await expect(full.getByTestId('feedback-image-full-picture')).toBeVisible();
  await shot(page, 'appointment-show-feedback-image-full');
  await full.getByTestId('feedback-image-close').click();
  await expect(full).toBeHidden();

  // Through the API: the feedback, its reminder and the follow-up.
  const closed = await api<Row>(request, token, 'GET', `appointments/${id}`);
  expect(closed.status).toBe(2);
  const feedback = await api<Row>(request, token, 'GET', `feedbacks/${String(closed.feedback_id)}`);
  expect(feedback).toMatchObject({ appointment_id: id, has_taken_place: true, status: 2 });
  expect(String(feedback.image)).toMatch(/^feedback-images\/[0-9a-f-]{36}\.png$/);
  const photo = await request.get(`/api/feedbacks/${String(feedback.id)}/image`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(photo.headers()['content-type']).toBe('image/png');
  expect(Buffer.compare(await photo.body(), fs.readFileSync(PHOTO))).toBe(0);
  const reminder = await api<Row>(
    request,
    token,
    'GET',
    `reminders/${String(feedback.reminder_id)}`,
  );
  expect(reminder).toMatchObject({
    subject: `Offerte senden ${stamp}`,
    due_date: swissDay(0),
    status: 'open',
    client_id: customer.id,
    user_id: consultant.id,
  });
  const followUp = await api<Row>(
    request,
    token,
    'GET',
    `appointments/${String(feedback.follow_up_appointment_id)}`,
  );
  expect(followUp).toMatchObject({
    client_id: customer.id,
    consultant_id: consultant.id,
    previous_appointment_id: id,
    date: nextWeek,
    status: 1,
    appointment_type: 'follow_up',
    street: 'Seeweg',
  });
  expect(String(followUp.start_time)).toMatch(/^14:00/);
  expect(String(followUp.end_time)).toMatch(/^15:00/);

  // The photo is removed on the appointment's page (after a confirmation).
  await page.getByTestId('feedback-image-remove').click();
  await page.locator('.ra-confirm').click();
  await expect(page.getByTestId('feedback-image')).toHaveCount(0);
  await expect(page.getByTestId('feedback-image-replace')).toBeVisible();
  expect(
    (await api<Row>(request, token, 'GET', `feedbacks/${String(feedback.id)}`)).image,
  ).toBeNull();

  // The follow-up links back to this appointment.
  await page.getByTestId('feedback-follow-up-link').click();
  await expect(page).toHaveURL(new RegExp(`/admin/appointments/${String(followUp.id)}$`));
  await expect(page.getByTestId('appointment-previous')).toBeVisible();

  // The consultant's worklist: the reminder due today counts among the reminders due on the
  // dashboard; the section's list (open, due up to today, mine) finds it, resolved in one click.
  await page.evaluate(() => localStorage.clear());
  await login(page, CONSULTANT);
  await page.goto('/consultant');
  const due = page.getByTestId('dashboard-reminders_due');
  await expect(due).toBeVisible();
  await expect(due.getByTestId('dashboard-reminders_due-total')).toHaveText(/[1-9]/);
  await page.goto(
    `/consultant/reminders?filter=${encodeURIComponent(JSON.stringify({ q: stamp, status: 'open' }))}`,
  );
  const reminderList = page.getByTestId('reminder-list');
  await expect(reminderList).toContainText(`Offerte senden ${stamp}`);
  await shot(page, 'consultant-reminders-due');
  await page.getByTestId(`reminder-resolved-${String(reminder.id)}`).click();
  await expect
    .poll(
      async () =>
        (await api<Row>(request, token, 'GET', `reminders/${String(reminder.id)}`)).status,
    )
    .toBe('resolved');
  // It leaves the open list (here the list's last row: the list then says it found none).
  await expect(page.getByText(`Offerte senden ${stamp}`)).toHaveCount(0);
});

/** The calendar's slot row of a time ('13:00:00') in the day view. */
const slot = (page: Page, time: string) =>
  page.locator(`td.fc-timegrid-slot-lane[data-time="${time}"]`);

/** Drags an event by the distance between two slot rows of the time grid. */
async function dragBy(page: Page, eventText: string, fromTime: string, toTime: string) {
  const event = page.locator('.fc-timegrid-event', { hasText: eventText });
  await event.scrollIntoViewIfNeeded();
  const box = await event.boundingBox();
  const from = await slot(page, fromTime).boundingBox();
  const to = await slot(page, toTime).boundingBox();
  if (!box || !from || !to) throw new Error('calendar not laid out');
  const x = box.x + box.width / 2;
  const y = box.y + 6;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, y + 10, { steps: 5 });
  await page.mouse.move(x, y + (to.y - from.y), { steps: 15 });
  await page.mouse.up();
}

test('dragging an appointment in the calendar moves it; a stale one goes back', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const { token } = await tokenOf(request);
  const { user: consultant } = await tokenOf(request, CONSULTANT);
  const customer = await api<Row>(request, token, 'POST', 'customers', {
    first_name: 'Rolf',
    last_name: `Kalender${stamp}`,
    is_company: false,
    country: 'CH',
    zip: '8400',
    city: 'Winterthur',
  });
  const today = swissDay(0);
  const moved = await api<Row>(request, token, 'POST', 'appointments', {
    client_id: customer.id,
    consultant_id: consultant.id,
    date_start: swissInstant(today, '10:00'),
    date_end: swissInstant(today, '11:00'),
  });

  await login(page, ADMIN);
  await page.goto('/admin/appointments');
  await page.getByTestId('appointments-view-calendar').click();
  await page.getByTestId('calendar-view-timeGridDay').click();
  await page.getByTestId('calendar-today').click();
  await expect(page.locator('.fc-timegrid-event', { hasText: `Kalender${stamp}` })).toBeVisible();
  await shot(page, 'appointments-calendar-day');

  // 10:00 → 13:00, the same hour long: one update, then the notice.
  await dragBy(page, `Kalender${stamp}`, '10:00:00', '13:00:00');
  await expect(page.getByText(/Termin verschoben auf/)).toBeVisible();
  await expect
    .poll(async () => {
      const row = await api<Row>(request, token, 'GET', `appointments/${moved.id}`);
      return `${String(row.start_time).slice(0, 5)}–${String(row.end_time).slice(0, 5)}`;
    })
    .toBe('13:00–14:00');
  const after = await api<Row>(request, token, 'GET', `appointments/${moved.id}`);
  expect(after.version).toBe(Number(moved.version) + 1);
  expect(after.date).toBe(today);

  // Someone else changes it meanwhile: the drag (on the old version) goes back, nothing saved.
  await api<Row>(request, token, 'PATCH', `appointments/${moved.id}`, {
    comment: 'Geändert',
    version: after.version,
  });
  await dragBy(page, `Kalender${stamp}`, '13:00:00', '15:00:00');
  await expect(page.getByText(/hat diesen Termin inzwischen geändert/)).toBeVisible();
  const unchanged = await api<Row>(request, token, 'GET', `appointments/${moved.id}`);
  expect(String(unchanged.start_time).slice(0, 5)).toBe('13:00');
  expect(unchanged.comment).toBe('Geändert');
});

test('a consultant sees their own appointments first, in their language', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { user: consultant } = await tokenOf(request, CONSULTANT);
  const name = `${String(consultant.first_name)} ${String(consultant.last_name)}`;
  await login(page, CONSULTANT);
  await page.getByRole('button', { name: 'Deutsch', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Français', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Français', exact: true })).toBeVisible();

  // The calendar (the default preference) shows the consultant's own appointments.
  await page.goto('/consultant/appointments');
  await expect(page.getByTestId('appointments-calendar')).toBeVisible();
  await expect(page.getByTestId('calendar-consultant')).toHaveValue(name);
  await expect(page.getByTestId('calendar-today')).toHaveText("Aujourd'hui");
  await page.getByTestId('calendar-view-dayGridMonth').click();
  // Monday first, in French.
  await expect(page.locator('.fc-col-header-cell').first()).toHaveText(/^lun/);
  await expect(page.locator('.fc-event').first()).toBeVisible();
  await shot(page, 'consultant-calendar-month-fr');
  await page.getByTestId('calendar-view-timeGridWeek').click();
  await shot(page, 'consultant-calendar-week-fr');

  // The list, its statuses in French.
  await page.getByTestId('appointments-view-list').click();
  await expect(listRows(page).first()).toBeVisible();
  await expect(page.locator('thead')).toContainText('Statut');
  await expect(page.locator('tbody')).toContainText(/Par défaut|A eu lieu|Ouvert|Annulé/);
  await shot(page, 'consultant-list-fr');
});

// The French test switches the consultant's language (saved on the server): set it back even when
// it fails half-way, or later tests signing in as the consultant see French.
test.afterEach(async ({ request }) => {
  await restoreLanguage(request, CONSULTANT);
});
