/**
 * The wizard's inputs: each reads and writes one path of the draft's fields through the form's
 * context and shows the message of that path (the browser's check or the server's, translated).
 * Plain MUI inputs rather than a react-admin form: the wizard saves step by step to its own routes.
 */
import {
  Autocomplete,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  MenuItem,
  Radio,
  RadioGroup,
  TextField,
} from '@mui/material';
import { createContext, useContext, useMemo } from 'react';
import { useLocale, useTranslate } from 'react-admin';
import { DateFilterField } from '../../components/DateFilterField.tsx';
import { fieldLabelKey } from '../../schema/labels.ts';
import { matchesTyped, sortByLabel } from '../../resources/labels.ts';
import { type FieldMessages, RESOURCE, valueAt } from './model.ts';

export interface FormState {
  fields: unknown;
  messages: FieldMessages;
  set: (path: string, value: unknown) => void;
  disabled?: boolean;
}

export const FormContext = createContext<FormState>({
  fields: {},
  messages: {},
  set: () => undefined,
});

/** The value, message and setter of one path. */
function useField(path: string, label?: string) {
  const form = useContext(FormContext);
  const translate = useTranslate();
  const message = form.messages[path];
  return {
    value: valueAt(form.fields, path),
    set: (value: unknown) => form.set(path, value),
    error: message ? translate(message, { _: message }) : undefined,
    label: translate(label ?? fieldLabelKey(RESOURCE, path)),
    disabled: form.disabled,
    testId: `fs24-${path}`,
  };
}

interface InputProps {
  path: string;
  /** Translation key of the label (default: the draft resource's field label). */
  label?: string;
  required?: boolean;
  /** Translation key of a hint under the input. */
  hint?: string;
}

export function TextInput({
  path,
  label,
  required,
  hint,
  maxLength,
  inputMode,
}: InputProps & { maxLength?: number; inputMode?: 'numeric' | 'text' }) {
  const field = useField(path, label);
  const translate = useTranslate();
  return (
    <TextField
      label={field.label}
      required={required}
      size="small"
      fullWidth
      value={typeof field.value === 'string' ? field.value : ''}
      onChange={(event) => field.set(event.target.value === '' ? undefined : event.target.value)}
      error={Boolean(field.error)}
      helperText={field.error ?? (hint ? translate(hint) : undefined)}
      disabled={field.disabled}
      slotProps={{ htmlInput: { maxLength, inputMode, 'data-testid': field.testId } }}
    />
  );
}

export function NumberInput({
  path,
  label,
  required,
  hint,
  min,
  max,
  step,
}: InputProps & { min?: number; max?: number; step?: number }) {
  const field = useField(path, label);
  const translate = useTranslate();
  return (
    <TextField
      label={field.label}
      required={required}
      type="number"
      size="small"
      fullWidth
      value={typeof field.value === 'number' ? field.value : ''}
      onChange={(event) => {
        const text = event.target.value;
        const number = Number(text);
        field.set(text === '' || !Number.isFinite(number) ? undefined : number);
      }}
      error={Boolean(field.error)}
      helperText={field.error ?? (hint ? translate(hint) : undefined)}
      disabled={field.disabled}
      slotProps={{
        htmlInput: { min, max, step, inputMode: 'numeric', 'data-testid': field.testId },
      }}
    />
  );
}

export interface Option {
  value: string | number;
  /** Translation key of its name. */
  label: string;
}

export function SelectInput({
  path,
  label,
  required,
  hint,
  options,
  sort,
}: InputProps & { options: Option[]; sort?: boolean }) {
  const field = useField(path, label);
  const translate = useTranslate();
  const locale = useLocale();
  const named = options.map((option) => ({ value: option.value, name: translate(option.label) }));
  const shown = sort ? sortByLabel(named, (option) => option.name, locale) : named;
  const value = field.value === undefined || field.value === null ? '' : String(field.value);
  return (
    <TextField
      select
      label={field.label}
      required={required}
      size="small"
      fullWidth
      value={value}
      onChange={(event) => {
        const chosen = options.find((option) => String(option.value) === event.target.value);
        field.set(chosen?.value);
      }}
      error={Boolean(field.error)}
      helperText={field.error ?? (hint ? translate(hint) : undefined)}
      disabled={field.disabled}
      slotProps={{ htmlInput: { 'data-testid': field.testId } }}
    >
      {shown.map((option) => (
        <MenuItem key={option.value} value={String(option.value)}>
          {option.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** A long list (countries): type-ahead over the names in the user's language. */
export function AutocompleteInput({
  path,
  label,
  required,
  options,
}: InputProps & { options: Option[] }) {
  const field = useField(path, label);
  const translate = useTranslate();
  const locale = useLocale();
  const named = useMemo(
    () =>
      sortByLabel(
        options.map((option) => ({ value: String(option.value), name: translate(option.label) })),
        (option) => option.name,
        locale,
      ),
    [options, translate, locale],
  );
  const chosen = named.find((option) => option.value === field.value) ?? null;
  return (
    <Autocomplete
      options={named}
      value={chosen}
      onChange={(_event, option) => field.set(option?.value)}
      getOptionLabel={(option) => option.name}
      isOptionEqualToValue={(option, value) => option.value === value.value}
      filterOptions={(list, state) =>
        list.filter((option) => matchesTyped(state.inputValue, option.name))
      }
      disabled={field.disabled}
      size="small"
      fullWidth
      renderInput={(params) => (
        <TextField
          {...params}
          label={field.label}
          required={required}
          error={Boolean(field.error)}
          helperText={field.error}
          slotProps={{
            htmlInput: { ...params.inputProps, 'data-testid': field.testId },
          }}
        />
      )}
    />
  );
}

export function DateInput({ path, label, required }: InputProps) {
  const field = useField(path, label);
  const translate = useTranslate();
  return (
    <DateFilterField
      label={`${field.label}${required ? ' *' : ''}`}
      value={typeof field.value === 'string' ? field.value : ''}
      onChange={(value) => field.set(value === '' ? undefined : value)}
      error={Boolean(field.error)}
      helperText={field.error ?? translate('app.fs24.dateHint')}
      testId={field.testId}
      sx={{ width: '100%' }}
    />
  );
}

/** Yes or no (nothing chosen yet: neither). */
export function YesNoInput({ path, label, required, hint }: InputProps) {
  const field = useField(path, label);
  const translate = useTranslate();
  const value = field.value === true ? 'yes' : field.value === false ? 'no' : '';
  return (
    <FormControl error={Boolean(field.error)} disabled={field.disabled} data-testid={field.testId}>
      <FormLabel required={required} sx={{ fontSize: '0.9rem' }}>
        {field.label}
      </FormLabel>
      <RadioGroup row value={value} onChange={(event) => field.set(event.target.value === 'yes')}>
        <FormControlLabel
          value="yes"
          control={<Radio size="small" />}
          label={translate('ra.boolean.true')}
        />
        <FormControlLabel
          value="no"
          control={<Radio size="small" />}
          label={translate('ra.boolean.false')}
        />
      </RadioGroup>
      {field.error || hint ? (
        <FormHelperText sx={{ mt: -0.5, ml: 0 }}>
          {field.error ?? translate(hint ?? '')}
        </FormHelperText>
      ) : null}
    </FormControl>
  );
}
