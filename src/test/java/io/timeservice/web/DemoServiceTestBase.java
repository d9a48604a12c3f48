package io.timeservice.web;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.hamcrest.Matchers.equalTo;

/**
 * The running service on a random port with the demo queue enabled, emptied before every test. Every test class
 * that extends this shares one application context (same configuration), so the suite starts Spring once.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "timeservice.demo.enabled=true")
abstract class DemoServiceTestBase {

    @LocalServerPort
    int port;

    @BeforeEach
    void emptyTheDemoQueue() {
        api().post("/demo/reset").then().statusCode(200).body("now", equalTo(0));
    }

    RequestSpecification api() {
        return RestAssured.given().baseUri("http://127.0.0.1").port(port).contentType(ContentType.JSON);
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }
}
