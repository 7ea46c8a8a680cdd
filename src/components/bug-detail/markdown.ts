// A bug report's Markdown as safe HTML: marked renders it, DOMPurify removes whatever could run (scripts, event
// handler attributes, javascript: links) — reports come from imported benchmarks and issue trackers, not from us.
import { marked } from 'marked';
import DOMPurify from 'dompurify';

export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true, breaks: false });
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}
