// A queueing clock's deliveries by state (ready, in flight with lease end, waiting with retry time), a page at a
// time, and its dead letters with filters and the bulk actions over every one that matches, not only the page shown:
// the service counts them first (GET .../deliveries/count), the operator confirms that count, and the service
// redrives or deletes them all in chunks (POST .../deliveries/dead/redrive|delete).
import { call, query } from './api.js';
import { h, show, clockTime, formatted } from './dom.js';

const PAGE = 50;
const STATES = [['ready', 'Ready'], ['in_flight', 'In flight'], ['waiting', 'Waiting']];

// A paged table of deliveries: `fetchPage(after)` answers {deliveries, next}; Next and First move through it.
function pagedTable(id, columns, rowOf, fetchPage, context) {
  const body = h('tbody', { id: `${id}-rows` });
  const note = h('p', { class: 'note', id: `${id}-note`, 'aria-live': 'polite' });
  let starts = [undefined];
  let next;
  const first = h('button', { type: 'button', id: `${id}-first`, onclick: () => {
    starts = [undefined];
    refresh();
  } }, 'First page');
  const nextButton = h('button', { type: 'button', id: `${id}-next`, onclick: () => {
    starts.push(next);
    refresh();
  } }, 'Next page');

  async function refresh() {
    try {
      const page = await fetchPage(starts[starts.length - 1]);
      next = page.next;
      show(body, page.deliveries.map(rowOf));
      show(note, page.deliveries.length === 0 ? 'None.' : `${page.deliveries.length} shown (page ${starts.length}).`);
      nextButton.disabled = next === undefined;
      first.disabled = starts.length === 1;
    } catch (problem) {
      context.report(problem);
    }
  }

  const element = h('div', {},
    h('table', { class: 'grid', id }, h('thead', {}, h('tr', {}, columns.map((title) => h('th', { scope: 'col' },
      title)))), body),
    h('div', { class: 'row' }, first, nextButton, note));
  return { element, refresh, reset() { starts = [undefined]; } };
}

const payloadCell = (delivery) => h('td', {}, h('pre', { class: 'payload' }, formatted(delivery.payload)));

export function deliveriesSection(page) {
  const { context, base } = page;
  let state = 'ready';
  const table = pagedTable('deliveries', ['Id', 'Sequence', 'Attempt', 'Fire time', 'Ready at', 'Lease end / retry at',
    'Payload'], (delivery) => h('tr', { 'data-delivery': delivery.sequence, 'data-state': delivery.state },
    h('th', { scope: 'row', class: 'id' }, delivery.id),
    h('td', { class: 'num' }, delivery.sequence),
    h('td', { class: 'num' }, delivery.attempt),
    h('td', {}, clockTime(delivery.fireTime)),
    h('td', {}, clockTime(delivery.readyAt)),
    h('td', {}, clockTime(delivery.leaseUntil ?? delivery.retryAt)),
    payloadCell(delivery)),
  (after) => call('GET', `${base}/deliveries/list${query({ state, limit: PAGE, after })}`), context);

  const tabs = STATES.map(([name, title]) => h('button', { type: 'button', role: 'tab', id: `state-${name}`,
    'aria-selected': name === state ? 'true' : 'false', onclick: (event) => {
      state = name;
      for (const tab of tabs) {
        tab.setAttribute('aria-selected', tab === event.currentTarget ? 'true' : 'false');
      }
      table.reset();
      table.refresh();
    } }, title));

  const element = h('section', { id: 'deliveries', 'aria-labelledby': 'deliveries-title' },
    h('h3', { id: 'deliveries-title' }, 'Deliveries'),
    h('div', { class: 'row', role: 'tablist', 'aria-label': 'Delivery state' }, tabs),
    table.element);
  table.refresh();
  return { element, refresh: table.refresh };
}

export function deadLettersSection(page) {
  const { context, base } = page;
  let filter = {};
  const idPrefix = h('input', { id: 'dead-id-prefix', name: 'idPrefix', spellcheck: 'false' });
  const minAttempt = h('input', { id: 'dead-min-attempt', name: 'minAttempt', type: 'number', min: '1', step: '1' });
  const reason = h('input', { id: 'dead-reason', name: 'reason', spellcheck: 'false' });
  // clock milliseconds, or a UTC date-time (a dead letter's readyAt is when it died, in the clock's time)
  const deadSince = h('input', { id: 'dead-since', name: 'deadSince', spellcheck: 'false',
    placeholder: 'ms or 2026-12-07T14:00:00Z', 'aria-describedby': 'dead-since-hint' });
  const outcome = h('p', { id: 'bulk-outcome', class: 'note', 'aria-live': 'polite' });

  const table = pagedTable('dead', ['Id', 'Sequence', 'Attempt', 'Reason', 'Died at', 'Fire time', 'Payload'],
    (delivery) => h('tr', { 'data-delivery': delivery.sequence, 'data-state': delivery.state },
      h('th', { scope: 'row', class: 'id' }, delivery.id),
      h('td', { class: 'num' }, delivery.sequence),
      h('td', { class: 'num' }, delivery.attempt),
      h('td', {}, delivery.deadReason),
      h('td', { class: 'died' }, clockTime(delivery.readyAt)),
      h('td', {}, clockTime(delivery.fireTime)),
      payloadCell(delivery)),
    (after) => call('GET', `${base}/deliveries/dead${query({ ...filter, limit: PAGE, after })}`), context);

  function filterOfForm() {
    const chosen = {};
    if (idPrefix.value !== '') {
      chosen.idPrefix = idPrefix.value;
    }
    if (minAttempt.value !== '') {
      chosen.minAttempt = Number(minAttempt.value);
    }
    if (reason.value !== '') {
      chosen.reason = reason.value;
    }
    const since = deadSince.value.trim();
    if (since !== '') {
      const millis = /^\d+$/.test(since) ? Number(since) : Date.parse(since);
      if (Number.isNaN(millis)) {
        throw new Error(`Dead since: ${since} is neither clock milliseconds nor a date-time`);
      }
      chosen.deadSince = millis;
    }
    return chosen;
  }

  async function bulk(action, verb) {
    try {
      const chosen = { ...filter };
      const { count } = await call('GET', `${base}/deliveries/count${query({ state: 'dead', ...chosen })}`);
      if (count === 0) {
        show(outcome, 'No dead letter matches.');
        return;
      }
      if (!await context.confirm(`${verb} all ${count} matching dead letters?`)) {
        return;
      }
      show(outcome, `${verb === 'Redrive' ? 'Redriving' : 'Deleting'} ${count}…`);
      const done = await call('POST', `${base}/deliveries/dead/${action}`, chosen);
      show(outcome, `${verb}: ${done.changed} of ${done.matched} matching.`);
      outcome.dataset.changed = done.changed;
      await page.refresh();
    } catch (problem) {
      context.report(problem);
    }
  }

  const element = h('section', { id: 'dead-letters', 'aria-labelledby': 'dead-title' },
    h('h3', { id: 'dead-title' }, 'Dead letters'),
    h('form', { class: 'row', id: 'dead-filter', role: 'search', onsubmit: (event) => {
      event.preventDefault();
      try {
        filter = filterOfForm();
      } catch (problem) {
        context.report(problem);
        return;
      }
      table.reset();
      table.refresh();
    } },
    h('label', { for: 'dead-id-prefix' }, 'Id starts with'), idPrefix,
    h('label', { for: 'dead-min-attempt' }, 'Attempts at least'), minAttempt,
    h('label', { for: 'dead-reason' }, 'Reason contains'), reason,
    h('label', { for: 'dead-since' }, 'Dead since'), deadSince,
    h('span', { id: 'dead-since-hint', class: 'note' }, 'clock ms or UTC date-time'),
    h('button', { type: 'submit', id: 'dead-filter-apply' }, 'Filter')),
    context.writable() ? h('div', { class: 'row' },
      h('button', { type: 'button', id: 'redrive-all', 'data-change': 'redrive',
        onclick: () => bulk('redrive', 'Redrive') }, 'Redrive all matching…'),
      h('button', { type: 'button', id: 'delete-all', 'data-change': 'delete', class: 'danger',
        onclick: () => bulk('delete', 'Delete') }, 'Delete all matching…')) : null,
    outcome,
    table.element);
  table.refresh();
  return { element, refresh: table.refresh };
}
