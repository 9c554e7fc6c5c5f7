// The oracle for metagate's analysis chains: builds Lucene's components as ES 6.8's
// factories configure them, from an `_analyze`-style spec, and prints every token's
// attributes. Input: one request per line, `<spec JSON>\t<base64 UTF-8 text>`, the spec
// being `{"analyzer": name}` or `{"tokenizer": ..., "filter": [...], "char_filter": [...]}`
// (names or `{"type": ...}` definitions). Output: one line per request, its tokens
// separated by spaces, each `base64(term),position,start,end,positionLength,base64(type)`
// with positions counted as ES's _analyze counts them; `ERR` when Lucene refuses.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.*;
import org.apache.lucene.analysis.charfilter.MappingCharFilter;
import org.apache.lucene.analysis.charfilter.NormalizeCharMap;
import org.apache.lucene.analysis.core.*;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.miscellaneous.*;
import org.apache.lucene.analysis.ngram.*;
import org.apache.lucene.analysis.path.PathHierarchyTokenizer;
import org.apache.lucene.analysis.pattern.*;
import org.apache.lucene.analysis.reverse.ReverseStringFilter;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.*;
import org.apache.lucene.analysis.util.CharTokenizer;
import org.apache.lucene.analysis.util.ElisionFilter;
import org.apache.lucene.analysis.core.DecimalDigitFilter;
import org.apache.lucene.analysis.tr.ApostropheFilter;
import org.apache.lucene.util.automaton.RegExp;

public class LuceneAnalysis {
    // --- a minimal JSON reader: objects, arrays, strings, numbers/booleans as strings ---
    static int pos;
    static String src;
    static Object parse(String s) { src = s; pos = 0; return value(); }
    static void ws() { while (pos < src.length() && Character.isWhitespace(src.charAt(pos))) pos++; }
    static Object value() {
        ws();
        char c = src.charAt(pos);
        if (c == '{') {
            pos++; Map<String, Object> m = new LinkedHashMap<>(); ws();
            if (src.charAt(pos) == '}') { pos++; return m; }
            while (true) { ws(); String k = (String) value(); ws(); pos++; m.put(k, value()); ws();
                if (src.charAt(pos++) == '}') return m; }
        }
        if (c == '[') {
            pos++; List<Object> l = new ArrayList<>(); ws();
            if (src.charAt(pos) == ']') { pos++; return l; }
            while (true) { l.add(value()); ws(); if (src.charAt(pos++) == ']') return l; }
        }
        if (c == '"') {
            StringBuilder sb = new StringBuilder(); pos++;
            while (true) {
                char d = src.charAt(pos++);
                if (d == '"') return sb.toString();
                if (d == '\\') {
                    char e = src.charAt(pos++);
                    switch (e) {
                        case 'n': sb.append('\n'); break; case 't': sb.append('\t'); break;
                        case 'r': sb.append('\r'); break; case 'b': sb.append('\b'); break;
                        case 'f': sb.append('\f'); break;
                        case 'u': sb.append((char) Integer.parseInt(src.substring(pos, pos + 4), 16)); pos += 4; break;
                        default: sb.append(e);
                    }
                } else sb.append(d);
            }
        }
        int start = pos;
        while (pos < src.length() && ",}] \t\n".indexOf(src.charAt(pos)) < 0) pos++;
        return src.substring(start, pos);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> def(Object spec) {
        if (spec instanceof String) { Map<String, Object> m = new HashMap<>(); m.put("type", spec); return m; }
        return (Map<String, Object>) spec;
    }
    static String str(Map<String, Object> m, String k, String d) { Object v = m.get(k); return v == null ? d : v.toString(); }
    static int num(Map<String, Object> m, String k, int d) { return Integer.parseInt(str(m, k, String.valueOf(d))); }
    static boolean bool(Map<String, Object> m, String k, boolean d) { return Boolean.parseBoolean(str(m, k, String.valueOf(d))); }
    @SuppressWarnings("unchecked")
    static List<String> list(Map<String, Object> m, String k) {
        Object v = m.get(k);
        if (v == null) return null;
        if (v instanceof List) { List<String> l = new ArrayList<>(); for (Object o : (List<Object>) v) l.add(o.toString()); return l; }
        return Collections.singletonList(v.toString());
    }
    static CharArraySet words(List<String> l, boolean ignoreCase, List<String> dflt) throws Exception {
        if (l == null) l = dflt;
        CharArraySet set = new CharArraySet(16, ignoreCase);
        if (l.size() == 1 && l.get(0).equals("_none_")) return set;
        for (String w : l) {
            if (w.equals("_english_")) set.addAll(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
            else if (w.startsWith("_") && w.endsWith("_") && w.length() > 2) {
                String lang = w.substring(1, w.length() - 1);
                String[][] known = {{"french", "fr.FrenchAnalyzer"}, {"german", "de.GermanAnalyzer"}, {"spanish", "es.SpanishAnalyzer"},
                    {"italian", "it.ItalianAnalyzer"}, {"danish", "da.DanishAnalyzer"}, {"dutch", "nl.DutchAnalyzer"}, {"norwegian", "no.NorwegianAnalyzer"},
                    {"romanian", "ro.RomanianAnalyzer"}, {"russian", "ru.RussianAnalyzer"}, {"swedish", "sv.SwedishAnalyzer"},
                    {"arabic", "ar.ArabicAnalyzer"}, {"hindi", "hi.HindiAnalyzer"}, {"greek", "el.GreekAnalyzer"}, {"armenian", "hy.ArmenianAnalyzer"}, {"basque", "eu.BasqueAnalyzer"},
                    {"catalan", "ca.CatalanAnalyzer"}, {"irish", "ga.IrishAnalyzer"}, {"bengali", "bn.BengaliAnalyzer"}, {"bulgarian", "bg.BulgarianAnalyzer"}, {"czech", "cz.CzechAnalyzer"},
                    {"finnish", "fi.FinnishAnalyzer"}, {"hungarian", "hu.HungarianAnalyzer"}, {"indonesian", "id.IndonesianAnalyzer"},
                    {"latvian", "lv.LatvianAnalyzer"}, {"persian", "fa.PersianAnalyzer"}, {"sorani", "ckb.SoraniAnalyzer"},
                    {"turkish", "tr.TurkishAnalyzer"}, {"cjk", "cjk.CJKAnalyzer"}};
                boolean found = false;
                for (String[] k : known) if (k[0].equals(lang)) {
                    set.addAll((CharArraySet) Class.forName("org.apache.lucene.analysis." + k[1]).getMethod("getDefaultStopSet").invoke(null));
                    found = true;
                }
                if (!found) set.add(w);
            } else set.add(w);
        }
        return set;
    }
    static boolean inClasses(List<String> classes, int c) {
        for (String k : classes) {
            int t = Character.getType(c);
            switch (k) {
                case "letter": if (Character.isLetter(c)) return true; break;
                case "digit": if (t == Character.DECIMAL_DIGIT_NUMBER) return true; break;
                case "whitespace": if (Character.isWhitespace(c)) return true; break;
                case "punctuation": if (t == Character.CONNECTOR_PUNCTUATION || t == Character.DASH_PUNCTUATION
                        || t == Character.START_PUNCTUATION || t == Character.END_PUNCTUATION || t == Character.INITIAL_QUOTE_PUNCTUATION
                        || t == Character.FINAL_QUOTE_PUNCTUATION || t == Character.OTHER_PUNCTUATION) return true; break;
                case "symbol": if (t == Character.MATH_SYMBOL || t == Character.CURRENCY_SYMBOL || t == Character.MODIFIER_SYMBOL
                        || t == Character.OTHER_SYMBOL) return true; break;
                default: if (k.length() == 1 && k.charAt(0) == c) return true;
            }
        }
        return false;
    }

    // A side of an ES mapping rule, trimmed then unescaped as ES's MappingCharFilterFactory
    // does (so `\\u0020` can map to a space the trim would otherwise drop).
    static String ruleString(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 >= s.length()) { sb.append(c); continue; }
            char e = s.charAt(++i);
            switch (e) {
                case 'n': sb.append('\n'); break; case 't': sb.append('\t'); break;
                case 'r': sb.append('\r'); break; case 'b': sb.append('\b'); break;
                case 'f': sb.append('\f'); break;
                case 'u': sb.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16)); i += 4; break;
                default: sb.append(e);
            }
        }
        return sb.toString();
    }

    static Reader charFilter(Map<String, Object> d, Reader in) {
        switch (str(d, "type", "")) {
            case "mapping": {
                NormalizeCharMap.Builder b = new NormalizeCharMap.Builder();
                for (String rule : list(d, "mappings")) {
                    int i = rule.lastIndexOf("=>");
                    b.add(ruleString(rule.substring(0, i).trim()), ruleString(rule.substring(i + 2).trim()));
                }
                return new MappingCharFilter(b.build(), in);
            }
            case "html_strip": {
                List<String> esc = list(d, "escaped_tags");
                return new org.apache.lucene.analysis.charfilter.HTMLStripCharFilter(in, esc == null ? null : new HashSet<>(esc));
            }
            case "pattern_replace":
                return new PatternReplaceCharFilter(Pattern.compile(str(d, "pattern", "")), str(d, "replacement", ""), in);
        }
        throw new IllegalArgumentException("char filter " + d);
    }

    static Tokenizer tokenizer(Map<String, Object> d) {
        switch (str(d, "type", "")) {
            case "standard": { StandardTokenizer t = new StandardTokenizer(); t.setMaxTokenLength(num(d, "max_token_length", 255)); return t; }
            case "uax_url_email": { org.apache.lucene.analysis.standard.UAX29URLEmailTokenizer t = new org.apache.lucene.analysis.standard.UAX29URLEmailTokenizer(); t.setMaxTokenLength(num(d, "max_token_length", 255)); return t; }
            case "whitespace": return new WhitespaceTokenizer(TokenStream.DEFAULT_TOKEN_ATTRIBUTE_FACTORY, num(d, "max_token_length", 255));
            case "classic": { org.apache.lucene.analysis.standard.ClassicTokenizer t = new org.apache.lucene.analysis.standard.ClassicTokenizer(); t.setMaxTokenLength(num(d, "max_token_length", 255)); return t; }
            case "letter": return new LetterTokenizer();
            case "lowercase": return new LetterTokenizer(); // lowercased by the chain (Lucene 8 has no LowerCaseTokenizer)
            case "keyword": return new KeywordTokenizer();
            case "char_group": {
                List<String> on = list(d, "tokenize_on_chars");
                return CharTokenizer.fromSeparatorCharPredicate(c -> inClasses(on, c));
            }
            case "ngram": case "edge_ngram": {
                boolean edge = str(d, "type", "").equals("edge_ngram");
                List<String> tc = list(d, "token_chars");
                int min = num(d, "min_gram", 1), max = num(d, "max_gram", edge ? 1 : 2);
                if (edge) return new EdgeNGramTokenizer(min, max) {
                    protected boolean isTokenChar(int c) { return tc == null || tc.isEmpty() || inClasses(tc, c); } };
                return new NGramTokenizer(min, max) {
                    protected boolean isTokenChar(int c) { return tc == null || tc.isEmpty() || inClasses(tc, c); } };
            }
            case "pattern": return new PatternTokenizer(Pattern.compile(str(d, "pattern", "\\W+")), num(d, "group", -1));
            case "simple_pattern": return new SimplePatternTokenizer(str(d, "pattern", ""));
            case "simple_pattern_split": return new SimplePatternSplitTokenizer(str(d, "pattern", ""));
            case "path_hierarchy": {
                char del = str(d, "delimiter", "/").charAt(0);
                return new PathHierarchyTokenizer(del, str(d, "replacement", String.valueOf(del)).charAt(0), num(d, "skip", 0));
            }
        }
        throw new IllegalArgumentException("tokenizer " + d);
    }

    /** ES's UniqueTokenFilter. */
    static final class Unique extends TokenFilter {
        final CharTermAttribute term = addAttribute(CharTermAttribute.class);
        final PositionIncrementAttribute inc = addAttribute(PositionIncrementAttribute.class);
        final CharArraySet seen = new CharArraySet(8, false);
        final boolean samePosition;
        Unique(TokenStream in, boolean samePosition) { super(in); this.samePosition = samePosition; }
        public boolean incrementToken() throws IOException {
            while (input.incrementToken()) {
                boolean dup;
                if (samePosition) { if (inc.getPositionIncrement() > 0) seen.clear(); dup = inc.getPositionIncrement() == 0 && seen.contains(term.buffer(), 0, term.length()); }
                else dup = seen.contains(term.buffer(), 0, term.length());
                seen.add(term.toString());
                if (!dup) return true;
            }
            return false;
        }
        public void reset() throws IOException { super.reset(); seen.clear(); }
    }

    static String capitalized(String s) { return Character.toUpperCase(s.charAt(0)) + s.substring(1).toLowerCase(Locale.ROOT); }

    /** A Lucene language analyzer (`org.apache.lucene.analysis.<pkg>.<Name>Analyzer`) with ES's stop words and stem exclusion. */
    static Analyzer language(Map<String, Object> d, String pkg) throws Exception {
        String name = capitalized(str(d, "type", ""));
        Class<?> c = Class.forName("org.apache.lucene.analysis." + pkg + "." + name + "Analyzer");
        List<String> stop = list(d, "stopwords");
        CharArraySet stopSet = stop == null ? (CharArraySet) c.getMethod("getDefaultStopSet").invoke(null) : words(stop, false, null);
        List<String> ex = list(d, "stem_exclusion");
        CharArraySet exSet = ex == null ? CharArraySet.EMPTY_SET : new CharArraySet(ex, false);
        return (Analyzer) c.getConstructor(CharArraySet.class, CharArraySet.class).newInstance(stopSet, exSet);
    }

    /** ES 6.8's SnowballAnalyzer. */
    static Analyzer snowball(Map<String, Object> d) throws Exception {
        String lang = str(d, "language", "English");
        List<String> dflt = Collections.singletonList(lang.equals("English") ? "_english_" : lang.equals("Dutch") ? "_dutch_"
            : lang.equals("German") || lang.equals("German2") ? "_german_" : "_none_");
        CharArraySet stop = words(list(d, "stopwords"), false, dflt);
        return new Analyzer() {
            protected TokenStreamComponents createComponents(String f) {
                Tokenizer t = new StandardTokenizer();
                TokenStream s = lang.equals("English") ? new org.apache.lucene.analysis.en.EnglishPossessiveFilter(t) : t;
                s = new org.apache.lucene.analysis.StopFilter(new org.apache.lucene.analysis.LowerCaseFilter(s), stop);
                return new TokenStreamComponents(t, new org.apache.lucene.analysis.snowball.SnowballFilter(s, lang));
            }
        };
    }

    static TokenStream filter(Map<String, Object> d, TokenStream in) throws Exception {
        switch (str(d, "type", "")) {
            case "lowercase":
                if ("turkish".equals(d.get("language"))) return new org.apache.lucene.analysis.tr.TurkishLowerCaseFilter(in);
                if ("irish".equals(d.get("language"))) return new org.apache.lucene.analysis.ga.IrishLowerCaseFilter(in);
                if ("greek".equals(d.get("language"))) return new org.apache.lucene.analysis.el.GreekLowerCaseFilter(in);
                return new org.apache.lucene.analysis.LowerCaseFilter(in);
            case "uppercase": return new UpperCaseFilter(in);
            case "asciifolding": return new ASCIIFoldingFilter(in, bool(d, "preserve_original", false));
            case "stop": return new org.apache.lucene.analysis.StopFilter(in, words(list(d, "stopwords"), bool(d, "ignore_case", false), Collections.singletonList("_english_")));
            case "trim": return new TrimFilter(in);
            case "truncate": return new TruncateTokenFilter(in, num(d, "length", 10));
            case "length": return new LengthFilter(in, num(d, "min", 0), num(d, "max", Integer.MAX_VALUE));
            case "limit": return new LimitTokenCountFilter(in, num(d, "max_token_count", 1), bool(d, "consume_all_tokens", false));
            case "unique": return new Unique(in, bool(d, "only_on_same_position", false));
            case "reverse": return new ReverseStringFilter(in);
            case "keyword_repeat": return new org.apache.lucene.analysis.miscellaneous.KeywordRepeatFilter(in);
            case "remove_duplicates": return new org.apache.lucene.analysis.miscellaneous.RemoveDuplicatesTokenFilter(in);
            case "elision": return new ElisionFilter(in, words(list(d, "articles"), bool(d, "articles_case", false), null));
            case "apostrophe": return new ApostropheFilter(in);
            case "edge_ngram": {
                boolean back = str(d, "side", "front").equals("back");
                TokenStream s = back ? new ReverseStringFilter(in) : in;
                s = new EdgeNGramTokenFilter(s, num(d, "min_gram", 1), num(d, "max_gram", 2), false);
                return back ? new ReverseStringFilter(s) : s;
            }
            case "ngram": return new NGramTokenFilter(in, num(d, "min_gram", 1), num(d, "max_gram", 2), false);
            case "keyword_marker":
                if (d.containsKey("keywords_pattern")) return new PatternKeywordMarkerFilter(in, Pattern.compile(str(d, "keywords_pattern", "")));
                return new SetKeywordMarkerFilter(in, words(list(d, "keywords"), bool(d, "ignore_case", false), null));
            case "pattern_replace": return new PatternReplaceFilter(in, Pattern.compile(str(d, "pattern", "")), str(d, "replacement", ""), bool(d, "all", true));
            case "decimal_digit": return new DecimalDigitFilter(in);
            case "classic": return new org.apache.lucene.analysis.standard.ClassicFilter(in);
            case "common_grams": {
                org.apache.lucene.analysis.commongrams.CommonGramsFilter f = new org.apache.lucene.analysis.commongrams.CommonGramsFilter(in,
                    words(list(d, "common_words"), bool(d, "ignore_case", false), null));
                return bool(d, "query_mode", false) ? new org.apache.lucene.analysis.commongrams.CommonGramsQueryFilter(f) : f;
            }
            case "cjk_bigram": {
                List<String> ign = list(d, "ignored_scripts");
                if (ign == null) ign = new ArrayList<>();
                int flags = 0;
                if (!ign.contains("han")) flags |= org.apache.lucene.analysis.cjk.CJKBigramFilter.HAN;
                if (!ign.contains("hiragana")) flags |= org.apache.lucene.analysis.cjk.CJKBigramFilter.HIRAGANA;
                if (!ign.contains("katakana")) flags |= org.apache.lucene.analysis.cjk.CJKBigramFilter.KATAKANA;
                if (!ign.contains("hangul")) flags |= org.apache.lucene.analysis.cjk.CJKBigramFilter.HANGUL;
                return new org.apache.lucene.analysis.cjk.CJKBigramFilter(in, flags, bool(d, "output_unigrams", false));
            }
            case "pattern_capture": {
                List<String> ps = list(d, "patterns");
                Pattern[] compiled = new Pattern[ps.size()];
                for (int i = 0; i < compiled.length; i++) compiled[i] = Pattern.compile(ps.get(i));
                return new org.apache.lucene.analysis.pattern.PatternCaptureGroupTokenFilter(in, bool(d, "preserve_original", true), compiled);
            }
            case "cjk_width": return new org.apache.lucene.analysis.cjk.CJKWidthFilter(in);
            case "porter_stem": return new org.apache.lucene.analysis.en.PorterStemFilter(in);
            case "kstem": return new org.apache.lucene.analysis.en.KStemFilter(in);
            case "stemmer": {
                String lang = str(d, "language", str(d, "name", "porter"));
                if (lang.equals("english") || lang.equals("porter")) return new org.apache.lucene.analysis.en.PorterStemFilter(in);
                if (lang.equals("minimal_english")) return new org.apache.lucene.analysis.en.EnglishMinimalStemFilter(in);
                if (lang.equalsIgnoreCase("light_english") || lang.equalsIgnoreCase("lightEnglish") || lang.equalsIgnoreCase("kstem"))
                    return new org.apache.lucene.analysis.en.KStemFilter(in);
                if (lang.equals("possessive_english")) return new org.apache.lucene.analysis.en.EnglishPossessiveFilter(in);
                if (lang.equals("light_portuguese")) return new org.apache.lucene.analysis.pt.PortugueseLightStemFilter(in);
                if (lang.equals("minimal_french")) return new org.apache.lucene.analysis.fr.FrenchMinimalStemFilter(in);
                if (lang.equals("minimal_german")) return new org.apache.lucene.analysis.de.GermanMinimalStemFilter(in);
                if (lang.equals("light_swedish")) return new org.apache.lucene.analysis.sv.SwedishLightStemFilter(in);
                if (lang.equals("light_french")) return new org.apache.lucene.analysis.fr.FrenchLightStemFilter(in);
                if (lang.equals("light_german")) return new org.apache.lucene.analysis.de.GermanLightStemFilter(in);
                if (lang.equals("light_italian")) return new org.apache.lucene.analysis.it.ItalianLightStemFilter(in);
                if (lang.equals("light_spanish")) return new org.apache.lucene.analysis.es.SpanishLightStemFilter(in);
                if (lang.equalsIgnoreCase("porter2")) return new org.apache.lucene.analysis.snowball.SnowballFilter(in, "English");
                if (lang.equals("arabic")) return new org.apache.lucene.analysis.ar.ArabicStemFilter(in);
                if (lang.equals("bulgarian")) return new org.apache.lucene.analysis.bg.BulgarianStemFilter(in);
                if (lang.equals("czech")) return new org.apache.lucene.analysis.cz.CzechStemFilter(in);
                if (lang.equals("indonesian")) return new org.apache.lucene.analysis.id.IndonesianStemFilter(in);
                if (lang.equals("latvian")) return new org.apache.lucene.analysis.lv.LatvianStemFilter(in);
                if (lang.equals("bengali")) return new org.apache.lucene.analysis.bn.BengaliStemFilter(in);
                if (lang.equals("greek")) return new org.apache.lucene.analysis.el.GreekStemFilter(in);
                if (lang.equals("hindi")) return new org.apache.lucene.analysis.hi.HindiStemFilter(in);
                if (lang.equals("sorani")) return new org.apache.lucene.analysis.ckb.SoraniStemFilter(in);
                if (lang.equals("light_russian")) return new org.apache.lucene.analysis.ru.RussianLightStemFilter(in);
                if (lang.equals("light_finnish")) return new org.apache.lucene.analysis.fi.FinnishLightStemFilter(in);
                if (lang.equals("light_hungarian")) return new org.apache.lucene.analysis.hu.HungarianLightStemFilter(in);
                if (lang.equals("light_norwegian")) return new org.apache.lucene.analysis.no.NorwegianLightStemFilter(in);
                if (lang.equals("light_nynorsk")) return new org.apache.lucene.analysis.no.NorwegianLightStemFilter(in, org.apache.lucene.analysis.no.NorwegianLightStemmer.NYNORSK);
                if (lang.equals("minimal_norwegian")) return new org.apache.lucene.analysis.no.NorwegianMinimalStemFilter(in);
                if (lang.equals("galician")) return new org.apache.lucene.analysis.gl.GalicianStemFilter(in);
                if (lang.equals("minimal_galician")) return new org.apache.lucene.analysis.gl.GalicianMinimalStemFilter(in);
                if (lang.equals("portuguese_rslp")) return new org.apache.lucene.analysis.pt.PortugueseStemFilter(in);
                if (lang.equals("brazilian")) return new org.apache.lucene.analysis.br.BrazilianStemFilter(in);
                if (lang.equals("minimal_nynorsk")) return new org.apache.lucene.analysis.no.NorwegianMinimalStemFilter(in, org.apache.lucene.analysis.no.NorwegianLightStemmer.NYNORSK);
                return new org.apache.lucene.analysis.snowball.SnowballFilter(in, capitalized(lang));
            }
            case "snowball":
            {   // ES's Strings.capitalize: the first character only
                String l = str(d, "language", "English");
                return new org.apache.lucene.analysis.snowball.SnowballFilter(in, Character.toUpperCase(l.charAt(0)) + l.substring(1));
            }
            case "scandinavian_normalization": return new ScandinavianNormalizationFilter(in);
            case "german_normalization": return new org.apache.lucene.analysis.de.GermanNormalizationFilter(in);
            case "arabic_normalization": return new org.apache.lucene.analysis.ar.ArabicNormalizationFilter(in);
            case "persian_normalization": return new org.apache.lucene.analysis.fa.PersianNormalizationFilter(in);
            case "bengali_normalization": return new org.apache.lucene.analysis.bn.BengaliNormalizationFilter(in);
            case "indic_normalization": return new org.apache.lucene.analysis.in.IndicNormalizationFilter(in);
            case "hindi_normalization": return new org.apache.lucene.analysis.hi.HindiNormalizationFilter(in);
            case "sorani_normalization": return new org.apache.lucene.analysis.ckb.SoraniNormalizationFilter(in);
            case "arabic_stem": return new org.apache.lucene.analysis.ar.ArabicStemFilter(in);
            case "czech_stem": return new org.apache.lucene.analysis.cz.CzechStemFilter(in);
            case "stemmer_override": {
                StemmerOverrideFilter.Builder b = new StemmerOverrideFilter.Builder(false);
                for (String rule : list(d, "rules")) { String[] kv = rule.split("=>"); b.add(kv[0].trim(), kv[1].trim()); }
                return new StemmerOverrideFilter(in, b.build());
            }
            case "shingle": {
                org.apache.lucene.analysis.shingle.ShingleFilter f = new org.apache.lucene.analysis.shingle.ShingleFilter(in,
                    num(d, "min_shingle_size", 2), num(d, "max_shingle_size", 2));
                f.setOutputUnigrams(bool(d, "output_unigrams", true));
                f.setOutputUnigramsIfNoShingles(bool(d, "output_unigrams_if_no_shingles", false));
                f.setTokenSeparator(str(d, "token_separator", " "));
                f.setFillerToken(str(d, "filler_token", "_"));
                return f;
            }
            case "word_delimiter":
                return new WordDelimiterFilter(in, typeTable(d), wordDelimiterFlags(d), protectedWords(d));
            case "word_delimiter_graph":
                return new WordDelimiterGraphFilter(in, bool(d, "adjust_offsets", true), typeTable(d), wordDelimiterFlags(d), protectedWords(d));
            case "flatten_graph": return new FlattenGraphFilter(in);
            case "fingerprint":
                return new org.apache.lucene.analysis.miscellaneous.FingerprintFilter(in, num(d, "max_output_size", 255), str(d, "separator", " ").charAt(0));
        }
        throw new IllegalArgumentException("filter " + d);
    }

    // ES 6.8's word delimiter factories: their flags with ES's defaults, the protected
    // words, and `parseTypes` of a type table.
    static int wordDelimiterFlags(Map<String, Object> d) {
        int f = 0;
        if (bool(d, "generate_word_parts", true)) f |= WordDelimiterFilter.GENERATE_WORD_PARTS;
        if (bool(d, "generate_number_parts", true)) f |= WordDelimiterFilter.GENERATE_NUMBER_PARTS;
        if (bool(d, "catenate_words", false)) f |= WordDelimiterFilter.CATENATE_WORDS;
        if (bool(d, "catenate_numbers", false)) f |= WordDelimiterFilter.CATENATE_NUMBERS;
        if (bool(d, "catenate_all", false)) f |= WordDelimiterFilter.CATENATE_ALL;
        if (bool(d, "split_on_case_change", true)) f |= WordDelimiterFilter.SPLIT_ON_CASE_CHANGE;
        if (bool(d, "preserve_original", false)) f |= WordDelimiterFilter.PRESERVE_ORIGINAL;
        if (bool(d, "split_on_numerics", true)) f |= WordDelimiterFilter.SPLIT_ON_NUMERICS;
        if (bool(d, "stem_english_possessive", true)) f |= WordDelimiterFilter.STEM_ENGLISH_POSSESSIVE;
        return f;
    }
    static CharArraySet protectedWords(Map<String, Object> d) {
        List<String> l = list(d, "protected_words");
        return l == null ? null : new CharArraySet(l, bool(d, "protected_words_case", false));
    }
    static byte[] typeTable(Map<String, Object> d) {
        List<String> rules = list(d, "type_table");
        if (rules == null) return WordDelimiterIterator.DEFAULT_WORD_DELIM_TABLE;
        SortedMap<Character, Byte> map = new TreeMap<>();
        Pattern p = Pattern.compile("(.*)\\s*=>\\s*(.*)\\s*$");
        for (String rule : rules) {
            java.util.regex.Matcher m = p.matcher(rule);
            m.find();
            String lhs = ruleString(m.group(1).trim());
            String t = m.group(2).trim();
            byte b = t.equals("LOWER") ? 1 : t.equals("UPPER") ? 2 : t.equals("ALPHA") ? 3 : t.equals("DIGIT") ? 4
                : t.equals("ALPHANUM") ? 7 : (byte) 8;
            map.put(lhs.charAt(0), b);
        }
        byte[] types = new byte[Math.max(map.lastKey() + 1, WordDelimiterIterator.DEFAULT_WORD_DELIM_TABLE.length)];
        for (int i = 0; i < types.length; i++) types[i] = WordDelimiterIterator.getType(i);
        for (Map.Entry<Character, Byte> e : map.entrySet()) types[e.getKey()] = e.getValue();
        return types;
    }

    @SuppressWarnings("unchecked")
    static Analyzer analyzer(Map<String, Object> spec) throws Exception {
        if (spec.containsKey("analyzer")) {
            Map<String, Object> d = def(spec.get("analyzer"));
            switch (str(d, "type", "")) {
                case "standard": {
                    StandardAnalyzer a = new StandardAnalyzer(words(list(d, "stopwords"), false, Collections.singletonList("_none_")));
                    a.setMaxTokenLength(num(d, "max_token_length", 255));
                    return a;
                }
                case "simple": return new SimpleAnalyzer();
                case "whitespace": return new WhitespaceAnalyzer();
                case "keyword": return new KeywordAnalyzer();
                case "stop": return new StopAnalyzer(words(list(d, "stopwords"), false, Collections.singletonList("_english_")));
                case "english": {
                    List<String> ex = list(d, "stem_exclusion");
                    return new EnglishAnalyzer(words(list(d, "stopwords"), false, Collections.singletonList("_english_")),
                        ex == null ? CharArraySet.EMPTY_SET : words(ex, false, null));
                }
                case "danish": return language(d, "da");
                case "dutch": return language(d, "nl");
                case "norwegian": return language(d, "no");
                case "romanian": return language(d, "ro");
                case "russian": return language(d, "ru");
                case "swedish": return language(d, "sv");
                case "german": return language(d, "de");
                case "french": return language(d, "fr");
                case "portuguese": return language(d, "pt");
                case "italian": return language(d, "it");
                case "spanish": return language(d, "es");
                case "arabic": return language(d, "ar");
                case "hindi": return language(d, "hi");
                case "armenian": return language(d, "hy");
                case "basque": return language(d, "eu");
                case "catalan": return language(d, "ca");
                case "irish": return language(d, "ga");
                case "bengali": return language(d, "bn");
                case "bulgarian": return language(d, "bg");
                case "czech": return language(d, "cz");
                case "finnish": return language(d, "fi");
                case "hungarian": return language(d, "hu");
                case "galician": return language(d, "gl");
                case "lithuanian": return language(d, "lt");
                case "estonian": return language(d, "et");
                case "brazilian": return language(d, "br");
                case "indonesian": return language(d, "id");
                case "latvian": return language(d, "lv");
                case "sorani": return language(d, "ckb");
                case "turkish": return language(d, "tr");
                case "greek": {
                    List<String> stop = list(d, "stopwords");
                    return new org.apache.lucene.analysis.el.GreekAnalyzer(stop == null ? org.apache.lucene.analysis.el.GreekAnalyzer.getDefaultStopSet() : words(stop, false, null));
                }
                case "persian": {
                    List<String> stop = list(d, "stopwords");
                    return new org.apache.lucene.analysis.fa.PersianAnalyzer(stop == null ? org.apache.lucene.analysis.fa.PersianAnalyzer.getDefaultStopSet() : words(stop, false, null));
                }
                case "cjk": {
                    List<String> stop = list(d, "stopwords");
                    return new org.apache.lucene.analysis.cjk.CJKAnalyzer(stop == null ? org.apache.lucene.analysis.cjk.CJKAnalyzer.getDefaultStopSet() : words(stop, false, null));
                }
                case "snowball": return snowball(d);
                case "fingerprint": {
                    CharArraySet stop = words(list(d, "stopwords"), false, Collections.singletonList("_none_"));
                    int max = num(d, "max_output_size", 255);
                    char sep = str(d, "separator", " ").charAt(0);
                    return new Analyzer() {
                        protected TokenStreamComponents createComponents(String f) {
                            Tokenizer t = new StandardTokenizer();
                            TokenStream s = new ASCIIFoldingFilter(new org.apache.lucene.analysis.LowerCaseFilter(t), false);
                            s = new org.apache.lucene.analysis.StopFilter(s, stop);
                            return new TokenStreamComponents(t, new FingerprintFilter(s, max, sep));
                        }
                    };
                }
                case "standard_html_strip": {
                    CharArraySet stop = words(list(d, "stopwords"), false, Collections.singletonList("_none_"));
                    return new Analyzer() {
                        protected Reader initReader(String f, Reader r) { return new org.apache.lucene.analysis.charfilter.HTMLStripCharFilter(r); }
                        protected TokenStreamComponents createComponents(String f) {
                            Tokenizer t = new StandardTokenizer();
                            return new TokenStreamComponents(t, new org.apache.lucene.analysis.StopFilter(new org.apache.lucene.analysis.LowerCaseFilter(t), stop));
                        }
                    };
                }
                case "pattern": {
                    Pattern p = Pattern.compile(str(d, "pattern", "\\W+"));
                    boolean lower = bool(d, "lowercase", true);
                    CharArraySet stop = words(list(d, "stopwords"), false, Collections.singletonList("_none_"));
                    return new Analyzer() {
                        protected TokenStreamComponents createComponents(String f) {
                            Tokenizer t = new PatternTokenizer(p, -1);
                            TokenStream s = lower ? new org.apache.lucene.analysis.LowerCaseFilter(t) : t;
                            return new TokenStreamComponents(t, new org.apache.lucene.analysis.StopFilter(s, stop));
                        }
                    };
                }
            }
            throw new IllegalArgumentException("analyzer " + d);
        }
        Map<String, Object> tok = def(spec.getOrDefault("tokenizer", "keyword"));
        List<Object> filters = (List<Object>) spec.getOrDefault("filter", new ArrayList<>());
        List<Object> chars = (List<Object>) spec.getOrDefault("char_filter", new ArrayList<>());
        tokenizer(tok); // fail early on a bad tokenizer
        // Synonym maps, built once per filter against the chain before it (ES's chain-aware factories).
        Map<Integer, org.apache.lucene.analysis.synonym.SynonymMap> maps = new HashMap<>();
        for (int i = 0; i < filters.size(); i++) {
            String type = str(def(filters.get(i)), "type", "");
            if (!type.equals("synonym") && !type.equals("synonym_graph")) continue;
            List<Object> before = new ArrayList<>();
            for (Object o : filters.subList(0, i)) {
                String t = str(def(o), "type", "");
                if (!t.equals("synonym") && !t.equals("synonym_graph")) before.add(o);
            }
            maps.put(i, synonymMap(def(filters.get(i)), chain(tok, chars, before, Collections.emptyMap())));
        }
        return chain(tok, chars, filters, maps);
    }

    static Analyzer chain(Map<String, Object> tok, List<Object> chars, List<Object> filters,
                          Map<Integer, org.apache.lucene.analysis.synonym.SynonymMap> maps) {
        return new Analyzer() {
            protected Reader initReader(String f, Reader r) {
                for (Object c : chars) r = charFilter(def(c), r);
                return r;
            }
            protected TokenStreamComponents createComponents(String f) {
                Tokenizer t = tokenizer(tok);
                TokenStream s = str(tok, "type", "").equals("lowercase") ? new org.apache.lucene.analysis.LowerCaseFilter(t) : t;
                try {
                    for (int i = 0; i < filters.size(); i++) {
                        Map<String, Object> d = def(filters.get(i));
                        org.apache.lucene.analysis.synonym.SynonymMap map = maps.get(i);
                        if (map != null) {
                            if (map.fst == null) continue;
                            s = str(d, "type", "").equals("synonym")
                                ? new org.apache.lucene.analysis.synonym.SynonymFilter(s, map, false)
                                : new org.apache.lucene.analysis.synonym.SynonymGraphFilter(s, map, false);
                        } else s = filter(d, s);
                    }
                } catch (Exception e) { throw new RuntimeException(e); }
                return new TokenStreamComponents(t, s);
            }
        };
    }

    /** ES's lenient parsers: a phrase the analyzer refuses is skipped with its pairs. */
    static class Solr extends org.apache.lucene.analysis.synonym.SolrSynonymParser {
        final boolean lenient;
        Solr(boolean expand, boolean lenient, Analyzer a) { super(true, expand, a); this.lenient = lenient; }
        @Override public void add(org.apache.lucene.util.CharsRef in, org.apache.lucene.util.CharsRef out, boolean orig) {
            if (!lenient || (in.length > 0 && out.length > 0)) super.add(in, out, orig);
        }
        @Override public org.apache.lucene.util.CharsRef analyze(String text, org.apache.lucene.util.CharsRefBuilder reuse) throws IOException {
            try { return super.analyze(text, reuse); } catch (IllegalArgumentException e) { if (lenient) return new org.apache.lucene.util.CharsRef(""); throw e; }
        }
    }
    static class Wordnet extends org.apache.lucene.analysis.synonym.WordnetSynonymParser {
        final boolean lenient;
        Wordnet(boolean expand, boolean lenient, Analyzer a) { super(true, expand, a); this.lenient = lenient; }
        @Override public void add(org.apache.lucene.util.CharsRef in, org.apache.lucene.util.CharsRef out, boolean orig) {
            if (!lenient || (in.length > 0 && out.length > 0)) super.add(in, out, orig);
        }
        @Override public org.apache.lucene.util.CharsRef analyze(String text, org.apache.lucene.util.CharsRefBuilder reuse) throws IOException {
            try { return super.analyze(text, reuse); } catch (IllegalArgumentException e) { if (lenient) return new org.apache.lucene.util.CharsRef(""); throw e; }
        }
    }

    static org.apache.lucene.analysis.synonym.SynonymMap synonymMap(Map<String, Object> d, Analyzer rulesAnalyzer) {
        StringBuilder rules = new StringBuilder();
        for (String line : list(d, "synonyms")) rules.append(line).append('\n');
        boolean expand = bool(d, "expand", true), lenient = bool(d, "lenient", false);
        try {
            if (str(d, "format", "").equalsIgnoreCase("wordnet")) {
                Wordnet p = new Wordnet(expand, lenient, rulesAnalyzer);
                p.parse(new StringReader(rules.toString()));
                return p.build();
            }
            Solr p = new Solr(expand, lenient, rulesAnalyzer);
            p.parse(new StringReader(rules.toString()));
            return p.build();
        } catch (Exception e) { throw new IllegalArgumentException("failed to build synonyms", e); }
    }

    public static void main(String[] args) throws Exception {
        Base64.Decoder dec = Base64.getDecoder();
        Base64.Encoder enc = Base64.getEncoder();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, "UTF-8");
        String line;
        while ((line = in.readLine()) != null) {
            int tab = line.indexOf('\t');
            String text = new String(dec.decode(line.substring(tab + 1)), StandardCharsets.UTF_8);
            StringBuilder sb = new StringBuilder();
            try (Analyzer a = analyzer(def(parse(line.substring(0, tab))));
                 TokenStream ts = a.tokenStream("f", text)) {
                CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
                PositionIncrementAttribute inc = ts.addAttribute(PositionIncrementAttribute.class);
                OffsetAttribute off = ts.addAttribute(OffsetAttribute.class);
                PositionLengthAttribute len = ts.addAttribute(PositionLengthAttribute.class);
                TypeAttribute type = ts.addAttribute(TypeAttribute.class);
                ts.reset();
                int position = -1;
                while (ts.incrementToken()) {
                    if (inc.getPositionIncrement() > 0) position += inc.getPositionIncrement();
                    if (sb.length() > 0) sb.append(' ');
                    sb.append(enc.encodeToString(term.toString().getBytes(StandardCharsets.UTF_8))).append(',')
                      .append(position).append(',').append(off.startOffset()).append(',').append(off.endOffset()).append(',')
                      .append(len.getPositionLength()).append(',').append(enc.encodeToString(type.type().getBytes(StandardCharsets.UTF_8)));
                }
                ts.end();
            } catch (Exception e) {
                sb.setLength(0);
                sb.append("ERR");
            }
            out.print(sb);
            out.print('\n');
        }
        out.flush();
    }
}
