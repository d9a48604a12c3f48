package io.timeservice.push;

/**
 * Every case of {@link PusherTest} again, with answers settled (and freed slots claimed and sent) on the client's I/O
 * thread that received them, as the service does over the memory store without a journal.
 */
class PusherSettlingOnAnswerTest extends PusherTest {

    @Override
    boolean settleOnAnswer() {
        return true;
    }
}
