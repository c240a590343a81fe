/**
 * Date and number fields and inputs in the user's language (./format.ts): react-admin fields that
 * show 'MMM D, YYYY' dates and Swiss numbers, and date inputs built on MUI X date pickers (dayjs,
 * weeks starting on Monday, typing 'DD.MM.YYYY') that keep the server's 'YYYY-MM-DD' (or ISO 8601
 * for a timestamp) in the form. The generic views use them (src/resources/fields.tsx, inputs.tsx).
 */
import { Typography } from '@mui/material';
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
  useFieldValue,
  useInput,
  useLocale,
  useTranslate,
  type Validator,
} from 'react-admin';
import {
  calendarLocaleOf,
  formatChf,
  formatDate,
  formatDateTime,
  formatNumber,
  INPUT_DATE_FORMAT,
  INPUT_DATE_TIME_FORMAT,
  SERVER_DATE_FORMAT,
  toDayjs,
} from './format.ts';

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

/**
 * What the form holds while the typed text is not a date (refused by the validator): an object, so
 * that no rule comparing date strings mistakes it for a date.
 */
export interface InvalidDate {
  invalidDate: string;
}
export const isInvalidDate = (value: unknown): value is InvalidDate =>
  typeof value === 'object' && value !== null && 'invalidDate' in value;
const invalidDate = (text: string): InvalidDate => ({ invalidDate: text });

const validDate: Validator = (value) => (isInvalidDate(value) ? 'app.validation.date' : undefined);

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
