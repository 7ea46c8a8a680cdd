package org.repairlab.collect;

/** A half-open range of ints [start, end). */
public final class IntRange {

    private final int start;
    private final int end;

    private IntRange(int start, int end) {
        this.start = start;
        this.end = end;
    }

    /** The range [start, end); throws if end is before start. */
    public static IntRange of(int start, int end) {
        if (end < start) {
            throw new IllegalArgumentException("end " + end + " is before start " + start);
        }
        return new IntRange(start, end);
    }

    public int start() {
        return start;
    }

    public int end() {
        return end;
    }

    public int size() {
        return end - start;
    }

    public boolean isEmpty() {
        return start == end;
    }

    public boolean contains(int value) {
        return value >= start && value < end;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof IntRange)) {
            return false;
        }
        IntRange other = (IntRange) o;
        return start == other.start && end == other.end;
    }

    @Override
    public int hashCode() {
        return 31 * start + end;
    }

    @Override
    public String toString() {
        return "[" + start + ", " + end + ")";
    }
}
