// The import graph of worker/, src/ and runner/ (type imports included), read with the TypeScript compiler's parser,
// checked against the layers docs/ARCHITECTURE.md draws:
//   - no cycle, not even through a type;
//   - the worker's rooms are layered, and nothing imports from a layer above its own;
//   - the page (src/) sits on the worker's rooms below the lab and takes only the lab API's type from it; the runner
//     service (runner/src/) reads the worker's contracts only; nothing in the worker or the runner imports the page;
//   - the page's main-thread bundle (index.html's module script and everything it imports, statically or lazily, but
//     not the worker behind `new Worker(new URL(…))`) does not hold the agent loop;
//   - outside worker/cli/, worker/platform/, worker/node/ and files named `*.node.ts`, no worker module imports a Node
//     built-in (`node:fs`, …; the code base names built-ins by their node: scheme — a bare `buffer` is the npm
//     polyfill), and neither does the page;
//   - a file name says what the file holds: no two modules of the worker, the runner service and the page share a base
//     name (index.ts and main.ts, a room's and a process's entry, excepted).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The worker's rooms from the bottom up. A module may import its own layer and the layers below it, never one above.
 * Every worker module must be in one of them: a new room is placed here (and in docs/ARCHITECTURE.md's picture).
 */
const WORKER_LAYERS: { name: string; rooms: string[] }[] = [
  { name: 'contracts', rooms: ['worker/contracts/', 'worker/shims/'] },
  { name: 'diff', rooms: ['worker/diff/'] },
  { name: 'repo/java/llm/runner-client/platform', rooms: ['worker/repo/', 'worker/java/', 'worker/llm/', 'worker/runner-client/', 'worker/platform/'] },
  { name: 'history', rooms: ['worker/history/'] },
  { name: 'records/strategies/tools', rooms: ['worker/records/', 'worker/strategies/', 'worker/tools/'] },
  { name: 'bugs', rooms: ['worker/bugs/'] },
  { name: 'agent', rooms: ['worker/agent/'] },
  { name: 'runs', rooms: ['worker/runs/'] },
  { name: 'experiments/share', rooms: ['worker/experiments/', 'worker/share/'] },
  { name: 'lab/node', rooms: ['worker/lab.ts', 'worker/node/'] },
  { name: 'cli/worker-entry', rooms: ['worker/cli/', 'worker/worker-entry.ts'] },
];

/** The page may import the worker's rooms up to (not including) this layer, and nothing Node-only. */
const PAGE_CEILING = WORKER_LAYERS.findIndex((l) => l.name === 'lab/node');
/** …and from the lab only the type of the API the worker exposes (worker-entry.ts exposes `lab.api`). */
const PAGE_TYPE_ONLY = ['worker/lab.ts'];

const LOOP = 'worker/agent/loop.ts';

/** Where Node built-ins may be imported. */
const NODE_ALLOWED = (f: string) => f.startsWith('worker/cli/') || f.startsWith('worker/platform/') || f.startsWith('worker/node/') || f.endsWith('.node.ts') || f.startsWith('runner/');

type EdgeKind = 'static' | 'dynamic' | 'type';
interface Edge {
  to: string;
  kind: EdgeKind;
}
interface Module {
  edges: Edge[];
  /** Node built-ins and packages it names */
  externals: string[];
}

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(join(ROOT, rel)).isDirectory()) return tsFiles(rel);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** Every import of a file: declarations (`import type` / `export type … from` erased), `import()`, `import('…').T` types. */
function importsOf(file: string): { spec: string; kind: EdgeKind }[] {
  const sf = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const out: { spec: string; kind: EdgeKind }[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
      // with verbatimModuleSyntax, `import { type A }` still loads the module; only `import type` is erased
      out.push({ spec: n.moduleSpecifier.text, kind: n.importClause?.isTypeOnly ? 'type' : 'static' });
    } else if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
      out.push({ spec: n.moduleSpecifier.text, kind: n.isTypeOnly ? 'type' : 'static' });
    } else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteralLike(n.arguments[0])) {
      out.push({ spec: n.arguments[0].text, kind: 'dynamic' });
    } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) {
      out.push({ spec: n.argument.literal.text, kind: 'type' });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

function readGraph(): Map<string, Module> {
  const files = [...tsFiles('worker'), ...tsFiles('src'), ...tsFiles('runner/src'), ...tsFiles('runner/bench')];
  const known = new Set(files);
  const graph = new Map<string, Module>();
  for (const file of files) {
    const mod: Module = { edges: [], externals: [] };
    for (const { spec, kind } of importsOf(file)) {
      if (!spec.startsWith('.')) {
        mod.externals.push(spec);
        continue;
      }
      // `?url` assets and `?worker` entries are not modules of this thread
      if (/\?(url|raw|worker|sharedworker)\b/.test(spec)) continue;
      const to = relative(ROOT, resolve(ROOT, dirname(file), spec));
      if (known.has(to)) mod.edges.push({ to, kind });
    }
    graph.set(file, mod);
  }
  return graph;
}

const graph = readGraph();
const workerFiles = [...graph.keys()].filter((f) => f.startsWith('worker/'));

function layerOf(file: string): number {
  return WORKER_LAYERS.findIndex((l) => l.rooms.some((r) => (r.endsWith('/') ? file.startsWith(r) : file === r)));
}

/** Strongly connected components with more than one module (or a module importing itself): the cycles. */
function cycles(edgesOf: (file: string) => string[]): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of edgesOf(v)) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || edgesOf(v).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return found;
}

/** The page's main-thread modules: index.html's module script and what it imports, statically or lazily. */
function mainThreadClosure(): Set<string> {
  const html = readFileSync(join(ROOT, 'index.html'), 'utf8');
  const entries = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => relative(ROOT, resolve(ROOT, m[1]!)));
  expect(entries, 'index.html names its module script').toEqual(['src/main.ts']);
  const reached = new Set<string>();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    for (const e of graph.get(file)?.edges ?? []) if (e.kind !== 'type') queue.push(e.to);
  }
  return reached;
}

describe('the import graph', () => {
  it('reads the tree (the walk found the engine, the page and the runner)', () => {
    expect(graph.has(LOOP)).toBe(true);
    expect(graph.has('src/main.ts')).toBe(true);
    expect(graph.has('runner/src/server.ts')).toBe(true);
    expect(graph.get('worker/worker-entry.ts')!.edges.some((e) => e.to === 'worker/lab.ts')).toBe(true);
  });

  it('has no cycle, type imports included', () => {
    const edgesOf = (f: string) => graph.get(f)!.edges.map((e) => e.to);
    expect(cycles(edgesOf)).toEqual([]);
  });

  it('places every worker module in a room of a listed layer', () => {
    expect(workerFiles.filter((f) => layerOf(f) < 0)).toEqual([]);
  });

  it('never imports from a higher layer of the worker', () => {
    const upward: string[] = [];
    for (const from of workerFiles) {
      for (const e of graph.get(from)!.edges) {
        if (e.to.startsWith('worker/') && layerOf(e.to) > layerOf(from)) {
          upward.push(`${from} (${WORKER_LAYERS[layerOf(from)]!.name}) → ${e.to} (${WORKER_LAYERS[layerOf(e.to)]!.name})`);
        }
      }
    }
    expect(upward).toEqual([]);
  });

  it("keeps the page above the worker's libraries, the runner on the contracts, and nobody on the page", () => {
    const wrong: string[] = [];
    for (const [from, m] of graph) {
      for (const e of m.edges) {
        const edge = `${from} → ${e.to}${e.kind === 'type' ? ' (type)' : ''}`;
        if (!from.startsWith('src/') && e.to.startsWith('src/')) wrong.push(`${edge}: only the page imports the page`);
        if (from.startsWith('src/') && e.to.startsWith('worker/')) {
          const typeOnlyTop = PAGE_TYPE_ONLY.includes(e.to) && e.kind === 'type';
          if (!typeOnlyTop && (layerOf(e.to) >= PAGE_CEILING || e.to.endsWith('.node.ts'))) wrong.push(`${edge}: the page takes the lab's API type and the rooms below the lab only`);
        }
        if (from.startsWith('runner/src/') && e.to.startsWith('worker/') && !e.to.startsWith('worker/contracts/')) wrong.push(`${edge}: the runner reads the worker's contracts only`);
        if (from.startsWith('worker/') && e.to.startsWith('runner/') && !from.startsWith('worker/cli/')) wrong.push(`${edge}: only the CLI starts a runner in its process`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps the agent loop off the main thread', () => {
    const main = mainThreadClosure();
    expect(main.has('src/main.ts')).toBe(true);
    expect(main.has(LOOP)).toBe(false);
    // nor the worker's entry, the lab or anything Node-only
    expect([...main].filter((f) => f === 'worker/worker-entry.ts' || f === 'worker/lab.ts' || f.startsWith('worker/node/') || f.endsWith('.node.ts'))).toEqual([]);
  });

  it('imports Node built-ins only in cli/, platform/, node/ and *.node.ts (and the runner)', () => {
    const offenders = [...graph]
      .filter(([file]) => !NODE_ALLOWED(file))
      .flatMap(([file, m]) => m.externals.filter((spec) => spec.startsWith('node:')).map((spec) => `${file} imports ${spec}`));
    expect(offenders).toEqual([]);
  });

  it('gives every module of the worker, the runner and the page a name of its own', () => {
    const byName = new Map<string, string[]>();
    for (const f of graph.keys()) {
      if (f.startsWith('runner/bench/')) continue;
      const name = basename(f);
      if (name === 'index.ts' || name === 'main.ts') continue;
      byName.set(name, [...(byName.get(name) ?? []), f]);
    }
    expect([...byName.values()].filter((fs) => fs.length > 1)).toEqual([]);
  });
});
