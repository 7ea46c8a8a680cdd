package org.repairlab.numkit;

/** Integer arithmetic helpers. */
public final class MathUtils {

    private MathUtils() {
    }

    /** Greatest common divisor of two non-negative numbers; gcd(a, 0) is a. */
    public static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    /** Least common multiple of two positive numbers. */
    public static long lcm(long a, long b) {
        return a / gcd(a, b) * b;
    }
}
