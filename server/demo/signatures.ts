/**
 * Demo online signatures (issue 19), for the demo consultant's customers: PDFs made here (an
 * advice protocol, a broker mandate, an application — short, plain, in the customer's language)
 * stored as documents on their contracts, and a request for each:
 * - an advice protocol of a health closure still missing one, waiting to be signed (open);
 * - a broker mandate on a closure, signed two days ago from a phone: its signed version is stored
 *   beside the original (stamped as a real signing stamps it), the contract is now managed under
 *   the mandate, and the consultant was notified;
 * - an advice protocol of another health closure, signed yesterday: the closure no longer lacks
 *   its protocol;
 * - an application whose link expired unused.
 * The links' tokens are random and known to nobody: a consultant who wants to try the signing page
 * sends a new request from the documents tab (it shows the link).
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import dayjs from 'dayjs';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { swissToday } from '../../src/schema/swiss-time.ts';
import { hashToken } from '../auth/sessions.ts';
import { BROKER_MANDATE_PRODUCT_ID } from '../contracts/catalogue.ts';
import type { DB } from '../db/index.ts';
import { type ResourceRow, resourceDb } from '../db/resource.ts';
import { wrap, writable } from '../pdf/text.ts';
import { personName, recordSigning, sha256 } from '../signatures/record.ts';
import { stampSignature } from '../signatures/stamp.ts';
import { getStorage, newKey } from '../storage/index.ts';

type Kind = 'advice_protocol' | 'mandate' | 'application';
type Lang = 'de' | 'fr' | 'it' | 'en';

const TEXTS: Record<Lang, Record<Kind, { title: string; body: string[] }> & { sign: string }> = {
  de: {
    advice_protocol: {
      title: 'Beratungsprotokoll Krankenversicherung',
      body: [
        'Gemäss Branchenvereinbarung über die Qualität der Beratung (BGRV) hält dieses Protokoll das Beratungsgespräch fest.',
        'Besprochen: Bedarf, bisherige Versicherung, Franchise und Versicherungsmodell, Zusatzversicherungen, Gesundheitsfragen.',
        'Die Kundin / der Kunde bestätigt, die Informationen zur Entschädigung des Brokers (Art. 45b VAG) erhalten zu haben.',
      ],
    },
    mandate: {
      title: 'Maklermandat',
      body: [
        'Die Kundin / der Kunde beauftragt GS Versicherungsbroker, ihre / seine Versicherungen zu verwalten, zu überprüfen und bei Bedarf neu auszuschreiben.',
        'Das Mandat umfasst die Beratung, den Verkehr mit den Versicherern und die Unterstützung im Schadenfall. Es kann jederzeit schriftlich widerrufen werden.',
        'GS Versicherungsbroker wird von den Versicherern entschädigt; Art und Höhe der Entschädigung sind im Anhang offengelegt (Art. 45b VAG).',
      ],
    },
    application: {
      title: 'Versicherungsantrag',
      body: [
        'Die antragstellende Person beantragt den Abschluss der im Anhang beschriebenen Versicherung.',
        'Sie bestätigt, die Fragen vollständig und wahrheitsgetreu beantwortet zu haben, und hat die Allgemeinen Versicherungsbedingungen erhalten.',
      ],
    },
    sign: 'Ort, Datum und Unterschrift',
  },
  fr: {
    advice_protocol: {
      title: 'Protocole de conseil assurance maladie',
      body: [
        'Conformément à la convention de branche sur la qualité du conseil, ce protocole consigne l’entretien de conseil.',
        'Points abordés : besoins, assurance actuelle, franchise et modèle d’assurance, assurances complémentaires, questions de santé.',
        'Le client confirme avoir reçu les informations sur la rémunération du courtier (art. 45b LSA).',
      ],
    },
    mandate: {
      title: 'Mandat de courtage',
      body: [
        'Le client charge GS Courtiers en assurances de gérer et vérifier ses assurances et, au besoin, de les remettre en concurrence.',
        'Le mandat comprend le conseil, les relations avec les assureurs et l’assistance en cas de sinistre. Il peut être révoqué par écrit en tout temps.',
        'GS Courtiers en assurances est rémunéré par les assureurs ; la nature et le montant de la rémunération figurent en annexe (art. 45b LSA).',
      ],
    },
    application: {
      title: 'Proposition d’assurance',
      body: [
        'Le proposant demande la conclusion de l’assurance décrite en annexe.',
        'Il confirme avoir répondu aux questions de manière complète et véridique et avoir reçu les conditions générales.',
      ],
    },
    sign: 'Lieu, date et signature',
  },
  it: {
    advice_protocol: {
      title: 'Protocollo di consulenza assicurazione malattia',
      body: [
        'Secondo la convenzione di settore sulla qualità della consulenza, questo protocollo registra il colloquio di consulenza.',
        'Argomenti: bisogni, assicurazione attuale, franchigia e modello, assicurazioni complementari, domande sulla salute.',
        'Il cliente conferma di aver ricevuto le informazioni sulla retribuzione del broker (art. 45b LSA).',
      ],
    },
    mandate: {
      title: 'Mandato di brokeraggio',
      body: [
        'Il cliente incarica GS Broker assicurativi di gestire e verificare le sue assicurazioni e, se necessario, di rimetterle in concorrenza.',
        'Il mandato comprende la consulenza, i rapporti con gli assicuratori e l’assistenza in caso di sinistro. Può essere revocato per iscritto in ogni momento.',
      ],
    },
    application: {
      title: 'Proposta d’assicurazione',
      body: [
        'Il proponente chiede la conclusione dell’assicurazione descritta nell’allegato.',
        'Conferma di aver risposto alle domande in modo completo e veritiero e di aver ricevuto le condizioni generali.',
      ],
    },
    sign: 'Luogo, data e firma',
  },
  en: {
    advice_protocol: {
      title: 'Health insurance advice protocol',
      body: [
        'As the industry agreement on the quality of advice requires, this protocol records the advice given.',
        'Discussed: needs, current insurance, deductible and insurance model, supplementary insurance, health questions.',
        'The customer confirms having received the information on the broker’s compensation (Art. 45b VAG).',
      ],
    },
    mandate: {
      title: 'Broker mandate',
      body: [
        'The customer instructs GS Insurance Brokers to manage and review their insurance and, where useful, to put it out to tender.',
        'The mandate covers advice, dealings with insurers and help with claims. It may be revoked in writing at any time.',
      ],
    },
    application: {
      title: 'Insurance application',
      body: [
        'The applicant applies for the insurance described in the annex.',
        'They confirm having answered the questions completely and truthfully and having received the general terms.',
      ],
    },
    sign: 'Place, date and signature',
  },
};

/** A one-page PDF of the kind for the customer (and contract number). */
async function demoPdf(kind: Kind, language: Lang, customer: ResourceRow, contract?: string) {
  const texts = TEXTS[language];
  const { title, body } = texts[kind];
  const document = await PDFDocument.create();
  document.setTitle(title);
  document.setCreator('GS CRM demo');
  const regular = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  const page = document.addPage([595.28, 841.89]);
  let y = 790;
  const line = (text: string, size = 11, font = regular, gap = 6) => {
    for (const part of wrap(font, writable(font, text), 480, size)) {
      page.drawText(part, { x: 56, y, size, font });
      y -= size + gap;
    }
  };
  page.drawText('GS', { x: 56, y: 800, size: 22, font: bold, color: rgb(0.1, 0.3, 0.6) });
  y = 750;
  line(title, 18, bold, 12);
  line(personName(customer), 12, bold);
  line(
    [customer.street, [customer.zip, customer.city].filter(Boolean).join(' ')]
      .filter(Boolean)
      .join(', '),
  );
  if (contract) line(contract, 10);
  y -= 16;
  for (const paragraph of body) {
    line(paragraph);
    y -= 8;
  }
  y -= 60;
  page.drawLine({ start: { x: 56, y }, end: { x: 330, y }, thickness: 0.7 });
  y -= 14;
  line(texts.sign, 9);
  return Buffer.from(await document.save());
}

/** A signature as a finger draws one: two strokes of a flowing name. */
function demoStrokes(): number[][] {
  const first: number[] = [];
  for (let x = 30; x <= 210; x += 6)
    first.push(x, 95 - 35 * Math.sin(x / 18) * Math.exp(-(x - 30) / 260));
  const second: number[] = [];
  for (let x = 220; x <= 380; x += 6) second.push(x, 90 - 20 * Math.sin(x / 11) - (x - 220) / 12);
  return [first, second];
}

export async function seedDemoSignatures(db: DB, now: number = Date.now()): Promise<void> {
  const consultant = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'consultant@demo.gscrm.ch')
    .executeTakeFirst();
  if (!consultant) return;
  const contracts = await resourceDb(db)
    .selectFrom('contracts')
    .selectAll()
    .where('contract_type', '=', 'closure')
    .where(
      'customer_id',
      'in',
      db.selectFrom('customers').select('id').where('assigned_to', '=', consultant.id),
    )
    .orderBy('id')
    .execute();
  const customers = new Map<number, ResourceRow>();
  const customerOf = async (id: number) => {
    const known = customers.get(id);
    if (known) return known;
    const row = await resourceDb(db)
      .selectFrom('customers')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    customers.set(id, row);
    return row;
  };
  const used = new Set<number>();
  const pick = (test: (contract: ResourceRow) => boolean) => {
    const found = contracts.find(
      (contract) => !used.has(Number(contract.customer_id)) && test(contract),
    );
    if (found) used.add(Number(found.customer_id));
    return found;
  };
  const missingProtocol = (contract: ResourceRow) => contract.protocol_missing === true;
  const plan: Array<{ kind: Kind; contract?: ResourceRow; state: 'open' | 'signed' | 'expired' }> =
    [
      { kind: 'advice_protocol', contract: pick(missingProtocol), state: 'open' },
      {
        kind: 'mandate',
        contract: pick(
          (contract) =>
            contract.broker_mandate !== true && contract.product_id !== BROKER_MANDATE_PRODUCT_ID,
        ),
        state: 'signed',
      },
      { kind: 'advice_protocol', contract: pick(missingProtocol), state: 'signed' },
      { kind: 'application', contract: pick(() => true), state: 'expired' },
    ];

  const storage = getStorage();
  for (const [index, step] of plan.entries()) {
    if (!step.contract) continue;
    const customer = await customerOf(Number(step.contract.customer_id));
    const correspondence = (customer.correspondence_languages as string[] | null) ?? [];
    const language =
      (['de', 'fr', 'it', 'en'] as const).find((l) => l === correspondence[0]) ?? 'de';
    const bytes = await demoPdf(
      step.kind,
      language,
      customer,
      String(step.contract.contract_number ?? ''),
    );
    const key = newKey('documents', 'pdf');
    await storage.put(key, Readable.from([bytes]));
    const title = TEXTS[language][step.kind].title;
    const sentDay = dayjs(now).subtract(6 - index, 'day');
    const document = await resourceDb(db)
      .insertInto('documents')
      .values({
        customer_id: Number(customer.id),
        contract_id: Number(step.contract.id),
        document_name: title,
        document_type: step.kind,
        document_related_to: 'contract',
        document_file: key,
        original_name: `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.pdf`,
        mime_type: 'application/pdf',
        size_bytes: bytes.length,
        uploaded_by: consultant.id,
        created_at: sentDay.subtract(1, 'hour').toDate(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const request = await resourceDb(db)
      .insertInto('signature_requests')
      .values({
        customer_id: Number(customer.id),
        document_id: Number(document.id),
        contract_id: Number(step.contract.id),
        document_name: title,
        document_type: step.kind,
        signer_name: personName(customer),
        signer_email: customer.email ?? null,
        language,
        status: step.state === 'expired' ? 'expired' : 'open',
        expires_at:
          step.state === 'expired'
            ? sentDay.add(3, 'day').toDate()
            : sentDay.add(14, 'day').toDate(),
        document_hash: sha256(bytes),
        created_by: consultant.id,
        created_at: sentDay.toDate(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await db
      .insertInto('signature_tokens')
      .values({
        request_id: Number(request.id),
        token_hash: hashToken(randomBytes(32).toString('base64url')),
      })
      .execute();
    if (step.state !== 'signed') continue;
    const signedAt = dayjs(now)
      .subtract(index === 1 ? 2 : 1, 'day')
      .hour(18)
      .toDate();
    const facts = {
      name: personName(customer),
      place: String(customer.city ?? 'Zürich'),
      day: swissToday(signedAt),
      signedAt,
      ip: '198.51.100.23',
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    };
    const signed = await stampSignature(bytes, {
      ...facts,
      language,
      documentName: title,
      requestId: Number(request.id),
      documentHash: sha256(bytes),
      signature: { width: 400, height: 150, strokes: demoStrokes() },
    });
    const signedKey = newKey('documents', 'pdf');
    await storage.put(signedKey, Readable.from([Buffer.from(signed)]));
    await recordSigning(db, { ...facts, request, document, signed, key: signedKey });
  }
}
