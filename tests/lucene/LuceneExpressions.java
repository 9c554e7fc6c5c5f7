// The expressions oracle of tests/script_expression_lucene.rs: Lucene's JavascriptCompiler
// (the compiler ES 6.8's lang-expression runs) on expressions with values for their variables.
// Input lines: "<source>\t<name>=<hex bits of a double>,..." (names are Lucene's normalized
// variable texts; the last tab separates them from the source). Output per line: "OK <hex bits of the result> <variables joined by \u0001>",
// or "ERR <offset>\t<ParseException message>" when the expression does not compile.
import java.io.*;
import java.text.ParseException;
import java.util.*;
import org.apache.lucene.expressions.Expression;
import org.apache.lucene.expressions.js.JavascriptCompiler;
import org.apache.lucene.search.DoubleValues;

public class LuceneExpressions {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            int tab = line.lastIndexOf('\t');
            String source = tab < 0 ? line : line.substring(0, tab);
            Map<String, Double> values = new HashMap<>();
            if (tab >= 0 && tab + 1 < line.length()) {
                for (String binding : line.substring(tab + 1).split(",")) {
                    int eq = binding.lastIndexOf('=');
                    values.put(binding.substring(0, eq), Double.longBitsToDouble(Long.parseUnsignedLong(binding.substring(eq + 1), 16)));
                }
            }
            Expression e;
            try {
                e = JavascriptCompiler.compile(source);
            } catch (ParseException p) {
                out.append("ERR ").append(p.getErrorOffset()).append('\t').append(p.getMessage().replace('\n', ' ')).append('\n');
                continue;
            } catch (RuntimeException r) {
                out.append("EXC ").append(r.getClass().getName()).append('\t').append(String.valueOf(r.getMessage()).replace('\n', ' ')).append('\n');
                continue;
            }
            DoubleValues[] bound = new DoubleValues[e.variables.length];
            for (int i = 0; i < bound.length; i++) {
                double v = values.getOrDefault(e.variables[i], 0.0);
                bound[i] = DoubleValues.withDefault(DoubleValues.EMPTY, v);
            }
            double r = e.evaluate(bound);
            out.append("OK ").append(Long.toHexString(Double.doubleToRawLongBits(r))).append(' ')
               .append(String.join("\u0001", e.variables)).append('\n');
        }
        System.out.print(out);
    }
}
