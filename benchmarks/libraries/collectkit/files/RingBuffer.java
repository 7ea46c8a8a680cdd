package org.repairlab.collect;

import java.util.ArrayList;
import java.util.List;

/** A fixed-capacity buffer that keeps the most recent elements, overwriting the oldest when full. */
public final class RingBuffer<T> {

    private final Object[] items;
    /** index of the oldest element */
    private int head;
    private int size;

    public RingBuffer(int capacity) {
        items = new Object[capacity];
    }

    public int capacity() {
        return items.length;
    }

    public int size() {
        return size;
    }

    public boolean isFull() {
        return size == items.length;
    }

    /** Adds an element, overwriting the oldest one when the buffer is full. */
    public void add(T item) {
        int tail = (head + size) % items.length;
        items[tail] = item;
        if (isFull()) {
            head = (head + 1) % items.length;
        } else {
            size++;
        }
    }

    /** The element at {@code index}, counting from the oldest (0). */
    @SuppressWarnings("unchecked")
    public T get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index " + index + ", size " + size);
        }
        return (T) items[(head + index) % items.length];
    }

    /** The elements from oldest to newest. */
    public List<T> toList() {
        List<T> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            out.add(get(i));
        }
        return out;
    }
}
