/**
 * The one map from schema to react-admin inputs (create, edit and list filters). Client-side
 * validators come from the same schema keywords the server checks (required, lengths, bounds,
 * pattern, email); the server's 422 answers show beside the same inputs.
 */
import { Box, Typography } from '@mui/material';
import type { ReactElement } from 'react';
import {
  ArrayInput,
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanInput,
  CheckboxGroupInput,
  email,
  maxLength,
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
  useTranslate,
  type Validator,
} from 'react-admin';
import { LocalizedDateInput } from '../i18n/components.tsx';
import type { FieldModel, JsonSchema, ResourceModel } from '../schema/model.ts';
import { fieldLabelKey, objectLabelKey } from '../schema/labels.ts';
import { enumChoices } from './labels.ts';

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

function plainInput(
  resource: string,
  path: string,
  source: string,
  schema: JsonSchema,
  isRequired: boolean,
): ReactElement {
  const label = fieldLabelKey(resource, path);
  const props = { key: source, source, label, validate: validatorsFor(schema, isRequired) };
  if (schema.type === 'boolean') return <BooleanInput {...props} />;
  if (schema.type === 'integer') return <NumberInput {...props} step={1} />;
  if (schema.type === 'number') return <NumberInput {...props} />;
  if (schema.enum)
    return (
      <SelectInput
        {...props}
        choices={enumChoices(schema, schema['x-enum'] ?? `${resource}.${path}`)}
      />
    );
  if (schema.format === 'date') return <LocalizedDateInput {...props} />;
  if (schema.format === 'date-time') return <LocalizedDateInput {...props} showTime />;
  if (schema.format === 'time') return <TimeInput {...props} />;
  return <TextInput {...props} type={schema.format === 'email' ? 'email' : 'text'} />;
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
  const common = { key: source, source, label, validate };
  switch (field.kind) {
    case 'reference':
      return (
        <ReferenceInput key={source} source={source} reference={field.reference ?? ''}>
          <AutocompleteInput label={label} validate={validate} />
        </ReferenceInput>
      );
    case 'references':
      return (
        <ReferenceArrayInput
          key={source}
          source={source}
          reference={field.reference ?? ''}
          perPage={100}
        >
          <AutocompleteArrayInput label={label} />
        </ReferenceArrayInput>
      );
    case 'enumArray': {
      const choices = enumChoices(schema.items ?? {}, field.enumName ?? '');
      return choices.length <= 6 ? (
        <CheckboxGroupInput {...common} choices={choices} />
      ) : (
        <SelectArrayInput {...common} choices={choices} />
      );
    }
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
        return <TextInput {...common} multiline minRows={3} fullWidth />;
      return (
        <TextInput
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
    const props = { key: field.name, source: field.name, label };
    switch (field.kind) {
      case 'boolean':
        filters.push(<NullableBooleanInput {...props} />);
        break;
      case 'enum':
        filters.push(
          <SelectInput {...props} choices={enumChoices(field.schema, field.enumName ?? '')} />,
        );
        break;
      case 'enumArray':
        filters.push(
          <SelectInput
            {...props}
            choices={enumChoices(field.schema.items ?? {}, field.enumName ?? '')}
          />,
        );
        break;
      case 'reference':
      case 'references':
        filters.push(
          <ReferenceInput {...props} reference={field.reference ?? ''}>
            <AutocompleteInput label={label} />
          </ReferenceInput>,
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
        filters.push(<TextInput {...props} />);
    }
  }
  return filters;
}
