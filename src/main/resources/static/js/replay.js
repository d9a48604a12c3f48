// Replays a trace step by step on a "frame": what the tree, the array and the indexById chips draw at one moment.
// The steps' meaning is the service's (see TraceStep.java); this file only applies them and says them in words.
//
// A frame:
//   cells    Map slot -> id          the backing array as far as it is known (the drawn slots, plus any slot a
//                                    step touched; deeper slots are not fetched)
//   keys     Map id -> {fireTime, priority, sequence}
//   size     how many timers are pending, counting one lifted out for a sift
//   hole     the empty slot a sift is moving, or null
//   inHand   the id lifted out (or being added) that the sift will place, or null
//   focus    what the last step touched, for highlighting

export function frameFromHeap(heap) {
  const cells = new Map();
  const keys = new Map();
  for (const slot of heap.slots) {
    cells.set(slot.index, slot.id);
    keys.set(slot.id, keysOf(slot));
  }
  return { arity: heap.arity, now: heap.now, size: heap.size, cells, keys, hole: null, inHand: null, focus: {} };
}

export function keysOf(timer) {
  return { fireTime: timer.fireTime, priority: timer.priority, sequence: timer.sequence };
}

/** The slot each id sits in; the id in hand has none. */
export function slotsById(frame) {
  const slots = new Map();
  for (const [slot, id] of frame.cells) {
    slots.set(id, slot);
  }
  return slots;
}

/** How many slots exist right now: the pending timers, plus the hole and a last cell that is about to go. */
export function slotExtent(frame) {
  let extent = frame.size;
  if (frame.hole !== null) {
    extent = Math.max(extent, frame.hole + 1);
  }
  for (const slot of frame.cells.keys()) {
    extent = Math.max(extent, slot + 1);
  }
  return extent;
}

/**
 * One operation's replay. `operation.kind` is add, cancel, edit or advance. The trace names ids only, so keys come
 * from elsewhere: `newKeys` are what an added or edited timer has after the operation, `otherKeys` those of timers
 * outside the drawn slots (fired timers, deeper timers the service was asked about).
 */
export class Replay {
  constructor(before, operation, trace, newKeys, otherKeys) {
    this.frame = cloneFrame(before);
    this.operation = operation;
    this.steps = trace;
    this.applied = 0;
    this.newKeys = newKeys;
    otherKeys.forEach((value, id) => {
      if (!this.frame.keys.has(id)) {
        this.frame.keys.set(id, value);
      }
    });
    if (operation.kind === 'add') {
      // A new timer's keys are known from the start; an edited timer keeps its old keys until it is lifted.
      newKeys.forEach((value, id) => this.frame.keys.set(id, value));
    }
  }

  get done() {
    return this.applied >= this.steps.length;
  }

  /** Applies the next step and returns what happened: {text, firedId?}. */
  next() {
    const step = this.steps[this.applied++];
    this.frame.focus = {};
    return APPLY[step.op](this, step);
  }
}

function cloneFrame(frame) {
  return { ...frame, cells: new Map(frame.cells), keys: new Map(frame.keys), focus: {} };
}

const APPLY = {
  remove(replay, step) {
    const frame = replay.frame;
    frame.cells.delete(step.from);
    frame.size -= 1;
    frame.focus = { removedId: step.id, slot: step.from };
    const wasLast = step.from === frame.size;
    frame.hole = wasLast ? null : step.from;
    const fired = replay.operation.kind === 'advance';
    const why = fired ? `fires (fireTime ${keyValue(frame, step.id, 'fireTime')})` : 'is cancelled';
    const repair = wasLast ? 'It was the last slot, so nothing needs repair.' : `Slot ${step.from} is now a hole.`;
    return { text: `${step.id} ${why} and leaves slot ${step.from} for good. ${repair}`,
      firedId: fired ? step.id : undefined };
  },

  lift(replay, step) {
    const frame = replay.frame;
    frame.cells.delete(step.from);
    frame.inHand = step.id;
    frame.focus = { movedId: step.id, slot: step.from };
    if (replay.operation.kind === 'edit') {
      const newKeys = replay.newKeys.get(step.id);
      if (newKeys) {
        frame.keys.set(step.id, newKeys);
      }
      frame.hole = step.from;
      return { text: `${step.id} is lifted out of slot ${step.from} with its new key (${keysText(frame, step.id)}); `
          + `slot ${step.from} is now the hole to move.` };
    }
    // An advance that fires several timers removes them all first, leaving several holes; the step after the lift
    // names the one this timer fills.
    const next = replay.steps[replay.applied];
    if (next && (next.op === 'compare' || next.op === 'place') && next.id === step.id) {
      frame.hole = next.op === 'compare' ? next.from : next.to;
    }
    return { text: `${step.id}, the last timer, is lifted out of slot ${step.from} to fill the hole at slot `
        + `${frame.hole}.` };
  },

  compare(replay, step) {
    const frame = replay.frame;
    const intro = takeNewTimerIntoHand(frame, step.id, step.from);
    frame.hole = step.from;
    frame.focus = { comparedSlot: step.to, slot: step.from };
    return { text: intro + comparisonInWords(frame, step) + ' ' + consequence(step) };
  },

  move(replay, step) {
    const frame = replay.frame;
    frame.cells.delete(step.from);
    frame.cells.set(step.to, step.id);
    frame.hole = step.from;
    frame.focus = { movedId: step.id, slot: step.to };
    const direction = step.to < step.from ? 'up' : 'down';
    return { text: `${step.id} moves ${direction} from slot ${step.from} into the hole at slot ${step.to}; `
        + `indexById: ${step.id} → ${step.to}.` };
  },

  place(replay, step) {
    const frame = replay.frame;
    const intro = takeNewTimerIntoHand(frame, step.id, step.to);
    frame.cells.set(step.to, step.id);
    frame.inHand = null;
    frame.hole = null;
    frame.focus = { movedId: step.id, slot: step.to };
    return { text: `${intro}${step.id} is written into slot ${step.to}; indexById: ${step.id} → ${step.to}.` };
  },
};

/** An add has no lift: its first step names the new cell at the end of the array, where the timer starts. */
function takeNewTimerIntoHand(frame, id, slot) {
  if (frame.inHand === id) {
    return '';
  }
  frame.inHand = id;
  frame.size += 1;
  frame.hole = slot;
  return `${id} is new (${keysText(frame, id)}): it starts in slot ${slot}, the next free cell. `;
}

/** "C (fireTime 1) fires before A (fireTime 5): decided by fireTime". */
export function comparisonInWords(frame, step) {
  const key = step.decidedBy;
  const [first, second] = step.precedes ? [step.id, step.otherId] : [step.otherId, step.id];
  let words = `${first} (${key} ${keyValue(frame, first, key)}) fires before `
      + `${second} (${key} ${keyValue(frame, second, key)}): decided by ${key}`;
  if (key === 'priority') {
    words += ` (both fireTime ${keyValue(frame, first, 'fireTime')})`;
  } else if (key === 'sequence') {
    words += ` (equal fireTime and priority: the earlier add fires first)`;
  }
  return words + '.';
}

function consequence(step) {
  const comparedWithParent = step.to < step.from;
  if (comparedWithParent) {
    return step.precedes ? `${step.id} keeps rising: ${step.otherId} moves down into the hole.`
      : `${step.id} stays below its parent ${step.otherId}.`;
  }
  return step.precedes ? `${step.id} stays above ${step.otherId}, the earliest child below the hole.`
    : `${step.otherId}, the earliest child below the hole, moves up into it.`;
}

function keyValue(frame, id, key) {
  const keys = frame.keys.get(id);
  return keys ? keys[key] : '?';
}

export function keysText(frame, id) {
  const keys = frame.keys.get(id);
  return keys ? `fireTime ${keys.fireTime}, priority ${keys.priority}, sequence ${keys.sequence}` : 'keys unknown';
}

/** Ids that a trace names whose keys the frame does not know yet: deeper than the drawn slots. */
export function idsWithUnknownKeys(frame, trace, knownKeys) {
  const unknown = new Set();
  for (const step of trace) {
    for (const id of [step.id, step.otherId]) {
      if (id !== undefined && !frame.keys.has(id) && !knownKeys.has(id)) {
        unknown.add(id);
      }
    }
  }
  return [...unknown];
}
