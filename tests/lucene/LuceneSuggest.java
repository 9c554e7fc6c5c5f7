// The suggest oracle: Lucene's DirectSpellChecker (with the settings ES 6.8's term
// suggester gives it) and its NRT completion suggester (PrefixCompletionQuery,
// FuzzyCompletionQuery over SuggestFields analysed with CompletionAnalyzer(simple)),
// over documents and queries read from stdin, one answer line per query.
//
// Input lines (tab-separated):
//   T <text>                         a document of the term index (field body, standard)
//   C <weight> <input>               a document of the completion index (field s)
//   QT <token> <mode> <max_edits>    a term suggestion (mode MISSING, POPULAR, ALWAYS)
//   QC <prefix> <fuzzy> <prefix_length> <transpositions> <unicode_aware>
//                                    a completion suggestion of size 5 (fuzzy 0: a prefix)
// Output per query: options separated by spaces, each text/scoreBits/freq (term) or
// text/scoreBits/doc (completion), scoreBits the float's bits in hex.

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.core.SimpleAnalyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.codecs.PostingsFormat;
import org.apache.lucene.codecs.lucene87.Lucene87Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.spell.DirectSpellChecker;
import org.apache.lucene.search.spell.SuggestMode;
import org.apache.lucene.search.spell.SuggestWord;
import org.apache.lucene.search.suggest.document.CompletionAnalyzer;
import org.apache.lucene.search.suggest.document.CompletionQuery;
import org.apache.lucene.search.suggest.document.FuzzyCompletionQuery;
import org.apache.lucene.search.suggest.document.PrefixCompletionQuery;
import org.apache.lucene.search.suggest.document.SuggestField;
import org.apache.lucene.search.suggest.document.SuggestIndexSearcher;
import org.apache.lucene.search.suggest.document.TopSuggestDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

public class LuceneSuggest {
  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    List<String[]> lines = new ArrayList<>();
    for (String l; (l = in.readLine()) != null; ) lines.add(l.split("\t", -1));
    ByteBuffersDirectory termDir = new ByteBuffersDirectory();
    IndexWriter tw = new IndexWriter(termDir, new IndexWriterConfig(new StandardAnalyzer()));
    ByteBuffersDirectory compDir = new ByteBuffersDirectory();
    IndexWriterConfig cfg = new IndexWriterConfig(new SimpleAnalyzer());
    final PostingsFormat completion = PostingsFormat.forName("Completion84");
    cfg.setCodec(new Lucene87Codec() {
      @Override public PostingsFormat getPostingsFormatForField(String f) {
        return f.equals("s") ? completion : super.getPostingsFormatForField(f);
      }
    });
    IndexWriter cw = new IndexWriter(compDir, cfg);
    for (String[] l : lines) {
      Document d = new Document();
      if (l[0].equals("T")) { d.add(new TextField("body", l[1], Field.Store.NO)); tw.addDocument(d); }
      if (l[0].equals("C")) { d.add(new SuggestField("s", l[2], Integer.parseInt(l[1]))); cw.addDocument(d); }
    }
    tw.close();
    cw.close();
    DirectoryReader tr = DirectoryReader.open(termDir);
    DirectoryReader cr = DirectoryReader.open(compDir);
    SuggestIndexSearcher searcher = new SuggestIndexSearcher(cr);
    Analyzer analyzer = new CompletionAnalyzer(new SimpleAnalyzer(), true, true);
    StringBuilder out = new StringBuilder();
    for (String[] l : lines) {
      StringBuilder sb = new StringBuilder();
      if (l[0].equals("QT")) {
        DirectSpellChecker sc = new DirectSpellChecker();
        sc.setAccuracy(0.5f); sc.setMaxEdits(Integer.parseInt(l[3])); sc.setMaxInspections(5);
        sc.setMaxQueryFrequency(0.01f); sc.setMinPrefix(1); sc.setMinQueryLength(4);
        sc.setThresholdFrequency(0f); sc.setLowerCaseTerms(false);
        SuggestMode mode = SuggestMode.valueOf(l[2].equals("MISSING") ? "SUGGEST_WHEN_NOT_IN_INDEX"
            : l[2].equals("POPULAR") ? "SUGGEST_MORE_POPULAR" : "SUGGEST_ALWAYS");
        for (SuggestWord w : sc.suggestSimilar(new Term("body", l[1]), 5, tr, mode)) {
          sb.append(' ').append(w.string).append('/').append(Integer.toHexString(Float.floatToIntBits(w.score))).append('/').append(w.freq);
        }
      } else if (l[0].equals("QC")) {
        CompletionQuery q = l[2].equals("0")
            ? new PrefixCompletionQuery(analyzer, new Term("s", l[1]))
            : new FuzzyCompletionQuery(analyzer, new Term("s", l[1]), null, Integer.parseInt(l[2]), l[4].equals("1"),
                Integer.parseInt(l[3]), 3, l[5].equals("1"), 10000);
        TopSuggestDocs td = searcher.suggest(q, 5, false);
        for (TopSuggestDocs.SuggestScoreDoc d : td.scoreLookupDocs()) {
          sb.append(' ').append(d.key).append('/').append(Integer.toHexString(Float.floatToIntBits(d.score))).append('/').append(d.doc);
        }
      } else {
        continue;
      }
      out.append(sb.toString().trim()).append('\n');
    }
    System.out.print(out);
  }
}
