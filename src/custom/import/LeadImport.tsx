/**
 * CSV import of leads (back office and call centre; admin path `leads/import`): the import screen
 * for leads — the lead source chosen with the file (a lead needs one, unless a column holds it),
 * people on the blacklist refused in the check, open leads as likely duplicates (skip or import),
 * the imported leads on top of New Leads.
 */
import { LEAD_IMPORT } from './config.ts';
import { ImportPage } from './ImportPage.tsx';

export default function LeadImport() {
  return <ImportPage config={LEAD_IMPORT} />;
}
