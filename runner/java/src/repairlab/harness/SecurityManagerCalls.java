package repairlab.harness;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Points a class file's calls to {@code java.lang.System.setSecurityManager} and {@code getSecurityManager} at another
 * class (ProjectLoader's security slot) by editing its constant pool: the two methods' Methodref entries get a new
 * Class entry, appended to the pool. Nothing else changes (same descriptors, static calls both ways, no stack map to
 * recompute), and no bytecode library runs while code under test is on the stack. Classes that do not name
 * {@code SecurityManager} are returned as they are, unparsed.
 */
final class SecurityManagerCalls {
  private static final byte[] MARK = "SecurityManager".getBytes(StandardCharsets.US_ASCII);

  private SecurityManagerCalls() {}

  static byte[] redirect(byte[] classFile, String slotInternalName) {
    if (!contains(classFile, MARK)) return classFile;
    int count = u2(classFile, 8);
    if (count + 2 > 0xffff) return classFile; // no room for two more entries (no real class comes near)
    int[] offsets = new int[count];
    int pos = 10;
    for (int i = 1; i < count; i++) {
      offsets[i] = pos;
      int tag = classFile[pos] & 0xff;
      switch (tag) {
        case 1: pos += 3 + u2(classFile, pos + 1); break;
        case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18: pos += 5; break;
        case 5: case 6: pos += 9; i++; break;
        case 7: case 8: case 16: case 19: case 20: pos += 3; break;
        case 15: pos += 4; break;
        default: throw new IllegalArgumentException("constant pool tag " + tag + " at entry " + i + " is unknown");
      }
    }
    int poolEnd = pos;
    boolean redirected = false;
    byte[] out = classFile.clone();
    int slotClass = count + 1; // the Utf8 name goes at index `count`, its Class entry after it
    for (int i = 1; i < count; i++) {
      int at = offsets[i];
      if (at == 0 || (classFile[at] & 0xff) != 10) continue;
      int owner = u2(classFile, at + 1);
      int nameAndType = u2(classFile, at + 3);
      if (!"java/lang/System".equals(utf8(classFile, offsets, u2(classFile, offsets[owner] + 1)))) continue;
      String name = utf8(classFile, offsets, u2(classFile, offsets[nameAndType] + 1));
      String type = utf8(classFile, offsets, u2(classFile, offsets[nameAndType] + 3));
      boolean set = name.equals("setSecurityManager") && type.equals("(Ljava/lang/SecurityManager;)V");
      boolean get = name.equals("getSecurityManager") && type.equals("()Ljava/lang/SecurityManager;");
      if (!set && !get) continue;
      out[at + 1] = (byte) (slotClass >> 8);
      out[at + 2] = (byte) slotClass;
      redirected = true;
    }
    if (!redirected) return classFile;
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(classFile.length + slotInternalName.length() + 8);
      DataOutputStream data = new DataOutputStream(bytes);
      data.write(out, 0, 8);
      data.writeShort(count + 2);
      data.write(out, 10, poolEnd - 10);
      data.writeByte(1);
      data.writeUTF(slotInternalName);
      data.writeByte(7);
      data.writeShort(count);
      data.write(out, poolEnd, out.length - poolEnd);
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static int u2(byte[] b, int at) {
    return ((b[at] & 0xff) << 8) | (b[at + 1] & 0xff);
  }

  /** A Utf8 entry's text (the names compared here are ASCII, where modified UTF-8 is plain ASCII). */
  private static String utf8(byte[] b, int[] offsets, int index) {
    int at = offsets[index];
    if ((b[at] & 0xff) == 7) at = offsets[u2(b, at + 1)]; // a Class entry: its name
    if ((b[at] & 0xff) != 1) return "";
    return new String(b, at + 3, u2(b, at + 1), StandardCharsets.ISO_8859_1);
  }

  private static boolean contains(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
      return true;
    }
    return false;
  }
}
