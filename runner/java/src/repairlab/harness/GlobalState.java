package repairlab.harness;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.HashSet;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.TimeZone;

/**
 * The JVM-wide state a test can change and a later validation on the same warm worker would see: default locales
 * (every category), time zone, system properties, standard streams, the default uncaught-exception handler. Taken
 * before a validation and put back after it. Threads and processes cannot be put back: `leftovers` names any the
 * validation started, and the worker is then replaced (poisoned).
 */
final class GlobalState {
  private final Locale locale = Locale.getDefault();
  private final Locale display = Locale.getDefault(Locale.Category.DISPLAY);
  private final Locale format = Locale.getDefault(Locale.Category.FORMAT);
  private final TimeZone zone = (TimeZone) TimeZone.getDefault().clone();
  private final Properties properties = copy(System.getProperties());
  private final PrintStream out = System.out;
  private final PrintStream err = System.err;
  private final InputStream in = System.in;
  private final Thread.UncaughtExceptionHandler handler = Thread.getDefaultUncaughtExceptionHandler();
  private final Set<Thread> threads = liveThreads();
  private final Set<Long> processes;
  private final boolean privatePids;

  GlobalState(boolean privatePids) {
    this.privatePids = privatePids;
    this.processes = processes(privatePids);
  }

  private static Properties copy(Properties p) {
    Properties c = new Properties();
    for (String k : p.stringPropertyNames()) c.setProperty(k, p.getProperty(k));
    return c;
  }

  static Set<Thread> liveThreads() {
    ThreadGroup root = Thread.currentThread().getThreadGroup();
    while (root.getParent() != null) root = root.getParent();
    Thread[] all = new Thread[root.activeCount() + 32];
    int n = root.enumerate(all, true);
    Set<Thread> live = new HashSet<>();
    for (int i = 0; i < n; i++) if (all[i].isAlive()) live.add(all[i]);
    return live;
  }

  /**
   * Other processes than this JVM and its ancestors: in a private PID namespace (bubblewrap) every process there,
   * elsewhere only this JVM's descendants (a container can hold other workers).
   */
  static Set<Long> processes(boolean privatePids) {
    Set<Long> out = new HashSet<>();
    ProcessHandle self = ProcessHandle.current();
    if (!privatePids) {
      self.descendants().forEach(p -> out.add(p.pid()));
      return out;
    }
    Set<Long> ancestors = new HashSet<>();
    for (ProcessHandle p = self; p != null; p = p.parent().orElse(null)) ancestors.add(p.pid());
    ProcessHandle.allProcesses().forEach(p -> {
      if (!ancestors.contains(p.pid()) && p.isAlive()) out.add(p.pid());
    });
    return out;
  }

  /** Puts the state back. */
  void restore() {
    Locale.setDefault(locale);
    Locale.setDefault(Locale.Category.DISPLAY, display);
    Locale.setDefault(Locale.Category.FORMAT, format);
    TimeZone.setDefault((TimeZone) zone.clone());
    System.setProperties(copy(properties));
    System.setOut(out);
    System.setErr(err);
    System.setIn(in);
    Thread.setDefaultUncaughtExceptionHandler(handler);
  }

  /**
   * What the validation left that cannot be put back: a thread (daemon or not, sleeping or running) that was not
   * there before — `ending` is the test thread that finished and is on its way out — or a process. Null if none.
   */
  String leftovers(Thread ending) {
    if (ending != null) {
      try {
        ending.join(2000);
      } catch (InterruptedException e) {
        // only code under test interrupts harness threads: judge what is there now
      }
    }
    for (Thread t : liveThreads()) {
      if (!threads.contains(t)) return "a test left thread '" + t.getName() + "' (" + (t.isDaemon() ? "daemon, " : "") + t.getState() + ")";
    }
    for (long pid : processes(privatePids)) {
      if (!processes.contains(pid)) return "a test left process " + pid + " running";
    }
    return null;
  }
}
