import { readFileSync } from 'node:fs';
const text = readFileSync('/tmp/ids.json', 'utf8');
const obj = JSON.parse(text);
// the same answer with each listing as JSON text (a stored field)
const alt = JSON.stringify({ ...obj, hits: { ...obj.hits, hits: obj.hits.hits.map((h) => ({ fields: { listing_text: [JSON.stringify(h._source.listing)] } })) } });
console.log('sizes', text.length, alt.length);
function bench(name, fn) { for (let i = 0; i < 20000; i++) fn(); const t = process.hrtime.bigint(); const n = 50000; for (let i = 0; i < n; i++) fn(); console.log(name, (Number(process.hrtime.bigint() - t) / n / 1000).toFixed(1), 'us'); }
bench('objects: parse + stringify each', () => { const o = JSON.parse(text); return o.hits.hits.map((h) => JSON.stringify(h._source.listing)).join(','); });
bench('text: parse', () => { const o = JSON.parse(alt); return o.hits.hits.map((h) => h.fields.listing_text[0]).join(','); });
bench('floor: parse + stringify all', () => JSON.stringify(JSON.parse(text)));
