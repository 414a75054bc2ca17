package io.idemkit.client;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * The operation levels open on the current thread, innermost last: each a {@link Frame} with the
 * count its requests are numbered in (the frame's own scope, or one attempt of it). Every level is
 * removed by the code that put it there, in a {@code finally}, so that a pooled thread never
 * carries one into the next task.
 */
final class OperationStack {

    /**
     * One level: a frame, and the count a request sent in it takes its number from.
     *
     * @param frame the operation level
     * @param occurrences its scope's count, or the count of the attempt that runs here
     */
    record Level(Frame frame, Occurrences occurrences) {}

    private static final ThreadLocal<Deque<Level>> LEVELS = new ThreadLocal<>();

    private OperationStack() {}

    static Optional<Frame> current() {
        return innermost().map(Level::frame);
    }

    static Optional<Level> innermost() {
        Deque<Level> levels = LEVELS.get();
        return levels == null ? Optional.empty() : Optional.ofNullable(levels.peekLast());
    }

    /**
     * @return the thread's levels, outermost first; empty outside every operation
     */
    static List<Level> all() {
        Deque<Level> levels = LEVELS.get();
        return levels == null ? List.of() : List.copyOf(levels);
    }

    static Level push(Frame frame, Occurrences occurrences) {
        Level level = new Level(frame, occurrences);
        push(level);
        return level;
    }

    static void push(Level level) {
        Deque<Level> levels = LEVELS.get();
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
        Deque<Level> levels = LEVELS.get();
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
}
