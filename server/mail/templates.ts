/**
 * The texts of the mails the server sends, in the four languages of the app (de without "ß").
 * `{{name}}` placeholders are filled by `renderMail`; every language has the same placeholders
 * (tests/unit/mail.test.ts checks it).
 */
export const MAIL_LANGUAGES = ['de', 'en', 'fr', 'it'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

export type MailKind =
  | 'password-reset'
  | 'invitation'
  | 'password-changed'
  | 'registration-received'
  | 'registration-exists'
  | 'registration-waiting'
  | 'registration-approved'
  | 'registration-rejected'
  // Notifications (server/notifications/notify.ts): also the in-app notification's title and text.
  | 'reminder-due'
  | 'appointment-assigned'
  | 'feedback-missing'
  | 'feedback-to-lead-source'
  // Leads (server/leads/notify.ts): the assignee's notification, and the lead to its source's
  // "e-mail to" address.
  | 'lead-assigned'
  | 'lead-to-lead-source'
  // Signatures (server/signatures/): the link to the signer, and the notice that it was signed.
  | 'signature-request'
  | 'signature-signed';

interface Text {
  subject: string;
  body: string;
}

export const MAIL_TEMPLATES: Record<MailKind, Record<MailLanguage, Text>> = {
  'password-reset': {
    de: {
      subject: 'GS CRM: Passwort zurücksetzen',
      body: 'Guten Tag {{name}}\n\nSie haben ein neues Passwort für GS CRM angefordert. Öffnen Sie diesen Link innert {{hours}} Stunde(n), um es zu setzen:\n\n{{link}}\n\nDer Link gilt nur einmal. Wenn Sie nichts angefordert haben, können Sie diese Nachricht ignorieren; Ihr Passwort bleibt unverändert.\n\nFreundliche Grüsse\nGS CRM',
    },
    en: {
      subject: 'GS CRM: reset your password',
      body: 'Hello {{name}}\n\nYou asked for a new password for GS CRM. Open this link within {{hours}} hour(s) to set it:\n\n{{link}}\n\nThe link works once. If you did not ask for it, ignore this message; your password stays as it is.\n\nKind regards\nGS CRM',
    },
    fr: {
      subject: 'GS CRM : réinitialiser votre mot de passe',
      body: 'Bonjour {{name}}\n\nVous avez demandé un nouveau mot de passe pour GS CRM. Ouvrez ce lien dans les {{hours}} heure(s) pour le définir :\n\n{{link}}\n\nLe lien ne fonctionne qu’une fois. Si vous n’avez rien demandé, ignorez ce message ; votre mot de passe reste inchangé.\n\nMeilleures salutations\nGS CRM',
    },
    it: {
      subject: 'GS CRM: reimpostare la password',
      body: 'Buongiorno {{name}}\n\nHa chiesto una nuova password per GS CRM. Apra questo link entro {{hours}} ora/e per impostarla:\n\n{{link}}\n\nIl link funziona una sola volta. Se non ha chiesto nulla, ignori questo messaggio; la sua password resta invariata.\n\nCordiali saluti\nGS CRM',
    },
  },
  invitation: {
    de: {
      subject: 'GS CRM: Ihr Zugang',
      body: 'Guten Tag {{name}}\n\nFür Sie wurde ein Zugang zu GS CRM eingerichtet (Anmeldung mit {{email}}). Öffnen Sie diesen Link innert {{hours}} Stunden, um Ihr Passwort zu setzen:\n\n{{link}}\n\nFreundliche Grüsse\nGS CRM',
    },
    en: {
      subject: 'GS CRM: your account',
      body: 'Hello {{name}}\n\nAn account for GS CRM has been set up for you (sign in with {{email}}). Open this link within {{hours}} hours to set your password:\n\n{{link}}\n\nKind regards\nGS CRM',
    },
    fr: {
      subject: 'GS CRM : votre accès',
      body: 'Bonjour {{name}}\n\nUn accès à GS CRM a été créé pour vous (connexion avec {{email}}). Ouvrez ce lien dans les {{hours}} heures pour définir votre mot de passe :\n\n{{link}}\n\nMeilleures salutations\nGS CRM',
    },
    it: {
      subject: 'GS CRM: il suo accesso',
      body: 'Buongiorno {{name}}\n\nÈ stato creato per lei un accesso a GS CRM (accesso con {{email}}). Apra questo link entro {{hours}} ore per impostare la password:\n\n{{link}}\n\nCordiali saluti\nGS CRM',
    },
  },
  'password-changed': {
    de: {
      subject: 'GS CRM: Passwort geändert',
      body: 'Guten Tag {{name}}\n\nDas Passwort Ihres GS-CRM-Zugangs wurde soeben geändert; alle anderen Anmeldungen wurden beendet. Wenn Sie das nicht waren, setzen Sie Ihr Passwort sofort zurück und melden Sie sich bei Ihrer Administration.\n\nFreundliche Grüsse\nGS CRM',
    },
    en: {
      subject: 'GS CRM: password changed',
      body: 'Hello {{name}}\n\nThe password of your GS CRM account has just been changed; all other sessions were ended. If this was not you, reset your password at once and contact your administrator.\n\nKind regards\nGS CRM',
    },
    fr: {
      subject: 'GS CRM : mot de passe modifié',
      body: 'Bonjour {{name}}\n\nLe mot de passe de votre accès GS CRM vient d’être modifié ; toutes les autres sessions ont été fermées. Si ce n’était pas vous, réinitialisez immédiatement votre mot de passe et contactez votre administration.\n\nMeilleures salutations\nGS CRM',
    },
    it: {
      subject: 'GS CRM: password modificata',
      body: 'Buongiorno {{name}}\n\nLa password del suo accesso a GS CRM è appena stata modificata; tutte le altre sessioni sono state chiuse. Se non è stato lei, reimposti subito la password e contatti la sua amministrazione.\n\nCordiali saluti\nGS CRM',
    },
  },
  'registration-received': {
    de: {
      subject: 'GS CRM: Registrierung erhalten',
      body: 'Guten Tag {{name}}\n\nWir haben Ihre Registrierung für GS CRM erhalten. Eine Administratorin oder ein Administrator prüft sie; Sie erhalten eine Nachricht, sobald Sie sich anmelden können.\n\nFreundliche Grüsse\nGS CRM',
    },
    en: {
      subject: 'GS CRM: registration received',
      body: 'Hello {{name}}\n\nWe have received your registration for GS CRM. An administrator will review it; you will get a message as soon as you can sign in.\n\nKind regards\nGS CRM',
    },
    fr: {
      subject: 'GS CRM : inscription reçue',
      body: 'Bonjour {{name}}\n\nNous avons reçu votre inscription à GS CRM. Un administrateur va l’examiner ; vous recevrez un message dès que vous pourrez vous connecter.\n\nMeilleures salutations\nGS CRM',
    },
    it: {
      subject: 'GS CRM: registrazione ricevuta',
      body: 'Buongiorno {{name}}\n\nAbbiamo ricevuto la sua registrazione a GS CRM. Un amministratore la esaminerà; riceverà un messaggio non appena potrà accedere.\n\nCordiali saluti\nGS CRM',
    },
  },
  'registration-exists': {
    de: {
      subject: 'GS CRM: Registrierung',
      body: 'Guten Tag\n\nJemand hat versucht, mit dieser E-Mail-Adresse ein Konto bei GS CRM zu registrieren. Für diese Adresse besteht bereits ein Konto. Falls Sie Ihr Passwort vergessen haben, können Sie es hier zurücksetzen:\n\n{{link}}\n\nFreundliche Grüsse\nGS CRM',
    },
    en: {
      subject: 'GS CRM: registration',
      body: 'Hello\n\nSomeone tried to register an account for GS CRM with this email address. There already is an account for it. If you forgot your password, you can reset it here:\n\n{{link}}\n\nKind regards\nGS CRM',
    },
    fr: {
      subject: 'GS CRM : inscription',
      body: 'Bonjour\n\nQuelqu’un a essayé d’inscrire un compte GS CRM avec cette adresse e-mail. Un compte existe déjà pour cette adresse. Si vous avez oublié votre mot de passe, vous pouvez le réinitialiser ici :\n\n{{link}}\n\nMeilleures salutations\nGS CRM',
    },
    it: {
      subject: 'GS CRM: registrazione',
      body: 'Buongiorno\n\nQualcuno ha cercato di registrare un account GS CRM con questo indirizzo e-mail. Per questo indirizzo esiste già un account. Se ha dimenticato la password, può reimpostarla qui:\n\n{{link}}\n\nCordiali saluti\nGS CRM',
    },
  },
  'registration-waiting': {
    de: {
      subject: 'GS CRM: neue Registrierung von {{email}}',
      body: 'Guten Tag {{name}}\n\n{{applicant}} ({{email}}) hat sich bei GS CRM registriert und wartet auf Freigabe. Prüfen Sie die Registrierung unter:\n\n{{link}}\n\nGS CRM',
    },
    en: {
      subject: 'GS CRM: new registration from {{email}}',
      body: 'Hello {{name}}\n\n{{applicant}} ({{email}}) registered for GS CRM and is waiting for approval. Review the registration at:\n\n{{link}}\n\nGS CRM',
    },
    fr: {
      subject: 'GS CRM : nouvelle inscription de {{email}}',
      body: 'Bonjour {{name}}\n\n{{applicant}} ({{email}}) s’est inscrit·e à GS CRM et attend une validation. Examinez l’inscription ici :\n\n{{link}}\n\nGS CRM',
    },
    it: {
      subject: 'GS CRM: nuova registrazione di {{email}}',
      body: 'Buongiorno {{name}}\n\n{{applicant}} ({{email}}) si è registrato/a a GS CRM e attende l’approvazione. Esamini la registrazione qui:\n\n{{link}}\n\nGS CRM',
    },
  },
  'registration-approved': {
    de: {
      subject: 'GS CRM: Zugang freigegeben',
      body: 'Guten Tag {{name}}\n\nIhre Registrierung für GS CRM wurde freigegeben. Sie können sich jetzt anmelden:\n\n{{link}}\n\nFreundliche Grüsse\nGS CRM',
    },
    en: {
      subject: 'GS CRM: account approved',
      body: 'Hello {{name}}\n\nYour registration for GS CRM has been approved. You can sign in now:\n\n{{link}}\n\nKind regards\nGS CRM',
    },
    fr: {
      subject: 'GS CRM : accès validé',
      body: 'Bonjour {{name}}\n\nVotre inscription à GS CRM a été validée. Vous pouvez maintenant vous connecter :\n\n{{link}}\n\nMeilleures salutations\nGS CRM',
    },
    it: {
      subject: 'GS CRM: accesso approvato',
      body: 'Buongiorno {{name}}\n\nLa sua registrazione a GS CRM è stata approvata. Ora può accedere:\n\n{{link}}\n\nCordiali saluti\nGS CRM',
    },
  },
  'registration-rejected': {
    de: {
      subject: 'GS CRM: Registrierung abgelehnt',
      body: 'Guten Tag {{name}}\n\nIhre Registrierung für GS CRM wurde nicht freigegeben. Bei Fragen wenden Sie sich bitte an Ihre Ansprechperson.\n\nFreundliche Grüsse\nGS CRM',
    },
    en: {
      subject: 'GS CRM: registration declined',
      body: 'Hello {{name}}\n\nYour registration for GS CRM was not approved. If you have questions, please contact your contact person.\n\nKind regards\nGS CRM',
    },
    fr: {
      subject: 'GS CRM : inscription refusée',
      body: 'Bonjour {{name}}\n\nVotre inscription à GS CRM n’a pas été validée. Pour toute question, veuillez contacter votre interlocuteur.\n\nMeilleures salutations\nGS CRM',
    },
    it: {
      subject: 'GS CRM: registrazione respinta',
      body: 'Buongiorno {{name}}\n\nLa sua registrazione a GS CRM non è stata approvata. Per domande si rivolga alla sua persona di contatto.\n\nCordiali saluti\nGS CRM',
    },
  },

  'reminder-due': {
    de: {
      subject: 'Erinnerung fällig: {{subject}}',
      body: 'Die Erinnerung «{{subject}}» ist am {{due}} fällig.{{customer}}',
    },
    en: {
      subject: 'Reminder due: {{subject}}',
      body: 'The reminder “{{subject}}” is due on {{due}}.{{customer}}',
    },
    fr: {
      subject: 'Rappel échu : {{subject}}',
      body: 'Le rappel « {{subject}} » est échu le {{due}}.{{customer}}',
    },
    it: {
      subject: 'Promemoria in scadenza: {{subject}}',
      body: 'Il promemoria «{{subject}}» scade il {{due}}.{{customer}}',
    },
  },
  'appointment-assigned': {
    de: {
      subject: 'Neuer Termin am {{when}}',
      body: 'Ihnen wurde ein Termin zugewiesen: {{when}} mit {{customer}}, {{place}}.',
    },
    en: {
      subject: 'New appointment on {{when}}',
      body: 'An appointment was assigned to you: {{when}} with {{customer}}, {{place}}.',
    },
    fr: {
      subject: 'Nouveau rendez-vous le {{when}}',
      body: 'Un rendez-vous vous a été attribué : {{when}} avec {{customer}}, {{place}}.',
    },
    it: {
      subject: 'Nuovo appuntamento il {{when}}',
      body: 'Le è stato assegnato un appuntamento: {{when}} con {{customer}}, {{place}}.',
    },
  },
  'feedback-missing': {
    de: {
      subject: 'Feedback fehlt: Termin vom {{when}}',
      body: 'Zum Termin vom {{when}} mit {{customer}} fehlt noch das Feedback.',
    },
    en: {
      subject: 'Feedback missing: appointment of {{when}}',
      body: 'The appointment of {{when}} with {{customer}} still has no feedback.',
    },
    fr: {
      subject: 'Feedback manquant : rendez-vous du {{when}}',
      body: 'Le rendez-vous du {{when}} avec {{customer}} n’a pas encore de feedback.',
    },
    it: {
      subject: 'Feedback mancante: appuntamento del {{when}}',
      body: 'L’appuntamento del {{when}} con {{customer}} non ha ancora un feedback.',
    },
  },
  'lead-assigned': {
    de: {
      subject: 'Neuer Lead für Sie: {{lead}}',
      body: 'Ihnen wurde ein Lead zugewiesen: {{lead}} (Quelle: {{source}}).',
    },
    en: {
      subject: 'New lead for you: {{lead}}',
      body: 'A lead was assigned to you: {{lead}} (source: {{source}}).',
    },
    fr: {
      subject: 'Nouveau lead pour vous : {{lead}}',
      body: 'Un lead vous a été attribué : {{lead}} (source : {{source}}).',
    },
    it: {
      subject: 'Nuovo lead per lei: {{lead}}',
      body: 'Le è stato assegnato un lead: {{lead}} (fonte: {{source}}).',
    },
  },
  'lead-to-lead-source': {
    de: {
      subject: 'GS CRM: Lead {{lead}} ({{event}})',
      body: 'Lead: {{lead}}\nQuelle: {{source}}\nE-Mail: {{email}}\nTelefon: {{phone}}\nAdresse: {{address}}\nZugewiesen an: {{assignee}}\nStatus: {{status}}\nNotizen: {{notes}}\n\nFreundliche Grüsse\nGS CRM',
    },
    en: {
      subject: 'GS CRM: lead {{lead}} ({{event}})',
      body: 'Lead: {{lead}}\nSource: {{source}}\nE-mail: {{email}}\nPhone: {{phone}}\nAddress: {{address}}\nAssigned to: {{assignee}}\nStatus: {{status}}\nNotes: {{notes}}\n\nKind regards\nGS CRM',
    },
    fr: {
      subject: 'GS CRM : lead {{lead}} ({{event}})',
      body: 'Lead : {{lead}}\nSource : {{source}}\nE-mail : {{email}}\nTéléphone : {{phone}}\nAdresse : {{address}}\nAttribué à : {{assignee}}\nStatut : {{status}}\nNotes : {{notes}}\n\nMeilleures salutations\nGS CRM',
    },
    it: {
      subject: 'GS CRM: lead {{lead}} ({{event}})',
      body: 'Lead: {{lead}}\nFonte: {{source}}\nE-mail: {{email}}\nTelefono: {{phone}}\nIndirizzo: {{address}}\nAssegnato a: {{assignee}}\nStato: {{status}}\nNote: {{notes}}\n\nCordiali saluti\nGS CRM',
    },
  },
  'feedback-to-lead-source': {
    de: {
      subject: 'Feedback zum Termin vom {{when}}',
      body: 'Guten Tag\n\nFeedback zum Termin vom {{when}} mit {{customer}} (Lead-Quelle {{source}}):\n\nStatus: {{status}}\n{{note}}\n\nFreundliche Grüsse\nGS CRM',
    },
    en: {
      subject: 'Feedback on the appointment of {{when}}',
      body: 'Hello\n\nFeedback on the appointment of {{when}} with {{customer}} (lead source {{source}}):\n\nStatus: {{status}}\n{{note}}\n\nKind regards\nGS CRM',
    },
    fr: {
      subject: 'Feedback sur le rendez-vous du {{when}}',
      body: 'Bonjour\n\nFeedback sur le rendez-vous du {{when}} avec {{customer}} (source de leads {{source}}) :\n\nStatut : {{status}}\n{{note}}\n\nMeilleures salutations\nGS CRM',
    },
    it: {
      subject: 'Feedback sull’appuntamento del {{when}}',
      body: 'Buongiorno\n\nFeedback sull’appuntamento del {{when}} con {{customer}} (fonte di lead {{source}}):\n\nStato: {{status}}\n{{note}}\n\nCordiali saluti\nGS CRM',
    },
  },
  'signature-request': {
    de: {
      subject: 'Bitte unterschreiben: {{document}}',
      body: 'Guten Tag {{name}}\n\n{{sender}} bittet Sie, das Dokument «{{document}}» online zu unterschreiben. Öffnen Sie dazu diesen Link (gültig bis {{date}}, nur einmal verwendbar):\n\n{{link}}\n\nSie sehen das Dokument, unterschreiben mit dem Finger oder der Maus und bestätigen. Bei Fragen wenden Sie sich an {{sender}}.\n\nFreundliche Grüsse\nGS CRM',
    },
    en: {
      subject: 'Please sign: {{document}}',
      body: 'Hello {{name}}\n\n{{sender}} asks you to sign the document "{{document}}" online. Open this link (valid until {{date}}, usable once):\n\n{{link}}\n\nYou will see the document, sign with your finger or the mouse and confirm. If you have questions, contact {{sender}}.\n\nKind regards\nGS CRM',
    },
    fr: {
      subject: 'Merci de signer : {{document}}',
      body: 'Bonjour {{name}}\n\n{{sender}} vous prie de signer en ligne le document « {{document}} ». Ouvrez ce lien (valable jusqu’au {{date}}, utilisable une seule fois) :\n\n{{link}}\n\nVous verrez le document, signerez avec le doigt ou la souris et confirmerez. Pour toute question, adressez-vous à {{sender}}.\n\nMeilleures salutations\nGS CRM',
    },
    it: {
      subject: 'Da firmare: {{document}}',
      body: 'Buongiorno {{name}}\n\n{{sender}} le chiede di firmare online il documento «{{document}}». Apra questo link (valido fino al {{date}}, utilizzabile una sola volta):\n\n{{link}}\n\nVedrà il documento, firmerà con il dito o il mouse e confermerà. Per domande si rivolga a {{sender}}.\n\nCordiali saluti\nGS CRM',
    },
  },
  'signature-signed': {
    de: {
      subject: 'Unterschrieben: {{document}}',
      body: '{{signer}} hat «{{document}}» von {{customer}} online unterschrieben ({{place}}). Die unterschriebene Fassung liegt bei den Dokumenten.',
    },
    en: {
      subject: 'Signed: {{document}}',
      body: '{{signer}} signed "{{document}}" of {{customer}} online ({{place}}). The signed version is with the documents.',
    },
    fr: {
      subject: 'Signé : {{document}}',
      body: '{{signer}} a signé en ligne « {{document}} » de {{customer}} ({{place}}). La version signée se trouve dans les documents.',
    },
    it: {
      subject: 'Firmato: {{document}}',
      body: '{{signer}} ha firmato online «{{document}}» di {{customer}} ({{place}}). La versione firmata è tra i documenti.',
    },
  },
};

export const mailLanguage = (language: unknown): MailLanguage =>
  MAIL_LANGUAGES.includes(language as MailLanguage) ? (language as MailLanguage) : 'de';

/** Subject and body of a mail in a language, placeholders filled (unknown ones left as they are). */
export function renderMail(
  kind: MailKind,
  language: unknown,
  values: Record<string, string | number>,
): Text {
  const text = MAIL_TEMPLATES[kind][mailLanguage(language)];
  const fill = (template: string) =>
    template.replace(/\{\{(\w+)\}\}/g, (match, name: string) =>
      name in values ? String(values[name]) : match,
    );
  return { subject: fill(text.subject), body: fill(text.body) };
}
