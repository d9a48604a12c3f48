package io.timeservice.web;

import java.lang.reflect.Type;

import org.springframework.core.MethodParameter;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;

/**
 * Puts {@link StrictJsonConverter} in charge of the {@link JsonRequest} records, and refuses an empty body as it
 * refuses a blank one (Spring MVC does not hand an empty body to a converter).
 */
@ControllerAdvice
class RequestBodyBinding extends RequestBodyAdviceAdapter implements WebMvcConfigurer {

    private final StrictJsonConverter converter;

    RequestBodyBinding(StrictJsonConverter converter) {
        this.converter = converter;
    }

    @Override
    public void configureMessageConverters(HttpMessageConverters.ServerBuilder converters) {
        converters.addCustomConverter(converter);
    }

    @Override
    public boolean supports(MethodParameter parameter, Type targetType,
                            Class<? extends HttpMessageConverter<?>> converterType) {
        return JsonRequest.class.isAssignableFrom(parameter.getParameterType());
    }

    @Override
    public Object handleEmptyBody(Object body, HttpInputMessage input, MethodParameter parameter, Type targetType,
                                  Class<? extends HttpMessageConverter<?>> converterType) {
        throw StrictJsonConverter.invalidRequest("the body must be a JSON object");
    }
}
