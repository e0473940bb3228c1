package io.tbactors.benchmarks.creation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The creation benchmark's batches, run small: each one ends with the runtime's stop finished. */
class ChildCreationTest {

    private static final int CHILDREN = 200;

    private static String[] names() {
        String[] names = new String[CHILDREN];
        for (int i = 0; i < names.length; i++) {
            names[i] = "child-" + i;
        }
        return names;
    }

    @Test
    void ourBatchEndsWithNoActorRegistered() {
        try (TbChildCreation creation = new TbChildCreation(names())) {
            for (int batch = 0; batch < 3; batch++) {
                creation.prepare();
                creation.createChildren(CHILDREN);
                assertThat(creation.registeredActors()).as("the parent and its children while the batch lives")
                        .isEqualTo(CHILDREN + 1);
                creation.cleanUp();
                assertThat(creation.registeredActors()).as("after the batch's clean-up").isZero();
            }
        }
    }

    @Test
    void pekkoBatchEndsOnceTheParentHasTerminated() {
        try (PekkoChildCreation creation = new PekkoChildCreation(names())) {
            for (int batch = 0; batch < 3; batch++) {
                creation.prepare();
                creation.createChildren(CHILDREN);
                creation.cleanUp();
                assertThat(creation.parentTerminated()).as("after the batch's clean-up").isTrue();
            }
        }
    }
}
