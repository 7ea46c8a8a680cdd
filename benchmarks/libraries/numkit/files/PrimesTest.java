package org.repairlab.numkit;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class PrimesTest {

    @Test
    public void primes() {
        for (long p : new long[] {2, 3, 5, 7, 13, 97, 7919}) {
            assertTrue(p + " is prime", Primes.isPrime(p));
        }
    }

    @Test
    public void nonPrimes() {
        for (long n : new long[] {-7, 0, 1, 4, 15, 100, 1001}) {
            assertFalse(n + " is not prime", Primes.isPrime(n));
        }
    }
}
