package org.repairlab.textkit;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CaseFormatTest {

    @Test
    public void camelToSnake() {
        assertEquals("parse_http_header", CaseFormat.camelToSnake("parseHttpHeader"));
        assertEquals("value", CaseFormat.camelToSnake("value"));
    }

    @Test
    public void snakeToCamel() {
        assertEquals("parseHttpHeader", CaseFormat.snakeToCamel("parse_http_header"));
        assertEquals("leading", CaseFormat.snakeToCamel("_leading"));
    }
}
