/** Written by scripts/vite-islands.ts: each island's browser entry and the chunks it imports. */
declare module "virtual:islands" {
  const islands: Readonly<Record<string, { src: string; imports: readonly string[] }>>;
  export default islands;
}
