package io.timeservice.config;

import javax.sql.DataSource;

import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.core.env.Environment;

/**
 * {@code timeservice.postgresql.direct-url} with the pool's credentials ({@code spring.datasource.username} and
 * {@code password}, unless the URL carries its own): connections that reach PostgreSQL without the pooler in front of
 * {@code spring.datasource.url}, for what needs a session of its own: the {@code LISTEN} connection and Flyway.
 */
record DirectConnection(String url, String username, String password) {

    static DirectConnection of(String url, Environment environment) {
        return new DirectConnection(url, environment.getProperty("spring.datasource.username"),
                environment.getProperty("spring.datasource.password"));
    }

    /** A data source without a pool: each {@code getConnection} opens a new connection (the listener keeps one). */
    DataSource dataSource() {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(url);
        if (username != null) {
            dataSource.setUser(username);
        }
        if (password != null) {
            dataSource.setPassword(password);
        }
        return dataSource;
    }

    /** Points Flyway here instead of the pool: its lock and its settings are session state. */
    void migrateThrough(FluentConfiguration flyway) {
        flyway.dataSource(url, username, password);
    }

    @Override
    public String toString() { // never the password
        return "DirectConnection[" + url + "]";
    }
}
