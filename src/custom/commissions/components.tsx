/**
 * Pieces the commission screens share: an amount in CHF from centimes (negative in red), the
 * status chip, the month of a line, and the explain steps as sentences in the user's language.
 */
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { Box, Chip, Tooltip, Typography } from '@mui/material';
import { useLocale, useTranslate } from 'react-admin';
import { enumKey } from '../../schema/labels.ts';
import {
  type ExplainStep,
  explainText,
  formatCentimes,
  formatMonth,
  type LineStatus,
  STATUS_COLORS,
} from './model.ts';

/** Centimes as "CHF 1'234.50", right-aligned figures, a negative amount in red. */
export function Amount({
  centimes,
  strong,
  testId,
}: {
  centimes: number | null | undefined;
  strong?: boolean;
  testId?: string;
}) {
  const negative = typeof centimes === 'number' && centimes < 0;
  return (
    <Typography
      component="span"
      variant="body2"
      data-testid={testId}
      data-negative={negative ? 'true' : undefined}
      sx={{
        fontVariantNumeric: 'tabular-nums',
        whiteSpace: 'nowrap',
        fontWeight: strong ? 600 : undefined,
        color: negative ? 'error.main' : undefined,
      }}
    >
      {formatCentimes(centimes)}
    </Typography>
  );
}

export function LineStatusChip({ status }: { status: LineStatus | null | undefined }) {
  const translate = useTranslate();
  if (!status) return null;
  return (
    <Chip
      size="small"
      variant={status === 'reversed' ? 'outlined' : 'filled'}
      color={STATUS_COLORS[status]}
      label={translate(enumKey('commissionLineStatus', status))}
      data-testid="line-status"
      data-status={status}
    />
  );
}

/** A month 'YYYY-MM' as 'Nov 2026'. */
export function Month({ month }: { month: string | null | undefined }) {
  const locale = useLocale();
  return (
    <Typography component="span" variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      {formatMonth(month, locale)}
    </Typography>
  );
}

/** The arithmetic of a line or of the tester's courtage, one numbered sentence per step. */
export function ExplainSteps({
  steps,
  testId = 'line-explain',
}: {
  steps: ExplainStep[] | null | undefined;
  testId?: string;
}) {
  const translate = useTranslate();
  const locale = useLocale();
  if (!steps || steps.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary" data-testid={testId}>
        {translate('app.commissions.noExplain')}
      </Typography>
    );
  }
  return (
    <Box component="ol" sx={{ m: 0, pl: 3 }} data-testid={testId}>
      {steps.map((step, index) => (
        <Typography
          key={`${index}-${step.key}`}
          component="li"
          variant="body2"
          sx={{ py: 0.25, overflowWrap: 'anywhere' }}
        >
          {explainText(step, translate, locale)}
        </Typography>
      ))}
    </Box>
  );
}

/** A courtage above the legal cap (KVG CHF 70 per person, VVG 16 monthly premiums): for review. */
export function CapFlag({ capAmount }: { capAmount: number | null | undefined }) {
  const translate = useTranslate();
  const label =
    typeof capAmount === 'number'
      ? translate('app.commissions.capExceededAt', { cap: formatCentimes(capAmount) })
      : translate('app.commissions.capExceeded');
  return (
    <Tooltip title={translate('app.commissions.capHelp')}>
      <Chip
        size="small"
        color="warning"
        icon={<WarningAmberIcon />}
        label={label}
        data-testid="cap-exceeded"
      />
    </Tooltip>
  );
}
