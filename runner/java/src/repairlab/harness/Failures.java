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

  private static void addFrames(StackTraceElement[] trace, Set<String> projectClasses, List<String> frames, int[] omitted) {
    String last = null;
    int repeats = 0;
    int kept = 0;
    for (StackTraceElement e : trace) {
      String top = e.getClassName();
      int dollar = top.indexOf('$');
      if (dollar > 0) top = top.substring(0, dollar);
      if (!projectClasses.contains(top)) {
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

  static String cap(String s) {
    return s.length() <= MESSAGE_CAP ? s : s.substring(0, MESSAGE_CAP) + " … [" + (s.length() - MESSAGE_CAP) + " characters cut]";
  }
}
