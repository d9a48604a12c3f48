package io.timeservice.store.memory.journal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.timeservice.model.ClockRate;
import io.timeservice.model.ClockSettings;
import io.timeservice.model.FlowLimits;
import io.timeservice.model.FlowOverride;
import io.timeservice.model.FlowRate;
import io.timeservice.model.FlowRules;
import io.timeservice.model.ProblemException;
import io.timeservice.model.PushTarget;
import io.timeservice.model.RetryPolicy;
import io.timeservice.model.ScaledTime;
import io.timeservice.store.memory.Mutation;

/**
 * The journal bodies of a clock's settings, beside {@link RecordCodec}, which hands them here: settings changed
 * (13) and a scaled clock's rate changed (43), each alone or inside a clock's record; and the settings' fields, which
 * a clock's creation and a loaded clock's record hold too. Settings are u8 mode (0 virtual, 1 system, 2 scaled), u8
 * delivery (0 response, 1 queue, 2 push), u32 maxAttempts, u64 initialBackoff, f64 multiplier, u64 maxBackoff, f64
 * jitter; then, for mode scaled, u64 rate in millionths; then, for delivery push, the push target: url string, u64
 * timeout, u32 concurrency, u32 header count and that many name and value strings, u32 secret count and that many
 * strings; then, when the mode byte has {@link #DEDUPE_FLAG} set (format {@link JournalFiles#DEDUPE_FORMAT_VERSION}
 * on, and only for a clock with a dedupe window), u64 dedupeWindow. Older journals never set the flag. Then, when
 * the mode byte has {@link #FLOW_FLAG} set (format {@link JournalFiles#FLOW_FORMAT_VERSION} on), the flow limits: u32
 * concurrency, u64 rate limit, u64 rate period, u32 burst, u32 clockConcurrency, u64 clockRate limit, u64 clockRate
 * period, each 0 for a limit that does not apply. Older settings never have the flag, so they read as before. Then,
 * when the mode byte has {@link #FLOW_KEYS_FLAG} set too (format {@link JournalFiles#FLOW_KEYS_FORMAT_VERSION} on),
 * the overrides of single keys: u32 count, then each key string and its override as {@link RecordTag#FLOW_KEY_PUT}
 * holds it. The records of an override changed (46) or deleted (47) are this family's too. Then, when the mode byte
 * has {@link #RETRY_DURATION_FLAG} (format {@link JournalFiles#CLOCK_CHANGE_FORMAT_VERSION} on), u64 the retry
 * policy's maxRetryDuration; {@link #PAUSED_FLAG} says the clock is paused. A live clock's change (48) is u64 now,
 * then the settings.
 */
final class SettingsRecords {

    /** Set in the mode byte of settings followed by a dedupe window. */
    static final int DEDUPE_FLAG = 0x40;

    /** Set in the mode byte when flow limits follow the settings (after the dedupe window, if any). */
    static final int FLOW_FLAG = 0x20;

    /** Set in the mode byte (with {@link #FLOW_FLAG}) when overrides of single keys follow the flow limits. */
    static final int FLOW_KEYS_FLAG = 0x10;

    /** Set in the mode byte of a paused clock's settings. */
    static final int PAUSED_FLAG = 0x08;

    /** Set in the mode byte when the retry policy's maxRetryDuration follows, last. */
    static final int RETRY_DURATION_FLAG = 0x04;

    private static final int FLAGS = DEDUPE_FLAG | FLOW_FLAG | FLOW_KEYS_FLAG | PAUSED_FLAG | RETRY_DURATION_FLAG;

    private SettingsRecords() {
    }

    /** Writes {@code mutation}'s body when it is of this family; whether it was. */
    static boolean encode(Mutation mutation, GrowableBuffer out) {
        if (mutation instanceof Mutation.ClockConfigured configured) {
            out.putByte(RecordTag.CLOCK_CONFIGURED.code);
            putSettings(configured.settings(), out);
        } else if (mutation instanceof Mutation.FlowKeyChanged changed) {
            out.putByte((changed.override() == null ? RecordTag.FLOW_KEY_DELETED : RecordTag.FLOW_KEY_PUT).code);
            out.putLong(changed.now());
            out.putString(changed.key());
            if (changed.override() != null) {
                putOverride(changed.override(), out);
            }
        } else if (mutation instanceof Mutation.ClockChanged changed) {
            out.putByte(RecordTag.CLOCK_CHANGED.code);
            out.putLong(changed.now());
            putSettings(changed.settings(), out);
        } else if (mutation instanceof Mutation.RateChanged changed) {
            out.putByte(RecordTag.RATE_CHANGED.code);
            out.putLong(changed.time().wallAnchor());
            out.putLong(changed.time().clockAnchor());
            out.putLong(changed.time().rate().millionths());
        } else {
            return false;
        }
        return true;
    }

    /** Decodes the body after its tag {@code tag}, one of this family's. */
    static Mutation decode(RecordTag tag, ByteBuffer body) {
        return switch (tag) {
            case CLOCK_CONFIGURED -> new Mutation.ClockConfigured(getSettings(body));
            case CLOCK_CHANGED -> {
                long now = body.getLong();
                yield new Mutation.ClockChanged(getSettings(body), now);
            }
            case FLOW_KEY_PUT, FLOW_KEY_DELETED -> {
                long now = body.getLong();
                String key = RecordCodec.requireString(RecordCodec.getString(body), "flow key");
                yield new Mutation.FlowKeyChanged(key, tag == RecordTag.FLOW_KEY_PUT ? getOverride(body) : null, now);
            }
            case RATE_CHANGED -> {
                long wallAnchor = body.getLong();
                long clockAnchor = body.getLong();
                yield new Mutation.RateChanged(scaledTime(wallAnchor, clockAnchor, body.getLong()));
            }
            default -> throw new IllegalArgumentException("not a settings record: " + tag);
        };
    }

    static void putSettings(ClockSettings settings, GrowableBuffer out) {
        RetryPolicy retry = settings.retry();
        out.putByte((byte) (settings.mode().ordinal() | (settings.dedupes() ? DEDUPE_FLAG : 0)
                | (settings.flow() == null ? 0 : FLOW_FLAG)
                | (settings.flow() == null || settings.flow().keys().isEmpty() ? 0 : FLOW_KEYS_FLAG)
                | (settings.paused() ? PAUSED_FLAG : 0) | (retry.maxRetryDurationMillis() == 0 ? 0 : RETRY_DURATION_FLAG)));
        out.putByte((byte) settings.delivery().ordinal());
        out.putInt(retry.maxAttempts());
        out.putLong(retry.initialBackoffMillis());
        out.putLong(Double.doubleToLongBits(retry.multiplier()));
        out.putLong(retry.maxBackoffMillis());
        out.putLong(Double.doubleToLongBits(retry.jitter()));
        if (settings.isScaled()) {
            out.putLong(settings.rate().millionths());
        }
        PushTarget push = settings.push();
        if (push != null) {
            out.putString(push.url());
            out.putLong(push.timeoutMillis());
            out.putInt(push.concurrency());
            out.putInt(push.headers().size());
            for (Map.Entry<String, String> header : push.headers().entrySet()) {
                out.putString(header.getKey());
                out.putString(header.getValue());
            }
            out.putInt(push.secrets().size());
            for (String secret : push.secrets()) {
                out.putString(secret);
            }
        }
        if (settings.dedupes()) {
            out.putLong(settings.dedupeWindowMillis());
        }
        FlowLimits flow = settings.flow();
        if (flow != null) {
            out.putInt(flow.concurrency() == null ? 0 : flow.concurrency());
            putRate(flow.rate(), out);
            out.putInt(flow.burst() == null ? 0 : flow.burst());
            out.putInt(flow.clockConcurrency() == null ? 0 : flow.clockConcurrency());
            putRate(flow.clockRate(), out);
            if (!flow.keys().isEmpty()) {
                out.putInt(flow.keys().size());
                for (Map.Entry<String, FlowOverride> key : flow.keys().entrySet()) {
                    out.putString(key.getKey());
                    putOverride(key.getValue(), out);
                }
            }
        }
        if (retry.maxRetryDurationMillis() != 0) {
            out.putLong(retry.maxRetryDurationMillis());
        }
    }

    private static void putOverride(FlowOverride override, GrowableBuffer out) {
        out.putInt(override.concurrency() == null ? 0 : override.concurrency());
        putRate(override.rate(), out);
    }

    private static FlowOverride getOverride(ByteBuffer body) {
        return new FlowOverride(positive(body.getInt()), getRate(body));
    }

    private static FlowLimits getKeys(FlowLimits flow, ByteBuffer body) {
        int count = body.getInt();
        if (count < 0 || count > FlowRules.MAX_KEY_OVERRIDES) {
            throw new RecordCodec.CorruptRecordException("flow settings with " + count + " key overrides");
        }
        TreeMap<String, FlowOverride> keys = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            keys.put(RecordCodec.requireString(RecordCodec.getString(body), "flow key"), getOverride(body));
        }
        return new FlowLimits(flow.concurrency(), flow.rate(), flow.burst(), flow.clockConcurrency(),
                flow.clockRate(), keys);
    }

    private static void putRate(FlowRate rate, GrowableBuffer out) {
        out.putLong(rate == null ? 0 : rate.limit());
        out.putLong(rate == null ? 0 : rate.periodMillis());
    }

    private static FlowLimits getFlow(ByteBuffer body) {
        Integer concurrency = positive(body.getInt());
        FlowRate rate = getRate(body);
        Integer burst = positive(body.getInt());
        Integer clockConcurrency = positive(body.getInt());
        return new FlowLimits(concurrency, rate, burst, clockConcurrency, getRate(body));
    }

    private static FlowRate getRate(ByteBuffer body) {
        long limit = body.getLong();
        long period = body.getLong();
        return limit == 0 ? null : new FlowRate(limit, period);
    }

    private static Integer positive(int value) {
        return value == 0 ? null : value;
    }

    static ClockSettings getSettings(ByteBuffer body) {
        int flagged = body.get();
        boolean dedupes = flagged >= 0 && (flagged & DEDUPE_FLAG) != 0;
        boolean flowFollows = flagged >= 0 && (flagged & FLOW_FLAG) != 0;
        boolean keysFollow = flowFollows && (flagged & FLOW_KEYS_FLAG) != 0;
        boolean paused = flagged >= 0 && (flagged & PAUSED_FLAG) != 0;
        boolean durationFollows = flagged >= 0 && (flagged & RETRY_DURATION_FLAG) != 0;
        int mode = flagged >= 0 ? flagged & ~FLAGS : flagged;
        int delivery = body.get();
        if (mode < 0 || mode >= ClockSettings.Mode.values().length || delivery < 0
                || delivery >= ClockSettings.DeliveryMode.values().length) {
            throw new RecordCodec.CorruptRecordException("clock settings of mode " + mode + " and delivery "
                    + delivery);
        }
        try {
            RetryPolicy retry = new RetryPolicy(body.getInt(), body.getLong(), Double.longBitsToDouble(body.getLong()),
                    body.getLong(), Double.longBitsToDouble(body.getLong()));
            ClockSettings.Mode decoded = ClockSettings.Mode.values()[mode];
            ClockRate rate = decoded == ClockSettings.Mode.SCALED ? new ClockRate(body.getLong()) : null;
            ClockSettings.DeliveryMode deliveryMode = ClockSettings.DeliveryMode.values()[delivery];
            PushTarget push = deliveryMode == ClockSettings.DeliveryMode.PUSH ? getPushTarget(body) : null;
            long window = dedupes ? body.getLong() : 0;
            FlowLimits flow = flowFollows ? getFlow(body) : null;
            FlowLimits limits = keysFollow ? getKeys(flow, body) : flow;
            if (durationFollows) {
                retry = new RetryPolicy(retry.maxAttempts(), retry.initialBackoffMillis(), retry.multiplier(),
                        retry.maxBackoffMillis(), retry.jitter(), body.getLong());
            }
            return new ClockSettings(decoded, deliveryMode, retry, rate, push, window, limits, paused);
        } catch (ProblemException invalid) {
            throw new RecordCodec.CorruptRecordException("clock settings that do not validate: "
                    + invalid.getMessage());
        }
    }

    private static PushTarget getPushTarget(ByteBuffer body) {
        String url = RecordCodec.requireString(RecordCodec.getString(body), "push url");
        long timeout = body.getLong();
        int concurrency = body.getInt();
        int headerCount = body.getInt();
        if (headerCount < 0 || headerCount > PushTarget.MAX_HEADERS) {
            throw new RecordCodec.CorruptRecordException("a push target with " + headerCount + " headers");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < headerCount; i++) {
            headers.put(RecordCodec.requireString(RecordCodec.getString(body), "header name"),
                    RecordCodec.requireString(RecordCodec.getString(body), "header"));
        }
        int secretCount = body.getInt();
        if (secretCount < 0 || secretCount > PushTarget.MAX_SECRETS) {
            throw new RecordCodec.CorruptRecordException("a push target with " + secretCount + " secrets");
        }
        List<String> secrets = new ArrayList<>(secretCount);
        for (int i = 0; i < secretCount; i++) {
            secrets.add(RecordCodec.requireString(RecordCodec.getString(body), "secret"));
        }
        return new PushTarget(url, timeout, concurrency, headers, secrets);
    }

    private static ScaledTime scaledTime(long wallAnchor, long clockAnchor, long millionths) {
        try {
            return new ScaledTime(wallAnchor, clockAnchor, new ClockRate(millionths));
        } catch (ProblemException | IllegalArgumentException invalid) {
            throw new RecordCodec.CorruptRecordException("a scaled time that does not validate: "
                    + invalid.getMessage());
        }
    }
}
