// docs/contract.md §3: who may change a listing. "Other partner" means the listing is claimed, and
// not by the caller; admins are never "other".
import type { Caller } from '../partners/partners-service.js';

export function isClaimedByOther(claimedBy: number | null, caller: Caller): boolean {
  return claimedBy !== null && claimedBy !== caller.partnerId && caller.role !== 'admin';
}
