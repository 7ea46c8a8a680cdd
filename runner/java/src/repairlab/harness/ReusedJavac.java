package repairlab.harness;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.DiagnosticListener;
import javax.tools.JavaFileObject;

/**
 * javac's task pool (the one JShell uses) keeps a compiler context across tasks, so the JDK's symbols and javac's
 * own set-up are not paid for every compile or parse. It is an internal API, reachable with
 * `--add-exports jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED`; without it (or with -Drepairlab.noTaskPool=true)
 * callers fall back to plain tasks.
 */
final class ReusedJavac {
  private ReusedJavac() {}

  /** A pool of one context, or null when javac's pool is unavailable or turned off. */
  static com.sun.tools.javac.api.JavacTaskPool newPool() {
    if (Boolean.getBoolean("repairlab.noTaskPool")) return null;
    try {
      return new com.sun.tools.javac.api.JavacTaskPool(1);
    } catch (Throwable t) {
      return null;
    }
  }

  /**
   * A reused context keeps the diagnostic listener of its first task: callers hand it this one every time and point
   * it at the current task's collector.
   */
  static final class Diagnostics implements DiagnosticListener<JavaFileObject> {
    DiagnosticCollector<JavaFileObject> target;

    @Override
    public void report(Diagnostic<? extends JavaFileObject> d) {
      if (target != null) target.report(d);
    }
  }
}
