package io.timeservice.web;

/**
 * {@link ConsoleBrowserTest}'s dead-letter path on the PostgreSQL store (listing, count, bulk redrive in chunks,
 * deliveries by state). The other cases prove the page, not the store: overridden without {@code @Test}, they do
 * not run twice.
 */
@PostgresRestStore
class ConsoleBrowserPostgresTest extends ConsoleBrowserTest {

    @Override
    void aHostilePayload_andAHostileName_showAsText_andRunNothing() {
        // the page's rendering: ConsoleBrowserTest
    }

    @Override
    void theTimers_pageOnInFiringOrder_pastTheFirstPage_andAreFoundByTheStartOfTheirIds() {
        // the page's paging: ConsoleBrowserTest; the store's: PostgresTimerPageContractTest
    }

    @Override
    void keyboardOnly_theOperatorReachesAClock_andRedrivesItsDeadLetters() {
        // the page's keyboard use: ConsoleBrowserTest
    }

    @Override
    void theConsolePages_carryAStrictContentSecurityPolicy_andLinkTheHeapView() {
        // the pages' headers: ConsoleBrowserTest
    }
}
