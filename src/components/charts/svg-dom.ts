// A chart drawn by the engine (worker/experiments/charts/: plain data, the same drawing the HTML report writes) as SVG
// elements for the page. Built with createElementNS and text nodes — never parsed from markup — so a name in a drawing
// can only ever be text.
import { chartRoot, type ChartSvg, type SvgChild } from '../../../worker/experiments/charts/svg-tree.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

function node(child: SvgChild, doc: Document): Node {
  if (typeof child === 'string') return doc.createTextNode(child);
  const e = doc.createElementNS(SVG_NS, child.tag);
  for (const [k, v] of Object.entries(child.attrs)) {
    // the namespace declaration is an attribute of the XMLNS namespace (as the HTML parser makes it), so an exported
    // file declares it once
    if (k === 'xmlns') e.setAttributeNS(XMLNS_NS, k, String(v));
    else e.setAttribute(k, String(v));
  }
  for (const c of child.children) e.appendChild(node(c, doc));
  return e;
}

/** The chart's root `<svg>` (size, accessible name, white background) with its drawing inside. */
export function svgElement(chart: ChartSvg, label: string, doc: Document = document): SVGSVGElement {
  return node(chartRoot(chart, label), doc) as SVGSVGElement;
}
