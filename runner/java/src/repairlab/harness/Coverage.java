package repairlab.harness;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-test line coverage for spectrum-based fault localization (Ochiai): program classes are instrumented with
 * JaCoCo's core library as the project loader defines them; probes are reset before each test and collected after it.
 * JaCoCo and its ASM live in a class loader of their own (repairlab.coverage.JacocoProbes, on the paths the runner
 * passes as -Drepairlab.coverage.path), not on the class path, where they would shadow the project's own ASM.
 */
final class Coverage implements TestSession.TestHooks {
  /** JacocoProbes' methods, bound to the one JaCoCo runtime of this JVM (null until a coverage run starts it) */
  private static MethodHandle instrument;
  private static MethodHandle reset;
  private static MethodHandle covered;

  private final Set<String> programClasses;
  private final List<String> sourceDirs;
  /** vm name (a/b/C) → original bytes of every instrumented class */
  private final Map<String, byte[]> originals = new ConcurrentHashMap<>();
  private final List<Map<String, Object>> perTest = new ArrayList<>();

  Coverage(Set<String> projectClasses, List<String> testDirs, List<String> sourceDirs) {
    this.programClasses = projectClasses;
    this.sourceDirs = sourceDirs;
    synchronized (Coverage.class) {
      if (instrument == null) {
        try {
          String path = System.getProperty("repairlab.coverage.path", "");
          List<URL> urls = new ArrayList<>();
          for (String p : path.split(java.io.File.pathSeparator)) if (!p.isEmpty()) urls.add(Path.of(p).toUri().toURL());
          ClassLoader loader = new URLClassLoader("repairlab-coverage", urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
          Class<?> type = Class.forName("repairlab.coverage.JacocoProbes", true, loader);
          MethodHandles.Lookup lookup = MethodHandles.publicLookup();
          Object probes = type.getConstructor().newInstance();
          reset = lookup.findVirtual(type, "reset", MethodType.methodType(void.class)).bindTo(probes);
          covered = lookup.findVirtual(type, "covered", MethodType.methodType(Map.class, Map.class)).bindTo(probes);
          // set last: it marks the runtime as started
          instrument = lookup.findVirtual(type, "instrument", MethodType.methodType(byte[].class, byte[].class, String.class)).bindTo(probes);
        } catch (Exception e) {
          throw new IllegalStateException("JaCoCo runtime failed to start (repairlab.coverage.path=" + System.getProperty("repairlab.coverage.path") + "): " + e, e);
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
      byte[] out = (byte[]) instrument.invokeExact(bytes, name);
      originals.put(name.replace('.', '/'), bytes);
      return out;
    } catch (Throwable e) {
      return bytes; // uninstrumentable (e.g. a class file newer than JaCoCo knows): no coverage for it
    }
  }

  @Override
  public void before(String id) {
    try {
      reset.invokeExact();
    } catch (Throwable e) {
      throw new IllegalStateException("JaCoCo could not reset its probes: " + e, e);
    }
  }

  @Override
  public void after(String id, boolean passed) {
    Map<String, List<Integer>> byRelative;
    try {
      @SuppressWarnings("unchecked")
      Map<String, List<Integer>> got = (Map<String, List<Integer>>) (Map<?, ?>) covered.invokeExact((Map<?, ?>) originals);
      byRelative = got;
    } catch (Throwable e) {
      throw new IllegalStateException("JaCoCo could not collect coverage: " + e, e);
    }
    Map<String, List<Integer>> lines = new TreeMap<>();
    for (Map.Entry<String, List<Integer>> e : byRelative.entrySet()) lines.computeIfAbsent(sourcePath(e.getKey()), k -> new ArrayList<>()).addAll(e.getValue());
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
  private String sourcePath(String rel) {
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
