package io.tbactors.sample.iot.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;

class H2TcpServerTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
            .withUserConfiguration(H2TcpServer.class);

    @Test
    void withoutAPortNothingIsServed() {
        runner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(H2TcpServer.class));
    }

    @Test
    void aPortOutsideTheRangeFailsStartUpNamingTheProperty() {
        runner.withPropertyValues("sample.h2-server.port=70000").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasRootCauseInstanceOf(BindValidationException.class)
                    .rootCause().hasMessageContaining("sample.h2-server.port").hasMessageContaining("65535");
        });
    }

    @Test
    void anotherJvmsConnectionReadsWhatThisNodeWroteThroughTheServedPort() throws Exception {
        Path directory = Files.createTempDirectory("h2-server");
        String file = directory.resolve("db").toAbsolutePath().toString();
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        try (Connection local = DriverManager.getConnection("jdbc:h2:file:" + file + ";DB_CLOSE_ON_EXIT=FALSE", "sa", "")) {
            local.createStatement().execute("create table reading(seq int)");
            local.createStatement().execute("insert into reading values (7)");
            int served = port;
            runner.withPropertyValues("sample.h2-server.port=" + served).run(context -> {
                assertThat(context).hasSingleBean(H2TcpServer.class);
                assertThat(context.getBean(H2TcpServer.class).isRunning()).isTrue();
                try (Connection remote = DriverManager.getConnection("jdbc:h2:tcp://localhost:" + served + "/" + file, "sa", "");
                     ResultSet rows = remote.createStatement().executeQuery("select seq from reading")) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getInt(1)).isEqualTo(7);
                }
            });
        }
    }
}
