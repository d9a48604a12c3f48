// A clock's pending timers in firing order, 25 a page, paged on past any number of them by the listing's cursor
// (GET .../timers?limit&after: `next` is the `after` of the next page); found by id or by the start of the id
// (GET .../timers/{id}, GET .../timers?idPrefix), each payload as indented JSON; cancel and edit (new time or
// priority) when the token may write.
import { call, query } from './api.js';
import { h, show, clockTime, formatted } from './dom.js';

const PAGE = 25;

export function timersSection(page) {
  const { context, base } = page;
  let found = null;          // an exact id looked up
  let prefix = null;         // or the start of the ids listed
  let starts = [undefined];  // the `after` of each page shown so far, for First page and Next page
  let next;
  const body = h('tbody', { id: 'timer-rows' });
  const count = h('p', { id: 'timers-count', class: 'note', 'aria-live': 'polite' });
  const first = h('button', { type: 'button', id: 'timers-first', onclick: () => {
    starts = [undefined];
    refresh();
  } }, 'First page');
  const nextButton = h('button', { type: 'button', id: 'timers-next', onclick: () => {
    starts.push(next);
    refresh();
  } }, 'Next page');
  const findInput = h('input', { id: 'timer-find', spellcheck: 'false', placeholder: 'timer id or its start' });
  const how = h('select', { id: 'timer-find-how', 'aria-label': 'Match' },
    h('option', { value: 'id' }, 'is'), h('option', { value: 'prefix' }, 'starts with'));

  async function refresh() {
    try {
      if (found !== null) {
        const timer = await call('GET', `${base}/timers/${encodeURIComponent(found)}`);
        show(body, row(timer));
        show(count, `The timer ${found}.`);
        first.hidden = true;
        nextButton.hidden = true;
        return;
      }
      const listing = await call('GET', `${base}/timers${query({ limit: PAGE, after: starts[starts.length - 1],
        idPrefix: prefix ?? undefined })}`);
      next = listing.next;
      show(body, listing.timers.map(row));
      const which = prefix === null ? '' : ` whose id starts with ${prefix}`;
      show(count, listing.timers.length === 0 ? `No pending timer${which}.`
        : `Page ${starts.length}: ${listing.timers.length} pending timers${which}, in firing order, of `
          + `${listing.size} in all.`);
      first.hidden = false;
      nextButton.hidden = false;
      first.disabled = starts.length === 1;
      nextButton.disabled = next === undefined;
    } catch (problem) {
      if (problem.code === 'timer_not_found') {
        show(body);
        show(count, `No pending timer has the id ${found}.`);
        return;
      }
      context.report(problem);
    }
  }

  async function change(method, id, body) {
    try {
      await call(method, `${base}/timers/${encodeURIComponent(id)}`, body);
      await page.refresh();
    } catch (problem) {
      context.report(problem);
    }
  }

  function row(timer) {
    const cells = [
      h('th', { scope: 'row', class: 'id' }, timer.id),
      h('td', {}, clockTime(timer.fireTime)),
      h('td', { class: 'num' }, timer.priority),
      h('td', { class: 'num' }, timer.sequence),
      h('td', {}, h('pre', { class: 'payload' }, formatted(timer.payload))),
    ];
    if (context.writable()) {
      cells.push(h('td', {}, editForm(timer),
        h('button', { type: 'button', class: 'cancel-timer', 'data-change': 'cancel',
          onclick: async () => {
            if (await context.confirm(`Cancel the timer ${timer.id}?`)) {
              change('DELETE', timer.id);
            }
          } }, 'Cancel')));
    }
    return h('tr', { 'data-timer': timer.id }, cells);
  }

  function editForm(timer) {
    const at = h('input', { type: 'number', min: '0', step: '1', value: timer.fireTime, 'aria-label': 'New fire time' });
    const priority = h('input', { type: 'number', step: '1', value: timer.priority, 'aria-label': 'New priority' });
    return h('details', { class: 'edit' }, h('summary', { 'data-change': 'edit' }, 'Edit'),
      h('form', { onsubmit: (event) => {
        event.preventDefault();
        change('PATCH', timer.id, { at: Number(at.value), priority: Number(priority.value) });
      } }, h('label', {}, 'Fire time ', at), h('label', {}, 'Priority ', priority),
      h('button', { type: 'submit' }, 'Save')));
  }

  const element = h('section', { id: 'timers', 'aria-labelledby': 'timers-title' },
    h('h3', { id: 'timers-title' }, 'Timers'),
    h('form', { class: 'row', role: 'search', onsubmit: (event) => {
      event.preventDefault();
      const text = findInput.value.trim();
      found = text !== '' && how.value === 'id' ? text : null;
      prefix = text !== '' && how.value === 'prefix' ? text : null;
      starts = [undefined];
      refresh();
    } }, h('label', { for: 'timer-find' }, 'Find timers whose id'), how, findInput,
    h('button', { type: 'submit', id: 'timer-find-go' }, 'Find'),
    h('button', { type: 'button', id: 'timer-find-clear', onclick: () => {
      findInput.value = '';
      found = null;
      prefix = null;
      starts = [undefined];
      refresh();
    } }, 'Show all')),
    count,
    h('table', { class: 'grid' }, h('thead', {}, h('tr', {},
      ['Id', 'Fire time', 'Priority', 'Sequence', 'Payload', context.writable() ? 'Change' : null]
        .filter((title) => title !== null).map((title) => h('th', { scope: 'col' }, title)))), body),
    h('div', { class: 'row' }, first, nextButton));
  refresh();
  return { element, refresh };
}
