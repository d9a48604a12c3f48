package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL store's statements on its tables are named constants of its areas' statement classes
 * ({@code TimerSql}, {@code FiringSql}, {@code ClockSql}, {@code ScheduleSql}, {@code DeliverySql},
 * {@code FiringLookSql}, {@code StoreSql}, {@code IdempotencySql}) — on every table its migrations create, kept as SQL to be reviewed as SQL, where {@code StatementPlansTest}
 * finds and checks them: none is a constant of the class that runs it, none is written inline.
 */
class NamedStatementsTest {


    @Test
    void everyStatementOnTheStoresTables_isAConstantOfAStatementClass() throws Exception {
        Map<String, String> statements = StoreStatements.named(StoreStatements.onTheStoresTables());

        assertThat(statements).as("statements found by reflection").hasSizeGreaterThan(80);
        assertThat(statements.keySet().stream().filter(name -> !name.substring(0, name.indexOf('.')).endsWith("Sql")))
                .as("statements named outside a statement class").isEmpty();
    }

    @Test
    void noStatementOnTheStoresTables_isWrittenInline() throws Exception {
        assertThat(StoreStatements.literals(StoreStatements.onTheStoresTables(), file -> file.endsWith("Sql.java")))
                .as("name them as constants of the area's statement class, so that StatementPlansTest checks them")
                .isEmpty();
    }
}
