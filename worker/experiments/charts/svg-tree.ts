// A chart's drawing as plain data: SVG elements with attributes and children, no DOM and no lit. The engine draws
// every chart once, here, for both places that show it: the page turns the tree into SVG elements
// (src/components/charts/svg-dom.ts), and the self-contained HTML report (report-html.ts) writes it as markup — so the
// report carries exactly the charts the app shows, and Node (the CLI's `report --html`) draws them too.

/** One SVG element; a string child is text. Attribute values are written as they are given (escaped on output). */
export interface SvgNode {
  tag: string;
  attrs: Record<string, string | number>;
  children: SvgChild[];
}
export type SvgChild = SvgNode | string;

/** A chart as drawn: its size and the elements inside its root `<svg>`. */
export interface ChartSvg {
  width: number;
  height: number;
  content: SvgChild[];
}

/** Children may be nested arrays or left out (false, null, undefined, ''): a drawing reads like the markup it makes. */
export type SvgChildren = SvgChild | false | null | undefined | readonly SvgChildren[];

function flatten(children: readonly SvgChildren[], into: SvgChild[] = []): SvgChild[] {
  for (const c of children) {
    if (Array.isArray(c)) flatten(c as readonly SvgChildren[], into);
    else if (c !== false && c !== null && c !== undefined && c !== '') into.push(c as SvgChild);
  }
  return into;
}

/** An element; an attribute whose value is undefined is left out (as lit's `nothing`). */
export function el(tag: string, attrs: Record<string, string | number | undefined> = {}, ...children: SvgChildren[]): SvgNode {
  const defined: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) defined[k] = v;
  return { tag, attrs: defined, children: flatten(children) };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
/** Tag and attribute names come from the drawing code, never from data; still, only plain names are written. */
const NAME = /^[a-zA-Z][\w:-]*$/;

/** A number as an attribute: at most two decimals (a pixel), no float noise in the file. */
export function coordinate(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Number(v.toFixed(2)));
}

/** The tree as markup: every text and attribute value escaped, so a variant or command named `<script>` stays text. */
export function svgMarkup(node: SvgChild): string {
  if (typeof node === 'string') return escape(node);
  if (!NAME.test(node.tag)) throw new Error(`svg: ${JSON.stringify(node.tag)} is not an element name`);
  const attrs = Object.entries(node.attrs)
    .map(([k, v]) => {
      if (!NAME.test(k)) throw new Error(`svg: ${JSON.stringify(k)} is not an attribute name`);
      return ` ${k}="${escape(typeof v === 'number' ? coordinate(v) : v)}"`;
    })
    .join('');
  return node.children.length ? `<${node.tag}${attrs}>${node.children.map(svgMarkup).join('')}</${node.tag}>` : `<${node.tag}${attrs}/>`;
}

/**
 * The chart's root element: its size, an accessible name, and a white background (so an exported PNG is not
 * transparent). `inline`: inside an HTML document, whose parser gives `<svg>` its namespace — no namespace URL is written
 * (the HTML report holds no URL of its own); a standalone SVG file needs it.
 */
export function chartRoot(chart: ChartSvg, label: string, inline = false): SvgNode {
  return el(
    'svg',
    { xmlns: inline ? undefined : 'http://www.w3.org/2000/svg', width: chart.width, height: chart.height, viewBox: `0 0 ${chart.width} ${chart.height}`, role: 'img', 'aria-label': label },
    el('rect', { width: chart.width, height: chart.height, fill: '#fff' }),
    chart.content,
  );
}
