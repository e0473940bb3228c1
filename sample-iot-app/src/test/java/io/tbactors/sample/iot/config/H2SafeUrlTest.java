package io.tbactors.sample.iot.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;

class H2SafeUrlTest {

    @Test
    void anH2FileUrlWithoutTheOptionsGetsBoth() {
        assertThat(H2SafeUrl.safe("jdbc:h2:file:./data/sample-iot"))
                .isEqualTo("jdbc:h2:file:./data/sample-iot;DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0");
    }

    @Test
    void anH2UrlGivenAsAPathIsAFileDatabaseToo() {
        assertThat(H2SafeUrl.safe("jdbc:h2:~/sample-iot")).isEqualTo("jdbc:h2:~/sample-iot;DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0");
    }

    @Test
    void anH2FileUrlWithAWriteDelayIsMadeToWriteAtCommit() {
        assertThat(H2SafeUrl.safe("jdbc:h2:file:./x;write_delay=500;CACHE_SIZE=8192"))
                .isEqualTo("jdbc:h2:file:./x;CACHE_SIZE=8192;DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0");
    }

    @Test
    void anH2UrlThatClosesOnExitIsMadeSafeAndItsOtherOptionsKept() {
        assertThat(H2SafeUrl.safe("jdbc:h2:mem:x;db_close_on_exit=true;DB_CLOSE_DELAY=-1"))
                .isEqualTo("jdbc:h2:mem:x;DB_CLOSE_DELAY=-1;DB_CLOSE_ON_EXIT=FALSE");
    }

    @Test
    void inMemoryAndRemoteDatabasesGetNoWriteDelay() {
        assertThat(H2SafeUrl.safe("jdbc:h2:mem:x")).isEqualTo("jdbc:h2:mem:x;DB_CLOSE_ON_EXIT=FALSE");
        assertThat(H2SafeUrl.safe("jdbc:h2:tcp://localhost:9092/./x")).isEqualTo("jdbc:h2:tcp://localhost:9092/./x;DB_CLOSE_ON_EXIT=FALSE");
    }

    @Test
    void aSafeUrlStaysAsItIs() {
        assertThat(H2SafeUrl.safe("jdbc:h2:file:./x;AUTO_SERVER=TRUE;DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0"))
                .isEqualTo("jdbc:h2:file:./x;AUTO_SERVER=TRUE;DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0");
    }

    @Test
    void otherDatabasesAreLeftAlone() {
        assertThat(H2SafeUrl.safe("jdbc:postgresql://localhost:5432/tbactors"))
                .isEqualTo("jdbc:postgresql://localhost:5432/tbactors");
        assertThat(H2SafeUrl.safe(null)).isNull();
    }

    @Test
    void theDataSourcePropertiesGetTheSafeUrlBeforeTheDataSourceIsMade() {
        DataSourceProperties properties = new DataSourceProperties();
        properties.setUrl("jdbc:h2:file:./data/sample-iot");

        new H2SafeUrl().postProcessAfterInitialization(properties, "dataSourceProperties");

        assertThat(properties.getUrl()).endsWith(";DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0");
    }
}
