// JSON text that goes out as it came in: search results arrive from OpenSearch as JSON text
// (`result_view` and `listing_text`, written by JSON.stringify in indexer/listing-document.ts) and
// are spliced into the response unparsed (docs/search.md "Reading the hits"); parsing each one
// only to write it again cost the API CPU on every hit.

declare const shape: unique symbol;

/** The JSON text of a `T`, exactly as JSON.stringify writes it (no whitespace). */
export type JsonText<T> = string & { readonly [shape]: T };

export const jsonText = <T>(value: T): JsonText<T> => JSON.stringify(value) as JsonText<T>;

/**
 * The text of `{ ...object, ...members }` without parsing `object`: byte for byte what
 * JSON.stringify writes for the merged object, because `members` adds no key `object` has (the
 * type refuses one) and JSON.stringify itself writes the added members, in their order.
 */
export function withMembers<T extends object, M extends object>(object: JsonText<T>, members: M & { [K in keyof T]?: never }): JsonText<T & M> {
  const added = JSON.stringify(members);
  if (added === '{}') return object as string as JsonText<T & M>;
  return (object === '{}' ? added : `${object.slice(0, -1)},${added.slice(1)}`) as JsonText<T & M>;
}

/**
 * `text` without `item`, an object that is an element of one of its arrays other than the first:
 * byte for byte what JSON.stringify writes for the value with that element left out. JSON.stringify
 * writes the same object the same way wherever it stands; the item's text, quoted keys and all,
 * cannot occur inside a JSON string (whose quotes are escaped), and a `,` before an object starts
 * an array element. Its last occurrence is cut.
 */
export function withoutItem(text: string, item: object): string {
  const written = `,${JSON.stringify(item)}`;
  const at = text.lastIndexOf(written);
  if (at < 0) throw new Error('withoutItem: the item is not an element of the text, after the first of its array');
  return text.slice(0, at) + text.slice(at + written.length);
}
