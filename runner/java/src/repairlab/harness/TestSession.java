package repairlab.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Runs one validation's tests: failing-first (listed tests first, stop at the first failure, then the rest of the
 * suite), listed, or all. The whole run happens on one test thread in a private thread group while the calling
 * thread watches it: one hand-over per validation, not one per test class (a thread wake-up costs 0.1–1 ms on a busy
 * machine, and write_fix's variants run many classes each). A test over its timeout is stopped with its thread, the
 * worker is marked poisoned (the Node side then replaces the JVM), and the run goes on from where it was on a new
 * thread: every step skips the tests that already have a result.
 */
final class TestSession {
  final TestEngine engine;
  final ClassLoader loader;
  /**
   * When set (layout.testClassLoaders per-class), each test class is loaded, with the project classes it reaches,
   * through a fresh loader from here, as Ant's junit task reloads per test class: static state stays with its class.
   */
  java.util.function.Supplier<ClassLoader> loaderPerClass;
  final Set<String> projectClasses;
  final long perTestTimeoutMs;
  final long deadline;
  final ThreadGroup group;
  /** written by the test thread and the watchdog: every access holds its lock */
  final Map<String, Map<String, Object>> results = new LinkedHashMap<>();
  /** optional per-test hook (coverage): called on the test thread before a test starts and after it ends */
  TestHooks hooks;
  /** the JVM state before the run (warm path): anything the run leaves that cannot be put back poisons the worker */
  GlobalState state;
  volatile String stopped = "none";
  volatile boolean poisoned = false;
  volatile String poisonReason = null;
  /** the class run in progress on the test thread, for the watchdog */
  private volatile Recorder running;
  /** the thread of the current attempt; an attempt given up on (timeout, wall clock) writes nothing more */
  private volatile Thread attempt;
  /** tests (pkg.Class::method) and whole classes the layout leaves out of suite runs (Defects4J's broken tests) */
  final Set<String> excluded = new java.util.HashSet<>();
  /** test plans per class, so a run resumed after a timeout does not build them again */
  private final Map<String, List<String>> plans = new java.util.HashMap<>();
  /** the test classes this run runs on their own: only they answer for their tests (see ownedBy) */
  private final Set<String> runClasses = new java.util.HashSet<>();

  interface TestHooks {
    void before(String id);

    void after(String id, boolean passed);
  }

  TestSession(TestEngine engine, ClassLoader loader, Set<String> projectClasses, long perTestTimeoutMs, long wallClockMs) {
    this.engine = engine;
    this.loader = loader;
    this.projectClasses = projectClasses;
    this.perTestTimeoutMs = perTestTimeoutMs;
    this.deadline = System.currentTimeMillis() + wallClockMs;
    this.group = new ThreadGroup("repairlab-tests");
  }

  private static String classOf(String id) {
    return id.substring(0, id.indexOf("::"));
  }

  /**
   * Whether a run of class `cls` may answer for test `id`: a test of the class itself or of a class nested in it, or
   * of a class this run does not run on its own (what a JUnit 3 suite() or BulkTest builds). A test class this run
   * runs answers for its own tests alone — whatever another class's @RunWith runner reports or plans for them.
   */
  private boolean ownedBy(String id, String cls) {
    String of = classOf(id);
    if (of.equals(cls) || of.startsWith(cls + "$")) return true;
    int nested = of.indexOf('$');
    return !runClasses.contains(nested < 0 ? of : of.substring(0, nested));
  }

  private boolean anyFailure(Iterable<String> ids) {
    synchronized (results) {
      for (String id : ids) {
        Map<String, Object> r = results.get(id);
        if (r != null && isFailure((String) r.get("status"))) return true;
      }
    }
    return false;
  }

  private boolean hasResult(String id) {
    synchronized (results) {
      return results.containsKey(id);
    }
  }

  /** Records a result from the test thread, unless its attempt was given up on. */
  private void record(String id, Map<String, Object> r) {
    synchronized (results) {
      if (Thread.currentThread() == attempt) results.put(id, r);
    }
  }

  /** Stops the run at its first failure (from the test thread, unless its attempt was given up on). */
  private void stopAtFailure() {
    if (Thread.currentThread() == attempt && stopped.equals("none")) stopped = "first-failure";
  }

  /** The run goes on: this thread's attempt was not given up on and nothing stopped the run. */
  private boolean goOn() {
    return Thread.currentThread() == attempt && stopped.equals("none");
  }

  static boolean isFailure(String status) {
    return status.equals("fail") || status.equals("error") || status.equals("timeout");
  }

  void run(String mode, List<String> listed, List<String> testClasses) {
    runClasses.addAll(testClasses);
    for (String id : listed) runClasses.add(classOf(id));
    Thread last = null;
    java.util.concurrent.CountDownLatch lastDone = null;
    while (true) {
      java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
      Thread t = new Thread(group, () -> {
        try {
          runSteps(mode, listed, testClasses);
        } finally {
          done.countDown();
        }
      }, "repairlab-tests");
      t.setContextClassLoader(loader);
      // not a daemon, as ant's JUnit task runs tests on the main thread: threads a test makes inherit it (commons-lang's
      // BasicThreadFactoryTest expects non-daemon threads); every exit of the harness halts the JVM, whatever runs
      t.setDaemon(false);
      attempt = t;
      last = t;
      lastDone = done;
      t.start();
      if (!watch(t, done)) break;
      // a test ran past its timeout: go on without it on a fresh thread
    }
    if (mode.equals("failing-first")) {
      synchronized (results) {
        for (String id : listed) results.computeIfAbsent(id, k -> result(k, "not-run", 0, null));
      }
    }
    // the test thread that finished its run is ending, not leaked; one that did not finish is looked at like any other
    if (state != null) {
      String left = state.leftovers(lastDone != null && lastDone.getCount() == 0 ? last : null);
      if (left != null) {
        poisoned = true;
        if (poisonReason == null) poisonReason = left;
      }
    }
  }

  /** The run's steps, on the test thread; each skips the tests that already have a result. */
  private void runSteps(String mode, List<String> listed, List<String> testClasses) {
    if (mode.equals("listed")) {
      runGrouped(listed, false);
    } else if (mode.equals("all")) {
      runSuite(testClasses, new LinkedHashSet<>(), false);
    } else {
      // failing-first: each listed test alone, stop at the first failure; then the rest of the suite
      for (String id : listed) {
        if (!goOn()) break;
        if (!hasResult(id)) runGrouped(List.of(id), true);
        if (anyFailure(List.of(id))) stopAtFailure();
      }
      if (goOn()) runSuite(testClasses, new LinkedHashSet<>(listed), true);
    }
  }

  private void runGrouped(List<String> ids, boolean stopOnFailure) {
    Map<String, List<String>> byClass = new TreeMap<>();
    for (String id : ids) byClass.computeIfAbsent(classOf(id), k -> new ArrayList<>()).add(id);
    for (Map.Entry<String, List<String>> e : byClass.entrySet()) {
      if (!goOn()) return;
      Set<String> todo = new LinkedHashSet<>();
      for (String id : e.getValue()) if (!hasResult(id)) todo.add(id);
      if (!todo.isEmpty()) {
        Class<?> cls;
        try {
          cls = Class.forName(e.getKey(), false, loaderForClass());
        } catch (Throwable t) {
          for (String id : todo)
            record(id, result(id, "error", 0, Failures.clean(new ClassNotFoundException("test class " + e.getKey() + " was not found in the compiled tests"), projectClasses)));
          continue;
        }
        runClass(cls, todo);
      }
      if (stopOnFailure && anyFailure(e.getValue())) stopAtFailure();
    }
  }

  private void runSuite(List<String> testClasses, Set<String> exclude, boolean stopOnFailure) {
    for (String name : testClasses) {
      if (!goOn()) return;
      if (excluded.contains(name)) continue;
      if (System.currentTimeMillis() > deadline) {
        if (Thread.currentThread() == attempt) stopped = "wall-clock";
        return;
      }
      Class<?> cls;
      List<String> plan;
      try {
        cls = Class.forName(name, false, loaderForClass());
        plan = plans.get(name);
        if (plan == null) {
          plan = new ArrayList<>(engine.plan(cls));
          plan.removeIf(id -> !ownedBy(id, name));
          plans.put(name, plan);
        }
      } catch (Throwable t) {
        String id = TestEngine.id(name, "initializationError");
        if (!hasResult(id)) record(id, result(id, "error", 0, Failures.clean(t, projectClasses)));
        if (stopOnFailure) stopAtFailure();
        continue;
      }
      Set<String> selected = new LinkedHashSet<>(plan);
      selected.removeAll(exclude);
      selected.removeAll(excluded);
      if (selected.isEmpty()) continue;
      Set<String> todo = new LinkedHashSet<>();
      for (String id : selected) if (!hasResult(id)) todo.add(id);
      if (!todo.isEmpty()) runClass(cls, todo);
      if (stopOnFailure && anyFailure(selected)) stopAtFailure();
    }
  }

  /** The loader the next test class comes from (and the test thread's context loader while it runs). */
  private ClassLoader loaderForClass() {
    if (loaderPerClass == null) return loader;
    ClassLoader fresh = loaderPerClass.get();
    Thread.currentThread().setContextClassLoader(fresh);
    return fresh;
  }

  private static Map<String, Object> result(String id, String status, long ms, Map<String, Object> failure) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("id", id);
    r.put("status", status);
    r.put("durationMs", ms);
    if (failure != null) r.put("failure", failure);
    return r;
  }

  private static int rank(String status) {
    switch (status) {
      case "timeout": return 5;
      case "error": return 4;
      case "fail": return 3;
      case "pass": return 2;
      case "skipped": return 1;
      default: return 0;
    }
  }

  /** Collects one class run's events; synchronized because the test thread and the watchdog both touch it. */
  private final class Recorder implements TestEngine.Events {
    final Set<String> remaining;
    /** the class this recorder runs: events about tests it does not answer for are dropped (ownedBy) */
    final String cls;
    String current;
    long currentStart;
    Throwable classFailure;
    /** set when the watchdog gives up on this run: later events from the dying thread are ignored */
    boolean closed;
    Runnable stopHook;
    final Map<String, Long> startedAt = new LinkedHashMap<>();

    @Override
    public synchronized void onStop(Runnable stop) {
      stopHook = stop;
    }

    /** Closes the recorder, records `status` for the running test, and returns the engine's stop hook. */
    synchronized Runnable close(String status, Map<String, Object> failure) {
      closed = true;
      if (current != null) {
        synchronized (results) {
          results.put(current, result(current, status, System.currentTimeMillis() - currentStart, failure));
        }
        remaining.remove(current);
        current = null;
      }
      return stopHook;
    }

    /** the attempt (test thread) that made this recorder: once it is given up on, its events are dropped */
    final Thread owner = Thread.currentThread();

    Recorder(String cls, Set<String> remaining) {
      this.cls = cls;
      this.remaining = remaining;
    }

    /** events of a closed recorder, or of an attempt given up on, are late: the watchdog has answered for them */
    private boolean late() {
      return closed || owner != attempt;
    }

    /** late, or about a test this class does not answer for */
    private boolean ignored(String id) {
      return late() || id == null || !id.contains("::") || !ownedBy(id, cls);
    }

    @Override
    public synchronized void started(String id) {
      if (ignored(id)) return;
      current = id;
      currentStart = System.currentTimeMillis();
      startedAt.putIfAbsent(id, currentStart);
      if (hooks != null) hooks.before(id);
    }

    @Override
    public synchronized void finished(String id, String status, Throwable failure) {
      if (ignored(id)) return;
      long start = startedAt.getOrDefault(id, System.currentTimeMillis());
      long ms = System.currentTimeMillis() - start;
      if (failure instanceof VirtualMachineError) {
        poisoned = true;
        if (poisonReason == null) poisonReason = "the JVM hit " + failure.getClass().getSimpleName();
      }
      if (hooks != null && startedAt.containsKey(id)) hooks.after(id, status.equals("pass"));
      synchronized (results) {
        Map<String, Object> prev = results.get(id);
        // repeated invocations (parameterized, dynamic) fold into one result: the worst status wins
        if (prev == null || rank(status) > rank((String) prev.get("status"))) {
          results.put(id, result(id, status, ms, failure == null ? null : Failures.clean(failure, projectClasses)));
        }
      }
      remaining.remove(id);
      if (id.equals(current)) current = null;
    }

    @Override
    public synchronized void classFailed(Throwable failure) {
      if (late()) return;
      if (classFailure == null) classFailure = failure;
    }
  }

  /** Stops a test thread: the engine's cooperative stop, then Thread.stop until it dies (the JVM is poisoned after). */
  @SuppressWarnings("deprecation")
  private void stopThread(Thread t, Runnable engineStop) {
    if (engineStop != null) {
      try {
        engineStop.run();
      } catch (RuntimeException ignored) {
        // best effort
      }
    }
    long until = System.currentTimeMillis() + 3000;
    while (t.isAlive() && System.currentTimeMillis() < until) {
      // engines catch ThreadDeath as a test failure and go on with the next test: stop again until the thread ends
      t.stop();
      try {
        t.join(50);
      } catch (InterruptedException e) {
        // only code under test can interrupt the harness thread: keep stopping
      }
    }
    poisoned = true;
    if (poisonReason == null) poisonReason = "a test ran past its time limit";
  }

  /**
   * Watches the test thread until its run ends (true: a test ran past its timeout and was stopped with the thread;
   * the run goes on on a new one) — false when the run is over (done, or stopped at the wall clock).
   */
  private boolean watch(Thread t, java.util.concurrent.CountDownLatch done) {
    while (true) {
      try {
        if (done.await(10, java.util.concurrent.TimeUnit.MILLISECONDS)) return false;
      } catch (InterruptedException e) {
        // only code under test can interrupt the harness thread: the watch goes on (and the flag stays cleared)
        continue;
      }
      if (!t.isAlive()) return false;
      long now = System.currentTimeMillis();
      Recorder rec = running;
      Runnable stopHook = null;
      boolean overTime = false;
      boolean overWall = now > deadline;
      if (overWall) {
        if (rec == null) attempt = null; // from here on the dying thread records nothing
        else {
          synchronized (rec) {
            // under the recorder's lock, so the end of a class run either records before this or sees it closed
            attempt = null;
            stopHook = rec.close("timeout", timeoutFailure("the validation's wall clock"));
          }
        }
      } else if (rec != null) {
        synchronized (rec) {
          // decided under the recorder's lock so a test that just finished is never marked as timed out
          if (!rec.closed && rec.current != null && now - rec.currentStart > perTestTimeoutMs) {
            overTime = true;
            attempt = null;
            stopHook = rec.close("timeout", timeoutFailure("its " + perTestTimeoutMs + " ms limit"));
          }
        }
      }
      if (overWall) {
        stopThread(t, stopHook);
        stopped = "wall-clock";
        if (rec != null) {
          synchronized (results) {
            for (String id : rec.remaining) results.putIfAbsent(id, result(id, "not-run", 0, null));
          }
        }
        return false;
      }
      if (overTime) {
        stopThread(t, stopHook);
        return true;
      }
    }
  }

  /** Runs some tests of one class on the test thread (the current one) and records what the engine did not report. */
  private void runClass(Class<?> cls, Set<String> selected) {
    Recorder rec = new Recorder(cls.getName(), new LinkedHashSet<>(selected));
    Thread.interrupted(); // each class starts uninterrupted, as on a fresh thread
    running = rec;
    Throwable crash = null;
    try {
      engine.run(cls, new LinkedHashSet<>(selected), rec);
    } catch (ThreadDeath stoppedByWatchdog) {
      throw stoppedByWatchdog; // this attempt was given up on: no further tests on this thread
    } catch (Throwable x) {
      crash = x;
    }
    if (running == rec) running = null; // (a thread that outlived its stop must not clear a newer attempt's run)
    synchronized (rec) {
      if (rec.closed) return;
      rec.current = null;
      Throwable why = rec.classFailure != null ? rec.classFailure : crash;
      for (String id : rec.remaining) {
        if (why != null) record(id, result(id, TestEngine.statusOf(why), 0, Failures.clean(why, projectClasses)));
        else record(id, result(id, "error", 0, Failures.clean(new IllegalArgumentException("no test named " + id + " was found"), projectClasses)));
      }
      rec.remaining.clear();
    }
  }

  private Map<String, Object> timeoutFailure(String limit) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("exception", "repairlab.Timeout");
    f.put("message", "test stopped after exceeding " + limit);
    f.put("frames", new ArrayList<String>());
    f.put("omittedFrames", 0);
    return f;
  }

  /**
   * The suite as this run planned it: every test class it was given → the test ids its engine listed (empty for a
   * class without tests; its initializationError id when it could not be loaded). The runner checks a pass against it.
   */
  Map<String, List<String>> suite(List<String> testClasses) {
    Map<String, List<String>> out = new TreeMap<>();
    for (String name : testClasses) {
      // an excluded class is planned empty, an excluded test left out of its class's plan: a suite run accounts
      // for neither
      if (excluded.contains(name)) {
        out.put(name, List.of());
        continue;
      }
      List<String> plan = plans.get(name);
      if (plan != null) {
        List<String> kept = new ArrayList<>(plan);
        kept.removeAll(excluded);
        out.put(name, kept);
      }
      else if (hasResult(TestEngine.id(name, "initializationError"))) out.put(name, List.of(TestEngine.id(name, "initializationError")));
    }
    return out;
  }

  List<Map<String, Object>> resultList() {
    synchronized (results) {
      return new ArrayList<>(results.values());
    }
  }
}
