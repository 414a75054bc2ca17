package io.idemkit.it.kafka;

/**
 * The {@code microprofile-config.properties} of the Kafka test application ({@link
 * KafkaScenarios}): the connector's common settings, and each channel's topic and consumer group.
 */
final class KafkaAppConfig {

    private KafkaAppConfig() {}

    /** Prefixes: {@code to} of the topics but {@code payments}'s, {@code g} of the groups. */
    static String channels(String connector, String g, String to, String payments) {
        StringBuilder config =
                new StringBuilder(
                        "idemkit.scope-mode=single-tenant\n"
                                + "idemkit.lease-ttl=5s\n"
                                + "idemkit.message.max-attempts=3\n");
        String common = "mp.messaging.connector." + connector + ".";
        config.append(common)
                .append("bootstrap.servers=")
                .append(KafkaScenarios.broker().bootstrapServers())
                .append('\n');
        config.append(common)
                .append(
                        "key.deserializer=org.apache.kafka.common.serialization.StringDeserializer\n");
        config.append(common)
                .append(
                        "value.deserializer=org.apache.kafka.common.serialization.StringDeserializer\n");
        config.append(common).append("auto.offset.reset=earliest\n");
        // A killed server's consumer leaves its group after 6 s rather than 45 s.
        config.append(common).append("session.timeout.ms=6000\n");
        config.append(common).append("heartbeat.interval.ms=1000\n");
        String group = g + KafkaScenarios.GROUP;
        channel(config, connector, "payments", payments, group);
        for (String racer : KafkaScenarios.RACERS) {
            String race = "race-" + racer;
            channel(config, connector, race, to + KafkaScenarios.RACE_TOPIC, group + "-" + racer);
        }
        channel(config, connector, "orders", to + KafkaScenarios.ORDERS_TOPIC, group + "-orders");
        outgoing(config, connector, "dead-letters", to + KafkaScenarios.DEAD_LETTER_TOPIC);
        outgoing(config, connector, "quotes", to + KafkaScenarios.QUOTES_TOPIC);
        return config.toString();
    }

    private static void outgoing(
            StringBuilder config, String connector, String channel, String topic) {
        String prefix = "mp.messaging.outgoing." + channel + ".";
        config.append(prefix).append("connector=").append(connector).append('\n');
        config.append(prefix).append("topic=").append(topic).append('\n');
        config.append(prefix)
                .append("key.serializer=org.apache.kafka.common.serialization.StringSerializer\n");
        config.append(prefix)
                .append(
                        "value.serializer=org.apache.kafka.common.serialization.StringSerializer\n");
    }

    private static void channel(
            StringBuilder config, String connector, String channel, String topic, String group) {
        String prefix = "mp.messaging.incoming." + channel + ".";
        config.append(prefix).append("connector=").append(connector).append('\n');
        config.append(prefix).append("topic=").append(topic).append('\n');
        config.append(prefix).append("group.id=").append(group).append('\n');
    }
}
