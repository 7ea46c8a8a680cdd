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
 * suite), listed, or all. Each class runs on a thread in a private thread group; a test over its timeout is stopped
 * and the worker marked poisoned (the Node side then replaces the JVM).
 */
final class TestSession {
  final TestEngine engine;
  final ClassLoader loader;
  final Set<String> projectClasses;
  final long perTestTimeoutMs;
  final long deadline;
  final ThreadGroup group;
  final Map<String, Map<String, Object>> results = new LinkedHashMap<>();
  /** optional per-test hook (coverage): called on the test thread before a test starts and after it ends */
  TestHooks hooks;
  String stopped = "none";
  boolean poisoned = false;
  String poisonReason = null;

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

  private boolean anyFailure(Iterable<String> ids) {
    for (String id : ids) {
      Map<String, Object> r = results.get(id);
      if (r != null && isFailure((String) r.get("status"))) return true;
    }
    return false;
  }

  static boolean isFailure(String status) {
    return status.equals("fail") || status.equals("error") || status.equals("timeout");
  }

  void run(String mode, List<String> listed, List<String> testClasses) {
    if (mode.equals("listed")) {
      runGrouped(listed, false);
    } else if (mode.equals("all")) {
      runSuite(testClasses, new LinkedHashSet<>(), false);
    } else {
      // failing-first: each listed test alone, stop at the first failure; then the rest of the suite
      for (String id : listed) {
        if (!stopped.equals("none")) break;
        runGrouped(List.of(id), true);
        if (anyFailure(List.of(id)) && stopped.equals("none")) stopped = "first-failure";
      }
      if (stopped.equals("none")) runSuite(testClasses, new LinkedHashSet<>(listed), true);
      for (String id : listed) results.computeIfAbsent(id, k -> result(k, "not-run", 0, null));
    }
    endTestThread();
    checkLeakedThreads();
  }

  private void runGrouped(List<String> ids, boolean stopOnFailure) {
    Map<String, List<String>> byClass = new TreeMap<>();
    for (String id : ids) byClass.computeIfAbsent(classOf(id), k -> new ArrayList<>()).add(id);
    for (Map.Entry<String, List<String>> e : byClass.entrySet()) {
      if (!stopped.equals("none")) return;
      Class<?> cls;
      try {
        cls = Class.forName(e.getKey(), false, loader);
      } catch (Throwable t) {
        for (String id : e.getValue())
          results.put(id, result(id, "error", 0, Failures.clean(new ClassNotFoundException("test class " + e.getKey() + " was not found in the compiled tests"), projectClasses)));
        continue;
      }
      runClass(cls, new LinkedHashSet<>(e.getValue()));
      if (stopOnFailure && anyFailure(e.getValue()) && stopped.equals("none")) stopped = "first-failure";
    }
  }

  private void runSuite(List<String> testClasses, Set<String> exclude, boolean stopOnFailure) {
    for (String name : testClasses) {
      if (!stopped.equals("none")) return;
      if (System.currentTimeMillis() > deadline) {
        stopped = "wall-clock";
        return;
      }
      Class<?> cls;
      List<String> plan;
      try {
        cls = Class.forName(name, false, loader);
        plan = engine.plan(cls);
      } catch (Throwable t) {
        String id = TestEngine.id(name, "initializationError");
        results.put(id, result(id, "error", 0, Failures.clean(t, projectClasses)));
        if (stopOnFailure) stopped = "first-failure";
        continue;
      }
      Set<String> selected = new LinkedHashSet<>(plan);
      selected.removeAll(exclude);
      if (selected.isEmpty()) continue;
      runClass(cls, selected);
      if (stopOnFailure && anyFailure(selected) && stopped.equals("none")) stopped = "first-failure";
    }
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
        results.put(current, result(current, status, System.currentTimeMillis() - currentStart, failure));
        remaining.remove(current);
        current = null;
      }
      return stopHook;
    }

    Recorder(Set<String> remaining) {
      this.remaining = remaining;
    }

    @Override
    public synchronized void started(String id) {
      if (closed) return;
      current = id;
      currentStart = System.currentTimeMillis();
      startedAt.putIfAbsent(id, currentStart);
      if (hooks != null) hooks.before(id);
    }

    @Override
    public synchronized void finished(String id, String status, Throwable failure) {
      if (closed) return;
      long start = startedAt.getOrDefault(id, System.currentTimeMillis());
      long ms = System.currentTimeMillis() - start;
      if (failure instanceof VirtualMachineError) {
        poisoned = true;
        if (poisonReason == null) poisonReason = "the JVM hit " + failure.getClass().getSimpleName();
      }
      if (hooks != null && startedAt.containsKey(id)) hooks.after(id, status.equals("pass"));
      Map<String, Object> prev = results.get(id);
      // repeated invocations (parameterized, dynamic) fold into one result: the worst status wins
      if (prev == null || rank(status) > rank((String) prev.get("status"))) {
        results.put(id, result(id, status, ms, failure == null ? null : Failures.clean(failure, projectClasses)));
      }
      remaining.remove(id);
      if (id.equals(current)) current = null;
    }

    @Override
    public synchronized void classFailed(Throwable failure) {
      if (closed) return;
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
        Thread.currentThread().interrupt();
        break;
      }
    }
    poisoned = true;
    if (poisonReason == null) poisonReason = "a test ran past its time limit";
  }

  /**
   * One thread runs this validation's test classes one after the other, as a build tool's test run does; a thread
   * start costs ~1–2 ms on a busy machine, so one per class adds up over write_fix's variants. A test over its time
   * stops that thread and the next class gets a new one.
   */
  private Thread worker;
  private final java.util.concurrent.LinkedBlockingQueue<Runnable> tasks = new java.util.concurrent.LinkedBlockingQueue<>();
  private static final Runnable END = () -> {};

  private Thread testThread() {
    if (worker != null && worker.isAlive()) return worker;
    tasks.clear();
    Thread t = new Thread(group, () -> {
      while (true) {
        Runnable task;
        try {
          task = tasks.take();
        } catch (InterruptedException e) {
          continue; // a test left its interrupt flag set; only END ends this thread
        }
        if (task == END) return;
        Thread.interrupted(); // each class starts uninterrupted, as on a fresh thread
        task.run();
      }
    }, "repairlab-tests");
    t.setContextClassLoader(loader);
    t.setDaemon(true);
    t.start();
    worker = t;
    return t;
  }

  /** Ends the test thread (before leaked threads are looked for). */
  private void endTestThread() {
    Thread t = worker;
    worker = null;
    if (t == null || !t.isAlive()) return;
    tasks.add(END);
    try {
      t.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void runClass(Class<?> cls, Set<String> selected) {
    Set<String> remaining = new LinkedHashSet<>(selected);
    while (!remaining.isEmpty()) {
      Recorder rec = new Recorder(remaining);
      Set<String> batch = new LinkedHashSet<>(remaining);
      Throwable[] crash = {null};
      java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
      Thread t = testThread();
      tasks.add(() -> {
        try {
          engine.run(cls, batch, rec);
        } catch (Throwable x) {
          crash[0] = x;
        } finally {
          done.countDown();
        }
      });
      boolean timedOut = false;
      while (true) {
        try {
          if (done.await(10, java.util.concurrent.TimeUnit.MILLISECONDS)) break;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        if (!t.isAlive()) break;
        long now = System.currentTimeMillis();
        Runnable stopHook = null;
        boolean overTime = false;
        boolean overWall = now > deadline;
        synchronized (rec) {
          // decided under the recorder's lock so a test that just finished is never marked as timed out
          if (overWall) stopHook = rec.close("timeout", timeoutFailure("the validation's wall clock"));
          else if (rec.current != null && now - rec.currentStart > perTestTimeoutMs) {
            overTime = true;
            stopHook = rec.close("timeout", timeoutFailure("its " + perTestTimeoutMs + " ms limit"));
          }
        }
        if (overWall) {
          stopThread(t, stopHook);
          worker = null;
          stopped = "wall-clock";
          for (String id : remaining) results.putIfAbsent(id, result(id, "not-run", 0, null));
          return;
        }
        if (overTime) {
          stopThread(t, stopHook);
          worker = null;
          timedOut = true;
          break;
        }
      }
      if (timedOut) continue; // run what is left of the class on a fresh thread
      synchronized (rec) {
        Throwable why = rec.classFailure != null ? rec.classFailure : crash[0];
        for (String id : remaining) {
          if (why != null) results.put(id, result(id, TestEngine.statusOf(why), 0, Failures.clean(why, projectClasses)));
          else results.put(id, result(id, "error", 0, Failures.clean(new IllegalArgumentException("no test named " + id + " was found"), projectClasses)));
        }
        remaining.clear();
      }
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

  private void checkLeakedThreads() {
    Thread[] threads = new Thread[group.activeCount() + 8];
    int n = group.enumerate(threads, true);
    for (int i = 0; i < n; i++) {
      Thread t = threads[i];
      // non-daemon threads keep running after the tests; busy daemon threads burn CPU for later validations
      if (t != null && t.isAlive() && (!t.isDaemon() || t.getState() == Thread.State.RUNNABLE)) {
        poisoned = true;
        if (poisonReason == null) poisonReason = "a test left thread '" + t.getName() + "' running";
      }
    }
  }

  List<Map<String, Object>> resultList() {
    return new ArrayList<>(results.values());
  }
}
