// Generates a deterministic multi-hundred-commit git repository with the git CLI for the blame parity
// test: edits, whitespace-only changes, renames (exact and with small edits), moves across directories,
// branches and merges (with conflicts resolved by hand), reverts, files deleted and re-added.
// The result is cached under .cache/blame-parity/<hash of this file + options>/ so reruns are fast.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface GeneratorOptions {
  seed: number;
  commits: number;
  /** extra files edited in every ordinary commit (more objects per commit, for import-scale tests); default 0 */
  extraEdits?: number;
}

/** A file edited in about a third of all commits (the benchmark's long-history file). */
export const LONG_FILE = 'src/core/Registry.java';

export const DEFAULT_GENERATOR: GeneratorOptions = { seed: 20261122, commits: 320 };
/** "A repository of ~2,000 commits and ~25k objects" for the browser import test */
export const IMPORT_SCALE_GENERATOR: GeneratorOptions = { seed: 7, commits: 2000, extraEdits: 8 };

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Lines repeat a lot on purpose ('}', blank lines, 'return null;'): that is where diffs are ambiguous
// and blame depends on exactly which equal-length edit script git picks.
const STATEMENTS = [
  'int count = 0;',
  'count++;',
  'return null;',
  'return count;',
  'if (value == null) {',
  'if (count > limit) {',
  '}',
  '} else {',
  'for (int i = 0; i < n; i++) {',
  'total += values[i];',
  'log.debug("step");',
  'throw new IllegalStateException("bad state");',
  '// keep going',
  '',
  'String name = prefix + suffix;',
  'result.add(name);',
  'break;',
];

class Generator {
  private readonly rnd: () => number;
  private readonly extraEdits: number;
  private time = 1_600_000_000;
  private counter = 0;
  private deleted: { path: string; content: string }[] = [];
  private branchCounter = 0;

  constructor(
    private readonly dir: string,
    options: GeneratorOptions,
  ) {
    this.rnd = mulberry32(options.seed);
    this.extraEdits = options.extraEdits ?? 0;
  }

  private int(n: number): number {
    return Math.floor(this.rnd() * n);
  }

  private pick<T>(items: T[]): T {
    return items[this.int(items.length)]!;
  }

  git(...args: string[]): string {
    const date = `${this.time} +0000`;
    return execFileSync('git', args, {
      cwd: this.dir,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'Gen Erator',
        GIT_AUTHOR_EMAIL: 'gen@example.com',
        GIT_COMMITTER_NAME: 'Gen Erator',
        GIT_COMMITTER_EMAIL: 'gen@example.com',
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_CONFIG_NOSYSTEM: '1',
      },
    });
  }

  private files(): string[] {
    return this.git('ls-files').split('\n').filter(Boolean).sort();
  }

  private read(path: string): string[] {
    const text = readFileSync(join(this.dir, path), 'utf8');
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return lines;
  }

  private write(path: string, lines: string[], finalNewline = true): void {
    const full = join(this.dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, lines.join('\n') + (finalNewline && lines.length ? '\n' : ''));
  }

  private newMethod(): string[] {
    const name = `method${this.counter++}`;
    const body = Array.from({ length: 2 + this.int(8) }, () => `    ${this.pick(STATEMENTS)}`);
    return [`  public Object ${name}(int n) {`, ...body, '  }', ''];
  }

  private newFile(): { path: string; lines: string[] } {
    const pkg = this.pick(['core', 'util', 'io', 'model']);
    const cls = `Type${this.counter++}`;
    const lines = [`package demo.${pkg};`, '', `public class ${cls} {`, ''];
    for (let m = 0, n = 1 + this.int(4); m < n; m++) lines.push(...this.newMethod());
    lines.push('}');
    return { path: `src/${pkg}/${cls}.java`, lines };
  }

  private commit(message: string): void {
    // One long file changes in about a third of the commits: the long-history file of the blame benchmark.
    if (existsSync(join(this.dir, LONG_FILE)) && this.int(3) === 0) {
      this.editFile(LONG_FILE);
      message += ` (+ ${LONG_FILE})`;
    }
    this.time += 600 + this.int(7200);
    // Occasional clock skew: a commit older than its parent (git blame must not depend on date order).
    if (this.int(40) === 0) this.time -= 20000;
    this.git('add', '-A');
    this.git('commit', '-q', '--allow-empty', '-m', message);
  }

  private editFile(path: string): void {
    const lines = this.read(path);
    const edits = 1 + this.int(4);
    for (let e = 0; e < edits; e++) {
      const at = this.int(lines.length + 1);
      const kind = this.int(6);
      if (kind === 0) lines.splice(at, 0, ...Array.from({ length: 1 + this.int(4) }, () => `    ${this.pick(STATEMENTS)}`));
      else if (kind === 1) lines.splice(at, 1 + this.int(3));
      else if (kind === 2 && lines.length) lines[Math.min(at, lines.length - 1)] = `    ${this.pick(STATEMENTS)} // v${this.counter++}`;
      else if (kind === 3) lines.splice(Math.min(at, Math.max(lines.length - 1, 0)), 0, ...this.newMethod());
      else if (kind === 4 && lines.length > 8) {
        // move a block of lines elsewhere in the file
        const from = this.int(lines.length - 4);
        const block = lines.splice(from, 2 + this.int(3));
        lines.splice(this.int(lines.length + 1), 0, ...block);
      } else if (lines.length) {
        // duplicate a line (adjacent equal lines make sliders)
        const i = Math.min(at, lines.length - 1);
        lines.splice(i, 0, lines[i]!);
      }
    }
    this.write(path, lines, this.int(25) !== 0);
  }

  private whitespaceOnly(path: string): void {
    const lines = this.read(path);
    for (let k = 0, n = 1 + this.int(4); k < n && lines.length; k++) {
      const i = this.int(lines.length);
      const kind = this.int(3);
      if (kind === 0) lines[i] = `  ${lines[i]}`;
      else if (kind === 1) lines[i] = `${lines[i]}  `;
      else lines[i] = lines[i]!.replace(/^ {4}/, '\t');
    }
    this.write(path, lines);
  }

  private rename(path: string, edit: boolean, move: boolean): void {
    const base = path.slice(path.lastIndexOf('/') + 1).replace('.java', '');
    const targetDir = move ? `src/${this.pick(['core', 'util', 'io', 'model', 'legacy', 'api/v2'])}` : dirname(path);
    const target = move && this.int(2) === 0 ? `${targetDir}/${base}.java` : `${targetDir}/${base}R${this.counter++}.java`;
    if (target === path || existsSync(join(this.dir, target))) return;
    mkdirSync(dirname(join(this.dir, target)), { recursive: true });
    this.git('mv', path, target);
    if (edit) {
      const lines = this.read(target);
      lines.splice(Math.min(2, lines.length), 0, `// moved from ${path}`);
      if (lines.length > 6) lines[lines.length - 3] = `    ${this.pick(STATEMENTS)}`;
      this.write(target, lines);
    }
  }

  private randomChange(): string {
    const files = this.files().filter((f) => f.endsWith('.java') && f !== LONG_FILE);
    const r = this.int(100);
    if (files.length < 4 || r < 8) {
      const f = this.newFile();
      this.write(f.path, f.lines);
      return `add ${f.path}`;
    }
    const path = this.pick(files);
    if (r < 55) {
      this.editFile(path);
      if (this.int(4) === 0) this.editFile(this.pick(files));
      return `edit ${path}`;
    }
    if (r < 63) {
      this.whitespaceOnly(path);
      return `whitespace ${path}`;
    }
    if (r < 73) {
      this.rename(path, this.int(2) === 0, this.int(2) === 0);
      return `rename ${path}`;
    }
    if (r < 78 && files.length > 6) {
      this.deleted.push({ path, content: readFileSync(join(this.dir, path), 'utf8') });
      this.git('rm', '-q', path);
      return `delete ${path}`;
    }
    if (r < 84 && this.deleted.length) {
      const gone = this.deleted.splice(this.int(this.deleted.length), 1)[0]!;
      if (existsSync(join(this.dir, gone.path))) return this.randomChange();
      mkdirSync(dirname(join(this.dir, gone.path)), { recursive: true });
      const lines = gone.content.split('\n');
      if (this.int(2) === 0) lines.splice(this.int(lines.length), 0, '    // re-added');
      writeFileSync(join(this.dir, gone.path), lines.join('\n'));
      return `re-add ${gone.path}`;
    }
    // copy a chunk of one file into another (cross-file moves stay blamed on the commit by default)
    const other = this.pick(files);
    const src = this.read(path);
    const dst = this.read(other);
    const from = this.int(Math.max(src.length - 3, 1));
    dst.splice(this.int(dst.length + 1), 0, ...src.slice(from, from + 3));
    this.write(other, dst);
    return `copy lines ${path} -> ${other}`;
  }

  private tryRevert(): boolean {
    const candidates = this.git('rev-list', '--no-merges', '--max-count=12', 'HEAD').split('\n').filter(Boolean);
    const target = this.pick(candidates);
    try {
      this.git('revert', '--no-edit', '--no-commit', target);
    } catch {
      this.git('revert', '--abort');
      return false;
    }
    if (!this.git('status', '--porcelain').trim()) return false;
    this.commit(`Revert ${target.slice(0, 10)}`);
    return true;
  }

  private mergeBranch(): void {
    const branch = `topic${this.branchCounter++}`;
    const base = this.git('rev-parse', 'HEAD').trim();
    this.git('checkout', '-q', '-b', branch);
    for (let k = 0, n = 1 + this.int(5); k < n; k++) this.commit(this.randomChange());
    this.git('checkout', '-q', 'main');
    for (let k = 0, n = this.int(4); k < n; k++) this.commit(this.randomChange());
    const ffOnly = this.git('rev-parse', 'HEAD').trim() === base && this.int(2) === 0;
    try {
      this.git('merge', '-q', ffOnly ? '--ff-only' : '--no-ff', '--no-edit', branch);
      if (!ffOnly) return;
      return;
    } catch {
      // Resolve conflicts the way a person might: keep both sides, ours first.
      const conflicted = this.git('diff', '--name-only', '--diff-filter=U').split('\n').filter(Boolean);
      for (const path of conflicted) {
        const full = join(this.dir, path);
        if (!existsSync(full)) {
          this.git('rm', '-q', '--cached', path);
          continue;
        }
        const text = readFileSync(full, 'utf8');
        writeFileSync(full, text.replace(/^(<<<<<<<|=======|>>>>>>>).*\n/gm, ''));
      }
      this.git('add', '-A');
      this.time += 600;
      this.git('commit', '-q', '--no-edit');
    }
  }

  run(commits: number): void {
    this.git('init', '-q', '-b', 'main');
    for (let k = 0; k < 5; k++) {
      const f = this.newFile();
      this.write(f.path, f.lines);
    }
    this.write('README.md', ['# generated', '', 'history for blame parity']);
    const registry = ['package demo.core;', '', 'public class Registry {', ''];
    for (let m = 0; m < 25; m++) registry.push(...this.newMethod());
    this.write(LONG_FILE, [...registry, '}']);
    this.commit('initial');
    while (Number(this.git('rev-list', '--count', 'HEAD').trim()) < commits) {
      const r = this.int(100);
      if (r < 10) this.mergeBranch();
      else if (r < 14 && this.tryRevert()) continue;
      else {
        const message = this.randomChange();
        const others = this.extraEdits ? this.files().filter((f) => f.endsWith('.java') && f !== LONG_FILE && existsSync(join(this.dir, f))) : [];
        for (let e = 0; e < this.extraEdits && others.length; e++) this.editFile(this.pick(others));
        this.commit(message);
      }
    }
  }
}

const here = fileURLToPath(import.meta.url);
const CACHE_ROOT = resolve(dirname(here), '../../../.cache/blame-parity');

/** The generated repository (a working clone with .git) and a bundle of it, built once per generator version. */
export function cachedHistoryRepo(options: GeneratorOptions = DEFAULT_GENERATOR): { dir: string; bundle: string; key: string } {
  const key = createHash('sha256').update(readFileSync(here)).update(JSON.stringify(options)).digest('hex').slice(0, 16);
  const root = join(CACHE_ROOT, key);
  const dir = join(root, 'repo');
  const bundle = join(root, 'repo.bundle');
  if (existsSync(bundle)) return { dir, bundle, key };
  const tmp = `${root}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(join(tmp, 'repo'), { recursive: true });
  const gen = new Generator(join(tmp, 'repo'), options);
  gen.run(options.commits);
  gen.git('bundle', 'create', '-q', join(tmp, 'repo.bundle'), '--all');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(dirname(root), { recursive: true });
  renameSync(tmp, root);
  return { dir, bundle, key };
}

if (process.argv[1] === here) {
  console.log(JSON.stringify(cachedHistoryRepo()));
}
