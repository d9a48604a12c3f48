// Building the page without markup: every text (ids, payloads, reasons, names) becomes a text node, never HTML,
// so hostile ids and payloads show as what they are. No innerHTML anywhere in the console.

// h('button', {class: 'small', onclick: fn, 'data-id': id}, 'Cancel', child, ...): attributes by setAttribute,
// on* by addEventListener, children as nodes or text; null and false children are skipped.
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) {
      continue;
    }
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2), value);
    } else if (value === true) {
      element.setAttribute(name, '');
    } else {
      element.setAttribute(name, String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// Replaces what an element shows.
export function show(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

// A time in clock milliseconds, as a number and as a UTC instant where a date can show it.
export function clockTime(millis) {
  if (millis === null || millis === undefined) {
    return '—';
  }
  return `${millis} (${utc(millis)})`;
}

export function utc(millis) {
  const date = new Date(millis);
  return Number.isNaN(date.getTime()) ? 'beyond dates' : date.toISOString().replace('.000Z', 'Z');
}

// A payload as indented JSON text (shown in a <pre> with textContent).
export function formatted(payload) {
  return payload === undefined ? '' : JSON.stringify(payload, null, 2);
}
