// A drawn chart as files: the SVG element serialised as it is (its styling is in presentation attributes), and a PNG
// rasterised from that SVG at twice the size through an <img> and a canvas — one drawing, two formats.

export function svgText(el: SVGSVGElement): string {
  const copy = el.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  // lit's template markers are comments: not part of the drawing
  const walker = document.createTreeWalker(copy, NodeFilter.SHOW_COMMENT);
  const comments: Node[] = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  for (const c of comments) c.parentNode?.removeChild(c);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
}

export async function svgToPng(el: SVGSVGElement, scale = 2): Promise<Blob> {
  const width = Number(el.getAttribute('width'));
  const height = Number(el.getAttribute('height'));
  const url = URL.createObjectURL(new Blob([svgText(el)], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = width * scale;
    canvas.height = height * scale;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the canvas gave no PNG'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}

export function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  Object.assign(document.createElement('a'), { href: url, download: name }).click();
  // the click starts the download synchronously; the URL is no longer needed after this turn
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
