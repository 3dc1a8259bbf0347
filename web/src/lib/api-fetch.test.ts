import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '@/testing/test-utils';
import {
  ApiError,
  apiFetch,
  apiRequest,
  errorCode,
  errorMessage,
  errorStatus,
  NETWORK_ERROR_MESSAGE,
  serverMessage,
} from './api-fetch';

afterEach(() => vi.unstubAllGlobals());

function lastInit(fetchMock: ReturnType<typeof mockFetch>): RequestInit {
  return fetchMock.mock.calls.at(-1)![1] as RequestInit;
}

describe('apiFetch', () => {
  it('always sends credentials', async () => {
    const fetchMock = mockFetch({ 'GET /api/auth/user': () => new Response('{}', { status: 200 }) });
    await apiFetch('/api/auth/user');
    expect(lastInit(fetchMock).credentials).toBe('include');
  });

  it('sends a JSON content type only when there is a body', async () => {
    const fetchMock = mockFetch({
      'POST /api/login': () => new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } }),
      'POST /api/logout': () => new Response('{}', { status: 200 }),
    });
    await apiRequest('POST', '/api/login', { email: 'a@b.co', password: 'x' });
    expect(new Headers(lastInit(fetchMock).headers).get('Content-Type')).toBe('application/json');
    expect(lastInit(fetchMock).body).toBe(JSON.stringify({ email: 'a@b.co', password: 'x' }));

    await apiRequest('POST', '/api/logout');
    expect(new Headers(lastInit(fetchMock).headers).has('Content-Type')).toBe(false);
    expect(lastInit(fetchMock).body).toBeUndefined();
  });

  it('never sets a content type for FormData, even when one was asked for', async () => {
    const fetchMock = mockFetch({ 'POST /api/user/profile-image': () => new Response('{}', { status: 200 }) });
    const form = new FormData();
    form.append('profileImage', new Blob(['x'], { type: 'image/png' }), 'a.png');
    await apiFetch('/api/user/profile-image', {
      method: 'POST',
      body: form,
      headers: { 'Content-Type': 'multipart/form-data' },
    });
    expect(new Headers(lastInit(fetchMock).headers).has('Content-Type')).toBe(false);
    expect(lastInit(fetchMock).body).toBe(form);
  });

  it('returns parsed JSON, text, or undefined for an empty body', async () => {
    mockFetch({
      'GET /json': () => new Response('{"a":1}', { status: 200, headers: { 'Content-Type': 'application/json' } }),
      'GET /text': () => new Response('hello', { status: 200, headers: { 'Content-Type': 'text/plain' } }),
      'GET /empty': () => new Response(null, { status: 204 }),
    });
    await expect(apiFetch('/json')).resolves.toEqual({ a: 1 });
    await expect(apiFetch('/text')).resolves.toBe('hello');
    await expect(apiFetch('/empty')).resolves.toBeUndefined();
  });

  it('throws "<status>: <body text>" on a non-OK response', async () => {
    mockFetch({
      'POST /api/login': () =>
        new Response('{"message":"Invalid email or password"}', { status: 401, statusText: 'Unauthorized' }),
    });
    const error = await apiRequest('POST', '/api/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).message).toBe('401: {"message":"Invalid email or password"}');
    expect(errorStatus(error)).toBe(401);
  });

  it('falls back to the status text when the body is empty', async () => {
    mockFetch({ 'GET /api/x': () => new Response('', { status: 503, statusText: 'Service Unavailable' }) });
    await expect(apiFetch('/api/x')).rejects.toThrow(/^503: Service Unavailable$/);
  });
});

describe('errorCode', () => {
  it("reads the api's code from an error response", async () => {
    mockFetch({
      'POST /api/reservations': () =>
        new Response('{"code":"slot_taken","message":"This time is no longer available"}', {
          status: 409,
          statusText: 'Conflict',
        }),
    });
    const error = await apiRequest('POST', '/api/reservations', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('slot_taken');
    expect(errorCode(error)).toBe('slot_taken');
    expect(errorStatus(error)).toBe(409);
    // The message is still the one to show.
    expect(serverMessage(error)).toBe('This time is no longer available');
  });

  it('also reads plain Errors in the "<status>: <body>" form', () => {
    expect(errorCode(new Error('429: {"code":"rate_limited","message":"Slow down"}'))).toBe('rate_limited');
  });

  it('is undefined when the body carries no code', () => {
    expect(errorCode(new ApiError(502, 'Bad Gateway', '<html>bad</html>'))).toBeUndefined();
    expect(errorCode(new ApiError(503, 'Service Unavailable', ''))).toBeUndefined();
    expect(errorCode(new ApiError(400, 'Bad Request', '{"message":"x"}'))).toBeUndefined();
    expect(errorCode(new ApiError(400, 'Bad Request', '{"code":'))).toBeUndefined();
    expect(errorCode(new Error('boom'))).toBeUndefined();
    expect(errorCode(new TypeError('Failed to fetch'))).toBeUndefined();
  });
});

describe('serverMessage and errorMessage', () => {
  it("read the server's message field", () => {
    const error = new ApiError(409, 'Conflict', '{"message":"An account with this email already exists"}');
    expect(serverMessage(error)).toBe('An account with this email already exists');
    expect(errorMessage(error, 'Registration failed')).toBe('An account with this email already exists');
  });

  it('also read plain Errors in the "<status>: <body>" form', () => {
    expect(serverMessage(new Error('400: {"message":"Invalid or expired link"}'))).toBe('Invalid or expired link');
    expect(errorStatus(new Error('404: {"message":"x"}'))).toBe(404);
  });

  it('fall back when there is no message', () => {
    expect(errorMessage(new ApiError(500, 'Internal Server Error', ''), 'Login failed')).toBe('Login failed');
    expect(errorMessage(new ApiError(500, 'x', '{"error":"x"}'), 'Login failed')).toBe('Login failed');
    expect(errorMessage(new ApiError(502, 'Bad Gateway', '<html>bad</html>'), 'Login failed')).toBe('Login failed');
    expect(errorMessage(new Error('boom'), 'Login failed')).toBe('Login failed');
  });

  it('use a plain-text body as it is', () => {
    expect(errorMessage(new ApiError(429, 'Too Many Requests', 'Slow down'), 'x')).toBe('Slow down');
  });

  it('name network failures', () => {
    const offline = new TypeError('Failed to fetch');
    expect(errorMessage(offline, 'Failed to reset password')).toBe(NETWORK_ERROR_MESSAGE);
    expect(errorMessage(offline, 'Failed to reset password', { network: false })).toBe('Failed to reset password');
  });
});
