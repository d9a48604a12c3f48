// Where each heap slot is drawn. A d-ary heap is a complete tree, so slot k's level and its place in that level
// follow from k alone: the tree needs no pointers, and neither does its drawing.

export const MAX_HEAP_LIMIT = 1023;     // the most slots GET /queue/heap returns
const MIN_NODE_SPACING = 18;             // px per node below which a level is not drawn at all
const LABELED_NODE_SPACING = 46;         // px per node from which keys are printed under the node
const MAX_LEVELS = 6;                    // deeper trees would not fit the height of a laptop screen
export const TREE_TOP = 50;              // room above the root for a timer lifted out of it
export const LEVEL_HEIGHT = 62;
export const TREE_BOTTOM = 30;           // room for the keys printed under the deepest nodes
const TREE_SIDE = 12;                    // room for the slot numbers left of the leftmost nodes

/** The levels, and so the number of slots, that fit a tree of this width. Never more than the API returns. */
export function drawableSlots(arity, width) {
  const usable = width - 2 * TREE_SIDE;
  let slots = 0;
  let levelSize = 1;
  for (let level = 0; level < MAX_LEVELS; level++) {
    if (usable / levelSize < MIN_NODE_SPACING || slots + levelSize > MAX_HEAP_LIMIT) {
      break;
    }
    slots += levelSize;
    levelSize *= arity;
  }
  return Math.max(slots, 1);
}

/** The first slot of each level: 0, 1, 1+d, 1+d+d², ... */
function levelOf(slot, arity) {
  let first = 0;
  let levelSize = 1;
  let level = 0;
  while (slot >= first + levelSize) {
    first += levelSize;
    levelSize *= arity;
    level += 1;
  }
  return { level, first, levelSize };
}

export function levelsFor(slotCount, arity) {
  return slotCount === 0 ? 0 : levelOf(slotCount - 1, arity).level + 1;
}

/** Centre and size of a slot's node in a tree `width` px wide. */
export function treePosition(slot, arity, width) {
  const { level, first, levelSize } = levelOf(slot, arity);
  const spacing = (width - 2 * TREE_SIDE) / levelSize;
  return {
    x: TREE_SIDE + (slot - first + 0.5) * spacing,
    y: TREE_TOP + level * LEVEL_HEIGHT,
    spacing,
    radius: Math.max(8, Math.min(20, spacing * 0.38)),
    labeled: spacing >= LABELED_NODE_SPACING,
  };
}

export function parentOf(slot, arity) {
  return Math.floor((slot - 1) / arity);
}

// The backing array wraps into rows of equal cells.
export const CELL_WIDTH = 64;
export const CELL_HEIGHT = 58;
const CELL_GAP = 6;
const ROW_GAP = 22;                      // room for a lifted token to float above its hole

export function arrayColumns(width) {
  return Math.max(1, Math.floor((width + CELL_GAP) / (CELL_WIDTH + CELL_GAP)));
}

export function arrayPosition(slot, columns) {
  return {
    x: (slot % columns) * (CELL_WIDTH + CELL_GAP),
    y: ROW_GAP + Math.floor(slot / columns) * (CELL_HEIGHT + ROW_GAP),
  };
}

export function arrayHeight(slotCount, columns) {
  const rows = Math.max(1, Math.ceil(slotCount / columns));
  return ROW_GAP + rows * CELL_HEIGHT + (rows - 1) * ROW_GAP + 4;
}
