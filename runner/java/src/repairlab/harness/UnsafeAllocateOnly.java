package repairlab.harness;

import java.lang.reflect.Modifier;

/**
 * The `sun.misc.Unsafe` code under test sees when its layout asks for `sunMiscUnsafe: "allocate-only"` (ProjectLoader
 * defines this class's bytes under that name, in the project's loader). Libraries of the Java 8 era allocate objects
 * without running a constructor through `theUnsafe.allocateInstance` (Gson's UnsafeAllocator: deserializing a class
 * without a no-args constructor); the real Unsafe also reads and writes raw memory, which would let a patch forge the
 * harness's verdict, so the guard refuses it. This one has allocateInstance alone, made the way serialization makes
 * objects (ReflectionFactory, which Objenesis uses too): no constructor of the class runs. It names no other class of
 * the harness: it must resolve in the project's loader.
 */
public final class UnsafeAllocateOnly {
  private static final UnsafeAllocateOnly theUnsafe = new UnsafeAllocateOnly();

  private UnsafeAllocateOnly() {}

  /** As Java 8's for code outside the JDK: such code reads the theUnsafe field instead. */
  public static UnsafeAllocateOnly getUnsafe() {
    throw new SecurityException("Unsafe");
  }

  /** An instance of `type` whose constructors did not run, as Unsafe.allocateInstance; InstantiationException where it throws one. */
  public Object allocateInstance(Class<?> type) throws InstantiationException {
    if (type.isInterface() || type.isArray() || type.isPrimitive() || Modifier.isAbstract(type.getModifiers()) || type == Class.class) {
      throw new InstantiationException(type.getName());
    }
    try {
      return sun.reflect.ReflectionFactory.getReflectionFactory()
          .newConstructorForSerialization(type, Object.class.getDeclaredConstructor())
          .newInstance();
    } catch (ReflectiveOperationException e) {
      InstantiationException failure = new InstantiationException(type.getName());
      failure.initCause(e);
      throw failure;
    }
  }
}
