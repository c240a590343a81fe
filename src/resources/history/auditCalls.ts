/** The history API (GET /api/audit) as the screens call it, and the shape of one entry. */
import { api } from '../../dataProvider/apiClient.ts';

/** One change or event, camelCased by the client; `changes` keyed by field name. */
export interface AuditEntry {
  id: number;
  at: string;
  event: string;
  action: 'create' | 'update' | 'delete' | null;
  resource: string | null;
  recordId: string | null;
  parentResource: string | null;
  parentId: string | null;
  userId: number | null;
  userName: string | null;
  actor: string | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  changes: Record<string, { old: unknown; new: unknown }> | null;
  details: unknown;
}

export interface AuditFilter {
  resource?: string;
  recordId?: number | string;
  userId?: number | string;
  action?: string;
  from?: string;
  until?: string;
  page?: number;
  perPage?: number;
}

export interface AuditPage {
  data: AuditEntry[];
  meta: { total: number; currentPage: number; perPage: number; lastPage: number };
}

/** The query string of a filter: empty values left out, keys as the API names them. */
export function auditQuery(filter: AuditFilter): string {
  const names: Record<keyof AuditFilter, string> = {
    resource: 'resource',
    recordId: 'record_id',
    userId: 'user_id',
    action: 'action',
    from: 'from',
    until: 'until',
    page: 'page',
    perPage: 'per_page',
  };
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter) as [keyof AuditFilter, unknown][]) {
    if (value !== undefined && value !== null && value !== '')
      params.set(names[key], String(value));
  }
  return params.toString();
}

export const fetchAudit = (filter: AuditFilter, signal?: AbortSignal): Promise<AuditPage> =>
  api.json<AuditPage>('GET', `audit?${auditQuery(filter)}`, { signal });
