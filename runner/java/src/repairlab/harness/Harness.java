package repairlab.harness;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * RepairLab's Java harness. Two modes:
 *   run <request>    cold path: tests of already-compiled classes (javac ran as its own process), one JVM per validation
 *   serve <config>   warm path: compiles the base project once, then answers `VALIDATE <bytes>` and
 *                    `VALIDATE_BATCH <bytes>` commands on stdin, each followed by a request bundle (Bundle)
 * Every answer is one stdout line: MARKER, the HMAC-SHA256 of the JSON under the secret key the runner sent for it
 * (hex), a space, the JSON. The keys arrive on stdin (`KEY <hex>` first; warm: each command carries its own) and live
 * only in local variables of the harness's main thread, which code under test cannot reach (docs/runner-api.md,
 * "The result channel"). Whatever tests print is swallowed, and the runner ignores every line it cannot authenticate.
 */
public final class Harness {
  static final String MARKER = "@@REPAIRLAB@@ ";
  private static PrintStream protocol;
  private static final CappedStream captured = new CappedStream(16 * 1024);

  private Harness() {}

  public static void main(String[] args) throws Exception {
    protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    // the protocol owns stdin; code under test reading System.in gets an empty stream, not the next request
    java.io.InputStream in = new java.io.BufferedInputStream(new java.io.FileInputStream(FileDescriptor.in));
    System.setIn(new java.io.ByteArrayInputStream(new byte[0]));
    String first = readLine(in);
    byte[] key = first != null && first.startsWith("KEY ") ? hex(first.substring(4).trim()) : null;
    if (key == null || key.length < 16) {
      protocol.println("the runner sent no key on stdin: nothing can be answered");
      Guard.exit(2);
    }
    PrintStream sink = new PrintStream(captured, true, StandardCharsets.UTF_8);
    System.setOut(sink);
    System.setErr(sink);
    Guard.install();
    try {
      if (args.length == 2 && args[0].equals("run")) {
        runCold(Request.read(Path.of(args[1])), key);
        Guard.exit(0);
      } else if (args.length == 2 && args[0].equals("serve")) {
        // the worker's directory (its config, baseline classes, class file scratch) is the harness's; tests may write
        // only their HOME and a build step's output there
        Request config = Request.read(Path.of(args[1]));
        Path home = Path.of(System.getProperty("user.home"));
        // the tests' view of the tree (layout.writableDirs / outputDirs) lies in the worker's directory: of it, only
        // the writable copies are the tests'
        VIEW = ProjectView.of(config);
        if (VIEW != null) VIEW.build();
        List<Path> writable = new ArrayList<>(List.of(home, BuildSteps.generatedDirOf(config, Path.of(config.get("root", ".")))));
        if (VIEW != null) writable.addAll(VIEW.writableDirs());
        Guard.protectFiles(List.of(Path.of(args[1]).toAbsolutePath().getParent()), writable);
        serve(config, key, in);
        Guard.exit(0);
      }
    } catch (Throwable t) {
      // the harness itself failed: say why on the real stderr (the runner reports it), not into the tests' sink
      t.printStackTrace(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
      Guard.exit(1);
    }
    {
      send(Map.of("error", "usage: Harness run <request> | serve <config>"), key);
      Guard.exit(2);
    }
  }

  private static byte[] hex(String s) {
    if (s.length() % 2 != 0 || !s.matches("[0-9a-fA-F]*")) return null;
    byte[] b = new byte[s.length() / 2];
    for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
    return b;
  }

  static TestEngine engineFor(String junit) {
    return junit.equals("junit5") ? new PlatformEngine() : new Junit4Engine();
  }

  /** Sends one answer authenticated with `key` (HMAC-SHA256 over the JSON's UTF-8 bytes). */
  private static void send(Map<String, Object> message, byte[] key) {
    String json = Json.write(message);
    // not javax.crypto.Mac: a provider code under test inserts would be asked first (AnswerMac)
    String mac = AnswerMac.hex(key, json.getBytes(StandardCharsets.UTF_8));
    // a leading newline ends any partial line code under test wrote straight to file descriptor 1
    protocol.print("\n" + MARKER + mac + " " + json + "\n");
    protocol.flush();
  }

  private static List<Path> paths(List<String> values) {
    List<Path> out = new ArrayList<>();
    for (String v : values) out.add(Path.of(v));
    return out;
  }

  private static void runCold(Request req, byte[] key) {
    long t0 = System.currentTimeMillis();
    // the compiled classes are read as the tests load them, and the project's files as they read them: program code
    // must not rewrite a class run after it or the data a test compares with (the warm path's tree is read-only)
    Path root = Path.of(req.get("root", "."));
    List<Path> protectedFiles = new ArrayList<>(paths(req.all("classDir")));
    protectedFiles.add(root);
    // the copy's writable directories (layout.writableDirs) are the tests', as in the project's own build; the rest of
    // the copy stays the harness's
    List<Path> writable = new ArrayList<>(List.of(Path.of(System.getProperty("user.home")), BuildSteps.generatedDirOf(req, root)));
    writable.addAll(paths(req.all("writableDir")));
    Guard.protectFiles(protectedFiles, writable);
    Set<String> programClasses = new HashSet<>(req.all("programClass"));
    Guard.testsData(paths(req.all("writableDir")), programClasses::contains);
    Set<String> projectClasses = new HashSet<>(programClasses);
    projectClasses.addAll(req.all("testClass"));
    Coverage coverage = req.get("coverage", "false").equals("true") ? new Coverage(programClasses, List.of(), req.all("sourceDir")) : null;
    List<Path> resourceDirs = paths(req.all("resourceDir"));
    BuildSteps build = new BuildSteps(req, Path.of(req.get("root", ".")));
    if (build.any()) {
      BuildSteps.Output made = build.run(new ProjectLoader(Harness.class.getClassLoader(), new java.util.HashMap<>(), paths(req.all("classDir")), resourceDirs, null));
      if (made.error() != null) {
        send(BuildSteps.failedAnswer(made.error()), key);
        return;
      }
      resourceDirs.add(made.dir());
    }
    LinkedJars.allProjectJars = req.get("singleClassPath", "false").equals("true");
    java.util.function.Supplier<ClassLoader> newLoader = () -> new ProjectLoader(Harness.class.getClassLoader(), new java.util.HashMap<>(), paths(req.all("classDir")),
        resourceDirs, coverage == null ? null : coverage::instrument).linkJarsOf(projectClasses);
    ClassLoader loader = newLoader.get();
    TestSession session = new TestSession(engineFor(req.get("junit", "junit4")), loader, projectClasses,
        req.getLong("perTestTimeoutMs", 10_000), req.getLong("wallClockMs", 120_000));
    if (req.get("testClassLoaders", "shared").equals("per-class")) session.loaderPerClass = newLoader;
    session.excluded.addAll(req.all("exclude"));
    if (coverage != null) session.hooks = coverage;
    Map<String, Object> out = new LinkedHashMap<>();
    List<String> testClasses = new ArrayList<>(new TreeSet<>(req.all("testClass")));
    String mode = req.get("mode", "all");
    List<String> order = mode.equals("failing-first")
        ? TestOrder.relevantFirst(testClasses, new HashSet<>(req.all("changedClass")), projectClasses, ((ProjectLoader) loader)::bytesOf)
        : testClasses;
    session.run(mode, req.all("test"), order);
    out.put("tests", session.resultList());
    out.put("suite", session.suite(testClasses));
    out.put("stopped", session.stopped);
    out.put("poisoned", session.poisoned);
    out.put("testsMs", System.currentTimeMillis() - t0);
    out.put("droppedOutputBytes", captured.droppedBytes());
    if (coverage != null) out.put("coverage", coverage.results());
    send(out, key);
  }

  private static void serve(Request config, byte[] startKey, java.io.InputStream in) throws Exception {
    PRIVATE_PIDS = config.get("privatePids", "false").equals("true");
    WarmProject project = new WarmProject(config);
    String junit = config.get("junit", "junit4");
    TestEngine engine = engineFor(junit);
    WarmProject.Outcome base = project.compileBaseline();
    // Start with the worker's long-lived state (baseline, javac's reused context) in the old generation: otherwise
    // the first young collections copy all of it, 50-70 ms pauses inside validations.
    System.gc();
    Map<String, Object> ready = new LinkedHashMap<>();
    ready.put("ready", true);
    ready.put("compiled", base.compiled);
    ready.put("diagnostics", base.diagnostics);
    ready.put("compileMs", base.ms);
    send(ready, startKey);
    // a reader thread takes requests off stdin, so this thread can wait for one with a time limit (collectWhileIdle)
    java.util.concurrent.BlockingQueue<Incoming> inbox = new java.util.concurrent.LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> readRequests(in, inbox), "repairlab-protocol");
    reader.setDaemon(true);
    reader.start();
    while (true) {
      Incoming msg = next(inbox, IDLE_BEFORE_GC_MS);
      if (msg == null) {
        collectWhileIdle();
        msg = next(inbox, -1);
      }
      if (msg == Incoming.END) return;
      String line = msg.line;
      if (line.equals("EXIT")) return;
      boolean batch = line.startsWith("VALIDATE_BATCH ");
      // this command's key: the answer is authenticated with it, and it is forgotten after the answer
      byte[] key = msg.key;
      if ((!batch && !line.startsWith("VALIDATE ")) || key == null) {
        send(Map.of("error", "unknown or unkeyed command", "poisoned", true), startKey);
        continue;
      }
      Map<String, Object> out;
      try {
        if (msg.data == null) throw new IllegalArgumentException("malformed request line: " + line);
        Bundle bundle = Bundle.parse(msg.data);
        out = batch ? validateBatch(project, engine, bundle) : validateWarm(project, engine, bundle.requests.get(0), bundle);
      } catch (Throwable t) {
        out = new LinkedHashMap<>();
        out.put("error", t.toString());
        out.put("poisoned", true);
      }
      captured.reset();
      send(out, key);
    }
  }

  /** the warm worker's view of the tree, the tests' working directory (null: they run in the tree itself) */
  private static ProjectView VIEW;

  /** whether this JVM has a PID namespace of its own (bubblewrap): then any other process in it is a leftover */
  private static boolean PRIVATE_PIDS;

  /** One protocol message: its command line and, for VALIDATE and VALIDATE_BATCH, its bundle (null if malformed). */
  private static final class Incoming {
    static final Incoming END = new Incoming("", null, null);
    final String line;
    final byte[] data;
    final byte[] key;

    Incoming(String line, byte[] data, byte[] key) {
      this.line = line;
      this.data = data;
      this.key = key;
    }
  }

  /** Reads requests off stdin until its end (or a request cut short: the runner went away), then END. */
  private static void readRequests(java.io.InputStream in, java.util.concurrent.BlockingQueue<Incoming> inbox) {
    try {
      String line;
      while ((line = readLine(in)) != null) {
        byte[] data = null;
        byte[] key = null;
        if (line.startsWith("VALIDATE_BATCH ") || line.startsWith("VALIDATE ")) {
          // VALIDATE <bytes> <key hex>
          String[] parts = line.split(" ");
          int size = -1;
          try {
            size = Integer.parseInt(parts[1]);
          } catch (RuntimeException e) {
            // answered as malformed
          }
          if (parts.length == 3) key = hex(parts[2]);
          line = parts[0] + " " + (parts.length > 1 ? parts[1] : "");
          if (size >= 0) {
            data = in.readNBytes(size);
            if (data.length < size) break;
          }
        }
        inbox.add(new Incoming(line, data, key));
      }
    } catch (java.io.IOException e) {
      // stdin closed: the runner went away
    } finally {
      inbox.add(Incoming.END);
    }
  }

  /** The next request, waiting at most timeoutMs (negative: without limit); null when none came in time. */
  private static Incoming next(java.util.concurrent.BlockingQueue<Incoming> inbox, long timeoutMs) {
    while (true) {
      try {
        return timeoutMs < 0 ? inbox.take() : inbox.poll(timeoutMs, java.util.concurrent.TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        // only code under test can interrupt this thread: go on waiting
      }
    }
  }

  /** how long the worker waits for the next request before it collects garbage (see collectWhileIdle) */
  private static final long IDLE_BEFORE_GC_MS = 100;
  private static final java.lang.management.MemoryPoolMXBean EDEN = java.lang.management.ManagementFactory.getMemoryPoolMXBeans().stream()
      .filter(p -> p.getType() == java.lang.management.MemoryType.HEAP && p.getName().contains("Eden")).findFirst().orElse(null);

  /**
   * Collects garbage while no request is waiting, so a collection does not pause the next validation: javac fills
   * the young generation in a few batches, and a young collection inside a batch costs 15–40 ms on its critical
   * path. An agent leaves the worker idle while its model works; the first request that arrives during the
   * collection waits for it. Called after IDLE_BEFORE_GC_MS without a request; collects only when the young
   * generation is at least half full, where a young collection is near anyway (an idle worker collects once;
   * System.gc is a full collection, longer than a young one).
   */
  private static void collectWhileIdle() {
    if (EDEN == null) return;
    java.lang.management.MemoryUsage eden = EDEN.getUsage();
    long capacity = eden.getMax() > 0 ? eden.getMax() : eden.getCommitted();
    if (capacity <= 0 || eden.getUsed() * 2 < capacity) return;
    long t = System.nanoTime();
    System.gc();
    IDLE_GC_MS += (System.nanoTime() - t) / 1_000_000;
    IDLE_GCS++;
  }

  /** collections done while idle, and their time (reported with batch answers, for the runner's benchmark) */
  private static long IDLE_GCS, IDLE_GC_MS;

  /** collections and their time in this JVM so far */
  private static long[] collections() {
    long count = 0, ms = 0;
    for (java.lang.management.GarbageCollectorMXBean b : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
      count += Math.max(0, b.getCollectionCount());
      ms += Math.max(0, b.getCollectionTime());
    }
    return new long[] {count, ms};
  }

  /** One protocol line (UTF-8, without its line break), or null at the end of input. */
  private static String readLine(java.io.InputStream in) throws java.io.IOException {
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream(64);
    int c;
    while ((c = in.read()) != -1 && c != '\n') b.write(c);
    if (c == -1 && b.size() == 0) return null;
    return b.toString(StandardCharsets.UTF_8);
  }

  private static Map<String, Object> validateWarm(WarmProject project, TestEngine engine, Request req, Bundle bundle) {
    long t0 = System.currentTimeMillis();
    Map<String, String> changed = bundle.changed(req);
    Set<String> deleted = new LinkedHashSet<>(req.all("deleted"));
    return testCompiled(project, engine, req, changed.keySet(), deleted, project.compilePatch(changed, deleted), t0);
  }

  /**
   * Several validations of one snapshot that share test selection and limits (write_fix's variants). Variants that
   * differ only inside method bodies of one file are compiled together once (VariantMerge) and each is tested on its
   * own classes (VariantSpecializer); the rest, and any whose merged compile failed, are validated one by one.
   * Answers come back in request order: {"batch": [answer, ...]}.
   */
  private static Map<String, Object> validateBatch(WarmProject project, TestEngine engine, Bundle bundle) {
    long tBatch = System.nanoTime();
    long[] gcBefore = collections();
    List<Request> reqs = bundle.requests;
    List<Map<String, Object>> answers = new ArrayList<>();
    for (int i = 0; i < reqs.size(); i++) answers.add(null);
    Set<Integer> merged = new TreeSet<>();
    try {
      // ecj rebuilds the whole project per patch: there is no merged compile to share
      if (!project.usesEcj()) mergeAndTest(project, engine, reqs, bundle, answers, merged);
    } catch (RuntimeException | java.io.IOException | LinkageError e) {
      // a merge that cannot be planned or rebuilt leaves the variants to the one-by-one path
      NOTE = "merge failed: " + e;
    }
    // once a validation poisoned this JVM (leaked threads, an exit attempt…) it tests nothing more: the variants left
    // are answered null and the runner validates them on a fresh worker
    boolean poisoned = answers.stream().anyMatch(a -> a != null && Boolean.TRUE.equals(a.get("poisoned")));
    for (int i = 0; i < reqs.size() && !poisoned; i++) {
      if (answers.get(i) == null) {
        captured.reset();
        long tAlone = System.nanoTime();
        Map<String, Object> a = validateWarm(project, engine, reqs.get(i), bundle);
        phase("alone", tAlone);
        answers.set(i, a);
        poisoned = Boolean.TRUE.equals(a.get("poisoned"));
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("batch", answers);
    out.put("merged", merged.size());
    phase("total", tBatch);
    long[] gcAfter = collections();
    // collections during the batch (count, ms) and those done while idle so far: not times, but where time went
    PHASES.put("gcCount", gcAfter[0] - gcBefore[0]);
    PHASES.put("gcMs", gcAfter[1] - gcBefore[1]);
    PHASES.put("idleGcCount", IDLE_GCS);
    PHASES.put("idleGcMs", IDLE_GC_MS);
    out.put("phasesMs", new LinkedHashMap<>(PHASES));
    if (NOTE != null) out.put("note", NOTE);
    NOTE = null;
    PHASES.clear();
    return out;
  }

  /** why a batch fell back to one-by-one validation (reported with the answer, for debugging) */
  private static String NOTE;
  /** where a batch's time went (reported with the answer, for the runner's benchmark) */
  private static final Map<String, Long> PHASES = new LinkedHashMap<>();

  private static void phase(String name, long sinceNanos) {
    PHASES.merge(name, (System.nanoTime() - sinceNanos) / 1_000_000, Long::sum);
  }

  private static void mergeAndTest(WarmProject project, TestEngine engine, List<Request> reqs, Bundle bundle, List<Map<String, Object>> answers, Set<Integer> mergedOut)
      throws java.io.IOException {
    if (reqs.size() < 2) return;
    long tRead = System.nanoTime();
    List<Map<String, String>> changed = new ArrayList<>();
    for (Request r : reqs) {
      if (!r.all("deleted").isEmpty()) return;
      changed.add(bundle.changed(r));
    }
    // exactly one file may differ between the variants, and it must be Java source
    Set<String> paths = new TreeSet<>();
    for (Map<String, String> c : changed) paths.addAll(c.keySet());
    Map<String, Map<Integer, String>> contents = new LinkedHashMap<>();
    String differing = null;
    for (String p : paths) {
      Map<Integer, String> byVariant = new LinkedHashMap<>();
      for (int i = 0; i < changed.size(); i++) {
        String text = changed.get(i).get(p);
        if (text == null) text = project.baseText(p);
        if (text == null) return;
        byVariant.put(i, text);
      }
      contents.put(p, byVariant);
      if (new java.util.HashSet<>(byVariant.values()).size() > 1) {
        if (differing != null || !p.endsWith(".java")) return;
        differing = p;
      }
    }
    if (differing == null) differing = paths.stream().filter(p -> p.endsWith(".java")).findFirst().orElse(null);
    if (differing == null) return;

    phase("read", tRead);
    long tParse = System.nanoTime();
    // the variants are read against the file as the snapshot has it (parsed once per worker)
    Map<Integer, Object> parsed = VariantMerge.parse(contents.get(differing), project.baseText(differing));
    phase("parse", tParse);
    PHASES.merge("partlyParsed", VariantMerge.partlyParsed(parsed), Long::sum); // a count, not ms
    Set<Integer> candidates = new TreeSet<>(parsed.keySet());
    for (int attempt = 0; attempt < 3 && candidates.size() >= 2; attempt++) {
      Set<Integer> alone = new TreeSet<>();
      long tPlan = System.nanoTime();
      VariantMerge.Plan plan = VariantMerge.plan(differing, parsed, candidates, alone);
      phase("plan", tPlan);
      if (plan == null) {
        NOTE = "nothing to merge among " + candidates;
        return;
      }
      Map<String, String> mergedChanged = new LinkedHashMap<>(changed.get(plan.members.get(0)));
      mergedChanged.put(differing, plan.merged);
      long t0 = System.currentTimeMillis();
      long tCompile = System.nanoTime();
      WarmProject.Outcome compiled = project.compilePatch(mergedChanged, Set.of(), false);
      phase(compiled.compiled ? "compile" : "compileFailed", tCompile);
      if (!compiled.compiled) {
        Set<Integer> implicated = plan.implicated(compiled.diagnostics);
        if (implicated == null) {
          NOTE = "merged compile failed in shared code: " + compiled.diagnostics;
          return;
        }
        // the implicated variants are answered from this compile where their own diagnostics can be read off it, else
        // validated alone; the others merge again
        // (not from a reused javac context that may be stale: its errors could be wrong, so they go alone)
        for (int v : compiled.unconfirmed ? Set.<Integer>of() : implicated) {
          List<Map<String, Object>> own = plan.ownDiagnostics(v, compiled.diagnostics, contents.get(differing).get(v));
          if (own == null) continue;
          WarmProject.Outcome failed = new WarmProject.Outcome();
          failed.compiled = false;
          failed.full = compiled.full;
          failed.ms = compiled.ms;
          failed.diagnostics = own;
          Map<String, Object> answer = testCompiled(project, engine, reqs.get(v), changed.get(v).keySet(), Set.of(), failed, t0);
          answer.put("merged", plan.members.size());
          answers.set(v, answer);
          mergedOut.add(v);
        }
        candidates.removeAll(implicated);
        candidates.removeAll(alone);
        NOTE = "merged compile failed; implicated " + implicated + ", alone " + alone + ", " + compiled.diagnostics;
        continue;
      }
      String pkg = packageOf(plan.merged);
      String sourceName = Path.of(differing).getFileName().toString();
      Map<String, byte[]> fromFile = new java.util.HashMap<>();
      for (Map.Entry<String, byte[]> e : compiled.classes.entrySet()) {
        if (VariantSpecializer.fromFile(e.getValue(), pkg, sourceName)) fromFile.put(e.getKey(), e.getValue());
      }
      for (int v : plan.members) {
        long tSpecialize = System.nanoTime();
        WarmProject.Outcome own = new WarmProject.Outcome();
        own.compiled = true;
        own.full = compiled.full;
        own.ms = compiled.ms;
        own.classes = new java.util.HashMap<>(compiled.classes);
        // warnings of the merged compile: only those in this variant's code, at its own lines
        for (Map<String, Object> d : compiled.diagnostics) {
          if (differing.equals(d.get("file"))) {
            int line = (Integer) d.get("line");
            Set<Integer> owners = plan.ownersOf(line);
            if (owners != null && !owners.contains(v)) continue;
            int[] map = plan.lineMaps.get(v);
            Map<String, Object> mapped = new LinkedHashMap<>(d);
            if (line > 0 && line < map.length && map[line] > 0) mapped.put("line", map[line]);
            own.diagnostics.add(mapped);
          } else {
            own.diagnostics.add(d);
          }
        }
        for (Map.Entry<String, byte[]> e : fromFile.entrySet()) {
          own.classes.put(e.getKey(), VariantSpecializer.specialize(e.getValue(), plan.transplants.get(v), plan.lineMaps.get(v)));
        }
        phase("specialize", tSpecialize);
        captured.reset();
        long tTests = System.nanoTime();
        Map<String, Object> answer = testCompiled(project, engine, reqs.get(v), changed.get(v).keySet(), Set.of(), own, t0);
        phase("tests", tTests);
        answer.put("merged", plan.members.size());
        answers.set(v, answer);
        mergedOut.add(v);
        // a poisoned JVM (leaked threads, exit attempt…) must not test further variants: the rest go one by one
        if (Boolean.TRUE.equals(answer.get("poisoned"))) return;
      }
      return;
    }
  }

  /** The package of a compilation unit as an internal name ("a/b"), "" for the default package. */
  private static String packageOf(String source) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^\\s*package\\s+([\\w.]+)\\s*;").matcher(VariantMerge.blankComments(source));
    return m.find() ? m.group(1).replace('.', '/') : "";
  }

  private static Map<String, Object> testCompiled(WarmProject project, TestEngine engine, Request req, Set<String> changedPaths, Set<String> deleted,
      WarmProject.Outcome compiled, long t0) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("compiled", compiled.compiled);
    out.put("diagnostics", compiled.diagnostics);
    out.put("compileMs", compiled.ms);
    out.put("fullRecompile", compiled.full);
    if (!compiled.compiled) {
      out.put("tests", new ArrayList<>());
      out.put("stopped", "compile-error");
      out.put("poisoned", false);
      return out;
    }
    // classes of this patch: the test and project class sets follow the patched file list
    Set<String> sourcesNow = new TreeSet<>(project.baseSources.keySet());
    sourcesNow.removeAll(deleted);
    sourcesNow.addAll(changedPaths);
    Set<String> projectClasses = new HashSet<>();
    Set<String> programClasses = new HashSet<>();
    List<String> testClasses = new ArrayList<>();
    for (String path : sourcesNow) {
      String name = WarmProject.classNameOf(path, project.allRoots());
      if (name == null) continue;
      projectClasses.add(name);
      if (WarmProject.classNameOf(path, project.testDirs) != null) testClasses.add(name);
      else programClasses.add(name);
    }
    List<Path> classDirs = compiled.full ? List.of() : List.of(project.out);
    List<Path> resourceDirs = project.resourceDirs;
    if (project.build.any()) {
      java.util.function.Supplier<ProjectLoader> stepLoader = () -> new ProjectLoader(Harness.class.getClassLoader(), compiled.classes, classDirs, project.resourceDirs, null);
      ProjectLoader probe = stepLoader.get();
      BuildSteps.Output made = project.build.outputFor(probe::bytesOf, stepLoader);
      if (made.error() != null) {
        Map<String, Object> failed = BuildSteps.failedAnswer(made.error());
        failed.put("compileMs", compiled.ms);
        failed.put("fullRecompile", compiled.full);
        return failed;
      }
      resourceDirs = new ArrayList<>(project.resourceDirs);
      resourceDirs.add(made.dir());
    }
    Coverage coverage = req.get("coverage", "false").equals("true") ? new Coverage(programClasses, project.testDirs, project.sourceDirs) : null;
    List<Path> loaderResources = resourceDirs;
    java.util.function.Supplier<ProjectLoader> newLoader = () -> new ProjectLoader(Harness.class.getClassLoader(), compiled.classes, classDirs, loaderResources,
        coverage == null ? null : coverage::instrument, project.out.getParent(), new HashSet<>(testClasses)::contains).linkJarsOf(projectClasses);
    ProjectLoader loader = newLoader.get();
    // writable copies as the tree has them, output directories leading to this validation's classes
    if (VIEW != null) Guard.testsData(VIEW.writableDirs(), new HashSet<>(programClasses)::contains);
    try {
      if (VIEW != null) VIEW.prepare(loader);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("preparing the tests' view of the project in " + VIEW.dir + " (the worker is replaced)", e);
    }
    TestSession session = new TestSession(engine, loader, projectClasses, req.getLong("perTestTimeoutMs", 10_000), req.getLong("wallClockMs", 120_000));
    if (project.perClassLoaders) session.loaderPerClass = newLoader::get;
    session.excluded.addAll(project.excludedTests);
    // this validation's test classes outside the layout's suite (layout.suiteFiles), overlay-added ones included
    session.excluded.addAll(req.all("exclude"));
    if (coverage != null) session.hooks = coverage;
    long t1 = System.currentTimeMillis();
    GlobalState before = new GlobalState(PRIVATE_PIDS);
    session.state = before;
    String mode = req.get("mode", "all");
    Set<String> changedClasses = new HashSet<>();
    for (String path : changedPaths) {
      String name = WarmProject.classNameOf(path, project.allRoots());
      if (name != null) changedClasses.add(name);
    }
    List<String> order = mode.equals("failing-first") ? TestOrder.relevantFirst(testClasses, changedClasses, projectClasses, loader::bytesOf) : testClasses;
    try {
      session.run(mode, req.all("test"), order);
    } finally {
      before.restore();
    }
    out.put("testsMs", System.currentTimeMillis() - t1);
    out.put("tests", session.resultList());
    out.put("suite", session.suite(testClasses));
    out.put("stopped", session.stopped);
    out.put("poisoned", session.poisoned);
    if (session.poisonReason != null) out.put("poisonReason", session.poisonReason);
    out.put("droppedOutputBytes", captured.droppedBytes());
    out.put("totalMs", System.currentTimeMillis() - t0);
    if (coverage != null) out.put("coverage", coverage.results());
    return out;
  }
}
