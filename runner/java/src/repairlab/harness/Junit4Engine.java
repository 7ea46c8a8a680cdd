package repairlab.harness;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.runner.Description;
import org.junit.runner.Request;
import org.junit.runner.Runner;
import org.junit.runner.manipulation.Filter;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;
import org.junit.runner.notification.RunNotifier;

/** JUnit 4 and JUnit 3 (TestCase) classes through JUnit 4's runners, as JUnitCore would run them. */
final class Junit4Engine implements TestEngine {
  /** the runner plan() built, reused by the run() of the same class that follows (building one is reflection-heavy) */
  private final java.util.Map<Class<?>, Runner> planned = new java.util.WeakHashMap<>();

  @Override
  public List<String> plan(Class<?> cls) {
    if (!looksLikeTestClass(cls)) return new ArrayList<>();
    Runner runner = Request.aClass(cls).getRunner();
    synchronized (planned) {
      planned.clear();
      planned.put(cls, runner);
    }
    Set<String> ids = new LinkedHashSet<>();
    collect(runner.getDescription(), ids);
    return new ArrayList<>(ids);
  }

  private static boolean looksLikeTestClass(Class<?> cls) {
    int mod = cls.getModifiers();
    if (java.lang.reflect.Modifier.isAbstract(mod) || cls.isInterface() || !java.lang.reflect.Modifier.isPublic(mod)) return false;
    if (junit.framework.Test.class.isAssignableFrom(cls)) return true;
    if (cls.isAnnotationPresent(org.junit.runner.RunWith.class)) return true;
    for (java.lang.reflect.Method m : cls.getMethods()) {
      if (m.isAnnotationPresent(org.junit.Test.class)) return true;
    }
    return false;
  }

  private static void collect(Description d, Set<String> ids) {
    if (d.isTest()) {
      if (d.getMethodName() != null) ids.add(TestEngine.id(d.getClassName(), d.getMethodName()));
      return;
    }
    for (Description c : d.getChildren()) collect(c, ids);
  }

  @Override
  public void run(Class<?> cls, Set<String> selected, Events events) {
    // Description.getMethodName() matches a regex on every call: one lookup per description and run
    java.util.Map<Description, String> ids = new java.util.IdentityHashMap<>();
    java.util.function.Function<Description, String> idOf = d -> ids.computeIfAbsent(d, Junit4Engine::idOf);
    Runner built;
    synchronized (planned) {
      built = planned.remove(cls);
    }
    Request request = (built != null ? Request.runner(built) : Request.aClass(cls)).filterWith(new Filter() {
      @Override
      public boolean shouldRun(Description d) {
        if (d.isTest()) return d.getMethodName() != null && selected.contains(idOf.apply(d));
        for (Description c : d.getChildren()) if (shouldRun(c)) return true;
        return false;
      }

      @Override
      public String describe() {
        return "RepairLab selection";
      }
    });
    RunNotifier notifier = new RunNotifier();
    events.onStop(notifier::pleaseStop);
    notifier.addListener(new RunListener() {
      private final Set<String> failed = new LinkedHashSet<>();

      @Override
      public void testStarted(Description d) {
        events.started(idOf.apply(d));
      }

      @Override
      public void testFailure(Failure f) {
        Description d = f.getDescription();
        if (d.getMethodName() == null) {
          events.classFailed(f.getException());
          return;
        }
        String id = idOf.apply(d);
        failed.add(id);
        events.finished(id, TestEngine.statusOf(f.getException()), f.getException());
      }

      @Override
      public void testAssumptionFailure(Failure f) {
        String id = idOf.apply(f.getDescription());
        failed.add(id);
        // the assumption's exception travels with the skip: the runner says why a skip counted as a failure
        events.finished(id, "skipped", f.getException());
      }

      @Override
      public void testIgnored(Description d) {
        events.finished(idOf.apply(d), "skipped", null);
      }

      @Override
      public void testFinished(Description d) {
        String id = idOf.apply(d);
        if (!failed.remove(id)) events.finished(id, "pass", null);
      }
    });
    request.getRunner().run(notifier);
  }

  private static String idOf(Description d) {
    return TestEngine.id(d.getClassName(), d.getMethodName());
  }
}
