/** `diagnostics`: what a bug report needs. */
import { defineCommand } from '../command';

export const diagnostics = defineCommand({
  name: 'diagnostics',
  summary: "Prints what a bug report needs: versions, platform, the last sync and the log's last lines (no password or key).",
  async run(ctx) {
    const d = await ctx.core.getDiagnostics();
    ctx.out(d, d.text);
  },
});
