package io.tbactors.testkit;

import io.tbactors.api.TbActorId;
import io.tbactors.api.TbActorMsg;

/**
 * A message told to an actor's mailbox that, so far, was neither processed nor reported back to its sender
 * ({@code onTbActorStopped}, a {@code false} from {@code tryTell}, a withdrawn timer tick). While the system runs it may
 * just be waiting its turn; after the system stopped it was lost.
 *
 * @param target the actor it was told to
 * @param tells how many tells of this very instance to this actor are unaccounted for
 */
public record LostMessage(TbActorId target, TbActorMsg message, int tells) {

    private static final int MAX_MESSAGE_TEXT = 120;

    /** @return the message as it prints itself (cut at 120 characters), its target, and the tells when more than one */
    @Override
    public String toString() {
        String text = String.valueOf(message);
        if (text.length() > MAX_MESSAGE_TEXT) {
            text = text.substring(0, MAX_MESSAGE_TEXT) + "...";
        }
        return text + " to " + target + (tells == 1 ? "" : " (told " + tells + " times)");
    }
}
