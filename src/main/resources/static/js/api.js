// The service's HTTP API, as the page uses it. Every refusal arrives as application/problem+json; callers get a
// ProblemError whose message is the problem's `detail`, so the user sees the service's own explanation.

export class ProblemError extends Error {
  constructor(status, code, detail) {
    super(detail);
    this.status = status;
    this.code = code;
  }
}

// A service that requires tokens answers 401 without one. The token a user types is kept in this page's memory
// only (not in storage, where any script of the origin could read it later) and sent as a bearer token.
let bearerToken = '';

export function useToken(token) {
  bearerToken = token.trim();
}

// What the page does when the service asks for a token (401): app.js opens the token form.
let askForToken = () => {};

export function whenTokenNeeded(handler) {
  askForToken = handler;
}

// A service with no token configured serves only its own machine (protected mode): opened from elsewhere, the page
// gets 403 protected_mode, whose detail tells how the operator can open access. app.js shows it in place of the heap.
let explainProtectedMode = () => {};

export function whenProtectedMode(handler) {
  explainProtectedMode = handler;
}

// The clock every queue call addresses. Clock names follow the id rules; checking them here also keeps "." and
// ".." out of a path, where the browser would resolve them away and address another resource.
export const DEFAULT_CLOCK = 'default';
const CLOCK_NAME = /^[A-Za-z0-9._~:-]{1,64}$/;

export function isClockName(name) {
  return CLOCK_NAME.test(name) && name !== '.' && name !== '..';
}

let clock = DEFAULT_CLOCK;

export function useClock(name) {
  if (!isClockName(name)) {
    throw new Error(`not a clock name: ${name}`);
  }
  clock = name;
}

export function currentClock() {
  return clock;
}

// The clock shown was deleted (or never existed): every call on it answers 404 clock_not_found. app.js says so in
// place of the heap; it is told which clock the call addressed, so an answer about a clock left meanwhile is ignored.
let explainClockNotFound = () => {};

export function whenClockNotFound(handler) {
  explainClockNotFound = handler;
}

async function call(method, path, body) {
  const calledClock = clock;
  const init = { method, headers: { Accept: 'application/json, application/problem+json' } };
  if (bearerToken !== '') {
    init.headers.Authorization = `Bearer ${bearerToken}`;
  }
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (networkFailure) {
    throw new ProblemError(0, 'unreachable', `The service did not answer (${networkFailure.message}).`);
  }
  if (!response.ok) {
    if (response.status === 401) {
      askForToken();
    }
    const problem = await problemFrom(response);
    if (problem.code === 'protected_mode') {
      explainProtectedMode(problem.message);
    } else if (problem.code === 'clock_not_found') {
      explainClockNotFound(calledClock, problem.message);
    }
    throw problem;
  }
  return response.status === 204 ? null : response.json();
}

// The problem+json answer as a ProblemError (the console's api.js reads refusals with it too).
export async function problemFrom(response) {
  try {
    const problem = await response.json();
    return new ProblemError(response.status, problem.code ?? 'unknown',
      problem.detail ?? problem.title ?? `HTTP ${response.status}`);
  } catch (notJson) {
    return new ProblemError(response.status, 'unknown', `The service answered HTTP ${response.status}.`);
  }
}

const clockPath = () => `/clocks/${encodeURIComponent(clock)}`;
const idPath = (id) => `${clockPath()}/timers/${encodeURIComponent(id)}`;

export const api = {
  clocks: (limit, after) => call('GET', `/clocks?limit=${limit}`
    + (after === undefined ? '' : `&after=${encodeURIComponent(after)}`)),
  heap: (limit) => call('GET', `${clockPath()}/queue/heap?limit=${limit}`),
  timer: (id) => call('GET', idPath(id)),
  firstInFiringOrder: (limit) => call('GET', `${clockPath()}/timers?limit=${limit}`),
  // The demo queue is the clock `default`'s: scenarios are offered only while it is shown.
  demo: () => call('GET', '/demo'),
  resetDemo: () => call('POST', '/demo/reset'),

  // The mutations; `traced` asks the service to record the heap steps it takes.
  add: (timer, traced) => call('POST', `${clockPath()}/timers?trace=${traced}`, timer),
  cancel: (id, traced) => call('DELETE', `${idPath(id)}?trace=${traced}`),
  edit: (id, changes, traced) => call('PATCH', `${idPath(id)}?trace=${traced}`, changes),
  advance: (by, traced) => call('POST', `${clockPath()}/advance?trace=${traced}`, { by }),
};
