// Building the page from data: every text from the database goes in through
// textContent or an attribute value, never through innerHTML, so a tag such as
// <script> in a player's name shows as text.

const SVG = 'http://www.w3.org/2000/svg';

function fill(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') node.textContent = String(value);
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// el('a', {href: '#/x', class: 'y', text: 'z'}, ...children)
export function el(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

export function svg(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG, tag), attrs, children);
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

// A table: columns [{title, cell: row => Node|string, class}], rows, and what a click on a row does.
export function table(columns, rows, onRow) {
  const head = el('tr', {}, columns.map((c) => el('th', { class: c.class, text: c.title })));
  const body = rows.map((row) => {
    const tr = el('tr', {}, columns.map((c) => el('td', { class: c.class }, c.cell(row))));
    if (onRow) {
      tr.classList.add('clickable');
      tr.addEventListener('click', (event) => {
        if (event.target.closest('a')) return;
        onRow(row);
      });
    }
    return tr;
  });
  return el('table', { class: 'data' }, el('thead', {}, head), el('tbody', {}, body));
}

export function percent(part, whole) {
  return whole ? `${((100 * part) / whole).toFixed(1)}%` : '';
}

export async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    if (button) flash(button, 'Copied');
  } catch {
    window.prompt('Copy:', text);
  }
}

function flash(button, label) {
  const old = button.textContent;
  button.textContent = label;
  setTimeout(() => { button.textContent = old; }, 1200);
}
