package io.tbactors.sample.iot.config;

import java.sql.SQLException;

import io.tbactors.spring.TbActorsLifecycle;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import lombok.extern.slf4j.Slf4j;
import org.h2.tools.Server;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.validation.annotation.Validated;

/**
 * Serves this node's H2 database to the other nodes of the {@code cluster} profile over H2's TCP protocol, on
 * {@code sample.h2-server.port} (localhost only, existing databases only), so that nodes in other JVMs share it
 * through {@code jdbc:h2:tcp://localhost:<port>/<path>}. H2's own {@code AUTO_SERVER} mode would do the same
 * without a port, but it requires H2's shutdown hook (H2 refuses {@code AUTO_SERVER=TRUE} with
 * {@code DB_CLOSE_ON_EXIT=FALSE}), which closes the database while the actors still drain. This server starts
 * before the actors and stops after them.
 */
@Slf4j
@Component
@ConditionalOnProperty(prefix = "sample.h2-server", name = "port")
@EnableConfigurationProperties(H2TcpServer.Settings.class)
public class H2TcpServer implements SmartLifecycle {

    private final int port;
    private volatile Server server;

    public H2TcpServer(Settings settings) {
        this.port = settings.getPort();
    }

    @Override
    public void start() {
        try {
            server = Server.createTcpServer("-tcpPort", Integer.toString(port), "-ifExists").start();
        } catch (SQLException e) {
            throw new IllegalStateException("Could not serve the H2 database on port " + port + " (sample.h2-server.port): "
                    + e.getMessage(), e);
        }
        log.info("Serving the H2 database to other nodes on localhost:{} (jdbc:h2:tcp://localhost:{}/<database path>)", port, port);
    }

    @Override
    public void stop() {
        Server running = server;
        if (running != null) {
            running.stop();
            server = null;
        }
    }

    @Override
    public boolean isRunning() {
        return server != null;
    }

    /** @return a phase below the actors': it starts before them and stops after they drained */
    @Override
    public int getPhase() {
        return TbActorsLifecycle.PHASE - 100;
    }

    /** Settings under {@code sample.h2-server}. */
    @Validated
    @ConfigurationProperties(prefix = "sample.h2-server")
    public static class Settings {

        /** TCP port to serve this node's H2 database on, to other nodes on this machine; unset: not served. */
        @Min(1)
        @Max(65535)
        private Integer port;

        public Integer getPort() {
            return port;
        }

        public void setPort(Integer port) {
            this.port = port;
        }
    }
}
