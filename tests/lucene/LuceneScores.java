// The oracle for metagate's relevance: Lucene indexes the given documents in one field
// with the StandardAnalyzer as Elasticsearch configures it (or, given the argument
// `english`, the EnglishAnalyzer of ES's `english`: stop words leave position gaps and
// shorter lengths, stems change the terms) and scores `match` queries as
// Elasticsearch 6.8 does (Lucene 7's BM25, k1 1.2, b 0.75, kept in Lucene 8 as
// LegacyBM25Similarity; the query built by Lucene's QueryBuilder, one SHOULD clause per
// token; terms stacked at one position make Lucene's SynonymQuery). With the arguments
// `synonyms RULE...`, the analyzer is ES's custom `standard` tokenizer + `lowercase` +
// `synonym` filter (SynonymFilter) over those Solr rules, analysed by the tokenizer and
// `lowercase` as ES analyses them; with `graph RULE...` (or `graph-and`, the query's
// clauses required), documents are analysed without synonyms and queries through
// SynonymGraphFilter, multi-word synonyms making phrases. Input: a line with the number of documents, then one line per document
// "id<TAB>base64 text", then one base64 query text per line. Output, per query:
// "total<TAB>id:scorebits id:scorebits ..." for the top 10 (Float.floatToIntBits, in hex).
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarity.LegacyBM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.QueryBuilder;

public class LuceneScores {
    public static void main(String[] args) throws Exception {
        Analyzer analyzer;
        // `graph`: documents analysed without synonyms, queries through SynonymGraphFilter.
        Analyzer queryAnalyzer = null;
        if (args.length > 0 && args[0].equals("english")) {
            analyzer = new EnglishAnalyzer();
        } else if (args.length > 0 && (args[0].equals("synonyms") || args[0].startsWith("graph") || args[0].equals("common"))) {
            Analyzer rules = new Analyzer() {
                protected TokenStreamComponents createComponents(String f) {
                    org.apache.lucene.analysis.standard.StandardTokenizer t = new org.apache.lucene.analysis.standard.StandardTokenizer();
                    return new TokenStreamComponents(t, new org.apache.lucene.analysis.LowerCaseFilter(t));
                }
            };
            org.apache.lucene.analysis.synonym.SolrSynonymParser parser = new org.apache.lucene.analysis.synonym.SolrSynonymParser(true, true, rules);
            StringBuilder text = new StringBuilder();
            for (int i = 1; i < args.length; i++) text.append(args[i]).append('\n');
            parser.parse(new java.io.StringReader(text.toString()));
            final org.apache.lucene.analysis.synonym.SynonymMap map = parser.build();
            final boolean graph = args[0].startsWith("graph");
            analyzer = new Analyzer() {
                protected TokenStreamComponents createComponents(String f) {
                    org.apache.lucene.analysis.standard.StandardTokenizer t = new org.apache.lucene.analysis.standard.StandardTokenizer();
                    TokenStream lower = new org.apache.lucene.analysis.LowerCaseFilter(t);
                    return new TokenStreamComponents(t, graph
                        ? new org.apache.lucene.analysis.synonym.SynonymGraphFilter(lower, map, false)
                        : new org.apache.lucene.analysis.synonym.SynonymFilter(lower, map, false));
                }
            };
            if (graph) {
                queryAnalyzer = analyzer;
                analyzer = rules;
            }
        } else {
            StandardAnalyzer standard = new StandardAnalyzer(CharArraySet.EMPTY_SET);
            standard.setMaxTokenLength(255);
            analyzer = standard;
        }
        if (queryAnalyzer == null) queryAnalyzer = analyzer;
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
        IndexSearcher searcher = new IndexSearcher(DirectoryReader.open(dir));
        searcher.setSimilarity(similarity);
        // ES's `auto_generate_synonyms_phrase_query` (true by default).
        QueryBuilder builder = new QueryBuilder(queryAnalyzer);
        builder.setAutoGenerateMultiTermSynonymsPhraseQuery(true);
        String line;
        while ((line = in.readLine()) != null) {
            String text = new String(dec.decode(line), StandardCharsets.UTF_8);
            // `graph-and`: ES's `operator: and`.
            BooleanClause.Occur occur = args.length > 0 && args[0].equals("graph-and") ? BooleanClause.Occur.MUST : BooleanClause.Occur.SHOULD;
            Query q;
            if (args[0].equals("common")) {
                // `common`: every token of the stream (stacked ones too) is a term of a
                // CommonTermsQuery, as ES's CommonTermsQueryBuilder adds them (cutoff 30%).
                org.apache.lucene.queries.CommonTermsQuery common =
                    new org.apache.lucene.queries.CommonTermsQuery(BooleanClause.Occur.SHOULD, BooleanClause.Occur.SHOULD, 0.3f);
                try (TokenStream ts = queryAnalyzer.tokenStream("d", text)) {
                    org.apache.lucene.analysis.tokenattributes.CharTermAttribute term =
                        ts.addAttribute(org.apache.lucene.analysis.tokenattributes.CharTermAttribute.class);
                    ts.reset();
                    while (ts.incrementToken()) common.add(new org.apache.lucene.index.Term("d", term.toString()));
                    ts.end();
                }
                q = searcher.rewrite(common);
            } else {
                q = builder.createBooleanQuery("d", text, occur);
            }
            if (q == null) q = new MatchNoDocsQuery();
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
