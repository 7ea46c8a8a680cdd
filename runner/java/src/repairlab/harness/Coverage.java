package repairlab.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IClassCoverage;
import org.jacoco.core.analysis.ICounter;
import org.jacoco.core.data.ExecutionData;
import org.jacoco.core.data.ExecutionDataStore;
import org.jacoco.core.data.SessionInfoStore;
import org.jacoco.core.instr.Instrumenter;
import org.jacoco.core.runtime.LoggerRuntime;
import org.jacoco.core.runtime.RuntimeData;

/**
 * Per-test line coverage for spectrum-based fault localization (Ochiai): program classes are instrumented with
 * JaCoCo's core library as the project loader defines them; probes are reset before each test and collected after it.
 */
final class Coverage implements TestSession.TestHooks {
  private static LoggerRuntime runtime;
  private static RuntimeData data;
  private static Instrumenter instrumenter;

  private final Set<String> programClasses;
  private final List<String> sourceDirs;
  /** vm name (a/b/C) → original bytes of every instrumented class */
  private final Map<String, byte[]> originals = new ConcurrentHashMap<>();
  private final List<Map<String, Object>> perTest = new ArrayList<>();

  Coverage(Set<String> projectClasses, List<String> testDirs, List<String> sourceDirs) {
    this.programClasses = projectClasses;
    this.sourceDirs = sourceDirs;
    synchronized (Coverage.class) {
      if (runtime == null) {
        try {
          runtime = new LoggerRuntime();
          data = new RuntimeData();
          runtime.startup(data);
          instrumenter = new Instrumenter(runtime);
        } catch (Exception e) {
          throw new IllegalStateException("JaCoCo runtime failed to start: " + e, e);
        }
      }
    }
  }

  private boolean isProgramClass(String name) {
    int dollar = name.indexOf('$');
    return programClasses.contains(dollar > 0 ? name.substring(0, dollar) : name);
  }

  /** Class-loading hook: instruments program classes, leaves tests and libraries alone. */
  byte[] instrument(String name, byte[] bytes) {
    if (!isProgramClass(name)) return bytes;
    try {
      byte[] out = instrumenter.instrument(bytes, name);
      originals.put(name.replace('.', '/'), bytes);
      return out;
    } catch (Exception e) {
      return bytes; // uninstrumentable (e.g. a class file newer than JaCoCo knows): no coverage for it
    }
  }

  @Override
  public void before(String id) {
    data.reset();
  }

  @Override
  public void after(String id, boolean passed) {
    ExecutionDataStore store = new ExecutionDataStore();
    // no reset here: the store shares the runtime's probe arrays; before() resets them for the next test
    data.collect(store, new SessionInfoStore(), false);
    CoverageBuilder builder = new CoverageBuilder();
    Analyzer analyzer = new Analyzer(store, builder);
    for (ExecutionData d : store.getContents()) {
      byte[] original = originals.get(d.getName());
      if (original == null || !d.hasHits()) continue;
      try {
        analyzer.analyzeClass(original, d.getName());
      } catch (Exception e) {
        // skip classes the analyzer cannot read
      }
    }
    Map<String, List<Integer>> lines = new TreeMap<>();
    for (IClassCoverage c : builder.getClasses()) {
      if (c.getSourceFileName() == null || c.getFirstLine() < 0) continue;
      String file = sourcePath(c.getPackageName(), c.getSourceFileName());
      List<Integer> hit = lines.computeIfAbsent(file, k -> new ArrayList<>());
      for (int line = c.getFirstLine(); line <= c.getLastLine(); line++) {
        int status = c.getLine(line).getStatus();
        if (status == ICounter.FULLY_COVERED || status == ICounter.PARTLY_COVERED) hit.add(line);
      }
    }
    lines.values().removeIf(List::isEmpty);
    for (List<Integer> l : lines.values()) l.sort(null);
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("test", id);
    entry.put("passed", passed);
    entry.put("lines", lines);
    synchronized (perTest) {
      perTest.add(entry);
    }
  }

  /** Repo path of a class's source: the first source root (by layout order) prefixed to package/File.java. */
  private String sourcePath(String packageVmName, String fileName) {
    String rel = (packageVmName.isEmpty() ? "" : packageVmName + "/") + fileName;
    String root = sourceDirs.isEmpty() ? "" : sourceDirs.get(0);
    if (sourceDirs.size() > 1) {
      for (String dir : sourceDirs) {
        if (java.nio.file.Files.exists(java.nio.file.Path.of(dir, rel))) {
          root = dir;
          break;
        }
      }
    }
    return root.isEmpty() ? rel : (root.endsWith("/") ? root : root + "/") + rel;
  }

  List<Map<String, Object>> results() {
    synchronized (perTest) {
      return new ArrayList<>(perTest);
    }
  }
}
