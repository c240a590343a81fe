/**
 * The date inputs' pickers (MUI X, dayjs, Swiss calendars, weeks starting on Monday, typing
 * 'DD.MM.YYYY'), loaded with the first date input that renders (./components.tsx): what the form
 * holds is the server's 'YYYY-MM-DD', or ISO 8601 for a timestamp.
 */
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { deDE, enUS, frFR, itIT } from '@mui/x-date-pickers/locales';
import dayjs, { type Dayjs } from 'dayjs';
import { type FocusEvent, type ReactNode, useMemo, useState } from 'react';
import {
  FieldTitle,
  InputHelperText,
  useInput,
  useLocale,
  useTranslate,
  type Validator,
} from 'react-admin';
import {
  type InvalidDate,
  invalidDate,
  isInvalidDate,
  type LocalizedDateInputProps,
} from './components.tsx';
import {
  calendarLocaleOf,
  INPUT_DATE_FORMAT,
  INPUT_DATE_TIME_FORMAT,
  SERVER_DATE_FORMAT,
  toDayjs,
} from './format.ts';

// ---------------------------------------------------------------------------------------------
// Inputs

const PICKER_LOCALES = { de: deDE, en: enUS, fr: frFR, it: itIT } as const;

/**
 * The pickers' texts: MUI X's own for the language, with the words the user reads most (buttons,
 * toolbar titles, month navigation) from our translation keys.
 */
function usePickerTexts() {
  const translate = useTranslate();
  const language = useLocale();
  return useMemo(() => {
    const pack = PICKER_LOCALES[language as keyof typeof PICKER_LOCALES] ?? PICKER_LOCALES.de;
    return {
      ...pack.components.MuiLocalizationProvider.defaultProps.localeText,
      cancelButtonLabel: translate('ra.action.cancel'),
      clearButtonLabel: translate('app.datePicker.clear'),
      okButtonLabel: translate('app.datePicker.ok'),
      todayButtonLabel: translate('app.datePicker.today'),
      datePickerToolbarTitle: translate('app.datePicker.selectDate'),
      dateTimePickerToolbarTitle: translate('app.datePicker.selectDateTime'),
      previousMonth: translate('app.datePicker.previousMonth'),
      nextMonth: translate('app.datePicker.nextMonth'),
      fieldClearLabel: translate('app.datePicker.clear'),
    };
  }, [translate, language]);
}

/** MUI X pickers in the chosen language: dayjs, Swiss calendars, weeks starting on Monday. */
export function PickersProvider({ children }: { children: ReactNode }) {
  const language = useLocale();
  const localeText = usePickerTexts();
  return (
    <LocalizationProvider
      dateAdapter={AdapterDayjs}
      adapterLocale={calendarLocaleOf(language)}
      localeText={localeText}
    >
      {children}
    </LocalizationProvider>
  );
}

const validDate: Validator = (value) => (isInvalidDate(value) ? 'app.validation.date' : undefined);

/** The form's value for a picked date. */
function formValue(
  date: Dayjs | null,
  options: { showTime?: boolean; startOfDayTimestamp?: boolean; isFilter?: boolean },
): string | InvalidDate | null {
  if (date === null) return null;
  if (!date.isValid()) return options.isFilter ? null : invalidDate(String(date));
  if (options.showTime) return date.toISOString();
  if (options.startOfDayTimestamp) return date.startOf('day').toISOString();
  return date.format(SERVER_DATE_FORMAT);
}

/** A date (or date and time) input: MUI X picker, Swiss typing, the server's format in the form. */
export function LocalizedDateInput(props: LocalizedDateInputProps) {
  const {
    source,
    label,
    validate,
    defaultValue,
    helperText,
    disabled,
    readOnly,
    fullWidth,
    className,
    resource,
    showTime = false,
    startOfDayTimestamp = false,
    isFilter = false,
  } = props;
  const validators = useMemo(
    // First: the others' rules expect a date, not the marker of an unfinished one.
    () => [validDate, ...(Array.isArray(validate) ? validate : validate ? [validate] : [])],
    [validate],
  );
  const { field, fieldState, id, isRequired } = useInput({
    source,
    resource,
    defaultValue,
    validate: validators,
    disabled,
    readOnly,
  });
  // What the picker shows: the form's value, or — while the typed text is not a date yet — the
  // unfinished date. A value set from outside (form reset, record loaded) replaces it.
  const [shown, setShown] = useState<{ value: unknown; date: Dayjs | null }>(() => ({
    value: field.value,
    date: toDayjs(field.value) ?? null,
  }));
  if (!Object.is(field.value, shown.value)) {
    setShown({
      value: field.value,
      date: isInvalidDate(field.value) ? shown.date : (toDayjs(field.value) ?? null),
    });
  }

  const onChange = (date: Dayjs | null) => {
    const value = formValue(date, { showTime, startOfDayTimestamp, isFilter });
    setShown({ value, date });
    field.onChange(value);
  };
  // The picker reports a date only once every part is typed; an unfinished one ('05.03.JJJJ')
  // would leave the form's value as it was. On leaving the input, such a text marks the value
  // invalid (the validator then names it); a text without digits clears it again.
  const format = showTime ? INPUT_DATE_TIME_FORMAT : INPUT_DATE_FORMAT;
  const onBlur = (event: FocusEvent<HTMLInputElement>) => {
    const text = event.target.value ?? '';
    const complete = dayjs(text, format, true).isValid();
    if (/\d/.test(text) && !complete && !isInvalidDate(field.value) && !isFilter) {
      const value = invalidDate(text);
      setShown({ value, date: shown.date });
      field.onChange(value);
    } else if (!/\d/.test(text) && isInvalidDate(field.value)) {
      setShown({ value: null, date: null });
      field.onChange(null);
    }
    field.onBlur();
  };
  const error = fieldState.invalid ? fieldState.error?.message : undefined;
  const common = {
    value: shown.date,
    onChange,
    disabled,
    readOnly,
    className,
    enableAccessibleFieldDOMStructure: false as const,
    label:
      label === false ? undefined : (
        <FieldTitle label={label} source={source} resource={resource} isRequired={isRequired} />
      ),
    slotProps: {
      textField: {
        id,
        name: field.name,
        onBlur,
        inputRef: field.ref,
        error: Boolean(error),
        size: 'small' as const,
        margin: 'dense' as const,
        variant: 'filled' as const,
        fullWidth,
        helperText:
          helperText === false && !error ? undefined : (
            <InputHelperText error={error} helperText={helperText || undefined} />
          ),
      },
    },
  };
  return (
    <PickersProvider>
      {showTime ? (
        <DateTimePicker {...common} format={format} ampm={false} />
      ) : (
        <DatePicker {...common} format={format} />
      )}
    </PickersProvider>
  );
}
