package io.timeservice.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 49 item 4: a virtual clock's document may hold timers due before its {@code now} (the service writes such
 * documents: an advance of a queueing clock whose deliveries hold their limit moves the time without firing). A load
 * keeps them as they are, so save, load, save stays the identity; they fire on the next advance; and
 * {@code /queue/invariants} reports the same on both stores (the clock has fired through just before the earliest).
 */
class OverdueLoadRestTest extends RestTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @AfterEach
    void deleteClocks() {
        deleteClocksButDefault();
    }

    @Test
    void aDocumentWithTimersDueBeforeItsNow_loadsAsItIs_reportsNoOverdue_andFiresThemOnTheNextAdvance() {
        String document = "{\"format\":1,\"clock\":{\"now\":5000,\"nextSequence\":3},\"timers\":["
                + "{\"id\":\"late\",\"fireTime\":3000,\"sequence\":1},"
                + "{\"id\":\"later\",\"fireTime\":8000,\"sequence\":2}]}";
        json(document).put("/clocks/held/snapshot").then().statusCode(201);

        given().get("/clocks/held/queue/invariants").then().statusCode(200).body("ok", equalTo(true));
        String saved = given().get("/clocks/held/snapshot").then().statusCode(200).extract().asString();
        assertThat(JSON.readTree(saved).at("/timers/0/fireTime").asLong()).isEqualTo(3000);
        json(saved).put("/clocks/again/snapshot").then().statusCode(201);
        assertThat(SnapshotRestTest.withoutName(JSON.readTree(given().get("/clocks/again/snapshot").asString())))
                .isEqualTo(SnapshotRestTest.withoutName(JSON.readTree(saved)));
        json("{\"copyOf\":\"held\"}").put("/clocks/fork").then().statusCode(201);
        given().get("/clocks/fork/queue/invariants").then().statusCode(200).body("ok", equalTo(true));

        json("{\"by\":0}").post("/clocks/held/advance").then().statusCode(200)
                .body("fired.id", equalTo(List.of("late"))).body("now", equalTo(5000));
        given().get("/clocks/held/queue/invariants").then().statusCode(200).body("ok", equalTo(true));
    }
}
