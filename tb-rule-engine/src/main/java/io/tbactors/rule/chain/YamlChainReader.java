package io.tbactors.rule.chain;

import java.util.List;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;
import org.yaml.snakeyaml.resolver.Resolver;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a chain file written in YAML into the same tree a JSON file gives, so that one validator checks both and its
 * errors carry the same locations ({@code nodes[2].configuration.condition: ...}). SnakeYAML, which every Spring Boot
 * application has for its own {@code application.yml}, does the parsing; only this class touches it, and only when a
 * YAML file is read.
 *
 * <p>Plain scalars follow YAML 1.2's core schema for booleans: only {@code true} and {@code false} are booleans, so
 * ThingsBoard's relation names {@code True} and {@code False} (and {@code yes}, {@code on}) stay strings, as in the
 * JSON format. Only plain data is built (a safe constructor): no class of the application is ever instantiated.
 */
final class YamlChainReader {

    /** Whether SnakeYAML is on the class path. */
    static final boolean AVAILABLE = isPresent();

    private YamlChainReader() {
    }

    /**
     * @param location where the text came from, to prefix errors
     * @param text the file's text
     * @param jsonMapper turns the parsed document into a tree
     * @param errors where a syntax error goes, with its line and column
     * @return the document as a tree, or null when it is not YAML (an error was added)
     */
    static JsonNode read(String location, String text, JsonMapper jsonMapper, List<String> errors) {
        if (!AVAILABLE) {
            errors.add(location + ": a YAML chain file needs org.yaml:snakeyaml on the class path (spring-boot-starter "
                    + "brings it); or write the chain as JSON");
            return null;
        }
        Object document;
        try {
            LoaderOptions loading = new LoaderOptions();
            loading.setAllowDuplicateKeys(false);
            DumperOptions dumping = new DumperOptions();
            document = new Yaml(new SafeConstructor(loading), new Representer(dumping), dumping, loading, new CoreResolver())
                    .load(text);
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark();
            String at = mark == null ? "" : " (line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1) + ")";
            errors.add(location + ": not YAML: " + e.getProblem() + at);
            return null;
        } catch (YAMLException e) {
            errors.add(location + ": not YAML: " + e.getMessage());
            return null;
        }
        return jsonMapper.valueToTree(document);
    }

    private static boolean isPresent() {
        try {
            Class.forName("org.yaml.snakeyaml.Yaml", false, YamlChainReader.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** YAML 1.1's implicit types without its many booleans and without timestamps: strings stay strings. */
    private static final class CoreResolver extends Resolver {

        private static final Pattern BOOLEAN = Pattern.compile("^(?:true|false)$");

        @Override
        protected void addImplicitResolvers() {
            addImplicitResolver(Tag.BOOL, BOOLEAN, "tf");
            addImplicitResolver(Tag.INT, INT, "-+0123456789");
            addImplicitResolver(Tag.FLOAT, FLOAT, "-+0123456789.");
            addImplicitResolver(Tag.NULL, NULL, "~nN\0");
            addImplicitResolver(Tag.NULL, EMPTY, null);
        }
    }
}
