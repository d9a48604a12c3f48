// Wires the page: the forms and scenario buttons queue operations on the player; the player's steps are drawn by
// render.js; the status chip and the fired list follow. Nothing here knows how a heap works: the service does the
// operations and reports each step, the page only replays and explains them.

import {
  api, useToken, whenProtectedMode, whenTokenNeeded, whenClockNotFound, useClock, currentClock, isClockName,
  DEFAULT_CLOCK,
} from './api.js';
import { frameFromHeap } from './replay.js';
import { drawableSlots } from './layout.js';
import { renderTree, renderArray, renderChips, renderHiddenNote, formatCount } from './render.js';
import { Player } from './player.js';
import { SCENARIOS } from './scenarios.js';
import { describeRequest } from './operations.js';

const $ = (id) => document.getElementById(id);

const LIVE_REFRESH_MS = 2000;
// GET /queue/heap checks the invariants over the whole queue (O(n), on a copy taken under the scheduler's lock): with
// a million timers that takes a noticeable time, so the idle refresh backs off to keep that work a small share.
const REFRESH_BACKOFF_FACTOR = 20;
const MAX_FIRED_SHOWN = 200;
/** Clocks listed per GET /clocks call; "More clocks" fetches the next page. */
const CLOCK_PAGE = 100;
const CHECK_NAMES = {
  'root-is-earliest': 'The root is the earliest timer',
  'index-matches-heap': 'indexById matches the heap slots',
  'heap-order': 'No child fires before its parent',
  'no-overdue': 'No pending timer is overdue',
};

const view = {
  heap: null,        // the last /queue/heap answer: its invariants drive the status chip
  frame: null,       // what the three views draw right now
  drawLimit: 63,
  refreshing: false,
  lastRefreshMs: 0,  // how long the last GET /queue/heap took
  refusal: null,     // the service's protected-mode explanation, while it refuses this page the queue
  missingClock: null, // the service's clock_not_found detail, while the clock shown does not exist
  demoEnabled: false,
  lastListedClock: undefined, // the last name of the last page of clocks fetched, to ask for the next
};

const player = new Player({
  currentFrame: () => view.frame,
  drawLimit: () => view.drawLimit,
  onStart: showOperationStarted,
  onStep: showStep,
  onComplete: showOperationCompleted,
  onError: showRefusal,
  onQueueChanged: showUpNext,
  onPlayingChanged: updateButtons,
});

// ---- drawing ----

function draw() {
  if (!view.frame) {
    return;
  }
  renderTree($('tree'), view.frame, view.drawLimit);
  renderArray($('array'), view.frame, view.drawLimit);
  renderChips($('chips'), view.frame, view.drawLimit);
  renderHiddenNote($('hidden-note'), view.frame, view.drawLimit);
  $('clock-now').textContent = formatCount(view.frame.now);
  $('clock-now').dataset.now = view.frame.now;
  $('queue-size').textContent = formatCount(view.frame.size);
  $('heap-arity').textContent = view.frame.arity;
  updateStatus();
  updateButtons();
}

/** The tree decides how many slots are drawn: the top levels whose nodes still fit its width. */
function currentDrawLimit() {
  const arity = view.frame ? view.frame.arity : 2;
  return drawableSlots(arity, $('tree-box').clientWidth);
}

/** Fetches and draws the drawn slots. `afterReset` draws even if an abandoned call is still in flight. */
async function refreshHeap(afterReset = false) {
  if (view.refreshing) {
    return;
  }
  view.refreshing = true;
  const clock = currentClock();
  try {
    const started = performance.now();
    const heap = await api.heap(view.drawLimit);
    view.lastRefreshMs = performance.now() - started;
    if (clock !== currentClock()) {
      view.refreshing = false;
      await refreshHeap(true); // another clock was chosen meanwhile: this answer is about the old one
      return;
    }
    if (!player.idle && !afterReset) {
      return; // an operation started meanwhile; its own "after" state will be drawn
    }
    view.heap = heap;
    view.frame = frameFromHeap(heap);
    hideProtectedMode(); // the operator opened access meanwhile
    hideClockMissing(); // the clock was created (again) meanwhile
    const limit = currentDrawLimit();
    if (limit !== view.drawLimit) {
      view.drawLimit = limit; // first answer told the arity: fetch again with the right number of slots
      view.refreshing = false;
      await refreshHeap(afterReset);
      return;
    }
    draw();
  } catch (error) {
    if (clock !== currentClock()) {
      view.refreshing = false;
      await refreshHeap(true); // the refusal was about the clock left meanwhile; show the one chosen
      return;
    }
    showError(error.message);
  } finally {
    view.refreshing = false;
  }
}

// ---- the status chip ----

function updateStatus() {
  const chip = $('status-chip');
  const checks = view.heap ? view.heap.invariants.checks : [];
  let state;
  let label;
  if (player.inProgress) {
    state = 'progress';
    label = 'Operation in progress';
  } else if (view.refusal !== null) {
    state = 'refused';
    label = 'Refused: protected mode';
  } else if (view.missingClock !== null) {
    state = 'missing';
    label = 'Clock not found';
  } else if (!view.heap) {
    state = 'loading';
    label = 'Loading…';
  } else if (view.heap.invariants.ok) {
    state = 'ok';
    label = 'Invariants hold';
  } else {
    state = 'failed';
    label = `Invariant failed: ${checks.find((check) => !check.ok).name}`;
    if (chip.dataset.state !== 'failed') {
      $('status').open = true; // on failing, show which rule broke without a click; a user may close it again
    }
  }
  chip.dataset.state = state;
  chip.textContent = label;
  const notes = {
    progress: 'Mid-operation states are not checked; the checks below are from the last completed operation.',
    refused: 'The service refuses this page its queue (protected mode); nothing can be checked.',
    missing: 'The clock shown does not exist; there is no heap to check.',
  };
  $('status-note').textContent = notes[state] ?? 'Checked by the service after the last completed operation.';
  $('status-checks').replaceChildren(...checks.map(checkItem));
}

function checkItem(check) {
  const item = document.createElement('li');
  item.dataset.check = check.name;
  item.dataset.ok = check.ok;
  const verdict = check.ok ? 'holds' : `broken: ${check.detail}`;
  item.innerHTML = `<span class="check-mark" aria-hidden="true">${check.ok ? '✓' : '✗'}</span>`
    + '<span><strong></strong> <code></code><br><span class="verdict"></span></span>';
  item.querySelector('strong').textContent = CHECK_NAMES[check.name] ?? check.name;
  item.querySelector('code').textContent = check.name;
  item.querySelector('.verdict').textContent = verdict;
  return item;
}

// ---- the replay panel ----

function showOperationStarted(run) {
  hideError();
  $('operation-title').textContent = run.title;
  if (!run.replay) {
    setStepCounter(0, 0, 'calling the service…');
    $('step-log').replaceChildren();
  } else {
    setStepCounter(0, run.replay.steps.length);
  }
  updateStatus();
  updateButtons();
}

function showStep(run, result) {
  view.frame = run.replay.frame;
  setStepCounter(run.replay.applied, run.replay.steps.length);
  $('narration').textContent = result.text;
  appendToStepLog(result.text);
  if (result.firedId !== undefined) {
    appendFired(run.answer.fired.find((timer) => timer.id === result.firedId));
  }
  draw();
}

function showOperationCompleted(run) {
  const replayed = run.replay.frame;
  view.heap = run.afterHeap; // its invariants are the verdict on the completed operation
  view.frame = { ...run.after, focus: replayed.focus };
  const steps = run.replay.steps.length;
  setStepCounter(steps, steps, steps === 0 ? 'no steps' : undefined);
  let words = steps === 0 ? nothingMovedText(run) : $('narration').textContent;
  if (!run.traced) {
    run.answer.fired.forEach(appendFired);
    words = `${formatCount(run.answer.fired.length)} timers fired: too many to replay step by step, `
      + 'so only the result is drawn.';
  }
  const disagreement = firstDisagreement(replayed, run.after, view.drawLimit);
  if (run.traced && disagreement !== null) {
    words += ` Note: the replay differs from the service's array at slot ${disagreement} (did another client `
      + 'change the queue meanwhile?); the service\'s state is drawn.';
  }
  $('narration').textContent = words;
  draw();
}

function nothingMovedText(run) {
  if (run.operation.kind === 'advance') {
    return run.answer.fired.length === 0 ? `The clock is now ${run.answer.now}; no timer was due.` : '';
  }
  return `${run.answer.id} keeps its slot: its key did not change, so nothing moves.`;
}

/** The first drawn slot where the replayed array and the service's disagree, or null. */
function firstDisagreement(replayed, after, drawLimit) {
  for (let slot = 0; slot < Math.min(after.size, drawLimit); slot++) {
    if (replayed.cells.get(slot) !== after.cells.get(slot)) {
      return slot;
    }
  }
  return null;
}

function setStepCounter(step, steps, text) {
  const counter = $('step-counter');
  counter.dataset.step = step;
  counter.dataset.steps = steps;
  counter.textContent = text ?? `step ${step} of ${steps}`;
}

function appendToStepLog(text) {
  const log = $('step-log');
  log.querySelector('[aria-current]')?.removeAttribute('aria-current');
  const item = document.createElement('li');
  item.textContent = text;
  item.setAttribute('aria-current', 'step');
  log.appendChild(item);
}

function showUpNext(pending) {
  $('up-next').textContent = pending.length === 0 ? ''
    : `Up next: ${pending.map(describeRequest).join(' → ')}`;
  updateButtons();
}

function updateButtons() {
  const hasWork = !player.idle;
  $('step-button').disabled = !hasWork;
  $('play-button').disabled = !hasWork || player.playing;
  $('pause-button').disabled = !player.playing;
  $('finish-button').disabled = player.run === null;
}

// ---- fired timers ----

function appendFired(timer) {
  const list = $('fired-list');
  const item = document.createElement('li');
  item.dataset.id = timer.id;
  item.innerHTML = '<strong></strong> <span class="keys"></span>';
  item.querySelector('strong').textContent = timer.id;
  item.querySelector('.keys').textContent = `fireTime ${timer.fireTime} · priority ${timer.priority} · `
    + `sequence ${timer.sequence}`;
  list.appendChild(item);
  while (list.children.length > MAX_FIRED_SHOWN) {
    list.firstElementChild.remove(); // keep the page light after huge advances: the newest stay
  }
  $('fired-empty').hidden = true;
}

function clearFired() {
  $('fired-list').replaceChildren();
  $('fired-empty').hidden = false;
}

// ---- errors ----

function showRefusal(error, operation) {
  $('operation-title').textContent = `${describeRequest(operation)}: refused`;
  setStepCounter(0, 0, 'no steps');
  $('narration').textContent = 'The service refused the operation; nothing changed.';
  showError(error.message);
  updateStatus();
}

function showError(message) {
  if (message === view.refusal || message === view.missingClock) {
    return; // already explained in place of the heap
  }
  const box = $('error');
  box.textContent = message;
  box.hidden = false;
}

/** Protected mode refuses every queue call from this machine: the service's own explanation replaces the heap. */
function showProtectedMode(explanation) {
  view.refusal = explanation;
  $('refusal-detail').textContent = explanation;
  $('refusal').hidden = false;
  hideError();
  updateStatus();
}

function hideProtectedMode() {
  if (view.refusal !== null) {
    view.refusal = null;
    $('refusal').hidden = true;
  }
}

/** The clock shown was deleted: say so in place of its heap, which is hidden (not left drawn as it last was). */
function showClockMissing(clock, detail) {
  if (clock !== currentClock()) {
    return; // about a clock this page has left meanwhile
  }
  view.missingClock = detail;
  $('clock-missing-name').textContent = clock;
  $('clock-missing-detail').textContent = detail;
  $('clock-missing').hidden = false;
  document.body.dataset.clockMissing = 'true';
  hideError();
  updateStatus();
}

function hideClockMissing() {
  if (view.missingClock !== null) {
    view.missingClock = null;
    $('clock-missing').hidden = true;
    delete document.body.dataset.clockMissing;
  }
}

function hideError() {
  $('error').hidden = true;
}

// ---- forms ----

/** A blank field is "not given"; anything else goes to the service as typed, which judges it. */
function optionalNumber(value) {
  return value.trim() === '' ? undefined : Number(value);
}

const FORM_OPERATIONS = {
  'add-form': (data) => ({ kind: 'add', id: data.get('id').trim(), delay: Number(data.get('delay')),
    priority: optionalNumber(data.get('priority')) }),
  'cancel-form': (data) => ({ kind: 'cancel', id: data.get('id').trim() }),
  'edit-form': (data) => ({ kind: 'edit', id: data.get('id').trim(), delay: optionalNumber(data.get('delay')),
    priority: optionalNumber(data.get('priority')) }),
  'advance-form': (data) => ({ kind: 'advance', by: Number(data.get('by')) }),
};

function wireForms() {
  for (const [formId, toOperation] of Object.entries(FORM_OPERATIONS)) {
    $(formId).addEventListener('submit', (event) => {
      event.preventDefault();
      hideError();
      player.enqueue([toOperation(new FormData(event.target))]);
      if (player.run === null) {
        player.play(); // a replay paused half-way is left for the user to continue
      }
    });
  }
}

// ---- scenarios ----

function wireScenarios() {
  const box = $('scenarios');
  for (const scenario of SCENARIOS) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = scenario.title;
    button.dataset.scenario = scenario.key;
    button.disabled = true; // until GET /demo says the demo queue may be reset
    button.addEventListener('click', () => loadScenario(scenario));
    box.appendChild(button);
  }
}

/** Scenarios wipe the queue, so they are offered only when the service says it runs the demo profile. */
async function showDemoState() {
  let demoEnabled = false;
  try {
    demoEnabled = (await api.demo()).enabled;
  } catch (error) {
    showError(error.message);
  }
  view.demoEnabled = demoEnabled;
  document.body.dataset.demo = demoEnabled;
  updateScenarioButtons();
}

/** Scenarios reset the demo queue, which is the clock `default`'s: on any other clock they are off. */
function updateScenarioButtons() {
  const onDefault = currentClock() === DEFAULT_CLOCK;
  const usable = view.demoEnabled && onDefault;
  for (const button of $('scenarios').children) {
    button.disabled = !usable;
  }
  const note = $('scenario-note');
  note.classList.toggle('warning', !usable);
  if (!view.demoEnabled) {
    note.textContent = 'Scenarios are off: loading one empties the queue, so this service allows it only when '
      + 'started with --spring.profiles.active=demo (timeservice.demo.enabled=true). Never use that on a '
      + 'production queue.';
  } else if (!onDefault) {
    note.textContent = `Scenarios run on the clock ${DEFAULT_CLOCK} only (they reset its demo queue); choose `
      + `${DEFAULT_CLOCK} above to load one.`;
  } else {
    note.textContent = 'Each scenario empties the demo queue and sets the clock to 0.';
  }
}

async function loadScenario(scenario) {
  if (currentClock() !== DEFAULT_CLOCK) {
    return; // its button is disabled; the demo queue is not this clock's
  }
  player.abandon();
  hideError();
  for (const button of $('scenarios').children) {
    button.setAttribute('aria-current', String(button.dataset.scenario === scenario.key)); // the scenario on screen
  }
  try {
    await api.resetDemo();
    for (const timer of scenario.setup) {
      await api.add({ id: timer.id, delay: timer.delay, priority: timer.priority ?? 0 }, false);
    }
  } catch (error) {
    showError(error.message);
  }
  clearFired();
  $('step-log').replaceChildren();
  setStepCounter(0, 0, 'no steps');
  await refreshHeap(true);
  $('operation-title').textContent = `scenario: ${scenario.title}`;
  $('narration').textContent = scenario.intro;
  player.enqueue(scenario.script);
}

// ---- the clock selector ----

/** Fills the selector: `default` first, then the clocks by name, a page at a time; `more` appends the next page. */
async function listClocks(more = false) {
  const select = $('clock-select');
  if (!more) {
    view.lastListedClock = undefined;
    select.replaceChildren();
    addClockOption(DEFAULT_CLOCK);
  }
  let page = [];
  try {
    page = (await api.clocks(CLOCK_PAGE, view.lastListedClock)).clocks;
  } catch (error) {
    showError(error.message); // the selector still offers default and the clock shown
  }
  for (const clock of page) {
    addClockOption(clock.name);
  }
  if (page.length > 0) {
    view.lastListedClock = page[page.length - 1].name;
  }
  $('more-clocks').hidden = page.length < CLOCK_PAGE;
  addClockOption(currentClock()); // a clock named by the link, on a later page or deleted, stays shown as chosen
  select.value = currentClock();
}

function addClockOption(name) {
  const select = $('clock-select');
  if ([...select.options].some((option) => option.value === name)) {
    return;
  }
  const option = document.createElement('option');
  option.value = name;
  option.textContent = name; // a clock name is data, never markup
  select.appendChild(option);
}

/** The clock a link names (`?clock=name`); `default` without one, or with a name no clock can have. */
function clockFromUrl() {
  const named = new URLSearchParams(location.search).get('clock');
  if (named === null || named === '') {
    return DEFAULT_CLOCK;
  }
  if (!isClockName(named)) {
    showError(`The link names the clock "${named}", which is not a clock name (1 to 64 characters of A-Z a-z 0-9 `
      + '. _ - ~ :, not . or ..); showing default.');
    return DEFAULT_CLOCK;
  }
  return named;
}

/** Remembers the clock in the address, so a link or a reload opens the same clock. */
function rememberClockInUrl(clock) {
  const url = new URL(location.href);
  if (clock === DEFAULT_CLOCK) {
    url.searchParams.delete('clock');
  } else {
    url.searchParams.set('clock', clock);
  }
  history.replaceState(null, '', url);
}

/** Shows another clock: whatever was queued or half-replayed belonged to the old one and is dropped. */
async function selectClock(clock) {
  player.abandon();
  useClock(clock);
  rememberClockInUrl(clock);
  hideClockMissing();
  hideError();
  view.heap = null;
  clearFired();
  $('step-log').replaceChildren();
  setStepCounter(0, 0, 'no steps');
  $('operation-title').textContent = 'none yet';
  $('narration').textContent = `Showing the clock ${clock}. Add a timer, then press Step or Play.`;
  updateScenarioButtons();
  updateStatus();
  await refreshHeap(true);
}

function wireClockSelector() {
  $('clock-select').addEventListener('change', (event) => selectClock(event.target.value));
  $('more-clocks').addEventListener('click', () => listClocks(true));
  $('reload-clocks').addEventListener('click', () => listClocks());
  whenClockNotFound(showClockMissing);
}

// ---- controls ----

function wireControls() {
  $('step-button').addEventListener('click', () => {
    player.pause();
    player.step();
  });
  $('play-button').addEventListener('click', () => player.play());
  $('pause-button').addEventListener('click', () => player.pause());
  $('finish-button').addEventListener('click', () => player.finish());
  $('speed').addEventListener('change', (event) => setSpeed(Number(event.target.value)));
  $('clear-fired').addEventListener('click', clearFired);
  $('refresh-button').addEventListener('click', () => player.idle && refreshHeap());
  whenProtectedMode(showProtectedMode);
  whenTokenNeeded(() => {
    const access = document.querySelector('details.access');
    if (!access.open) {
      access.open = true;
      access.querySelector('input[name="token"]').focus();
    }
  });
  $('token-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    useToken(new FormData(event.target).get('token'));
    hideError();
    await showDemoState();
    await listClocks();
    await refreshHeap(true);
  });
  document.addEventListener('keydown', (event) => {
    const typing = event.target.closest('input, select, textarea');
    if (typing || event.ctrlKey || event.metaKey || event.altKey) {
      return;
    }
    if (event.key === 'n' && !$('step-button').disabled) {
      $('step-button').click();
    } else if (event.key === 'p' && player.playing) {
      player.pause();
    } else if (event.key === 'p' && !player.idle) {
      player.play();
    }
  });
}

/** Animations take most of a step's time at any speed, so a move is seen whole before the next one starts. */
function setSpeed(speed) {
  player.speed = speed;
  const animationMs = Math.round(Math.min(650, player.stepInterval * 0.7));
  document.documentElement.style.setProperty('--move-ms', `${animationMs}ms`);
}

// ---- keeping up with the service ----

function keepLive() {
  const refreshLater = () => setTimeout(async () => {
    if ($('live').checked && player.idle && !document.hidden) {
      await refreshHeap();
    }
    refreshLater();
  }, Math.max(LIVE_REFRESH_MS, view.lastRefreshMs * REFRESH_BACKOFF_FACTOR));
  refreshLater();
  new ResizeObserver(() => {
    const limit = currentDrawLimit();
    if (limit !== view.drawLimit && player.idle) {
      view.drawLimit = limit;
      refreshHeap();
    } else {
      draw();
    }
  }).observe($('tree-box'));
}

async function start() {
  wireForms();
  wireControls();
  wireClockSelector();
  setSpeed(Number($('speed').value));
  wireScenarios();
  useClock(clockFromUrl());
  await showDemoState();
  await listClocks();
  await refreshHeap();
  keepLive();
  document.body.dataset.ready = 'true';
}

start();
