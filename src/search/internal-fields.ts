// Every field of an index document that exists only for the query builders (folded text, typo
// forms, opening-hours ranges, the stored result views) lives under one object, `internal`
// (mappings/listings.json, mappings/categories.json). Analysts see them apart from the fields meant
// for them (docs/analytics.md), and the /analytics endpoints leave them out of every answer.
// Queries name such a field by its path.

/** The document's object that holds the internal fields. */
export const INTERNAL_OBJECT = 'internal';

/** The path of an internal field, as queries name it: `internal.name_words`. */
export const internalField = <N extends string>(name: N): `internal.${N}` => `${INTERNAL_OBJECT}.${name}` as `internal.${N}`;
