package io.tbactors.sample.iot.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
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
        driver.get("http://" + user + ":" + password + "@127.0.0.1:" + port + "/");
        driver.get(origin + "/#/devices");
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
                java.util.Map.of("width", width, "height", height, "deviceScaleFactor", 2, "mobile", true));
    }

    /** Sizes the window so that the page itself (the viewport) is {@code width} x {@code height}. */
    void resize(int width, int height) {
        driver.executeCdpCommand("Emulation.clearDeviceMetricsOverride", java.util.Map.of());
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

    java.util.List<WebElement> findAll(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    /** @return the element once it is there */
    WebElement await(String css) {
        return waitUntil(d -> {
            java.util.List<WebElement> found = d.findElements(By.cssSelector(css));
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
            throw new TimeoutException(e.getMessage() + "\nThe page showed: "
                    + shown.substring(0, Math.min(shown.length(), 2000)), e);
        }
    }

    /** @return the text of the first element the selector finds, once there is one */
    String textOf(String css) {
        return waitUntil(d -> {
            java.util.List<WebElement> found = d.findElements(By.cssSelector(css));
            return found.isEmpty() ? null : found.get(0).getText();
        });
    }

    /** @return an attribute of the first element the selector finds, once there is one */
    String attributeOf(String css, String attribute) {
        return waitUntil(d -> {
            java.util.List<WebElement> found = d.findElements(By.cssSelector(css));
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
