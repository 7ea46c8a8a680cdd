package repairlab.harness;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.PostDiscoveryFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.engine.FilterResult;

/** JUnit 5: Jupiter tests, plus JUnit 3/4 tests through the vintage engine, via the platform launcher. */
final class PlatformEngine implements TestEngine {
  private final Launcher launcher = LauncherFactory.create();

  private static Optional<String> idOf(TestIdentifier t) {
    Optional<TestSource> s = t.getSource();
    if (s.isPresent() && s.get() instanceof MethodSource) {
      MethodSource m = (MethodSource) s.get();
      return Optional.of(TestEngine.id(m.getClassName(), m.getMethodName()));
    }
    return Optional.empty();
  }

  private LauncherDiscoveryRequest request(Class<?> cls, Set<String> selected) {
    LauncherDiscoveryRequestBuilder b = LauncherDiscoveryRequestBuilder.request().selectors(DiscoverySelectors.selectClass(cls));
    if (selected != null) {
      b.filters((PostDiscoveryFilter) descriptor -> {
        Optional<TestSource> s = descriptor.getSource();
        if (s.isPresent() && s.get() instanceof MethodSource) {
          MethodSource m = (MethodSource) s.get();
          return selected.contains(TestEngine.id(m.getClassName(), m.getMethodName()))
              ? FilterResult.included("selected")
              : FilterResult.excluded("not selected");
        }
        return FilterResult.included("container");
      });
    }
    return b.build();
  }

  @Override
  public List<String> plan(Class<?> cls) {
    if (java.lang.reflect.Modifier.isAbstract(cls.getModifiers()) || cls.isInterface()) return new ArrayList<>();
    TestPlan plan = launcher.discover(request(cls, null));
    Set<String> ids = new LinkedHashSet<>();
    for (TestIdentifier root : plan.getRoots()) {
      for (TestIdentifier t : plan.getDescendants(root)) {
        // a @ParameterizedTest / @TestFactory is a container with a MethodSource: its invocations fold into one id
        idOf(t).ifPresent(ids::add);
      }
    }
    return new ArrayList<>(ids);
  }

  @Override
  public void run(Class<?> cls, Set<String> selected, Events events) {
    launcher.execute(request(cls, selected), new TestExecutionListener() {
      @Override
      public void executionStarted(TestIdentifier t) {
        if (t.isTest()) idOf(t).ifPresent(events::started);
      }

      @Override
      public void executionSkipped(TestIdentifier t, String reason) {
        idOf(t).ifPresent(id -> events.finished(id, "skipped", null));
      }

      @Override
      public void executionFinished(TestIdentifier t, TestExecutionResult r) {
        Optional<String> id = idOf(t);
        Throwable x = r.getThrowable().orElse(null);
        if (t.isTest() && id.isPresent()) {
          switch (r.getStatus()) {
            case SUCCESSFUL: events.finished(id.get(), "pass", null); break;
            case ABORTED: events.finished(id.get(), "skipped", x); break;
            default: events.finished(id.get(), TestEngine.statusOf(x), x);
          }
        } else if (r.getStatus() == TestExecutionResult.Status.FAILED) {
          if (id.isPresent()) events.finished(id.get(), TestEngine.statusOf(x), x);
          else events.classFailed(x);
        }
      }
    });
  }
}
