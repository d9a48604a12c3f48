// The four mutations as the page runs them: always traced, except an advance that would fire so many timers that
// the trace (and its replay) would be huge; then the page says so and shows the result only.

import { api } from './api.js';

/** Traced advances are capped: beyond this many fired timers the replay is skipped. */
export const MAX_REPLAYED_FIRES = 200;

/** What the user asked for, before it runs. */
export function describeRequest(operation) {
  switch (operation.kind) {
    case 'add':
      return `add ${operation.id}: delay ${operation.delay}`
        + (operation.priority === undefined ? '' : `, priority ${operation.priority}`);
    case 'cancel':
      return `cancel ${operation.where ?? operation.id}`;
    case 'edit':
      return `edit ${operation.id}: ${changesText(operation)}`;
    default:
      return `advance the clock by ${operation.by}`;
  }
}

/** What it did, once the service answered: the new fireTime is spelled out as now + delay. */
export function describeResult(operation, answer, now) {
  switch (operation.kind) {
    case 'add':
      return `add ${answer.id}: fireTime ${answer.fireTime} (now ${now} + delay ${operation.delay}), `
        + `priority ${answer.priority}`;
    case 'cancel':
      return `cancel ${answer.id}` + (operation.where ? ` (${operation.where})` : '');
    case 'edit': {
      const delayPart = operation.delay === undefined ? `fireTime ${answer.fireTime} kept`
        : `fireTime ${answer.fireTime} (now ${now} + delay ${operation.delay})`;
      return `edit ${answer.id}: ${delayPart}, priority ${answer.priority}`;
    }
    default:
      return `advance by ${operation.by}: now ${now} → ${answer.now}, ${answer.fired.length} fired`;
  }
}

function changesText(operation) {
  const parts = [];
  if (operation.delay !== undefined) {
    parts.push(`delay ${operation.delay}`);
  }
  if (operation.priority !== undefined) {
    parts.push(`priority ${operation.priority}`);
  }
  return parts.join(', ');
}

/** Calls the service; `frame` is the heap as drawn just before, used to pick a scenario's target slot. */
export async function perform(operation, frame) {
  switch (operation.kind) {
    case 'add': {
      const timer = { id: operation.id, delay: operation.delay };
      if (operation.priority !== undefined) {
        timer.priority = operation.priority;
      }
      return api.add(timer, true);
    }
    case 'cancel':
      return api.cancel(targetId(operation, frame), true);
    case 'edit': {
      const changes = {};
      if (operation.delay !== undefined) {
        changes.delay = operation.delay;
      }
      if (operation.priority !== undefined) {
        changes.priority = operation.priority;
      }
      return api.edit(operation.id, changes, true);
    }
    default:
      return api.advance(operation.by, await advanceIsSmall(operation.by, frame));
  }
}

function targetId(operation, frame) {
  if (!operation.pickSlot) {
    return operation.id;
  }
  const id = frame.cells.get(operation.pickSlot(frame));
  if (id === undefined) {
    throw new Error(`There is nothing to cancel (${operation.where}): the heap is too small.`);
  }
  return id;
}

/**
 * Whether an advance fires few enough timers to trace. A small queue always is; for a large one the first timers
 * in firing order tell, without the page ever fetching the whole queue.
 */
async function advanceIsSmall(by, frame) {
  if (frame.size <= MAX_REPLAYED_FIRES) {
    return true;
  }
  const listing = await api.firstInFiringOrder(MAX_REPLAYED_FIRES);
  const dueBy = listing.now + by;
  return listing.timers.filter((timer) => timer.fireTime <= dueBy).length < MAX_REPLAYED_FIRES;
}
