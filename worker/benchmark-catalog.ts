// The bug catalogue: the bundled benchmark (public/benchmarks/index.json + one BugSpec per bug),
// read through the platform so the browser fetches it and Node reads it from disk.
import { BenchmarkIndex, BugSpec } from './contracts/bug.ts';
import type { Platform } from './contracts/platform.ts';

const INDEX_PATH = 'benchmarks/index.json';

export class BenchmarkCatalog {
  private loaded?: Promise<{ index: BenchmarkIndex; bugs: Map<string, BugSpec> }>;

  constructor(private readonly platform: Platform) {}

  private load() {
    this.loaded ??= (async () => {
      const index = BenchmarkIndex.parse(parseJsonAsset(INDEX_PATH, await this.platform.loadAsset(INDEX_PATH)));
      const bugs = new Map<string, BugSpec>();
      for (const path of index.bugs) {
        const raw = parseJsonAsset(path, await this.platform.loadAsset(`benchmarks/${path}`));
        const parsed = BugSpec.safeParse(raw);
        if (!parsed.success) throw new Error(`The bug file benchmarks/${path} is not a valid BugSpec: ${parsed.error.message}`);
        bugs.set(parsed.data.id, parsed.data);
      }
      return { index, bugs };
    })();
    // A failed load should not poison later attempts (e.g. the server came back).
    this.loaded.catch(() => (this.loaded = undefined));
    return this.loaded;
  }

  async bugs(): Promise<BugSpec[]> {
    return [...(await this.load()).bugs.values()];
  }

  /** The full spec (with ground truth): for the engine only, never for tools or prompts. */
  async bug(id: string): Promise<BugSpec> {
    const { bugs } = await this.load();
    const bug = bugs.get(id);
    if (!bug) throw new Error(`No bug named "${id}". Known bugs: ${[...bugs.keys()].join(', ') || '(none)'}.`);
    return bug;
  }

  async repository(repoId: string): Promise<BenchmarkIndex['repositories'][number]> {
    const repo = (await this.load()).index.repositories.find((r) => r.repoId === repoId);
    if (!repo) throw new Error(`The benchmark index has no repository "${repoId}".`);
    return repo;
  }

  async bundleBytes(repoId: string): Promise<Uint8Array> {
    const repo = await this.repository(repoId);
    return this.platform.loadAsset(`benchmarks/${repo.bundle}`);
  }
}

function parseJsonAsset(path: string, bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new Error(`benchmarks asset ${path} is not valid JSON (${(e as Error).message}); rebuild it with \`npm run benchmarks:build\`.`);
  }
}
