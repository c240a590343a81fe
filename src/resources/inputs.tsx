/**
 * The one map from schema to react-admin inputs (create, edit and list filters). Client-side
 * validators come from the same schema keywords the server checks (required, lengths, bounds,
 * pattern, email); the server's 422 answers show beside the same inputs.
 */
import { Box, Typography } from '@mui/material';
import { type ReactElement, type ReactNode, useMemo, useState } from 'react';
import {
  ArrayInput,
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanInput,
  CheckboxGroupInput,
  ChoicesContextProvider,
  email,
  type FilterPayload,
  maxLength,
  type RaRecord,
  maxValue,
  minLength,
  minValue,
  NullableBooleanInput,
  NumberInput,
  ReferenceArrayInput,
  ReferenceInput,
  regex,
  required,
  SelectArrayInput,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  TimeInput,
  useChoicesContext,
  useGetRecordRepresentation,
  useLocale,
  useTranslate,
  type Validator,
} from 'react-admin';
import { LocalizedDateInput } from '../i18n/components.tsx';
import {
  type FieldModel,
  hasRecordLabel,
  type JsonSchema,
  LABEL_SORT,
  labelSearchable,
  type ResourceModel,
} from '../schema/model.ts';
import type { ReferenceFilter } from '../schema/vocabulary.ts';
import { fieldLabelKey, objectLabelKey } from '../schema/labels.ts';
import { LONG_LIST, matchesTyped, sortByLabel, sortedEnumChoices } from './labels.ts';
import { getModel, hasModel } from './registry.ts';

export function validatorsFor(schema: JsonSchema, isRequired: boolean): Validator[] {
  const validators: Validator[] = [];
  if (isRequired) validators.push(required());
  if (schema.type === 'string') {
    if (schema.minLength && schema.minLength > 1) validators.push(minLength(schema.minLength));
    if (schema.maxLength) validators.push(maxLength(schema.maxLength));
    if (schema.format === 'email') validators.push(email());
    if (schema.pattern)
      validators.push(regex(new RegExp(schema.pattern), 'app.validation.pattern'));
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    if (schema.minimum !== undefined) validators.push(minValue(schema.minimum));
    if (schema.maximum !== undefined) validators.push(maxValue(schema.maximum));
  }
  return validators;
}

interface EnumInputProps {
  source: string;
  label: string;
  validate?: Validator[];
  /** The enum's schema (for a list of values: its items). */
  schema: JsonSchema;
  enumName: string;
  /** A list of values (checkboxes, a multiple select or autocomplete). */
  multiple?: boolean;
  /** Shown in a list's filter bar (react-admin reads it from the element). */
  alwaysOn?: boolean;
}

/** Type-ahead of an enum: the option's label contains the typed text, accents and case aside. */
const matchChoice = (typed: string, choice: { name?: unknown }) =>
  matchesTyped(typed, String(choice.name ?? ''));

/**
 * An enum picker: options named in the user's language and sorted by that name (Intl.Collator),
 * an autocomplete with type-ahead when longer than LONG_LIST (nationality, country), else a select
 * (a list of values: checkboxes up to six).
 */
export function EnumInput({
  schema,
  enumName,
  multiple,
  alwaysOn: _alwaysOn,
  ...props
}: EnumInputProps) {
  const translate = useTranslate();
  const locale = useLocale();
  const choices = useMemo(
    () => sortedEnumChoices(schema, enumName, (key) => translate(key), locale),
    [schema, enumName, translate, locale],
  );
  const common = { ...props, choices, translateChoice: false };
  if (multiple) {
    if (choices.length > LONG_LIST)
      return <AutocompleteArrayInput {...common} matchSuggestion={matchChoice} />;
    if (choices.length <= 6) return <CheckboxGroupInput {...common} />;
    return <SelectArrayInput {...common} />;
  }
  if (choices.length > LONG_LIST)
    return <AutocompleteInput {...common} matchSuggestion={matchChoice} />;
  return <SelectInput {...common} />;
}

/**
 * Inside a ReferenceInput: the fetched records sorted by their label in the user's language (the
 * server already sends them by label, `sort=_label`; the records already chosen join the list and
 * must fall into place too). `local`: the server cannot search the label (products are named by
 * translation), so everything was loaded and typing filters here instead of asking the server.
 */
function LabelSortedChoices({
  reference,
  local,
  children,
}: {
  reference: string;
  local: boolean;
  children: ReactNode;
}) {
  const context = useChoicesContext();
  const representation = useGetRecordRepresentation(reference);
  const locale = useLocale();
  const [typed, setTyped] = useState('');
  const value = useMemo(() => {
    const labelOf = (record: RaRecord) => String(representation(record) ?? '');
    const all = context.allChoices ?? [];
    const visible = local ? all.filter((record) => matchesTyped(typed, labelOf(record))) : all;
    const sorted = sortByLabel(visible, labelOf, locale);
    // Object.assign keeps the context's own variant (pending, error, success) and replaces only
    // the choices and, when filtering here, what typing does.
    return Object.assign({}, context, {
      allChoices: sorted,
      availableChoices: sorted,
      ...(local
        ? { setFilters: (filters: FilterPayload) => setTyped(String(filters.q ?? '')) }
        : {}),
    });
  }, [context, representation, locale, local, typed]);
  return <ChoicesContextProvider value={value}>{children}</ChoicesContextProvider>;
}

/** How many records a picker asks for at once; all of them when it filters itself. */
const PICKER_PAGE = 50;
const PICKER_ALL = 500;

export interface ReferencePickerProps {
  source: string;
  /** The referenced resource. */
  reference: string;
  label: string;
  validate?: Validator[];
  /** Only records matching these list filters are offered (`x-reference-filter`). */
  filter?: ReferenceFilter;
  /** Several records (a list of ids). */
  multiple?: boolean;
  /** Shown in a list's filter bar (react-admin reads it from the element). */
  alwaysOn?: boolean;
}

/**
 * A picker of one or several records of another resource, with type-ahead: offered by their label
 * in the user's language (asked sorted by `_label`, sorted again here with Intl.Collator), limited
 * to suitable records by the field's `x-reference-filter` (the server refuses others on write).
 */
export function ReferencePicker({
  source,
  reference,
  label,
  validate,
  filter,
  multiple,
}: ReferencePickerProps) {
  const target = hasModel(reference) ? getModel(reference) : undefined;
  const local = target ? !labelSearchable(target) : false;
  const sort =
    target && hasRecordLabel(target)
      ? { field: LABEL_SORT, order: 'ASC' as const }
      : { field: 'id', order: 'ASC' as const };
  const common = {
    source,
    reference,
    sort,
    filter,
    perPage: local ? PICKER_ALL : PICKER_PAGE,
  };
  return multiple ? (
    <ReferenceArrayInput {...common}>
      <LabelSortedChoices reference={reference} local={local}>
        <AutocompleteArrayInput label={label} validate={validate} />
      </LabelSortedChoices>
    </ReferenceArrayInput>
  ) : (
    <ReferenceInput {...common}>
      <LabelSortedChoices reference={reference} local={local}>
        <AutocompleteInput label={label} validate={validate} />
      </LabelSortedChoices>
    </ReferenceInput>
  );
}

function plainInput(
  resource: string,
  path: string,
  source: string,
  schema: JsonSchema,
  isRequired: boolean,
): ReactElement {
  const label = fieldLabelKey(resource, path);
  const props = { source, label, validate: validatorsFor(schema, isRequired) };
  if (schema.type === 'boolean') return <BooleanInput key={source} {...props} />;
  if (schema.type === 'integer') return <NumberInput key={source} {...props} step={1} />;
  if (schema.type === 'number') return <NumberInput key={source} {...props} />;
  if (schema.enum)
    return (
      <EnumInput
        key={source}
        {...props}
        schema={schema}
        enumName={schema['x-enum'] ?? `${resource}.${path}`}
      />
    );
  if (schema.format === 'date') return <LocalizedDateInput key={source} {...props} />;
  if (schema.format === 'date-time') return <LocalizedDateInput key={source} {...props} showTime />;
  if (schema.format === 'time') return <TimeInput key={source} {...props} />;
  return <TextInput key={source} {...props} type={schema.format === 'email' ? 'email' : 'text'} />;
}

function ObjectInput({ model, field }: { model: ResourceModel; field: FieldModel }) {
  const translate = useTranslate();
  const required = new Set(field.schema.required ?? []);
  return (
    <Box
      component="fieldset"
      sx={{
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        px: 2,
        pb: 1,
        mb: 2,
        width: '100%',
      }}
    >
      <Typography component="legend" variant="caption" sx={{ px: 0.5 }}>
        {translate(objectLabelKey(model.name, field.name))}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
        {Object.entries(field.schema.properties ?? {}).map(([child, schema]) =>
          plainInput(
            model.name,
            `${field.name}.${child}`,
            `${field.name}.${child}`,
            schema,
            required.has(child),
          ),
        )}
      </Box>
    </Box>
  );
}

export function inputFor(model: ResourceModel, field: FieldModel): ReactElement | null {
  if (field.readOnly) return null;
  const source = field.name;
  const label = fieldLabelKey(model.name, field.name);
  const { schema } = field;
  const validate = validatorsFor(schema, field.required);
  const common = { source, label, validate };
  switch (field.kind) {
    case 'reference':
    case 'references':
      return (
        <ReferencePicker
          key={source}
          {...common}
          reference={field.reference ?? ''}
          filter={field.referenceFilter}
          multiple={field.kind === 'references'}
        />
      );
    case 'enum':
      return <EnumInput key={source} {...common} schema={schema} enumName={field.enumName ?? ''} />;
    case 'enumArray':
      return (
        <EnumInput
          key={source}
          {...common}
          schema={schema.items ?? {}}
          enumName={field.enumName ?? ''}
          multiple
        />
      );
    case 'object':
      return <ObjectInput key={source} model={model} field={field} />;
    case 'array': {
      const required = new Set(schema.items?.required ?? []);
      return (
        <ArrayInput key={source} source={source} label={label}>
          <SimpleFormIterator inline>
            {Object.entries(schema.items?.properties ?? {}).map(([child, childSchema]) =>
              plainInput(
                model.name,
                `${field.name}.${child}`,
                child,
                childSchema,
                required.has(child),
              ),
            )}
          </SimpleFormIterator>
        </ArrayInput>
      );
    }
    case 'string':
      if (schema['x-widget'] === 'textarea')
        return <TextInput key={source} {...common} multiline minRows={3} fullWidth />;
      return (
        <TextInput
          key={source}
          {...common}
          type={
            schema.format === 'email'
              ? 'email'
              : schema['x-widget'] === 'password'
                ? 'password'
                : 'text'
          }
        />
      );
    default:
      return plainInput(model.name, field.name, source, schema, field.required);
  }
}

/** List filters: search (when the schema names search fields) and one input per x-filter field. */
export function filtersFor(model: ResourceModel): ReactElement[] {
  const filters: ReactElement[] = [];
  if (model.resource.search?.length) {
    filters.push(<TextInput key="q" source="q" label="ra.action.search" alwaysOn resettable />);
  }
  for (const field of model.fields.filter((candidate) => candidate.filter)) {
    const label = fieldLabelKey(model.name, field.name);
    const props = { source: field.name, label };
    switch (field.kind) {
      case 'boolean':
        filters.push(<NullableBooleanInput key={field.name} {...props} />);
        break;
      case 'enum':
      case 'enumArray':
        filters.push(
          <EnumInput
            key={field.name}
            {...props}
            schema={(field.kind === 'enum' ? field.schema : field.schema.items) ?? {}}
            enumName={field.enumName ?? ''}
          />,
        );
        break;
      case 'reference':
      case 'references':
        // A filter finds records by any value, suitable for new choices or not.
        filters.push(
          <ReferencePicker key={field.name} {...props} reference={field.reference ?? ''} />,
        );
        break;
      case 'date':
      case 'datetime':
        filters.push(
          <LocalizedDateInput
            key={`${field.name}_gte`}
            source={`${field.name}_gte`}
            label={label}
            startOfDayTimestamp={field.kind === 'datetime'}
            isFilter
          />,
        );
        break;
      default:
        filters.push(<TextInput key={field.name} {...props} />);
    }
  }
  return filters;
}
