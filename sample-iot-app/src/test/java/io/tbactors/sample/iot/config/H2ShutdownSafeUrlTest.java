package io.tbactors.sample.iot.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;

class H2ShutdownSafeUrlTest {

    @Test
    void anH2FileUrlWithoutTheOptionGetsIt() {
        assertThat(H2ShutdownSafeUrl.safe("jdbc:h2:file:./data/sample-iot"))
                .isEqualTo("jdbc:h2:file:./data/sample-iot;DB_CLOSE_ON_EXIT=FALSE");
    }

    @Test
    void anH2UrlThatClosesOnExitIsMadeSafeAndItsOtherOptionsKept() {
        assertThat(H2ShutdownSafeUrl.safe("jdbc:h2:mem:x;db_close_on_exit=true;DB_CLOSE_DELAY=-1"))
                .isEqualTo("jdbc:h2:mem:x;DB_CLOSE_DELAY=-1;DB_CLOSE_ON_EXIT=FALSE");
    }

    @Test
    void aSafeUrlStaysAsItIs() {
        assertThat(H2ShutdownSafeUrl.safe("jdbc:h2:file:./x;AUTO_SERVER=TRUE;DB_CLOSE_ON_EXIT=FALSE"))
                .isEqualTo("jdbc:h2:file:./x;AUTO_SERVER=TRUE;DB_CLOSE_ON_EXIT=FALSE");
    }

    @Test
    void otherDatabasesAreLeftAlone() {
        assertThat(H2ShutdownSafeUrl.safe("jdbc:postgresql://localhost:5432/tbactors"))
                .isEqualTo("jdbc:postgresql://localhost:5432/tbactors");
        assertThat(H2ShutdownSafeUrl.safe(null)).isNull();
    }

    @Test
    void theDataSourcePropertiesGetTheSafeUrlBeforeTheDataSourceIsMade() {
        DataSourceProperties properties = new DataSourceProperties();
        properties.setUrl("jdbc:h2:file:./data/sample-iot");

        new H2ShutdownSafeUrl().postProcessAfterInitialization(properties, "dataSourceProperties");

        assertThat(properties.getUrl()).endsWith(";DB_CLOSE_ON_EXIT=FALSE");
    }
}
