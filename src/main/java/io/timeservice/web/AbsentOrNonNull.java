package io.timeservice.web;

import tools.jackson.core.JsonParser;
import tools.jackson.databind.BeanProperty;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.exc.InvalidNullException;

/**
 * Binds a member that may be left out but not sent as {@code null}: absent binds as {@code null}, an explicit
 * {@code null} is refused. Jackson's {@code Nulls.FAIL} refuses both, as a record's constructor sees no difference.
 * The value itself is read by Jackson's own deserializer for the member's type, under the mapper's strict settings.
 */
final class AbsentOrNonNull extends ValueDeserializer<Object> {

    private final ValueDeserializer<Object> value;
    private final BeanProperty property;

    AbsentOrNonNull() {
        this(null, null);   // Jackson's instance for the annotation, made contextual per property
    }

    private AbsentOrNonNull(ValueDeserializer<Object> value, BeanProperty property) {
        this.value = value;
        this.property = property;
    }

    @Override
    public ValueDeserializer<?> createContextual(DeserializationContext context, BeanProperty property) {
        return new AbsentOrNonNull(context.findContextualValueDeserializer(property.getType(), property), property);
    }

    @Override
    public Object deserialize(JsonParser parser, DeserializationContext context) {
        return value.deserialize(parser, context);
    }

    @Override
    public Object getNullValue(DeserializationContext context) {
        throw InvalidNullException.from(context, property.getFullName(), property.getType());
    }

    @Override
    public Object getAbsentValue(DeserializationContext context) {
        return null;
    }
}
