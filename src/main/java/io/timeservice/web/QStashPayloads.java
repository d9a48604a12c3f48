package io.timeservice.web;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import io.timeservice.model.QStashMessage;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A QStash message as its timer's payload: {@code {"qstash":{"url","method","timeout","headers":{...},"body":"<base64>"}}},
 * written by the publish call and read by the pusher's {@code QStashSender}. Thread-safe.
 */
@Component
class QStashPayloads implements QStashMessage.Codec {

    private static final JsonMapper JSON = JsonMapper.shared();

    @Override
    public String write(QStashMessage message) {
        ObjectNode payload = JSON.createObjectNode();
        ObjectNode qstash = payload.putObject("qstash");
        qstash.put("url", message.url()).put("method", message.method()).put("timeout", message.timeoutMillis());
        ObjectNode headers = qstash.putObject("headers");
        message.headers().forEach(headers::put);
        qstash.put("body", Base64.getEncoder().encodeToString(message.body()));
        return JSON.writeValueAsString(payload);
    }

    @Override
    public QStashMessage read(String payload) {
        if (payload == null) {
            return null;
        }
        try {
            JsonNode qstash = JSON.readTree(payload).path("qstash");
            if (!qstash.isObject()) {
                return null;
            }
            Map<String, String> headers = new LinkedHashMap<>();
            qstash.path("headers").properties().forEach(header -> headers.put(header.getKey(),
                    header.getValue().asString()));
            return new QStashMessage(qstash.path("url").asString(), qstash.path("method").asString("POST"),
                    qstash.path("timeout").asLong(), headers, Base64.getDecoder().decode(qstash.path("body").asString("")));
        } catch (JacksonException | IllegalArgumentException notAMessage) {
            return null;
        }
    }
}
