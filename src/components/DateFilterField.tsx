/**
 * A date chosen outside a react-admin form (a dialog's or a page's filters): the same MUI X picker
 * as every date input of the app (src/i18n/components.tsx: the user's language, Swiss calendars,
 * typing DD.MM.YYYY), never the browser's own `type="date"` (mm/dd/yyyy in an English browser).
 * The value is the server's 'YYYY-MM-DD', or '' while empty or not yet a whole date.
 */
import type { SxProps, Theme } from '@mui/material';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { PickersProvider } from '../i18n/pickers.tsx';
import { INPUT_DATE_FORMAT, SERVER_DATE_FORMAT, toDayjs } from '../i18n/format.ts';

export interface DateFilterFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: boolean;
  helperText?: string;
  /** data-testid of the text input. */
  testId?: string;
  sx?: SxProps<Theme>;
}

export function DateFilterField({
  label,
  value,
  onChange,
  error,
  helperText,
  testId,
  sx,
}: DateFilterFieldProps) {
  // What the picker shows: the value, or the unfinished date being typed ('05.03.JJJJ').
  const [shown, setShown] = useState<{ value: string; date: Dayjs | null }>(() => ({
    value,
    date: toDayjs(value) ?? null,
  }));
  if (shown.value !== value) setShown({ value, date: toDayjs(value) ?? null });
  const change = (date: Dayjs | null) => {
    const next = date && date.isValid() ? date.format(SERVER_DATE_FORMAT) : '';
    setShown({ value: next, date });
    if (next !== value) onChange(next);
  };
  return (
    <PickersProvider>
      <DatePicker
        label={label}
        value={shown.date}
        onChange={change}
        format={INPUT_DATE_FORMAT}
        enableAccessibleFieldDOMStructure={false}
        sx={sx}
        slotProps={{
          textField: {
            size: 'small',
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
