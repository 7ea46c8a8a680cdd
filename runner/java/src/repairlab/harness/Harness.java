package repairlab.harness;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
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
 *   serve <config>   warm path: compiles the base project once, then answers `VALIDATE <request>` lines on stdin
 * Every answer is one stdout line starting with MARKER followed by JSON; whatever tests print is swallowed.
 */
public final class Harness {
  static final String MARKER = "@@REPAIRLAB@@ ";
  private static PrintStream protocol;
  private static final CappedStream captured = new CappedStream(16 * 1024);

  private Harness() {}

  public static void main(String[] args) throws Exception {
    protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    PrintStream sink = new PrintStream(captured, true, StandardCharsets.UTF_8);
    System.setOut(sink);
    System.setErr(sink);
    System.setSecurityManager(new Guard());
    if (args.length == 2 && args[0].equals("run")) {
      runCold(Request.read(Path.of(args[1])));
      Guard.exit(0);
    } else if (args.length == 2 && args[0].equals("serve")) {
      serve(Request.read(Path.of(args[1])));
      Guard.exit(0);
    } else {
      protocol.println(MARKER + Json.write(Map.of("error", "usage: Harness run <request> | serve <config>")));
      Guard.exit(2);
    }
  }

  static TestEngine engineFor(String junit) {
    return junit.equals("junit5") ? new PlatformEngine() : new Junit4Engine();
  }

  private static void send(Map<String, Object> message) {
    // a leading newline ends any partial line code under test wrote straight to file descriptor 1
    protocol.print("\n" + MARKER + Json.write(message) + "\n");
    protocol.flush();
  }

  private static List<Path> paths(List<String> values) {
    List<Path> out = new ArrayList<>();
    for (String v : values) out.add(Path.of(v));
    return out;
  }

  private static void runCold(Request req) {
    long t0 = System.currentTimeMillis();
    Set<String> programClasses = new HashSet<>(req.all("programClass"));
    Set<String> projectClasses = new HashSet<>(programClasses);
    projectClasses.addAll(req.all("testClass"));
    Coverage coverage = req.get("coverage", "false").equals("true") ? new Coverage(programClasses, List.of(), req.all("sourceDir")) : null;
    ClassLoader loader = new ProjectLoader(Harness.class.getClassLoader(), new java.util.HashMap<>(), paths(req.all("classDir")),
        paths(req.all("resourceDir")), coverage == null ? null : coverage::instrument);
    TestSession session = new TestSession(engineFor(req.get("junit", "junit4")), loader, projectClasses,
        req.getLong("perTestTimeoutMs", 10_000), req.getLong("wallClockMs", 120_000));
    if (coverage != null) session.hooks = coverage;
    Map<String, Object> out = new LinkedHashMap<>();
    session.run(req.get("mode", "all"), req.all("test"), new ArrayList<>(new TreeSet<>(req.all("testClass"))));
    out.put("tests", session.resultList());
    out.put("stopped", session.stopped);
    out.put("poisoned", session.poisoned);
    out.put("testsMs", System.currentTimeMillis() - t0);
    out.put("droppedOutputBytes", captured.droppedBytes());
    if (coverage != null) out.put("coverage", coverage.results());
    send(out);
  }

  private static void serve(Request config) throws Exception {
    WarmProject project = new WarmProject(config);
    String junit = config.get("junit", "junit4");
    TestEngine engine = engineFor(junit);
    WarmProject.Outcome base = project.compileBaseline();
    Map<String, Object> ready = new LinkedHashMap<>();
    ready.put("ready", true);
    ready.put("compiled", base.compiled);
    ready.put("diagnostics", base.diagnostics);
    ready.put("compileMs", base.ms);
    send(ready);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.equals("EXIT")) return;
      if (!line.startsWith("VALIDATE ")) {
        send(Map.of("error", "unknown command"));
        continue;
      }
      Map<String, Object> out;
      try {
        out = validateWarm(project, engine, Request.read(Path.of(line.substring(9))));
      } catch (Throwable t) {
        out = new LinkedHashMap<>();
        out.put("error", t.toString());
        out.put("poisoned", true);
      }
      captured.reset();
      send(out);
    }
  }

  private static Map<String, Object> validateWarm(WarmProject project, TestEngine engine, Request req) {
    long t0 = System.currentTimeMillis();
    Map<String, Path> changed = new LinkedHashMap<>();
    for (String v : req.all("changed")) {
      int tab = v.indexOf('\t');
      changed.put(v.substring(0, tab), Path.of(v.substring(tab + 1)));
    }
    Set<String> deleted = new LinkedHashSet<>(req.all("deleted"));
    WarmProject.Outcome compiled = project.compilePatch(changed, deleted);
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
    sourcesNow.addAll(changed.keySet());
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
    Coverage coverage = req.get("coverage", "false").equals("true") ? new Coverage(programClasses, project.testDirs, project.sourceDirs) : null;
    ProjectLoader loader = new ProjectLoader(Harness.class.getClassLoader(), compiled.classes, classDirs, project.resourceDirs,
        coverage == null ? null : coverage::instrument);
    TestSession session = new TestSession(engine, loader, projectClasses, req.getLong("perTestTimeoutMs", 10_000), req.getLong("wallClockMs", 120_000));
    if (coverage != null) session.hooks = coverage;
    long t1 = System.currentTimeMillis();
    session.run(req.get("mode", "all"), req.all("test"), testClasses);
    out.put("testsMs", System.currentTimeMillis() - t1);
    out.put("tests", session.resultList());
    out.put("stopped", session.stopped);
    out.put("poisoned", session.poisoned);
    if (session.poisonReason != null) out.put("poisonReason", session.poisonReason);
    out.put("droppedOutputBytes", captured.droppedBytes());
    out.put("totalMs", System.currentTimeMillis() - t0);
    if (coverage != null) out.put("coverage", coverage.results());
    return out;
  }
}
