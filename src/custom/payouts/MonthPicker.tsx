/**
 * A month ('YYYY-MM', the payouts' period) chosen with the app's MUI X picker (the user's language,
 * Swiss calendars) in its year and month views, typed as 'MM.YYYY': `MonthField` outside a form
 * (dialogs), `MonthInput` as a react-admin (filter) input.
 */
import type { SxProps, Theme } from '@mui/material';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { FieldTitle, InputHelperText, useInput, type Validator } from 'react-admin';
import { PickersProvider } from '../../i18n/pickers.tsx';
import { isMonth } from './model.ts';

const MONTH_FORMAT = 'MM.YYYY';

const toDate = (value: unknown): Dayjs | null => (isMonth(value) ? dayjs(`${value}-01`) : null);

interface MonthPickerProps {
  label: React.ReactNode;
  value: string;
  onChange: (value: string) => void;
  error?: boolean;
  helperText?: React.ReactNode;
  testId?: string;
  variant?: 'outlined' | 'filled';
  sx?: SxProps<Theme>;
}

function MonthPicker({
  label,
  value,
  onChange,
  error,
  helperText,
  testId,
  variant = 'outlined',
  sx,
}: MonthPickerProps) {
  // What the picker shows: the value, or the unfinished month being typed.
  const [shown, setShown] = useState<{ value: string; date: Dayjs | null }>(() => ({
    value,
    date: toDate(value),
  }));
  if (shown.value !== value) setShown({ value, date: toDate(value) });
  const change = (date: Dayjs | null) => {
    const next = date && date.isValid() ? date.format('YYYY-MM') : '';
    setShown({ value: next, date });
    if (next !== value) onChange(next);
  };
  return (
    <PickersProvider>
      <DatePicker
        label={label}
        views={['year', 'month']}
        openTo="month"
        value={shown.date}
        onChange={change}
        format={MONTH_FORMAT}
        enableAccessibleFieldDOMStructure={false}
        sx={sx}
        slotProps={{
          textField: {
            size: 'small',
            variant,
            error,
            helperText,
            inputProps: testId ? { 'data-testid': testId } : undefined,
          },
          field: { clearable: true },
        }}
      />
    </PickersProvider>
  );
}

/** A month outside a form: the value 'YYYY-MM', or '' while empty or not yet a whole month. */
export function MonthField(props: Omit<MonthPickerProps, 'label'> & { label: string }) {
  return <MonthPicker {...props} />;
}

/** A month as a react-admin input (a list's filter or a dialog's form): 'YYYY-MM' or null. */
export function MonthInput({
  source,
  label,
  validate,
  testId,
  sx,
}: {
  source: string;
  label: string;
  /** Filters only: shown without asking. */
  alwaysOn?: boolean;
  validate?: Validator | Validator[];
  testId?: string;
  sx?: SxProps<Theme>;
}) {
  const { field, fieldState, isRequired } = useInput({ source, validate });
  const error = fieldState.invalid ? fieldState.error?.message : undefined;
  return (
    <MonthPicker
      label={<FieldTitle label={label} source={source} isRequired={isRequired} />}
      value={isMonth(field.value) ? field.value : ''}
      onChange={(next) => field.onChange(next || null)}
      error={Boolean(error)}
      helperText={error ? <InputHelperText error={error} /> : undefined}
      testId={testId}
      variant="filled"
      sx={sx}
    />
  );
}
