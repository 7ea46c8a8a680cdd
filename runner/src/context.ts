// What the validation paths share: the sandbox, the snapshot store, the harness and the JVM/process limits.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ProjectLayout } from '../../worker/contracts/bug.ts';
import type { Sandbox, ProcessLimits } from './sandbox.ts';
import type { SnapshotStore } from './store.ts';

export interface JvmLimits {
  heapMb: number;
  metaspaceMb: number;
  stackKb: number;
}

export interface RunnerContext {
  sandbox: Sandbox;
  store: SnapshotStore;
  harnessDir: string;
  dataDir: string;
  jvm: JvmLimits;
  process: ProcessLimits;
  /** warm workers are replaced after this many validations */
  recycleAfter: number;
  jit: JitMode;
}

export type JitMode = 'c1' | 'tiered';

/**
 * The JIT flags of a test JVM. C1 alone by default: every validation loads fresh classes, so C2 keeps recompiling them
 * on the second core; C1 alone costs measurably less CPU per validation, which is what parallel variants need
 * (docs/runner-api.md). Tiered for long whole-suite runs, where C2's code pays back.
 */
export function jitFlags(ctx: RunnerContext): string[] {
  return ctx.jit === 'tiered' ? [] : ['-XX:TieredStopAtLevel=1'];
}

export function jvmFlags(l: JvmLimits): string[] {
  return [
    `-Xmx${l.heapMb}m`,
    `-XX:MaxMetaspaceSize=${l.metaspaceMb}m`,
    `-Xss${l.stackKb}k`,
    '-XX:+UseSerialGC',
    '-Djava.awt.headless=true',
    '-Djava.security.manager=allow',
    '-Dfile.encoding=UTF-8',
  ];
}

export function workDir(ctx: RunnerContext, kind: string, id: string): string {
  return path.join(ctx.dataDir, 'work', `${kind}-${id}`);
}

/** Repo paths of the layout's Java sources under `root` (walks the source and test roots). */
export async function listJavaSources(root: string, dirs: string[]): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = `${rel}/${e.name}`;
      if (e.isDirectory()) await walk(p);
      else if (e.name.endsWith('.java')) out.push(p);
    }
  };
  for (const d of dirs) await walk(d.replace(/\/+$/, ''));
  return out.sort();
}

export function classNameOf(repoPath: string, roots: string[]): string | undefined {
  for (const r of roots) {
    const prefix = r.endsWith('/') ? r : `${r}/`;
    if (repoPath.startsWith(prefix) && repoPath.endsWith('.java')) return repoPath.slice(prefix.length, -5).replaceAll('/', '.');
  }
  return undefined;
}

export function normaliseLayout(layout: ProjectLayout): ProjectLayout {
  const trim = (d: string) => d.replace(/^\.\//, '').replace(/\/+$/, '');
  return {
    ...layout,
    sourceDirs: layout.sourceDirs.map(trim),
    testDirs: layout.testDirs.map(trim),
    resourceDirs: layout.resourceDirs.map(trim),
    testResourceDirs: layout.testResourceDirs.map(trim),
  };
}
