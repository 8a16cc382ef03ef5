// The skeleton's two activities: no I/O, so the skeleton measures Temporal's own floor (issue 12, P1/P2).
export function createSkeletonActivities() {
  return {
    async skeletonQuote(key: string): Promise<string> {
      return `quote-${key}`;
    },
    async skeletonCreate(key: string): Promise<string> {
      return `created-${key}`;
    },
  };
}
export type SkeletonActivities = ReturnType<typeof createSkeletonActivities>;
