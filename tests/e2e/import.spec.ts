/**
 * The customer CSV import in German (issue 12): a row repeating an existing customer is flagged in
 * the check (which customer, why), a bad e-mail is reported in German beside its row, the user
 * skips the duplicate and the bad row, and the summary says what happened. Screenshot at 1366×768.
 */
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { login, PASSWORD } from './helpers.ts';

const ADMIN = 'admin@demo.gscrm.ch';
const SHOTS = '/tmp/shots/import';

test('a likely duplicate and a bad row are shown in German; the duplicate is skipped', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  const stamp = Date.now().toString(36);
  const lastName = `Importtest${stamp}`;
  const email = `anna.${stamp}@example.ch`;

  // The existing customer, through the API.
  const session = await page.request.post('/api/auth/login', {
    data: { email: ADMIN, password: PASSWORD },
  });
  expect(session.ok()).toBe(true);
  const { token } = (await session.json()) as { token: string };
  const created = await page.request.post('/api/customers', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      first_name: 'Anna',
      last_name: lastName,
      date_of_birth: '1975-03-12',
      email,
      phone_number: '+41 79 555 12 34',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const existingId = ((await created.json()) as { data: { id: number } }).data.id;

  const csv = [
    'Vorname;Nachname;Geburtsdatum;E-Mail;Ort',
    `Anna;${lastName};12.03.1975;${email};Bern`,
    `Bernd;${lastName}-B;01.01.1980;bernd@@example;Thun`,
    `Carla;${lastName}-C;02.02.1982;carla.${stamp}@example.ch;Biel`,
    '',
  ].join('\n');

  await login(page, ADMIN);
  await page.goto('/admin/customers/import');
  await page.getByTestId('import-file').setInputFiles({
    name: 'kunden.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await page.getByTestId('import-check').click();
  await expect(page.getByTestId('import-counts')).toHaveText('3 Zeilen: 2 gültig, 1 mit Fehlern');

  // The duplicate: which customer, and why (the create form's reasons).
  const duplicate = page.getByTestId('duplicate-row-1');
  await expect(duplicate).toContainText(`Anna ${lastName} (#${existingId})`);
  await expect(duplicate).toContainText('Gleicher Name und Geburtsdatum · Gleiche E-Mail');
  await expect(page.getByTestId('duplicates-undecided')).toContainText('Zeilen ohne Entscheid: 1');

  // The bad row, in German.
  const errors = page.getByTestId('import-row-errors');
  await expect(errors).toContainText('E-Mail');
  await expect(errors).toContainText('Bitte eine gültige E-Mail-Adresse eingeben');
  await expect(errors).not.toContainText('must match');

  fs.mkdirSync(SHOTS, { recursive: true });
  await page.getByTestId('import-duplicates').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/preview-1366.png` });

  // Skip the duplicate and the bad row, import the rest.
  await page.getByRole('combobox', { name: 'Entscheid für Zeile 1' }).click();
  await page.getByRole('option', { name: 'Überspringen' }).click();
  await expect(page.getByTestId('duplicates-undecided')).toHaveCount(0);
  await page.getByTestId('import-skip-invalid').click();
  await expect(page.getByTestId('import-run')).toHaveText('1 Kunden importieren');
  await page.getByTestId('import-run').click();
  const summary = page.getByTestId('import-summary');
  await expect(summary).toContainText('1 von 3 Zeilen importiert, 2 übersprungen.');
  await expect(summary).toContainText('Doppelerfassungen: 1 übersprungen, 0 ohne Entscheid');
  await summary.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/summary-1366.png` });

  // Nothing new for Anna: still the one customer.
  const list = await page.request.get(`/api/customers?search=${lastName}&per_page=50`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const names = ((await list.json()) as { data: Array<{ last_name: string }> }).data.map(
    (row) => row.last_name,
  );
  expect(names.sort()).toEqual([lastName, `${lastName}-C`]);
});
