// The clocks page: a page of clocks at a time (GET /clocks?limit&after), filtered by the start of their names, kept
// live by polling the page shown every 2 s. Names are in String order, so the clocks of a prefix are one run:
// the listing starts just before the prefix and stops at the first name past it.
import { call, query } from './api.js';
import { h, show, utc } from './dom.js';

const PAGE = 50;
const POLL_MILLIS = 2000;

// The greatest name before every name that starts with prefix: the prefix with its last character one lower.
function startBefore(prefix) {
  if (prefix === '') {
    return undefined;
  }
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last - 1) + '\u{10FFFF}';
}

export function clocksPage(context) {
  let prefix = '';
  let starts = [undefined]; // the `after` of each page seen, for Previous
  let timer = null;
  let stopped = false;

  const filter = h('input', { id: 'clock-prefix', type: 'search', spellcheck: 'false', placeholder: 'name starts with' });
  const body = h('tbody', { id: 'clock-rows' });
  const status = h('p', { id: 'clocks-status', class: 'note', 'aria-live': 'polite' });
  const previous = h('button', { type: 'button', id: 'clocks-previous', onclick: () => page(-1) }, 'Previous');
  const next = h('button', { type: 'button', id: 'clocks-next', onclick: () => page(1) }, 'Next');

  show(context.view,
    h('h2', {}, 'Clocks'),
    h('form', { class: 'row', role: 'search', onsubmit: (event) => {
      event.preventDefault();
      prefix = filter.value;
      starts = [startBefore(prefix)];
      load();
    } }, h('label', { for: 'clock-prefix' }, 'Filter'), filter, h('button', { type: 'submit' }, 'Filter')),
    h('table', { class: 'grid', id: 'clocks' },
      h('thead', {}, h('tr', {}, ['Name', 'Mode', 'Delivery', 'Now', 'Pending', 'Ready', 'In flight', 'Waiting',
        'Dead', 'Schedules', 'Push target (health)'].map((title) => h('th', { scope: 'col' }, title)))),
      body),
    h('div', { class: 'row' }, previous, next, status));

  let lastName = null;
  let more = false;

  async function load() {
    clearTimeout(timer);
    try {
      const after = starts[starts.length - 1];
      const listed = await call('GET', `/clocks${query({ limit: PAGE + 1, after })}`);
      if (stopped) {
        return;
      }
      let clocks = listed.clocks;
      const inPrefix = clocks.filter((clock) => clock.name.startsWith(prefix));
      const pastPrefix = inPrefix.length < clocks.length && clocks.some((clock) => clock.name > prefix
        && !clock.name.startsWith(prefix));
      more = !pastPrefix && clocks.length > PAGE;
      clocks = inPrefix.slice(0, PAGE);
      lastName = clocks.length > 0 ? clocks[clocks.length - 1].name : null;
      show(body, clocks.map(row));
      previous.disabled = starts.length === 1;
      next.disabled = !more;
      show(status, `${clocks.length} clock${clocks.length === 1 ? '' : 's'} on this page`
        + (prefix === '' ? '' : ` starting with "${prefix}"`) + `, refreshed ${new Date().toLocaleTimeString()}`);
      context.report(null);
    } catch (problem) {
      context.report(problem);
    }
    if (!stopped) {
      timer = setTimeout(load, POLL_MILLIS);
    }
  }

  function page(step) {
    if (step > 0 && lastName !== null) {
      starts.push(lastName);
    } else if (step < 0 && starts.length > 1) {
      starts.pop();
    }
    load();
  }

  function row(clock) {
    const counts = clock.deliveries;
    const count = (name) => (counts === undefined ? '—' : counts[name]);
    return h('tr', { 'data-clock': clock.name },
      h('th', { scope: 'row' }, h('a', { href: `#/clock/${encodeURIComponent(clock.name)}` }, clock.name)),
      h('td', {}, clock.mode + (clock.rate === undefined ? '' : ` ×${clock.rate}`)),
      h('td', {}, clock.delivery),
      h('td', { title: String(clock.now) }, `${clock.now}`, h('br'), h('small', {}, utc(clock.now))),
      h('td', { class: 'num' }, clock.size),
      h('td', { class: 'num' }, count('ready')),
      h('td', { class: 'num' }, count('inFlight')),
      h('td', { class: 'num' }, count('waiting')),
      h('td', { class: 'num', 'data-dead': count('dead') }, count('dead')),
      h('td', { class: 'num', 'data-schedules': clock.schedules }, clock.schedules),
      clock.push === undefined ? h('td', {}, '—') : pushCell(clock));
  }

  // The push target's host and its health as this instance saw its last attempts (GET .../push/recent): healthy
  // when the last one succeeded, failing with how many failed in a row, unknown before any.
  function pushCell(clock) {
    const health = h('span', { class: 'health', 'data-health': 'unknown' }, '…');
    call('GET', `/clocks/${encodeURIComponent(clock.name)}/push/recent`).then(({ attempts }) => {
      const failures = attempts.findIndex((attempt) => attempt.outcome === 'success');
      const failed = failures === -1 ? attempts.length : failures;
      const state = attempts.length === 0 ? 'unknown' : failed === 0 ? 'healthy' : 'failing';
      health.dataset.health = state;
      show(health, state === 'failing' ? `failing (${failed} in a row, last ${attempts[0].outcome})` : state);
    }, () => show(health, 'unknown'));
    return h('td', { 'data-push': clock.name }, hostOf(clock.push.url), h('br'), health);
  }

  load();
  return { stop() { stopped = true; clearTimeout(timer); } };
}

// Only the host of a push target: its path or query may carry a secret.
export function hostOf(url) {
  try {
    return new URL(url).host;
  } catch (notUrl) {
    return '(unparsable)';
  }
}
