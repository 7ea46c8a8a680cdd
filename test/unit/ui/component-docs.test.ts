// The components document themselves (src/components/README.md): every `rl-*` element lives in a folder of its own
// named after it, keeps its own CSS in `<name>.styles.ts`, and its class JSDoc names what it fires (with the detail's
// type), its slots, its parts and the theme properties its styles read. These tests read the source files, so a
// `dispatchEvent(new CustomEvent('x', …))` without a matching `@fires x` fails here, as does a README events table
// that no longer matches the JSDoc, or an import cycle among the UI's modules.
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../../src', import.meta.url));
const COMPONENTS = join(SRC, 'components');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return tsFiles(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

interface Fired {
  name: string;
  /** the generic argument of `new CustomEvent<T>(…)`, when written */
  type?: string;
  /** the event init names a detail */
  hasDetail: boolean;
}

interface Doc {
  summary: boolean;
  fires: Map<string, string>;
  slots: Set<string>;
  parts: Set<string>;
  cssProperties: Set<string>;
  /** tag lines that are not in the `@tag name - …` shape */
  malformed: string[];
}

interface Element {
  file: string;
  tag: string;
  source: string;
  doc: Doc | undefined;
}

/** The text from `open` up to its balanced closing character, both included. */
function balanced(text: string, at: number, open: string, close: string): string {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    if (text[i] === open) depth++;
    else if (text[i] === close && --depth === 0) return text.slice(at, i + 1);
  }
  throw new Error(`unbalanced ${open}${close} at ${at}`);
}

/** Every event the source dispatches: `dispatchEvent(new CustomEvent<T>('name', { detail … }))` (or `new Event('name')`). */
function firedEvents(source: string): Fired[] {
  const out: Fired[] = [];
  const re = /dispatchEvent\(\s*new (CustomEvent|Event)\s*/g;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    let at = m.index + m[0].length;
    let type: string | undefined;
    if (source[at] === '<') {
      const generic = balanced(source, at, '<', '>');
      type = generic.slice(1, -1).replace(/\s+/g, ' ').trim();
      at += generic.length;
    }
    const args = balanced(source, at, '(', ')');
    const name = /^\(\s*(['"`])([^'"`]+)\1/.exec(args)?.[2];
    if (!name) throw new Error(`an event without a literal name: ${args.slice(0, 60)}`);
    out.push({ name, ...(type ? { type } : {}), hasDetail: /\bdetail\s*:(?!\s*null\b)/.test(args) });
  }
  return out;
}

/** The JSDoc block right before `export class … extends LitElement`. */
function classDoc(source: string): Doc | undefined {
  const m = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*\nexport class \w+ extends LitElement/.exec(source);
  if (!m) return undefined;
  const lines = m[1]!.split('\n').map((l) => l.replace(/^\s*\*\s?/, '').trimEnd());
  const doc: Doc = { summary: false, fires: new Map(), slots: new Set(), parts: new Set(), cssProperties: new Set(), malformed: [] };
  for (const line of lines) {
    const tag = /^@(\w+)\b/.exec(line)?.[1];
    if (!tag) continue;
    if (tag === 'summary') {
      doc.summary = line.replace('@summary', '').trim().length > 0;
      continue;
    }
    if (tag === 'fires' || tag === 'event') {
      const f = /^@(?:fires|event) (\S+) - \{([^}]+)\} \S/.exec(line);
      if (f) doc.fires.set(f[1]!, f[2]!.replace(/\s+/g, ' ').trim());
      else doc.malformed.push(line);
      continue;
    }
    // `@slot - …` is the default slot (named '' here)
    const named = /^@(slot|csspart|cssproperty|cssprop)(?: (\S+))? - \S/.exec(line);
    if (!named) {
      doc.malformed.push(line);
      continue;
    }
    const name = named[2] ?? '';
    if (named[1] === 'slot') doc.slots.add(name);
    else if (named[1] === 'csspart') doc.parts.add(name);
    else doc.cssProperties.add(name);
  }
  return doc;
}

const elements: Element[] = tsFiles(COMPONENTS)
  .filter((f) => !f.endsWith('.styles.ts'))
  .flatMap((file) => {
    const source = readFileSync(file, 'utf8');
    const tags = [...source.matchAll(/customElements\.define\(\s*'([^']+)'/g)].map((m) => m[1]!);
    if (tags.length > 1) throw new Error(`${file} defines ${tags.length} elements: one per file`);
    return tags.map((tag) => ({ file, tag, source, doc: classDoc(source) }));
  });

const rel = (f: string) => relative(SRC, f);

describe('every rl-* element documents itself', () => {
  it('finds the elements', () => {
    expect(elements.length).toBeGreaterThanOrEqual(33);
    expect(new Set(elements.map((e) => e.tag)).size).toBe(elements.length);
  });

  it.each(elements.map((e) => [e.tag, e] as const))('%s', (_tag, e) => {
    const name = e.tag.replace(/^rl-/, '');
    const problems: string[] = [];
    // one folder per element: <name>/<name>.ts
    if (basename(e.file) !== `${name}.ts` || basename(dirname(e.file)) !== name) problems.push(`lives at ${rel(e.file)}, not in ${name}/${name}.ts`);
    const doc = e.doc;
    if (!doc) {
      expect.fail(`${rel(e.file)}: no JSDoc right before the element's class`);
      return;
    }
    if (!doc.summary) problems.push('no @summary');
    for (const line of doc.malformed) problems.push(`malformed tag line "${line}" (write "@fires name - {DetailType} what it means", "@slot name - …")`);

    // events: every dispatch documented with its detail's type, every documented event dispatched
    const fired = firedEvents(e.source);
    for (const f of fired) {
      const documented = doc.fires.get(f.name);
      if (documented === undefined) problems.push(`dispatches '${f.name}' but has no "@fires ${f.name} - {DetailType} …"`);
      else if (f.type && documented !== f.type) problems.push(`'${f.name}': the detail is CustomEvent<${f.type}> but @fires says {${documented}}`);
      else if (!f.hasDetail && documented !== 'null') problems.push(`'${f.name}' is dispatched without a detail: document it as {null}, not {${documented}}`);
      else if (f.hasDetail && documented === 'null') problems.push(`'${f.name}' carries a detail but @fires says {null}`);
    }
    for (const name of doc.fires.keys()) if (!fired.some((f) => f.name === name)) problems.push(`@fires ${name}, but never dispatches it`);

    // slots and parts in the template, documented both ways
    const slots = new Set([...e.source.matchAll(/<slot(?:\s+name=["']([^"']+)["'])?[\s>]/g)].map((m) => m[1] ?? ''));
    for (const s of slots) if (!doc.slots.has(s)) problems.push(s ? `has <slot name="${s}"> but no "@slot ${s} - …"` : 'has a default <slot> but no "@slot - …"');
    for (const s of doc.slots) if (!slots.has(s)) problems.push(`@slot ${s || '(default)'}, but renders no such slot`);
    const parts = new Set([...e.source.matchAll(/\spart=["']([^"'$]+)["']/g)].flatMap((m) => m[1]!.split(/\s+/)));
    for (const p of parts) if (!doc.parts.has(p)) problems.push(`has part="${p}" but no "@csspart ${p} - …"`);
    for (const p of doc.parts) if (!parts.has(p)) problems.push(`@csspart ${p}, but no element has that part`);

    // styles: none inline; the element's own CSS is <name>.styles.ts, imported, its custom properties documented
    if (/\bcss`/.test(e.source)) problems.push(`has css\`…\` inline: move it to ${name}.styles.ts`);
    const stylesFile = join(dirname(e.file), `${name}.styles.ts`);
    if (existsSync(stylesFile)) {
      if (!e.source.includes(`'./${name}.styles.ts'`)) problems.push(`does not import its ${name}.styles.ts`);
      const used = new Set([...readFileSync(stylesFile, 'utf8').matchAll(/var\(\s*(--[\w-]+)/g)].map((m) => m[1]!));
      for (const p of used) if (!doc.cssProperties.has(p)) problems.push(`its styles read ${p} but there is no "@cssproperty ${p} - …"`);
      for (const p of doc.cssProperties) if (!used.has(p)) problems.push(`@cssproperty ${p}, but ${name}.styles.ts does not read it`);
    }
    expect(problems, rel(e.file)).toEqual([]);
  });
});

describe('src/components/README.md', () => {
  const readme = readFileSync(join(COMPONENTS, 'README.md'), 'utf8');

  it("lists every element's events as its JSDoc documents them", () => {
    const section = readme.split(/^## /m).find((s) => s.startsWith('Events'));
    expect(section, 'README.md has an "## Events" section').toBeDefined();
    const rows = [...section!.matchAll(/^\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|/gm)].map((m) => `${m[2]} ${m[1]}: ${m[3]}`);
    const documented = elements.flatMap((e) => [...(e.doc?.fires ?? new Map<string, string>())].map(([name, type]) => `${e.tag} ${name}: ${type}`));
    expect(rows.sort()).toEqual(documented.sort());
  });

  it('names every element', () => {
    const missing = elements.filter((e) => !readme.includes(`\`${e.tag}\``)).map((e) => e.tag);
    expect(missing).toEqual([]);
  });
});

describe("the UI's modules", () => {
  it('import no module that imports them back (no cycles)', () => {
    const files = tsFiles(SRC);
    const imports = new Map(
      files.map((f) => {
        const source = readFileSync(f, 'utf8');
        const targets = [...source.matchAll(/(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g)]
          .map((m) => resolve(dirname(f), m[1]!))
          .filter((t) => t.startsWith(SRC));
        return [f, targets];
      }),
    );
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (f: string, path: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        cycles.push([...path.slice(path.indexOf(f)), f].map(rel).join(' → '));
        return;
      }
      state.set(f, 'open');
      for (const t of imports.get(f) ?? []) visit(t, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of files) visit(f, []);
    expect(cycles).toEqual([]);
  });
});
