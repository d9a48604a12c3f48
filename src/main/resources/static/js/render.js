// Draws one frame three ways: the tree (SVG), the backing array and the indexById chips. Each timer is one keyed
// element per view that is moved, not redrawn, so CSS transitions carry it from slot to slot in all three views at
// once. Every element carries data-id and data-slot ("lifted" while in hand) so that tests and people can check
// that the views agree.

import { slotExtent, slotsById, keysText } from './replay.js';
import {
  treePosition, parentOf, levelsFor, LEVEL_HEIGHT, TREE_TOP, TREE_BOTTOM,
  arrayColumns, arrayPosition, arrayHeight,
} from './layout.js';

const SVG = 'http://www.w3.org/2000/svg';
const LEAVE_MS = 700;
const compactNumber = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const grouped = new Intl.NumberFormat('en');

export const formatCount = (count) => grouped.format(count);

function shortNumber(value) {
  return Math.abs(value) < 100000 ? String(value) : compactNumber.format(value);
}

function shortId(id, maxChars) {
  return id.length <= maxChars ? id : id.slice(0, Math.max(1, maxChars - 1)) + '…';
}

/** "t5 p1": fireTime and priority, the keys a learner compares; the full keys are in each element's title. */
function keysLabel(frame, id) {
  const keys = frame.keys.get(id);
  return keys ? `t${shortNumber(keys.fireTime)} p${shortNumber(keys.priority)}` : 't?';
}

const KEYS_CHAR_WIDTH = 6.2; // px per character of the 10.5 px keys label

/** A label is printed only where it cannot run into its neighbour's. */
function fitsUnderNode(label, spacing) {
  return label.length * KEYS_CHAR_WIDTH + 6 <= spacing;
}

/** What each view needs to know about one timer in this frame. */
function placements(frame, drawLimit) {
  const placed = [];
  for (const [slot, id] of frame.cells) {
    if (slot < drawLimit) {
      placed.push({ id, slot, inHand: false });
    }
  }
  if (frame.inHand !== null && frame.hole !== null && frame.hole < drawLimit) {
    placed.push({ id: frame.inHand, slot: frame.hole, inHand: true });
  }
  return placed;
}

function stateClasses(frame, placement) {
  return {
    'in-hand': placement.inHand,
    compared: !placement.inHand && frame.focus.comparedSlot === placement.slot,
    moved: frame.focus.movedId === placement.id,
  };
}

function applyClasses(element, classes) {
  for (const [name, on] of Object.entries(classes)) {
    element.classList.toggle(name, on);
  }
}

/** Removes elements whose timer is gone from this view: fades them out without letting them match data-id. */
function retire(elements, keep) {
  for (const [id, element] of elements) {
    if (!keep.has(id)) {
      elements.delete(id);
      element.removeAttribute('data-id');
      element.dataset.leaving = id;
      element.classList.add('leaving');
      setTimeout(() => element.remove(), LEAVE_MS);
    }
  }
}

// ---- tree ----

const treeNodes = new Map();

export function renderTree(svg, frame, drawLimit) {
  const width = svg.parentElement.clientWidth;
  const extent = Math.min(slotExtent(frame), drawLimit);
  const levels = Math.max(levelsFor(extent, frame.arity), 1);
  const height = TREE_TOP + (levels - 1) * LEVEL_HEIGHT + 20 + TREE_BOTTOM;
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.style.height = `${height}px`;
  const layers = treeLayers(svg);
  drawSlotsAndEdges(layers, frame, extent, width);

  const placed = placements(frame, drawLimit);
  for (const placement of placed) {
    let node = treeNodes.get(placement.id);
    if (!node) {
      node = createTreeNode(placement.id);
      treeNodes.set(placement.id, node);
      layers.nodes.appendChild(node);
    }
    updateTreeNode(node, frame, placement, width);
  }
  retire(treeNodes, new Set(placed.map((p) => p.id)));
}

function treeLayers(svg) {
  if (!svg.firstChild) {
    for (const name of ['edges', 'slots', 'nodes']) {
      const layer = document.createElementNS(SVG, 'g');
      layer.classList.add(name);
      svg.appendChild(layer);
    }
  }
  const [edges, slots, nodes] = svg.children;
  return { edges, slots, nodes };
}

/** The tree's fixed shape: one empty circle per slot and an edge to its parent. Cheap to redraw every frame. */
function drawSlotsAndEdges(layers, frame, extent, width) {
  layers.edges.replaceChildren();
  layers.slots.replaceChildren();
  for (let slot = 0; slot < extent; slot++) {
    const at = treePosition(slot, frame.arity, width);
    if (slot > 0) {
      const parent = treePosition(parentOf(slot, frame.arity), frame.arity, width);
      const edge = document.createElementNS(SVG, 'line');
      edge.setAttribute('x1', parent.x);
      edge.setAttribute('y1', parent.y);
      edge.setAttribute('x2', at.x);
      edge.setAttribute('y2', at.y);
      layers.edges.appendChild(edge);
    }
    const place = document.createElementNS(SVG, 'circle');
    place.setAttribute('cx', at.x);
    place.setAttribute('cy', at.y);
    place.setAttribute('r', at.radius);
    place.classList.add('slot');
    place.classList.toggle('hole', frame.hole === slot);
    place.classList.toggle('compared-slot', frame.focus.comparedSlot === slot);
    place.dataset.slot = slot;
    layers.slots.appendChild(place);
    if (at.labeled) {
      const number = document.createElementNS(SVG, 'text');
      number.setAttribute('x', at.x - at.radius - 3);
      number.setAttribute('y', at.y - at.radius + 2);
      number.classList.add('slot-number');
      number.textContent = slot;
      layers.slots.appendChild(number);
    }
  }
}

function createTreeNode(id) {
  const node = document.createElementNS(SVG, 'g');
  node.classList.add('node', 'entering');
  node.dataset.id = id;
  node.innerHTML = '<title></title><circle></circle><text class="node-id" dy="0.35em"></text>'
    + '<text class="node-keys"></text>';
  requestAnimationFrame(() => node.classList.remove('entering'));
  return node;
}

function updateTreeNode(node, frame, placement, width) {
  const at = treePosition(placement.slot, frame.arity, width);
  // A lifted timer floats just above its hole, between it and the parent it is compared with.
  const y = placement.inHand ? at.y - LEVEL_HEIGHT * 0.46 : at.y;
  const radius = placement.inHand ? at.radius * 0.85 : at.radius;
  node.style.transform = `translate(${at.x}px, ${y}px)`;
  node.dataset.slot = placement.inHand ? 'lifted' : placement.slot;
  applyClasses(node, stateClasses(frame, placement));
  const [title, circle, idText, keysTextElement] = node.children;
  title.textContent = `${placement.id} · ${placement.inHand ? 'lifted, over the hole at slot ' : 'slot '}`
    + `${placement.slot} · ${keysText(frame, placement.id)}`;
  circle.setAttribute('r', radius);
  idText.textContent = shortId(placement.id, Math.max(1, Math.floor(radius / 4.2)));
  idText.style.fontSize = `${Math.max(8, Math.min(14, radius * 0.72))}px`;
  const label = keysLabel(frame, placement.id);
  keysTextElement.textContent = at.labeled && (placement.inHand || fitsUnderNode(label, at.spacing)) ? label : '';
  // Under a node its keys would cover the hole below a lifted one, so those go to its right.
  keysTextElement.setAttribute('x', placement.inHand ? radius + 4 : 0);
  keysTextElement.setAttribute('y', placement.inHand ? 4 : radius + 12);
  keysTextElement.classList.toggle('beside', placement.inHand);
}

// ---- backing array ----

const arrayTokens = new Map();

export function renderArray(container, frame, drawLimit) {
  const columns = arrayColumns(container.clientWidth);
  const extent = Math.min(slotExtent(frame), drawLimit);
  container.style.height = `${arrayHeight(extent, columns)}px`;
  drawArrayCells(container, frame, extent, columns);

  const placed = placements(frame, drawLimit);
  for (const placement of placed) {
    let token = arrayTokens.get(placement.id);
    if (!token) {
      token = document.createElement('div');
      token.className = 'token entering';
      token.dataset.id = placement.id;
      token.innerHTML = '<span class="token-id"></span><span class="token-keys"></span>';
      container.appendChild(token);
      arrayTokens.set(placement.id, token);
      requestAnimationFrame(() => token.classList.remove('entering'));
    }
    const at = arrayPosition(placement.slot, columns);
    token.style.transform = `translate(${at.x}px, ${at.y - (placement.inHand ? 16 : 0)}px)`;
    token.dataset.slot = placement.inHand ? 'lifted' : placement.slot;
    token.title = `${placement.id} · ${keysText(frame, placement.id)}`;
    applyClasses(token, stateClasses(frame, placement));
    token.children[0].textContent = shortId(placement.id, 8);
    token.classList.toggle('long-id', placement.id.length > 5);
    token.children[1].textContent = keysLabel(frame, placement.id);
  }
  retire(arrayTokens, new Set(placed.map((p) => p.id)));
}

function drawArrayCells(container, frame, extent, columns) {
  const cells = container.querySelectorAll('.cell');
  cells.forEach((cell) => {
    if (Number(cell.dataset.slot) >= extent) {
      cell.remove();
    }
  });
  for (let slot = 0; slot < extent; slot++) {
    let cell = container.querySelector(`.cell[data-slot="${slot}"]`);
    if (!cell) {
      cell = document.createElement('div');
      cell.className = 'cell';
      cell.dataset.slot = slot;
      cell.innerHTML = `<span class="cell-slot">${slot}</span>`;
      container.prepend(cell);
    }
    const at = arrayPosition(slot, columns);
    cell.style.transform = `translate(${at.x}px, ${at.y}px)`;
    cell.classList.toggle('hole', frame.hole === slot);
    cell.classList.toggle('compared-slot', frame.focus.comparedSlot === slot);
  }
}

// ---- indexById chips ----

const chips = new Map();
const byId = (a, b) => a.localeCompare(b, 'en', { numeric: true });

export function renderChips(list, frame, drawLimit) {
  const placed = placements(frame, drawLimit).sort((a, b) => byId(a.id, b.id));
  const slots = slotsById(frame);
  for (const placement of placed) {
    let chip = chips.get(placement.id);
    if (!chip) {
      chip = document.createElement('li');
      chip.className = 'chip';
      chip.dataset.id = placement.id;
      chip.innerHTML = '<span class="chip-id"></span><span class="chip-arrow" aria-hidden="true">→</span>'
        + '<span class="chip-slot"></span>';
      chip.children[0].textContent = placement.id;
      chips.set(placement.id, chip);
    }
    const slotText = placement.inHand ? 'lifted' : String(slots.get(placement.id));
    if (chip.dataset.slot !== undefined && chip.dataset.slot !== slotText) {
      flash(chip);
    }
    chip.dataset.slot = slotText;
    chip.children[2].textContent = slotText;
    chip.setAttribute('aria-label', `${placement.id} is ${placement.inHand ? 'lifted out of the heap'
      : `in slot ${slotText}`}`);
    applyClasses(chip, stateClasses(frame, placement));
    list.appendChild(chip); // re-appending in sorted order keeps the chips sorted by id
  }
  retire(chips, new Set(placed.map((p) => p.id)));
}

/** Restarts the "changed" animation even when the chip changed in the previous frame too. */
function flash(element) {
  element.classList.remove('changed');
  void element.offsetWidth;
  element.classList.add('changed');
}

// ---- what is not drawn ----

export function renderHiddenNote(note, frame, drawLimit) {
  const drawn = Math.min(frame.size, drawLimit);
  const hidden = frame.size - drawn;
  note.dataset.hidden = hidden;
  if (hidden <= 0) {
    note.textContent = frame.size === 0 ? 'The queue is empty.' : `All ${formatCount(frame.size)} timers are drawn.`;
    return;
  }
  note.textContent = `Drawing slots 0–${drawLimit - 1} (the top levels that fit) of ${formatCount(frame.size)} `
    + `timers: ${formatCount(hidden)} deeper timers are not drawn.`;
}
