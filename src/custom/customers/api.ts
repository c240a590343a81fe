/**
 * Calls of the customer screens that are not react-admin CRUD: duplicates, merge, conversion of a
 * household member, uploads with progress, downloads of protected files, the CSV import (progress
 * lines) and the export. Keys on the wire are snake_case; answers are camelCased here.
 */
import { toCamelDeep, toSnakeDeep } from '../../schema/case.ts';
import { readStoredToken } from '../../dataProvider/httpClient.ts';

export interface ApiFailure {
  status: number;
  message: string;
  errors?: Record<string, string[]>;
  rowErrors?: RowError[];
}

export interface RowError {
  row: number;
  line: number;
  column: string | null;
  field: string | null;
  message: string;
}

export class ApiCallError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.message);
  }
}

const authHeaders = (): Record<string, string> => {
  const token = readStoredToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
};

function failureOf(status: number, body: unknown): ApiFailure {
  const json = (body ?? {}) as {
    message?: string;
    errors?: Record<string, string[]>;
    row_errors?: RowError[];
  };
  return {
    status,
    message: json.message ?? `HTTP ${status}`,
    errors: json.errors,
    rowErrors: json.row_errors,
  };
}

/** JSON call; resolves with the camelCased answer, rejects with ApiCallError. */
export async function apiJson<T>(
  method: string,
  path: string,
  body?: Record<string, unknown>,
): Promise<T> {
  const response = await fetch(`/api/${path}`, {
    method,
    headers: {
      Accept: 'application/json',
      ...authHeaders(),
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(toSnakeDeep(body)) : undefined,
  });
  const text = await response.text();
  const json = text ? (JSON.parse(text) as unknown) : undefined;
  if (!response.ok) throw new ApiCallError(failureOf(response.status, json));
  return toCamelDeep(json) as T;
}

/**
 * Sends a form (multipart) with upload progress (0..1). `onText` receives the answer as it
 * arrives (for progress lines); resolves with the status and the whole answer text.
 */
export function sendForm(
  path: string,
  form: FormData,
  options: {
    accept?: string;
    onUpload?: (fraction: number) => void;
    onText?: (text: string) => void;
  } = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api/${path}`);
    for (const [key, value] of Object.entries(authHeaders())) request.setRequestHeader(key, value);
    request.setRequestHeader('Accept', options.accept ?? 'application/json');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onUpload?.(event.loaded / event.total);
    };
    request.onprogress = () => options.onText?.(request.responseText);
    request.onload = () => resolve({ status: request.status, text: request.responseText });
    request.onerror = () =>
      reject(new ApiCallError({ status: 0, message: 'ra.notification.http_error' }));
    request.send(form);
  });
}

/** A form call that answers JSON (uploads). */
export async function sendFormJson<T>(
  path: string,
  form: FormData,
  onUpload?: (fraction: number) => void,
): Promise<T> {
  const { status, text } = await sendForm(path, form, { onUpload });
  const json = text ? (JSON.parse(text) as unknown) : undefined;
  if (status < 200 || status >= 300) throw new ApiCallError(failureOf(status, json));
  return toCamelDeep(json) as T;
}

/** A protected file as a blob (downloads and pictures need the bearer token). */
export async function fetchBlob(path: string): Promise<{ blob: Blob; fileName?: string }> {
  const response = await fetch(`/api/${path}`, { headers: authHeaders() });
  if (!response.ok) {
    const json = await response.json().catch(() => undefined);
    throw new ApiCallError(failureOf(response.status, json));
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
  const plain = /filename="([^"]+)"/.exec(disposition)?.[1];
  return { blob: await response.blob(), fileName: encoded ? decodeURIComponent(encoded) : plain };
}

/** Saves a protected file through the browser's download. */
export async function download(path: string, fallbackName: string): Promise<void> {
  const { blob, fileName } = await fetchBlob(path);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName ?? fallbackName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The message of a failed call, for a notification. */
export const messageOf = (error: unknown): string =>
  error instanceof ApiCallError ? error.failure.message : 'ra.notification.http_error';
