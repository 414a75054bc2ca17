package io.idemkit.client;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * The operation levels open on the current thread, innermost last: each a {@link Frame} with the
 * count its requests are numbered in (the frame's own scope, or one attempt of it). Every level the
 * thread opened itself is removed by the code that put it there, in a {@code finally}, so that a
 * pooled thread never carries one into the next task. A level carried to the thread for one request
 * (a Rest Client's {@code CompletionStage} call, C14.8) is closed when that request has been keyed,
 * or when the invocation ends, from whatever thread: every read here skips a closed level and drops
 * it, so that one left behind by an implementation that never removes it, or removes it on another
 * thread, is never read again.
 */
final class OperationStack {

    /**
     * One level: a frame, and the count a request sent in it takes its number from.
     *
     * @param frame the operation level
     * @param occurrences its scope's count, or the count of the attempt that runs here
     * @param carry for a level carried to this thread for one invocation, its lifetime; {@code
     *     null} for a level this thread opened
     */
    record Level(Frame frame, Occurrences occurrences, Carry carry) {

        Level(Frame frame, Occurrences occurrences) {
            this(frame, occurrences, null);
        }

        /**
         * @return whether the level may be read: one the thread opened, or a carried one whose
         *     invocation has not ended
         */
        boolean open() {
            return carry == null || !carry.closed();
        }

        /**
         * @return the same level carried to another thread for one invocation
         */
        Level carriedBy(Carry by) {
            return new Level(frame, occurrences, by);
        }
    }

    /**
     * The lifetime of levels carried to a sending thread for one invocation. Thread-safe: it is
     * closed from the sending thread, or from wherever the invocation ends.
     */
    static final class Carry {
        private volatile boolean closed;

        void close() {
            closed = true;
        }

        boolean closed() {
            return closed;
        }
    }

    private static final ThreadLocal<Deque<Level>> LEVELS = new ThreadLocal<>();

    private OperationStack() {}

    static Optional<Frame> current() {
        return innermost().map(Level::frame);
    }

    static Optional<Level> innermost() {
        Deque<Level> levels = open();
        return levels == null ? Optional.empty() : Optional.ofNullable(levels.peekLast());
    }

    /**
     * @return the thread's levels, outermost first; empty outside every operation
     */
    static List<Level> all() {
        Deque<Level> levels = open();
        return levels == null ? List.of() : List.copyOf(levels);
    }

    static Level push(Frame frame, Occurrences occurrences) {
        Level level = new Level(frame, occurrences);
        push(level);
        return level;
    }

    static void push(Level level) {
        Deque<Level> levels = open();
        if (levels == null) {
            levels = new ArrayDeque<>();
            LEVELS.set(levels);
        }
        levels.addLast(level);
    }

    /**
     * @return whether {@code level} is open on this thread
     */
    static boolean contains(Level level) {
        Deque<Level> levels = open();
        return levels != null && levels.stream().anyMatch(l -> l == level);
    }

    /**
     * Removes {@code level} from this thread, with every level still open inside it: those were
     * left open by mistake, and must not outlive it on a pooled thread.
     *
     * @return whether it was the innermost level (a scope closed in order)
     */
    static boolean remove(Level level) {
        if (!contains(level)) {
            return false;
        }
        Deque<Level> levels = LEVELS.get();
        boolean innermost = levels.peekLast() == level;
        while (levels.removeLast() != level) {
            // an inner level left open
        }
        if (levels.isEmpty()) {
            LEVELS.remove();
        }
        return innermost;
    }

    /**
     * @return the thread's levels with every closed carried level dropped; {@code null} when none
     *     is left
     */
    private static Deque<Level> open() {
        Deque<Level> levels = LEVELS.get();
        if (levels == null) {
            return null;
        }
        levels.removeIf(l -> !l.open());
        if (levels.isEmpty()) {
            LEVELS.remove();
            return null;
        }
        return levels;
    }
}
