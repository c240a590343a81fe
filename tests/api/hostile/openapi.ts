/**
 * The operations of the API as the app publishes them in its OpenAPI document (`app.swagger()`):
 * every method and path with its path and query parameters and its JSON body schema. Multipart
 * routes publish no body; their form parts come from a small table here (the only hand-written
 * knowledge the hostile-input generator needs).
 */
import type { JsonSchema } from '../../../src/schema/model.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Param {
  name: string;
  schema: JsonSchema;
  required: boolean;
}

/** A text part of a multipart form, or the file part. */
export interface FormPart {
  name: string;
  /** A valid value (text parts), or the content of the file part. */
  value: string | Buffer;
  file?: { filename: string; contentType: string };
  /** The part is JSON (import options): hostile values go inside it, per key. */
  json?: Record<string, unknown>;
}

export interface Operation {
  /** `PATCH /api/customers/{id}` */
  key: string;
  method: Method;
  path: string;
  pathParams: Param[];
  query: Param[];
  /** The JSON request body (OpenAPI 3.0: `nullable` instead of type lists). */
  body?: JsonSchema;
  /** Multipart routes: the parts of a valid form. */
  form?: FormPart[];
  /** The resource the path belongs to (`/api/<resource>…`), when it is one. */
  resource?: string;
  /** The operation's summary, for reports. */
  summary?: string;
}

interface OpenApiOperation {
  summary?: string;
  parameters?: Array<{ in: string; name: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  paths?: Record<string, Record<string, OpenApiOperation>>;
}

/** A one-page PDF (file-type recognises it by its header). */
export const PDF_BYTES = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);
/** A 1×1 PNG. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const CSV =
  'Vorname;Nachname;E-Mail;PLZ;Ort\nHostile;Import;hostile.import@example.ch;8001;Zürich\n';

/**
 * Form parts of the multipart routes (they are not in the OpenAPI document): one valid form each,
 * whose text parts and JSON keys the generator replaces with hostile values.
 */
export const MULTIPART_FORMS: Record<string, FormPart[]> = {
  'POST /api/customers/{id}/documents': [
    { name: 'document_name', value: 'Hostile probe' },
    { name: 'document_type', value: 'policy' },
    { name: 'document_related_to', value: 'customer' },
    {
      name: 'file',
      value: PDF_BYTES,
      file: { filename: 'probe.pdf', contentType: 'application/pdf' },
    },
  ],
  'POST /api/customers/{id}/avatar': [
    { name: 'file', value: PNG_BYTES, file: { filename: 'probe.png', contentType: 'image/png' } },
  ],
  'POST /api/feedbacks/{id}/image': [
    { name: 'file', value: PNG_BYTES, file: { filename: 'probe.png', contentType: 'image/png' } },
  ],
  'POST /api/customers/import/preview': [
    { name: 'file', value: CSV, file: { filename: 'probe.csv', contentType: 'text/csv' } },
    {
      name: 'options',
      value: '{}',
      json: {
        mode: 'skip_invalid',
        encoding: 'utf-8',
        delimiter: ';',
        import_recommended_by: 'Probe',
        import_lead_source: null,
        assigned_to: null,
        mapping: { Vorname: 'firstName', Nachname: 'lastName', 'E-Mail': 'email' },
      },
    },
  ],
  'POST /api/customers/import': [
    { name: 'file', value: CSV, file: { filename: 'probe.csv', contentType: 'text/csv' } },
    {
      name: 'options',
      value: '{}',
      json: {
        mode: 'skip_invalid',
        encoding: 'utf-8',
        delimiter: ';',
        import_lead_source: null,
        assigned_to: null,
      },
    },
  ],
  // Leads: the same form; the lead source for every row (demo source 1, visible to every role).
  'POST /api/leads/import/preview': [
    { name: 'file', value: CSV, file: { filename: 'probe.csv', contentType: 'text/csv' } },
    {
      name: 'options',
      value: '{}',
      json: {
        mode: 'skip_invalid',
        encoding: 'utf-8',
        delimiter: ';',
        import_recommended_by: 'Probe',
        import_lead_source: 1,
        assigned_to: null,
        mapping: { Vorname: 'firstName', Nachname: 'lastName', 'E-Mail': 'email' },
      },
    },
  ],
  'POST /api/leads/import': [
    { name: 'file', value: CSV, file: { filename: 'probe.csv', contentType: 'text/csv' } },
    {
      name: 'options',
      value: '{}',
      json: {
        mode: 'skip_invalid',
        encoding: 'utf-8',
        delimiter: ';',
        import_lead_source: 1,
        assigned_to: null,
      },
    },
  ],
};

const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Every operation of the document under /api (the docs themselves excluded). */
export function operationsOf(document: OpenApiDocument, resources: string[]): Operation[] {
  const out: Operation[] = [];
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith('/api/') || path.startsWith('/api/docs')) continue;
    for (const [lower, operation] of Object.entries(operations)) {
      const method = lower.toUpperCase() as Method;
      if (!METHODS.includes(method)) continue;
      const key = `${method} ${path}`;
      const parameters = operation.parameters ?? [];
      const param = (where: string) =>
        parameters
          .filter((p) => p.in === where)
          .map((p) => ({ name: p.name, schema: p.schema ?? {}, required: Boolean(p.required) }));
      const segment = path.split('/')[2];
      out.push({
        key,
        method,
        path,
        pathParams: param('path'),
        query: param('query'),
        body: operation.requestBody?.content?.['application/json']?.schema,
        form: MULTIPART_FORMS[key],
        resource: resources.includes(segment) ? segment : undefined,
        summary: operation.summary,
      });
    }
  }
  return out;
}

/** `/api/customers/{id}` with `{id}` replaced (the value is put in as given: encode it first). */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_match, name: string) => values[name] ?? '1');
}
