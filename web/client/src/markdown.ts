// The small part of Markdown the rules texts use (docs/engine.md "The rules text"): `#`
// titles, `##` sections, paragraphs, `- ` and `1. ` lists, **bold** and *italic*. Built as DOM
// nodes, never as HTML, so nothing in a text can become markup.

function inline(text: string, parent: HTMLElement): void {
  const pattern = /\*\*(.+?)\*\*|\*(.+?)\*/g;
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    parent.append(text.slice(at, match.index));
    const node = document.createElement(match[1] !== undefined ? "strong" : "em");
    node.textContent = match[1] ?? match[2];
    parent.append(node);
    at = (match.index ?? 0) + match[0].length;
  }
  parent.append(text.slice(at));
}

export function markdown(text: string): DocumentFragment {
  const out = document.createDocumentFragment();
  let paragraph: string[] = [];
  let list: HTMLElement | null = null;
  const flush = () => {
    if (paragraph.length) {
      const p = document.createElement("p");
      inline(paragraph.join(" "), p);
      out.append(p);
      paragraph = [];
    }
  };
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const bullet = /^- (.*)$/.exec(line);
    const numbered = /^\d+\. (.*)$/.exec(line);
    if (bullet || numbered) {
      flush();
      const kind = bullet ? "UL" : "OL";
      if (!list || list.tagName !== kind) {
        list = document.createElement(bullet ? "ul" : "ol");
        out.append(list);
      }
      const li = document.createElement("li");
      inline((bullet ?? numbered)![1], li);
      list.append(li);
      continue;
    }
    list = null;
    const heading = /^(#{1,3}) (.*)$/.exec(line);
    if (heading) {
      flush();
      const node = document.createElement(heading[1].length === 1 ? "h2" : "h3");
      inline(heading[2], node);
      out.append(node);
    } else if (!line) {
      flush();
    } else {
      paragraph.push(line);
    }
  }
  flush();
  return out;
}
