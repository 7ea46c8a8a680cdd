package repairlab.harness;

import java.security.Permission;

/**
 * Keeps code under test from ending the harness JVM or starting processes. The OS sandbox (bubblewrap /
 * Docker) is the real boundary; this guard turns System.exit and process forks into a reported test error
 * instead of a lost worker. (SecurityManager is deprecated but still functional on JDK 17.)
 */
final class Guard extends SecurityManager {
  static volatile boolean harnessExiting = false;

  @Override
  public void checkPermission(Permission perm) {
    if (perm instanceof RuntimePermission) {
      String name = perm.getName();
      if (name.startsWith("exitVM") && !harnessExiting) {
        throw new SecurityException("System.exit(" + name.substring(Math.min(name.length(), 7)) + ") called by the code under test was blocked by the RepairLab runner");
      }
      if (name.equals("setSecurityManager")) {
        throw new SecurityException("Replacing the security manager is blocked by the RepairLab runner");
      }
    }
  }

  @Override
  public void checkPermission(Permission perm, Object context) {
    checkPermission(perm);
  }

  @Override
  public void checkExec(String cmd) {
    throw new SecurityException("Starting a process (" + cmd + ") is blocked by the RepairLab runner");
  }

  static void exit(int code) {
    harnessExiting = true;
    Runtime.getRuntime().halt(code);
  }
}
