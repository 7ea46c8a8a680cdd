package repairlab.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Cleans a test failure for people and models: project and test frames only, repeats folded, message capped. */
final class Failures {
  static final int MESSAGE_CAP = 2000;
  static final int FRAME_CAP = 40;

  private Failures() {}

  static Map<String, Object> clean(Throwable t, Set<String> projectClasses) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("exception", t.getClass().getName());
    out.put("message", cap(String.valueOf(t.getMessage() == null ? "" : t.getMessage())));
    List<String> frames = new ArrayList<>();
    int[] omitted = {0};
    Throwable cur = t;
    int depth = 0;
    while (cur != null && depth < 5) {
      if (depth > 0) frames.add("Caused by: " + cur.getClass().getName() + ": " + cap(String.valueOf(cur.getMessage())));
      addFrames(cur.getStackTrace(), projectClasses, frames, omitted);
      cur = cur.getCause() == cur ? null : cur.getCause();
      depth++;
    }
    out.put("frames", frames);
    out.put("omittedFrames", omitted[0]);
    return out;
  }

  /**
   * Keeps project and test frames. Omitted frames are counted only up to the outermost project frame (the test
   * method): what lies below it is the test runner's own (JUnit, reflection, the harness), whose depth depends on
   * JUnit, the JDK and the harness rather than on the code under test, and would make the same failure read
   * differently (and recorded runs diverge) after an upgrade. A trace without project frames counts them all.
   */
  private static void addFrames(StackTraceElement[] trace, Set<String> projectClasses, List<String> frames, int[] omitted) {
    int outermost = -1;
    for (int i = 0; i < trace.length; i++) if (projectClasses.contains(outerClass(trace[i]))) outermost = i;
    int end = outermost < 0 ? trace.length : outermost + 1;
    String last = null;
    int repeats = 0;
    int kept = 0;
    for (int i = 0; i < end; i++) {
      StackTraceElement e = trace[i];
      if (!projectClasses.contains(outerClass(e))) {
        omitted[0]++;
        continue;
      }
      String text = "at " + e.getClassName() + "." + e.getMethodName() + "(" + e.getFileName() + ":" + e.getLineNumber() + ")";
      if (text.equals(last)) {
        repeats++;
        omitted[0]++;
        continue;
      }
      if (repeats > 0) frames.add("... same frame repeated " + repeats + " more times");
      repeats = 0;
      last = text;
      if (kept++ < FRAME_CAP) frames.add(text);
      else omitted[0]++;
    }
    if (repeats > 0) frames.add("... same frame repeated " + repeats + " more times");
  }

  private static String outerClass(StackTraceElement e) {
    String name = e.getClassName();
    int dollar = name.indexOf('$');
    return dollar > 0 ? name.substring(0, dollar) : name;
  }

  static String cap(String s) {
    return s.length() <= MESSAGE_CAP ? s : s.substring(0, MESSAGE_CAP) + " … [" + (s.length() - MESSAGE_CAP) + " characters cut]";
  }
}
