/**
 * The month picker's MUI X part (loaded with the first month input that renders, like the date
 * pickers of src/i18n/pickers.tsx): a year-and-month calendar in the user's language, typing
 * 'MM.YYYY'; the form holds the server's 'YYYY-MM'.
 */
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs, { type Dayjs } from 'dayjs';
import { type FocusEvent, useMemo, useState } from 'react';
import { FieldTitle, InputHelperText, useInput, type Validator } from 'react-admin';
import { PickersProvider } from '../../i18n/pickers.tsx';
import { isMonth } from './model.ts';
import type { MonthInputProps } from './MonthInput.tsx';

const FORMAT = 'MM.YYYY';

/** What the form holds while the typed text is not a month yet (refused by the validator). */
const UNFINISHED = { unfinishedMonth: true } as const;
const isUnfinished = (value: unknown) =>
  typeof value === 'object' && value !== null && 'unfinishedMonth' in value;

const wholeMonth: Validator = (value) =>
  isUnfinished(value) ? 'app.commissions.month.invalid' : undefined;

const toDate = (value: unknown): Dayjs | null => (isMonth(value) ? dayjs(`${value}-01`) : null);

export default function MonthPickerInput(props: MonthInputProps) {
  const {
    source,
    label,
    validate,
    helperText,
    isFilter = false,
    disabled,
    testId,
    fullWidth,
  } = props;
  const validators = useMemo(
    () => [wholeMonth, ...(Array.isArray(validate) ? validate : validate ? [validate] : [])],
    [validate],
  );
  const { field, fieldState, id, isRequired } = useInput({
    source,
    validate: validators,
    disabled,
  });
  // The picker shows the form's value, or the unfinished month being typed.
  const [shown, setShown] = useState<{ value: unknown; date: Dayjs | null }>(() => ({
    value: field.value,
    date: toDate(field.value),
  }));
  if (!Object.is(field.value, shown.value)) {
    setShown({
      value: field.value,
      date: isUnfinished(field.value) ? shown.date : toDate(field.value),
    });
  }
  const onChange = (date: Dayjs | null) => {
    const value = date === null ? null : date.isValid() ? date.format('YYYY-MM') : null;
    setShown({ value, date });
    field.onChange(value);
  };
  const onBlur = (event: FocusEvent<HTMLInputElement>) => {
    const text = event.target.value ?? '';
    const complete = dayjs(text, FORMAT, true).isValid();
    if (/\d/.test(text) && !complete && !isFilter) {
      setShown({ value: UNFINISHED, date: shown.date });
      field.onChange(UNFINISHED);
    }
    field.onBlur();
  };
  const error = fieldState.invalid ? fieldState.error?.message : undefined;
  return (
    <PickersProvider>
      <DatePicker
        value={shown.date}
        onChange={onChange}
        views={['year', 'month']}
        openTo="month"
        format={FORMAT}
        disabled={disabled}
        enableAccessibleFieldDOMStructure={false}
        label={
          label === false ? undefined : (
            <FieldTitle label={label} source={source} isRequired={isRequired} />
          )
        }
        slotProps={{
          textField: {
            id,
            name: field.name,
            onBlur,
            inputRef: field.ref,
            error: Boolean(error),
            size: 'small',
            margin: 'dense',
            variant: 'filled',
            fullWidth,
            sx: fullWidth ? undefined : { width: 190 },
            inputProps: testId ? { 'data-testid': testId } : undefined,
            helperText:
              helperText === false && !error ? undefined : (
                <InputHelperText error={error} helperText={helperText || undefined} />
              ),
          },
          field: { clearable: true },
        }}
      />
    </PickersProvider>
  );
}
