// The subset of Markdown the dataset cards use (headings, paragraphs, lists, **bold**, `code`,
// [links](url)), rendered to DOM nodes: text stays text, and only relative or http(s) links are kept.
import { h } from './dom.js';

/** DOM nodes for `markdown`; the card's first heading becomes an h3 so the page outline holds. */
export function renderMarkdown(markdown) {
  const nodes = [];
  let paragraph = [];
  let list;
  const flush = () => {
    if (paragraph.length) nodes.push(h('p', {}, inline(paragraph.join(' '))));
    paragraph = [];
  };
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trimEnd();
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^\s*[-*]\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      list = undefined;
      nodes.push(h(`h${Math.min(6, heading[1].length + 2)}`, {}, inline(heading[2])));
    } else if (item) {
      flush();
      if (!list) nodes.push((list = h('ul')));
      list.append(h('li', {}, inline(item[1])));
    } else if (line.trim() === '') {
      flush();
      list = undefined;
    } else {
      list = undefined;
      paragraph.push(line.trim());
    }
  }
  flush();
  return nodes;
}

function inline(text) {
  const out = [];
  const pattern = /\*\*([^*]+)\*\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1] !== undefined) out.push(h('strong', {}, m[1]));
    else if (m[2] !== undefined) out.push(h('code', {}, m[2]));
    else out.push(/^(\/|https?:\/\/)/.test(m[4]) ? h('a', { href: m[4] }, m[3]) : m[3]);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
