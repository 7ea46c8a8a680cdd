// The bug catalogue: the bundled benchmark (public/benchmarks/index.json + one BugSpec per bug), read
// through the platform so the browser fetches it and Node reads it from disk, plus BugSpecs the user
// imported (e.g. from the Defects4J importer) and bugs the user made from a stored repository (made-bugs.ts),
// both kept in the platform's records.
import { BenchmarkIndex, BugSpec } from '../contracts/bug.ts';
import type { BugOrigin } from '../contracts/bug-view.ts';
import type { Platform } from '../contracts/platform.ts';
import { MadeBugStore } from './made-bugs.ts';

const INDEX_PATH = 'benchmarks/index.json';
export const IMPORTED_BUGS = 'imported-bugs';

export class BenchmarkCatalog {
  private loaded?: Promise<{ index: BenchmarkIndex; bugs: Map<string, BugSpec> }>;
  /** bugs made here from a stored repository (the Repositories view's bug maker) */
  readonly made: MadeBugStore;

  constructor(private readonly platform: Platform) {
    this.made = new MadeBugStore(platform.records);
  }

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
    return (await this.bugsWithOrigin()).map((b) => b.bug);
  }

  /** Every bug with where it came from: bundled, imported as a BugSpec file, or made here from a repository. */
  async bugsWithOrigin(): Promise<{ bug: BugSpec; origin: BugOrigin }[]> {
    const bundled = [...(await this.load()).bugs.values()];
    const imported: BugSpec[] = [];
    for (const id of await this.platform.records.list(IMPORTED_BUGS)) {
      const bug = BugSpec.safeParse(await this.platform.records.get(IMPORTED_BUGS, id));
      if (bug.success) imported.push(bug.data);
    }
    return [
      ...bundled.map((bug) => ({ bug, origin: 'bundled' as const })),
      ...imported.map((bug) => ({ bug, origin: 'imported' as const })),
      ...(await this.made.list()).map((bug) => ({ bug, origin: 'made' as const })),
    ];
  }

  /** Where the bug `id` comes from, or undefined when no bug has that id. */
  async originOf(id: string): Promise<BugOrigin | undefined> {
    if ((await this.load()).bugs.has(id)) return 'bundled';
    if ((await this.platform.records.list(IMPORTED_BUGS)).includes(id)) return 'imported';
    if (await this.made.has(id)) return 'made';
    return undefined;
  }

  /** Deletes a bug this browser (or home) stores: one made here or imported; the bundled ones ship with the app. */
  async deleteStored(id: string): Promise<void> {
    const origin = await this.originOf(id);
    if (origin === 'bundled') throw new Error(`Bug ${id} is a bundled bug: it ships with RepairLab and cannot be deleted.`);
    if (origin === 'imported') await this.platform.records.delete(IMPORTED_BUGS, id);
    else if (origin === 'made') await this.made.delete(id);
    else throw new Error(`No stored bug named "${id}": nothing to delete.`);
  }

  /** Adds (or replaces) a user-imported bug. Bundled bug ids cannot be shadowed. */
  async addImported(json: unknown, source: string): Promise<BugSpec> {
    const parsed = BugSpec.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${source} is not a RepairLab BugSpec: ${issue?.path.join('.') || '(top level)'}: ${issue?.message}. See docs/formats/bugspec.schema.json.`);
    }
    if ((await this.load()).bugs.has(parsed.data.id)) throw new Error(`${source}: bug id "${parsed.data.id}" is a bundled bug; give the imported bug another id.`);
    if (await this.made.has(parsed.data.id)) throw new Error(`${source}: bug id "${parsed.data.id}" is a bug made here from a repository; give the imported bug another id, or delete that one first.`);
    await this.platform.records.put(IMPORTED_BUGS, parsed.data.id, parsed.data);
    return parsed.data;
  }

  /** The full spec (with ground truth): for the engine only, never for tools or prompts. */
  async bug(id: string): Promise<BugSpec> {
    const { bugs } = await this.load();
    const bug = bugs.get(id) ?? BugSpec.safeParse(await this.platform.records.get(IMPORTED_BUGS, id)).data ?? (await this.made.get(id));
    if (!bug) throw new Error(`No bug named "${id}". Known bugs: ${(await this.bugs()).map((b) => b.id).join(', ') || '(none)'}.`);
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
