// Content negotiation of the one streamed answer we compress (the export, docs/contract.md §16).

/**
 * Whether an Accept-Encoding header allows gzip (RFC 9110 §12.5.3): named with a non-zero q, or
 * covered by `*` without being refused by name. Absent header: no compression.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [coding, ...params] = part.split(';').map((s) => s.trim());
    if (!coding) continue;
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(coding, Number.isNaN(weight) ? 0 : weight);
  }
  const gzip = weights.get('gzip') ?? weights.get('x-gzip') ?? weights.get('*');
  return gzip !== undefined && gzip > 0;
}
