package io.tbactors.rule.spel;

import io.tbactors.rule.TbMsg;
import io.tbactors.rule.node.RuleNodeException;
import org.springframework.expression.EvaluationContext;
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
 *
 * <p>A node's configuration type may declare fields of this type: the chain's text is parsed and checked when the
 * chain is validated, and an error names the node and the field.
 */
public final class MsgExpression {

    private static final ExpressionParser PARSER = new SpelExpressionParser();
    private static final EvaluationContext CONTEXT = SimpleEvaluationContext
            .forPropertyAccessors(new MissingKeyTolerantMapAccessor())
            .withInstanceMethods()
            .build();

    private final SpelExpression expression;

    private MsgExpression(SpelExpression expression) {
        this.expression = expression;
    }

    /**
     * @param text the expression
     * @return the parsed expression
     * @throws IllegalArgumentException when it does not parse or reaches beyond the message, saying why
     */
    public static MsgExpression parse(String text) {
        SpelExpression expression;
        try {
            expression = (SpelExpression) PARSER.parseExpression(text);
        } catch (ParseException e) {
            throw new IllegalArgumentException("cannot parse SpEL expression '" + text + "': " + e.getMessage(), e);
        }
        String forbidden = forbidden(expression.getAST());
        if (forbidden != null) {
            throw new IllegalArgumentException("SpEL expression '" + text + "' uses " + forbidden + ", which is not allowed: an "
                    + "expression may only read the message (data, metadata, msgType, ts, originator) and call methods of its values");
        }
        return new MsgExpression(expression);
    }

    /** @return the expression's text */
    public String text() {
        return expression.getExpressionString();
    }

    @Override
    public String toString() {
        return text();
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
     * @param msg the message the expression looks at
     * @return the value
     * @throws org.springframework.expression.EvaluationException when it fails
     */
    public Object evaluate(TbMsg msg) {
        return expression.getValue(CONTEXT, new MsgRoot(msg));
    }

    /**
     * @param msg the message the condition looks at
     * @return the condition's value
     * @throws RuleNodeException when the value is not a boolean
     */
    public boolean test(TbMsg msg) {
        Object value = evaluate(msg);
        if (value instanceof Boolean b) {
            return b;
        }
        throw new RuleNodeException("condition '" + text() + "' gave " + value
                + (value == null ? "" : " (" + value.getClass().getSimpleName() + ")") + ", not a boolean");
    }
}
