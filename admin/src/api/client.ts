/**
 * The back office's API client: openapi-fetch typed by the served OpenAPI document (api/openapi.d.ts). The access
 * token lives in memory only; the session's refresh token is an HttpOnly cookie the page never sees, renewed
 * through POST /auth/admin/refresh with the CSRF token the sign-in answered (kept in this tab's storage).
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './openapi';

export const API = '/api/rest/v2';
export type Paths = paths;

type Ok<R> = R extends { 200: { content: { 'application/json': infer B } } }
  ? B
  : R extends { 201: { content: { 'application/json': infer B } } }
    ? B
    : never;
/** What an operation answers (its JSON body), e.g. `Answer<'/api/rest/v2/orders/{id}', 'get'>`. */
export type Answer<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: infer R } ? Ok<R> : never;
/** One row of a list operation's answer, e.g. `Row<'/api/rest/v2/orders'>`. */
export type Row<P extends keyof paths> = Answer<P, 'get' & keyof paths[P]> extends (infer I)[] ? I : never;

/** An answer in the API's error shape ({ error, message, code, details }). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
  /** the request field the error names, if any */
  get field(): string | undefined {
    const f = this.details.field;
    return typeof f === 'string' ? f : undefined;
  }
}

export function toApiError(status: number, body: unknown): ApiError {
  const b = (body ?? {}) as { error?: unknown; message?: unknown; details?: unknown };
  return new ApiError(
    status,
    typeof b.error === 'string' ? b.error : 'error',
    typeof b.message === 'string' ? b.message : `HTTP ${status}`,
    b.details && typeof b.details === 'object' ? (b.details as Record<string, unknown>) : {},
  );
}

interface Token {
  value: string;
  expiresAt: number;
}
let token: Token | undefined;
let refreshing: Promise<boolean> | undefined;
const CSRF_KEY = 'backoffice.csrf';
const listeners = new Set<() => void>();

/** Called when the session ends on its own (expired, signed out elsewhere): the application shows the sign-in. */
export function onSessionLost(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export interface TokenAnswer {
  access_token: string;
  expires_in: number;
  csrfToken?: string;
}

export function acceptToken(t: TokenAnswer): void {
  token = { value: t.access_token, expiresAt: Date.now() + t.expires_in * 1000 };
  if (t.csrfToken) sessionStorage.setItem(CSRF_KEY, t.csrfToken);
}

export function forgetToken(): void {
  token = undefined;
  sessionStorage.removeItem(CSRF_KEY);
}

export const hasToken = () => !!token;
export const csrfToken = () => sessionStorage.getItem(CSRF_KEY) ?? '';

/** A new access token from the session cookie; false when there is no live session. */
export function refresh(): Promise<boolean> {
  refreshing ??= (async () => {
    try {
      const csrf = csrfToken();
      if (!csrf) return false;
      const res = await fetch(`${API}/auth/admin/refresh`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'x-csrf-token': csrf, 'content-type': 'application/json' },
        body: '{}',
      });
      if (!res.ok) {
        forgetToken();
        return false;
      }
      acceptToken((await res.json()) as TokenAnswer);
      return true;
    } catch {
      return false;
    } finally {
      refreshing = undefined;
    }
  })();
  return refreshing;
}

const auth: Middleware = {
  async onRequest({ request }) {
    // renewed a minute before it runs out, so a request never leaves with a token about to expire
    if (token && token.expiresAt - Date.now() < 60_000) await refresh();
    if (token) request.headers.set('authorization', `Bearer ${token.value}`);
    return request;
  },
  async onResponse({ response, request }) {
    if (response.status === 401 && token && !request.url.includes('/auth/')) {
      forgetToken();
      for (const fn of listeners) fn();
    }
    return response;
  },
};

// the document's paths carry the /api/rest/v2 prefix
export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });
api.use(auth);

/** The data of an openapi-fetch answer, or its error thrown as an ApiError. */
export async function unwrap<T>(p: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await p;
  if (error !== undefined || !response.ok) throw toApiError(response.status, error);
  return data as T;
}

/** A GET answered as text (CSV exports, PDFs) or bytes, with the session's token. */
export async function download(path: string): Promise<Blob> {
  if (token && token.expiresAt - Date.now() < 60_000) await refresh();
  const res = await fetch(`${API}${path}`, { headers: token ? { authorization: `Bearer ${token.value}` } : {} });
  if (!res.ok) throw toApiError(res.status, await res.json().catch(() => ({})));
  return res.blob();
}
