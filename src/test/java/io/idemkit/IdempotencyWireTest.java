package io.idemkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The wire names are the contract's: each one {@link IdempotencyWire} says is in CONTRACT.md. */
class IdempotencyWireTest {

    @Test
    void everyNameIsTheContracts() throws Exception {
        String contract = Files.readString(Path.of("docs/CONTRACT.md"));
        List<String> names = new ArrayList<>();
        for (Field field : IdempotencyWire.class.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                names.add((String) field.get(null));
            }
        }

        assertThat(names).hasSize(15).doesNotHaveDuplicates();
        assertThat(names)
                .allSatisfy(name -> assertThat(contract).as("CONTRACT.md").contains("`" + name));
    }
}
