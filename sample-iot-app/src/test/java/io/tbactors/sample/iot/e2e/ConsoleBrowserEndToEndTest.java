package io.tbactors.sample.iot.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.WebElement;
import tools.jackson.databind.JsonNode;

/**
 * The web console in a real browser (headless Chromium) against the whole application: what a person sees after
 * logging in, updating without a reload, at desktop and phone size. Screenshots of each page go to
 * {@code target/console-screenshots}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleBrowserEndToEndTest extends EndToEndTest {

    private static final int DESKTOP_WIDTH = 1280;
    private static final int DESKTOP_HEIGHT = 800;

    private ConsoleBrowser browser;

    @BeforeAll
    void openBrowser() throws IOException {
        browser = ConsoleBrowser.open(DESKTOP_WIDTH, DESKTOP_HEIGHT);
    }

    @AfterAll
    void closeBrowser() throws IOException {
        if (browser != null) {
            browser.close();
        }
    }

    @BeforeEach
    void logIn() {
        browser.resize(DESKTOP_WIDTH, DESKTOP_HEIGHT);
        browser.logIn(port, ApiClient.ADMIN, ApiClient.PASSWORD);
    }

    @Value("${local.mqtt.port}")
    int mqttPort;

    @Test
    void theConsoleAndItsDataNeedTheManagementCredentials() {
        assertThat(api.getWithoutCredentials("/").status()).isEqualTo(401);
        assertThat(api.getWithoutCredentials("/console/console.js").status()).isEqualTo(401);
        assertThat(api.getWithoutCredentials("/api/console/events").status()).isEqualTo(401);
        ApiClient.Response page = api.get("/");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("<title>TB Actors console</title>");
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp -> assertThat(csp)
                .contains("default-src 'self'", "script-src 'self'", "connect-src 'self'"));
    }

    @Test
    void aDeviceCreatedInTheConsoleShowsItsTelemetryChartAndAlarmWithoutAReload() throws IOException {
        browser.show("#/devices");
        browser.script("window.notReloaded = true;");
        String name = "console-boiler-" + System.nanoTime();
        browser.await("#new-device-name").sendKeys(name);
        browser.find("#new-device-type").sendKeys("thermostat");
        browser.find("#create-device button[type=submit]").click();

        String token = browser.await("#created-token").getText();
        JsonNode created = findDevice(name);
        assertThat(token).isEqualTo(created.get("accessToken").stringValue());
        String id = created.get("id").stringValue();
        String row = "tr[data-device-id='" + id + "']";
        browser.waitUntil(d -> text(row).contains(name) && text(row).contains("no telemetry yet"));

        assertThat(api.postAsDevice(token, "telemetry", "{\"temperature\": 21.5, \"humidity\": 40}").status()).isEqualTo(200);
        browser.waitUntil(d -> "21.5".equals(text(row + " .chip[data-key=temperature] .v")));
        assertThat(browser.textOf(row + " .chip[data-key=humidity] .v")).isEqualTo("40");
        assertThat(browser.textOf(row + " .last-activity")).isNotEqualTo("never");
        browser.screenshot("devices");

        browser.click(row + " a.device-link");
        browser.waitUntil(d -> points() == 2);
        assertThat(browser.await("#device-token").getText()).isEqualTo(token);
        assertThat(api.postAsDevice(token, "telemetry", "{\"temperature\": 23.5}").status()).isEqualTo(200);
        browser.waitUntil(d -> points() == 3);
        browser.waitUntil(d -> "23.5".equals(text("#device-latest tr[data-key=temperature] .value")));
        assertThat(api.postAsDevice(token, "attributes", "{\"firmware\": \"1.4.2\"}").status()).isEqualTo(200);
        assertThat(api.postAsDevice(token, "telemetry", "{\"temperature\": 35}").status()).isEqualTo(200);
        browser.waitUntil(d -> points() == 4);
        browser.waitUntil(d -> text("#device-alarms tr[data-status=ACTIVE]").contains("High Temperature"));
        assertThat(browser.textOf("#device-alarms tr[data-status=ACTIVE]")).contains("CRITICAL", "High Temperature", "ACTIVE");
        browser.waitUntil(d -> "1.4.2".equals(text("#device-attributes tr[data-key=firmware] .value")));
        browser.screenshot("device");

        browser.click("#window-picker option[value='3600000']");
        browser.waitUntil(d -> points() == 4);
        // the chart spans the seconds of data the hour holds, not the hour
        long shown = Long.parseLong(browser.find("#device-chart").getAttribute("data-range-end"))
                - Long.parseLong(browser.find("#device-chart").getAttribute("data-range-start"));
        assertThat(shown).as("the chart's time axis, ms").isLessThan(5 * 60_000L);
        browser.click("#key-picker input[value=humidity]");
        browser.waitUntil(d -> points() == 3);

        browser.show("#/alarms");
        String alarmRow = "#alarms-list tr[data-status=ACTIVE]";
        browser.waitUntil(d -> browser.findAll(alarmRow).stream().anyMatch(r -> r.getText().contains(name)));
        browser.screenshot("alarms");
        assertThat(api.postAsDevice(token, "telemetry", "{\"temperature\": 20}").status()).isEqualTo(200);
        browser.waitUntil(d -> browser.findAll(alarmRow).stream().noneMatch(r -> r.getText().contains(name)));
        browser.click("button[data-filter=CLEARED]");
        browser.waitUntil(d -> browser.findAll("#alarms-list tr[data-status=CLEARED]").stream()
                .anyMatch(r -> r.getText().contains(name) && r.getText().contains("CLEARED")));
        // the device's page lists its cleared alarm too, from the alarm API
        browser.show("#/devices/" + id);
        browser.waitUntil(d -> text("#device-alarms tr[data-status=CLEARED]").contains("High Temperature"));

        assertThat(browser.script("return window.notReloaded === true;")).isEqualTo(true);
        assertThat(browser.overflowsHorizontally()).isFalse();
    }

    @Test
    void anRpcSentFromTheDevicePageShowsItsStateAndSharedAttributesAreSetThere() throws Exception {
        ApiClient.Device device = newDevice();
        browser.show("#/devices/" + device.id());
        try (MqttDevice mqtt = MqttDevice.connect(mqttPort, device.token(), 10)) {
            mqtt.subscribe(MqttRpcEndToEndTest.RPC_REQUESTS, MqttDevice.ATTRIBUTES);

            // two-way: the device answers, the page shows SUCCESSFUL with the answer
            browser.await("#rpc-method").sendKeys("getMode");
            browser.find("#rpc-params").sendKeys("{\"zone\": 1}");
            browser.click("#rpc-form button[type=submit]");
            MqttDevice.Received request = mqtt.next(Duration.ofSeconds(15));
            assertThat(request).isNotNull();
            mqtt.publishAndWait(request.topic().replace("/request/", "/response/"), "{\"mode\": \"eco\"}");
            browser.waitUntil(d -> text("#rpc-table tbody tr:first-child .rpc-status").equals("SUCCESSFUL"));
            assertThat(browser.textOf("#rpc-table tbody tr:first-child .value")).contains("eco");

            // a request the device does not answer in time: TIMEOUT, with the reason
            browser.find("#rpc-timeout").clear();
            browser.find("#rpc-timeout").sendKeys("300");
            browser.click("#rpc-form button[type=submit]");
            browser.waitUntil(d -> text("#rpc-table tbody tr:first-child .rpc-status").equals("TIMEOUT"));
            assertThat(browser.textOf("#rpc-table tbody tr:first-child .value")).contains("504", "did not answer");

            // a shared attribute set on the page is listed there and pushed to the device
            browser.find("#shared-key").sendKeys("targetTemperature");
            browser.find("#shared-value").sendKeys("22.5");
            browser.click("#shared-form button[type=submit]");
            browser.waitUntil(d -> "22.5".equals(text("#device-shared tr[data-key=targetTemperature] .value")));
            MqttDevice.Received update = mqtt.next(Duration.ofSeconds(15));
            while (update != null && !update.topic().equals(MqttDevice.ATTRIBUTES)) {
                update = mqtt.next(Duration.ofSeconds(15));
            }
            assertThat(update).isNotNull();
            assertThat(update.payload()).contains("\"targetTemperature\":22.5");
            browser.screenshot("device-rpc");
        }
    }

    @Test
    void aDeviceDeletedInTheConsoleLeavesTheList() {
        ApiClient.Device device = newDevice();
        browser.show("#/devices");
        String row = "tr[data-device-id='" + device.id() + "']";
        browser.click(row + " button.danger");
        browser.waitUntil(d -> "Confirm delete".equals(text(row + " button.danger")));
        browser.click(row + " button.danger");

        browser.waitUntil(d -> browser.findAll(row).isEmpty());
        assertThat(api.get("/api/devices/" + device.id()).status()).isEqualTo(404);
    }

    @Test
    void theRuleChainEditorShowsErrorsAtTheirLinesAndSavesAValidChainLive() throws IOException {
        JsonNode root = rootChain();
        String chainId = root.get("id").stringValue();
        browser.show("#/rule-chains/" + chainId);
        browser.waitUntil(d -> browser.findAll("#chain-graph .node").size() == root.get("nodes").size());
        assertThat(browser.findAll("#chain-graph .edge")).isNotEmpty();
        String original = editorText();

        // a condition that does not parse: the error names the node's condition and sits at its line
        setEditorText(original.replaceFirst("(\"condition\": \")[^\"]*\"", "$1data.temperature >\""));
        int line = lineOf(editorText(), "\"condition\": \"data.temperature >\"");
        assertThat(browser.textOf("#chain-problems li"))
                .contains("configuration.condition", "cannot parse SpEL expression 'data.temperature >'");
        assertThat(browser.attributeOf("#chain-problems li", "data-line")).isEqualTo(String.valueOf(line));
        assertThat(browser.attributeOf("#editor-gutter div[data-line='" + line + "']", "class")).contains("err");
        assertThat(browser.findAll("#chain-graph .node.bad")).hasSize(1);

        browser.click("#chain-save");
        browser.waitUntil(d -> text("#chain-result").contains("Not saved (HTTP 400)"));
        assertThat(browser.attributeOf("#chain-problems li", "data-line")).isEqualTo(String.valueOf(line));
        assertThat(rootChain().get("version").longValue()).isEqualTo(root.get("version").longValue());
        browser.script("document.getElementById('chain-problems').scrollIntoView({block: 'center'});");
        browser.screenshot("rule-chain-error");

        // malformed JSON: shown at its line before anything is sent
        List<String> lines = Arrays.asList(original.split("\n", -1));
        int broken = lineOf(original, "\"firstNodeId\"");
        String withoutComma = String.join("\n", lines.subList(0, broken - 1)) + "\n"
                + lines.get(broken - 1).replaceFirst(",$", "") + "\n" + String.join("\n", lines.subList(broken, lines.size()));
        setEditorText(withoutComma);
        browser.waitUntil(d -> text("#chain-problems li").contains("Malformed JSON"));
        assertThat(browser.attributeOf("#chain-problems li", "data-line")).isEqualTo(String.valueOf(broken + 1));

        // a valid change saves through the chain's PUT and is drawn
        browser.click("#chain-revert");
        browser.waitUntil(d -> browser.findAll("#chain-problems li").isEmpty());
        setEditorText(editorText().replace("\"name\": \"Save telemetry\"", "\"name\": \"Store telemetry\""));
        browser.waitUntil(d -> browser.findAll("#chain-problems li").isEmpty()
                && text("#chain-graph").contains("Store telemetry"));
        browser.click("#chain-save");
        browser.waitUntil(d -> text("#chain-result").contains("Saved: version " + (root.get("version").longValue() + 1)));
        assertThat(rootChain().toString()).contains("Store telemetry");
        browser.screenshot("rule-chain");

        assertThat(api.put("/api/rule-chains/" + chainId, original).status()).isEqualTo(200);
    }

    @Test
    void theRuleChainPageShowsEachNodesFiguresAndTheDebugEventsOfANodeSwitchedToDebugMode() throws IOException {
        JsonNode root = rootChain();
        String chainId = root.get("id").stringValue();
        String firstNode = root.get("firstNodeId").stringValue();
        ApiClient.Device device = newDevice();
        assertThat(api.postAsDevice(device.token(), "telemetry", "{\"temperature\": 20}").status()).isEqualTo(200);

        browser.show("#/rule-chains/" + chainId);
        String row = "#chain-nodes tr[data-node-id='" + firstNode + "']";
        browser.waitUntil(d -> !text(row + " td.in").isEmpty() && Long.parseLong(text(row + " td.in")) >= 1);
        browser.waitUntil(d -> text("#chain-graph .node[data-node-id='" + firstNode + "'] .figures").startsWith("in "));
        assertThat(text("#chain-debug")).contains("No debug events");

        browser.click(row + " input.debug-switch");
        browser.waitUntil(d -> browser.attributeOf("#chain-graph .node[data-node-id='" + firstNode + "']", "class")
                .contains("debug"));
        try {
            assertThat(api.get("/actuator/rulechains/" + chainId).json().get(firstNode).get("debug").booleanValue()).isTrue();
            assertThat(api.postAsDevice(device.token(), "telemetry", "{\"consoleDebugProbe\": 42}").status()).isEqualTo(200);
            browser.waitUntil(d -> text("#chain-debug").contains("consoleDebugProbe"));
            assertThat(browser.findAll("#chain-debug li[data-direction=IN]")).isNotEmpty();
            browser.screenshot("rule-chain-debug");
        } finally {
            assertThat(api.post("/actuator/rulechains/" + chainId + "/" + firstNode, "{\"debug\": false}").status())
                    .isEqualTo(200);
        }
    }

    /**
     * A page left for another may be kept by the browser, frozen, in its back/forward cache. Its event stream must not
     * stay open there: each would hold one of the six connections a browser allows to one server. The page is hidden
     * and shown again here the way the browser does it (the page transition events, persisted).
     */
    @Test
    void aPageKeptByTheBrowserAfterItWasLeftHoldsNoStreamAndReconnectsWhenShownAgain() throws IOException {
        int before = browser.connectionsToTheApplication();
        assertThat(before).as("the open page's event stream").isPositive();

        browser.script("window.dispatchEvent(new PageTransitionEvent('pagehide', {persisted: true}));");
        assertThat(browser.attributeOf("#live-status", "data-state")).isEqualTo("paused");
        await().atMost(Duration.ofSeconds(20)).until(() -> browser.connectionsToTheApplication() < before);

        browser.script("window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}));");
        browser.awaitLive();
        assertThat(browser.connectionsToTheApplication()).isPositive();
    }

    @Test
    void theActorViewShowsTheDeviceActorAndTheDispatchersLive() throws IOException {
        ApiClient.Device device = newDevice();
        assertThat(api.postAsDevice(device.token(), "telemetry", "{\"temperature\": 22}").status()).isEqualTo(200);
        browser.show("#/actors");

        String row = "#actor-tree tr[data-actor-id='DEVICE|" + device.id() + "']";
        assertThat(browser.attributeOf(row, "data-actor-type")).isEqualTo("DeviceActor");
        assertThat(browser.textOf(row)).contains(getClass().getSimpleName() + "-device-");
        assertThat(browser.textOf(row + " .mailbox")).matches("\\d+");
        for (String dispatcher : List.of("app", "tenant", "device", "rule")) {
            assertThat(browser.textOf("#dispatchers-body tr[data-dispatcher='" + dispatcher + "'] .rate")).matches("\\d+\\.\\d");
        }
        assertThat(browser.findAll("#actor-tree tr[data-actor-type=AppActor]")).hasSize(1);
        assertThat(browser.findAll("#actor-tree tr[data-actor-type=RuleNodeActor]")).isNotEmpty();
        browser.screenshot("actors");

        // a device that posts later appears by itself
        ApiClient.Device later = newDevice();
        assertThat(api.postAsDevice(later.token(), "telemetry", "{\"temperature\": 22}").status()).isEqualTo(200);
        browser.await("#actor-tree tr[data-actor-id='DEVICE|" + later.id() + "']");
        browser.find("#actor-filter").sendKeys(later.id().toString());
        browser.waitUntil(d -> browser.findAll("#actor-tree tr[data-actor-id]").size() == 1);
    }

    @Test
    void everyPageFitsAPhoneSizedWindow() throws IOException {
        ApiClient.Device device = newDevice();
        assertThat(api.postAsDevice(device.token(), "telemetry", "{\"temperature\": 22, \"humidity\": 51}").status()).isEqualTo(200);
        browser.emulatePhone(390, 844);
        String[][] pages = {{"#/devices", "#devices-body tr", "phone-devices"},
            {"#/devices/" + device.id(), "#device-chart[data-points='2']", "phone-device"},
            {"#/alarms", "#alarms-list", "phone-alarms"}, {"#/rule-chains", "#chain-graph .node", "phone-rule-chain"},
            {"#/actors", "#actor-tree tr", "phone-actors"}};
        assertThat(browser.script("return window.innerWidth;")).isEqualTo(390L);
        for (String[] page : pages) {
            browser.show(page[0]);
            browser.await(page[1]);
            browser.screenshot(page[2]);
            assertThat(browser.overflowsHorizontally()).as("page %s wider than the phone", page[0]).isFalse();
        }
    }

    private int points() {
        return Integer.parseInt(browser.find("#device-chart").getAttribute("data-points"));
    }

    private String text(String css) {
        List<WebElement> found = browser.findAll(css);
        return found.isEmpty() ? "" : found.get(0).getText();
    }

    private String editorText() {
        return (String) browser.script("return document.getElementById('chain-editor').value;");
    }

    private void setEditorText(String text) {
        browser.script("const editor = document.getElementById('chain-editor'); editor.value = arguments[0];"
                + " editor.dispatchEvent(new Event('input'));", text);
    }

    private static int lineOf(String text, String fragment) {
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains(fragment)) {
                return i + 1;
            }
        }
        throw new AssertionError("no line contains " + fragment + " in\n" + text);
    }

    private JsonNode findDevice(String name) {
        for (JsonNode device : api.get("/api/devices").json()) {
            if (device.get("name").stringValue().equals(name)) {
                return device;
            }
        }
        throw new AssertionError("no device named " + name);
    }

    private JsonNode rootChain() {
        for (JsonNode chain : api.get("/api/rule-chains").json()) {
            if (chain.get("root").booleanValue()) {
                return chain;
            }
        }
        throw new AssertionError("no root chain");
    }
}
