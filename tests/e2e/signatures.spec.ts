/**
 * Online signatures (issue 19) end to end: a consultant sends a PDF broker mandate of a customer
 * for signing from the documents tab (French, a link shown once); the customer opens the link on
 * a phone-sized touch screen without an account, reads the document drawn in the page, is stopped
 * when signing an empty pad, draws a signature with the finger, confirms — and sees the thanks,
 * dates in the English form as French requires (spec §1). The same link then shows only that it
 * was used. The consultant sees the request signed and opens the signed version: the pages are
 * drawn, the last one with the signature in ink (its pixels are counted). A guessed link shows
 * a clear message and nothing of any document.
 */
import { expect, type Page, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { apiData, expectAccessible, login, shot, tokenOf } from './helpers.ts';

const CONSULTANT = 'consultant@demo.gscrm.ch';
type Row = Record<string, unknown>;
const PHONE =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36';

test.describe.configure({ mode: 'serial' });

async function mandatePdf(name: string): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const page = document.addPage([595.28, 841.89]);
  page.drawText('Mandat de courtage', { x: 56, y: 780, size: 20, font });
  page.drawText(`Client : ${name}`, { x: 56, y: 740, size: 12, font });
  page.drawText('Le client charge GS Courtiers en assurances de gérer ses assurances.', {
    x: 56,
    y: 710,
    size: 11,
    font,
  });
  return Buffer.from(await document.save());
}

/** Draws with a finger: touch events through the browser's input layer (pointerType touch). */
async function drawWithFinger(page: Page, testId: string) {
  const box = await page.getByTestId(testId).boundingBox();
  if (!box) throw new Error('no pad');
  const cdp = await page.context().newCDPSession(page);
  const strokes = [
    Array.from({ length: 24 }, (_, i) => [
      box.x + 30 + i * 9,
      box.y + box.height / 2 + Math.sin(i / 2.5) * 35,
    ]),
    Array.from({ length: 14 }, (_, i) => [box.x + 250 + i * 6, box.y + 60 + i * 4]),
  ];
  for (const stroke of strokes) {
    const [first, ...rest] = stroke;
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchStart',
      touchPoints: [{ x: first![0]!, y: first![1]! }],
    });
    for (const [x, y] of rest)
      await cdp.send('Input.dispatchTouchEvent', {
        type: 'touchMove',
        touchPoints: [{ x: x!, y: y! }],
      });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }
  await cdp.detach();
}

/** The dark-blue ink pixels of an image in the page (the stamped signature's colour). */
async function inkPixels(page: Page, selector: string): Promise<number> {
  return page.locator(selector).evaluate(async (element) => {
    const image = element as HTMLImageElement;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    let ink = 0;
    for (let i = 0; i < data.length; i += 4)
      if (data[i + 2]! > 70 && data[i]! < 60 && data[i + 1]! < 90 && data[i + 2]! > data[i]! + 40)
        ink += 1;
    return ink;
  });
}

test('a broker mandate is sent, signed in French on a phone, and its signed version shows the signature', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  // Its own name per attempt: a retry must not find the first attempt's document too.
  const documentName = `Mandat de courtage E2E ${Date.now()}`;
  const token = await tokenOf(request, CONSULTANT);
  const customers = await apiData<Row[]>(
    request,
    token,
    'GET',
    'customers?is_company=false&per_page=3&sort=id&order=DESC',
  );
  const customer = customers[0]!;
  const name = `${String(customer.first_name)} ${String(customer.last_name)}`;
  const upload = await request.post(`/api/customers/${String(customer.id)}/documents`, {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      document_name: documentName,
      document_type: 'mandate',
      file: { name: 'mandat.pdf', mimeType: 'application/pdf', buffer: await mandatePdf(name) },
    },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const document = ((await upload.json()) as { data: Row }).data;

  // The consultant sends it from the documents tab.
  await page.setViewportSize({ width: 1366, height: 768 });
  await login(page, CONSULTANT);
  await page.goto(`/consultant/customers/${String(customer.id)}?tab=documents`);
  const row = page.getByTestId('documents-table').locator('tr', { hasText: documentName });
  await row.getByTestId('document-request-signature').click();
  await expect(page.getByTestId('signature-signer')).toHaveValue(name);
  await page.getByTestId('signature-email').fill('e2e.signer@example.ch');
  await page
    .getByTestId('signature-language')
    .locator('xpath=..')
    .locator('[role=combobox]')
    .click();
  await page.locator('[role=option][data-value="fr"]').click();
  await shot(page, 'signature-request-dialog');
  await page.getByTestId('signature-send').click();
  await expect(page.getByTestId('signature-created')).toBeVisible();
  const link = await page.getByTestId('signature-link').inputValue();
  expect(link).toMatch(/\/attach-signatures\/\d+\?lang=fr&token=[\w-]{40,}$/);
  await shot(page, 'signature-request-created');
  // The link takes the focus from the send button it replaces, so Escape reaches the dialog.
  await expect(page.getByTestId('signature-link')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('signature-requests')).toContainText(documentName);

  // The customer, on a phone, without an account.
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    deviceScaleFactor: 2,
    userAgent: PHONE,
  });
  const signer = await phone.newPage();
  await signer.goto(link);
  await expect(signer.getByRole('heading', { name: 'Signer un document' })).toBeVisible();
  await expect(signer.getByTestId('signing-intro')).toContainText(documentName);
  await expect(signer.getByTestId('signing-document').getByTestId('pdf-page')).toHaveCount(1);
  await expect(signer.getByTestId('signing-name')).toHaveValue(name);
  await expectAccessible(signer);
  await signer.getByTestId('signing-place').fill('Lausanne');
  // French dates in the English form (spec §1).
  await expect(signer.getByTestId('signing-date')).toHaveValue(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  await signer.getByTestId('signing-consent').check();
  await signer.getByTestId('signing-submit').click();
  await expect(signer.getByTestId('signature-error')).toHaveText(
    'Veuillez signer dans le champ : il est encore vide.',
  );
  await signer.getByTestId('signature-pad').scrollIntoViewIfNeeded();
  await drawWithFinger(signer, 'signature-pad');
  await expect(signer.getByTestId('signature-error')).not.toContainText('Veuillez');
  await shot(signer, 'signature-phone-signed-pad');
  await signer.getByTestId('signing-submit').click();
  await expect(signer.getByTestId('signing-done')).toContainText('Merci');
  await expect(signer.getByTestId('signing-done')).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);
  await shot(signer, 'signature-phone-done');

  // The link works once: opened again, it says so and shows nothing of the document.
  await signer.goto(link);
  await expect(signer.getByTestId('signing-problem')).toContainText('déjà été signé');
  await expect(signer.getByTestId('signing-document')).toHaveCount(0);
  await expect(signer.getByText(documentName)).toHaveCount(0);
  await phone.close();

  // The consultant sees it signed and opens the signed version.
  await page.reload();
  const signedRow = page.getByTestId('signature-requests').locator('tr', { hasText: documentName });
  await expect(signedRow.getByTestId('signature-status')).toHaveAttribute('data-status', 'signed');
  await expect(
    page.getByTestId('documents-table').getByTestId('signed-version-of').first(),
  ).toContainText(documentName);
  await signedRow.getByTestId('signature-view-signed').click();
  const preview = page.getByTestId('document-preview');
  await expect(preview.getByTestId('pdf-page')).toHaveCount(2);
  await preview
    .getByTestId('pdf-page')
    .last()
    .evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await shot(page, 'signature-signed-version');
  expect(
    await inkPixels(page, '[data-testid=document-preview] [data-testid=pdf-page] >> nth=1'),
  ).toBeGreaterThan(300);

  const requests = await apiData<Row[]>(
    request,
    token,
    'GET',
    `signature-requests?document_id=${String(document.id)}`,
  );
  expect(requests[0]!.status).toBe('signed');
  expect(requests[0]!.signed_place).toBe('Lausanne');
  // Who signed from where: the phone's browser, recorded with the signing.
  expect(requests[0]!.signed_user_agent).toBe(PHONE);
  expect(requests[0]!.signed_ip).toBeTruthy();
});

test('a guessed link shows a clear message and nothing of a document', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/attach-signatures/1?lang=de&token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByTestId('signing-problem')).toContainText('nicht gültig');
  await expect(page.getByTestId('signing-document')).toHaveCount(0);
  await expect(page.getByTestId('signing-intro')).toHaveCount(0);
  await page.goto('/attach-signatures/1?lang=it');
  await expect(page.getByTestId('signing-problem')).toContainText('non è valido');
});
