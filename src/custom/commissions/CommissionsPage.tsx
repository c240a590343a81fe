/**
 * Commissions (admin area, manage-commissions; route `commissions`): everyone's ledger lines —
 * the brokerage's courtage, the people's and the sub-brokers' shares, single payments — with
 * filters by person, period, status, kind, product and insurer, their totals, each line's
 * explain, and "Reverse" (a reversal line with a reason; the ledger is never edited).
 */
import { LineList } from './LineList.tsx';

const NO_FIXED_FILTER = {};

export default function CommissionsPage() {
  return <LineList scope="all" fixed={NO_FIXED_FILTER} title="app.menu.commissions" />;
}
