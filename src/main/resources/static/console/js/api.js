// The service's HTTP API as the console uses it. The token is kept in sessionStorage (this tab only, gone when it
// closes) and sent as a bearer header; no cookies, so no request can be forged from another site.

import { ProblemError, problemFrom } from '../../js/api.js';

export { ProblemError };

const TOKEN_KEY = 'timeservice.console.token';

export function token() {
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

export function useToken(value) {
  if (value.trim() === '') {
    sessionStorage.removeItem(TOKEN_KEY);
  } else {
    sessionStorage.setItem(TOKEN_KEY, value.trim());
  }
}

let onUnauthorized = () => {};

export function whenUnauthorized(handler) {
  onUnauthorized = handler;
}

export async function call(method, path, body, accept = 'application/json') {
  const init = { method, headers: { Accept: `${accept}, application/problem+json` } };
  if (token() !== '') {
    init.headers.Authorization = `Bearer ${token()}`;
  }
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (failure) {
    throw new ProblemError(0, 'unreachable', `The service did not answer (${failure.message}).`);
  }
  if (!response.ok) {
    if (response.status === 401) {
      onUnauthorized();
    }
    throw await problemFrom(response);
  }
  if (response.status === 204) {
    return null;
  }
  return accept === 'application/json' ? response.json() : response.blob();
}

// Whether the token may change things: a bulk redrive with a filter the service refuses (minAttempt 0) changes
// nothing; it is answered 400 to a caller with the write scope and 403 to one with only the read scope (the scope is
// checked before the request is read).
export async function mayWrite() {
  try {
    await call('POST', '/clocks/default/deliveries/dead/redrive', { minAttempt: 0 });
    return true;
  } catch (problem) {
    return problem.status !== 401 && problem.status !== 403;
  }
}

export const clockPath = (clock) => `/clocks/${encodeURIComponent(clock)}`;

export function query(parameters) {
  const parts = [];
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined && value !== null && value !== '') {
      parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
    }
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}
