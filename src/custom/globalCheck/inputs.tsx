/**
 * The Global check form's inputs: each reads and writes one path of the check's inputs through the
 * form's context and shows the server's message for that path, translated. Plain MUI inputs (not a
 * react-admin form): every change asks the server for a preview, and field errors come from it.
 */
import {
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  MenuItem,
  Slider,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import { createContext, useContext } from 'react';
import { useTranslate } from 'react-admin';
import { DateFilterField } from '../../components/DateFilterField.tsx';
import { enumLabelKey, labelKey } from './labels.ts';
import { valueAt } from './model.ts';

export { enumLabelKey, labelKey };

export interface FormState {
  values: unknown;
  /** Server messages by camelCase path (`partner.birthDate`), encoded keys. */
  messages: Record<string, string>;
  set: (path: string, value: unknown) => void;
}

export const FormContext = createContext<FormState>({
  values: {},
  messages: {},
  set: () => undefined,
});

function useField(path: string, label?: string) {
  const form = useContext(FormContext);
  const translate = useTranslate();
  const message = form.messages[path];
  return {
    value: valueAt(form.values, path),
    set: (value: unknown) => form.set(path, value),
    error: message ? translate(message, { _: message }) : undefined,
    label: translate(label ?? labelKey(path)),
    testId: `gc-${path}`,
  };
}

interface InputProps {
  path: string;
  /** Translation key of the label (default: the field's label). */
  label?: string;
  required?: boolean;
  /** Translation key of a hint under the input. */
  hint?: string;
}

export function TextInput({
  path,
  label,
  required,
  multiline,
}: InputProps & { multiline?: boolean }) {
  const field = useField(path, label);
  return (
    <TextField
      label={field.label}
      required={required}
      size="small"
      fullWidth
      multiline={multiline}
      minRows={multiline ? 2 : undefined}
      value={typeof field.value === 'string' ? field.value : ''}
      onChange={(event) => field.set(event.target.value === '' ? null : event.target.value)}
      error={Boolean(field.error)}
      helperText={field.error}
      slotProps={{ htmlInput: { 'data-testid': field.testId } }}
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
  adornment,
}: InputProps & { min?: number; max?: number; step?: number; adornment?: string }) {
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
        field.set(text === '' || !Number.isFinite(number) ? null : number);
      }}
      error={Boolean(field.error)}
      helperText={field.error ?? (hint ? translate(hint) : undefined)}
      slotProps={{
        htmlInput: { min, max, step, inputMode: 'decimal', 'data-testid': field.testId },
        input: adornment ? { endAdornment: adornment } : undefined,
      }}
    />
  );
}

export function SelectInput({
  path,
  label,
  required,
  options,
  enumField,
}: InputProps & { options: readonly string[]; enumField?: string }) {
  const field = useField(path, label);
  const translate = useTranslate();
  const value = typeof field.value === 'string' ? field.value : '';
  return (
    <TextField
      select
      label={field.label}
      required={required}
      size="small"
      fullWidth
      value={value}
      onChange={(event) => field.set(event.target.value === '' ? null : event.target.value)}
      error={Boolean(field.error)}
      helperText={field.error}
      slotProps={{ htmlInput: { 'data-testid': field.testId } }}
    >
      {options.map((option) => (
        <MenuItem key={option} value={option}>
          {translate(enumLabelKey(enumField ?? path, option))}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Several values of an enum as checkboxes (the topics). */
export function ChecksInput({ path, label, options }: InputProps & { options: readonly string[] }) {
  const field = useField(path, label);
  const translate = useTranslate();
  const chosen = Array.isArray(field.value) ? (field.value as string[]) : [];
  return (
    <FormControl error={Boolean(field.error)} data-testid={field.testId}>
      <FormLabel sx={{ fontSize: '0.85rem' }}>{field.label}</FormLabel>
      <FormGroup row>
        {options.map((option) => (
          <FormControlLabel
            key={option}
            control={
              <Checkbox
                size="small"
                checked={chosen.includes(option)}
                onChange={(event) =>
                  field.set(
                    event.target.checked
                      ? options.filter((o) => o === option || chosen.includes(o))
                      : chosen.filter((o) => o !== option),
                  )
                }
                slotProps={{ input: { 'aria-label': option } }}
              />
            }
            label={translate(enumLabelKey(path, option))}
          />
        ))}
      </FormGroup>
      {field.error ? <FormHelperText>{field.error}</FormHelperText> : null}
    </FormControl>
  );
}

export function DateInput({ path, label, required }: InputProps) {
  const field = useField(path, label);
  return (
    <DateFilterField
      label={`${field.label}${required ? ' *' : ''}`}
      value={typeof field.value === 'string' ? field.value : ''}
      onChange={(value) => field.set(value === '' ? null : value)}
      error={Boolean(field.error)}
      helperText={field.error}
      testId={field.testId}
      sx={{ width: '100%' }}
    />
  );
}

export function SwitchInput({ path, label }: InputProps) {
  const field = useField(path, label);
  return (
    <FormControl error={Boolean(field.error)}>
      <FormControlLabel
        control={
          <Switch
            size="small"
            checked={field.value === true}
            onChange={(event) => field.set(event.target.checked)}
            slotProps={{ input: { 'data-testid': field.testId } as object }}
          />
        }
        label={field.label}
      />
      {field.error ? <FormHelperText sx={{ mt: -0.5 }}>{field.error}</FormHelperText> : null}
    </FormControl>
  );
}

/** A share in per cent: a slider with the number beside it. */
export function PercentInput({
  path,
  label,
  min,
  max,
  step = 5,
}: InputProps & { min: number; max: number; step?: number }) {
  const field = useField(path, label);
  const value = typeof field.value === 'number' ? field.value : min;
  return (
    <FormControl error={Boolean(field.error)} fullWidth>
      <FormLabel sx={{ fontSize: '0.85rem' }}>{field.label}</FormLabel>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Slider
          size="small"
          value={value}
          min={min}
          max={max}
          step={step}
          marks
          onChange={(_event, next) => field.set(Array.isArray(next) ? next[0] : next)}
          valueLabelDisplay="auto"
          valueLabelFormat={(shown) => `${shown} %`}
          aria-label={field.label}
          sx={{ flex: 1 }}
        />
        <TextField
          type="number"
          size="small"
          value={typeof field.value === 'number' ? field.value : ''}
          onChange={(event) => {
            const number = Number(event.target.value);
            field.set(event.target.value === '' || !Number.isFinite(number) ? null : number);
          }}
          error={Boolean(field.error)}
          sx={{ width: 96 }}
          slotProps={{
            htmlInput: { min, max, 'data-testid': field.testId, 'aria-label': field.label },
            input: { endAdornment: '%' },
          }}
        />
      </Stack>
      {field.error ? <FormHelperText>{field.error}</FormHelperText> : null}
    </FormControl>
  );
}
