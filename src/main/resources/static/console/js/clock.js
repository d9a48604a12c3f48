// One clock's page: its summary (polled every 2 s), timers, schedules, deliveries by state, dead letters with bulk
// actions over everything that matches, push settings and, for a virtual clock, advance, fork and snapshot.
// Change buttons exist only when the token may write (app.js asks the service).
import { call, clockPath } from './api.js';
import { h, show, clockTime, utc } from './dom.js';
import { timersSection } from './timers.js';
import { schedulesSection } from './schedules.js';
import { deliveriesSection, deadLettersSection } from './deliveries.js';
import { hostOf } from './clocks.js';

const POLL_MILLIS = 2000;

export function clockPage(context, name) {
  const base = clockPath(name);
  let stopped = false;
  let timer = null;
  const summary = h('dl', { id: 'clock-summary', class: 'facts' });
  const sections = h('div', { id: 'clock-sections' });
  const refreshers = [];

  show(context.view,
    h('p', {}, h('a', { href: '#/' }, '← Clocks'), ' · ',
      h('a', { href: `/?clock=${encodeURIComponent(name)}` }, 'this clock in the heap view')),
    h('h2', { id: 'clock-name' }, name),
    summary, sections);

  // Each section is given the clock as last read and a way to refresh everything after a change.
  const page = {
    base,
    name,
    context,
    refresh: () => refreshAll(),
  };

  let built = false;

  async function loadSummary() {
    clearTimeout(timer);
    try {
      const clock = await call('GET', base);
      if (stopped) {
        return;
      }
      drawSummary(clock);
      if (!built) {
        built = true;
        build(clock);
      }
      context.report(null);
    } catch (problem) {
      context.report(problem);
    }
    if (!stopped) {
      timer = setTimeout(loadSummary, POLL_MILLIS);
    }
  }

  function drawSummary(clock) {
    const counts = clock.deliveries;
    const fact = (term, value, key) => h('div', { class: 'fact' }, h('dt', {}, term), h('dd', { 'data-fact': key }, value));
    show(summary,
      fact('Mode', clock.mode + (clock.rate === undefined ? '' : ` ×${clock.rate}`), 'mode'),
      fact('Delivery', clock.delivery, 'delivery'),
      fact('Now', clockTime(clock.now), 'now'),
      fact('Pending timers', clock.size, 'size'),
      fact('Next fire time', clockTime(clock.nextFireTime), 'next'),
      counts === undefined ? [] : [
        fact('Ready', counts.ready, 'ready'),
        fact('In flight', counts.inFlight, 'inFlight'),
        fact('Waiting', counts.waiting, 'waiting'),
        fact('Dead', counts.dead, 'dead'),
      ]);
  }

  function build(clock) {
    const parts = [timersSection(page), schedulesSection(page)];
    if (clock.delivery !== 'response') {
      parts.push(deliveriesSection(page), deadLettersSection(page));
    }
    if (clock.push !== undefined) {
      parts.push(pushSection(clock.push, page));
    }
    if (clock.mode === 'virtual') {
      parts.push(virtualSection(page));
    }
    for (const part of parts) {
      sections.append(part.element);
      if (part.refresh) {
        refreshers.push(part.refresh);
      }
    }
  }

  async function refreshAll() {
    await Promise.all([loadSummary(), ...refreshers.map((refresh) => refresh())]);
  }

  loadSummary();
  return { stop() { stopped = true; clearTimeout(timer); } };
}

// The push target without secrets: its host, timeout and concurrency, the names of its headers (their values may be
// credentials) and how many signing secrets it has; then its health and the last attempts this instance made
// (GET .../push/recent: outcome, status, delivery, duration; never a header, URL or body).
function pushSection(push, page) {
  const health = h('p', { id: 'push-health', class: 'note', 'aria-live': 'polite' });
  const body = h('tbody', { id: 'push-recent-rows' });

  async function refresh() {
    try {
      const { attempts, kept } = await call('GET', `${page.base}/push/recent`);
      const failing = attempts.findIndex((attempt) => attempt.outcome === 'success');
      const failures = failing === -1 ? attempts.length : failing;
      show(health, attempts.length === 0 ? 'No push attempt seen by this instance yet.'
        : `${failures === 0 ? 'Healthy' : 'Failing'}: the last attempt ${attempts[0].outcome}`
          + `${failures > 1 ? `, ${failures} failures in a row` : ''} (the last ${kept} attempts are kept).`);
      health.dataset.health = attempts.length === 0 ? 'unknown' : failures === 0 ? 'healthy' : 'failing';
      show(body, attempts.map((attempt) => h('tr', { 'data-outcome': attempt.outcome },
        h('td', {}, utc(attempt.at)),
        h('th', { scope: 'row', class: 'id' }, attempt.id),
        h('td', { class: 'num' }, attempt.sequence),
        h('td', { class: 'num' }, attempt.attempt),
        h('td', {}, attempt.outcome),
        h('td', { class: 'num' }, attempt.status === 0 ? '—' : attempt.status),
        h('td', {}, attempt.detail),
        h('td', { class: 'num' }, `${attempt.millis} ms`))));
    } catch (problem) {
      page.context.report(problem);
    }
  }

  refresh();
  return {
    element: h('section', { id: 'push', 'aria-labelledby': 'push-title' },
      h('h3', { id: 'push-title' }, 'Push target'),
      h('dl', { class: 'facts' }, [
        ['Host', hostOf(push.url)],
        ['Timeout', `${push.timeout} ms`],
        ['Concurrency', push.concurrency],
        ['Header names', Object.keys(push.headers).join(', ') || 'none'],
        ['Signing secrets', push.secretsCount],
      ].map(([term, value]) => h('div', { class: 'fact' }, h('dt', {}, term), h('dd', {}, value)))),
      h('h4', {}, 'Recent attempts'), health,
      h('table', { class: 'grid', id: 'push-recent' }, h('thead', {}, h('tr', {}, ['Ended (UTC)', 'Delivery',
        'Sequence', 'Attempt', 'Outcome', 'Status', 'Detail', 'Took'].map((title) => h('th', { scope: 'col' },
        title)))), body)),
    refresh,
  };
}

// A virtual clock moves only when told: advance by, to, or to the next event; fork it under a new name; save it.
function virtualSection(page) {
  const { context, base } = page;
  const result = h('p', { id: 'advance-result', class: 'note', 'aria-live': 'polite' });

  async function advance(body) {
    try {
      const answer = await call('POST', `${base}/advance`, body);
      show(result, `Now ${answer.now}; fired ${answer.firedCount}.`);
      await page.refresh();
    } catch (problem) {
      context.report(problem);
    }
  }

  async function download() {
    try {
      const blob = await call('GET', `${base}/snapshot`, undefined, 'application/json');
      const link = h('a', { href: URL.createObjectURL(blob), download: `${page.name}.snapshot.json` });
      document.body.append(link);
      link.click();
      link.remove();
      show(result, 'Snapshot saved.');
    } catch (problem) {
      context.report(problem);
    }
  }

  const by = h('input', { id: 'advance-by', type: 'number', min: '0', step: '1', required: true });
  const to = h('input', { id: 'advance-to', type: 'number', min: '0', step: '1', required: true });
  const fork = h('input', { id: 'fork-name', required: true, spellcheck: 'false' });
  const changes = context.writable() ? [
    h('form', { class: 'row', id: 'advance-by-form', onsubmit: (event) => {
      event.preventDefault();
      advance({ by: Number(by.value) });
    } }, h('label', { for: 'advance-by' }, 'Advance by (ms)'), by, h('button', { type: 'submit' }, 'Advance')),
    h('form', { class: 'row', id: 'advance-to-form', onsubmit: (event) => {
      event.preventDefault();
      advance({ to: Number(to.value) });
    } }, h('label', { for: 'advance-to' }, 'Advance to (clock ms)'), to, h('button', { type: 'submit' }, 'Advance')),
    h('div', { class: 'row' }, h('button', { type: 'button', id: 'advance-next',
      onclick: () => advance({ next: true }) }, 'Advance to the next event')),
    h('form', { class: 'row', id: 'fork-form', onsubmit: async (event) => {
      event.preventDefault();
      try {
        await call('PUT', `/clocks/${encodeURIComponent(fork.value)}`, { copyOf: page.name });
        location.hash = `#/clock/${encodeURIComponent(fork.value)}`;
      } catch (problem) {
        context.report(problem);
      }
    } }, h('label', { for: 'fork-name' }, 'Fork as'), fork, h('button', { type: 'submit' }, 'Fork')),
  ] : [];
  return {
    element: h('section', { id: 'virtual', 'aria-labelledby': 'virtual-title' },
      h('h3', { id: 'virtual-title' }, 'Virtual time'),
      changes,
      h('div', { class: 'row' }, h('button', { type: 'button', id: 'download-snapshot', onclick: download },
        'Download snapshot')),
      result),
  };
}
