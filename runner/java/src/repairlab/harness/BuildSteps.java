package repairlab.harness;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The layout's build steps (layout.buildSteps): project programs the project's build runs after compiling and before
 * the tests, whose output the tests read as resources — Joda-Time's zone database, which its build compiles with
 * org.joda.time.tz.ZoneInfoCompiler. Each runs in a class loader of its own over the validation's classes (its static
 * state, such as a zone provider chosen by a system property, never reaches the tests' loader), with its system
 * properties set only while it runs.
 *
 * A warm worker keeps the output while the classes the steps loaded stay byte for byte the same: a patch elsewhere
 * reuses it, a patch to the program the step runs makes it again.
 */
final class BuildSteps {
  /** one step: directories to make, -D properties, the main class, its arguments ({root}, {out} filled in when run) */
  record Step(List<String> makeDirs, Map<String, String> properties, String mainClass, List<String> args) {
    static Step parse(String entry) {
      List<String> dirs = new ArrayList<>();
      Map<String, String> props = new LinkedHashMap<>();
      List<String> fields = new ArrayList<>(Arrays.asList(entry.split("\t", -1)));
      while (!fields.isEmpty() && fields.get(0).startsWith("+mkdir=")) dirs.add(fields.remove(0).substring(7));
      while (!fields.isEmpty() && fields.get(0).startsWith("-D")) {
        String p = fields.remove(0).substring(2);
        int eq = p.indexOf('=');
        props.put(eq < 0 ? p : p.substring(0, eq), eq < 0 ? "" : p.substring(eq + 1));
      }
      if (fields.isEmpty()) throw new IllegalArgumentException("a buildStep entry names no main class: " + entry);
      return new Step(dirs, props, fields.remove(0), fields);
    }
  }

  /** What a run of the steps left: its directory (a resource root of the tests) or why it failed. */
  record Output(Path dir, String error, Map<String, byte[]> classes) {}

  final List<Step> steps;
  private final Path root;
  private final Path generatedDir;
  private final long timeoutMs;
  private int runs = 0;
  /** the last output that succeeded (warm worker: reused while its classes are unchanged) */
  private Output last;

  BuildSteps(Request req, Path root) {
    steps = new ArrayList<>();
    for (String e : req.all("buildStep")) steps.add(Step.parse(e));
    this.root = root;
    this.generatedDir = generatedDirOf(req, root);
    this.timeoutMs = req.getLong("buildStepTimeoutMs", 120_000);
  }

  boolean any() {
    return !steps.isEmpty();
  }

  /**
   * The output for a validation whose project classes `bytesOf` gives (null for a class it does not have): the last
   * one when every class the steps loaded then has the same bytes now, else the steps run again on `loader`.
   */
  Output outputFor(Function<String, byte[]> bytesOf, java.util.function.Supplier<ProjectLoader> loader) {
    if (last != null && unchanged(last.classes(), bytesOf)) return last;
    Output made = run(loader.get());
    if (made.error() == null) {
      if (last != null) delete(last.dir());
      last = made;
    } else {
      delete(made.dir());
    }
    return made;
  }

  private static boolean unchanged(Map<String, byte[]> loaded, Function<String, byte[]> bytesOf) {
    for (Map.Entry<String, byte[]> e : loaded.entrySet()) {
      if (!Arrays.equals(e.getValue(), bytesOf.apply(e.getKey()))) return false;
    }
    return true;
  }

  /** Where the build steps write their output (project code writes there: the guard leaves it writable). */
  static Path generatedDirOf(Request req, Path root) {
    return Path.of(req.get("generatedDir", root.resolve("generated").toString()));
  }

  /** Runs every step in order on a loader of its own; the first failure ends the run. */
  Output run(ProjectLoader loader) {
    Path dir = generatedDir.resolve(Integer.toString(runs++));
    Map<String, byte[]> classes = new HashMap<>();
    loader.defined = classes;
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      return new Output(dir, "cannot make " + dir + ": " + e, classes);
    }
    for (Step step : steps) {
      String error = runOne(step, loader, dir);
      if (error != null) return new Output(dir, error, classes);
    }
    return new Output(dir, null, classes);
  }

  private String runOne(Step step, ProjectLoader loader, Path dir) {
    String[] args = step.args().stream().map(a -> a.replace("{root}", root.toString()).replace("{out}", dir.toString())).toArray(String[]::new);
    String what = "The build step " + step.mainClass() + " " + String.join(" ", step.args());
    for (String d : step.makeDirs()) {
      try {
        Files.createDirectories(Path.of(d.replace("{out}", dir.toString())));
      } catch (IOException e) {
        return what + " failed: cannot make " + d + ": " + e;
      }
    }
    Method main;
    try {
      main = Class.forName(step.mainClass(), false, loader).getMethod("main", String[].class);
      if (!Modifier.isStatic(main.getModifiers())) return what + " failed: " + step.mainClass() + ".main is not static";
    } catch (ClassNotFoundException | NoSuchMethodException | LinkageError e) {
      return what + " failed: " + step.mainClass() + " has no main(String[]) among the compiled classes (" + e + ")";
    }
    Map<String, String> before = new HashMap<>();
    for (Map.Entry<String, String> p : step.properties().entrySet()) {
      before.put(p.getKey(), System.getProperty(p.getKey()));
      System.setProperty(p.getKey(), p.getValue());
    }
    Throwable[] failure = new Throwable[1];
    // project code: a thread of its own (the guard sees project frames), the step's loader as its context loader
    Thread t = new Thread(() -> {
      try {
        main.invoke(null, (Object) args);
      } catch (InvocationTargetException e) {
        failure[0] = e.getCause();
      } catch (Throwable e) {
        failure[0] = e;
      }
    }, "repairlab-build-step");
    t.setContextClassLoader(loader);
    t.setDaemon(true);
    try {
      t.start();
      t.join(timeoutMs);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      for (Map.Entry<String, String> p : before.entrySet()) {
        if (p.getValue() == null) System.clearProperty(p.getKey());
        else System.setProperty(p.getKey(), p.getValue());
      }
    }
    if (t.isAlive()) return what + " did not end within " + timeoutMs + " ms";
    if (failure[0] != null) return what + " failed: " + Failures.cap(String.valueOf(failure[0]));
    return null;
  }

  /** The answer for a validation whose build step failed: it did not build, as Defects4J's compile target fails. */
  static Map<String, Object> failedAnswer(String error) {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("file", "");
    d.put("line", 0);
    d.put("kind", "error");
    d.put("message", error);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("compiled", false);
    out.put("diagnostics", List.of(d));
    out.put("tests", new ArrayList<>());
    out.put("stopped", "compile-error");
    out.put("poisoned", false);
    return out;
  }

  private static void delete(Path dir) {
    if (dir == null || !Files.exists(dir)) return;
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a leftover directory under the worker's own work dir: removed with it
    }
  }
}
