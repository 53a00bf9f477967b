/** Row ids are UUIDs: anything else is no row at all (checked before a query, so a bad id is a 404, not a database error). */
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (id: string): boolean => UUID_RE.test(id);
