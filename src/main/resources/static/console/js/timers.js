// A clock's pending timers in firing order (GET .../timers?limit: the first ones, 25 more at a time up to 1,000),
// one found by id, each payload as indented JSON; cancel and edit (new time or priority) when the token may write.
import { call } from './api.js';
import { h, show, clockTime, formatted } from './dom.js';

const STEP = 25;
const MOST = 1000;

export function timersSection(page) {
  const { context, base } = page;
  let limit = STEP;
  let found = null;
  const body = h('tbody', { id: 'timer-rows' });
  const count = h('p', { id: 'timers-count', class: 'note' });
  const more = h('button', { type: 'button', id: 'timers-more', onclick: () => {
    limit = Math.min(MOST, limit + STEP);
    refresh();
  } }, 'Show more');
  const findInput = h('input', { id: 'timer-find', spellcheck: 'false', placeholder: 'timer id' });

  async function refresh() {
    try {
      if (found !== null) {
        const timer = await call('GET', `${base}/timers/${encodeURIComponent(found)}`);
        show(body, row(timer));
        show(count, `The timer ${found}.`);
        more.hidden = true;
        return;
      }
      const listing = await call('GET', `${base}/timers?limit=${limit}`);
      show(body, listing.timers.map(row));
      show(count, `The first ${listing.timers.length} of ${listing.size} pending timers, in firing order.`);
      more.hidden = listing.timers.length >= listing.size || limit >= MOST;
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
      found = findInput.value.trim() === '' ? null : findInput.value.trim();
      refresh();
    } }, h('label', { for: 'timer-find' }, 'Find by id'), findInput, h('button', { type: 'submit' }, 'Find'),
    h('button', { type: 'button', onclick: () => {
      findInput.value = '';
      found = null;
      refresh();
    } }, 'Show all')),
    count,
    h('table', { class: 'grid' }, h('thead', {}, h('tr', {},
      ['Id', 'Fire time', 'Priority', 'Sequence', 'Payload', context.writable() ? 'Change' : null]
        .filter((title) => title !== null).map((title) => h('th', { scope: 'col' }, title)))), body),
    more);
  refresh();
  return { element, refresh };
}
