package io.timeservice.web;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import io.timeservice.model.CloudTask;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A Cloud Tasks task as its timer's payload:
 * {@code {"cloudtasks":{"url","method","headers":{...},"body":"<base64>","deadline","created"}}}, written by the
 * create call and read by the task calls and the pusher's {@code CloudTasksSender}. Thread-safe.
 */
@Component
class CloudTasksPayloads implements CloudTask.Codec {

    private static final JsonMapper JSON = JsonMapper.shared();

    @Override
    public String write(CloudTask task) {
        ObjectNode payload = JSON.createObjectNode();
        ObjectNode node = payload.putObject("cloudtasks");
        node.put("url", task.url()).put("method", task.method());
        ObjectNode headers = node.putObject("headers");
        task.headers().forEach(headers::put);
        node.put("body", Base64.getEncoder().encodeToString(task.body()));
        node.put("deadline", task.dispatchDeadlineMillis()).put("created", task.createTime());
        return JSON.writeValueAsString(payload);
    }

    @Override
    public CloudTask read(String payload) {
        if (payload == null) {
            return null;
        }
        try {
            JsonNode node = JSON.readTree(payload).path("cloudtasks");
            if (!node.isObject()) {
                return null;
            }
            Map<String, String> headers = new LinkedHashMap<>();
            node.path("headers").properties().forEach(header -> headers.put(header.getKey(),
                    header.getValue().asString()));
            return new CloudTask(node.path("url").asString(), node.path("method").asString("POST"), headers,
                    Base64.getDecoder().decode(node.path("body").asString("")), node.path("deadline").asLong(),
                    node.path("created").asLong());
        } catch (JacksonException | IllegalArgumentException notATask) {
            return null;
        }
    }
}
