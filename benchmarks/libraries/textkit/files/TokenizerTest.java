package org.repairlab.textkit;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import org.junit.Test;

public class TokenizerTest {

    @Test
    public void splitsOnWhitespace() {
        assertEquals(Arrays.asList("git", "commit", "-m"), Tokenizer.split("  git commit\t-m "));
    }

    @Test
    public void quotesGroupWords() {
        assertEquals(Arrays.asList("echo", "hello world", "it's"), Tokenizer.split("echo 'hello world' \"it's\""));
    }

    @Test
    public void emptyQuotesMakeAnEmptyWord() {
        assertEquals(Arrays.asList("a", "", "b"), Tokenizer.split("a '' b"));
    }

    @Test(expected = IllegalArgumentException.class)
    public void unterminatedQuoteIsAnError() {
        Tokenizer.split("say 'oops");
    }
}
