// Through which door a write reached a listing, recorded with each version of its history
// (docs/partners/edits-and-history.md, "Who changed what"): `api` a partner's key on the HTTP API,
// `admin` an admin's key there, `import` an item of a bulk import, `system` the service's own
// writes (ops commands such as the sample data).
export const WRITE_CHANNELS = ['api', 'import', 'admin', 'system'] as const;

export type WriteChannel = (typeof WRITE_CHANNELS)[number];
