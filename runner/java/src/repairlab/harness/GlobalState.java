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
 * (every category), time zone, system properties, standard streams, the default uncaught-exception handler and the
 * logging configuration (levels, handlers, filters). Taken before a validation and put back after it. What cannot be
 * put back — threads, processes, and the JVM-wide settings the guard saw code under test change (security providers
 * and properties, default authenticator, proxy selector, cookie handler, response cache, TLS defaults) — is named by
 * `leftovers`, and the worker is then replaced (poisoned): nothing a validation did reaches the next one.
 */
final class GlobalState {
  /** JVM-wide settings code under test changed since the last `leftovers` (Guard notes them as it allows them) */
  private static final Set<String> CHANGED = java.util.concurrent.ConcurrentHashMap.newKeySet();
  /**
   * Every logger as it was before code under test first changed the logging configuration since the last restore
   * (null: unchanged). Taken then, from the guard's check that precedes the change, not before every validation: it
   * costs nothing for suites that leave logging alone, and the harness never starts the LogManager itself (its root
   * handler would bind to whatever System.err is at that moment).
   */
  private static java.util.Map<String, LoggerState> loggingBefore;

  static void noteChanged(String what) {
    CHANGED.add(what);
  }

  static synchronized void noteLoggingChanging() {
    if (loggingBefore == null) loggingBefore = loggers();
  }

  private static synchronized java.util.Map<String, LoggerState> takeLoggingBefore() {
    java.util.Map<String, LoggerState> was = loggingBefore;
    loggingBefore = null;
    return was;
  }

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

  /** One logger's configuration (held strongly for the validation, so a logger seen before it is the one put back). */
  private record LoggerState(java.util.logging.Logger logger, java.util.logging.Level level, java.util.logging.Handler[] handlers,
      java.util.logging.Level[] handlerLevels, boolean useParentHandlers, java.util.logging.Filter filter) {}

  private static java.util.Map<String, LoggerState> loggers() {
    java.util.logging.LogManager manager = java.util.logging.LogManager.getLogManager();
    java.util.Map<String, LoggerState> out = new java.util.HashMap<>();
    for (java.util.Enumeration<String> names = manager.getLoggerNames(); names.hasMoreElements();) {
      java.util.logging.Logger l = manager.getLogger(names.nextElement());
      if (l == null) continue;
      java.util.logging.Handler[] handlers = l.getHandlers();
      java.util.logging.Level[] levels = new java.util.logging.Level[handlers.length];
      for (int i = 0; i < handlers.length; i++) levels[i] = handlers[i].getLevel();
      out.put(l.getName(), new LoggerState(l, l.getLevel(), handlers, levels, l.getUseParentHandlers(), l.getFilter()));
    }
    return out;
  }

  /** Puts every logger back as it was; a logger made during the validation is left inheriting, with no handlers. */
  private static void restoreLogging(java.util.Map<String, LoggerState> loggers) {
    java.util.logging.LogManager manager = java.util.logging.LogManager.getLogManager();
    for (java.util.Enumeration<String> names = manager.getLoggerNames(); names.hasMoreElements();) {
      String name = names.nextElement();
      java.util.logging.Logger l = manager.getLogger(name);
      if (l == null) continue;
      LoggerState was = loggers.get(name);
      for (java.util.logging.Handler h : l.getHandlers()) l.removeHandler(h);
      if (was == null || was.logger() != l) {
        l.setLevel(null);
        l.setUseParentHandlers(true);
        l.setFilter(null);
        continue;
      }
      l.setLevel(was.level());
      l.setUseParentHandlers(was.useParentHandlers());
      l.setFilter(was.filter());
      for (int i = 0; i < was.handlers().length; i++) {
        was.handlers()[i].setLevel(was.handlerLevels()[i]);
        l.addHandler(was.handlers()[i]);
      }
    }
  }

  /** Puts the state back. */
  void restore() {
    java.util.Map<String, LoggerState> logging = takeLoggingBefore();
    if (logging != null) restoreLogging(logging);
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
    if (!CHANGED.isEmpty()) {
      String what = String.join(", ", new java.util.TreeSet<>(CHANGED));
      CHANGED.clear();
      return "a test changed JVM-wide settings that cannot be put back (" + what + ")";
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
