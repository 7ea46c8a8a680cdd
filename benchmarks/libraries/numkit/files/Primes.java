package org.repairlab.numkit;

/** Primality and prime generation for small numbers. */
public final class Primes {

    private Primes() {
    }

    /** True for prime numbers (2, 3, 5, 7, 11, ...). */
    public static boolean isPrime(long n) {
        if (n < 2) {
            return false;
        }
        for (long d = 2; d * d <= n; d++) {
            if (n % d == 0) {
                return false;
            }
        }
        return true;
    }
}
