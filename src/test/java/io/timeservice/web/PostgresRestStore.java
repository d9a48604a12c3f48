package io.timeservice.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.test.context.ContextConfiguration;

/**
 * Runs a REST test class on the PostgreSQL store, on the schema {@link PostgresRestDatabase} keeps for the whole
 * test JVM. Put it on a {@code *PostgresTest} twin instead of a {@code @DynamicPropertySource} method: the properties
 * come from one {@link PostgresRestDatabase.Initializer}, part of the context's cache key, so every twin whose
 * memory-store suite shares a context shares one PostgreSQL context too (a {@code @DynamicPropertySource} method is
 * a key of its own, so each twin started, migrated and kept a service of its own: 22 of them).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ContextConfiguration(initializers = PostgresRestDatabase.Initializer.class)
@interface PostgresRestStore {
}
