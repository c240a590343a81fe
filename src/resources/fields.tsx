/**
 * The one map from schema to react-admin fields (list and show). A field's component follows from
 * its kind (src/schema/model.ts) and its x- hints; nothing here names a resource or a field.
 */
import { Box, Chip, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { cloneElement, type ReactElement, useMemo } from 'react';
import {
  ArrayField,
  BooleanField,
  Datagrid,
  EmailField,
  FunctionField,
  type Identifier,
  type RaRecord,
  ImageField,
  Labeled,
  ReferenceArrayField,
  ReferenceField,
  SelectField,
  TextField,
  UrlField,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { LocalizedDateField, SwissNumberField } from '../i18n/components.tsx';
import { isChf } from '../i18n/format.ts';
import type { FieldModel, JsonSchema, ResourceModel } from '../schema/model.ts';
import { useArea } from '../shell/area.ts';
import { resourceRoute } from '../shell/paths.ts';
import { enumKey, fieldLabelKey, objectLabelKey } from '../schema/labels.ts';
import { PHONE_FORMAT } from '../schema/phone.ts';
import { enumChoices } from './labels.ts';
import { PhoneField } from './PhoneField.tsx';

interface FieldOptions {
  /** In a list: compact variants (no nested objects, small images). */
  inList?: boolean;
}

/**
 * The referenced record when react-admin already holds it (`getOne` cache: a list's
 * `meta.prefetched`, a list or page shown before), as the starting data of the reference's query:
 * the cell renders with its row and asks the server only once the record is stale (the app's
 * staleTime), as react-admin's `getOne` would.
 */
function useCachedReference(reference: string, source: string) {
  const record = useRecordContext();
  const queryClient = useQueryClient();
  const id: unknown = record?.[source];
  return useMemo(() => {
    if (id === undefined || id === null || id === '') return undefined;
    const key = [reference, 'getOne', { id: String(id) }];
    const cached = queryClient.getQueryData<RaRecord>(key);
    if (!cached) return undefined;
    return {
      initialData: [cached],
      initialDataUpdatedAt: queryClient.getQueryState(key)?.dataUpdatedAt,
    };
  }, [id, queryClient, reference]);
}

/**
 * A reference that links to the referenced record's page in the current area — its show page, else
 * its edit page — and is plain text where the area has neither (e.g. a consultant's lead source).
 */
function AreaReferenceField(props: {
  source: string;
  label: string;
  sortable: boolean;
  reference: string;
}) {
  const area = useArea();
  const queryOptions = useCachedReference(props.reference, props.source);
  const link = (record: { id: Identifier }, reference: string) => {
    const path =
      resourceRoute(area, reference, 'show', record.id) ??
      resourceRoute(area, reference, 'edit', record.id);
    return path ? `/${area}/${path}` : false;
  };
  return <ReferenceField {...props} link={link} queryOptions={queryOptions} />;
}

/** Chips of an enum list (e.g. insurance types, visible roles). */
function EnumChips({ values, enumName }: { values: unknown; enumName: string }) {
  const translate = useTranslate();
  if (!Array.isArray(values) || values.length === 0) return null;
  return (
    <Stack direction="row" gap={0.5} flexWrap="wrap">
      {values.map((value) => (
        <Chip key={String(value)} size="small" label={translate(enumKey(enumName, value))} />
      ))}
    </Stack>
  );
}

/** A plain (non-top-level) schema node rendered by its type, for nested objects and list items. */
function nestedField(
  resource: string,
  path: string,
  source: string,
  schema: JsonSchema,
): ReactElement {
  const label = fieldLabelKey(resource, path);
  if (schema.type === 'boolean') return <BooleanField key={source} source={source} label={label} />;
  if (schema.type === 'integer' || schema.type === 'number')
    return (
      <SwissNumberField
        key={source}
        source={source}
        label={label}
        chf={isChf(schema)}
        textAlign="right"
      />
    );
  if (schema.format === 'date' || schema.format === 'date-time') {
    return (
      <LocalizedDateField
        key={source}
        source={source}
        label={label}
        showTime={schema.format === 'date-time'}
      />
    );
  }
  if (schema.enum) {
    const name = schema['x-enum'] ?? `${resource}.${path}`;
    return (
      <SelectField key={source} source={source} label={label} choices={enumChoices(schema, name)} />
    );
  }
  if (schema.format === 'email') return <EmailField key={source} source={source} label={label} />;
  if (schema.format === PHONE_FORMAT)
    return <PhoneField key={source} source={source} label={label} />;
  return <TextField key={source} source={source} label={label} />;
}

export function fieldFor(
  model: ResourceModel,
  field: FieldModel,
  options: FieldOptions = {},
): ReactElement | null {
  const element = fieldElement(model, field, options);
  // Keyed by its source (lists of fields); a key cannot travel inside spread props.
  return element ? cloneElement(element, { key: field.name }) : null;
}

function fieldElement(
  model: ResourceModel,
  field: FieldModel,
  options: FieldOptions,
): ReactElement | null {
  const source = field.name;
  const label = fieldLabelKey(model.name, field.name);
  const common = { source, label, sortable: field.sortable };
  const { schema } = field;
  switch (field.kind) {
    case 'boolean':
      return <BooleanField {...common} />;
    case 'integer':
    case 'number':
      return <SwissNumberField {...common} chf={isChf(schema)} textAlign="right" />;
    case 'date':
      return <LocalizedDateField {...common} />;
    case 'datetime':
      return <LocalizedDateField {...common} showTime />;
    case 'time':
      return <TextField {...common} />;
    case 'enum':
      return <SelectField {...common} choices={enumChoices(schema, field.enumName ?? '')} />;
    case 'reference':
      return <AreaReferenceField {...common} reference={field.reference ?? ''} />;
    case 'references':
      return <ReferenceArrayField {...common} reference={field.reference ?? ''} sortable={false} />;
    case 'enumArray':
      return (
        <FunctionField
          {...common}
          sortable={false}
          render={(record: Record<string, unknown>) => (
            <EnumChips values={record[source]} enumName={field.enumName ?? ''} />
          )}
        />
      );
    case 'object': {
      if (options.inList) return null;
      const children = Object.entries(schema.properties ?? {}).map(([child, childSchema]) =>
        nestedField(model.name, `${field.name}.${child}`, `${source}.${child}`, childSchema),
      );
      return (
        <Labeled key={source} label={objectLabelKey(model.name, field.name)} fullWidth>
          <Box
            component="fieldset"
            sx={{
              border: 1,
              borderColor: 'divider',
              borderRadius: 1,
              display: 'flex',
              gap: 3,
              flexWrap: 'wrap',
            }}
          >
            {children.map((child) => (
              <Labeled key={child.key} label={(child.props as { label: string }).label}>
                {child}
              </Labeled>
            ))}
          </Box>
        </Labeled>
      );
    }
    case 'array': {
      if (options.inList) return null;
      const items = schema.items?.properties ?? {};
      return (
        <ArrayField {...common} sortable={false}>
          <Datagrid bulkActionButtons={false} rowClick={false}>
            {Object.entries(items).map(([child, childSchema]) =>
              nestedField(model.name, `${field.name}.${child}`, child, childSchema),
            )}
          </Datagrid>
        </ArrayField>
      );
    }
    default: {
      const prefix = schema['x-translate'];
      if (prefix) return <TranslatedValueField {...common} prefix={prefix} />;
      if (schema['x-widget'] === 'image') {
        return (
          <ImageField
            {...common}
            sx={options.inList ? { '& img': { maxWidth: 40, maxHeight: 40 } } : undefined}
          />
        );
      }
      if (schema.format === 'email') return <EmailField {...common} />;
      if (schema.format === PHONE_FORMAT) return <PhoneField {...common} />;
      if (schema.format === 'uri') return <UrlField {...common} />;
      if (schema['x-widget'] === 'textarea' && !options.inList) {
        return <TextField {...common} sx={{ whiteSpace: 'pre-wrap' }} />;
      }
      return <TextField {...common} />;
    }
  }
}

function TranslatedValueField({
  source,
  prefix,
  label,
  sortable,
}: {
  source: string;
  prefix: string;
  label: string;
  sortable: boolean;
}) {
  const translate = useTranslate();
  return (
    <FunctionField
      source={source}
      label={label}
      sortable={sortable}
      render={(record: Record<string, unknown>) => (
        <Typography variant="body2" component="span">
          {translate(`${prefix}.${String(record[source])}`, { _: String(record[source]) })}
        </Typography>
      )}
    />
  );
}

/** Columns of the generated list: the x-list fields, or the first few scalars when none is marked. */
/**
 * The getList `meta` of a list showing these fields: its reference columns' records are sent with
 * the page (src/dataProvider/index.ts `meta.prefetch`); none when it shows no reference.
 */
export function prefetchMeta(fields: FieldModel[]): { prefetch: string[] } | undefined {
  const prefetch = fields.filter((field) => field.kind === 'reference').map((field) => field.name);
  return prefetch.length > 0 ? { prefetch } : undefined;
}

export function listFields(model: ResourceModel): FieldModel[] {
  const marked = model.fields.filter((field) => field.list);
  return marked.length > 0 ? marked : model.fields.filter((field) => field.sortable).slice(0, 6);
}
