// Wires the page: the forms and scenario buttons queue operations on the player; the player's steps are drawn by
// render.js; the status chip and the fired list follow. Nothing here knows how a heap works: the service does the
// operations and reports each step, the page only replays and explains them.

import { api, useToken, whenProtectedMode, whenTokenNeeded } from './api.js';
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
  try {
    const started = performance.now();
    const heap = await api.heap(view.drawLimit);
    view.lastRefreshMs = performance.now() - started;
    if (!player.idle && !afterReset) {
      return; // an operation started meanwhile; its own "after" state will be drawn
    }
    view.heap = heap;
    view.frame = frameFromHeap(heap);
    hideProtectedMode(); // the operator opened access meanwhile
    const limit = currentDrawLimit();
    if (limit !== view.drawLimit) {
      view.drawLimit = limit; // first answer told the arity: fetch again with the right number of slots
      view.refreshing = false;
      await refreshHeap(afterReset);
      return;
    }
    draw();
  } catch (error) {
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
  if (message === view.refusal) {
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
  for (const button of $('scenarios').children) {
    button.disabled = !demoEnabled;
  }
  document.body.dataset.demo = demoEnabled;
  const note = $('scenario-note');
  note.classList.toggle('warning', !demoEnabled);
  note.textContent = demoEnabled ? 'Each scenario empties the demo queue and sets the clock to 0.'
    : 'Scenarios are off: loading one empties the queue, so this service allows it only when started with '
      + '--spring.profiles.active=demo (timeservice.demo.enabled=true). Never use that on a production queue.';
}

async function loadScenario(scenario) {
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
  setSpeed(Number($('speed').value));
  wireScenarios();
  await showDemoState();
  await refreshHeap();
  keepLive();
  document.body.dataset.ready = 'true';
}

start();
