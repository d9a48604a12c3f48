package io.timeservice.client;

import java.util.List;

/**
 * The outcome of a batch of acknowledgements.
 *
 * @param acked     how many were acknowledged (now, or before by the same claim)
 * @param claimLost the ids whose claim no longer held the lease (it ended, or the delivery went to another worker):
 *                  those deliveries come again
 */
public record AckResult(int acked, List<String> claimLost) {

    public AckResult {
        claimLost = List.copyOf(claimLost);
    }
}
