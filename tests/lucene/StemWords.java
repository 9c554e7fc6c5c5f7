// Lucene 8.7's stem of each word read from stdin (one a line), by each stemmer named in
// the arguments: a Snowball class (`German`, `Hungarian`, ...) or `brazilian`,
// `galician`, `minimal_galician`, `portuguese_rslp`. Prints `name<TAB>word<TAB>stem`, for the
// word-list comparison in src/analysis/stemmers/snowball.rs (an ignored test).
// Run: javac -cp /usr/share/java/lucene-analyzers-common-8.7.0.jar:/usr/share/java/lucene-core-8.7.0.jar -d /tmp tests/lucene/StemWords.java &&
//   java -cp /tmp:/usr/share/java/lucene-analyzers-common-8.7.0.jar:/usr/share/java/lucene-core-8.7.0.jar StemWords German < words
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import org.apache.lucene.analysis.*;
import org.apache.lucene.analysis.core.KeywordTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

public class StemWords {
    static TokenFilter filter(String name, TokenStream in) throws Exception {
        switch (name) {
            case "brazilian": return new org.apache.lucene.analysis.br.BrazilianStemFilter(in);
            case "galician": return new org.apache.lucene.analysis.gl.GalicianStemFilter(in);
            case "minimal_galician": return new org.apache.lucene.analysis.gl.GalicianMinimalStemFilter(in);
            case "portuguese_rslp": return new org.apache.lucene.analysis.pt.PortugueseStemFilter(in);
            default: return new org.apache.lucene.analysis.snowball.SnowballFilter(in, name);
        }
    }

    public static void main(String[] args) throws Exception {
        BufferedReader r = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        List<String> words = new ArrayList<>();
        for (String line; (line = r.readLine()) != null; ) if (!line.isEmpty()) words.add(line);
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, "UTF-8");
        for (String name : args) {
            for (String word : words) {
                KeywordTokenizer t = new KeywordTokenizer();
                t.setReader(new StringReader(word));
                TokenStream ts = filter(name, t);
                CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
                ts.reset();
                ts.incrementToken();
                out.println(name + "\t" + word + "\t" + term);
                ts.end();
                ts.close();
            }
        }
        out.flush();
    }
}
