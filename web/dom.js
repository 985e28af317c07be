// Small DOM helpers: elements are built with textContent, never innerHTML, so API text cannot inject markup.

/** Creates an element with attributes (`on*` functions become listeners) and children (strings or nodes). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** Same as h() in the SVG namespace. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (name === 'class') el.setAttribute('class', value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
}

function append(el, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces the children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** `document.getElementById`, failing loudly when the page lacks the element. */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from the page`);
  return el;
}

/** The problem document (or network failure) of a failed call, as a readable block. */
export function problemView(result) {
  const p = result.problem ?? {};
  const title = p.title ?? (result.status ? `HTTP ${result.status}` : 'Network error');
  const lines = [];
  if (p.detail) lines.push(p.detail);
  for (const e of Array.isArray(p.errors) ? p.errors : []) {
    const allowed = Array.isArray(e.allowed) && e.allowed.length ? ` (allowed: ${e.allowed.join(', ')})` : '';
    if (e.message && !String(p.detail ?? '').includes(e.message)) lines.push(`${e.parameter ?? ''}: ${e.message}${allowed}`);
    else if (allowed) lines.push(`${e.parameter ?? ''}${allowed}`);
  }
  return h(
    'div',
    { class: 'problem', role: 'alert' },
    h('p', { class: 'problem-title' }, title, p.code ? h('code', {}, ` ${p.code}`) : null),
    lines.map((l) => h('p', {}, l)),
  );
}

/** Human label of an agreement id (persons, noun classes), shown next to the id. */
export function agreementLabel(id) {
  const persons = { '1sg': 'I', '2sg': 'you (sg.)', '3sg': 'he/she', '1pl': 'we', '2pl': 'you (pl.)', '3pl': 'they' };
  if (persons[id]) return `${id} (${persons[id]})`;
  const m = /^c(\d+[a-z]?)$/.exec(id);
  if (m) return `class ${m[1]}${m[1] === '1' ? ' (he/she)' : m[1] === '2' ? ' (they)' : ''}`;
  return id;
}
