/** Small pieces the reminder screens share: the due date (overdue in red) and the status chip. */
import { Chip, Typography } from '@mui/material';
import { useLocale, useTranslate } from 'react-admin';
import { formatDate } from '../../i18n/format.ts';
import { enumKey } from '../../schema/labels.ts';
import { isOverdue, type Reminder, shortTime } from './model.ts';

/** The due date and time; an overdue one in red. */
export function DueCell({ record }: { record: Reminder }) {
  const locale = useLocale();
  const overdue = isOverdue(record);
  return (
    <Typography
      variant="body2"
      component="span"
      color={overdue ? 'error' : undefined}
      fontWeight={overdue ? 600 : undefined}
      sx={{ whiteSpace: 'nowrap' }}
      data-overdue={overdue ? 'true' : 'false'}
    >
      {formatDate(record.dueDate, locale)}
      {record.time ? ` ${shortTime(record.time)}` : ''}
    </Typography>
  );
}

export function StatusChip({ status }: { status: string | null | undefined }) {
  const translate = useTranslate();
  const value = status ?? 'open';
  return (
    <Chip
      size="small"
      variant={value === 'open' ? 'filled' : 'outlined'}
      color={value === 'open' ? 'primary' : value === 'resolved' ? 'success' : 'default'}
      label={translate(enumKey('reminderStatus', value))}
    />
  );
}
