package io.timeservice.store.postgres;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import io.timeservice.ServiceProcess;

/**
 * The packaged jar as one instance of several on one database: {@code timeservice.store=postgresql} on the JDBC URL
 * given (a schema the test migrated already, or a database of its own), no journal.
 */
final class PostgresService {

    private PostgresService() {
    }

    static ServiceProcess start(String jdbcUrl, String... extraArgs) throws IOException {
        List<String> args = new ArrayList<>(List.of("--timeservice.store=postgresql",
                "--timeservice.durability=none", "--spring.datasource.url=" + jdbcUrl));
        args.addAll(List.of(extraArgs));
        return ServiceProcess.start(args.toArray(String[]::new));
    }
}
