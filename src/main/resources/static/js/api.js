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

async function call(method, path, body) {
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
    }
    throw problem;
  }
  return response.status === 204 ? null : response.json();
}

async function problemFrom(response) {
  try {
    const problem = await response.json();
    return new ProblemError(response.status, problem.code ?? 'unknown',
      problem.detail ?? problem.title ?? `HTTP ${response.status}`);
  } catch (notJson) {
    return new ProblemError(response.status, 'unknown', `The service answered HTTP ${response.status}.`);
  }
}

const idPath = (id) => `/timers/${encodeURIComponent(id)}`;

export const api = {
  heap: (limit) => call('GET', `/queue/heap?limit=${limit}`),
  timer: (id) => call('GET', idPath(id)),
  firstInFiringOrder: (limit) => call('GET', `/timers?limit=${limit}`),
  demo: () => call('GET', '/demo'),
  resetDemo: () => call('POST', '/demo/reset'),

  // The mutations; `traced` asks the service to record the heap steps it takes.
  add: (timer, traced) => call('POST', `/timers?trace=${traced}`, timer),
  cancel: (id, traced) => call('DELETE', `${idPath(id)}?trace=${traced}`),
  edit: (id, changes, traced) => call('PATCH', `${idPath(id)}?trace=${traced}`, changes),
  advance: (by, traced) => call('POST', `/clock/advance?trace=${traced}`, { by }),
};
