// Runs queued operations one at a time and replays each one's trace step by step. An operation runs on the
// service when the player reaches it (a Step or Play), so what is drawn before it is the true "before" state.

import { api } from './api.js';
import { Replay, frameFromHeap, keysOf, idsWithUnknownKeys } from './replay.js';
import { perform, describeRequest, describeResult } from './operations.js';

const BASE_STEP_MS = 1100;
const MAX_KEY_LOOKUPS = 32;

export class Player {
  /**
   * hooks: currentFrame(), drawLimit(), onStart(run), onStep(run, result), onComplete(run),
   * onError(error, operation), onQueueChanged(pending), onPlayingChanged(playing)
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.pending = [];
    this.run = null;          // the operation being replayed: {operation, title, replay, after, answer}
    this.busy = false;        // a request is in flight
    this.playing = false;
    this.speed = 1;
    this.timer = null;
    this.generation = 0;      // bumped by abandon(), so an answer that arrives afterwards is ignored
  }

  get stepInterval() {
    return BASE_STEP_MS / this.speed;
  }

  /** True while an operation has started but its replay has not reached the end. */
  get inProgress() {
    return this.busy || (this.run !== null && !this.run.replay.done);
  }

  get idle() {
    return !this.busy && this.run === null && this.pending.length === 0;
  }

  enqueue(operations) {
    this.pending.push(...operations);
    this.hooks.onQueueChanged(this.pending);
  }

  /** Drops everything queued or half-replayed; the caller redraws from the service. */
  abandon() {
    this.generation += 1;
    this.pause();
    this.pending = [];
    this.run = null;
    this.hooks.onQueueChanged(this.pending);
  }

  play() {
    if (this.playing) {
      return;
    }
    this.setPlaying(true);
    this.tick();
  }

  pause() {
    clearTimeout(this.timer);
    this.setPlaying(false);
  }

  setPlaying(playing) {
    this.playing = playing;
    this.hooks.onPlayingChanged(playing);
  }

  async tick() {
    if (!this.playing) {
      return;
    }
    const progressed = await this.step();
    if (!this.playing) {
      return;
    }
    if (progressed) {
      this.timer = setTimeout(() => this.tick(), this.stepInterval);
    } else {
      this.setPlaying(false);
    }
  }

  /** Shows the next step, starting the next queued operation when needed. False when there is nothing to do. */
  async step() {
    if (this.busy) {
      return true;
    }
    if (this.run === null) {
      if (this.pending.length === 0) {
        return false;
      }
      const started = await this.startNext();
      if (!started) {
        return false; // refused, or abandoned for a scenario while the call was in flight
      }
    }
    if (!this.run.replay.done) {
      this.hooks.onStep(this.run, this.run.replay.next());
    }
    if (this.run.replay.done) {
      this.complete();
    }
    return true;
  }

  /** Applies every remaining step of the current operation at once. */
  finish() {
    this.pause();
    if (this.run === null) {
      return;
    }
    while (!this.run.replay.done) {
      this.hooks.onStep(this.run, this.run.replay.next());
    }
    this.complete();
  }

  complete() {
    const run = this.run;
    this.run = null;
    this.hooks.onComplete(run);
  }

  async startNext() {
    const operation = this.pending.shift();
    const generation = this.generation;
    this.hooks.onQueueChanged(this.pending);
    this.busy = true;
    this.hooks.onStart({ operation, title: describeRequest(operation) });
    try {
      const run = await prepareRun(operation, this.hooks.currentFrame(), this.hooks.drawLimit());
      if (generation !== this.generation) {
        return false; // a scenario was loaded meanwhile: this operation's replay no longer applies
      }
      this.run = run;
      this.hooks.onStart(run);
      return true;
    } catch (error) {
      if (generation !== this.generation) {
        return false;
      }
      // A refused call stops the script: later calls were written assuming this one worked.
      this.pending = [];
      this.hooks.onQueueChanged(this.pending);
      this.pause();
      this.hooks.onError(error, operation);
      return false;
    } finally {
      this.busy = false;
    }
  }
}

/** Runs the operation on the service and gathers what its replay needs: the trace, the keys, the state after. */
async function prepareRun(operation, before, drawLimit) {
  const answer = await perform(operation, before);
  const trace = answer.trace ?? [];
  const newKeys = new Map();
  if (operation.kind === 'add' || operation.kind === 'edit') {
    newKeys.set(answer.id, keysOf(answer));
  }
  const otherKeys = new Map();
  for (const timer of answer.fired ?? []) {
    otherKeys.set(timer.id, keysOf(timer));
  }
  if (operation.kind === 'cancel') {
    otherKeys.set(answer.id, keysOf(answer));
  }
  const afterHeap = await api.heap(drawLimit);
  const after = frameFromHeap(afterHeap);
  after.keys.forEach((keys, id) => otherKeys.set(id, keys));
  newKeys.forEach((keys, id) => otherKeys.set(id, keys));
  await lookUpDeeperKeys(before, trace, otherKeys);
  const replay = new Replay(before, operation, trace, newKeys, otherKeys);
  replay.frame.now = after.now; // an advance moves the clock before it fires anything
  return {
    operation,
    answer,
    after,
    afterHeap,
    title: describeResult(operation, answer, before.now),
    replay,
    traced: answer.trace !== undefined,
  };
}

/** Timers a trace names below the drawn levels: ask for their keys so the comparisons can be put in words. */
async function lookUpDeeperKeys(before, trace, knownKeys) {
  const unknown = idsWithUnknownKeys(before, trace, knownKeys).slice(0, MAX_KEY_LOOKUPS);
  await Promise.all(unknown.map(async (id) => {
    try {
      knownKeys.set(id, keysOf(await api.timer(id)));
    } catch (gone) {
      // Changed by another client meanwhile: its keys show as "?".
    }
  }));
}
