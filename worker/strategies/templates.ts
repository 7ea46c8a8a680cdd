// Prompt sections are Jinja templates rendered with @huggingface/jinja. Its trim_blocks and
// lstrip_blocks are always on, so the shipped templates are written (and golden-tested) for Python
// Jinja2 with Environment(trim_blocks=True, lstrip_blocks=True) — and, like Jinja2's default,
// a single trailing newline of the template is dropped.
//
// Rendering cost: @huggingface/jinja's Template.render builds a new environment, sets up its globals and converts
// every variable passed (recursively) to its runtime values on each call. Two shortcuts, same output:
//  - a template made only of text and plain variable lookups (`{{ result.output }}`, `{{ a.b.c }}`) whose values
//    are all strings is filled in directly — Jinja prints a string as it is (no autoescaping here);
//  - any other template gets only the variables it names (top-level identifiers in its syntax tree), so large
//    unused ones (tool lists, states, gathered results) are not converted.
import { Template } from '@huggingface/jinja';

interface Compiled {
  template: Template;
  /** every identifier the template's syntax tree names: a superset of the top-level variables it reads */
  names: Set<string>;
  /** text and variable paths, when the template is nothing else */
  simple?: (string | string[])[];
}

const cache = new Map<string, Compiled>();

/** Names @huggingface/jinja's render declares itself; a variable lookup of one of these is never filled in directly. */
const GLOBALS = new Set(['false', 'true', 'none', 'False', 'True', 'None', 'raise_exception', 'range', 'strftime_now', 'namespace']);

export class TemplateError extends Error {
  constructor(message: string, readonly template: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

interface Node {
  type?: unknown;
  value?: unknown;
  object?: Node;
  property?: Node;
  computed?: boolean;
}

function collectIdentifiers(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) {
    for (const n of node) collectIdentifiers(n, into);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const n = node as Node;
  if (n.type === 'Identifier' && typeof n.value === 'string') into.add(n.value);
  for (const v of Object.values(node)) if (v && typeof v === 'object') collectIdentifiers(v, into);
}

/** `a.b.c` as ['a', 'b', 'c'] when the node is an identifier or a chain of plain (non-computed) member names. */
function variablePath(node: Node): string[] | undefined {
  if (node.type === 'Identifier' && typeof node.value === 'string') return GLOBALS.has(node.value) ? undefined : [node.value];
  if (node.type === 'MemberExpression' && !node.computed && node.object && node.property?.type === 'Identifier' && typeof node.property.value === 'string') {
    const head = variablePath(node.object);
    return head && [...head, node.property.value];
  }
  return undefined;
}

function compile(source: string): Compiled {
  const template = new Template(source);
  const names = new Set<string>();
  collectIdentifiers(template.parsed, names);
  const parts: (string | string[])[] = [];
  for (const statement of template.parsed.body as Node[]) {
    if (statement.type === 'StringLiteral' && typeof statement.value === 'string') parts.push(statement.value);
    else {
      const path = variablePath(statement);
      if (!path) return { template, names };
      parts.push(path);
    }
  }
  return { template, names, simple: parts };
}

const isEnumerable = Object.prototype.propertyIsEnumerable;

/** The filled-in text, or undefined when a value is not a string reached through plain objects (Jinja then decides). */
function fillSimple(parts: (string | string[])[], vars: Record<string, unknown>): string | undefined {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    let value: unknown = vars;
    for (const key of part) {
      if (!value || typeof value !== 'object' || Array.isArray(value) || !isEnumerable.call(value, key)) return undefined;
      value = (value as Record<string, unknown>)[key];
    }
    if (typeof value !== 'string') return undefined;
    out += value;
  }
  return out;
}

export function renderTemplate(source: string, vars: Record<string, unknown>, name = 'template'): string {
  try {
    let c = cache.get(source);
    if (!c) {
      c = compile(source);
      cache.set(source, c);
    }
    if (c.simple) {
      const filled = fillSimple(c.simple, vars);
      if (filled !== undefined) return filled;
    }
    const used: Record<string, unknown> = {};
    for (const key of Object.keys(vars)) if (c.names.has(key)) used[key] = vars[key];
    return c.template.render(used);
  } catch (err) {
    throw new TemplateError(`prompt template "${name}" failed to render: ${(err as Error).message}`, name);
  }
}
