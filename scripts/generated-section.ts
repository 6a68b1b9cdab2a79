// The text between a pair of markers in a Markdown file belongs to a generator (the configuration
// table of docs/operations.md, each benchmark's section of bench/RESULTS.md): it is replaced as a
// whole, and everything outside the markers is left as it was written.

const startMarker = (name: string) => `<!-- generated:${name} start -->`;
const endMarker = (name: string) => `<!-- generated:${name} end -->`;

/** The markers and body of section `name`, as they stand in a document. */
export const generatedSection = (name: string, body: string): string => `${startMarker(name)}\n${body.trim()}\n${endMarker(name)}`;

/** Where section `name` starts and ends in `document` (the markers included), or undefined when it has none. */
function sectionBounds(document: string, name: string): { start: number; end: number } | undefined {
  const start = document.indexOf(startMarker(name));
  if (start < 0) return undefined;
  const end = document.indexOf(endMarker(name), start);
  if (end < 0) throw new Error(`"${startMarker(name)}" has no "${endMarker(name)}" after it`);
  return { start, end: end + endMarker(name).length };
}

/** The body of section `name` in `document` (without its markers), or undefined when it has none. */
export function readGeneratedSection(document: string, name: string): string | undefined {
  const bounds = sectionBounds(document, name);
  return bounds && document.slice(bounds.start + startMarker(name).length, bounds.end - endMarker(name).length).trim();
}

/**
 * `document` with the body of section `name` replaced by `body`. A document without the section
 * gets it appended when `append` is set; otherwise that is an error, since a hand-written document
 * decides where its generated part stands.
 */
export function replaceGeneratedSection(document: string, name: string, body: string, { append = false } = {}): string {
  const bounds = sectionBounds(document, name);
  if (bounds) return `${document.slice(0, bounds.start)}${generatedSection(name, body)}${document.slice(bounds.end)}`;
  if (!append) throw new Error(`the document has no "${startMarker(name)}" marker`);
  return `${document.trimEnd()}\n\n${generatedSection(name, body)}\n`;
}
