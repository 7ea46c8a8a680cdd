package repairlab.harness;

import java.io.OutputStream;

/** Swallows what tests print, keeping only a small head, so huge outputs cannot fill memory or the protocol pipe. */
final class CappedStream extends OutputStream {
  private final byte[] head;
  private int size;
  private long dropped;

  CappedStream(int cap) {
    head = new byte[cap];
  }

  @Override
  public synchronized void write(int b) {
    if (size < head.length) head[size++] = (byte) b;
    else dropped++;
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) {
    int n = Math.min(len, head.length - size);
    if (n > 0) {
      System.arraycopy(b, off, head, size, n);
      size += n;
    }
    dropped += len - Math.max(n, 0);
  }

  synchronized long droppedBytes() {
    return dropped;
  }

  synchronized String headText() {
    return new String(head, 0, size, java.nio.charset.StandardCharsets.UTF_8);
  }

  synchronized void reset() {
    size = 0;
    dropped = 0;
  }
}
