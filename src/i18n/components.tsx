/**
 * Date and number fields and inputs in the user's language (./format.ts): react-admin fields that
 * show 'MMM D, YYYY' dates and Swiss numbers, and date inputs built on MUI X date pickers (dayjs,
 * weeks starting on Monday, typing 'DD.MM.YYYY') that keep the server's 'YYYY-MM-DD' (or ISO 8601
 * for a timestamp) in the form. The generic views use them (src/resources/fields.tsx, inputs.tsx).
 *
 * The pickers (MUI X, the heaviest part of the forms) are in ./pickers.tsx and load with the first
 * date input that renders: a list or a page without one does not download them.
 */
import { Box, Typography } from '@mui/material';
import { lazy, type ReactNode, Suspense } from 'react';
import { useFieldValue, useLocale, type Validator } from 'react-admin';
import { formatChf, formatDate, formatDateTime, formatNumber } from './format.ts';

// ---------------------------------------------------------------------------------------------
// Fields (list and show)

interface DisplayFieldProps {
  source: string;
  /** Translation key of the label (read by react-admin's lists and show layouts). */
  label?: string;
  sortable?: boolean;
  textAlign?: 'left' | 'right';
  emptyText?: string;
}

function Text({ children, align }: { children: ReactNode; align?: 'left' | 'right' }) {
  return (
    <Typography
      component="span"
      variant="body2"
      sx={align === 'right' ? { fontVariantNumeric: 'tabular-nums' } : undefined}
    >
      {children}
    </Typography>
  );
}

/** A date ('YYYY-MM-DD') or a timestamp as 'MMM D, YYYY' [HH:mm] in the chosen language. */
export function LocalizedDateField({
  showTime = false,
  ...props
}: DisplayFieldProps & { showTime?: boolean }) {
  const value = useFieldValue(props);
  const language = useLocale();
  const text = showTime ? formatDateTime(value, language) : formatDate(value, language);
  return <Text>{text || props.emptyText || ''}</Text>;
}

/** A number in the Swiss style (1'234.5), or an amount in CHF (CHF 1'234.50). */
export function SwissNumberField({ chf = false, ...props }: DisplayFieldProps & { chf?: boolean }) {
  const value = useFieldValue(props);
  const text = chf ? formatChf(value) : formatNumber(value);
  return <Text align="right">{text || props.emptyText || ''}</Text>;
}

// ---------------------------------------------------------------------------------------------
// Inputs

/**
 * What the form holds while the typed text is not a date (refused by the validator): an object, so
 * that no rule comparing date strings mistakes it for a date.
 */
export interface InvalidDate {
  invalidDate: string;
}
export const isInvalidDate = (value: unknown): value is InvalidDate =>
  typeof value === 'object' && value !== null && 'invalidDate' in value;
export const invalidDate = (text: string): InvalidDate => ({ invalidDate: text });

export interface LocalizedDateInputProps {
  source: string;
  label?: string | false;
  validate?: Validator | Validator[];
  defaultValue?: unknown;
  helperText?: string | false;
  disabled?: boolean;
  readOnly?: boolean;
  fullWidth?: boolean;
  className?: string;
  resource?: string;
  /** With a time: the form holds an ISO 8601 timestamp. */
  showTime?: boolean;
  /**
   * A date whose form value is a timestamp (filters of timestamp fields): the start of the
   * chosen day, ISO 8601.
   */
  startOfDayTimestamp?: boolean;
  /** In list filters: an unfinished date is no filter (not an error). */
  alwaysOn?: boolean;
  isFilter?: boolean;
}

const Picker = lazy(() =>
  import('./pickers.tsx').then((module) => ({ default: module.LocalizedDateInput })),
);

/** Where the input will be while the pickers load: its size, so nothing moves. */
function PickerPlaceholder({ fullWidth }: { fullWidth?: boolean }) {
  return (
    <Box
      aria-busy="true"
      sx={{ height: 48, mt: 1, mb: 0.5, width: fullWidth ? '100%' : 240, maxWidth: '100%' }}
    />
  );
}

/** A date (or date and time) input: MUI X picker, Swiss typing, the server's format in the form. */
export function LocalizedDateInput(props: LocalizedDateInputProps) {
  return (
    <Suspense fallback={<PickerPlaceholder fullWidth={props.fullWidth} />}>
      <Picker {...props} />
    </Suspense>
  );
}
