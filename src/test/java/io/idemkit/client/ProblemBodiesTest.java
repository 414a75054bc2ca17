package io.idemkit.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Reading a problem body's top-level {@code type} (C6.4), plain code. */
class ProblemBodiesTest {

    @Test
    void theTopLevelType_isFound_pastNestedMembersThatHaveATypeOfTheirOwn() {
        assertThat(
                        ProblemBodies.topLevelType(
                                "{ \"errors\": [{\"type\": \"field\"}], \"n\": 1, \"ok\": true,"
                                        + " \"o\": {\"type\": \"inner\", \"s\": \"}]\\\"\"},"
                                        + " \"type\" : \"urn:idemkit:payload-mismatch\" }"))
                .isEqualTo("urn:idemkit:payload-mismatch");
    }

    @Test
    void escapesInTheType_areRead() {
        assertThat(ProblemBodies.topLevelType("{\"type\":\"urn:a\\u003ab\\/c\"}"))
                .isEqualTo("urn:a:b/c");
    }

    @Test
    void noType_aCutBody_orNotAnObject_giveNone() {
        assertThat(ProblemBodies.topLevelType("{\"title\":\"x\",\"status\":422}")).isNull();
        assertThat(ProblemBodies.topLevelType("{\"title\":\"x\",\"ty")).isNull();
        assertThat(ProblemBodies.topLevelType("{\"type\":\"urn:idemkit:payl")).isNull();
        assertThat(ProblemBodies.topLevelType("[{\"type\":\"urn:x\"}]")).isNull();
        assertThat(ProblemBodies.topLevelType("")).isNull();
        assertThat(ProblemBodies.topLevelType("{\"type\":42}")).isNull();
    }
}
