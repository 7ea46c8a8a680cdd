package repairlab.harness;

import java.util.List;
import java.util.Set;

/** One JUnit flavour: JUnit 3/4 through JUnitCore runners, or JUnit 5 through the platform launcher. */
interface TestEngine {
  /** Test ids (`pkg.Class::method`) the class would run; empty when it is not a test class. */
  List<String> plan(Class<?> cls) throws Exception;

  /** Runs the selected tests of the class in the calling thread, reporting through the events. */
  void run(Class<?> cls, Set<String> selected, Events events) throws Exception;

  interface Events {
    void started(String id);

    /** status: pass | fail | error | skipped */
    void finished(String id, String status, Throwable failure);

    /** A failure not tied to one test (class set-up, initialisation). */
    void classFailed(Throwable failure);

    /** The engine's cooperative stop (JUnit 4: RunNotifier.pleaseStop), used before a timed-out thread is killed. */
    void onStop(Runnable stop);
  }

  /** Test ids must match `pkg.Class::method`: parameter suffixes such as `[0]` or `(int)` are cut. */
  static String id(String className, String method) {
    String m = method == null ? "" : method;
    int cut = m.length();
    for (int i = 0; i < m.length(); i++) {
      char c = m.charAt(i);
      if (!(Character.isJavaIdentifierPart(c))) {
        cut = i;
        break;
      }
    }
    m = m.substring(0, cut);
    if (m.isEmpty()) m = "initializationError";
    return className + "::" + m;
  }

  static String statusOf(Throwable t) {
    return t instanceof AssertionError ? "fail" : "error";
  }
}
