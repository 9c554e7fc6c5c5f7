// The oracle for metagate's `standard` analyzer: Lucene's StandardAnalyzer as
// Elasticsearch configures it (no stop words, max token length 255). Reads one text per
// line, base64-encoded UTF-8, and writes its tokens as one line of base64-encoded UTF-8
// strings separated by spaces (an empty line for no tokens).
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

public class LuceneTokens {
    public static void main(String[] args) throws Exception {
        StandardAnalyzer analyzer = new StandardAnalyzer(CharArraySet.EMPTY_SET);
        analyzer.setMaxTokenLength(255);
        Base64.Decoder dec = Base64.getDecoder();
        Base64.Encoder enc = Base64.getEncoder();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String text = new String(dec.decode(line), StandardCharsets.UTF_8);
            StringBuilder sb = new StringBuilder();
            try (TokenStream ts = analyzer.tokenStream("f", text)) {
                CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
                ts.reset();
                while (ts.incrementToken()) {
                    if (sb.length() > 0) sb.append(' ');
                    sb.append(enc.encodeToString(term.toString().getBytes(StandardCharsets.UTF_8)));
                }
                ts.end();
            }
            out.write(sb.toString());
            out.write('\n');
        }
        out.flush();
    }
}
