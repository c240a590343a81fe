/**
 * The reminders tab of a customer (spec §2 customers/{id}?tab=reminders): all the customer's
 * reminders the user may see, every status, open ones first by due date; each links to its page and
 * offers its one-click moves; "add reminder" opens the form with the customer filled in.
 */
import AddIcon from '@mui/icons-material/Add';
import { Link, TableCell, TableRow } from '@mui/material';
import {
  Button,
  RecordContextProvider,
  ReferenceField,
  useGetList,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import type { ApiRecord } from '../../resources/records.ts';
import { enumKey, fieldLabelKey } from '../../schema/labels.ts';
import { resourceHref } from '../../shell/paths.ts';
import { useArea } from '../../shell/area.ts';
import { ReminderActions } from './ReminderActions.tsx';
import type { Reminder } from './model.ts';
import { DueCell, StatusChip } from './parts.tsx';
import { CustomerTabTable } from '../customers/CustomerTabTable.tsx';

const STATUS_ORDER: Record<string, number> = { open: 0, resolved: 1, cancelled: 1 };

/** Open first (oldest due first), then the closed ones (newest due first). */
export function orderForTab(reminders: readonly Reminder[]): Reminder[] {
  return [...reminders].sort((a, b) => {
    const byStatus =
      (STATUS_ORDER[a.status ?? 'open'] ?? 3) - (STATUS_ORDER[b.status ?? 'open'] ?? 3);
    if (byStatus !== 0) return byStatus;
    const byDue = a.dueDate.localeCompare(b.dueDate);
    return (a.status ?? 'open') === 'open' ? byDue : -byDue;
  });
}

export function CustomerRemindersTab() {
  const customer = useRecordContext<ApiRecord<'customers'>>();
  const translate = useTranslate();
  const area = useArea();
  const navigate = useNavigate();
  const {
    data = [],
    total,
    isPending,
  } = useGetList<Reminder>(
    'reminders',
    {
      filter: { clientId: customer?.id },
      pagination: { page: 1, perPage: 200 },
      sort: { field: 'dueDate', order: 'ASC' },
    },
    { enabled: Boolean(customer) },
  );
  if (!customer) return null;
  const create = resourceHref(area, 'reminders', 'create');
  const column = (name: string) => translate(fieldLabelKey('reminders', name));
  return (
    <CustomerTabTable
      testId="customer-reminders"
      title={translate('app.customers.tabs.reminders')}
      total={total}
      isPending={isPending}
      empty={data.length === 0}
      emptyText={translate('app.reminders.noneForCustomer')}
      actions={
        <>
          {create ? (
            <Button
              label="app.reminders.add"
              onClick={() => navigate(`${create}?clientId=${customer.id}`)}
              data-testid="customer-reminder-new"
            >
              <AddIcon />
            </Button>
          ) : null}
        </>
      }
      head={
        <>
          <TableCell>{column('subject')}</TableCell>
          <TableCell>{column('dueDate')}</TableCell>
          <TableCell>{column('category')}</TableCell>
          <TableCell>{column('userId')}</TableCell>
          <TableCell>{column('status')}</TableCell>
          <TableCell />
        </>
      }
    >
      {orderForTab(data).map((reminder) => (
        <RecordContextProvider key={reminder.id} value={reminder}>
          <TableRow hover data-testid={`customer-reminder-${reminder.id}`}>
            <TableCell>
              <Link
                component={RouterLink}
                to={resourceHref(area, 'reminders', 'show', reminder.id) ?? '#'}
              >
                {reminder.subject}
              </Link>
            </TableCell>
            <TableCell>
              <DueCell record={reminder} />
            </TableCell>
            <TableCell>
              {reminder.category ? translate(enumKey('reminderCategory', reminder.category)) : ''}
            </TableCell>
            <TableCell>
              {reminder.userId ? (
                <ReferenceField source="userId" reference="users" link={false} />
              ) : null}
            </TableCell>
            <TableCell>
              <StatusChip status={reminder.status} />
            </TableCell>
            <TableCell align="right">
              <ReminderActions record={reminder} compact />
            </TableCell>
          </TableRow>
        </RecordContextProvider>
      ))}
    </CustomerTabTable>
  );
}
