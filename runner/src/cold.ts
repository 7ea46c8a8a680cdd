// The cold path: a fresh copy of the project, `javac` for program then test sources, and a fresh JVM running the
// harness over the compiled classes. It is the fallback when the warm path cannot serve a request and the
// baseline the benchmark compares the warm path with.
import { randomUUID } from 'node:crypto';
import { cp, mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ProjectLayout } from '../../worker/contracts/bug.ts';
import type { Diagnostic, Limits, TestSelection } from '../../worker/contracts/runner-api.ts';
import { classNameOf, jitFlags, jvmFlags, listJavaSources, workDir, type RunnerContext } from './context.ts';
import { parseJavacOutput, RAW_OUTPUT_CHARS, withFailureReason } from './diagnostics.ts';
import { ECJ_JAR, harnessLaunch, projectJars } from './java-env.ts';
import { nodeEncoding, projectSettings, type ProjectSettings } from './project-settings.ts';
import { newKey, runSandboxed } from './proc.ts';
import { writeRequestFile, type RequestEntries } from './request-file.ts';
import { readHarnessAnswer, type HarnessAnswer } from './results.ts';
import { suiteFilter } from './test-suite.ts';
import { hostsFileText, type Bind } from './sandbox.ts';

export interface ColdJob {
  treeId: string;
  treeDir: string;
  overlay: Record<string, string | null>;
  layout: ProjectLayout;
  tests: TestSelection;
  limits: Limits;
  coverage: boolean;
}

function quoteArgFile(p: string): string {
  return `"${p.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** Top-level type names (`a.b.C`) of the class files under a compiler's output directory. */
async function topLevelTypes(dir: string): Promise<Set<string>> {
  const entries = await readdir(dir, { recursive: true });
  return new Set(entries.filter((f) => f.endsWith('.class') && !path.basename(f).includes('$')).map((f) => f.slice(0, -6).split(path.sep).join('.')));
}

/**
 * Types both the program and the test sources declare. javac ties no package to a folder, so a program file
 * (`src/main/java/elsewhere/CalcTest.java` declaring `demo.CalcTest`) can define a test's class; compiled apart, the
 * program's copy comes first on the class path and runs in the test's place. The warm path's full compile reports
 * such a duplicate itself (WarmProject.declaresAnotherFilesType).
 */
async function typesDeclaredTwice(classDirs: string[]): Promise<string[]> {
  if (classDirs.length < 2) return [];
  const [main, test] = await Promise.all(classDirs.slice(0, 2).map(topLevelTypes));
  return [...main!].filter((t) => test!.has(t)).sort();
}

function sharedTypeError(types: string[]): Diagnostic {
  return {
    file: '',
    line: 0,
    kind: 'error',
    message: `duplicate class: ${types.join(', ')} declared by both the program and the test sources — a patch may not define a test's class (javac ties no package to a folder, so a file elsewhere can declare it); give the class another name`,
  };
}

/**
 * The compile command for one source set: javac --release N, or ecj -source/-target for old sources (ecj's -Xemacs
 * output has javac's `file:line: error: message` shape, so one parser reads both).
 */
function compilerArgv(ctx: RunnerContext, settings: ProjectSettings, dest: string, classPath: string, argFile: string): string[] {
  const common = ['-d', dest, '-encoding', settings.encoding, '-proc:none', '-g', '-nowarn', '-cp', classPath];
  if (settings.compiler === 'ecj') {
    return [
      'java', `-Xmx${ctx.jvm.heapMb}m`, '-XX:+UseSerialGC', '-cp', ECJ_JAR, 'org.eclipse.jdt.internal.compiler.batch.Main',
      '-source', settings.source, '-target', settings.target, '-Xemacs',
      ...(settings.bootClassPath ? ['-bootclasspath', settings.bootClassPath.join(':')] : []),
      ...common, `@${argFile}`,
    ];
  }
  return [
    'javac', `-J-Xmx${ctx.jvm.heapMb}m`, '-J-XX:+UseSerialGC', '--release', String(settings.release), '-Xmaxerrs', '100',
    // string concatenation as StringBuilder calls, as on the warm path (WarmProject.options says why)
    '-XDstringConcat=inline',
    ...common, `@${argFile}`,
  ];
}

export async function coldValidate(ctx: RunnerContext, job: ColdJob): Promise<HarnessAnswer> {
  const deadline = Date.now() + job.limits.wallClockMs;
  const work = workDir(ctx, 'cold', randomUUID());
  const project = path.join(work, 'project');
  const out = path.join(work, 'out');
  try {
    await mkdir(out, { recursive: true });
    await cp(job.treeDir, project, { recursive: true });
    for (const [file, content] of Object.entries(job.overlay)) {
      const target = path.join(project, file);
      if (content === null) await rm(target, { force: true });
      else {
        await mkdir(path.dirname(target), { recursive: true });
        // a patched source in the bytes the compiler reads (-encoding): a Latin-1 project's é stays one byte
        await writeFile(target, content, file.endsWith('.java') ? nodeEncoding(job.layout.encoding ?? 'UTF-8') : 'utf8');
      }
    }
    const { layout } = job;
    const home = path.join(work, 'home');
    await mkdir(home, { recursive: true });
    const settings = await projectSettings(ctx.store, layout, home);
    await ctx.sandbox.prepareWritable(work);
    const jars = settings.jars;
    const binds: Bind[] = [
      { path: work, writable: true },
      { path: ctx.harnessDir, writable: false },
      ...settings.uploadedJars.map((j) => ({ path: j, writable: false })),
      ...(settings.bootClassPath ?? []).map((p) => ({ path: p, writable: false })),
    ];
    const relativize = (f: string) => (f.startsWith(`${project}/`) ? f.slice(project.length + 1) : f);
    const compileMs0 = Date.now();
    const diagnostics: Diagnostic[] = [];
    const classDirs: string[] = [];
    const programSources = await listJavaSources(project, layout.sourceDirs);
    const testSources = await listJavaSources(project, layout.testDirs);
    // like `defects4j compile`: program sources first, then tests against them
    for (const [name, sources] of [
      ['main', programSources],
      ['test', testSources],
    ] as const) {
      if (sources.length === 0) continue;
      const dest = path.join(out, name);
      await mkdir(dest, { recursive: true });
      const argFile = path.join(out, `${name}-sources.txt`);
      await writeFile(argFile, sources.map((s) => quoteArgFile(path.join(project, s))).join('\n'));
      await ctx.sandbox.prepareWritable(out);
      const r = await runSandboxed(
        ctx.sandbox,
        {
          argv: compilerArgv(ctx, settings, dest, [...classDirs, ...jars].join(':'), argFile),
          binds,
          cwd: project,
          limits: { ...ctx.process, cpuSeconds: Math.ceil(job.limits.wallClockMs / 1000) + 5 },
          group: job.treeId,
        },
        Math.max(1000, deadline - Date.now()),
      );
      diagnostics.push(...parseJavacOutput(r.stderr + r.stdout, relativize));
      // a failure whose output names no error (killed by the clock, out of memory, a crash) says why, with the output
      const raw = (r.stderr || r.stdout).trim().slice(0, RAW_OUTPUT_CHARS);
      if (r.timedOut) {
        const why = `${settings.compiler} did not finish compiling the ${name} sources within the wall clock (${job.limits.wallClockMs} ms): raise limits.wallClockMs, or make the patch smaller`;
        return { compiled: false, diagnostics: withFailureReason(diagnostics, raw ? `${why}. Its output: ${raw}` : why), tests: [], stopped: 'wall-clock', compileMs: Date.now() - compileMs0, testsMs: 0 };
      }
      if (r.code !== 0) {
        const how = r.signal ? `signal ${r.signal}` : `exit ${r.code}`;
        return { compiled: false, diagnostics: withFailureReason(diagnostics, `${settings.compiler} failed (${how}): ${raw || 'no output'}`), tests: [], stopped: 'compile-error', compileMs: Date.now() - compileMs0, testsMs: 0 };
      }
      classDirs.push(dest);
    }
    const compileMs = Date.now() - compileMs0;
    const twice = await typesDeclaredTwice(classDirs);
    if (twice.length > 0) {
      return { compiled: false, diagnostics: [...diagnostics, sharedTypeError(twice)], tests: [], stopped: 'compile-error', compileMs, testsMs: 0 };
    }
    // the build's output directories where the tests look (layout.outputDirs): links to the class directories,
    // which the guard keeps from code under test (Guard.protectFiles: the classDir entries and the project copy)
    if (settings.outputDirs) {
      const links: Array<[string, string]> = [[settings.outputDirs.classes, path.join(out, 'main')], [settings.outputDirs.testClasses, path.join(out, 'test')]];
      for (const [rel, target] of links) {
        const at = path.join(project, rel);
        // a build's leftovers committed to the tree give way to this validation's classes
        await rm(at, { recursive: true, force: true });
        await mkdir(path.dirname(at), { recursive: true });
        await mkdir(target, { recursive: true });
        await symlink(target, at);
      }
    }
    // the copy is this validation's alone: the tests may write its writable directories (made if the tree has none)
    for (const d of settings.writableDirs) {
      await mkdir(path.join(project, d), { recursive: true });
      await ctx.sandbox.prepareWritable(path.join(project, d));
    }

    const entries: RequestEntries = [
      ['junit', layout.junit],
      ['mode', job.tests.mode],
      ['perTestTimeoutMs', job.limits.perTestTimeoutMs],
      ['wallClockMs', Math.max(1, deadline - Date.now())],
      ['coverage', job.coverage],
    ];
    for (const t of settings.excludedTests) entries.push(['exclude', t]);
    entries.push(['testClassLoaders', settings.testClassLoaders]);
    if (settings.singleClassPath) entries.push(['singleClassPath', 'true']);
    // test classes outside the layout's suite (layout.suiteFiles) are left out as excluded classes
    const inSuite = suiteFilter(layout);
    const testClasses = testSources.map((s) => classNameOf(s, layout.testDirs)!);
    for (const c of testClasses) if (!inSuite(c)) entries.push(['exclude', c]);
    for (const step of settings.buildSteps) entries.push(['buildStep', step]);
    if (settings.buildSteps.length) entries.push(['root', project], ['generatedDir', path.join(out, 'generated')]);
    if (job.tests.mode !== 'all') for (const t of job.tests.tests) entries.push(['test', t]);
    for (const d of classDirs) entries.push(['classDir', d]);
    for (const d of [...layout.resourceDirs, ...layout.testResourceDirs]) entries.push(['resourceDir', path.join(project, d)]);
    for (const d of layout.sourceDirs) entries.push(['sourceDir', d]);
    for (const d of settings.writableDirs) entries.push(['writableDir', path.join(project, d)]);
    for (const s of programSources) entries.push(['programClass', classNameOf(s, layout.sourceDirs)!]);
    for (const s of testSources) entries.push(['testClass', classNameOf(s, layout.testDirs)!]);
    // the classes the overlay changed: a failing-first run tries the test classes that reach them first (TestOrder)
    for (const p of Object.keys(job.overlay)) {
      const changed = classNameOf(p, [...layout.sourceDirs, ...layout.testDirs]);
      if (changed) entries.push(['changedClass', changed]);
    }
    const requestFile = path.join(out, 'request.txt');
    await writeRequestFile(requestFile, entries);
    // beside the work directory, not in it: the sandbox sees it only as its read-only /etc/hosts
    const hostsFile = settings.resolvableHosts.length ? `${work}.hosts` : undefined;
    if (hostsFile) await writeFile(hostsFile, hostsFileText(settings.resolvableHosts), { mode: 0o644 });
    // the answer's key travels on stdin, never in the request file (which the tests can read)
    const key = newKey();
    const t0 = Date.now();
    const r = await runSandboxed(
      ctx.sandbox,
      {
        argv: [
          'java', ...jvmFlags(ctx.jvm), ...jitFlags(ctx), ...settings.jvmOptions,
          ...harnessLaunch(ctx.harnessDir, { runner: projectJars(layout.junit, layout.classpath), project: settings.uploadedJars }, ['run', requestFile]),
        ],
        binds,
        cwd: project,
        env: settings.env,
        limits: { ...ctx.process, cpuSeconds: Math.ceil(job.limits.wallClockMs / 1000) + 5 },
        group: job.treeId,
        ...(hostsFile ? { hostsFile, resolvableHosts: settings.resolvableHosts } : {}),
      },
      Math.max(1000, deadline - Date.now()) + 2000,
      key,
    );
    const testsMs = Date.now() - t0;
    const msg = r.messages.find((m) => Array.isArray(m.tests));
    if (!msg) {
      const why = r.timedOut
        ? 'the wall clock ran out'
        : `the test JVM exited (code ${r.code}${r.signal ? `, signal ${r.signal}` : ''}) without a result: ${(r.stderr || r.stdout).trim().slice(-1500)}`;
      return { compiled: true, diagnostics, tests: [], stopped: r.timedOut ? 'wall-clock' : 'crash', compileMs, testsMs, crashReason: why };
    }
    const answer = readHarnessAnswer(msg, compileMs);
    // (a build step that failed is the harness's compile error: layout.buildSteps)
    return { ...answer, compiled: answer.compiled, diagnostics: [...diagnostics, ...answer.diagnostics], compileMs, testsMs, testClasses: testClasses.filter(inSuite) };
  } finally {
    await rm(work, { recursive: true, force: true }).catch(() => undefined);
    await rm(`${work}.hosts`, { force: true }).catch(() => undefined);
  }
}
