/**
 * The one HTTP client of the web app: the data provider (./index.ts), the auth provider, the
 * localization client and every custom screen call the API through it. One base URL, one bearer
 * token, one key convention (bodies camelCase → snake_case, answers snake_case → camelCase) and one
 * error type: every failure is a react-admin `HttpError` made by `toProviderError`
 * (./httpClient.ts) — `status` (0: the server could not be reached), `message`, `body` (the
 * server's answer; a 422's `errors` as `{ "<camelCase.path>": "message" }`; a version conflict's
 * `current` record camelCased), read with `messageOf`, `statusOf`, `fieldErrorOf`, `conflictOf`.
 *
 * - `request`: JSON exactly as sent and answered (the data provider converts keys itself);
 * - `json`: JSON with the key convention (`raw` keeps the answer's keys where they are data);
 * - `upload`: a multipart form with upload progress, answered with JSON;
 * - `stream`: a multipart form answered with NDJSON lines (progress …, then a summary; a line
 *   `{ type: 'error', status, message, … }` rejects like an error answer);
 * - `blob` / `download`: files that need the token.
 * `auth: false` sends no token (the start-up configuration, before anyone signed in).
 */
import { HttpError } from 'react-admin';
import { isPlainObject, toCamelDeep, toSnakeDeep } from '../schema/case.ts';
import {
  defaultHttpClient,
  type HttpClient,
  type HttpRequestOptions,
  readStoredToken,
  toProviderError,
} from './httpClient.ts';

export {
  conflictOf,
  errorDetails,
  fieldErrorOf,
  fieldErrorsOf,
  messageOf,
  statusOf,
  type VersionedRecord,
} from './httpClient.ts';

export interface ApiClientOptions {
  /** Base URL of the API. Default '/api'. */
  apiUrl?: string;
  /** Default: react-admin's `fetchUtils.fetchJson`. */
  httpClient?: HttpClient;
  /** Default: the `token` item of localStorage. */
  getToken?: () => string | null | undefined;
}

export interface CallOptions {
  body?: unknown;
  signal?: AbortSignal;
  /** false: no bearer token even when signed in. */
  auth?: boolean;
}

export interface JsonOptions extends CallOptions {
  /** Keep the answer's keys as sent (when they are data, e.g. CSV column names). */
  raw?: boolean;
}

export interface FormOptions {
  /** Upload progress, 0..1. */
  onUpload?: (fraction: number) => void;
  /** Keep the answer's keys as sent. */
  raw?: boolean;
}

export interface StreamOptions {
  onUpload?: (fraction: number) => void;
  /** Each line as it arrives, camelCased. */
  onLine?: (line: Record<string, unknown>) => void;
}

function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/** An error answer (status and body text) as the one error type. */
function answerError(method: string, url: string, status: number, text: string, reason = '') {
  const body = parseJson(text) ?? null;
  return toProviderError(new HttpError(reason || `HTTP ${status}`, status, body), method, url);
}

export function createApiClient(options: ApiClientOptions = {}) {
  const apiUrl = (options.apiUrl ?? '/api').replace(/\/+$/, '');
  const httpClient = options.httpClient ?? defaultHttpClient;
  const getToken = options.getToken ?? readStoredToken;
  const urlOf = (path: string) => `${apiUrl}/${path.replace(/^\/+/, '')}`;
  const bearer = (auth = true): string | undefined => {
    const token = auth ? getToken() : null;
    return token ? `Bearer ${token}` : undefined;
  };

  /** JSON as sent and answered; the parsed answer (undefined when it is not JSON). */
  async function request(method: string, path: string, call: CallOptions = {}): Promise<unknown> {
    const url = urlOf(path);
    const headers = new Headers({ Accept: 'application/json' });
    const authorization = bearer(call.auth);
    if (authorization) headers.set('Authorization', authorization);
    const init: HttpRequestOptions = { method, headers };
    if (call.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      init.body = JSON.stringify(call.body);
    }
    if (call.signal) init.signal = call.signal;
    try {
      return (await httpClient(url, init)).json;
    } catch (error) {
      throw toProviderError(error, method, url);
    }
  }

  /** JSON with the key convention: the body snake_cased, the answer camelCased (unless `raw`). */
  async function json<T>(method: string, path: string, call: JsonOptions = {}): Promise<T> {
    const body = call.body === undefined ? undefined : toSnakeDeep(call.body);
    const answer = await request(method, path, { ...call, body });
    return (call.raw ? answer : toCamelDeep(answer)) as T;
  }

  /** POSTs a multipart form by XMLHttpRequest (fetch reports no upload progress). */
  function send(
    path: string,
    form: FormData,
    accept: string,
    onUpload?: (fraction: number) => void,
    onText?: (text: string) => void,
  ): Promise<{ status: number; text: string }> {
    const url = urlOf(path);
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', url);
      const authorization = bearer();
      if (authorization) xhr.setRequestHeader('Authorization', authorization);
      xhr.setRequestHeader('Accept', accept);
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onUpload?.(event.loaded / event.total);
      };
      xhr.onprogress = () => onText?.(xhr.responseText);
      xhr.onload = () => {
        if (xhr.status >= 200 && xhr.status < 300) {
          resolve({ status: xhr.status, text: xhr.responseText });
        } else {
          reject(answerError('POST', url, xhr.status, xhr.responseText, xhr.statusText));
        }
      };
      xhr.onerror = () => reject(toProviderError(new TypeError('network error'), 'POST', url));
      xhr.send(form);
    });
  }

  /** A multipart form answered with JSON (camelCased unless `raw`). */
  async function upload<T>(path: string, form: FormData, call: FormOptions = {}): Promise<T> {
    const { text } = await send(path, form, 'application/json', call.onUpload);
    const answer = parseJson(text);
    return (call.raw ? answer : toCamelDeep(answer)) as T;
  }

  /**
   * A multipart form answered with NDJSON: `onLine` gets each line (camelCased) as it arrives; the
   * promise resolves with the last line, or rejects with the error a `type: 'error'` line carries.
   */
  async function stream(
    path: string,
    form: FormData,
    call: StreamOptions = {},
  ): Promise<Record<string, unknown> | undefined> {
    let seen = 0;
    let last: Record<string, unknown> | undefined;
    const take = (text: string, final: boolean) => {
      const lines = text.split('\n');
      for (const end = final ? lines.length : lines.length - 1; seen < end; seen++) {
        const line = parseJson(lines[seen].trim());
        if (!isPlainObject(line)) continue;
        last = line;
        call.onLine?.(toCamelDeep(line) as Record<string, unknown>);
      }
    };
    const { text } = await send(path, form, 'application/x-ndjson', call.onUpload, (partial) =>
      take(partial, false),
    );
    take(text, true);
    if (last?.type === 'error') {
      const { type: _type, status, message, ...body } = last;
      const failure = new HttpError(String(message ?? ''), Number(status) || 500, {
        message,
        ...body,
      });
      throw toProviderError(failure, 'POST', urlOf(path));
    }
    return last ? (toCamelDeep(last) as Record<string, unknown>) : undefined;
  }

  /** A file that needs the token, with the name the server gives it. */
  async function blob(path: string): Promise<{ blob: Blob; fileName?: string }> {
    const url = urlOf(path);
    const headers = new Headers();
    const authorization = bearer();
    if (authorization) headers.set('Authorization', authorization);
    let response: Response;
    try {
      response = await fetch(url, { headers });
    } catch (error) {
      throw toProviderError(error, 'GET', url);
    }
    if (!response.ok) {
      throw answerError('GET', url, response.status, await response.text(), response.statusText);
    }
    const disposition = response.headers.get('content-disposition') ?? '';
    const encoded = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
    const plain = /filename="([^"]+)"/.exec(disposition)?.[1];
    return { blob: await response.blob(), fileName: encoded ? decodeURIComponent(encoded) : plain };
  }

  /** Saves a file that needs the token through the browser's download. */
  async function download(path: string, fallbackName: string): Promise<void> {
    const file = await blob(path);
    const url = URL.createObjectURL(file.blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = file.fileName ?? fallbackName;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  return { request, json, upload, stream, blob, download };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The client every screen uses: '/api', the token saved at login. */
export const api: ApiClient = createApiClient();
