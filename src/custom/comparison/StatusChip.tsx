/** A comparison draft's status as a coloured chip (open, complete, compared, offered). */
import { Chip, type ChipProps } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ComparisonStatus } from '../../schema/comparison.ts';
import { enumKey } from '../../schema/labels.ts';

const COLORS: Record<ComparisonStatus, ChipProps['color']> = {
  open: 'default',
  complete: 'info',
  compared: 'primary',
  offered: 'success',
};

export function StatusChip({ status }: { status: ComparisonStatus }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={COLORS[status] ?? 'default'}
      label={translate(enumKey('comparisonStatus', status))}
      data-testid="fs24-status"
      data-status={status}
    />
  );
}
