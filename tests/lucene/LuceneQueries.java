// The oracle for metagate's span and common terms queries: Lucene indexes the given
// documents in one field "d" with the StandardAnalyzer as Elasticsearch configures it,
// and scores the queries with Lucene 7's BM25 (kept in Lucene 8 as
// LegacyBM25Similarity), as Elasticsearch 6.8 does. Queries are written in a small
// prefix notation:
//   t:WORD | prefix:P | or(Q,...) | near(SLOP,ORDERED,Q,...) | not(Q,Q,PRE,POST)
//   | first(Q,END) | containing(Q,Q) | within(Q,Q)
//   | common(CUTOFF,LOW_MUST,HIGH_MUST,LOW_MSM,HIGH_MSM,WORD WORD ...)
// (a common terms query of those words, the operators `true` for AND, the minimum
// numbers to match as counts)
//   | mlt(MIN_TF,MIN_DF,MAX_TERMS,BOOST_FACTOR,MSM_PERCENT,TEXT)
// (Lucene's MoreLikeThis of the text over "d", terms boosted when BOOST_FACTOR is not 0,
// with Elasticsearch's percentage of the optional clauses required).
// Input: a line with the number of documents, then one line per document
// "id<TAB>base64 text", then one query per line. Output, per query:
// "total<TAB>id:scorebits id:scorebits ..." for the top 10 (Float.floatToIntBits, in hex).
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.queries.mlt.MoreLikeThis;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.queries.CommonTermsQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarity.LegacyBM25Similarity;
import org.apache.lucene.search.spans.SpanContainingQuery;
import org.apache.lucene.search.spans.SpanFirstQuery;
import org.apache.lucene.search.spans.SpanMultiTermQueryWrapper;
import org.apache.lucene.search.spans.SpanNearQuery;
import org.apache.lucene.search.spans.SpanNotQuery;
import org.apache.lucene.search.spans.SpanOrQuery;
import org.apache.lucene.search.spans.SpanQuery;
import org.apache.lucene.search.spans.SpanTermQuery;
import org.apache.lucene.search.spans.SpanWithinQuery;
import org.apache.lucene.store.ByteBuffersDirectory;

public class LuceneQueries {
    private final String s;
    private int at;

    private LuceneQueries(String s) {
        this.s = s;
    }

    private String word() {
        int start = at;
        while (at < s.length() && ",()".indexOf(s.charAt(at)) < 0) at++;
        return s.substring(start, at);
    }

    private void expect(char c) {
        if (s.charAt(at) != c) throw new IllegalArgumentException("expected " + c + " at " + at + " in " + s);
        at++;
    }

    private List<SpanQuery> clauses() {
        List<SpanQuery> out = new ArrayList<>();
        while (s.charAt(at) != ')') {
            out.add(query());
            if (s.charAt(at) == ',') at++;
        }
        return out;
    }

    /** The index the more-like-this terms are selected in. */
    static IndexReader reader;
    static StandardAnalyzer mltAnalyzer;

    /** Lucene's MoreLikeThis over "d" with Elasticsearch's minimum_should_match percentage. */
    private static Query mlt(String[] p) throws java.io.IOException {
        MoreLikeThis mlt = new MoreLikeThis(reader);
        mlt.setAnalyzer(mltAnalyzer);
        mlt.setFieldNames(new String[] {"d"});
        mlt.setMinTermFreq(Integer.parseInt(p[0]));
        mlt.setMinDocFreq(Integer.parseInt(p[1]));
        mlt.setMaxQueryTerms(Integer.parseInt(p[2]));
        float factor = Float.parseFloat(p[3]);
        mlt.setBoost(factor != 0);
        mlt.setBoostFactor(factor);
        BooleanQuery q = (BooleanQuery) mlt.like("d", new java.io.StringReader(p[5]));
        int msm = q.clauses().size() * Integer.parseInt(p[4]) / 100;
        if (msm <= 0) return q;
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        for (BooleanClause c : q.clauses()) b.add(c);
        b.setMinimumNumberShouldMatch(msm);
        return b.build();
    }

    /** A common terms query, a more-like-this query, or a span query. */
    private Query top() throws java.io.IOException {
        if (s.startsWith("mlt(")) return mlt(s.substring(4, s.length() - 1).split(",", 6));
        if (!s.startsWith("common(")) return query();
        String[] p = s.substring(7, s.length() - 1).split(",", 6);
        BooleanClause.Occur low = Boolean.parseBoolean(p[1]) ? BooleanClause.Occur.MUST : BooleanClause.Occur.SHOULD;
        BooleanClause.Occur high = Boolean.parseBoolean(p[2]) ? BooleanClause.Occur.MUST : BooleanClause.Occur.SHOULD;
        CommonTermsQuery q = new CommonTermsQuery(high, low, Float.parseFloat(p[0]));
        q.setLowFreqMinimumNumberShouldMatch(Float.parseFloat(p[3]));
        q.setHighFreqMinimumNumberShouldMatch(Float.parseFloat(p[4]));
        for (String w : p[5].split(" ")) q.add(new Term("d", w));
        return q;
    }

    private SpanQuery query() {
        String w = word();
        if (w.startsWith("t:")) return new SpanTermQuery(new Term("d", w.substring(2)));
        if (w.startsWith("prefix:")) {
            SpanMultiTermQueryWrapper<PrefixQuery> q = new SpanMultiTermQueryWrapper<>(new PrefixQuery(new Term("d", w.substring(7))));
            q.setRewriteMethod(SpanMultiTermQueryWrapper.SCORING_SPAN_QUERY_REWRITE);
            return q;
        }
        expect('(');
        SpanQuery q;
        switch (w) {
            case "or": {
                q = new SpanOrQuery(clauses().toArray(new SpanQuery[0]));
                break;
            }
            case "near": {
                int slop = Integer.parseInt(word());
                expect(',');
                boolean ordered = Boolean.parseBoolean(word());
                expect(',');
                // Clauses through the builder, as ES builds them: `gap:W` is addGap(W).
                SpanNearQuery.Builder near = new SpanNearQuery.Builder("d", ordered).setSlop(slop);
                while (s.charAt(at) != ')') {
                    if (s.startsWith("gap:", at)) {
                        at += 4;
                        near.addGap(Integer.parseInt(word()));
                    } else {
                        near.addClause(query());
                    }
                    if (s.charAt(at) == ',') at++;
                }
                q = near.build();
                break;
            }
            case "not": {
                SpanQuery include = query();
                expect(',');
                SpanQuery exclude = query();
                expect(',');
                int pre = Integer.parseInt(word());
                expect(',');
                int post = Integer.parseInt(word());
                q = new SpanNotQuery(include, exclude, pre, post);
                break;
            }
            case "first": {
                SpanQuery inner = query();
                expect(',');
                q = new SpanFirstQuery(inner, Integer.parseInt(word()));
                break;
            }
            case "containing":
            case "within": {
                SpanQuery big = query();
                expect(',');
                SpanQuery little = query();
                q = w.equals("containing") ? new SpanContainingQuery(big, little) : new SpanWithinQuery(big, little);
                break;
            }
            default:
                throw new IllegalArgumentException("unknown span " + w);
        }
        expect(')');
        return q;
    }

    public static void main(String[] args) throws Exception {
        StandardAnalyzer analyzer = new StandardAnalyzer(CharArraySet.EMPTY_SET);
        analyzer.setMaxTokenLength(255);
        LegacyBM25Similarity similarity = new LegacyBM25Similarity(1.2f, 0.75f);
        Base64.Decoder dec = Base64.getDecoder();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriterConfig config = new IndexWriterConfig(analyzer).setSimilarity(similarity);
        int n = Integer.parseInt(in.readLine().trim());
        try (IndexWriter writer = new IndexWriter(dir, config)) {
            for (int i = 0; i < n; i++) {
                String[] parts = in.readLine().split("\t", 2);
                Document doc = new Document();
                doc.add(new StoredField("id", parts[0]));
                doc.add(new TextField("d", new String(dec.decode(parts[1]), StandardCharsets.UTF_8), Field.Store.NO));
                writer.addDocument(doc);
            }
            writer.forceMerge(1);
        }
        reader = DirectoryReader.open(dir);
        mltAnalyzer = analyzer;
        IndexSearcher searcher = new IndexSearcher(reader);
        searcher.setSimilarity(similarity);
        String line;
        while ((line = in.readLine()) != null) {
            Query q = new LuceneQueries(line.trim()).top();
            StringBuilder sb = new StringBuilder();
            sb.append(searcher.count(q)).append('\t');
            TopDocs top = searcher.search(q, 10);
            for (ScoreDoc sd : top.scoreDocs) {
                sb.append(searcher.doc(sd.doc).get("id")).append(':')
                  .append(Integer.toHexString(Float.floatToIntBits(sd.score))).append(' ');
            }
            out.write(sb.toString().trim());
            out.write('\n');
        }
        out.flush();
    }
}
