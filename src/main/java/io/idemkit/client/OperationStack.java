package io.idemkit.client;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * The operation scopes open on the current thread, innermost last. Every level is removed by the
 * code that put it there, in a {@code finally}, so that a pooled thread never carries one into the
 * next task.
 */
final class OperationStack {

    private static final ThreadLocal<Deque<Frame>> FRAMES = new ThreadLocal<>();

    private OperationStack() {}

    static Optional<Frame> current() {
        Deque<Frame> frames = FRAMES.get();
        return frames == null ? Optional.empty() : Optional.ofNullable(frames.peekLast());
    }

    /**
     * @return the thread's levels, outermost first; empty outside every operation
     */
    static List<Frame> all() {
        Deque<Frame> frames = FRAMES.get();
        return frames == null ? List.of() : List.copyOf(frames);
    }

    static void push(Frame frame) {
        Deque<Frame> frames = FRAMES.get();
        if (frames == null) {
            frames = new ArrayDeque<>();
            FRAMES.set(frames);
        }
        frames.addLast(frame);
    }

    /**
     * Removes {@code frame} from this thread, with every level still open inside it: those were
     * left open by mistake, and must not outlive it on a pooled thread.
     *
     * @return whether it was the innermost level (a scope closed in order)
     */
    static boolean remove(Frame frame) {
        Deque<Frame> frames = FRAMES.get();
        if (frames == null || !frames.contains(frame)) {
            return false;
        }
        boolean innermost = frames.peekLast() == frame;
        while (frames.removeLast() != frame) {
            // an inner level left open
        }
        if (frames.isEmpty()) {
            FRAMES.remove();
        }
        return innermost;
    }
}
