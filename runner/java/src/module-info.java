/**
 * The harness as a named module that exports and opens nothing. Code under test lives in the unnamed modules of its
 * class loaders; reflection from there cannot reach into this module's objects (InaccessibleObjectException), whatever
 * java.base packages a layout opens — neither the test session's results nor the guard's own state. JUnit, JaCoCo and
 * the project's jars stay on the class path: the runner adds `--add-reads repairlab.harness=ALL-UNNAMED` to read them.
 */
module repairlab.harness {
  requires java.compiler;
  requires jdk.compiler;
  requires java.management;
  // LogManager: the logging configuration a test changes is put back after it (GlobalState)
  requires java.logging;
  // sun.reflect.ReflectionFactory, for UnsafeAllocateOnly
  requires jdk.unsupported;
}
