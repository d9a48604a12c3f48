package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * With tokens configured, the console asks for one and keeps it for the tab: a read-only token sees the clock but no
 * button that changes anything, and a change forged from the page with it is refused 403; a write token sees them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "timeservice.security.read-tokens=" + ConsoleReadOnlyBrowserTest.READ_TOKEN,
        "timeservice.security.write-tokens=" + ConsoleReadOnlyBrowserTest.WRITE_TOKEN})
class ConsoleReadOnlyBrowserTest {

    static final String READ_TOKEN = "console-read-token-0123456789abcdef";
    static final String WRITE_TOKEN = "console-write-token-0123456789abcdef";

    @LocalServerPort
    int port;

    private RequestSpecification writer() {
        return RestAssured.given().baseUri("http://127.0.0.1").port(port).contentType(ContentType.JSON)
                .header("Authorization", "Bearer " + WRITE_TOKEN);
    }

    @Test
    void aReadOnlyToken_seesNoChangeButton_andAForgedChangeIsRefused() {
        writer().body("{\"delivery\":\"queue\",\"retry\":{\"maxAttempts\":1}}").put("/clocks/watched").then()
                .statusCode(201);
        writer().body("{\"id\":\"t1\",\"delay\":1000000,\"payload\":{\"a\":1}}").post("/clocks/watched/timers").then()
                .statusCode(201);
        writer().body("{\"id\":\"d1\",\"delay\":0}").post("/clocks/watched/timers").then().statusCode(201);
        writer().body("{\"by\":0}").post("/clocks/watched/advance").then().statusCode(200);
        writer().body("{\"max\":10,\"lease\":1000}").post("/clocks/watched/deliveries/claim").then().statusCode(200);
        writer().body("{\"by\":1000}").post("/clocks/watched/advance").then().statusCode(200);

        try (HeadlessChromium chromium = HeadlessChromium.start(1280, 900)) {
            ChromeDriver driver = chromium.driver();
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30), Duration.ofMillis(50));
            driver.get("http://127.0.0.1:" + port + "/console/#/clock/watched");
            useToken(driver, wait, READ_TOKEN, "read");

            try {
                wait.until(ignored -> driver.findElements(By.cssSelector("#dead-rows tr")).size() == 1
                        && driver.findElements(By.cssSelector("tr[data-timer='t1']")).size() == 1);
            } catch (RuntimeException e) {
                throw new AssertionError(driver.getPageSource(), e);
            }
            assertThat(driver.findElements(By.cssSelector("[data-change], #redrive-all, #delete-all, #advance-by")))
                    .as("no change offered to a read-only token").isEmpty();
            assertThat(driver.executeScript("return sessionStorage.getItem('timeservice.console.token');"))
                    .isEqualTo(READ_TOKEN);
            assertThat(driver.executeScript("return localStorage.length;")).isEqualTo(0L);
            Object status = driver.executeAsyncScript("""
                    const done = arguments[arguments.length - 1];
                    fetch('/clocks/watched/deliveries/dead/redrive', {method: 'POST', headers: {
                        'Content-Type': 'application/json',
                        Authorization: 'Bearer ' + sessionStorage.getItem('timeservice.console.token')},
                        body: '{}'}).then((response) => done(response.status));""");
            assertThat(status).isEqualTo(403L);
            writer().get("/clocks/watched/deliveries").then().statusCode(200)
                    .body("dead", org.hamcrest.Matchers.equalTo(1));

            useToken(driver, wait, WRITE_TOKEN, "write");
            wait.until(ignored -> !driver.findElements(By.id("redrive-all")).isEmpty()
                    && !driver.findElements(By.cssSelector("tr[data-timer='t1'] [data-change='cancel']")).isEmpty());
        }
    }

    private static void useToken(ChromeDriver driver, WebDriverWait wait, String token, String access) {
        WebElement input = driver.findElement(By.id("token-input"));
        input.sendKeys(token);
        input.submit();
        wait.until(ignored -> access.equals(driver.findElement(By.id("access")).getDomAttribute("data-access")));
    }
}
