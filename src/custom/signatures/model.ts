/**
 * The browser side of online signatures (issue 19): the public page's client — the API without a
 * session, with the link's token (`x-signature-token`) — its answers, and the strokes of a drawn
 * signature as the server takes them (pad size and flat point lists, CSS pixels).
 */
import { createApiClient, type ApiClient } from '../../dataProvider/apiClient.ts';
import { defaultHttpClient, type HttpClient } from '../../dataProvider/httpClient.ts';
import type { Language } from '../../i18n/index.ts';

export {
  type DrawnSignature,
  inkLength,
  LINK_DAYS,
  MIN_INK,
  SIGNABLE_TYPES,
} from '../../schema/signatures.ts';

export const TOKEN_HEADER = 'x-signature-token';
export const RESOURCE = 'signature-requests';

/** GET /api/public/signatures/:id, camelCased. */
export interface SigningInfo {
  id: number;
  documentName: string;
  documentType: string;
  signerName: string;
  language: Language;
  expiresAt: string;
  customerName: string | null;
  senderName: string | null;
  senderEmail: string | null;
}

/** Where the page reaches the API (tests point it elsewhere). */
export const signingOptions: { apiUrl?: string; httpClient?: HttpClient } = {};

/** The API as the signer reaches it: no session, the link's token. */
export function signingApi(token: string | null): ApiClient {
  const base: HttpClient = signingOptions.httpClient ?? defaultHttpClient;
  const httpClient: HttpClient = (url, options = {}) => {
    const headers = new Headers(options.headers);
    if (token) headers.set(TOKEN_HEADER, token);
    return base(url, { ...options, headers });
  };
  return createApiClient({ apiUrl: signingOptions.apiUrl, getToken: () => null, httpClient });
}

/** The PDF to sign, as bytes. */
export async function fetchSigningDocument(id: number, token: string): Promise<ArrayBuffer> {
  const response = await fetch(
    `${signingOptions.apiUrl ?? '/api'}/public/signatures/${id}/document`,
    {
      headers: { [TOKEN_HEADER]: token },
    },
  );
  if (!response.ok) throw new Error(String(response.status));
  return response.arrayBuffer();
}
