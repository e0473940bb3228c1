package io.tbactors.sample.iot.rule.node;

import java.util.HashMap;
import java.util.Map;

import io.tbactors.sample.iot.rule.TbMsg;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.Expression;
import org.springframework.expression.ExpressionParser;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.Assign;
import org.springframework.expression.spel.ast.BeanReference;
import org.springframework.expression.spel.ast.ConstructorReference;
import org.springframework.expression.spel.ast.FunctionReference;
import org.springframework.expression.spel.ast.TypeReference;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.SimpleEvaluationContext;

/**
 * SpEL over a message. An expression sees {@code data} (the key-value pairs), {@code metadata}, {@code msgType},
 * {@code ts} and {@code originator}; map entries read as properties ({@code data.temperature}) or by index
 * ({@code data['temperature']}), a missing key reads as null. The evaluation context is the restricted
 * {@link SimpleEvaluationContext}: no type references, constructors or bean references, so a rule chain cannot
 * reach into the JVM; only methods of the values themselves, e.g. {@code data.name.startsWith('x')}. Such
 * constructs, variables and assignments are refused when the chain is validated, naming the node, rather than
 * failing on every message. The message's maps and lists are unmodifiable, so a method such as {@code put} fails.
 */
public final class MsgExpressions {

    private static final ExpressionParser PARSER = new SpelExpressionParser();
    private static final EvaluationContext CONTEXT = SimpleEvaluationContext
            .forPropertyAccessors(new MissingKeyTolerantMapAccessor())
            .withInstanceMethods()
            .build();

    private MsgExpressions() {
    }

    /**
     * @param config where an error is recorded
     * @param field the configuration field the text came from (for the error's location)
     * @param text the expression
     * @return the parsed expression, or null after recording an error
     */
    public static Expression parse(NodeConfig config, String field, String text) {
        if (text == null) {
            return null;
        }
        SpelExpression expression;
        try {
            expression = (SpelExpression) PARSER.parseExpression(text);
        } catch (ParseException e) {
            config.error(field, "cannot parse SpEL expression '" + text + "': " + e.getMessage());
            return null;
        }
        String forbidden = forbidden(expression.getAST());
        if (forbidden != null) {
            config.error(field, "SpEL expression '" + text + "' uses " + forbidden + ", which is not allowed: an expression "
                    + "may only read the message (data, metadata, msgType, ts, originator) and call methods of its values");
            return null;
        }
        return expression;
    }

    /** The evaluation context would refuse these on every message; refusing them at PUT says so once, with the node. */
    private static String forbidden(SpelNode node) {
        String what = null;
        if (node instanceof TypeReference) {
            what = "a type reference " + node.toStringAST();
        } else if (node instanceof ConstructorReference) {
            what = "a constructor call " + node.toStringAST();
        } else if (node instanceof BeanReference) {
            what = "a bean reference " + node.toStringAST();
        } else if (node instanceof FunctionReference) {
            what = "a function reference " + node.toStringAST();
        } else if (node instanceof VariableReference && !isRootOrThis(node)) {
            what = "a variable " + node.toStringAST();
        } else if (node instanceof Assign) {
            what = "an assignment " + node.toStringAST();
        }
        if (what != null) {
            return what;
        }
        for (int i = 0; i < node.getChildCount(); i++) {
            String inChild = forbidden(node.getChild(i));
            if (inChild != null) {
                return inChild;
            }
        }
        return null;
    }

    private static boolean isRootOrThis(SpelNode variable) {
        String text = variable.toStringAST();
        return "#root".equals(text) || "#this".equals(text);
    }

    /**
     * @param expression a parsed expression
     * @param msg the message it looks at
     * @return the value
     * @throws org.springframework.expression.EvaluationException when it fails
     */
    public static Object evaluate(Expression expression, TbMsg msg) {
        return expression.getValue(CONTEXT, root(msg));
    }

    /**
     * @param expression a parsed condition
     * @param msg the message it looks at
     * @return the condition's value
     * @throws RuleNodeException when the value is not a boolean
     */
    public static boolean test(Expression expression, TbMsg msg) {
        Object value = evaluate(expression, msg);
        if (value instanceof Boolean b) {
            return b;
        }
        throw new RuleNodeException("condition '" + expression.getExpressionString() + "' gave " + value
                + (value == null ? "" : " (" + value.getClass().getSimpleName() + ")") + ", not a boolean");
    }

    private static Map<String, Object> root(TbMsg msg) {
        Map<String, Object> root = new HashMap<>(8);
        root.put("data", msg.data());
        root.put("metadata", msg.metadata());
        root.put("msgType", msg.type());
        root.put("ts", msg.ts());
        root.put("originator", String.valueOf(msg.originatorId()));
        return root;
    }
}
