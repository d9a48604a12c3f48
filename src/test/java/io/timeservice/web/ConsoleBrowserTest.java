package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import io.restassured.RestAssured;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The operator console in a real headless Chromium against the service on a random port: the path from a
 * dead-letter alert (open the clock, filter, redrive all that match, see them ready), hostile payloads shown as
 * text, keyboard-only use, the Content-Security-Policy. {@link ConsoleBrowserPostgresTest} runs it on PostgreSQL;
 * {@link ConsoleReadOnlyBrowserTest} holds the read-only token's view.
 */
class ConsoleBrowserTest extends DemoServiceTestBase {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    /** Dead letters the operator redrives (the number): ten chunks of the bulk call, loaded in one document. */
    static final int MATCHING = 10_000;
    /** Dead letters the filter leaves: other ids, and the operator's ids dead before the alert. */
    private static final int OTHERS = 20;
    /** When the alert's dead letters died (clock milliseconds): the filter's "dead since". */
    private static final long ALERT = 1_000;
    static final String HOSTILE = "<script>window.pwned=1</script>\"><img src=x onerror=\"window.pwned=2\">";

    private static HeadlessChromium chromium;
    private static ChromeDriver driver;
    private final List<String> createdClocks = new ArrayList<>();

    @BeforeAll
    static void startBrowser() {
        chromium = HeadlessChromium.start(1280, 900);
        driver = chromium.driver();
    }

    @AfterAll
    static void stopBrowser() {
        if (chromium != null) {
            chromium.close();
        }
    }

    @AfterEach
    void deleteCreatedClocks() {
        createdClocks.forEach(clock -> api().delete("/clocks/" + clock));
    }

    /** A queueing clock whose deliveries die on their first failed attempt. */
    private void queueClock(String name) {
        api().body("{\"delivery\":\"queue\",\"retry\":{\"maxAttempts\":1}}").put("/clocks/" + name)
                .then().statusCode(201);
        createdClocks.add(name);
    }

    /** {@code count} dead letters {@code prefix0...} on a virtual queueing clock: fired, leased once, lease ended. */
    private void deadLetters(String clock, String prefix, int count) {
        StringBuilder ops = new StringBuilder();
        for (int i = 0; i < count; i++) {
            ops.append(i == 0 ? "" : ",").append("{\"op\":\"add\",\"id\":\"").append(prefix).append(i)
                    .append("\",\"delay\":0,\"payload\":{\"order\":").append(i).append("}}");
        }
        api().body("{\"ops\":[" + ops + "]}").post("/clocks/" + clock + "/batch").then().statusCode(200);
        api().body("{\"by\":0}").post("/clocks/" + clock + "/advance").then().statusCode(200);
        api().body("{\"max\":1000,\"lease\":1000}").post("/clocks/" + clock + "/deliveries/claim").then()
                .statusCode(200);
        api().body("{\"by\":1000}").post("/clocks/" + clock + "/advance").then().statusCode(200);
    }

    /**
     * The clock {@code clock} made from a snapshot document in one call: {@code MATCHING} dead letters {@code order-...}
     * dead since {@link #ALERT}, {@code OTHERS} {@code order-old-...} dead since 400 and {@code OTHERS}
     * {@code audit-...} dead since {@link #ALERT} (the fast setup: a document instead of 10,000 fired, leased and
     * expired deliveries).
     */
    private void deadLettersFromASnapshot(String clock) {
        StringBuilder deliveries = new StringBuilder();
        long sequence = 0;
        for (int i = 0; i < MATCHING + 2 * OTHERS; i++) {
            String id = i < MATCHING ? "order-" + i : i < MATCHING + OTHERS ? "order-old-" + i : "audit-" + i;
            long died = i >= MATCHING && i < MATCHING + OTHERS ? 400 : ALERT;
            deliveries.append(i == 0 ? "" : ",").append("{\"id\":\"").append(id).append("\",\"fireTime\":0,")
                    .append("\"sequence\":").append(++sequence).append(",\"state\":\"dead\",\"attempt\":1,")
                    .append("\"readyAt\":").append(died)
                    .append(",\"deadReason\":\"lease expired on attempt 1 of 1\",\"payload\":{\"order\":")
                    .append(i).append("}}");
        }
        api().body("{\"format\":1,\"clock\":{\"delivery\":\"queue\",\"now\":2000},\"deliveries\":["
                + deliveries + "]}").put("/clocks/" + clock + "/snapshot").then().statusCode(201);
        createdClocks.add(clock);
    }

    @Test
    void fromADeadLetterAlert_theOperatorFiltersAndRedrivesAllThatMatch_andSeesThemReady() throws IOException {
        deadLettersFromASnapshot("orders");
        api().body("{\"every\":60000}").put("/clocks/orders/schedules/report").then().statusCode(201);
        api().body("{\"every\":3600000}").put("/clocks/orders/schedules/sync").then().statusCode(201);

        open("/console");
        waitUntil("the clocks are listed", () -> !driver.findElements(By.cssSelector("tr[data-clock='orders']"))
                .isEmpty());
        assertThat(driver.findElement(By.cssSelector("tr[data-clock='orders'] td[data-dead]")).getText())
                .isEqualTo(String.valueOf(MATCHING + 2 * OTHERS));
        assertThat(driver.findElement(By.cssSelector("tr[data-clock='orders'] td[data-schedules]")).getText())
                .isEqualTo("2");
        screenshot("clocks.png");

        driver.findElement(By.linkText("orders")).click();
        waitUntil("the dead letters are shown", () -> driver.findElements(By.cssSelector("#dead-rows tr")).size() == 50);
        driver.findElement(By.id("dead-id-prefix")).sendKeys("order-");
        driver.findElement(By.id("dead-reason")).sendKeys("lease expired");
        driver.findElement(By.id("dead-since")).sendKeys(String.valueOf(ALERT));
        driver.findElement(By.id("dead-filter-apply")).click();
        waitUntil("only matching dead letters are listed", () -> driver.findElements(By.cssSelector("#dead-rows th"))
                .stream().allMatch(id -> id.getText().startsWith("order-") && !id.getText().startsWith("order-old-")));
        driver.executeScript("document.getElementById('deliveries').scrollIntoView();");
        screenshot("clock.png");

        driver.findElement(By.id("redrive-all")).click();
        waitUntil("the count is asked to be confirmed", () -> driver.findElement(By.id("confirm")).isDisplayed());
        assertThat(driver.findElement(By.id("confirm-text")).getText())
                .isEqualTo("Redrive all " + MATCHING + " matching dead letters?");
        screenshot("confirm.png");
        driver.findElement(By.id("confirm-ok")).click();

        waitUntil("the redrive is reported", () -> driver.findElement(By.id("bulk-outcome")).getText()
                .equals("Redrive: " + MATCHING + " of " + MATCHING + " matching."));
        waitUntil("the summary counts them ready", () -> fact("ready").equals(String.valueOf(MATCHING))
                && fact("dead").equals(String.valueOf(2 * OTHERS)));
        waitUntil("the ready tab lists them", () -> driver.findElements(By.cssSelector("#deliveries-rows tr"))
                .size() == 50);
        assertThat(driver.findElements(By.cssSelector("#deliveries-rows tr[data-state='ready'] th")))
                .allSatisfy(id -> assertThat(id.getText()).startsWith("order-"));
        driver.executeScript("document.getElementById('clock-name').scrollIntoView();");
        screenshot("ready.png");
        waitUntil("none of them is listed dead any more", () -> driver.findElements(By.cssSelector("#dead-rows tr"))
                .isEmpty());
        api().get("/clocks/orders/deliveries").then().body("ready", equalTo(MATCHING))
                .body("dead", equalTo(2 * OTHERS));
    }

    @Test
    void aHostilePayload_andAHostileName_showAsText_andRunNothing() {
        queueClock("hostile");
        String payload = "{\"html\":" + Json.quote(HOSTILE) + "}";
        api().body("{\"id\":\"evil\",\"delay\":1000000,\"payload\":" + payload + "}").post("/clocks/hostile/timers")
                .then().statusCode(201);
        api().body("{\"id\":" + Json.quote(HOSTILE) + ",\"delay\":5}").post("/clocks/hostile/timers")
                .then().statusCode(400);
        deadLetters("hostile", "dead-", 1);

        open("/console/#/clock/hostile");
        waitUntil("the timer is shown", () -> !driver.findElements(By.cssSelector("tr[data-timer='evil'] pre"))
                .isEmpty());

        assertThat(driver.findElement(By.cssSelector("tr[data-timer='evil'] pre")).getText())
                .as("the payload as indented JSON text").contains("\"html\": " + Json.quote(HOSTILE));
        assertThat(driver.findElements(By.cssSelector("main img, main script"))).isEmpty();
        assertThat(driver.executeScript("return window.pwned === undefined;")).isEqualTo(true);
        assertThat(alertShown()).isFalse();
        // a clock name that is markup: the service refuses it, and the page shows the name as text
        open("/console/#/clock/" + java.net.URLEncoder.encode(HOSTILE, java.nio.charset.StandardCharsets.UTF_8)
                .replace("+", "%20"));
        waitUntil("the refusal is shown", () -> driver.findElement(By.id("error")).isDisplayed());
        assertThat(driver.findElement(By.id("clock-name")).getText()).isEqualTo(HOSTILE);
        assertThat(driver.findElements(By.cssSelector("main img, main script"))).isEmpty();
        assertThat(driver.executeScript("return window.pwned === undefined;")).isEqualTo(true);
    }

    @Test
    void theTimers_pageOnInFiringOrder_pastTheFirstPage_andAreFoundByTheStartOfTheirIds() throws IOException {
        queueClock("many");
        StringBuilder ops = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            ops.append(i == 0 ? "" : ",").append("{\"op\":\"add\",\"id\":\"").append(i % 2 == 0 ? "even-" : "odd-")
                    .append(i).append("\",\"delay\":").append(100_000 + 60 - i).append("}");
        }
        api().body("{\"ops\":[" + ops + "]}").post("/clocks/many/batch").then().statusCode(200);

        open("/console/#/clock/many");
        waitUntil("the first page is shown", () -> driver.findElements(By.cssSelector("#timer-rows tr")).size() == 25);
        assertThat(driver.findElement(By.cssSelector("#timer-rows tr th")).getText()).isEqualTo("odd-59");
        driver.findElement(By.id("timers-next")).click();
        waitUntil("the second page is shown", () -> driver.findElement(By.cssSelector("#timer-rows tr th")).getText()
                .equals("even-34"));
        driver.findElement(By.id("timers-next")).click();
        waitUntil("the last page holds the last ten", () -> driver.findElements(By.cssSelector("#timer-rows tr"))
                .size() == 10 && driver.findElement(By.id("timers-next")).getDomProperty("disabled").equals("true"));
        assertThat(driver.findElements(By.cssSelector("#timer-rows tr th")).get(9).getText()).isEqualTo("even-0");
        screenshot("timers.png");

        new org.openqa.selenium.support.ui.Select(driver.findElement(By.id("timer-find-how")))
                .selectByValue("prefix");
        driver.findElement(By.id("timer-find")).sendKeys("odd-1");
        driver.findElement(By.id("timer-find-go")).click();
        waitUntil("only the timers whose ids start so are listed", () -> driver.findElements(
                By.cssSelector("#timer-rows tr th")).stream().map(WebElement::getText).toList()
                .equals(List.of("odd-19", "odd-17", "odd-15", "odd-13", "odd-11", "odd-1")));
    }

    @Test
    void keyboardOnly_theOperatorReachesAClock_andRedrivesItsDeadLetters() {
        queueClock("keys");
        deadLetters("keys", "k-", 5);
        open("/console");
        waitUntil("the clocks are listed", () -> !driver.findElements(By.linkText("keys")).isEmpty());

        focusByTab(By.id("clock-prefix")).sendKeys("ke", Keys.ENTER);
        waitUntil("the filter applies", () -> driver.findElements(By.cssSelector("#clock-rows tr")).size() == 1);
        focusByTab(By.linkText("keys")).sendKeys(Keys.ENTER);
        waitUntil("the dead letters are shown", () -> driver.findElements(By.cssSelector("#dead-rows tr")).size() == 5);
        focusByTab(By.id("redrive-all")).sendKeys(Keys.ENTER);
        waitUntil("the confirmation opens", () -> driver.findElement(By.id("confirm")).isDisplayed());
        assertThat(driver.switchTo().activeElement().getDomAttribute("id")).isEqualTo("confirm-cancel");
        driver.switchTo().activeElement().sendKeys(Keys.TAB);
        assertThat(driver.switchTo().activeElement().getDomAttribute("id")).isEqualTo("confirm-ok");
        driver.switchTo().activeElement().sendKeys(Keys.ENTER);

        waitUntil("the redrive is reported", () -> driver.findElement(By.id("bulk-outcome")).getText()
                .equals("Redrive: 5 of 5 matching."));
    }

    @Test
    void theConsolePages_carryAStrictContentSecurityPolicy_andLinkTheHeapView() {
        RestAssured.given().baseUri(baseUrl()).redirects().follow(false).get("/console").then().statusCode(302);
        for (String path : List.of("/console/", "/console/js/app.js", "/console/console.css")) {
            RestAssured.given().baseUri(baseUrl()).get(path).then().statusCode(200)
                    .header("Content-Security-Policy", equalTo(ConsolePages.CONTENT_SECURITY_POLICY));
        }
        open("/console");
        assertThat(driver.findElement(By.id("heap-view-link")).getDomAttribute("href")).isEqualTo("/");
    }

    // ---- helpers ----

    void open(String path) {
        driver.get(baseUrl() + path);
    }

    /** Presses Tab from the top of the page until {@code target} has the focus (at most 200 times). */
    WebElement focusByTab(By target) {
        WebElement wanted = driver.findElement(target);
        driver.findElement(By.tagName("body")).click();
        for (int i = 0; i < 200; i++) {
            WebElement active = driver.switchTo().activeElement();
            if (active.equals(wanted)) {
                return active;
            }
            active.sendKeys(Keys.TAB);
        }
        throw new AssertionError("Tab never reached " + target);
    }

    String fact(String key) {
        // read in one script: the summary is drawn anew every 2 s
        return String.valueOf(driver.executeScript("return document.querySelector("
                + "\"#clock-summary dd[data-fact='" + key + "']\")?.textContent ?? '';"));
    }

    private static boolean alertShown() {
        try {
            driver.switchTo().alert();
            return true;
        } catch (NoAlertPresentException none) {
            return false;
        }
    }

    static ChromeDriver driver() {
        return driver;
    }

    void waitUntil(String what, BooleanSupplier condition) {
        try {
            new WebDriverWait(driver, PATIENCE, Duration.ofMillis(50))
                    .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                    .until(ignored -> condition.getAsBoolean());
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError("timed out waiting until " + what + "; the error box says \""
                    + driver.findElement(By.id("error")).getDomProperty("textContent") + "\"", e);
        }
    }

    /** Saves the window as target/console/{@code name} (copied to docs/console by hand when the pages change). */
    static void screenshot(String name) throws IOException {
        Path target = Path.of("target", "console", name);
        Files.createDirectories(target.getParent());
        Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), target, StandardCopyOption.REPLACE_EXISTING);
    }
}
