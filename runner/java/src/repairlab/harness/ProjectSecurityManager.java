package repairlab.harness;

/**
 * Template of the slot through which code under test installs its own security manager. Every ProjectLoader defines
 * a copy named {@link ProjectLoader#SECURITY_SLOT}, and SecurityManagerCalls points the project's calls to
 * {@code System.setSecurityManager} / {@code getSecurityManager} at it. Tests do install one: jackson-databind's
 * AccessFixTest (JacksonDatabind-58's trigger test) blocks {@code suppressAccessChecks} to check that Jackson no
 * longer forces access to Throwable.cause. Replacing the runner's guard would end verdict integrity, so the guard
 * stays, refuses what it refuses, and then asks the project's manager whenever that project's code asks for a
 * permission (Guard.checkPermission). A copy per loader keeps validations apart.
 */
public final class ProjectSecurityManager {
  /** the manager the project installed; null while none is */
  public static volatile SecurityManager installed;

  private ProjectSecurityManager() {}

  /** What {@code System.getSecurityManager()} answers code under test: its own manager, else the runner's. */
  public static SecurityManager getSecurityManager() {
    SecurityManager own = installed;
    return own != null ? own : System.getSecurityManager();
  }

  /** {@code System.setSecurityManager} for code under test; putting back the manager it found uninstalls its own. */
  public static void setSecurityManager(SecurityManager manager) {
    installed = manager == System.getSecurityManager() ? null : manager;
  }
}
