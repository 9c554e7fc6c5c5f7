// Writes src/analysis/url_tlds.rs: the top-level domains Lucene 8.7.0's
// UAX29URLEmailTokenizer recognises, found by asking the tokenizer itself. Candidates are the
// last labels of every rule of the Public Suffix List files given (IDNs in their punycode
// form) and every name of two to four letters; a candidate is kept when the tokenizer types
// `x.<tld>` as one <URL>. Lucene's list dates from about 2018 and holds TLDs retired since,
// so the lists given should span those years: url_tlds.rs was made from Debian's
// publicsuffix (/usr/share/publicsuffix, 2023), and the lists inside the PyPI packages
// publicsuffix2 2.20160818, 2.20180921.2, 2.20181213, 2.20190205, 2.20191221 and
// publicsuffixlist 1.1.2.20261023 (`pip download --no-deps`). The exhaustive short names
// found no TLD those lists lack. The TLDs are then parted as Lucene's grammar parts them
// (LUCENE-8278): the TLDs one or two characters shorter than a longer TLD they begin,
// walked longest first.
// Run: javac -cp /usr/share/java/lucene-analyzers-common-8.7.0.jar:/usr/share/java/lucene-core-8.7.0.jar -d /tmp UrlEmailTlds.java &&
//   java -cp /tmp:/usr/share/java/lucene-analyzers-common-8.7.0.jar:/usr/share/java/lucene-core-8.7.0.jar \
//     UrlEmailTlds /usr/share/publicsuffix/public_suffix_list.dat PSL_FILE... > src/analysis/url_tlds.rs
import org.apache.lucene.analysis.standard.UAX29URLEmailTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;
import java.io.StringReader;
import java.net.IDN;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.*;

public class UrlEmailTlds {
    /** Whether the tokenizer makes one URL of `x.` + tld. */
    static boolean isTld(UAX29URLEmailTokenizer t, String tld) throws Exception {
        String text = "x." + tld;
        t.setReader(new StringReader(text));
        CharTermAttribute term = t.getAttribute(CharTermAttribute.class);
        TypeAttribute type = t.getAttribute(TypeAttribute.class);
        t.reset();
        boolean url = t.incrementToken() && term.toString().equals(text) && type.type().equals("<URL>") && !t.incrementToken();
        t.end();
        t.close();
        return url;
    }

    public static void main(String[] args) throws Exception {
        TreeSet<String> candidates = new TreeSet<>();
        String letters = "abcdefghijklmnopqrstuvwxyz";
        List<String> shorter = Collections.singletonList("");
        for (int length = 1; length <= 4; length++) {
            List<String> longer = new ArrayList<>();
            for (String s : shorter) for (char c : letters.toCharArray()) longer.add(s + c);
            if (length >= 2) candidates.addAll(longer);
            shorter = longer;
        }
        for (String file : args) {
            for (String line : Files.readAllLines(Paths.get(file), StandardCharsets.UTF_8)) {
                line = line.trim();
                if (line.isEmpty() || line.startsWith("//")) continue;
                String label = line.substring(line.lastIndexOf('.') + 1);
                try {
                    candidates.add(IDN.toASCII(label, IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    // Not a label IDNA can write in ASCII: no TLD of the grammar either.
                }
            }
        }
        UAX29URLEmailTokenizer t = new UAX29URLEmailTokenizer();
        t.addAttribute(CharTermAttribute.class);
        t.addAttribute(TypeAttribute.class);
        TreeSet<String> tlds = new TreeSet<>();
        for (String c : candidates) {
            if (!c.matches("[a-z0-9-]+")) continue;
            if (isTld(t, c)) tlds.add(c);
        }
        // Lucene's partition: longest first, an unmarked TLD goes to bucket 0 and marks its
        // chain of shorter TLD prefixes, each to the bucket of its suffix length.
        List<String> longestFirst = new ArrayList<>(tlds);
        longestFirst.sort(Comparator.comparing(String::length).reversed().thenComparing(Comparator.naturalOrder()));
        Set<String> marked = new HashSet<>();
        List<TreeSet<String>> buckets = new ArrayList<>();
        buckets.add(new TreeSet<>());
        for (String tld : longestFirst) {
            if (marked.contains(tld)) continue;
            buckets.get(0).add(tld);
            for (int suffix = 1; tld.length() - suffix >= 2; suffix++) {
                String prefix = tld.substring(0, tld.length() - suffix);
                if (!tlds.contains(prefix) || marked.contains(prefix)) break;
                marked.add(prefix);
                while (buckets.size() <= suffix) buckets.add(new TreeSet<>());
                buckets.get(suffix).add(prefix);
            }
        }
        if (buckets.size() != 3) throw new IllegalStateException("the grammar has prefix buckets 1 and 2, the list makes " + (buckets.size() - 1));
        StringBuilder sb = new StringBuilder();
        sb.append("//! Generated by tests/lucene/UrlEmailTlds.java from Lucene 8.7.0's UAX29URLEmailTokenizer; do not edit.\n");
        sb.append("//! The ").append(tlds.size()).append(" top-level domains it recognises (lowercase; it matches them in any case),\n");
        sb.append("//! parted as its grammar parts them.\n\n");
        String[] names = {"TLDS", "TLD_PREFIXES_1", "TLD_PREFIXES_2"};
        String[] docs = {
            "TLDs that begin no TLD one character longer (and are not in a prefix chain).",
            "TLDs that begin a TLD one character longer.",
            "TLDs that begin a TLD two characters longer through a one-character-longer TLD prefix chain.",
        };
        for (int i = 0; i < 3; i++) {
            sb.append("/// ").append(docs[i]).append("\n");
            sb.append("pub(super) const ").append(names[i]).append(": &[&str] = &[\n");
            StringBuilder line = new StringBuilder("   ");
            for (String tld : buckets.get(i)) {
                String item = " \"" + tld + "\",";
                if (line.length() + item.length() > 100) {
                    sb.append(line).append("\n");
                    line = new StringBuilder("   ");
                }
                line.append(item);
            }
            if (line.length() > 3) sb.append(line).append("\n");
            sb.append("];\n");
            if (i < 2) sb.append("\n");
        }
        System.out.print(sb);
        System.err.println(candidates.size() + " candidates, " + tlds.size() + " TLDs; buckets " + buckets.get(0).size() + "/" + buckets.get(1).size() + "/" + buckets.get(2).size());
    }
}
