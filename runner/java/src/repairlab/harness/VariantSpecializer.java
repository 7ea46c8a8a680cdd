package repairlab.harness;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import jdk.internal.org.objectweb.asm.ClassReader;
import jdk.internal.org.objectweb.asm.ClassWriter;
import jdk.internal.org.objectweb.asm.tree.AbstractInsnNode;
import jdk.internal.org.objectweb.asm.tree.ClassNode;
import jdk.internal.org.objectweb.asm.tree.LineNumberNode;
import jdk.internal.org.objectweb.asm.tree.MethodNode;

/**
 * Rebuilds one variant's classes from a merged compile (see {@link VariantMerge}): the code of the copy the variant
 * uses moves into the method it stands for (whose declaration — access, annotations, signature — is kept), every copy
 * is removed, and line numbers are mapped back to the variant's own file. Uses the ASM that ships inside the JDK
 * (java.base's jdk.internal.org.objectweb.asm, exported to the harness by a JVM flag).
 */
final class VariantSpecializer {
  private VariantSpecializer() {}

  /** Whether a class file was compiled from the merged file (same source file name and package). */
  static boolean fromFile(byte[] bytes, String packageInternal, String sourceFileName) {
    ClassReader reader = new ClassReader(bytes);
    String name = reader.getClassName();
    String pkg = name.lastIndexOf('/') < 0 ? "" : name.substring(0, name.lastIndexOf('/'));
    if (!pkg.equals(packageInternal)) return false;
    ClassNode header = new ClassNode();
    reader.accept(header, ClassReader.SKIP_CODE | ClassReader.SKIP_FRAMES);
    return sourceFileName.equals(header.sourceFile);
  }

  /**
   * @param transplants copy method name → the method it stands for
   * @param lineMap merged line → the variant's line (0: leave as is)
   */
  static byte[] specialize(byte[] bytes, Map<String, String> transplants, int[] lineMap) {
    ClassNode cls = new ClassNode();
    new ClassReader(bytes).accept(cls, 0);
    Map<String, MethodNode> copies = new HashMap<>();
    for (Iterator<MethodNode> it = cls.methods.iterator(); it.hasNext(); ) {
      MethodNode m = it.next();
      if (m.name.startsWith(VariantMerge.COPY_PREFIX)) {
        copies.put(m.name, m);
        it.remove();
      }
    }
    for (MethodNode target : cls.methods) {
      for (Map.Entry<String, String> t : transplants.entrySet()) {
        MethodNode copy = copies.get(t.getKey());
        if (copy != null && target.name.equals(t.getValue()) && target.desc.equals(copy.desc)) transplant(copy, target);
      }
      for (Iterator<AbstractInsnNode> it = target.instructions.iterator(); it.hasNext(); ) {
        AbstractInsnNode insn = it.next();
        if (insn instanceof LineNumberNode) {
          LineNumberNode ln = (LineNumberNode) insn;
          if (ln.line > 0 && ln.line < lineMap.length && lineMap[ln.line] > 0) ln.line = lineMap[ln.line];
        }
      }
    }
    ClassWriter writer = new ClassWriter(0);
    cls.accept(writer);
    return writer.toByteArray();
  }

  /** The copy's code (with its handlers, locals and stack sizes) under the target's declaration. */
  private static void transplant(MethodNode copy, MethodNode target) {
    target.instructions = copy.instructions;
    target.tryCatchBlocks = copy.tryCatchBlocks;
    target.localVariables = copy.localVariables;
    target.visibleLocalVariableAnnotations = copy.visibleLocalVariableAnnotations;
    target.invisibleLocalVariableAnnotations = copy.invisibleLocalVariableAnnotations;
    target.maxStack = copy.maxStack;
    target.maxLocals = copy.maxLocals;
  }
}
