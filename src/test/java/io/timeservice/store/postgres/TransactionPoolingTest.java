package io.timeservice.store.postgres;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** The start-up check of a pool behind a pooler in transaction mode: no statement prepared on the server. */
class TransactionPoolingTest {

    @Test
    void pgjdbcsDefaultThreshold_stopsStartUp_namingTheUrlAndTheSettingToAdd() {
        assertThatThrownBy(() -> TransactionPooling.requireNoServerPreparedStatements(source(""),
                "spring.datasource.url"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("spring.datasource.url goes through a pooler in transaction mode"
                        + " (timeservice.postgresql.direct-url is set), where statements prepared on the server are"
                        + " lost between transactions, but pgjdbc prepares them (prepareThreshold=5):"
                        + " add prepareThreshold=0 to spring.datasource.url");
        assertThatThrownBy(() -> TransactionPooling.requireNoServerPreparedStatements(source("prepareThreshold=-1"),
                "spring.datasource.url")).hasMessageContaining("(prepareThreshold=-1)");
    }

    @Test
    void noThreshold_orTheSimpleProtocol_passes() {
        assertThatCode(() -> TransactionPooling.requireNoServerPreparedStatements(source("prepareThreshold=0"),
                "spring.datasource.url")).doesNotThrowAnyException();
        assertThatCode(() -> TransactionPooling.requireNoServerPreparedStatements(source("preferQueryMode=simple"),
                "spring.datasource.url")).doesNotThrowAnyException();
    }

    @Test
    void aDatabaseThatCannotBeReached_stopsStartUp_sayingWhichUrl() throws Exception {
        PGSimpleDataSource nowhere = new PGSimpleDataSource();
        nowhere.setURL("jdbc:postgresql://127.0.0.1:" + PrivatePostgres.freePort() + "/none?connectTimeout=2");
        assertThatThrownBy(() -> TransactionPooling.requireNoServerPreparedStatements(nowhere,
                "spring.datasource.url")).hasMessageStartingWith("cannot check the connections of spring.datasource.url");
    }

    private static PGSimpleDataSource source(String parameter) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        String url = TestDatabase.URL;
        dataSource.setURL(parameter.isEmpty() ? url : url + (url.contains("?") ? "&" : "?") + parameter);
        return dataSource;
    }
}
