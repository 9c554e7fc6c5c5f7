# Builds a word list for the stemmer comparison with Lucene (tests/lucene/StemWords.java
# and the ignored test `lucene_word_lists` in src/analysis/stemmers/snowball.rs): the
# words of Debian word lists / hunspell dictionaries (stems without affix flags,
# lowercased), plus a fixed random sample of them with every suffix of the stemmer's
# tables appended (Snowball: snowball_tables.rs `among`s of PREFIX; `RSLP:NAME`:
# rslp_tables.rs rules of NAME).
# Run: python3 tests/lucene/stem_word_lists.py LANG PREFIX OUT FILE... , e.g.
#   python3 tests/lucene/stem_word_lists.py et ESTONIAN /tmp/et.words /usr/share/hunspell/et_EE.dic
#   python3 tests/lucene/stem_word_lists.py gl RSLP:GALICIAN /tmp/gl.words /usr/share/dict/galician /usr/share/hunspell/gl_ES.dic
import os
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
import re, random, sys
lang, prefix, out = sys.argv[1], sys.argv[2], sys.argv[3]
files = sys.argv[4:]
words = set()
for f in files:
    enc = 'utf-8'
    if f.endswith('.dic'):
        for a in open(f[:-4] + '.aff', encoding='latin-1'):
            if a.startswith('SET '): enc = a.split()[1].strip()
    for i, l in enumerate(open(f, encoding=enc, errors='replace')):
        if f.endswith('.dic') and i == 0: continue
        l = l.strip().split('/')[0].split('\t')[0].lower()
        if l and ' ' not in l and '#' not in l: words.add(l)
src = open(ROOT + '/src/analysis/stemmers/snowball_tables.rs', encoding='utf-8').read()
sufs = set()
if prefix.startswith('RSLP'):
    src2 = open(ROOT + '/src/analysis/stemmers/rslp_tables.rs', encoding='utf-8').read()
    for block in re.findall(r'const %s_\w+: Step = Step \{(.*?)\n\};' % prefix[5:], src2, re.S):
        sufs.update(re.findall(r'Rule \{ suffix: "([^"]*)"', block))
elif prefix:
    for block in re.findall(r'const %s_\d+: &\[\(&str, i8\)\] = &\[(.*?)\];' % prefix, src, re.S):
        sufs.update(re.findall(r'\("((?:[^"\\]|\\.)*)", -?\d+\)', block))
random.seed(7)
base = sorted(words)
sample = random.sample(base, min(int(os.environ.get('SAMPLE', '800')), len(base)))
extra = set(w + s for w in sample for s in sufs)
allw = sorted(words | extra)
open(out, 'w', encoding='utf-8').write('\n'.join(allw) + '\n')
print(lang, len(words), 'dictionary words,', len(sufs), 'suffixes,', len(allw), 'in all')
