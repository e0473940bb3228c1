package io.tbactors.rule.chain;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Chains from JSON or YAML files ({@code .yaml}, {@code .yml}), {@code classpath:} or {@code file:} locations. A YAML
 * file holds the same fields as a JSON one and is checked by the same validator, with the same error locations. A
 * chain's id is its file's {@code id} field (a UUID) when it has one, otherwise derived from its location, so it
 * stays the same across restarts; its name is its {@code name} field, otherwise the file's name. {@link #refresh}
 * reads the files again: a changed file gets the next version (tell the engine with {@link io.tbactors.rule.RuleEngine#reload}).
 */
public final class ResourceRuleChainSource implements RuleChainSource {

    private final RuleChainValidator validator;
    private final JsonMapper jsonMapper;
    private final ResourceLoader resourceLoader;
    private final List<String> locations;
    private volatile Map<UUID, Entry> chains = Map.of();

    private record Entry(String location, String text, LoadedRuleChain chain) {
    }

    /**
     * Reads and validates every file.
     *
     * @param validator checks each chain
     * @param jsonMapper reads the files
     * @param resourceLoader resolves the locations
     * @param locations the files, e.g. {@code classpath:rule-chains/root.json}, {@code classpath:rule-chains/root.yaml} or
     *     {@code file:/etc/app/chain.json}
     * @throws RuleChainValidationException when a file is missing or invalid, each error prefixed with its location
     */
    public ResourceRuleChainSource(RuleChainValidator validator, JsonMapper jsonMapper, ResourceLoader resourceLoader,
                                   List<String> locations) {
        this.validator = validator;
        this.jsonMapper = jsonMapper;
        this.resourceLoader = resourceLoader == null ? new DefaultResourceLoader() : resourceLoader;
        this.locations = List.copyOf(locations);
        refresh();
    }

    /**
     * Reads the files again; all or nothing: when one is invalid, the chains stay as they were.
     *
     * @return the ids of the chains whose file changed (pass each to the engine's {@code reload})
     * @throws RuleChainValidationException when a file is missing or invalid
     */
    public synchronized Set<UUID> refresh() {
        Map<UUID, Entry> previous = chains;
        Map<UUID, Entry> next = new LinkedHashMap<>();
        List<String> errors = new ArrayList<>();
        for (String location : locations) {
            Entry entry = read(location, previous, errors);
            if (entry != null) {
                Entry twin = next.putIfAbsent(entry.chain().id(), entry);
                if (twin != null) {
                    errors.add(location + ": id " + entry.chain().id() + " is already the id of " + twin.location());
                }
            }
        }
        if (!errors.isEmpty()) {
            throw new RuleChainValidationException(errors);
        }
        chains = Collections.unmodifiableMap(next);
        Set<UUID> changed = new LinkedHashSet<>();
        next.forEach((id, entry) -> {
            Entry before = previous.get(id);
            if (before == null || before.chain().version() != entry.chain().version()) {
                changed.add(id);
            }
        });
        return changed;
    }

    private Entry read(String location, Map<UUID, Entry> previous, List<String> errors) {
        Resource resource = resourceLoader.getResource(location);
        String text;
        try (InputStream in = resource.getInputStream()) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            errors.add(location + ": cannot read the chain file (" + e.getMessage() + "); use classpath:path or file:path");
            return null;
        }
        JsonNode json;
        if (isYaml(location)) {
            json = YamlChainReader.read(location, text, jsonMapper, errors);
            if (json == null) {
                return null;
            }
        } else {
            try {
                json = jsonMapper.readTree(text);
            } catch (JacksonException e) {
                errors.add(location + ": not JSON: " + e.getOriginalMessage());
                return null;
            }
        }
        UUID id = idOf(location, json, errors);
        RuleChainDefinition definition;
        try {
            definition = validator.parse(json, nameOf(resource, location));
        } catch (RuleChainValidationException e) {
            e.getErrors().forEach(error -> errors.add(location + ": " + error));
            return null;
        }
        if (id == null) {
            return null;
        }
        Entry before = previous.get(id);
        long version = before == null ? 1 : before.text().equals(text) ? before.chain().version() : before.chain().version() + 1;
        return new Entry(location, text, new LoadedRuleChain(id, version, definition));
    }

    private static UUID idOf(String location, JsonNode json, List<String> errors) {
        JsonNode id = json == null ? null : json.get("id");
        if (id == null || id.isNull()) {
            return UUID.nameUUIDFromBytes(location.getBytes(StandardCharsets.UTF_8));
        }
        try {
            return UUID.fromString(id.asString());
        } catch (IllegalArgumentException e) {
            errors.add(location + ": id: '" + id.asString() + "' is not a UUID");
            return null;
        }
    }

    private static String nameOf(Resource resource, String location) {
        String file = resource.getFilename();
        return file == null ? location : file.replaceFirst("\\.(json|ya?ml)$", "");
    }

    private static boolean isYaml(String location) {
        String lower = location.toLowerCase(Locale.ROOT);
        return lower.endsWith(".yaml") || lower.endsWith(".yml");
    }

    @Override
    public Optional<LoadedRuleChain> findById(UUID chainId) {
        Entry entry = chains.get(chainId);
        return entry == null ? Optional.empty() : Optional.of(entry.chain());
    }

    /**
     * @param name a chain's name
     * @return its id
     * @throws IllegalArgumentException when no chain has that name, listing the names
     */
    public UUID idOf(String name) {
        List<String> names = new ArrayList<>();
        for (Entry entry : chains.values()) {
            if (entry.chain().definition().name().equals(name)) {
                return entry.chain().id();
            }
            names.add(entry.chain().definition().name());
        }
        throw new IllegalArgumentException("No rule chain is named '" + name + "'; the chains are " + names);
    }

    /** @return every chain, in the order of the locations */
    public List<LoadedRuleChain> findAll() {
        return chains.values().stream().map(Entry::chain).toList();
    }
}
