// A clock's schedules (cron or interval), each with its next five occurrences in its zone and in UTC; pause,
// resume, trigger and delete when the token may write.
import { call } from './api.js';
import { h, show, utc } from './dom.js';

export function schedulesSection(page) {
  const { context, base } = page;
  const list = h('div', { id: 'schedule-list' });

  async function refresh() {
    try {
      const { schedules } = await call('GET', `${base}/schedules`);
      const times = await Promise.all(schedules.map((schedule) => call('GET',
        `${base}/schedules/${encodeURIComponent(schedule.id)}/next?count=5`).then((answer) => answer.times,
        () => [])));
      show(list, schedules.length === 0 ? h('p', { class: 'note' }, 'No schedules.')
        : schedules.map((schedule, i) => card(schedule, times[i])));
    } catch (problem) {
      context.report(problem);
    }
  }

  async function act(method, schedule, action) {
    try {
      await call(method, `${base}/schedules/${encodeURIComponent(schedule.id)}${action}`);
      await page.refresh();
    } catch (problem) {
      context.report(problem);
    }
  }

  function inZone(millis, zone) {
    try {
      return new Intl.DateTimeFormat('en-CA', { timeZone: zone, dateStyle: 'short', timeStyle: 'medium' })
        .format(new Date(millis));
    } catch (outOfRange) {
      return '—';
    }
  }

  function card(schedule, times) {
    const zone = schedule.zone ?? 'UTC';
    const rule = schedule.cron !== undefined ? `cron "${schedule.cron}"` : `every ${schedule.every} ms`;
    const buttons = context.writable() ? h('div', { class: 'row' },
      schedule.paused
        ? h('button', { type: 'button', 'data-change': 'resume', onclick: () => act('POST', schedule, '/resume') }, 'Resume')
        : h('button', { type: 'button', 'data-change': 'pause', onclick: () => act('POST', schedule, '/pause') }, 'Pause'),
      h('button', { type: 'button', 'data-change': 'trigger', onclick: () => act('POST', schedule, '/trigger') }, 'Trigger now'),
      h('button', { type: 'button', 'data-change': 'delete', class: 'danger', onclick: async () => {
        if (await context.confirm(`Delete the schedule ${schedule.id}?`)) {
          act('DELETE', schedule, '');
        }
      } }, 'Delete')) : null;
    return h('article', { class: 'card', 'data-schedule': schedule.id },
      h('h4', {}, schedule.id),
      h('p', {}, `${rule} in ${zone} · ${schedule.state}${schedule.paused ? ' (paused)' : ''} · fired ${schedule.fired}`),
      h('table', { class: 'grid compact' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, `Next in ${zone}`), h('th', { scope: 'col' }, 'UTC'),
          h('th', { scope: 'col' }, 'Clock ms'))),
        h('tbody', {}, times.map((time) => h('tr', {}, h('td', {}, inZone(time, zone)), h('td', {}, utc(time)),
          h('td', { class: 'num' }, time))))),
      buttons);
  }

  const element = h('section', { id: 'schedules', 'aria-labelledby': 'schedules-title' },
    h('h3', { id: 'schedules-title' }, 'Schedules'), list);
  refresh();
  return { element, refresh };
}
