package io.idemkit.policy;

import io.idemkit.config.DurationFormat;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The lease rule of an {@code @Idempotent @Incoming} method (C17.3), the Kafka counterpart of
 * C11.4's: the lease is shorter than the consumer's {@code max.poll.interval.ms}. A duplicate of a
 * record whose first run crashed waits for that run's lease without polling, and a consumer that
 * does not poll within the interval leaves its group; the record's next owner would wait the same,
 * and the partition would move from consumer to consumer without progress.
 *
 * <p>A method reading several channels (SmallRye's {@code @Incomings}) is held to each one's. The
 * interval is the channel's ({@code mp.messaging.incoming.<channel>.max.poll.interval.ms}), else
 * its connector's ({@code mp.messaging.connector.<connector>.max.poll.interval.ms}), else the Kafka
 * client's default, 5 minutes.
 */
final class PollIntervalRule {

    /** The Kafka client's default {@code max.poll.interval.ms}. */
    static final Duration KAFKA_DEFAULT = Duration.ofMinutes(5);

    private static final String KEY = "max.poll.interval.ms";

    private PollIntervalRule() {}

    /**
     * @return the rule's problem for {@code method}'s lease on each channel it reads, where it
     *     breaks it
     */
    static List<String> problems(
            String description, Method method, Duration lease, ConfigLookup config) {
        List<String> problems = new ArrayList<>();
        for (String channel : ReactiveMessagingNames.incomingChannels(method)) {
            problem(description, channel, lease, config).ifPresent(problems::add);
        }
        return problems;
    }

    private static Optional<String> problem(
            String description, String channel, Duration lease, ConfigLookup config) {
        String channelKey = "mp.messaging.incoming." + channel + "." + KEY;
        String source = channelKey;
        Optional<String> value = config.value(channelKey);
        if (value.isEmpty()) {
            Optional<String> connector =
                    config.value("mp.messaging.incoming." + channel + ".connector");
            if (connector.isPresent()) {
                source = "mp.messaging.connector." + connector.get().strip() + "." + KEY;
                value = config.value(source);
            }
        }
        Duration interval;
        String origin;
        if (value.isPresent()) {
            try {
                interval = Duration.ofMillis(Long.parseLong(value.get().strip()));
            } catch (NumberFormatException e) {
                return Optional.empty(); // the connector says what is wrong with it
            }
            origin = source + "=" + value.get().strip();
        } else {
            interval = KAFKA_DEFAULT;
            origin = "the Kafka client's default " + KAFKA_DEFAULT.toMillis() + " ms";
        }
        if (lease.compareTo(interval) < 0) {
            return Optional.empty();
        }
        return Optional.of(
                "The lease of "
                        + description
                        + " ("
                        + DurationFormat.format(lease)
                        + ") must be shorter than the max.poll.interval.ms of its channel "
                        + channel
                        + " ("
                        + origin
                        + "): a duplicate waits for a crashed run's lease without polling, and a"
                        + " consumer that does not poll within that interval leaves its group"
                        + " (C17.3). Lower idemkit.lease-ttl for this method, or raise"
                        + " max.poll.interval.ms.");
    }
}
