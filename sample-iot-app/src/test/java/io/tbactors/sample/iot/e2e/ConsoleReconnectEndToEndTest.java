package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.WebElement;

/**
 * The console across a real restart: the application in its own JVM on an H2 file, a browser showing its devices,
 * SIGTERM, and the application started again on the same port. An open event stream must not hold the stop up,
 * and the page must come back to life by itself.
 */
class ConsoleReconnectEndToEndTest {

    /** Far below the 30 s the web server's graceful shutdown would wait for a stream left open. */
    private static final Duration PROMPT_STOP = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private AppProcess app;
    private ConsoleBrowser browser;

    @AfterEach
    void closeWhatIsLeft() throws IOException {
        try {
            if (browser != null) {
                browser.close();
            }
        } finally {
            if (app != null) {
                app.close();
            }
        }
    }

    @Test
    void aSigtermWithAConsoleOpenStopsPromptlyAndThePageReconnectsWhenTheAppIsBack() throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("sample-iot").toAbsolutePath();
        app = AppProcess.start(url, "384m");
        int port = app.port();
        ApiClient.Device device = app.api().createDevice("reconnect-device");
        browser = ConsoleBrowser.open(1280, 800);
        browser.logIn(port, ApiClient.ADMIN, ApiClient.PASSWORD);
        String row = "tr[data-device-id='" + device.id() + "']";
        browser.await(row);
        browser.script("window.notReloaded = true;");

        long stopping = System.nanoTime();
        assertThat(app.terminate(Duration.ofSeconds(60))).as("the application ended after SIGTERM").isTrue();
        Duration stopTook = Duration.ofNanos(System.nanoTime() - stopping);
        assertThat(stopTook).as("stop with a console open").isLessThan(PROMPT_STOP);
        assertThat(Files.readString(app.log())).doesNotContain("Graceful shutdown aborted");
        browser.waitUntil(d -> "reconnecting".equals(state()));
        browser.screenshot("reconnecting");

        app = AppProcess.start(port, url, "384m");
        browser.waitUntil(d -> "live".equals(state()));
        assertThat(app.api().postAsDevice(device.token(), "telemetry", "{\"temperature\": 19.5}").status()).isEqualTo(200);
        browser.waitUntil(d -> "19.5".equals(text(row + " .chip[data-key=temperature] .v")));
        assertThat(browser.script("return window.notReloaded === true;")).as("the page was not reloaded").isEqualTo(true);
        browser.screenshot("reconnected");
    }

    private String state() {
        return browser.find("#live-status").getAttribute("data-state");
    }

    private String text(String css) {
        List<WebElement> found = browser.findAll(css);
        return found.isEmpty() ? "" : found.get(0).getText();
    }
}
