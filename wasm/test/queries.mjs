// The requests both test layers ask: each is answered by the native engine (the release
// CLI, see native-fixtures.mjs) and by the WASM module, and the answers must be equal.

import { buildBody, indexById } from '../www/query.js';

/** The query the browser test types, and the index it types it in. */
export const PAGE_QUERY = { index: 'tools', text: 'sequence alignment' };

/** The page's body for the browser test's query, before and after a facet click. */
export function pageBodies(filters = {}, page = 0) {
  return buildBody(indexById(PAGE_QUERY.index), PAGE_QUERY.text, filters, page);
}

/** `{name, index, body?, q?, expectError?}`: `q` is a URI search's `q` parameter. */
export const QUERIES = [
  // The budget query: a two-term match on the tool registry.
  { name: 'tools-match-2-terms', index: 'RIN_Tool_pr', body: { query: { match: { 'item.description': 'sequence alignment' } } } },
  { name: 'page-tools', index: 'RIN_Tool_pr', body: pageBodies() },
  { name: 'page-tools-next', index: 'RIN_Tool_pr', body: pageBodies({}, 1) },
  { name: 'page-tools-first-open', index: 'RIN_Tool_pr', body: buildBody(indexById('tools'), '') },
  { name: 'page-tools-page-2', index: 'RIN_Tool_pr', body: buildBody(indexById('tools'), 'data', {}, 1) },
  { name: 'page-lexicon', index: 'Lexicon_pr', body: buildBody(indexById('lexicon'), 'heart valv') },
  { name: 'page-antibodies-empty-box', index: 'RIN_Antibody_pr', body: buildBody(indexById('antibodies'), '') },
  { name: 'page-organisms', index: 'RIN_Organism_pr', body: buildBody(indexById('organisms'), 'mus') },
  { name: 'page-cell-lines', index: 'RIN_CellLine_pr', body: buildBody(indexById('cell-lines'), 'carcinoma') },
  { name: 'page-datasets', index: 'Portal_Dataset_pr', body: buildBody(indexById('datasets'), 'heart') },
  {
    name: 'lexicon-source-filter',
    index: 'Lexicon_pr',
    body: { query: { match: { label: 'heart valve' } }, _source: ['label', 'ilx'] },
  },
  {
    name: 'tools-highlight',
    index: 'RIN_Tool_pr',
    body: { query: { match: { 'item.description': 'protein structure' } }, highlight: { fields: { 'item.description': {} } }, size: 5 },
  },
  {
    name: 'tools-terms-aggs',
    index: 'RIN_Tool_pr',
    body: {
      size: 0,
      query: { match: { 'item.description': 'genome' } },
      aggs: {
        types: { terms: { field: 'item.types.name.aggregate', size: 10 } },
        keywords: { terms: { field: 'item.keywords.keyword', size: 5 } },
      },
    },
  },
  {
    name: 'tools-sort-filter',
    index: 'RIN_Tool_pr',
    body: {
      from: 20,
      size: 5,
      query: { bool: { must: [{ match: { 'item.description': 'analysis' } }], filter: [{ exists: { field: 'item.keywords.keyword' } }] } },
      sort: [{ 'item.name.aggregate': 'asc' }],
      _source: ['item.name'],
    },
  },
  { name: 'all-registries', index: 'RIN_*_pr', body: { query: { query_string: { query: 'mouse AND brain' } }, size: 3 } },
  { name: 'uri-search', index: 'RIN_Tool_pr', q: 'alignment AND item.types.name:database' },
  // Scripts run in the browser as natively: the SPARC portal's anatomy facet over _source,
  // a script score with params, script fields, and a script's compile error.
  {
    name: 'script-sparc-anatomy-facet',
    index: 'Portal_Dataset_pr',
    body: {
      from: 0, size: 0,
      aggregations: { names_and_curies: { terms: { size: 200, script: { lang: 'painless', inline: "def a=null;if(params['_source']['anatomy'] != null ) { if(params['_source']['anatomy']['organ'] != null ) { a = params['_source']['anatomy']['organ'];}} return a;" } } } },
    },
  },
  {
    name: 'script-score-and-fields',
    index: 'RIN_Tool_pr',
    body: {
      size: 5,
      query: { function_score: { query: { match: { 'item.description': 'alignment' } }, script_score: { script: { source: '_score * params.f + 1', params: { f: 2.5 } } } } },
      script_fields: { name_length: { script: { source: "params['_source']['item']['name'].length()" } } },
      _source: ['item.name'],
    },
  },
  { name: 'error-script-compile', index: 'RIN_Tool_pr', body: { script_fields: { x: { script: { source: '1 +' } } } }, expectError: true },
  { name: 'error-unknown-query', index: 'RIN_Tool_pr', body: { query: { no_such_query: {} } }, expectError: true },
  { name: 'error-missing-index', index: 'No_Such_pr', body: {}, expectError: true },
  // Scroll: every id of this search, in order, is what the scroll must return page by page.
  { name: 'scroll-all-organisms', index: 'RIN_Organism_pr', body: { size: 2000, sort: ['_doc'], _source: false } },
];
