package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.timeservice.model.Timer;
import io.timeservice.model.Trace;
import io.timeservice.store.memory.BrokenHeaps;
import io.timeservice.store.memory.MemoryClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The live heap view in a real headless Chromium against the service on a random port: scenarios, step-by-step
 * replay in three lockstep views, the status chip, errors, large queues and a phone-width layout.
 */
class HeapViewBrowserTest extends DemoServiceTestBase {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    /** Reads id -> data-slot from each of the three views in one round trip. */
    private static final String READ_VIEWS = """
            const read = (selector) => Object.fromEntries([...document.querySelectorAll(selector)]
                .map((element) => [element.dataset.id, element.dataset.slot]));
            return { tree: read('#tree .node[data-id]'), array: read('#array .token[data-id]'),
                     chips: read('#chips .chip[data-id]') };""";

    private static HeadlessChromium chromium;
    private static ChromeDriver driver;

    @Autowired
    MemoryClock scheduler;

    /** Clocks a test created: removed after it, so the shared service keeps only {@code default}. */
    private final List<String> createdClocks = new ArrayList<>();

    @BeforeAll
    static void startBrowser() {
        chromium = HeadlessChromium.start(1280, 800);
        driver = chromium.driver();
    }

    @AfterEach
    void deleteCreatedClocks() {
        createdClocks.forEach(clock -> api().delete("/clocks/" + clock));
    }

    @AfterAll
    static void stopBrowser() {
        if (chromium != null) {
            chromium.close();
        }
    }

    @Test
    void equalTimesScenario_played_firesABCInAddOrder() {
        openPage(1280, 800);
        chooseSpeed("8");
        loadScenario("equal-times");
        assertThat(driver.findElements(By.cssSelector("#fired-list li"))).as("nothing fired before Play").isEmpty();

        driver.findElement(By.id("play-button")).click();
        waitUntil("three timers fired and the operation completed", () ->
                firedIds().size() == 3 && statusLabel().equals("Invariants hold"));

        assertThat(firedIds()).containsExactly("A", "B", "C");
        assertThat(views().get("tree")).as("the queue is empty after firing all three").isEmpty();
        assertThat(driver.findElement(By.id("clock-now")).getDomAttribute("data-now")).isEqualTo("5");
    }

    @Test
    void upwardEdit_steppedThrough_treeArrayAndChipsShowTheSameSlotAtEveryStep() {
        openPage(1280, 800);
        loadScenario("upward-edit");
        Map<String, Map<String, String>> initial = views();
        assertSameSlotInAllViews(initial, "before the edit");
        assertThat(initial.get("tree")).containsEntry("A", "5").containsEntry("B", "0");

        List<String> slotsOfA = new ArrayList<>();
        List<String> narration = new ArrayList<>();
        int steps = Integer.MAX_VALUE;
        for (int step = 1; step <= steps; step++) {
            driver.findElement(By.id("step-button")).click();
            int expected = step;
            waitUntil("step " + step + " is shown", () -> stepShown() == expected);
            steps = Integer.parseInt(driver.findElement(By.id("step-counter")).getDomAttribute("data-steps"));
            Map<String, Map<String, String>> views = views();
            assertSameSlotInAllViews(views, "after step " + step + " of " + steps);
            slotsOfA.add(views.get("tree").get("A"));
            narration.add(driver.findElement(By.id("narration")).getText());
            if (step < steps) {
                assertThat(statusLabel()).as("status mid-replay, step %d of %d", step, steps)
                        .isEqualTo("Operation in progress");
                assertThat(statusState()).isEqualTo("progress");
            }
        }

        assertThat(steps).as("an upward edit lifts, compares, moves and places").isGreaterThanOrEqualTo(4);
        assertThat(slotsOfA.get(0)).as("A is lifted out of its slot first").isEqualTo("lifted");
        assertThat(slotsOfA.get(slotsOfA.size() - 1)).as("A ends at the root").isEqualTo("0");
        assertThat(narration).anySatisfy(text -> assertThat(text)
                .contains("A (fireTime 1) fires before B (fireTime 2): decided by fireTime"));
        waitUntil("the completed edit is checked", () -> statusLabel().equals("Invariants hold"));
        assertThat(statusState()).isEqualTo("ok");
        Map<String, Integer> serverIndex = api().get("/queue/heap").then().statusCode(200)
                .extract().jsonPath().getMap("index", String.class, Integer.class);
        Map<String, Map<String, String>> finalViews = views();
        serverIndex.forEach((id, slot) -> assertThat(finalViews.get("chips"))
                .as("the page's index agrees with the service's").containsEntry(id, String.valueOf(slot)));
        assertThat(finalViews.get("chips")).hasSameSizeAs(serverIndex);
    }

    @Test
    void priorityExample_atLaptopSize_isScreenshottedAndFiresBDCAE() throws IOException {
        openPage(1280, 800);
        loadScenario("priority");
        assertThat(views().get("array")).as("seed 004's five timers are drawn")
                .containsOnlyKeys("A", "B", "C", "D", "E");
        waitUntil("the fade-in has finished", () -> Boolean.TRUE.equals(driver.executeScript(
                "return document.getAnimations().length === 0;")));
        Path screenshot = Path.of("target", "heap-view.png");
        saveScreenshot(screenshot);
        assertThat(Files.size(screenshot)).isPositive();

        chooseSpeed("8");
        driver.findElement(By.id("play-button")).click();
        waitUntil("five timers fired", () -> firedIds().size() == 5 && statusLabel().equals("Invariants hold"));
        assertThat(firedIds()).containsExactly("B", "D", "C", "A", "E");
    }

    @Test
    void statusChip_expandsToTheFourChecks() {
        openPage(1280, 800);
        WebElement chip = driver.findElement(By.id("status-chip"));
        chip.click();
        List<WebElement> checks = driver.findElements(By.cssSelector("#status-checks li"));
        assertThat(checks).extracting(check -> check.getDomAttribute("data-check"))
                .containsExactly("root-is-earliest", "index-matches-heap", "heap-order", "no-overdue");
        assertThat(checks).allSatisfy(check -> assertThat(check.getText()).contains("holds"));
    }

    @Test
    void brokenHeap_statusChipNamesTheFailedRule() {
        BrokenHeaps.loadOverdueTimers(scheduler, 10, List.of(new Timer("A", 5, 0, 1, 1, 0, null),
                new Timer("B", 12, 0, 2, 1, 0, null), new Timer("C", 15, 0, 3, 1, 0, null)));

        openPage(1280, 800);
        waitUntil("the failure is reported", () -> statusState().equals("failed"));
        waitUntil("the fade-in has finished", () -> Boolean.TRUE.equals(driver.executeScript(
                "return document.getAnimations().length === 0;")));
        assertThat(statusLabel()).isEqualTo("Invariant failed: no-overdue");
        assertThat(driver.findElement(By.id("status")).getDomProperty("open"))
                .as("the chip opens by itself to name the rule").isEqualTo("true");
        WebElement overdueCheck = driver.findElement(By.cssSelector("#status-checks li[data-check='no-overdue']"));
        assertThat(overdueCheck.getDomAttribute("data-ok")).isEqualTo("false");
        assertThat(overdueCheck.getText()).contains("broken:").contains("is overdue at now=10");
        assertThat(driver.findElements(By.cssSelector("#status-checks li[data-ok='true']")))
                .as("the other three rules still hold").hasSize(3);
        saveScreenshot(Path.of("target", "heap-view-invariant-failed.png"));
    }

    @Test
    void refusedOperations_showTheProblemDetail() {
        openPage(1280, 800);
        chooseSpeed("8");
        submitAdd("X", "5");
        waitUntil("X is drawn", () -> views().get("tree").containsKey("X"));
        submitAdd("X", "7");
        waitUntil("the refusal is shown", () -> driver.findElement(By.id("error")).isDisplayed());
        assertThat(driver.findElement(By.id("error")).getText()).isEqualTo("a pending timer already has id X");

        WebElement cancelForm = driver.findElement(By.id("cancel-form"));
        cancelForm.findElement(By.name("id")).sendKeys("nobody");
        cancelForm.findElement(By.cssSelector("button[type=submit]")).click();
        waitUntil("the second refusal is shown", () -> driver.findElement(By.id("error")).getText()
                .equals("no pending timer has id nobody"));
    }

    @Test
    void aMillionPendingTimers_drawOnlyTheTopLevels_andStayResponsive() {
        // The default capacity is a million: fill it to one below, so that the page's own add fits.
        for (int i = 0; i < 999_999; i++) {
            scheduler.add("m" + i, 1_000 + (i * 7_919L) % 1_000_000, 0, null, Trace.NONE);
        }
        openPage(1280, 800);
        int drawn = views().get("tree").size();
        assertThat(drawn).as("only the top levels are drawn").isBetween(1, 1023);
        assertThat(driver.findElement(By.id("hidden-note")).getDomAttribute("data-hidden"))
                .isEqualTo(String.valueOf(999_999 - drawn));
        assertThat(driver.findElement(By.id("hidden-note")).getText())
                .contains("of 999,999 timers").contains("deeper timers are not drawn");

        chooseSpeed("8");
        submitAdd("early", "0");
        waitUntil("the traced add into a million timers is replayed and checked", () ->
                views().get("tree").containsKey("early") && statusLabel().equals("Invariants hold"));
        assertThat(views().get("chips")).containsEntry("early", "0");
        assertThat(driver.findElement(By.id("queue-size")).getText()).isEqualTo("1,000,000");
        saveScreenshot(Path.of("target", "heap-view-million.png"));
        Number largestResponse = (Number) driver.executeScript("return Math.max(...performance"
                + ".getEntriesByType('resource').map((entry) => entry.encodedBodySize));");
        assertThat(largestResponse.longValue()).as("the page never fetches the whole queue")
                .isLessThan(200_000);
    }

    @Test
    void atPhoneWidth_thePageFitsWithoutSidewaysScrolling() {
        openPage(390, 844);
        loadScenario("cancel-middle");
        Number overflow = (Number) driver.executeScript(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth;");
        assertThat(overflow.intValue()).as("horizontal overflow in px").isLessThanOrEqualTo(0);
        assertSameSlotInAllViews(views(), "at phone width");
        assertThat(views().get("tree")).hasSize(10);
    }

    @Test
    void clockSelector_showsTheChosenClocksHeap_andATracedAddLandsOnThatClock() {
        createClock("view-first", "first-1", "first-2");
        createClock("view-second", "second-1");
        openPage(1280, 800);
        Select clocks = new Select(driver.findElement(By.id("clock-select")));
        assertThat(clocks.getOptions()).extracting(WebElement::getText)
                .as("default first, then by name").startsWith("default", "view-first", "view-second");
        assertThat(clocks.getFirstSelectedOption().getText()).isEqualTo("default");

        clocks.selectByValue("view-second");
        waitUntil("the second clock's heap is drawn", () -> views().get("tree").keySet().equals(
                java.util.Set.of("second-1")));
        assertSameSlotInAllViews(views(), "on the second clock");
        assertThat(driver.getCurrentUrl()).as("the link remembers the clock").endsWith("/?clock=view-second");
        assertThat(driver.findElements(By.cssSelector("#scenarios button")))
                .allSatisfy(button -> assertThat(button.isEnabled()).isFalse());
        assertThat(driver.findElement(By.id("scenario-note")).getText()).contains("on the clock default only");

        chooseSpeed("8");
        submitAdd("second-2", "0");
        waitUntil("the traced add is replayed and checked", () -> views().get("tree").containsKey("second-2")
                && statusLabel().equals("Invariants hold"));
        assertThat(views().get("chips")).containsEntry("second-2", "0").doesNotContainKeys("first-1", "first-2");
        api().get("/clocks/view-second/timers/second-2").then().statusCode(200);
        api().get("/clocks/view-first/timers/second-2").then().statusCode(404);
        api().get("/timers/second-2").then().statusCode(404);

        clocks.selectByValue("default");
        waitUntil("default's (empty) heap is drawn", () -> views().get("tree").isEmpty());
        assertThat(driver.getCurrentUrl()).endsWith("/");
        assertThat(driver.findElement(By.cssSelector("button[data-scenario='priority']")).isEnabled()).isTrue();
    }

    @Test
    void manyClocks_areListedAPageAtATime() {
        for (int i = 0; i < 120; i++) {
            createClock("paged-%03d".formatted(i));
        }
        openPage(1280, 800);
        WebElement more = driver.findElement(By.id("more-clocks"));
        assertThat(more.isDisplayed()).as("a full first page offers more").isTrue();
        assertThat(clockOptions()).doesNotContain("paged-119");

        more.click();
        waitUntil("the next page is listed", () -> clockOptions().contains("paged-119"));
        List<String> paged = clockOptions().stream().filter(name -> name.startsWith("paged-")).toList();
        assertThat(paged).as("every clock once, by name").hasSize(120).isSorted().doesNotHaveDuplicates();
        assertThat(clockOptions().get(0)).isEqualTo("default");
        assertThat(more.isDisplayed()).as("the last page is shorter").isFalse();
    }

        @Test
    void linkNamingAClock_opensWithThatClockSelected() {
        createClock("view-linked", "linked-1", "linked-2");
        openPage("/?clock=view-linked", 1280, 800);
        assertThat(new Select(driver.findElement(By.id("clock-select"))).getFirstSelectedOption().getText())
                .isEqualTo("view-linked");
        waitUntil("the linked clock's heap is drawn", () -> views().get("tree").keySet().equals(
                java.util.Set.of("linked-1", "linked-2")));
        saveScreenshot(Path.of("target", "heap-view-clock.png"));

        openPage("/?clock=..", 1280, 800);
        assertThat(new Select(driver.findElement(By.id("clock-select"))).getFirstSelectedOption().getText())
                .as("no path can be built from it").isEqualTo("default");
        assertThat(driver.findElement(By.id("error")).getText()).contains("\"..\", which is not a clock name");
    }

    @Test
    void shownClockDeleted_thePageSaysSoInPlaceOfTheHeap() {
        createClock("view-doomed", "doomed-1");
        openPage("/?clock=view-doomed", 1280, 800);
        waitUntil("the clock's heap is drawn", () -> views().get("tree").containsKey("doomed-1"));

        api().delete("/clocks/view-doomed").then().statusCode(204);
        driver.findElement(By.id("refresh-button")).click();
        waitUntil("the page says the clock is gone", () -> driver.findElement(By.id("clock-missing")).isDisplayed());
        assertThat(driver.findElement(By.id("clock-missing")).getText())
                .contains("Clock view-doomed does not exist").contains("view-doomed");
        assertThat(statusState()).isEqualTo("missing");
        assertThat(statusLabel()).isEqualTo("Clock not found");
        assertThat(driver.findElement(By.id("tree")).isDisplayed()).as("the stale heap is not shown").isFalse();
        assertThat(driver.findElement(By.id("error")).isDisplayed()).as("not repeated in the error box").isFalse();
        driver.executeScript("window.scrollTo(0, 0);");
        saveScreenshot(Path.of("target", "heap-view-clock-deleted.png"));
    }

    // ---- helpers ----

    /** Creates a clock at now 0 through the API with a timer per id, delays 10, 20, ... in the order given. */
    private void createClock(String clock, String... timerIds) {
        api().body("{}").put("/clocks/" + clock).then().statusCode(201);
        createdClocks.add(clock);
        for (int i = 0; i < timerIds.length; i++) {
            api().body(Map.of("id", timerIds[i], "delay", 10 * (i + 1))).post("/clocks/" + clock + "/timers")
                    .then().statusCode(201);
        }
    }

    /** Opens the page with a viewport (not window) of the given size: that is what "readable at" means. */
    private void openPage(int width, int height) {
        openPage("/", width, height);
    }

    private void openPage(String path, int width, int height) {
        driver.manage().window().setSize(new Dimension(width, height));
        driver.get(baseUrl() + path);
        @SuppressWarnings("unchecked")
        List<Number> chrome = (List<Number>) driver.executeScript("return [window.outerWidth - window.innerWidth, "
                + "window.outerHeight - window.innerHeight];");
        driver.manage().window().setSize(new Dimension(width + chrome.get(0).intValue(),
                height + chrome.get(1).intValue()));
        waitUntil("the page is ready", () -> "true".equals(driver.findElement(By.tagName("body"))
                .getDomAttribute("data-ready")));
    }

    private void loadScenario(String key) {
        driver.findElement(By.cssSelector("button[data-scenario='" + key + "']")).click();
        waitUntil("scenario " + key + " is loaded", () ->
                !driver.findElement(By.id("up-next")).getText().isEmpty()
                        && driver.findElement(By.id("operation-title")).getText().startsWith("scenario:"));
    }

    private void chooseSpeed(String speed) {
        new Select(driver.findElement(By.id("speed"))).selectByValue(speed);
    }

    private void submitAdd(String id, String delay) {
        WebElement form = driver.findElement(By.id("add-form"));
        WebElement idInput = form.findElement(By.name("id"));
        WebElement delayInput = form.findElement(By.name("delay"));
        idInput.clear();
        idInput.sendKeys(id);
        delayInput.clear();
        delayInput.sendKeys(delay);
        form.findElement(By.cssSelector("button[type=submit]")).click();
    }

    private List<String> clockOptions() {
        return new Select(driver.findElement(By.id("clock-select"))).getOptions().stream()
                .map(option -> option.getDomProperty("value")).toList();
    }

    private int stepShown() {
        return Integer.parseInt(driver.findElement(By.id("step-counter")).getDomAttribute("data-step"));
    }

    private String statusLabel() {
        return driver.findElement(By.id("status-chip")).getDomProperty("textContent");
    }

    private String statusState() {
        return driver.findElement(By.id("status-chip")).getDomAttribute("data-state");
    }

    private List<String> firedIds() {
        return driver.findElements(By.cssSelector("#fired-list li")).stream()
                .map(item -> item.getDomAttribute("data-id")).toList();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Map<String, String>> views() {
        return (Map<String, Map<String, String>>) driver.executeScript(READ_VIEWS);
    }

    private static void assertSameSlotInAllViews(Map<String, Map<String, String>> views, String when) {
        assertThat(views.get("tree")).as("tree vs array " + when).isEqualTo(views.get("array"));
        assertThat(views.get("tree")).as("tree vs indexById chips " + when).isEqualTo(views.get("chips"));
    }

    /** Waits for a condition; on timeout the message carries what the page said, and a screenshot is kept. */
    private void waitUntil(String what, java.util.function.BooleanSupplier condition) {
        try {
            new WebDriverWait(driver, PATIENCE, Duration.ofMillis(50)).until(ignored -> condition.getAsBoolean());
        } catch (org.openqa.selenium.TimeoutException e) {
            saveScreenshot(Path.of("target", "heap-view-failure.png"));
            throw new AssertionError("timed out waiting until " + what + "; the page shows status \""
                    + statusLabel() + "\", step " + driver.findElement(By.id("step-counter")).getText()
                    + ", narration \"" + driver.findElement(By.id("narration")).getText() + "\", error \""
                    + driver.findElement(By.id("error")).getDomProperty("textContent") + "\"", e);
        }
    }

    private static void saveScreenshot(Path target) {
        try {
            Files.createDirectories(target.getParent());
            Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), target, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
