/**
 * Payouts (issue 17) in the browser, on a ledger written here through the API (single payments:
 * ready lines of their own, in an old month no other test pays out): the list opens on the new
 * payouts; "run payouts" for that month says how many it made (as many as the API then lists) and
 * shows them; the consultant's payout opens with its lines; approving and marking it paid ask first
 * and move it on (its lines paid, checked through the API); its statement downloads as a PDF and the
 * month's export as CSV with the payout in it. With SHOTS=<folder>, screenshots at 1366×768.
 */
import fs from 'node:fs';
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { apiData, expectAccessible, login, shot, tokenOf } from './helpers.ts';

const ADMIN = 'admin@demo.gscrm.ch';
const CONSULTANT = 'consultant@demo.gscrm.ch';
const CONSULTANT2 = 'consultant2@demo.gscrm.ch';
const expect = baseExpect.configure({ timeout: 20_000 });

test.use({ viewport: { width: 1366, height: 768 } });

type Row = Record<string, unknown> & { id: number };

/** Types a month into a month picker ('MMYYYY'; the picker writes MM.YYYY). */
async function typeMonth(page: Page, testId: string, month: string) {
  const [year, number] = month.split('-');
  await page.getByTestId(testId).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(`${number}${year}`);
}

test('run a month, approve and pay a payout, its statement as PDF', async ({ page, request }) => {
  const token = await tokenOf(request, ADMIN);
  const stamp = Date.now().toString(36);
  // An old month nobody else pays out: its payouts hold only the lines written here.
  const month = `20${10 + (Date.now() % 9)}-${String(1 + (Math.floor(Date.now() / 9) % 12)).padStart(2, '0')}`;
  const users = await apiData<Row[]>(request, token, 'GET', 'users?per_page=100');
  const consultant2 = users.find((user) => user.email === CONSULTANT2)!;
  const consultant2Name = `${String(consultant2.first_name)} ${String(consultant2.last_name)}`;
  // Two ready lines of the consultant in that month: CHF 123.45 + CHF 76.60 = CHF 200.05.
  for (const [amount, kind] of [
    [123.45, 'bonus'],
    [76.6, 'advance'],
  ] as const) {
    await apiData(request, token, 'POST', 'assigned-single-payments', {
      user_id: consultant2.id,
      kind,
      amount,
      period: month,
      reason: `E2E ${kind} ${stamp}`,
    });
  }

  await login(page, ADMIN);
  const opened = page.waitForRequest((asked) => {
    const url = new URL(asked.url());
    return url.pathname === '/api/payouts' && asked.method() === 'GET';
  });
  await page.goto('/admin/payouts');
  // The list opens on the new payouts, page 1 (spec §4, §9).
  const first = new URL((await opened).url());
  expect(first.searchParams.get('status')).toBe('new');
  expect(first.searchParams.get('page')).toBe('1');
  await expect(page.getByTestId('payouts-run')).toBeVisible();

  // Run the month's payouts.
  await page.getByTestId('payouts-run').click();
  const dialog = page.getByTestId('payouts-run-dialog');
  await expect(dialog).toBeVisible();
  await typeMonth(page, 'payouts-run-month', month);
  await shot(page, 'payouts-run-dialog');
  const ran = page.waitForResponse(
    (answer) => new URL(answer.url()).pathname === '/api/payouts/run',
  );
  await dialog.getByTestId('payouts-run-confirm').click();
  const runAnswer = (await (await ran).json()) as { data: { created: number } };
  const result = dialog.getByTestId('payouts-run-result');
  await expect(result).toBeVisible();
  const created = Number(await result.getAttribute('data-created'));
  expect(created).toBeGreaterThanOrEqual(1);
  expect(created).toBe(runAnswer.data.created);
  const made = await apiData<Row[]>(request, token, 'GET', `payouts?period=${month}&per_page=100`);
  expect(made).toHaveLength(created);
  const payout = made.find((row) => row.user_id === consultant2.id)!;
  expect(payout).toMatchObject({ status: 'new', total: 20005, line_count: 2 });
  await dialog.getByTestId('payouts-run-close').click();

  // The list now shows the month's new payouts.
  await expect(page).toHaveURL(/\/admin\/payouts/);
  const row = page.getByTestId('payouts-list').locator('tbody tr', { hasText: consultant2Name });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('payout-total')).toHaveText('CHF 200.05');
  await shot(page, 'payouts-list');
  await expectAccessible(page);

  // Its page: the lines with their amounts.
  await row.getByTestId('payout-total').click();
  await expect(page).toHaveURL(new RegExp(`/admin/payouts/${payout.id}$`));
  const show = page.getByTestId('payout-show');
  await expect(show).toHaveAttribute('data-status', 'new');
  await expect(page.getByTestId('payout-line')).toHaveCount(2);
  await expect(page.getByTestId('payout-line-amount')).toHaveText(['CHF 123.45', 'CHF 76.60']);
  await expect(page.getByTestId('payout-lines-total')).toHaveText('CHF 200.05');
  await shot(page, 'payout-show-new');
  await expectAccessible(page);

  // A note while it is new (the only change a payout takes), kept over a reload.
  await page.getByTestId('payout-note-edit').click();
  await page.getByTestId('payout-note-input').fill(`Bonus Q2 ${stamp}`);
  const noted = page.waitForResponse(
    (answer) =>
      new URL(answer.url()).pathname === `/api/payouts/${String(payout.id)}` &&
      answer.request().method() === 'PATCH',
  );
  await page.getByTestId('payout-note-save').click();
  expect((await noted).status()).toBe(200);
  await expect(page.getByTestId('payout-note')).toContainText(`Bonus Q2 ${stamp}`);
  await page.reload();
  await expect(page.getByTestId('payout-note')).toContainText(`Bonus Q2 ${stamp}`);

  // Approve (asked first), then mark paid.
  await page.getByTestId('payout-approve').click();
  const confirm = page.getByRole('dialog').filter({ hasText: consultant2Name });
  await expect(confirm).toContainText('CHF 200.05');
  await confirm.getByRole('button').last().click();
  await expect(show).toHaveAttribute('data-status', 'approved');
  // Approved: the note stays, no longer changeable.
  await expect(page.getByTestId('payout-note')).toContainText(`Bonus Q2 ${stamp}`);
  await expect(page.getByTestId('payout-note-edit')).toHaveCount(0);
  await expect(page.getByTestId('payout-approve')).toHaveCount(0);
  await expect(page.getByTestId('payout-delete')).toHaveCount(0);
  await page.getByTestId('payout-pay').click();
  await page
    .getByRole('dialog')
    .filter({ hasText: consultant2Name })
    .getByRole('button')
    .last()
    .click();
  await expect(show).toHaveAttribute('data-status', 'paid');
  await expect(page.getByTestId('payout-pay')).toHaveCount(0);
  await expect(page.getByTestId('payout-paidAt')).not.toBeEmpty();
  await shot(page, 'payout-show-paid');
  const paid = await apiData<Row>(request, token, 'GET', `payouts/${payout.id}`);
  expect(paid.status).toBe('paid');
  expect(paid.paid_at).toBeTruthy();
  const lines = await apiData<Row[]>(
    request,
    token,
    'GET',
    `commission-lines?payout_id=${payout.id}`,
  );
  expect(lines.map((line) => line.status)).toEqual(['paid', 'paid']);

  // The statement: a PDF.
  const statement = page.waitForEvent('download');
  await page.getByTestId('payout-statement').click();
  const pdf = await statement;
  expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
  const bytes = fs.readFileSync((await pdf.path()) ?? '');
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(bytes.length).toBeGreaterThan(1000);

  // The month's export for the accounting holds the payout.
  const exported = page.waitForEvent('download');
  await page.getByTestId('payout-export-csv').click();
  const csv = await exported;
  expect(csv.suggestedFilename()).toMatch(/\.csv$/);
  const text = fs.readFileSync((await csv.path()) ?? '', 'utf8');
  expect(text).toContain(consultant2Name);
  expect(text).toContain(String(consultant2.last_name));
});

test('one payout for a user and month: refused while nothing is ready, made, deleted', async ({
  page,
  request,
}) => {
  const token = await tokenOf(request, ADMIN);
  const stamp = Date.now().toString(36);
  // Another old month (2000–2008) of its own.
  const month = `200${Date.now() % 9}-${String(1 + (Math.floor(Date.now() / 7) % 12)).padStart(2, '0')}`;
  const users = await apiData<Row[]>(request, token, 'GET', 'users?per_page=100');
  const consultant = users.find((user) => user.email === CONSULTANT)!;

  await login(page, ADMIN);
  await page.goto('/admin/payouts');
  await page.getByTestId('payouts-create').click();
  const dialog = page.getByTestId('payouts-create-dialog');
  await expect(dialog).toBeVisible();
  const person = dialog.getByRole('combobox');
  await person.fill(String(consultant.last_name));
  await page
    .getByRole('option', {
      name: `${String(consultant.first_name)} ${String(consultant.last_name)}`,
    })
    .click();
  await typeMonth(page, 'payouts-create-month', month);

  // Nothing ready up to that month: refused beside the person, the dialog stays.
  const refused = page.waitForResponse(
    (answer) =>
      new URL(answer.url()).pathname === '/api/payouts' && answer.request().method() === 'POST',
  );
  await dialog.getByTestId('payouts-create-confirm').click();
  expect((await refused).status()).toBe(422);
  await expect(dialog.locator('.MuiFormHelperText-root.Mui-error')).toHaveCount(1);
  await expect(person).toHaveAttribute('aria-invalid', 'true');
  await shot(page, 'payouts-create-refused');

  // A ready line of that month: the payout is made and opens.
  await apiData(request, token, 'POST', 'assigned-single-payments', {
    user_id: consultant.id,
    kind: 'bonus',
    amount: 50,
    period: month,
    reason: `E2E one ${stamp}`,
  });
  await dialog.getByTestId('payouts-create-confirm').click();
  await expect(page).toHaveURL(/\/admin\/payouts\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  await expect(page.getByTestId('payout-show')).toHaveAttribute('data-status', 'new');
  await expect(page.getByTestId('payout-line-amount')).toHaveText(['CHF 50.00']);

  // Deleted (asked first): back to the list, its line ready again.
  await page.getByTestId('payout-delete').click();
  await page.getByRole('dialog').getByRole('button').last().click();
  await expect(page).toHaveURL(/\/admin\/payouts$/);
  const gone = await request.get(`/api/payouts/${id}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(gone.status()).toBe(404);
  const lines = await apiData<Row[]>(
    request,
    token,
    'GET',
    `commission-lines?user_id=${consultant.id}&period=${month}`,
  );
  expect(lines.map((line) => [line.status, line.payout_id])).toEqual([['ready_present', null]]);
});
