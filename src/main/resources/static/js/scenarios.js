// The learning scenarios. Each one empties the demo queue (POST /demo/reset: clock back to 0), adds its starting
// timers at once, and then leaves its script of traced calls for Step and Play, so a learner can predict the
// outcome before watching it. Ids that depend on the heap's arity are picked from the heap when the call runs.

const add = (id, delay, priority) => ({ kind: 'add', id, delay, priority });
const edit = (id, changes) => ({ kind: 'edit', id, ...changes });
const advance = (by) => ({ kind: 'advance', by });
const cancelAt = (where, pickSlot) => ({ kind: 'cancel', where, pickSlot });

const root = () => 0;
const lastSlot = (frame) => frame.size - 1;
const firstChildOfRoot = () => 1;

export const SCENARIOS = [
  {
    key: 'upward-edit',
    title: 'Edit a timer so it moves upward',
    intro: 'A is due at 12, deep in the heap. The script edits it to delay 1, so it must sift up. '
      + 'Step until A swaps with B, pause, and write down indexById before the next step.',
    setup: [add('B', 2), add('C', 4), add('D', 6), add('E', 8), add('F', 10), add('A', 12)],
    script: [edit('A', { delay: 1 })],
  },
  {
    key: 'equal-times',
    title: 'Fire multiple timers with equal times',
    intro: 'A, B and C were added in that order, all at delay 5. Predict the fired list, then press Play '
      + 'to advance the clock by 5.',
    setup: [add('A', 5), add('B', 5), add('C', 5)],
    script: [advance(5)],
  },
  {
    key: 'cancel-root',
    title: 'Cancel the root',
    intro: 'The root is the next timer to fire. Cancelling it leaves a hole at slot 0: the last timer is lifted '
      + 'into it and sifted down. Press Step to watch each move.',
    setup: [add('A', 5), add('B', 3), add('C', 8), add('D', 6), add('E', 9), add('F', 7), add('G', 4)],
    script: [cancelAt('the root', root)],
  },
  {
    key: 'cancel-middle',
    title: 'Cancel a middle slot',
    intro: 'Removing a middle slot is where a wrong index patch shows: the last timer fills the hole, and every '
      + 'timer that moves must take its indexById entry along. Step through and watch the chips.',
    setup: [add('A', 1), add('B', 3), add('C', 2), add('D', 4), add('E', 5), add('F', 6), add('G', 7),
      add('H', 8), add('I', 9), add('J', 10)],
    script: [cancelAt('the timer in slot 1', firstChildOfRoot)],
  },
  {
    key: 'cancel-last',
    title: 'Cancel the last slot',
    intro: 'The easy path: the last slot leaves no hole to fill, so nothing else moves. Press Step.',
    setup: [add('A', 5), add('B', 3), add('C', 8), add('D', 6), add('E', 9)],
    script: [cancelAt('the timer in the last slot', lastSlot)],
  },
  {
    key: 'edit-at-4',
    title: 'Edit at virtual time 4 with delay 2',
    intro: 'The clock advances to 4, then A (due at 10) is edited with delay 2. Compute its new fireTime on paper '
      + 'first: it is now + delay, not the old fireTime minus anything. Then press Play.',
    setup: [add('A', 10), add('B', 7), add('C', 8)],
    script: [advance(4), edit('A', { delay: 2 })],
  },
  {
    key: 'priority',
    title: 'Equal times, priorities A3 B1 C2 D1 E4',
    intro: 'Five timers at the same delay, added in the order A B C D E with priorities 3 1 2 1 4 (a smaller '
      + 'priority fires first; equal priorities fire in add order). Predict the fired list, then press Play '
      + 'to advance the clock by 5.',
    setup: [add('A', 5, 3), add('B', 5, 1), add('C', 5, 2), add('D', 5, 1), add('E', 5, 4)],
    script: [advance(5)],
  },
];
