/**
 * The one way the web app talks to the api; orval's generated client (src/api) calls it too.
 *
 * - Cookies always travel (`credentials: 'include'`): the session is an HttpOnly cookie.
 * - A JSON `Content-Type` is sent only when there is a body, and never for FormData
 *   (the browser sets the multipart boundary itself).
 * - Any non-OK response throws an {@link ApiError} whose message is
 *   `"<status>: <body text or status text>"`, with the api's `{code, message}` read from the body.
 *   Screens branch on {@link errorStatus} and {@link errorCode}, never on the message text.
 */
import type { ErrorBody, ErrorCode } from '@/api/model';

export type { ErrorCode };

export class ApiError extends Error {
  readonly status: number;
  /** The raw response body text ('' when the server sent none). */
  readonly body: string;
  /** The api's error code, when the body is its `{code, message}`. */
  readonly code: ErrorCode | undefined;

  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.code = parseErrorBody(body)?.code;
  }
}

/** The api's `{code, message}` in a response body text, or undefined for any other body. */
function parseErrorBody(body: string | undefined): Partial<ErrorBody> | undefined {
  const trimmed = body?.trim();
  if (!trimmed?.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (!parsed || typeof parsed !== 'object') return undefined;
    const { code, message } = parsed as { code?: unknown; message?: unknown };
    return {
      code: typeof code === 'string' ? (code as ErrorCode) : undefined,
      message: typeof message === 'string' ? message : undefined,
    };
  } catch {
    return undefined;
  }
}

function isBodyless(body: BodyInit | null | undefined): boolean {
  return body === undefined || body === null;
}

function isFormData(body: unknown): body is FormData {
  return typeof FormData !== 'undefined' && body instanceof FormData;
}

export async function apiFetch<T>(url: string, options: RequestInit = {}): Promise<T> {
  return (await apiFetchResponse<T>(url, options)).data;
}

/** A successful answer with what the body does not say: its status and headers. */
export type ApiResponse<T> = { data: T; status: number; headers: Headers };

/**
 * {@link apiFetch} that also gives the status and headers, for the few calls whose answer is in
 * them: a list's total (`X-Total-Count`), found (200) or made (201).
 */
export async function apiFetchResponse<T>(url: string, options: RequestInit = {}): Promise<ApiResponse<T>> {
  const headers = new Headers(options.headers);
  if (isBodyless(options.body) || isFormData(options.body)) {
    headers.delete('Content-Type');
  } else if (!headers.has('Content-Type')) {
    headers.set('Content-Type', 'application/json');
  }

  const res = await fetch(url, { ...options, headers, credentials: 'include' });

  if (!res.ok) {
    const text = await res.text().catch(() => '');
    throw new ApiError(res.status, res.statusText, text);
  }

  const answer = (data: unknown) => ({ data: data as T, status: res.status, headers: res.headers });
  if ([204, 205, 304].includes(res.status)) return answer(undefined);
  const text = await res.text();
  if (text === '') return answer(undefined);
  const contentType = res.headers.get('Content-Type') ?? '';
  if (contentType.includes('json')) return answer(JSON.parse(text));
  return answer(text);
}

/** The `X-Total-Count` of a paged list's answer (how many match on every page); 0 when absent. */
export function totalCount(headers: Headers): number {
  const n = Number(headers.get('X-Total-Count'));
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** Sends a JSON body (or none) with the given method; the spec's `apiRequest`. */
export function apiRequest<T>(method: string, url: string, data?: unknown): Promise<T> {
  return apiFetch<T>(url, {
    method,
    body: data === undefined ? undefined : JSON.stringify(data),
  });
}

/** The HTTP status of an error thrown by {@link apiFetch}, or undefined for other errors. */
export function errorStatus(error: unknown): number | undefined {
  if (error instanceof ApiError) return error.status;
  if (error instanceof Error) {
    const m = /^(\d{3}): /.exec(error.message);
    if (m) return Number(m[1]);
  }
  return undefined;
}

/** The body text of an error thrown by {@link apiFetch} (or of its `"<status>: <body>"` message). */
function bodyOf(error: unknown): string | undefined {
  if (error instanceof ApiError) return error.body;
  if (error instanceof Error) return /^\d{3}: ([\s\S]*)$/.exec(error.message)?.[1];
  return undefined;
}

/** The api's error `code` (`slot_taken`, `unauthorized`, ...) for an error thrown by {@link apiFetch}, if it sent one. */
export function errorCode(error: unknown): ErrorCode | undefined {
  if (error instanceof ApiError) return error.code;
  return parseErrorBody(bodyOf(error))?.code;
}

/**
 * The server's own `message` for an error thrown by {@link apiFetch}, if it sent one.
 * Errors are `{"code": "...", "message": "..."}` bodies; a non-JSON body text is used as it is.
 */
export function serverMessage(error: unknown): string | undefined {
  const body = bodyOf(error);
  if (!body) return undefined;
  const trimmed = body.trim();
  if (trimmed.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (parsed && typeof parsed === 'object' && 'message' in parsed) {
        const message = (parsed as { message: unknown }).message;
        if (typeof message === 'string' && message.trim() !== '') return message;
      }
      return undefined;
    } catch {
      // not JSON after all: fall through and use the text
    }
  }
  // An HTML error page (a proxy's, say) is no message for a person.
  if (trimmed.startsWith('<')) return undefined;
  return trimmed || undefined;
}

/** True for the TypeError fetch throws when the request never got an answer. */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError && !(error instanceof ApiError);
}

export const NETWORK_ERROR_MESSAGE = 'Network error. Please try again.';

/**
 * The text to show a person for a failed call: the server's message when present,
 * 'Network error. Please try again.' when the request never reached the server (if
 * `network` is not false), otherwise the screen's fallback text.
 */
export function errorMessage(error: unknown, fallback: string, { network = true }: { network?: boolean } = {}): string {
  const message = serverMessage(error);
  if (message) return message;
  if (network && isNetworkError(error)) return NETWORK_ERROR_MESSAGE;
  return fallback;
}
