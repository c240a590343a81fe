/**
 * My commissions (both areas, route `my-commissions`): the signed-in user's ledger lines
 * (GET /api/commission-lines?user_id=<me>; the server keeps everyone to their own lines anyway),
 * opening on the lines ready to be paid out (SPEC §4 default status `ready_present`), page 1
 * (SPEC §9), with the totals of the chosen filters and each line's explain.
 */
import { getStoredUser } from '../../auth/session.ts';
import { LineList } from './LineList.tsx';
import { MY_COMMISSIONS_DEFAULT_STATUS } from './model.ts';

export default function MyCommissionsPage() {
  const me = getStoredUser()?.id;
  return (
    <LineList
      scope="mine"
      fixed={{ userId: me ?? 0 }}
      title="app.menu.myCommissions"
      defaultStatus={MY_COMMISSIONS_DEFAULT_STATUS}
    />
  );
}
