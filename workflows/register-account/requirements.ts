// Checks an account body against GET /accounts/requirements items (spec: Account requirement item): every
// applicable field present, matching its regex and, when the item has one, its enum. Every mismatch is
// reported, not the first only. The check itself lives in src/contract (zod-free), where the sandbox's POST
// /accounts runs it too: the workflow refuses exactly what the service would (deprecated rails read the same
// way, the country's default rails when the body sends none).
export { requirementViolations } from '../../src/contract/requirement-check';
