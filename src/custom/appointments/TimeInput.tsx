/**
 * A time of day ('HH:mm', Swiss local time) as the app's date inputs are built (src/i18n/pickers.tsx:
 * MUI X, the user's language, filled and dense): the form holds 'HH:mm', or an unfinished text's
 * marker that the validator names, like the date inputs do.
 */
import { TimePicker } from '@mui/x-date-pickers/TimePicker';
import dayjs, { type Dayjs } from 'dayjs';
import { type FocusEvent, useMemo, useState } from 'react';
import { FieldTitle, InputHelperText, useInput, type Validator } from 'react-admin';
import { invalidDate, isInvalidDate } from '../../i18n/components.tsx';
import { PickersProvider } from '../../i18n/pickers.tsx';
import { shortTime } from './model.ts';

const FORMAT = 'HH:mm';

const toDayjs = (value: unknown): Dayjs | null => {
  const time = shortTime(value);
  return time ? dayjs(`2000-01-01 ${time}`, 'YYYY-MM-DD HH:mm') : null;
};

const validTime: Validator = (value) =>
  isInvalidDate(value) ? 'app.appointments.validation.time' : undefined;

export interface TimeInputProps {
  source: string;
  label: string;
  validate?: Validator[];
  helperText?: string | false;
  disabled?: boolean;
  /** Minutes between the offered times. */
  step?: number;
}

export function TimeInput({
  source,
  label,
  validate,
  helperText,
  disabled,
  step = 15,
}: TimeInputProps) {
  const validators = useMemo(() => [validTime, ...(validate ?? [])], [validate]);
  const { field, fieldState, id, isRequired } = useInput({
    source,
    validate: validators,
    disabled,
  });
  const [shown, setShown] = useState<{ value: unknown; time: Dayjs | null }>(() => ({
    value: field.value,
    time: toDayjs(field.value),
  }));
  if (!Object.is(field.value, shown.value)) {
    setShown({
      value: field.value,
      time: isInvalidDate(field.value) ? shown.time : toDayjs(field.value),
    });
  }
  const onChange = (time: Dayjs | null) => {
    const value =
      time === null ? null : time.isValid() ? time.format(FORMAT) : invalidDate(String(time));
    setShown({ value, time });
    field.onChange(value);
  };
  const onBlur = (event: FocusEvent<HTMLInputElement>) => {
    const text = event.target.value ?? '';
    const complete = dayjs(`2000-01-01 ${text}`, 'YYYY-MM-DD HH:mm', true).isValid();
    if (/\d/.test(text) && !complete && !isInvalidDate(field.value)) {
      const value = invalidDate(text);
      setShown({ value, time: shown.time });
      field.onChange(value);
    } else if (!/\d/.test(text) && isInvalidDate(field.value)) {
      setShown({ value: null, time: null });
      field.onChange(null);
    }
    field.onBlur();
  };
  const error = fieldState.invalid ? fieldState.error?.message : undefined;
  return (
    <PickersProvider>
      <TimePicker
        value={shown.time}
        onChange={onChange}
        disabled={disabled}
        format={FORMAT}
        ampm={false}
        timeSteps={{ minutes: step }}
        enableAccessibleFieldDOMStructure={false}
        label={<FieldTitle label={label} source={source} isRequired={isRequired} />}
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
            helperText:
              helperText === false && !error ? undefined : (
                <InputHelperText error={error} helperText={helperText || undefined} />
              ),
          },
        }}
      />
    </PickersProvider>
  );
}
