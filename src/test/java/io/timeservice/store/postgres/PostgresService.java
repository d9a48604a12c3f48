package io.timeservice.store.postgres;

import java.io.IOException;

import io.timeservice.ServiceProcess;

/**
 * The packaged jar as one instance of several on one database: {@code timeservice.store=postgresql} on the JDBC URL
 * given (a schema the test migrated already, or a database of its own), no journal.
 */
final class PostgresService {

    private PostgresService() {
    }

    static ServiceProcess start(String jdbcUrl) throws IOException {
        return ServiceProcess.start("--timeservice.store=postgresql", "--timeservice.durability=none",
                "--spring.datasource.url=" + jdbcUrl);
    }
}
