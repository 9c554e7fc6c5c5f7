// The geo oracle of tests/geo_point.rs: Lucene's own LatLonPoint queries over points.
// Input lines: "P lat lon" (document i is the i-th P line), then queries
// "D lat lon meters" (LatLonPoint.newDistanceQuery) or "B minLat maxLat minLon maxLon"
// (LatLonPoint.newBoxQuery). Output: per query, the matching document numbers in order.
import java.io.*;
import java.util.*;
import org.apache.lucene.document.*;
import org.apache.lucene.index.*;
import org.apache.lucene.search.*;
import org.apache.lucene.store.ByteBuffersDirectory;

public class LuceneGeo {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        ByteBuffersDirectory dir = new ByteBuffersDirectory();
        IndexWriterConfig cfg = new IndexWriterConfig().setRAMBufferSizeMB(512).setMergePolicy(NoMergePolicy.INSTANCE);
        IndexWriter w = new IndexWriter(dir, cfg);
        List<String[]> queries = new ArrayList<>();
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.trim().split(" ");
            if (f[0].equals("P")) {
                Document d = new Document();
                d.add(new LatLonPoint("p", Double.parseDouble(f[1]), Double.parseDouble(f[2])));
                w.addDocument(d);
            } else if (f.length > 1) {
                queries.add(f);
            }
        }
        w.forceMerge(1);
        w.close();
        IndexSearcher s = new IndexSearcher(DirectoryReader.open(dir));
        StringBuilder out = new StringBuilder();
        for (String[] q : queries) {
            double[] v = new double[q.length - 1];
            for (int i = 1; i < q.length; i++) v[i - 1] = Double.parseDouble(q[i]);
            Query query = q[0].equals("D") ? LatLonPoint.newDistanceQuery("p", v[0], v[1], v[2])
                : LatLonPoint.newBoxQuery("p", v[0], v[1], v[2], v[3]);
            TopDocs top = s.search(query, 1_000_000, Sort.INDEXORDER);
            StringBuilder ids = new StringBuilder();
            for (ScoreDoc sd : top.scoreDocs) ids.append(ids.length() > 0 ? " " : "").append(sd.doc);
            out.append(ids).append('\n');
        }
        System.out.print(out);
    }
}
