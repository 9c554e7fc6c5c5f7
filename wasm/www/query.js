// What the demo page asks the engine: one Elasticsearch 6.8 request body per search box
// state. Kept apart from the page so the tests build the very same bodies and ask the
// native engine for the answers the page must show.

/** The indices of the picker: the alias searched, what is matched and highlighted, the
 * facets (terms aggregations) and how a hit is titled. */
export const INDICES = [
  {
    id: 'tools',
    label: 'Tools',
    alias: 'RIN_Tool_pr',
    fields: ['item.name^3', 'item.description'],
    highlight: ['item.name', 'item.description'],
    title: 'item.name',
    subtitle: 'item.curie',
    facets: [
      { name: 'type', label: 'Resource type', field: 'item.types.name.aggregate' },
      { name: 'keyword', label: 'Keyword', field: 'item.keywords.keyword' },
    ],
  },
  {
    id: 'antibodies',
    label: 'Antibodies',
    alias: 'RIN_Antibody_pr',
    fields: ['item.name^3', 'item.description', 'antibodies.primary.targets.name'],
    highlight: ['item.name', 'item.description'],
    title: 'item.name',
    subtitle: 'rrid.properCitation',
    facets: [
      { name: 'organism', label: 'Target organism', field: 'antibodies.primary.targetSpecies.name.aggregate' },
      { name: 'clonality', label: 'Clonality', field: 'antibodies.primary.clonality.name.aggregate' },
      { name: 'vendor', label: 'Vendor', field: 'vendors.name.aggregate' },
    ],
  },
  {
    id: 'cell-lines',
    label: 'Cell lines',
    alias: 'RIN_CellLine_pr',
    fields: ['item.name^3', 'item.description'],
    highlight: ['item.name', 'item.description'],
    title: 'item.name',
    subtitle: 'rrid.properCitation',
    facets: [
      { name: 'type', label: 'Resource type', field: 'item.types.name.aggregate' },
      { name: 'keyword', label: 'Keyword', field: 'item.keywords.keyword' },
    ],
  },
  {
    id: 'organisms',
    label: 'Organisms',
    alias: 'RIN_Organism_pr',
    fields: ['item.name^3', 'item.description'],
    highlight: ['item.name', 'item.description'],
    title: 'item.name',
    subtitle: 'item.curie',
    facets: [
      { name: 'organism', label: 'Organism', field: 'organisms.related.species.name.aggregate' },
      { name: 'type', label: 'Resource type', field: 'item.types.name.aggregate' },
    ],
  },
  {
    id: 'lexicon',
    label: 'Lexicon',
    alias: 'Lexicon_pr',
    fields: ['label^3', 'definition', 'synonyms.literal'],
    highlight: ['label', 'definition'],
    title: 'label',
    subtitle: 'ilx',
    facets: [
      { name: 'type', label: 'Term type', field: 'type.aggregate' },
      { name: 'superclass', label: 'Superclass', field: 'superclasses.label.aggregate' },
    ],
  },
  {
    id: 'datasets',
    label: 'Datasets',
    alias: 'Portal_Dataset_pr',
    fields: ['item.name^3', 'item.description', 'item.keywords.keyword'],
    highlight: ['item.name', 'item.description'],
    title: 'item.name',
    subtitle: 'item.curie',
    facets: [
      { name: 'keyword', label: 'Keyword', field: 'item.keywords.keyword' },
      { name: 'type', label: 'Type', field: 'item.types.name.aggregate' },
    ],
  },
];

/** Hits per page. */
export const PAGE_SIZE = 10;
/** Buckets per facet. */
export const FACET_SIZE = 8;

/** The index entry of a picker id (the first one for an unknown id). */
export function indexById(id) {
  return INDICES.find((i) => i.id === id) ?? INDICES[0];
}

/**
 * The request body for the search box text `q`, the selected facet values `filters`
 * (`{field: [key, ...]}`, each an exact term filter, all of them required) and the page.
 *
 * Words are matched with all of them required in one field, or as a phrase whose last
 * word may be a prefix, so results appear while the last word is still being typed. An
 * index the page has no settings for (`generic`, from a file the user opened) gets a
 * plain query string over all fields.
 */
export function buildBody(index, q, filters = {}, page = 0) {
  const text = q.trim();
  const match = !text
    ? { match_all: {} }
    : index.generic
      ? { query_string: { query: text, lenient: true } }
      : {
        bool: {
          should: [
            { multi_match: { query: text, fields: index.fields, operator: 'and' } },
            { multi_match: { query: text, fields: index.fields, type: 'phrase_prefix' } },
          ],
          minimum_should_match: 1,
        },
      };
  const filter = [];
  for (const [field, keys] of Object.entries(filters)) {
    for (const key of keys) filter.push({ term: { [field]: key } });
  }
  const aggs = {};
  for (const f of index.facets) aggs[f.name] = { terms: { field: f.field, size: FACET_SIZE } };
  const highlight = { fields: {} };
  for (const f of index.highlight) highlight.fields[f] = {};
  return {
    from: page * PAGE_SIZE,
    size: PAGE_SIZE,
    query: filter.length ? { bool: { must: [match], filter } } : match,
    highlight,
    aggs,
  };
}

/** The value at a dotted path of a `_source`, the first one where arrays intervene. */
export function pick(source, path) {
  let v = source;
  for (const part of path.split('.')) {
    if (Array.isArray(v)) v = v[0];
    if (v == null || typeof v !== 'object') return undefined;
    v = v[part];
  }
  return Array.isArray(v) ? v[0] : v;
}
