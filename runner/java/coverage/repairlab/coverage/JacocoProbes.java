package repairlab.coverage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
 * JaCoCo's probes, behind an API of JDK types only. The harness loads this class, JaCoCo and its ASM in a class loader
 * of their own whose parent is the platform loader: on the test JVM's class path they would shadow a project's own
 * ASM (commons-lang's tests run cglib over ASM 3, which JaCoCo's ASM 9 breaks), and the project would see them.
 * Instrumented classes reach the probes through java.util.logging (LoggerRuntime), never through JaCoCo's classes.
 */
public final class JacocoProbes {
  private final RuntimeData data = new RuntimeData();
  private final Instrumenter instrumenter;

  public JacocoProbes() throws Exception {
    LoggerRuntime runtime = new LoggerRuntime();
    runtime.startup(data);
    instrumenter = new Instrumenter(runtime);
  }

  public byte[] instrument(byte[] bytes, String name) throws Exception {
    return instrumenter.instrument(bytes, name);
  }

  public void reset() {
    data.reset();
  }

  /**
   * Lines hit since the last reset, by source path relative to a source root ("pkg/File.java"), for the classes whose
   * original bytes are given (vm name a/b/C → bytes). Classes the analyzer cannot read are skipped.
   */
  public Map<String, List<Integer>> covered(Map<String, byte[]> originals) {
    ExecutionDataStore store = new ExecutionDataStore();
    // no reset here: the store shares the runtime's probe arrays; reset() clears them for the next test
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
      String rel = (c.getPackageName().isEmpty() ? "" : c.getPackageName() + "/") + c.getSourceFileName();
      List<Integer> hit = lines.computeIfAbsent(rel, k -> new ArrayList<>());
      for (int line = c.getFirstLine(); line <= c.getLastLine(); line++) {
        int status = c.getLine(line).getStatus();
        if (status == ICounter.FULLY_COVERED || status == ICounter.PARTLY_COVERED) hit.add(line);
      }
    }
    return lines;
  }
}
