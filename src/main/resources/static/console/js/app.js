// The console's wiring: the token form, the access it grants, and the two pages chosen by the address's hash
// (#/ the clocks, #/clock/<name> one clock). Each page polls while it is shown and stops when left.
import { mayWrite, useToken, token, whenUnauthorized } from './api.js';
import { show } from './dom.js';
import { clocksPage } from './clocks.js';
import { clockPage } from './clock.js';

const view = document.getElementById('view');
const errorBox = document.getElementById('error');
const access = document.getElementById('access');
const tokenForm = document.getElementById('token-form');
const tokenInput = document.getElementById('token-input');

let current = { stop() {} };
let writable = false;

// What every page is given: where to draw, whether changes may be offered, how to report a refusal.
const context = {
  view,
  writable: () => writable,
  report(problem) {
    if (problem === null) {
      errorBox.hidden = true;
      show(errorBox);
      return;
    }
    show(errorBox, problem.message ?? String(problem));
    errorBox.hidden = false;
  },
  confirm(text) {
    const dialog = document.getElementById('confirm');
    show(document.getElementById('confirm-text'), text);
    dialog.returnValue = '';
    return new Promise((resolve) => {
      dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
      dialog.showModal();
      document.getElementById('confirm-cancel').focus();
    });
  },
};

async function checkAccess() {
  access.dataset.access = 'unknown';
  show(access, 'checking access…');
  writable = await mayWrite();
  access.dataset.access = writable ? 'write' : 'read';
  show(access, writable ? 'may read and change' : 'read only (or no access)');
  document.body.dataset.access = access.dataset.access;
}

function route() {
  current.stop();
  context.report(null);
  const hash = decodeURIComponent(location.hash.replace(/^#/, ''));
  const match = /^\/clock\/(.+)$/.exec(hash);
  current = match ? clockPage(context, match[1]) : clocksPage(context);
  view.focus({ preventScroll: true });
}

tokenForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  useToken(tokenInput.value);
  tokenInput.value = '';
  await checkAccess();
  route();
});
document.getElementById('forget-token').addEventListener('click', async () => {
  useToken('');
  await checkAccess();
  route();
});
whenUnauthorized(() => {
  tokenInput.placeholder = 'this service needs a token';
});
window.addEventListener('hashchange', route);

tokenInput.placeholder = token() === '' ? '' : 'a token is kept for this tab';
await checkAccess();
route();
