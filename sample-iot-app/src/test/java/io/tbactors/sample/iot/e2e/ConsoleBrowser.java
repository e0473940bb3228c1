package io.tbactors.sample.iot.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.ExpectedCondition;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A headless Chromium (Debian's {@code chromium} and {@code chromium-driver} packages) driven by Selenium, with a
 * fresh profile and everything that would reach the internet switched off. Missing packages fail the test with
 * the command that installs them; they never skip it.
 */
final class ConsoleBrowser implements AutoCloseable {

    static final Path CHROMIUM = Path.of(System.getProperty("console.chromium", "/usr/bin/chromium"));
    static final Path CHROMEDRIVER = Path.of(System.getProperty("console.chromedriver", "/usr/bin/chromedriver"));
    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
    static final Duration WAIT = Duration.ofSeconds(20);

    private final ChromeDriver driver;
    private final Path profile;
    private String origin;

    private ConsoleBrowser(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    /**
     * @param width the window's width in CSS pixels
     * @param height its height
     * @return a browser with an empty profile
     * @throws IOException when the profile directory cannot be made
     */
    static ConsoleBrowser open(int width, int height) throws IOException {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new IllegalStateException("The console's browser tests need Debian's chromium and chromium-driver at "
                    + CHROMIUM + " and " + CHROMEDRIVER + " (install them with: apt-get install -y chromium chromium-driver; "
                    + ".ci/run does; other paths: -Dconsole.chromium=... -Dconsole.chromedriver=...)");
        }
        Path profile = Files.createTempDirectory("console-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // without these Chromium waits for the network at start, which this machine does not have
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                "--user-data-dir=" + profile, "--window-size=" + width + "," + height);
        // the page's console (its error toasts and failed requests) and the browser's network events, for the message
        // of a wait that gave up
        options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL", "performance", "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60)).scriptTimeout(Duration.ofSeconds(30));
        ConsoleBrowser browser = new ConsoleBrowser(driver, profile);
        browser.resize(width, height);
        return browser;
    }

    /**
     * Logs in the way a person does when the browser asks for the management credentials: the first page is
     * opened with them, the browser keeps them for the origin, and every later page and request goes without.
     *
     * @param port the application's port
     * @param user the management user
     * @param password its password
     */
    void logIn(int port, String user, String password) {
        origin = "http://127.0.0.1:" + port;
        // not the console's own page: a page left while its event stream was still opening kept that connection open
        // in the browser (seen in runs that failed on six such), and a person logs in on the page they open anyway
        driver.get("http://" + user + ":" + password + "@127.0.0.1:" + port + "/actuator");
        driver.get(origin + "/#/devices");
        awaitLive();
    }

    /** Waits until the page's event stream is open. */
    void awaitLive() {
        waitUntil(d -> "live".equals(find("#live-status").getAttribute("data-state")));
    }

    /** @param hash a page of the console, e.g. {@code #/actors} */
    void show(String hash) {
        driver.get(origin + "/" + hash);
    }

    /**
     * Shows pages as a phone of this size does (a headless window cannot be narrower than about 500 pixels, so
     * the viewport is emulated, as the browser's device toolbar does).
     */
    void emulatePhone(int width, int height) {
        driver.executeCdpCommand("Emulation.setDeviceMetricsOverride",
                Map.of("width", width, "height", height, "deviceScaleFactor", 2, "mobile", true));
    }

    /** Sizes the window so that the page itself (the viewport) is {@code width} x {@code height}. */
    void resize(int width, int height) {
        driver.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
        driver.manage().window().setSize(new Dimension(width, height));
        Number extraWidth = (Number) script("return window.outerWidth - window.innerWidth;");
        Number extraHeight = (Number) script("return window.outerHeight - window.innerHeight;");
        driver.manage().window().setSize(new Dimension(width + extraWidth.intValue(), height + extraHeight.intValue()));
    }

    /** @return whether the page is wider than the window (a horizontal scroll bar on the whole page) */
    boolean overflowsHorizontally() {
        return (Boolean) script("return document.documentElement.scrollWidth > window.innerWidth;");
    }

    WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    List<WebElement> findAll(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    /** @return the element once it is there */
    WebElement await(String css) {
        return waitUntil(d -> {
            List<WebElement> found = d.findElements(By.cssSelector(css));
            return found.isEmpty() ? null : found.get(0);
        });
    }

    /** Waits for a condition; the live pages redraw as data comes, so an element found a moment ago may be gone. */
    <T> T waitUntil(ExpectedCondition<T> condition) {
        try {
            return new WebDriverWait(driver, WAIT).pollingEvery(Duration.ofMillis(100))
                    .ignoring(StaleElementReferenceException.class).until(condition);
        } catch (TimeoutException e) {
            // what the page showed when the wait gave up (an error toast, a page never drawn), for a failure seen once
            String shown = String.valueOf(script("return location.href + '\\n' + document.body.innerText;"));
            StringBuilder console = new StringBuilder();
            for (LogEntry entry : driver.manage().logs().get(LogType.BROWSER)) {
                console.append('\n').append(entry.getLevel()).append(' ').append(entry.getMessage());
            }
            throw new TimeoutException(e.getMessage() + "\nThe page showed: "
                    + shown.substring(0, Math.min(shown.length(), 2000)) + "\nThe browser's console:"
                    + (console.length() == 0 ? " (empty)" : console.substring(0, Math.min(console.length(), 4000)))
                    + "\nThe application's busy request threads (it runs in this JVM):" + busyRequestThreads()
                    + "\nThe browser's last API network events:" + apiNetworkEvents()
                    + "\nConnections to the application (a browser opens at most six to one server): " + connectionsOrWhy(), e);
        }
    }

    /**
     * @return the last network events of the API's requests; all events since the last call go to
     *         {@code target/console-screenshots/network-<time>.log}
     */
    private String apiNetworkEvents() {
        List<String> events = new ArrayList<>();
        List<String> all = new ArrayList<>();
        for (LogEntry entry : driver.manage().logs().get(LogType.PERFORMANCE)) {
            String message = entry.getMessage();
            if (!message.contains("\"Network.") || message.contains("dataReceived") || message.contains("eventSourceMessage")) {
                continue;
            }
            all.add(entry.getTimestamp() + " " + message);
            if (message.contains("/api/")) {
                events.add(entry.getTimestamp() + " " + message.substring(0, Math.min(message.length(), 400)));
            }
        }
        try {
            Files.createDirectories(SCREENSHOTS);
            Files.write(SCREENSHOTS.resolve("network-" + System.currentTimeMillis() + ".log"), all);
        } catch (IOException e) {
            events.add(e.toString());
        }
        return events.isEmpty() ? " none" : "\n" + String.join("\n", events.subList(Math.max(0, events.size() - 25), events.size()));
    }

    /**
     * @return the TCP connections open to the application's port from this machine (the browser's, and any other
     *         client's), as the kernel lists them
     * @throws IOException when the kernel's tables cannot be read (Linux only)
     */
    int connectionsToTheApplication() throws IOException {
        String port = String.format("%04X", Integer.parseInt(origin.substring(origin.lastIndexOf(':') + 1)));
        int count = 0;
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            for (String line : Files.readAllLines(Path.of(table))) {
                String[] fields = line.trim().split("\\s+");
                // remote address (ip:port in hex) and state (01: established)
                if (fields.length > 3 && fields[2].endsWith(":" + port) && "01".equals(fields[3])) {
                    count++;
                }
            }
        }
        return count;
    }

    private String connectionsOrWhy() {
        try {
            return String.valueOf(connectionsToTheApplication());
        } catch (IOException | RuntimeException e) {
            return e.toString();
        }
    }

    /** @return the stacks of the web server's threads that are handling a request, not waiting for one */
    private static String busyRequestThreads() {
        StringBuilder out = new StringBuilder();
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            boolean idle = stack.length == 0 || Arrays.stream(stack).anyMatch(frame -> frame.getClassName().endsWith("TaskQueue")
                    || frame.getClassName().contains("NioEndpoint$Poller") || frame.getClassName().contains("Acceptor"));
            if (thread.getName().startsWith("http-nio") && !idle) {
                out.append("\n").append(thread.getName()).append(' ').append(thread.getState());
                Arrays.stream(stack).limit(40).forEach(frame -> out.append("\n    at ").append(frame));
            }
        });
        return out.length() == 0 ? " none" : out.toString();
    }

    /** @return the text of the first element the selector finds, once there is one */
    String textOf(String css) {
        return waitUntil(d -> {
            List<WebElement> found = d.findElements(By.cssSelector(css));
            return found.isEmpty() ? null : found.get(0).getText();
        });
    }

    /** @return an attribute of the first element the selector finds, once there is one */
    String attributeOf(String css, String attribute) {
        return waitUntil(d -> {
            List<WebElement> found = d.findElements(By.cssSelector(css));
            return found.isEmpty() ? null : String.valueOf(found.get(0).getAttribute(attribute));
        });
    }

    /** Clicks the first element the selector finds, again if the page redrew it meanwhile. */
    void click(String css) {
        waitUntil(d -> {
            d.findElement(By.cssSelector(css)).click();
            return true;
        });
    }

    Object script(String js, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(js, args);
    }

    /**
     * @param name the file's name without extension
     * @return where the PNG went, under {@code target/console-screenshots}
     * @throws IOException when it cannot be written
     */
    Path screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Path file = SCREENSHOTS.resolve(name + ".png");
        Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
        return file;
    }

    @Override
    public void close() throws IOException {
        try {
            driver.quit();
        } finally {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }
}
