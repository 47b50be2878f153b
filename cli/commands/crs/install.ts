// wafctl crs install [VERSION] [--from URL|FILE|DIR] [--sha256 HEX]
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';
import { parseCrsVersion, parseSha256 } from './version-argument.js';

interface InstallOptions {
  from?: string;
  sha256?: string;
}

export function registerCrsInstall(crs: Command, deps: CommandDeps): void {
  crs
    .command('install')
    .description('download a CRS release (default: the newest 4.x), verify it, unpack it into the data dir and check that it loads')
    .argument('[version]', 'the release to install, e.g. 4.28.0 (default: the newest 4.x release)', parseCrsVersion)
    .option('--from <url|file|dir>', 'take coreruleset-<version>.tar.gz from a URL, a file or a directory instead of GitHub; its signature is <archive>.asc beside it')
    .option('--sha256 <hex>', "accept the archive by this SHA-256 instead of CRS's signature (a mirror without .asc files)", parseSha256)
    .addHelpText(
      'after',
      '\nThe archive must carry a good signature by the pinned CRS release key (fingerprint 3600 6F0E 0BA1 6783 2158 8211 38EE ACA1 AB8A 6E72),\nor match --sha256. The first version installed becomes the selected one; select another with `wafctl crs use VERSION`.\n\nExamples:\n  wafctl crs install\n  wafctl crs install 4.28.0 --from ./coreruleset-4.28.0.tar.gz\n  wafctl crs install --from https://mirror.example/crs/coreruleset-4.28.0.tar.gz --sha256 HEX\n',
    )
    .action(
      withContext(deps, async (ctx, version: string | undefined, options: InstallOptions) => {
        if (!options.from) ctx.out.info(`looking up ${version ? `CRS ${version}` : 'the newest CRS 4.x release'} on GitHub...`);
        const report = await ctx.crs().install({ version, from: options.from, sha256: options.sha256 });
        if (report.already_installed) {
          ctx.out.info(`CRS ${report.version} is already installed at ${report.path}; nothing changed`);
        } else {
          const proof = report.verified?.kind === 'signature' ? `signature by ${report.verified.fingerprint}` : `sha256 ${report.verified?.sha256}`;
          ctx.out.info(`installed CRS ${report.version} at ${report.path} (${proof}; ${report.rules} rules load)`);
        }
        ctx.out.info(
          report.selected
            ? 'it is the selected rule set: a running daemon switches to it on `wafctl daemon reload`'
            : `select it with \`wafctl crs use ${report.version}\``,
        );
        ctx.out.data(report, () => '');
      }),
    );
}
