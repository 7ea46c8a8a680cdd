// Prompt sections are Jinja templates rendered with @huggingface/jinja. Its trim_blocks and
// lstrip_blocks are always on, so the shipped templates are written (and golden-tested) for Python
// Jinja2 with Environment(trim_blocks=True, lstrip_blocks=True) — and, like Jinja2's default,
// a single trailing newline of the template is dropped.
import { Template } from '@huggingface/jinja';

const cache = new Map<string, Template>();

export class TemplateError extends Error {
  constructor(message: string, readonly template: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

export function renderTemplate(source: string, vars: Record<string, unknown>, name = 'template'): string {
  let t = cache.get(source);
  try {
    if (!t) {
      t = new Template(source);
      cache.set(source, t);
    }
    return t.render(vars);
  } catch (err) {
    throw new TemplateError(`prompt template "${name}" failed to render: ${(err as Error).message}`, name);
  }
}
